"""Strømkrig: one test per rule SK-1..SK-14 on set-up positions, plus whole-game checks."""

from __future__ import annotations

import dataclasses
import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kraftstokk.design.numbers import printed_figure
from kraftstokk.errors import GameError, SimulationError
from kraftstokk.games import registry
from kraftstokk.games.core import GWH, HEAD, MW, DeckTable
from kraftstokk.games.narration import Narrator
from kraftstokk.games.replay import load_replay, make_replay, replay_log
from kraftstokk.games.runner import play_game, replay
from kraftstokk.games.stromkrig.actions import (
    ASK,
    BURN,
    CHANCE,
    CHOOSE,
    INVISIBLE,
    JOIN,
    LAY,
    NAME,
    NAMING,
    OVER,
    PLAY,
    RESET,
    RUN,
    STAY_OUT,
    TAKE,
    WAR,
    WAR_LAY,
)
from kraftstokk.games.stromkrig.bots import GreedyBot, HeuristicBot
from kraftstokk.games.stromkrig.rules import WarReason, production_tens
from kraftstokk.games.stromkrig.state import StromkrigGame, StromkrigState


@pytest.fixture
def table(deck) -> DeckTable:
    return DeckTable.from_deck(deck)


def card(table: DeckTable, card_id: str) -> int:
    return table.index_of(card_id)


def by_gwh_nr(table: DeckTable, nr: int) -> int:
    return table.nr[GWH].index(nr)


def with_production(table: DeckTable, figures: dict[int, float]) -> DeckTable:
    """The table with some production figures replaced (ranks kept)."""
    gwh = list(table.figures[GWH])
    tens = list(table.gwh_tens)
    printed = list(table.printed[GWH])
    for index, value in figures.items():
        gwh[index] = value
        tens[index] = int(value // 10) * 10
        printed[index] = printed_figure(value, table.decimals[GWH])
    new_figures = tuple(tuple(gwh) if k == GWH else table.figures[k] for k in range(3))
    new_printed = tuple(tuple(printed) if k == GWH else table.printed[k] for k in range(3))
    return dataclasses.replace(
        table, figures=new_figures, gwh_tens=tuple(tens), printed=new_printed
    )


SUIT_WORDS = {
    "nb": {"spar": "spar", "hjerter": "hjerter", "kløver": "kløver", "ruter": "ruter"},
    "en": {"spar": "spades", "hjerter": "hearts", "kløver": "clubs", "ruter": "diamonds"},
}
VALUE_WORDS = {
    "nb": {1: "ess", 11: "knekt", 12: "dame", 13: "konge"},
    "en": {1: "ace", 11: "jack", 12: "queen", 13: "king"},
}


def spoken(table: DeckTable, index: int, lang: str = "en") -> str:
    """A card as the sentences name it, worked out from its id ('kløver-11')."""
    card_id = table.ids[index]
    if card_id.startswith("joker"):
        return "joker"
    suit, value = card_id.rsplit("-", 1)
    number = int(value)
    return (
        f"{table.names[index]} ({SUIT_WORDS[lang][suit]} "
        f"{VALUE_WORDS[lang].get(number, str(number))})"
    )


def position(
    table: DeckTable, players: int = 2, variants: tuple[str, ...] = (), **kwargs: Any
) -> StromkrigState:
    return StromkrigState.from_position(StromkrigGame(table, players, variants), **kwargs)


def ordinary(table: DeckTable, count: int, exclude: frozenset[int] = frozenset()) -> list[int]:
    """Plain plant cards (no club, no 2, not invisible, no tens partner), high production."""
    game = StromkrigGame(table, 2)
    tens = [production_tens(gwh) for gwh in table.figures[GWH]]
    tens_count: dict[int, int] = {}
    for c in table.plant_cards:
        tens_count[tens[c]] = tens_count.get(tens[c], 0) + 1
    found = [
        c
        for c in table.plant_cards
        if c not in exclude
        and not game.war_club[c]
        and not game.burner[c]
        and not game.resetter[c]
        and not game.invisible[c]
        and tens_count[tens[c]] == 1
        and table.suit[c] != 2
    ]
    return found[:count]


def other(table: DeckTable, *used: int) -> int:
    """A plain card none of ``used`` (positions give every card one place)."""
    return ordinary(table, 1, exclude=frozenset(used))[0]


def test_a_position_with_a_card_in_two_places_is_refused(table):
    x, y = ordinary(table, 2)
    with pytest.raises(GameError, match=f"card {y} is both in hand:1 and pile"):
        position(table, hands=[[x], [y]], pile=[y], top_owner=1)


# ------------------------------------------------------------------------- SK-1


def test_sk1_deal_three_each_all_55_cards_dealer_starts(table):
    for players in range(2, 7):
        game = StromkrigGame(table, players, dealer=players - 1)
        state = game.new_initial_state(random.Random(3))
        assert [len(hand) for hand in state.hands] == [3] * players
        assert len(state.stock) == 55 - 3 * players
        assert state.current_player() == players - 1
        state.check_invariants()
        assert sorted(c for place in state.card_locations().values() for c in place) == list(
            range(55)
        )
    assert StromkrigGame(table, 3).new_initial_state(random.Random(1)).current_player() == 0
    for players in (1, 7):
        with pytest.raises(GameError, match="2-6 players"):
            StromkrigGame(table, players)
    with pytest.raises(GameError, match="dealer"):
        StromkrigGame(table, 3, dealer=3)


# ------------------------------------------------------------------------- SK-2


def test_sk2_strictly_higher_production_to_lay(table):
    low, mid, high = sorted(ordinary(table, 3), key=lambda c: table.figures[GWH][c])
    state = position(
        table, hands=[[low, high], [other(table, low, mid, high)]], pile=[mid], top_owner=1
    )
    lays = [a for a in state.legal_actions() if a[0] == LAY]
    assert lays == [(LAY, high)]
    state.apply((LAY, high))
    assert state.top == high and state.pile == [mid, high]
    assert state.current_player() == 1
    with pytest.raises(GameError, match="not legal"):
        state.apply((LAY, low))


# ------------------------------------------------------------------------- SK-3


def test_sk3_draw_back_up_to_three_after_laying(table):
    a, b, c, d, e = ordinary(table, 5)
    state = position(table, hands=[[a, b, c], [d]], stock=[e])
    state.apply((LAY, a))
    assert sorted(state.hands[0]) == sorted([b, c, e]) and state.stock == []


def test_sk3_chance_draw_legal_card_is_laid(table):
    low, high, x, y = sorted(ordinary(table, 4), key=lambda c: table.figures[GWH][c])
    state = position(table, hands=[[x], [y]], stock=[high], pile=[low], top_owner=1)
    assert (CHANCE,) in state.legal_actions()
    state.apply((CHANCE,))
    assert state.phase == CHOOSE and state.current_player() == 0
    assert state.legal_actions() == [(LAY, high)]
    assert state.observation(1).chance_card == high
    state.apply((LAY, high))
    assert state.top == high and state.hands[0] == [x] and state.stock == []
    assert state.final_stats().counters["chance_draws"] == 1
    assert state.final_stats().counters["chance_draws_played"] == 1
    assert state.current_player() == 1


def test_sk3_chance_draw_illegal_card_takes_the_pile_with_it(table):
    low, high, x, y = sorted(ordinary(table, 4), key=lambda c: table.figures[GWH][c])
    state = position(table, hands=[[x], [y]], stock=[low], pile=[high], top_owner=1)
    state.apply((CHANCE,))
    assert sorted(state.hands[0]) == sorted([x, low, high])
    assert state.pile == [] and state.top == -1
    assert state.current_player() == 1
    assert state.final_stats().counters["pile_pickups"] == 1
    assert "chance_draws_played" not in state.final_stats().counters


def chance_position(table: DeckTable, turned: int, top: int) -> StromkrigState:
    """Seat 1 turns ``turned`` from the stock onto seat 2's ``top``."""
    x, y, z = ordinary(table, 3, exclude=frozenset({turned, top}))
    state = position(table, hands=[[x], [y]], stock=[z, turned], pile=[top], top_owner=1)
    state.apply((CHANCE,))
    assert state.phase == CHOOSE and state.chance_card == turned
    return state


def test_sk3_a_turned_two_keeps_its_use_and_may_reset(table):
    two = card(table, "hjerter-2")
    top = by_gwh_nr(table, 1)
    state = chance_position(table, two, top)
    assert (RESET, two) in state.legal_actions() and (LAY, two) not in state.legal_actions()
    state.apply((RESET, two))
    assert state.pile == [top, two] and state.top == -1 and state.stock != []
    assert state.current_player() == 1
    counters = state.final_stats().counters
    assert counters["resets"] == 1 and counters["chance_draws_played"] == 1
    assert "pile_pickups" not in counters


@pytest.mark.parametrize("burner", ["joker-3", "kløver-4"])
def test_sk3_a_turned_burn_card_burns_and_the_player_starts_again(table, burner):
    burn = card(table, burner)
    top = by_gwh_nr(table, 1)
    state = chance_position(table, burn, top)
    assert (BURN, burn) in state.legal_actions()
    state.apply((BURN, burn))
    assert state.pile == [] and top in state.burned and burn in state.burned
    assert state.current_player() == 0 and state.phase == PLAY
    assert state.final_stats().counters["burns"] == 1


def test_sk3_a_turned_invisible_card_goes_beside_the_pile(table):
    game = StromkrigGame(table, 2)
    top = by_gwh_nr(table, 1)
    inv = next(
        c
        for c in table.plant_cards
        if game.invisible[c]
        and not game.burner[c]
        and not game.resetter[c]
        and not game.may_lay[top][c]
    )
    state = chance_position(table, inv, top)
    assert state.legal_actions() == [(INVISIBLE, inv)]  # too low to lay on the pile
    state.apply((INVISIBLE, inv))
    assert state.beside == [inv] and state.pile == [top] and state.top == top
    assert state.current_player() == 1 and state.final_stats().counters["invisible_plays"] == 1


def test_sk3_a_turned_card_of_the_same_tens_starts_a_war(table):
    a, b = by_gwh_nr(table, 44), by_gwh_nr(table, 45)
    table = with_production(table, {a: 879.0, b: 871.0})
    state = chance_position(table, b, a)
    assert state.legal_actions() == [(LAY, b)]  # lower, but the same tens (SK-6b)
    state.apply((LAY, b))
    assert state.phase == NAMING and state.current_player() == 0
    assert state.final_stats().counters["wars"] == 1 and state.pile == [a, b]


def test_sk3_a_turned_special_card_is_never_taken_home(table):
    """On the highest card of the deck every 2, burn card and invisible card has a use."""
    game = StromkrigGame(table, 2)
    top = by_gwh_nr(table, 1)
    specials = [
        c
        for c in range(table.size)
        if c != top and (game.burner[c] or game.resetter[c] or game.invisible[c])
    ]
    assert len(specials) >= 3 + 4 + 4
    for special in specials:
        state = chance_position(table, special, top)
        assert state.legal_actions(), table.describe(special)
        assert all(action[1] == special for action in state.legal_actions())


# ------------------------------------------------------------------------- SK-4


def test_sk4_take_the_pile_when_unable_or_unwilling_next_player_starts(table):
    low, mid, high, x = sorted(ordinary(table, 4), key=lambda c: table.figures[GWH][c])
    state = position(table, players=3, hands=[[low, high], [x], [mid]])
    assert (TAKE,) not in state.legal_actions()  # nothing to take on an empty pile
    state.apply((LAY, high))
    assert state.current_player() == 1
    assert (TAKE,) in state.legal_actions()
    state.apply((TAKE,))  # unwilling, or unable: the same action
    assert high in state.hands[1] and state.pile == []
    assert state.current_player() == 2
    assert all(a[0] != TAKE for a in state.legal_actions())  # seat 3 starts a new pile


# ------------------------------------------------------------------------- SK-5


def test_sk5_runs_consecutive_production_nr_lowest_first(table):
    c13, c14, c15 = (by_gwh_nr(table, nr) for nr in (13, 14, 15))
    top = by_gwh_nr(table, 20)
    seat1 = [other(table, c13, c14, c15, top)]
    state = position(table, hands=[[c13, c15, c14], seat1], pile=[top], top_owner=1)
    runs = [a for a in state.legal_actions() if a[0] == RUN]
    assert sorted(runs) == sorted([(RUN, c15, c14), (RUN, c15, c14, c13), (RUN, c14, c13)])
    assert state.action_to_string((RUN, c15, c14)) == (
        f"lay a run: {spoken(table, c15)} · {table.figure_text(GWH, c15)}, "
        f"{spoken(table, c14)} · {table.figure_text(GWH, c14)}"
    )
    state.apply((RUN, c15, c14, c13))
    assert state.pile == [top, c15, c14, c13] and state.top == c13
    stats = state.final_stats()
    assert stats.counters["runs"] == 1 and stats.samples["run_lengths"] == [3]
    assert stats.cards_played[c14] == 1


def test_sk5_a_run_must_beat_the_top_with_its_first_card(table):
    c30, c31 = by_gwh_nr(table, 30), by_gwh_nr(table, 31)
    top = by_gwh_nr(table, 25)
    seat1 = [other(table, c30, c31, top)]
    state = position(table, hands=[[c30, c31], seat1], pile=[top], top_owner=1)
    assert [a for a in state.legal_actions() if a[0] == RUN] == []


def test_sk5_a_run_whose_first_card_has_the_same_tens_starts_a_war(table):
    c13, c14, top = by_gwh_nr(table, 13), by_gwh_nr(table, 14), by_gwh_nr(table, 20)
    table = with_production(table, {top: 3501.0, c14: 3505.0, c13: 3600.0})
    x = ordinary(table, 2, exclude=frozenset({c13, c14, top}))
    state = position(table, hands=[[c14, c13, x[0]], [x[1]]], pile=[top], top_owner=1)
    state.apply((RUN, c14, c13))
    assert state.phase == NAMING and state.top == c13
    assert kinds(state) == ["RunLaid", "WarStarted"]
    assert state.events[1].reasons == (WarReason.SAME_TENS,)


# ------------------------------------------------------------------------- SK-6


def test_sk6_871_after_879_starts_a_war(table):
    a, b = by_gwh_nr(table, 44), by_gwh_nr(table, 45)
    table = with_production(table, {a: 879.0, b: 871.0})
    extra = ordinary(table, 2, exclude=frozenset({a, b}))
    state = position(table, hands=[[b, *extra[:1]], extra[1:]], pile=[a], top_owner=1)
    assert state.action_to_string((LAY, b)) == f"lay {spoken(table, b)} · 871 GWh"
    assert (LAY, b) in state.legal_actions()  # lower, but the same tens (SK-6b)
    state.apply((LAY, b))
    assert state.phase == NAMING and state.current_player() == 0
    assert state.final_stats().counters["wars"] == 1
    assert state.observation(1).war_players == (0, 1)


def test_sk6_lower_card_of_other_tens_is_not_legal(table):
    low, high = sorted(ordinary(table, 2), key=lambda c: table.figures[GWH][c])
    state = position(table, hands=[[low], [other(table, low, high)]], pile=[high], top_owner=1)
    assert (LAY, low) not in state.legal_actions()


def test_sk6_club_on_club_starts_a_war_but_not_clubs_1_to_4(table):
    club7, club9 = card(table, "kløver-7"), card(table, "kløver-9")
    assert table.figures[GWH][club7] < table.figures[GWH][club9]
    spar5, spar6 = card(table, "spar-5"), card(table, "spar-6")
    state = position(table, hands=[[club9, spar5], [spar6]], pile=[club7], top_owner=1)
    state.apply((LAY, club9))
    assert state.phase == NAMING and state.final_stats().counters["wars"] == 1
    # A club 3 laid as an ordinary card on a club does not start a war.
    club3, club_k = card(table, "kløver-3"), card(table, "kløver-13")
    low = by_gwh_nr(table, 52)
    lower_club = min(club3, club_k, key=lambda c: table.figures[GWH][c])
    higher_club = max(club3, club_k, key=lambda c: table.figures[GWH][c])
    state = position(table, hands=[[higher_club, low], [spar6]], pile=[lower_club], top_owner=1)
    state.apply((LAY, higher_club))
    assert state.phase == PLAY and "wars" not in state.final_stats().counters


def test_sk6_club_on_club_still_needs_higher_production(table):
    club6, club9 = card(table, "kløver-6"), card(table, "kløver-9")
    assert table.figures[GWH][club6] < table.figures[GWH][club9]
    seat1 = [other(table, club6, club9)]
    state = position(table, hands=[[club6], seat1], pile=[club9], top_owner=1)
    assert (LAY, club6) not in state.legal_actions()


# ------------------------------------------------------------------------- SK-7 / SK-8


def war_position(
    table: DeckTable, players: int, hands: list[list[int]], stock: tuple[int, ...] = ()
) -> tuple[StromkrigState, int, int]:
    """Seat 1 lays ``hands[0][0]`` on seat 2's 879 GWh card with 871 GWh: a war."""
    a, b = by_gwh_nr(table, 44), by_gwh_nr(table, 45)
    table = with_production(table, {a: 879.0, b: 871.0})
    state = position(
        table, players=players, hands=[[b, *hands[0]], *hands[1:]], stock=stock, pile=[a],
        top_owner=1,
    )  # fmt: skip
    state.apply((LAY, b))
    return state, a, b


def test_sk7_others_may_join_in_seating_order_challenger_names_and_lays_first(table):
    w = sorted(ordinary(table, 8), key=lambda c: table.figures[MW][c])  # by effekt
    hands = [[w[7], w[0]], [w[1], w[2]], [w[3]], [w[4]]]
    state, a, b = war_position(table, 4, hands)
    assert state.phase == ASK and state.current_player() == 2
    assert state.legal_actions() == [(JOIN,), (STAY_OUT,)]
    state.apply((JOIN,))
    assert state.phase == ASK and state.current_player() == 3
    state.apply((STAY_OUT,))
    assert state.phase == NAMING and state.current_player() == 0
    assert state.action_to_string((NAME, MW)) == "name capacity"
    state.apply((NAME, MW))
    assert state.final_stats().samples["war_sizes"] == [3]
    assert state.phase == WAR and state.current_player() == 0
    state.apply((WAR_LAY, w[7]))
    assert state.current_player() == 1
    state.apply((WAR_LAY, w[1]))
    assert state.current_player() == 2
    state.apply((WAR_LAY, w[3]))
    # Lowest effekt (seat 2's w[1]) takes the pile with the war cards (SK-7) and starts (SK-8).
    assert sorted(state.hands[1]) == sorted([w[2], a, b, w[7], w[1], w[3]])
    assert state.pile == [] and state.war_cards == [] and state.top == -1
    assert state.phase == PLAY and state.current_player() == 1
    assert state.final_stats().counters["war_rounds"] == 1
    state.check_invariants()


def test_sk7_tie_for_lowest_is_fought_again_jokers_count_lowest(table):
    j1, j2 = table.joker_cards[:2]
    w = sorted(ordinary(table, 6), key=lambda c: table.figures[GWH][c])
    hands = [[j1, w[0]], [j2, w[5], w[1]], [w[4], w[2]]]
    state, a, b = war_position(table, 3, hands)
    state.apply((JOIN,))  # seat 3
    state.apply((NAME, GWH))
    state.apply((WAR_LAY, j1))
    state.apply((WAR_LAY, j2))
    state.apply((WAR_LAY, w[4]))
    # Seats 1 and 2 tie with a joker each: they fight again.
    assert state.phase == WAR and state.current_player() == 0
    assert state.observation(2).war_players == (0, 1)
    assert state.final_stats().counters["war_rounds"] == 2
    assert state.action_to_string((WAR_LAY, w[0])).endswith("GWh in the war")
    state.apply((WAR_LAY, w[0]))
    state.apply((WAR_LAY, w[5]))
    assert state.phase == PLAY and state.current_player() == 0
    assert sorted(state.hands[0]) == sorted([a, b, j1, j2, w[4], w[0], w[5]])
    state.check_invariants()


def test_sk7_special_cards_have_no_effect_in_a_war(table):
    burn, two = card(table, "kløver-1"), card(table, "spar-2")
    w = ordinary(table, 2)
    state, _a, _b = war_position(table, 2, [[burn, w[1]], [two, w[0]]])
    state.apply((NAME, GWH))
    assert sorted(state.legal_actions()) == sorted([(WAR_LAY, burn), (WAR_LAY, w[1])])
    state.apply((WAR_LAY, burn))
    state.apply((WAR_LAY, two))
    assert burn not in state.burned and state.phase == PLAY
    assert burn in state.hands[0] + state.hands[1] and two in state.hands[0] + state.hands[1]
    counters = state.final_stats().counters
    assert "burns" not in counters and "resets" not in counters


def test_sk8_loser_of_the_war_starts_the_new_pile(table):
    # The challenger may lose its own war; it then starts the new pile.
    w = sorted(ordinary(table, 4), key=lambda c: table.figures[HEAD][c])
    state, _a, _b = war_position(table, 2, [[w[0], w[3]], [w[2], w[1]]])
    state.apply((NAME, HEAD))
    state.apply((WAR_LAY, w[0]))  # the lowest head: seat 1 loses its own war
    state.apply((WAR_LAY, w[2]))
    assert state.current_player() == 0 and state.pile == []
    assert all(a[0] != TAKE for a in state.legal_actions())


# ------------------------------------------------------------------------- SK-9


def test_sk9_no_card_to_lay_in_a_war_takes_the_whole_pile(table):
    w = ordinary(table, 1)
    # The stock is empty; both lay a joker (a tie), and in the re-fight seat 2 has no card.
    j1, j2 = table.joker_cards[:2]
    state, a, b = war_position(table, 2, [[j1, w[0]], [j2]])
    state.apply((NAME, GWH))
    state.apply((WAR_LAY, j1))
    state.apply((WAR_LAY, j2))
    assert state.phase == WAR and state.current_player() == 0  # re-fight
    state.apply((WAR_LAY, w[0]))
    # Seat 2 has no card for the re-fight: it takes the pile and the war cards.
    assert sorted(state.hands[1]) == sorted([a, b, j1, j2, w[0]])
    assert state.phase == OVER and state.result().loser == 1  # seat 1 is out
    assert state.result().order == [0]


# ------------------------------------------------------------------------- SK-10


@pytest.mark.parametrize("burner", ["joker-1", "kløver-1", "kløver-4"])
def test_sk10_joker_and_clubs_1_to_4_burn_the_pile_player_draws_and_starts(table, burner):
    burn = card(table, burner)
    x, y, z, s1, s2 = ordinary(table, 5)
    inv = by_gwh_nr(table, 51)
    state = position(table, hands=[[burn, x], [y]], stock=[s1, s2], pile=[z], beside=[inv])
    assert (BURN, burn) in state.legal_actions()
    state.apply((BURN, burn))
    assert sorted(state.burned[-3:]) == sorted([z, inv, burn])
    assert state.pile == [] and state.beside == []
    assert sorted(state.hands[0]) == sorted([x, s2, s1])
    assert state.current_player() == 0 and state.final_stats().counters["burns"] == 1
    assert all(a[0] != TAKE for a in state.legal_actions())


def test_sk10_burning_the_last_card_goes_out_next_player_starts(table):
    burn = card(table, "joker-2")
    x, y, z = ordinary(table, 3)
    state = position(table, players=3, hands=[[burn], [y], [x]], pile=[z])
    state.apply((BURN, burn))
    assert state.out[0] and state.current_player() == 1


# ------------------------------------------------------------------------- SK-11


def test_sk11_a_two_resets_next_player_may_lay_any_card(table):
    two = card(table, "hjerter-2")
    low, high = sorted(ordinary(table, 2), key=lambda c: table.figures[GWH][c])
    lowest = by_gwh_nr(table, 52)
    seat1 = [lowest, other(table, two, low, high, lowest)]
    state = position(table, hands=[[two, low], seat1], pile=[high], top_owner=1)
    assert (RESET, two) in state.legal_actions()
    state.apply((RESET, two))
    assert state.pile == [high, two] and state.top == -1
    assert state.final_stats().counters["resets"] == 1
    assert state.current_player() == 1
    assert (LAY, lowest) in state.legal_actions()  # anything goes after a reset
    state.apply((LAY, lowest))
    assert state.phase == PLAY and "wars" not in state.final_stats().counters


# ------------------------------------------------------------------------- SK-12


def test_sk12_invisible_card_beside_the_pile_next_must_beat_the_card_under(table):
    inv = by_gwh_nr(table, 51)
    low, mid, high = sorted(ordinary(table, 3), key=lambda c: table.figures[GWH][c])
    state = position(
        table, hands=[[inv, low], [by_gwh_nr(table, 40), high]], pile=[mid], top_owner=1
    )
    assert (INVISIBLE, inv) in state.legal_actions()  # whatever the top card is
    assert state.action_to_string((INVISIBLE, inv)).endswith("beside the pile (invisible)")
    state.apply((INVISIBLE, inv))
    assert state.beside == [inv] and state.pile == [mid] and state.top == mid
    assert state.observation(1).beside == (inv,)
    assert [a for a in state.legal_actions() if a[0] == LAY] == [(LAY, high)]
    state.apply((TAKE,))  # the invisible card goes with the pile
    assert inv in state.hands[1] and mid in state.hands[1] and state.beside == []
    assert state.final_stats().counters["invisible_plays"] == 1


def test_sk12_invisible_by_any_category_or_only_the_current_one(table):
    by_head = next(c for c in table.plant_cards if table.nr[2][c] >= 50 and table.nr[GWH][c] < 50)
    plain = StromkrigGame(table, 2)
    strict = StromkrigGame(table, 2, ["invisible_current_category"])
    assert plain.invisible[by_head] and not strict.invisible[by_head]
    assert all(strict.invisible[by_gwh_nr(table, nr)] for nr in (50, 51, 52))
    assert not plain.invisible[by_gwh_nr(table, 49)] or table.nr[0][by_gwh_nr(table, 49)] >= 50


# ------------------------------------------------------------------------- SK-13


def test_sk13_a_card_with_several_functions_is_used_as_the_player_chooses(table):
    club2 = card(table, "kløver-2")
    game = StromkrigGame(table, 2)
    assert game.burner[club2] and game.resetter[club2]
    x, y = ordinary(table, 2)
    top = by_gwh_nr(table, 1)
    state = position(table, hands=[[club2, x], [y]], pile=[top], top_owner=1)
    uses = {a[0] for a in state.legal_actions() if len(a) > 1 and a[1] == club2}
    assert {BURN, RESET} <= uses and LAY not in uses
    as_burn = state.clone()
    as_burn.apply((BURN, club2))
    assert as_burn.pile == [] and as_burn.current_player() == 0
    state.apply((RESET, club2))
    assert state.pile == [top, club2] and state.current_player() == 1
    assert as_burn.action_to_string((BURN, club2)).endswith("to burn the pile")
    assert state.action_to_string((RESET, club2)).endswith("to reset")


# ------------------------------------------------------------------------- SK-14


def test_sk14_out_with_no_cards_and_empty_stock_last_with_cards_loses(table):
    low, mid, high, top = sorted(ordinary(table, 4), key=lambda c: table.figures[GWH][c])
    state = position(table, players=3, hands=[[mid], [high], [low, top]], pile=[])
    state.apply((LAY, mid))
    assert state.out == [True, False, False] and state.current_player() == 1
    state.apply((LAY, high))
    assert state.phase == OVER and state.is_terminal()
    result = state.result()
    assert result.finished and result.order == [0, 1] and result.loser == 2
    assert state.legal_actions() == []
    with pytest.raises(GameError, match="over"):
        state.apply((TAKE,))


def test_sk14_not_out_while_the_stock_lasts(table):
    x, y, z = ordinary(table, 3)
    state = position(table, hands=[[x], [y]], stock=[z])
    state.apply((LAY, x))
    assert not state.out[0] and state.hands[0] == [z]


# ------------------------------------------------------------------------- whole games


def test_action_strings_in_both_languages(table):
    club7 = card(table, "kløver-7")
    state = position(table, hands=[[club7], [1]], pile=[2])
    en = Narrator(table, "en", game="stromkrig")
    nb = Narrator(table, "nb", game="stromkrig")
    assert state.action_to_string((TAKE,)) == "take the pile (1 card)"
    assert state.action_text((TAKE,), nb) == "ta inn bunken (1 kort)"
    assert state.action_to_string((CHANCE,)) == "take a chance: turn the top card of the stock"
    assert state.action_text((CHANCE,), nb) == "ta en sjanse: snu øverste kort i trekkbunken"
    assert state.action_to_string((JOIN,)) == "join the war"
    assert state.action_text((JOIN,), nb) == "bli med i krigen"
    assert state.action_to_string((STAY_OUT,)) == "stay out of the war"
    assert state.action_text((STAY_OUT,), nb) == "stå utenfor krigen"
    assert state.action_text((NAME, HEAD), nb) == "velg fallhøyde"
    fig = table.figures[GWH][club7]
    text = f"{int(fig):,}".replace(",", " ")
    assert (
        state.action_to_string((LAY, club7)) == f"lay {table.names[club7]} (clubs 7) · {text} GWh"
    )
    assert (
        state.action_text((LAY, club7), nb) == f"legg {table.names[club7]} (kløver 7) · {text} GWh"
    )
    assert state.action_text((RUN, club7, 1), nb).startswith(
        f"legg rekke: {spoken(table, club7, 'nb')}"
    )
    joker = card(table, "joker-1")
    assert state.action_to_string((BURN, joker)) == "lay joker to burn the pile"
    assert state.action_text((BURN, joker), nb) == "legg joker og brenn bunken"
    two = card(table, "ruter-2")
    assert state.action_text((RESET, two), nb) == f"legg {spoken(table, two, 'nb')} og null ut"
    assert state.action_text((INVISIBLE, two), nb).endswith("ved siden av bunken (usynlig)")
    assert state.action_text((WAR_LAY, joker), en) == "lay joker in the war"
    assert state.action_text((WAR_LAY, club7), nb).endswith(f"{text} GWh i krigen")
    with pytest.raises(GameError):
        state.action_to_string((99,))


def test_observation_shows_only_what_the_seat_may_know(table):
    state = StromkrigGame(table, 3).new_initial_state(random.Random(4))
    obs = state.observation(1)
    assert obs.hand == tuple(state.hands[1]) and obs.seat == 1
    assert obs.hand_counts == (3, 3, 3) and obs.stock_count == 46
    assert obs.pile == () and obs.top == -1 and obs.current_player == 0
    public = {name for name in dir(obs) if not name.startswith("_")}
    assert "hands" not in public and "stock" not in public
    with pytest.raises(AttributeError, match="frozen"):
        obs.hand = ()
    before = obs.hand_counts
    state.apply(state.legal_actions()[0])
    assert obs.hand_counts == before  # a copy: it does not follow the game


def test_no_hidden_card_is_reachable_from_an_observation(table):
    """Walk everything an observation holds: only plain values, no way to the state."""
    state = StromkrigGame(table, 3).new_initial_state(random.Random(4))
    hidden = set(state.stock) | set(state.hands[0]) | set(state.hands[2])
    obs = state.observation(1)
    seen: list[object] = []
    todo: list[object] = [obs]
    while todo:
        item = todo.pop()
        seen.append(item)
        if dataclasses.is_dataclass(item) and not isinstance(item, type):
            todo.extend(getattr(item, f.name) for f in dataclasses.fields(item))
        elif isinstance(item, tuple):
            todo.extend(item)
        else:
            assert isinstance(item, int | bool | type(None)), type(item)
    assert not hasattr(obs, "__dict__") or set(vars(obs)) == {
        f.name for f in dataclasses.fields(obs)
    }
    ints = {item for item in seen if type(item) is int}
    assert not (set(obs.hand) & hidden) and set(obs.hand) <= ints
    # The cards it names are its own hand and the (empty) public places, nothing else.
    assert hidden.isdisjoint(set(obs.hand) | set(obs.pile) | set(obs.burned))


def test_rounds_count_regular_turns(table):
    x, y, z, w = sorted(ordinary(table, 4), key=lambda c: table.figures[GWH][c])
    state = position(table, players=3, hands=[[x, w], [y], [z]], pile=[])
    state.apply((LAY, x))
    assert state.result().rounds == 1
    state.apply((LAY, y))  # seat 2 out
    state.apply((LAY, z))  # seat 3 out: game over
    assert state.result().rounds == 1 and state.result().loser == 0


def test_action_cap_ends_the_game_unfinished(table):
    game = StromkrigGame(table, 4, action_cap=30)
    record = play_game(game, registry.make_bots(game, "random"), seed=3)
    assert len(record.actions) == 30
    assert not record.result.finished and record.result.loser is None


def test_same_seed_same_game_and_replay(table):
    game = StromkrigGame(table, 4)
    bots = registry.make_bots(game, "heuristic,greedy,random,heuristic")
    first = play_game(game, bots, seed=11)
    second = play_game(game, bots, seed=11)
    assert first.actions == second.actions and first.result == second.result
    assert play_game(game, bots, seed=12).actions != first.actions
    state = replay(game, 11, first.actions, debug=True)
    assert state.result() == first.result


def test_clone_is_independent(table):
    state = StromkrigGame(table, 3).new_initial_state(random.Random(8))
    copy = state.clone()
    copy.apply(copy.legal_actions()[0])
    assert state.actions == 0 and copy.actions == 1
    assert sum(map(len, state.hands)) == 9


def test_registry_bots_and_settings(table):
    game = registry.make_game("stromkrig", table, 3)
    assert registry.bot_kinds("stromkrig") == ["expert", "greedy", "heuristic", "random"]
    bots = registry.make_bots(game, "heuristic:join_nr=5,greedy,random")
    assert isinstance(bots[0], HeuristicBot) and bots[0].join_nr == 5
    assert isinstance(bots[1], GreedyBot)
    with pytest.raises(SimulationError, match="no setting"):
        registry.make_bots(game, "heuristic:bluff=1")
    with pytest.raises(GameError, match="no variant"):
        registry.make_game("stromkrig", table, 3, ["sequences"])


def test_greedy_plays_cheapest_and_never_joins(table):
    low, mid, high, x = sorted(ordinary(table, 4), key=lambda c: table.figures[GWH][c])
    state = position(table, hands=[[high, mid], [x]], pile=[low], top_owner=1)
    bot = GreedyBot(state.game)
    assert bot.act(state.observation(0), state.legal_actions(), random.Random(1)) == (LAY, mid)
    state, _, _ = war_position(table, 3, [[high], [mid], [x]])
    assert state.phase == ASK and state.current_player() == 2
    assert bot.act(state.observation(2), state.legal_actions(), random.Random(1)) == (STAY_OUT,)


def test_heuristic_prefers_a_run_and_keeps_specials_when_it_can_lay(table):
    c20, c21 = by_gwh_nr(table, 20), by_gwh_nr(table, 21)
    two = card(table, "ruter-2")
    top = by_gwh_nr(table, 40)
    seat1 = [other(table, c20, c21, two, top)]
    state = position(table, hands=[[c20, c21, two], seat1], pile=[top], top_owner=1)
    bot = HeuristicBot(state.game)
    assert bot.act(state.observation(0), state.legal_actions(), random.Random(1)) == (
        RUN,
        c21,
        c20,
    )


@settings(
    max_examples=100,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(
    players=st.integers(2, 6),
    seed=st.integers(0, 2**32),
    bots=st.lists(st.sampled_from(["random", "greedy", "heuristic"]), min_size=6, max_size=6),
    strict=st.booleans(),
)
def test_random_games_keep_every_card_in_one_place_and_end(deck, players, seed, bots, strict):
    table = DeckTable.from_deck(deck)
    variants = ["invisible_current_category"] if strict else []
    game = StromkrigGame(table, players, variants, action_cap=1500)
    spec = ",".join(bots[:players])
    record = play_game(game, registry.make_bots(game, spec), seed, debug=True)
    result = record.result
    assert result.actions == len(record.actions) <= 1500
    if result.finished:
        assert result.loser is not None and len(result.order) == players - 1
        assert sorted([*result.order, result.loser]) == list(range(players))
        assert record.loser_cards
    else:
        assert result.actions == 1500
    stats = record.stats
    assert sum(stats.cards_played) >= 1
    assert stats.counters.get("war_rounds", 0) >= stats.counters.get("wars", 0) - 1


def test_describe_reads_the_view_in_words(table):
    inv = by_gwh_nr(table, 51)
    low, mid = sorted(ordinary(table, 2), key=lambda c: table.figures[GWH][c])
    seat1 = [other(table, low, mid, inv)]
    state = position(table, hands=[[low], seat1], pile=[mid], beside=[inv], top_owner=1)
    en, nb = (
        Narrator(table, "en", viewer=0, game="stromkrig"),
        Narrator(table, "nb", viewer=0, game="stromkrig"),
    )
    lines = en.view(state.observation(0))
    assert lines[0] == "You are seat 1. Turn: you (your turn)."
    assert lines[1].startswith(f"Your hand: {spoken(table, low)} · ")
    assert "Pile: 1 card, last laid" in lines[2]
    assert lines[3].startswith(f"Beside the pile: {spoken(table, inv)}")
    assert lines[4].startswith(f"To beat: {spoken(table, mid)}")
    assert lines[5] == "Cards in hand: you: 1, seat 2: 1; stock: 0"
    lines = nb.view(state.observation(0))
    assert lines[0] == "Du er plass 1. Tur: du (din tur)."
    assert lines[1].startswith(f"Hånda di: {spoken(table, low, 'nb')} · ")
    assert lines[3].startswith(f"Ved siden av bunken: {spoken(table, inv, 'nb')}")
    assert lines[4].startswith(f"Slå: {spoken(table, mid, 'nb')}")
    assert lines[5] == "Kort på hånda: du: 1, plass 2: 1; trekkbunken: 0"
    x, y, z = ordinary(table, 3)
    war, _, _ = war_position(table, 3, [[x], [y], [z]])
    lines = Narrator(table, "en", viewer=2, game="stromkrig").view(war.observation(2))
    assert " / " in lines[1]  # before the category is named: all three figures
    assert war.observation(2).war_category == -1 and state.observation(0).war is None
    war_view = war.observation(2).war
    assert war_view is not None
    with pytest.raises(AttributeError, match="frozen"):
        war_view.category = 0
    assert "War (not named yet): seat 1, seat 2; challenger seat 1" in lines
    assert lines[0] == "You are seat 3. Turn: you (war: join?)."
    lines = Narrator(table, "nb", viewer=2, game="stromkrig").view(war.observation(2))
    assert "Krig (ikke valgt ennå): plass 1, plass 2; utfordrer plass 1" in lines


def test_heuristic_explore_setting_is_checked(table):
    game = StromkrigGame(table, 2)
    with pytest.raises(SimulationError, match="explore"):
        registry.make_bots(game, "heuristic:explore=2")
    bots = registry.make_bots(game, "heuristic:explore=0")
    assert isinstance(bots[0], HeuristicBot) and bots[0].explore == 0.0


def test_counters_the_simulation_reads_all_occur(table):
    game = StromkrigGame(table, 4)
    bots = registry.make_bots(game, "heuristic,random,greedy,heuristic")
    counters: dict[str, int] = {}
    samples: dict[str, list[int]] = {}
    for seed in range(30):
        record = play_game(game, bots, seed)
        for name, value in record.stats.counters.items():
            counters[name] = counters.get(name, 0) + value
        for name, values in record.stats.samples.items():
            samples.setdefault(name, []).extend(values)
        assert sum(record.stats.cards_played) > 0
    expected = {
        "pile_pickups",
        "burns",
        "resets",
        "wars",
        "war_rounds",
        "runs",
        "invisible_plays",
        "chance_draws",
        "chance_draws_played",
    }
    assert expected <= set(counters)
    assert counters["war_rounds"] >= counters["wars"] - 30
    assert set(samples) == {"war_sizes", "run_lengths"}
    assert min(samples["war_sizes"]) >= 2 and max(samples["war_sizes"]) <= 4
    assert min(samples["run_lengths"]) >= 2


@pytest.mark.parametrize("players", range(2, 7))
@pytest.mark.parametrize("kind", ["random", "greedy", "heuristic"])
def test_every_player_count_and_bot_plays_clean_games(table, players, kind):
    cap = 1500 if kind == "random" else 5000
    game = StromkrigGame(table, players, action_cap=cap)
    for seed in (1, 2):
        record = play_game(game, registry.make_bots(game, kind), seed, debug=True)
        assert record.result.finished or record.result.actions == cap
        if kind != "random":
            assert record.result.finished  # the cap is for runaway games, not these


def test_greedy_when_it_cannot_lay_an_ordinary_card(table):
    game = StromkrigGame(table, 2)
    two = next(c for c in table.plant_cards if game.resetter[c] and not game.invisible[c])
    club2, x = card(table, "kløver-2"), ordinary(table, 1)[0]
    assert game.invisible[club2] and game.burner[club2]
    top = by_gwh_nr(table, 1)
    bot = GreedyBot(game)
    rng = random.Random(1)
    state = position(table, hands=[[two], [x]], pile=[top], top_owner=1)
    assert bot.act(state.observation(0), state.legal_actions(), rng) == (RESET, two)
    # One card, three uses: the cheapest kind first (invisible, then reset, then burn).
    state = position(table, hands=[[club2], [x]], pile=[top], top_owner=1)
    assert bot.act(state.observation(0), state.legal_actions(), rng) == (INVISIBLE, club2)
    low, y = ordinary(table, 3)[1:]
    state = position(table, hands=[[low], [x]], stock=[y], pile=[top], top_owner=1)
    assert bot.act(state.observation(0), state.legal_actions(), rng) == (CHANCE,)
    state = position(table, hands=[[low], [x]], pile=[top], top_owner=1)
    assert bot.act(state.observation(0), state.legal_actions(), rng) == (TAKE,)


def test_play_out_turn_list_matches_legal_actions(table: DeckTable) -> None:
    """The turn list play_out hands to bots (lays first, the rest on demand) is the full list."""
    from kraftstokk.games.stromkrig.state import _TurnLegal

    game = StromkrigGame(table, 4)
    rng = random.Random(11)
    checked = 0
    for seed in range(6):
        state = game.new_initial_state(random.Random(seed))
        while not state.is_terminal():
            legal = list(state.legal_actions())
            if state.phase == PLAY:
                lazy = _TurnLegal(state)
                assert lazy[0] == legal[0]
                assert all(action in lazy for action in legal)
                assert (CHANCE, 99) not in lazy
                lazy = _TurnLegal(state)
                assert len(lazy) == len(legal)
                assert list(lazy) == legal
                assert lazy[-1] == legal[-1]
                checked += 1
            state.apply(legal[rng.randrange(len(legal))])
    assert checked > 100


# ------------------------------------------------------------------------- events

EN, NB = "en", "nb"


def told(state: StromkrigState, since: int, lang: str) -> list[str]:
    """The sentences of the events recorded since event ``since``, as a replay tells them."""
    narrator = Narrator(state.game.table, lang, game="stromkrig")
    return [narrator.tell(event) for event in state.events[since:]]


def kinds(state: StromkrigState, since: int = 0) -> list[str]:
    return [type(event).__name__ for event in state.events[since:]]


def fig(table: DeckTable, card_index: int, category: int = GWH) -> str:
    return table.figure_text(category, card_index)


def laid(table: DeckTable, card_index: int, lang: str, category: int = GWH) -> str:
    return f"{spoken(table, card_index, lang)} · {fig(table, card_index, category)}"


def scenario_lay_take_and_run(table: DeckTable) -> StromkrigState:
    low, mid, high = sorted(ordinary(table, 3), key=lambda c: table.figures[GWH][c])
    c13, c14 = by_gwh_nr(table, 13), by_gwh_nr(table, 14)
    under = other(table, low, mid, high, c13, c14)
    state = position(table, hands=[[mid, c14, c13], [low]], pile=[under, high], top_owner=1)
    state.apply((TAKE,))  # seat 1 takes 2 cards; seat 2 starts
    state.apply((LAY, low))  # seat 2 lays its last card: out, the game is over
    assert told(state, 0, EN) == [
        "Seat 1 takes the pile (2 cards).",
        f"Seat 2 lays {laid(table, low, EN)}.",
        "Seat 2 is out, 1st.",
        "The game is over. Out in this order: seat 2. Seat 1 is the loser of the power war.",
    ]
    assert told(state, 0, NB) == [
        "Plass 1 tar inn bunken (2 kort).",
        f"Plass 2 legger {laid(table, low, NB)}.",
        "Plass 2 er ute som nr. 1.",
        "Spillet er over. Rekkefølgen ut: plass 2. Plass 1 er taperen av strømkrigen.",
    ]
    run = position(table, hands=[[c14, c13, mid], [low]])
    run.apply((RUN, c14, c13))
    assert told(run, 0, EN) == [
        f"Seat 1 lays a run of 2: {laid(table, c14, EN)}, {laid(table, c13, EN)}."
    ]
    assert told(run, 0, NB) == [
        f"Plass 1 legger en rekke på 2: {laid(table, c14, NB)}, {laid(table, c13, NB)}."
    ]
    stats = run.final_stats()
    assert stats.counters["runs"] == 1 and stats.samples["run_lengths"] == [2]
    return run


def scenario_specials(table: DeckTable) -> StromkrigState:
    joker, two = card(table, "joker-1"), card(table, "hjerter-2")
    inv = by_gwh_nr(table, 51)
    x, y, top = ordinary(table, 3)
    under = other(table, joker, two, inv, x, y, top)
    state = position(table, hands=[[joker, two, inv, x], [y]], pile=[under, top], top_owner=1)
    state.apply((INVISIBLE, inv))
    state.apply((TAKE,))  # seat 2 takes 3: the pile and the card beside it
    state.apply((BURN, joker))  # seat 1 burns an empty pile: 1 card
    state.apply((RESET, two))  # seat 1 again, on the empty pile
    name = table.names[top]
    assert told(state, 0, EN) == [
        f"Seat 1 lays {spoken(table, inv)} beside the pile (invisible: nr. 51 in production).",
        "Seat 2 takes the pile (3 cards).",
        "Seat 1 lays joker: the pile burns (1 card). Seat 1 starts a new pile.",
        f"Seat 1 lays {spoken(table, two)}: the next player may lay any card.",
    ]
    assert told(state, 0, NB) == [
        f"Plass 1 legger {spoken(table, inv, NB)} ved siden av bunken "
        "(usynlig: nr. 51 i produksjon).",
        "Plass 2 tar inn bunken (3 kort).",
        "Plass 1 legger joker: bunken brennes (1 kort). Plass 1 starter ny bunke.",
        f"Plass 1 legger {spoken(table, two, NB)}: neste kan legge hva som helst.",
    ]
    on_card = position(table, hands=[[two, x], [y]], pile=[top], top_owner=1)
    on_card.apply((RESET, two))
    assert told(on_card, 0, EN) == [
        f"Seat 1 lays {spoken(table, two)}: {name} counts as zero, the next player may "
        "lay any card."
    ]
    assert told(on_card, 0, NB) == [
        f"Plass 1 legger {spoken(table, two, NB)}: {name} teller null, neste kan legge hva "
        "som helst."
    ]
    return state


def scenario_chance(table: DeckTable) -> StromkrigState:
    low, high, x, y = sorted(ordinary(table, 4), key=lambda c: table.figures[GWH][c])
    state = position(table, hands=[[x], [y]], stock=[high], pile=[low], top_owner=1)
    state.apply((CHANCE,))
    state.apply((LAY, high))
    assert told(state, 0, EN) == [
        f"Seat 1 takes a chance and turns up {laid(table, high, EN)}: it must be used.",
        f"Seat 1 lays {laid(table, high, EN)} from the stock.",
    ]
    assert told(state, 0, NB) == [
        f"Plass 1 tar en sjanse og snur {laid(table, high, NB)}: det skal brukes.",
        f"Plass 1 legger {laid(table, high, NB)} fra trekkbunken.",
    ]
    failed = position(table, hands=[[x], [y]], stock=[low], pile=[high], top_owner=1)
    failed.apply((CHANCE,))
    assert told(failed, 0, EN) == [
        f"Seat 1 takes a chance and turns up {laid(table, low, EN)}: it cannot be used.",
        f"Seat 1 takes the pile (1 card) with {spoken(table, low)}.",
    ]
    assert told(failed, 0, NB) == [
        f"Plass 1 tar en sjanse og snur {laid(table, low, NB)}: det kan ikke brukes.",
        f"Plass 1 tar inn bunken (1 kort) med {spoken(table, low, NB)}.",
    ]
    burn = card(table, "kløver-3")
    burned = position(table, hands=[[x], [y]], stock=[low, burn], pile=[high], top_owner=1)
    burned.apply((CHANCE,))
    burned.apply((BURN, burn))
    assert told(burned, 1, EN) == [
        f"Seat 1 lays {spoken(table, burn)} from the stock: the pile burns (2 cards). "
        "Seat 1 starts a new pile."
    ]
    assert told(burned, 1, NB) == [
        f"Plass 1 legger {spoken(table, burn, NB)} fra trekkbunken: bunken brennes (2 kort). "
        "Plass 1 starter ny bunke."
    ]
    expected = {"chance_draws": 1, "chance_draws_played": 1, "burns": 1}
    assert burned.final_stats().counters == expected
    two = card(table, "ruter-2")
    reset = position(table, hands=[[x], [y]], stock=[low, two], pile=[high], top_owner=1)
    reset.apply((CHANCE,))
    reset.apply((RESET, two))
    name = table.names[high]
    assert told(reset, 1, EN) == [
        f"Seat 1 lays {spoken(table, two)} from the stock: {name} counts as zero, the next "
        "player may lay any card."
    ]
    assert told(reset, 1, NB) == [
        f"Plass 1 legger {spoken(table, two, NB)} fra trekkbunken: {name} teller null, neste "
        "kan legge hva som helst."
    ]
    inv = by_gwh_nr(table, 51)
    beside = position(table, hands=[[x], [y]], stock=[low, inv], pile=[high], top_owner=1)
    beside.apply((CHANCE,))
    beside.apply((INVISIBLE, inv))
    assert told(beside, 1, EN) == [
        f"Seat 1 lays {spoken(table, inv)} from the stock beside the pile "
        "(invisible: nr. 51 in production)."
    ]
    assert told(beside, 1, NB) == [
        f"Plass 1 legger {spoken(table, inv, NB)} fra trekkbunken ved siden av bunken "
        "(usynlig: nr. 51 i produksjon)."
    ]
    return state


def scenario_war(table: DeckTable) -> StromkrigState:
    """A tens war of three with a tie, a re-fight and a loser; then a club war."""
    j1, j2 = table.joker_cards[:2]
    w = sorted(ordinary(table, 6), key=lambda c: table.figures[GWH][c])
    hands = [[j1, w[0]], [j2, w[5], w[1]], [w[4], w[2]], [w[3]]]
    state, a, b = war_position(table, 4, hands)
    state.apply((JOIN,))  # seat 3
    state.apply((STAY_OUT,))  # seat 4
    state.apply((NAME, GWH))
    for war_card in (j1, j2, w[4], w[0], w[5]):
        state.apply((WAR_LAY, war_card))
    t = state.game.table
    en = told(state, 0, EN)
    assert en == [
        f"Seat 1 lays {laid(t, b, EN)}.",
        f"Power war! {laid(t, b, EN)} on {laid(t, a, EN)}: the same ten, 870 GWh. "
        "Seat 1 challenges seat 2.",
        "Seat 3 shouts \u201cwar!\u201d and joins in.",
        "Seat 4 stays out of the war.",
        "Seat 1 names production. In the war: seat 1, seat 2 and seat 3.",
        "Seat 1 lays joker in the war.",
        "Seat 2 lays joker in the war.",
        f"Seat 3 lays {laid(t, w[4], EN)} in the war.",
        "A tie for the lowest production: the war is fought again between seat 1 and seat 2.",
        f"Seat 1 lays {laid(t, w[0], EN)} in the war.",
        f"Seat 2 lays {laid(t, w[5], EN)} in the war.",
        "Seat 1 loses the war (lowest production) and takes the pile (7 cards).",
    ]
    assert told(state, 0, NB) == [
        f"Plass 1 legger {laid(t, b, NB)}.",
        f"Strømkrig! {laid(t, b, NB)} på {laid(t, a, NB)}: samme tier, 870 GWh. "
        "Plass 1 utfordrer plass 2.",
        "Plass 3 roper «krig!» og er med.",
        "Plass 4 står utenfor krigen.",
        "Plass 1 velger produksjon. I krigen: plass 1, plass 2 og plass 3.",
        "Plass 1 legger joker i krigen.",
        "Plass 2 legger joker i krigen.",
        f"Plass 3 legger {laid(t, w[4], NB)} i krigen.",
        "Likt laveste produksjon: krigen går om igjen mellom plass 1 og plass 2.",
        f"Plass 1 legger {laid(t, w[0], NB)} i krigen.",
        f"Plass 2 legger {laid(t, w[5], NB)} i krigen.",
        "Plass 1 taper krigen (har lavest produksjon) og tar inn bunken (7 kort).",
    ]
    counters = state.final_stats().counters
    assert counters["wars"] == 1 and counters["war_rounds"] == 2
    assert state.final_stats().samples["war_sizes"] == [3]
    # Club on club, the war category named by capacity, and SK-9: no card to lay.
    club7, club9 = card(table, "kløver-7"), card(table, "kløver-9")
    clubs = position(table, hands=[[club9, w[2]], [w[3]]], pile=[club7], top_owner=1)
    clubs.apply((LAY, club9))
    clubs.apply((NAME, MW))
    clubs.apply((WAR_LAY, w[2]))
    clubs.apply((WAR_LAY, w[3]))  # seat 2 then has none
    assert told(clubs, 1, EN)[0] == (
        f"Power war! {laid(table, club9, EN)} on {laid(table, club7, EN)}: club on club. "
        "Seat 1 challenges seat 2."
    )
    assert told(clubs, 1, NB)[0] == (
        f"Strømkrig! {laid(table, club9, NB)} på {laid(table, club7, NB)}: kløver på kløver. "
        "Plass 1 utfordrer plass 2."
    )
    assert told(clubs, 2, EN)[0] == "Seat 1 names capacity. In the war: seat 1 and seat 2."
    assert told(clubs, 3, NB)[0] == f"Plass 1 legger {laid(table, w[2], NB, MW)} i krigen."
    loser = 0 if table.figures[MW][w[2]] < table.figures[MW][w[3]] else 1
    assert told(clubs, 5, EN)[0] == (
        f"Seat {loser + 1} loses the war (lowest capacity) and takes the pile (4 cards)."
    )
    assert told(clubs, 5, NB)[0] == (
        f"Plass {loser + 1} taper krigen (har lavest effekt) og tar inn bunken (4 kort)."
    )
    return state


def scenario_war_without_a_card(table: DeckTable) -> StromkrigState:
    w = ordinary(table, 1)
    j1, j2 = table.joker_cards[:2]
    state, _, _ = war_position(table, 2, [[j1, w[0]], [j2]])
    state.apply((NAME, GWH))
    state.apply((WAR_LAY, j1))
    state.apply((WAR_LAY, j2))
    since = len(state.events)
    state.apply((WAR_LAY, w[0]))
    assert kinds(state, since) == ["WarCardLaid", "WarLost", "SeatOut", "GameOver"]
    assert told(state, since + 1, EN)[0] == (
        "Seat 2 loses the war (no card to lay) and takes the pile (5 cards)."
    )
    assert told(state, since + 1, NB)[0] == (
        "Plass 2 taper krigen (har ikke noe kort å legge) og tar inn bunken (5 kort)."
    )
    return state


SCENARIOS = (
    scenario_lay_take_and_run,
    scenario_specials,
    scenario_chance,
    scenario_war,
    scenario_war_without_a_card,
)


@pytest.mark.parametrize("scenario", SCENARIOS, ids=lambda f: f.__name__)
def test_events_tell_what_happened_in_both_languages(table, scenario):
    scenario(table)


def test_every_event_kind_is_told_by_some_scenario(table):
    from kraftstokk.games import events as common
    from kraftstokk.games.stromkrig import events as own

    produced: set[type] = set()
    for scenario in SCENARIOS:
        state = scenario(table)
        produced |= {type(event) for event in state.events}
    # Every scenario's checked events, including the positions they build on the way.
    for name in ("WarAnswered", "WarTied", "RunLaid", "LaidBeside", "Reset", "Burned"):
        assert any(kind.__name__ == name for kind in produced), name
    defined = {
        value
        for module in (own,)
        for value in vars(module).values()
        if isinstance(value, type)
        and issubclass(value, common.Event)
        and value.__module__ == own.__name__
    }
    told_somewhere = produced | {common.SeatOut, common.GameOver}
    assert defined <= told_somewhere, sorted(k.__name__ for k in defined - told_somewhere)


def test_counters_are_the_events_counted(table):
    game = StromkrigGame(table, 4)
    bots = registry.make_bots(game, "heuristic,random,greedy,heuristic")
    for seed in range(5):
        record = play_game(game, bots, seed)
        state = replay(game, record.seed, record.actions)
        names = [type(event).__name__ for event in state.events]
        counters = record.stats.counters
        assert counters.get("wars", 0) == names.count("WarStarted")
        assert counters.get("war_rounds", 0) == names.count("WarNamed") + names.count("WarTied")
        assert counters.get("runs", 0) == names.count("RunLaid")
        assert counters.get("chance_draws", 0) == names.count("ChanceDrawn")
        # Every war is lost by someone, but the action cap may stop one in progress.
        assert names.count("WarLost") <= names.count("WarStarted") <= names.count("WarLost") + 1
        assert names.count("SeatOut") == len(record.result.order)
        if record.result.finished:
            assert names[-1] == "GameOver" and names.count("GameOver") == 1
        else:
            assert "GameOver" not in names


def test_a_version_1_replay_of_stromkrig_loads_in_todays_action_kinds(deck, tmp_path):
    """SK-3 as corrected is what the first edition already did, so v1 logs still play."""
    game = StromkrigGame(DeckTable.from_deck(deck), 3)
    record = play_game(game, registry.make_bots(game, "random"), 5)
    log = make_replay(deck, game, ["random"] * 3, 5, record.actions, record.result)
    old = log.model_dump(mode="json")
    old["version"] = 1
    old["actions"] = [[action[0] - 300, *action[1:]] for action in old["actions"]]
    assert {action[0] for action in old["actions"]} <= set(range(11))
    path = tmp_path / "v1.json"
    path.write_text(json.dumps(old), encoding="utf-8")
    assert load_replay(path).actions == [list(action) for action in record.actions]
    assert replay_log(path).result() == record.result


def test_the_public_api_sets_up_a_strømkrig_position(table):
    import kraftstokk.games as games

    game = games.make_game("stromkrig", table, 2)
    low, high = sorted(ordinary(table, 2), key=lambda c: table.figures[GWH][c])
    under = other(table, low, high)
    state = games.from_position(game, hands=[[high], [low]], pile=[under], top_owner=1)
    assert isinstance(state, StromkrigState)
    assert state.legal_actions()[0] == (LAY, high) and (TAKE,) in state.legal_actions()
