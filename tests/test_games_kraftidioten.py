"""Kraftidioten (RULES.md KI-1..KI-9): rule positions, invariants, bots, random games.

The synthetic deck orders its plant cards by production: card ``j`` (0..51) has the
``j+1``-th highest GWh, so card 0-2 are nr. 1-3 in produksjon; cards 52-54 are jokers.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kraftstokk import locales
from kraftstokk.errors import GameError, SimulationError
from kraftstokk.games.core import GWH, MW, DeckTable
from kraftstokk.games.events import Event
from kraftstokk.games.kraftidioten.actions import (
    CHALLENGE,
    CHALLENGE_ACTION,
    DRAW,
    DRAW_ACTION,
    JOKER,
    LAY,
    LIE,
    PASS_ACTION,
    PHASE_CHALLENGE,
    PHASE_CLAIM,
    PHASE_TURN,
    TAKE,
    TAKE_ACTION,
    KraftidiotenPhase,
)
from kraftstokk.games.kraftidioten.bots import GreedyBot, HeuristicBot
from kraftstokk.games.kraftidioten.observation import Claim, KraftidiotenObservation
from kraftstokk.games.kraftidioten.rules import BURNED, MAX_CLAIM_FIGURE, NO_CATEGORY
from kraftstokk.games.kraftidioten.state import KraftidiotenGame, KraftidiotenState
from kraftstokk.games.narration import Narrator
from kraftstokk.games.registry import bot_kinds, game_class, make_bots, make_game
from kraftstokk.games.runner import play_game, replay
from kraftstokk.models import Deck

JOKERS = (52, 53, 54)


@pytest.fixture
def table(deck: Deck) -> DeckTable:
    return DeckTable.from_deck(deck)


def position(
    table: DeckTable,
    hands: list[list[int]],
    *,
    stock: list[int] | None = None,
    pile: list[tuple[int, int, int]] = (),  # type: ignore[assignment]
    category: int = NO_CATEGORY,
    player: int = 0,
    seed: int = 1,
) -> KraftidiotenState:
    """A state with the given hands, stock (top last) and pile of (seat, card, plant);
    every other card is burned, so that the invariant check holds."""
    game = KraftidiotenGame(table, len(hands))
    return KraftidiotenState.from_position(
        game,
        hands=hands,
        stock=stock or [],
        pile=pile,
        category=category,
        player=player,
        seed=seed,
    )


def counted(state: KraftidiotenState) -> Counter[str]:
    """The simulation's counters, counted from the state's events."""
    return Counter(state.final_stats().counters)


def told(events: list[Event], table: DeckTable, lang: str, viewer: int | None = None) -> list[str]:
    narrator = Narrator(table, lang, viewer, game="kraftidioten")
    return [narrator.tell(event) for event in events]


def printed(table: DeckTable, category: int, card: int) -> float:
    """The figure as the card prints it ("1 234,5" -> 1234.5): what claims state."""
    return table.printed[category][card]


def answer_window(state: KraftidiotenState, challenger: int | None = None) -> list[int]:
    """Pass (or challenge at ``challenger``) through a challenge window; the seats asked."""
    asked = []
    while state.phase == PHASE_CHALLENGE:
        seat = state.current_player()
        asked.append(seat)
        state.apply(CHALLENGE_ACTION if seat == challenger else PASS_ACTION)
        state.check_invariants()
    return asked


# ----------------------------------------------------------------- KI-1..KI-9


def test_ki1_deal_three_plants_each_and_jokers_in_the_stock(table: DeckTable) -> None:
    for players in (2, 4, 10):
        state = KraftidiotenGame(table, players).new_initial_state(random.Random(3))
        assert [len(hand) for hand in state.hands] == [3] * players
        assert not any(table.joker[card] for hand in state.hands for card in hand)
        assert len(state.stock) == 55 - 3 * players
        assert set(JOKERS) <= set(state.stock)
        state.check_invariants()
    with pytest.raises(GameError, match="2-10 players"):
        KraftidiotenGame(table, 11)
    with pytest.raises(GameError, match="2-10 players"):
        KraftidiotenGame(table, 1)


def test_ki2_first_player_chooses_category_claims_and_draws_back_up(table: DeckTable) -> None:
    state = position(table, [[10, 20, 30], [11, 21, 31]], stock=[40, 41])
    legal = state.legal_actions()
    assert {action[2] for action in legal if action[0] == LAY} == {0, 1, 2}
    assert (TAKE_ACTION not in legal) and (DRAW_ACTION not in legal)  # nothing to beat
    state.apply((LAY, 20, MW, 20))
    assert state.hands[0] == [10, 30, 41]  # drew back up to three
    assert state.category == MW and state.pile == [20]
    assert answer_window(state) == [1]
    assert state.phase == PHASE_TURN and state.current_player() == 1
    assert state.category == MW  # the pile goes on in effekt
    assert counted(state)["claims"] == 1 and counted(state)["lies"] == 0
    assert state.final_stats().cards_played[20] == 1


def test_ki3_next_claim_must_reach_the_previous_figure(table: DeckTable) -> None:
    # cards 20 > 25 > 30 in production; seat 2 holds 10 (higher) and 30 (lower)
    state = position(table, [[5, 6, 7], [10, 30, 31]], pile=[(0, 25, 25)], category=GWH, player=1)
    legal = state.legal_actions()
    truths = {action[1] for action in legal if action[0] == LAY}
    assert truths == {10}
    with pytest.raises(GameError, match="below the last claim"):
        state.apply((LAY, 30, GWH, 30))
    with pytest.raises(GameError, match="played in production"):
        state.apply((LAY, 10, MW, 10))
    # equal is allowed: a claim of the same figure (the same plant, here a lie) is legal
    state.apply((LIE, 30, GWH))
    assert (LAY, 30, GWH, 25) in state.legal_actions()


def test_ki4a_take_the_pile_and_ki5_next_player_starts_new_pile(table: DeckTable) -> None:
    state = position(
        table, [[5, 6, 7], [40, 41, 42], [8, 9, 11]], pile=[(0, 20, 20), (2, 15, 15)], category=GWH
    )
    state.player = 1
    state.apply(TAKE_ACTION)
    assert sorted(state.hands[1]) == [15, 20, 40, 41, 42]
    assert state.pile == [] and state.category == NO_CATEGORY
    assert state.current_player() == 2
    assert {action[2] for action in state.legal_actions() if action[0] == LAY} == {0, 1, 2}
    assert counted(state)["pile_pickups"] == 1


def test_ki4b_stock_draw_claims_truthfully_or_takes_the_pile(table: DeckTable) -> None:
    # drawn card 12 beats the claim 30: laid as a truthful claim from the stock
    state = position(
        table, [[5, 6, 7], [40, 41, 42]], stock=[13, 12], pile=[(0, 30, 30)], category=GWH
    )
    state.player = 1
    state.apply(DRAW_ACTION)
    assert state.pile == [30, 12] and state.claims[-1] == Claim(
        1, 12, True, printed(table, GWH, 12)
    )
    assert state.hands[1] == [40, 41, 42] and state.stock == [13]
    assert state.phase == PHASE_CHALLENGE and counted(state)["stock_draws"] == 1
    # drawn card 45 is below the claim 30: shown, and it goes home with the pile
    state = position(
        table, [[5, 6, 7], [40, 41, 42]], stock=[13, 45], pile=[(0, 30, 30)], category=GWH
    )
    state.player = 1
    state.apply(DRAW_ACTION)
    assert sorted(state.hands[1]) == [30, 40, 41, 42, 45]
    assert state.pile == [] and state.shown[-1] == (45, 1)
    assert state.current_player() == 0 and state.category == NO_CATEGORY
    # a drawn joker is laid as a joker: the pile burns, the same player lays again
    state = position(
        table, [[5, 6, 7], [40, 41, 42]], stock=[13, 53], pile=[(0, 30, 30)], category=GWH
    )
    state.player = 1
    state.apply(DRAW_ACTION)
    assert 30 in state.burned and 53 in state.burned and state.pile == []
    assert state.current_player() == 1 and state.category == NO_CATEGORY
    assert counted(state)["joker_burns"] == 1
    assert counted(state)["joker_penalties"] == 0
    state.check_invariants()


def test_ki4c_a_lie_names_another_plant_or_states_another_figure(table: DeckTable) -> None:
    state = position(table, [[5, 6, 7], [40, 41, 42]], pile=[(0, 30, 30)], category=GWH, player=1)
    assert (LIE, 40, GWH) in state.legal_actions()
    state.apply((LIE, 40, GWH))
    assert state.phase == PHASE_CLAIM and state.current_player() == 1
    claims = state.legal_actions()
    assert all(action[:3] == (LAY, 40, GWH) for action in claims)
    names = {action[3] for action in claims if len(action) == 4}
    assert names == set(range(30 + 1)) - {40}  # another plant, its figure >= card 30's
    by_figure = {action[3]: action[4] for action in claims if len(action) == 5}
    assert set(by_figure) == set(range(52))  # any plant, the card's own included
    floor = printed(table, GWH, 30)
    assert by_figure[40] == floor and by_figure[31] == floor  # the lowest whole figure
    assert by_figure[30] == floor + 1  # card 30 prints that figure: one more
    assert state.observation(0).phase == PHASE_TURN  # the others cannot see the lie
    assert state.observation(0).lie_card == -1 and state.observation(1).lie_card == 40
    with pytest.raises(GameError, match="false claim"):
        state.apply((LAY, 41, GWH, 3))
    with pytest.raises(GameError, match="below the last claim"):
        state.apply((LAY, 40, GWH, 40, int(floor) - 1))
    with pytest.raises(GameError, match="printed figure"):
        state.apply((LAY, 40, GWH, 3, int(printed(table, GWH, 3))))
    with pytest.raises(GameError, match="whole number"):
        state.apply((LAY, 40, GWH, 40, MAX_CLAIM_FIGURE + 1))
    assert state.is_legal((LAY, 40, GWH, 40, 123_456))  # a person may state any figure
    assert not state.is_legal((LAY, 41, GWH, 40, 123_456))
    assert not state.is_legal((LAY, 40, GWH, 40, int(floor) - 1))
    state.apply((LAY, 40, GWH, 40, 5000))  # its own plant, a figure it does not print
    assert state.pile == [30, 40] and state.claims[-1] == Claim(1, 40, False, 5000.0)
    assert state.observation(0).floor == 5000.0
    counters = counted(state)
    assert counters["lies"] == 1 and counters["figure_lies"] == 1


def test_ki4c_a_name_lie_with_the_named_plants_figure(table: DeckTable) -> None:
    state = position(table, [[5, 6, 7], [40, 41, 42]], pile=[(0, 30, 30)], category=GWH, player=1)
    state.apply((LIE, 40, GWH))
    state.apply((LAY, 40, GWH, 3))
    assert state.pile == [30, 40] and state.claims[-1] == Claim(1, 3, False, printed(table, GWH, 3))
    counters = counted(state)
    assert counters["lies"] == 1 and counters["figure_lies"] == 0


def test_ki4c_a_lie_is_always_possible_even_above_every_plant(table: DeckTable) -> None:
    # the claim is Tonstad, nr. 1: no other plant beats it, a stated figure does
    state = position(table, [[5, 6, 7], [40, 41, 42]], pile=[(0, 9, 0)], category=GWH, player=1)
    legal = state.legal_actions()
    assert [a for a in legal if a[0] == LAY] == []  # no truth beats nr. 1
    assert {a[1] for a in legal if a[0] == LIE} == {40, 41, 42}
    state.apply((LIE, 41, GWH))
    claims = state.legal_actions()
    # another plant's figure: only Tonstad again (equal is allowed); or any stated figure
    assert [action for action in claims if len(action) == 4] == [(LAY, 41, GWH, 0)]
    assert len(claims) == 1 + 52
    top = int(printed(table, GWH, 0))
    assert (LAY, 41, GWH, 0, top + 1) in claims and (LAY, 41, GWH, 5, top) in claims


def test_ki4c_a_lie_by_figure_opens_a_pile(table: DeckTable) -> None:
    state = position(table, [[40, 41, 42], [5, 6, 7]])
    state.apply((LIE, 40, MW))
    claims = state.legal_actions()
    assert (LAY, 40, MW, 40, 0) in claims  # nothing to beat: from 0
    state.apply((LAY, 40, MW, 12, 1400))
    assert state.category == MW and state.claims[-1] == Claim(0, 12, False, 1400.0)
    assert state.action_to_string((LAY, 40, MW, 12, 1400)).endswith("1 400 MW")


def test_ki6_groundless_challenge_challenger_takes_next_after_layer_starts(
    table: DeckTable,
) -> None:
    hands = [[5, 6, 7], [12, 41, 42], [8, 9, 11], [43, 44, 46]]
    state = position(table, hands, stock=[47, 48], pile=[(0, 30, 30)], category=GWH, player=1)
    state.apply((LAY, 12, GWH, 12))  # the truth
    assert state.hands[1] == [41, 42, 48]
    asked = answer_window(state, challenger=3)
    assert asked == [2, 3]  # seating order after the layer; seat 4 challenges
    assert sorted(state.hands[3]) == [12, 30, 43, 44, 46]  # the challenger takes the pile
    assert state.shown[-1] == (12, 3) and state.observation(0).where_shown(12) == 3
    assert told(state.events, table, "nb") == [
        ("Plass 2 legger et kort med baksiden opp og søker konsesjon for Tyin, 3 433 GWh (sant)."),
        (
            "Plass 4 anker søknaden til plass 2. Kortet er Tyin (spar knekt): sant, anken er "
            "grunnløs."
        ),
        "Plass 4 tar inn bunken (2 kort) for den grunnløse anken.",
    ]
    assert told(state.events, table, "en") == [
        "Seat 2 lays a card face down and claims Tyin, 3 433 GWh (true).",
        (
            "Seat 4 challenges the claim of seat 2. The card is Tyin (spades jack): true, the "
            "challenge is groundless."
        ),
        "Seat 4 takes the pile (2 cards) for the groundless challenge.",
    ]
    assert state.current_player() == 2 and state.category == NO_CATEGORY  # after the layer
    counters = counted(state)
    assert counters["challenges"] == 1 and counters["challenges_groundless"] == 1
    assert counters["challenges_upheld"] == 0


def test_ki6_upheld_challenge_layer_takes_challenger_starts(table: DeckTable) -> None:
    hands = [[5, 6, 7], [40, 41, 42], [8, 9, 11]]
    state = position(table, hands, pile=[(0, 30, 30)], category=GWH, player=1)
    state.apply((LIE, 40, GWH))
    state.apply((LAY, 40, GWH, 20))
    assert answer_window(state, challenger=0) == [2, 0]
    assert sorted(state.hands[1]) == [30, 40, 41, 42]
    assert state.shown[-1] == (40, 1)
    assert state.current_player() == 0 and state.category == NO_CATEGORY
    assert counted(state)["challenges_upheld"] == 1


def test_ki6_a_wrong_figure_on_the_right_plant_is_a_lie(table: DeckTable) -> None:
    hands = [[5, 6, 7], [40, 41, 42], [8, 9, 11]]
    state = position(table, hands, pile=[(0, 30, 30)], category=GWH, player=1)
    state.apply((LIE, 40, GWH))
    state.apply((LAY, 40, GWH, 40, 4000))  # the card is plant 40, the figure is not its own
    assert answer_window(state, challenger=2) == [2]
    assert sorted(state.hands[1]) == [30, 40, 41, 42]  # upheld: the layer takes the pile
    assert state.shown[-1] == (40, 1)
    assert told(state.events, table, "nb") == [
        (
            "Plass 2 legger et kort med baksiden opp og søker konsesjon for Straumsmo, 4 000 GWh "
            "(løgn: kortet er Straumsmo (spar 4))."
        ),
        (
            "Plass 3 anker søknaden til plass 2. Kortet er Straumsmo (spar 4): løgn, anken tas "
            "til følge."
        ),
        "Plass 2 tar inn bunken (2 kort) for løgnen.",
    ]
    assert told(state.events, table, "en") == [
        (
            "Seat 2 lays a card face down and claims Straumsmo, 4 000 GWh (a lie: the card is "
            "Straumsmo (spades 4))."
        ),
        (
            "Seat 3 challenges the claim of seat 2. The card is Straumsmo (spades 4): a lie, the "
            "challenge is upheld."
        ),
        "Seat 2 takes the pile (2 cards) for the lie.",
    ]
    assert state.current_player() == 2 and state.category == NO_CATEGORY
    counters = counted(state)
    assert counters["challenges_upheld"] == 1 and counters["challenges_groundless"] == 0


def test_ki6_a_wrong_name_with_a_wrong_figure_is_a_lie(table: DeckTable) -> None:
    hands = [[5, 6, 7], [40, 41, 42], [8, 9, 11]]
    state = position(table, hands, pile=[(0, 30, 30)], category=GWH, player=1)
    state.apply((LIE, 40, GWH))
    state.apply((LAY, 40, GWH, 2, 4000))
    answer_window(state, challenger=0)
    assert sorted(state.hands[1]) == [30, 40, 41, 42]
    assert state.current_player() == 0
    assert counted(state)["challenges_upheld"] == 1


def test_ki6_first_in_seating_order_after_the_layer_challenges(table: DeckTable) -> None:
    hands = [[5, 6, 7], [40, 41, 42], [8, 9, 11], [12, 43, 44]]
    state = position(table, hands, pile=[(2, 30, 30)], category=GWH, player=3)
    state.apply((LAY, 12, GWH, 12))
    assert state.current_player() == 0  # asked first: the seat after the layer
    state.apply(CHALLENGE_ACTION)  # seats 2 and 3 are never asked
    assert state.phase == PHASE_TURN and sorted(state.hands[0]) == [5, 6, 7, 12, 30]


def test_ki7_joker_with_two_cards_in_hand_burns_and_costs_three_burned_cards(
    table: DeckTable,
) -> None:
    state = position(table, [[53, 20], [40, 41, 42]], pile=[(1, 30, 30)], category=GWH)
    burned_before = list(state.burned)
    state.apply((JOKER, 53))
    assert state.pile == []
    hand = state.hands[0]
    assert len(hand) == 4 and 20 in hand
    drawn = [card for card in hand if card != 20]
    assert set(drawn) <= {*burned_before, 30, 53}  # the pile and the joker burned first
    assert sorted(state.burned + drawn) == sorted([*burned_before, 30, 53])
    assert state.current_player() == 0 and state.category == NO_CATEGORY  # lays again
    assert state.shown[-1] == (53, BURNED)
    assert told(state.events, table, "nb") == [
        "Plass 1 legger en joker med to kort eller færre på hånden: bunken brennes (2 kort).",
        (
            "Plass 1 trekker 3 kort fra de brente kortene som straff: Mauranger (spar dame), "
            "Svelgen (kløver 5), joker."
        ),
    ]
    assert told(state.events, table, "en") == [
        "Seat 1 lays a joker while holding two cards or fewer: the pile burns (2 cards).",
        (
            "Seat 1 draws 3 cards from the burned cards as a penalty: Mauranger (spades queen), "
            "Svelgen (clubs 5), joker."
        ),
    ]
    counters = counted(state)
    assert counters["joker_burns"] == 1 and counters["joker_penalties"] == 1
    assert counters["burns"] == 1
    state.check_invariants()


def test_ki7_the_penalty_draws_burned_jokers_too(table: DeckTable) -> None:
    # only the jokers 52 and 54 are burned; with the pile (30) and joker 53 that is four
    rest = [card for card in range(52) if card not in (20, 30, 40, 41, 42)]
    state = position(table, [[53, 20], [40, 41, 42]], stock=rest, pile=[(1, 30, 30)], category=GWH)
    assert sorted(state.burned) == [52, 54]
    seen: set[int] = set()
    for seed in range(12):
        trial = state.clone()
        trial.rng.seed(seed)
        trial.apply((JOKER, 53))
        drawn = [card for card in trial.hands[0] if card != 20]
        assert len(drawn) == 3 and set(drawn) <= {30, 52, 53, 54}
        seen.update(drawn)
        trial.check_invariants()
    assert {52, 53, 54} <= seen  # the jokers come back as penalty cards


def test_ki7_fewer_burned_cards_than_three_are_all_drawn(table: DeckTable) -> None:
    rest = [card for card in range(55) if card not in (20, 30, 40, 41, 42, 53)]
    state = position(table, [[53, 20], [40, 41, 42]], stock=rest, pile=[(1, 30, 30)], category=GWH)
    assert state.burned == []
    state.apply((JOKER, 53))
    assert sorted(state.hands[0]) == [20, 30, 53] and state.burned == []
    assert state.current_player() == 0


def test_ki7_only_jokers_and_nothing_else_burned_the_next_player_starts(
    table: DeckTable,
) -> None:
    others = [card for card in range(55) if card != 53]
    state = position(table, [[53], others])  # nothing burned, the stock is empty
    assert state.legal_actions() == [(JOKER, 53)]
    state.apply((JOKER, 53))
    assert state.hands[0] == [53] and state.burned == []  # the same joker came back
    assert state.current_player() == 1 and state.category == NO_CATEGORY
    assert told(state.events, table, "nb") == [
        "Plass 1 legger en joker med to kort eller færre på hånden: bunken brennes (1 kort).",
        "Plass 1 trekker 1 kort fra de brente kortene som straff: joker.",
        "Plass 1 har bare jokere, og ingen kraftverk er brent: neste spiller starter.",
    ]
    assert told(state.events, table, "en") == [
        "Seat 1 lays a joker while holding two cards or fewer: the pile burns (1 card).",
        "Seat 1 draws 1 card from the burned cards as a penalty: joker.",
        "Seat 1 holds only jokers and no plant is burned: the next player starts.",
    ]
    state.check_invariants()


def test_ki7_joker_with_three_cards_has_no_penalty(table: DeckTable) -> None:
    state = position(table, [[53, 20, 21], [40, 41, 42]], pile=[(1, 30, 30)], category=GWH)
    state.apply((JOKER, 53))
    assert sorted(state.hands[0]) == [20, 21]
    assert counted(state)["joker_penalties"] == 0
    assert state.current_player() == 0


def test_ki8_unchallenged_top3_claim_burns_and_layer_lays_again(table: DeckTable) -> None:
    state = position(table, [[2, 20, 21], [40, 41, 42]], pile=[(1, 30, 30)], category=GWH)
    state.apply((LAY, 2, GWH, 2))  # Sima, nr. 3 in produksjon
    assert state.observation(1).claim_is_top3
    answer_window(state)
    assert 2 in state.burned and 30 in state.burned and state.pile == []
    assert state.current_player() == 0 and state.category == NO_CATEGORY
    counters = counted(state)
    assert counters["top3_claims"] == 1 and counters["top3_burns"] == 1
    assert counters["burns"] == 1


def test_ki8_challenged_true_challenger_takes_layer_lays_again(table: DeckTable) -> None:
    state = position(table, [[2, 20, 21], [40, 41, 42]], pile=[(1, 30, 30)], category=GWH)
    state.apply((LAY, 2, GWH, 2))
    answer_window(state, challenger=1)
    assert sorted(state.hands[1]) == [2, 30, 40, 41, 42]
    assert state.current_player() == 0 and state.category == NO_CATEGORY
    assert counted(state)["top3_burns"] == 0
    assert counted(state)["challenges_groundless"] == 1


def test_ki8_challenged_lie_layer_takes_challenger_starts(table: DeckTable) -> None:
    state = position(table, [[20, 21, 22], [40, 41, 42]], pile=[(1, 30, 30)], category=GWH)
    state.apply((LIE, 20, GWH))
    state.apply((LAY, 20, GWH, 0))  # claims Tonstad, nr. 1
    assert state.top3_claim
    answer_window(state, challenger=1)
    assert sorted(state.hands[0]) == [20, 21, 22, 30]
    assert state.current_player() == 1 and state.category == NO_CATEGORY
    assert counted(state)["challenges_upheld"] == 1
    assert counted(state)["top3_burns"] == 0


def test_ki8_a_top3_plant_with_a_wrong_figure_burns_unless_challenged(
    table: DeckTable,
) -> None:
    state = position(table, [[20, 21, 22], [40, 41, 42]], pile=[(1, 30, 30)], category=GWH)
    state.apply((LIE, 20, GWH))
    state.apply((LAY, 20, GWH, 1, 9999))  # names card 1, nr. 2 in produksjon
    assert state.top3_claim
    answer_window(state)
    assert 20 in state.burned and 30 in state.burned and state.pile == []
    assert state.current_player() == 0 and counted(state)["top3_burns"] == 1


def test_ki9_last_card_goes_out_once_the_claim_stands(table: DeckTable) -> None:
    state = position(table, [[20], [40, 41], [42, 43]], pile=[(2, 30, 30)], category=GWH)
    state.apply((LAY, 20, GWH, 20))
    assert state.active[0]  # not out while the claim can be challenged
    answer_window(state)
    assert not state.active[0] and state.out_order == [0]
    assert told(state.events, table, "nb") == [
        (
            "Plass 1 legger et kort med baksiden opp og søker konsesjon for Øvre Vinstra, 2 785 "
            "GWh (sant)."
        ),
        "Plass 1 er ute som nr. 1.",
    ]
    assert told(state.events, table, "en") == [
        "Seat 1 lays a card face down and claims Øvre Vinstra, 2 785 GWh (true).",
        "Seat 1 is out, 1st.",
    ]
    assert state.current_player() == 1 and state.category == GWH  # the pile goes on
    assert not state.is_terminal()


def test_ki9_last_card_shown_a_lie_comes_back(table: DeckTable) -> None:
    state = position(table, [[20], [40, 41], [42, 43]], pile=[(2, 30, 30)], category=GWH)
    state.apply((LIE, 20, GWH))
    state.apply((LAY, 20, GWH, 10))
    answer_window(state, challenger=2)
    assert state.active[0] and sorted(state.hands[0]) == [20, 30]
    assert state.current_player() == 2


def test_ki9_game_ends_with_one_player_left_the_kraftidiot(table: DeckTable) -> None:
    state = position(table, [[20], [40, 41]], pile=[(1, 30, 30)], category=GWH)
    state.apply((LAY, 20, GWH, 20))
    answer_window(state)
    assert state.is_terminal() and state.legal_actions() == []
    result = state.result()
    assert result.finished and result.order == [0] and result.loser == 1
    with pytest.raises(GameError, match="ended"):
        state.apply(PASS_ACTION)


def test_ki9_top3_last_card_burns_and_the_next_player_starts(table: DeckTable) -> None:
    state = position(table, [[1], [40, 41], [42, 43]], pile=[(2, 30, 30)], category=GWH)
    state.apply((LAY, 1, GWH, 1))
    answer_window(state)
    assert not state.active[0] and 1 in state.burned
    assert state.current_player() == 1 and state.category == NO_CATEGORY


# ----------------------------------------------------------------- events


def test_a_taken_pile_and_a_new_pile_are_told(table: DeckTable) -> None:
    state = position(
        table, [[5, 6, 7], [40, 41, 42], [8, 9, 11]], pile=[(0, 20, 20), (2, 15, 15)], category=GWH
    )
    state.player = 1
    state.apply(TAKE_ACTION)
    state.apply((LAY, 8, MW, 8))
    assert told(state.events, table, "nb") == [
        "Plass 2 tar inn bunken (2 kort).",
        "Plass 3 starter en ny bunke og velger kategori.",
        (
            "Plass 3 legger et kort med baksiden opp og søker konsesjon for Mauranger, 948,7 MW "
            "(sant)."
        ),
    ]
    assert told(state.events, table, "en") == [
        "Seat 2 takes the pile (2 cards).",
        "Seat 3 starts a new pile and chooses the category.",
        "Seat 3 lays a card face down and claims Mauranger, 948,7 MW (true).",
    ]


def drawn(table: DeckTable, top: int) -> KraftidiotenState:
    """Seat 2 draws ``top`` from the stock on seat 1's claim of card 30."""
    state = position(
        table, [[5, 6, 7], [40, 41, 42]], stock=[13, top], pile=[(0, 30, 30)], category=GWH
    )
    state.player = 1
    state.apply(DRAW_ACTION)
    return state


def test_a_stock_draw_that_reaches_the_claim_is_told(table: DeckTable) -> None:
    state = drawn(table, 12)
    assert told(state.events, table, "nb") == [
        (
            "Plass 2 trekker en sjanse: Tyin (spar knekt), høyt nok, og det legges under sitt "
            "eget navn."
        ),
        (
            "Plass 2 legger et kort fra trekkbunken med baksiden opp og søker konsesjon for "
            "Tyin, 3 433 GWh."
        ),
    ]
    assert told(state.events, table, "en") == [
        "Seat 2 draws a chance: Tyin (spades jack), high enough, laid under its own name.",
        "Seat 2 lays a card from the stock face down and claims Tyin, 3 433 GWh.",
    ]


def test_a_stock_draw_below_the_claim_is_told(table: DeckTable) -> None:
    state = drawn(table, 45)
    assert told(state.events, table, "nb") == [
        "Plass 2 trekker en sjanse: Alta (hjerter 3), lavere enn forrige søknad.",
        "Plass 2 tar inn bunken (1 kort) med det trukne kortet.",
    ]
    assert told(state.events, table, "en") == [
        "Seat 2 draws a chance: Alta (hearts 3), below the last claim.",
        "Seat 2 takes the pile (1 card) with the drawn card.",
    ]


def test_a_stock_draw_of_a_joker_is_told(table: DeckTable) -> None:
    state = drawn(table, 53)
    assert told(state.events, table, "nb") == [
        "Plass 2 trekker en sjanse: en joker.",
        "Plass 2 legger en joker: bunken brennes (2 kort).",
    ]
    assert told(state.events, table, "en") == [
        "Seat 2 draws a chance: a joker.",
        "Seat 2 lays a joker: the pile burns (2 cards).",
    ]


def test_a_standing_top3_claim_and_the_end_of_the_game_are_told(table: DeckTable) -> None:
    state = position(table, [[1], [40, 41]], pile=[(1, 30, 30)], category=GWH)
    state.apply((LAY, 1, GWH, 1))
    answer_window(state)
    assert told(state.events, table, "nb") == [
        (
            "Plass 1 legger et kort med baksiden opp og søker konsesjon for Kvilldal, 4 404 GWh "
            "(sant); nr. 1–3 brenner bunken hvis ingen anker."
        ),
        "Ingen anker topp 3-søknaden til plass 1: bunken brennes (2 kort).",
        "Plass 1 er ute som nr. 1.",
        "Spillet er over. Rekkefølgen ut: plass 1. Plass 2 er kraftidioten.",
    ]
    assert told(state.events, table, "en") == [
        (
            "Seat 1 lays a card face down and claims Kvilldal, 4 404 GWh (true); nr. 1–3 burns "
            "the pile unless challenged."
        ),
        "Nobody challenges the top-3 claim of seat 1: the pile burns (2 cards).",
        "Seat 1 is out, 1st.",
        "The game is over. Out in this order: seat 1. Seat 2 is the kraftidiot.",
    ]
    assert state.is_terminal()


def test_a_face_down_card_is_told_only_to_its_layer(table: DeckTable) -> None:
    state = position(table, [[5, 6, 7], [40, 41, 42]], pile=[(0, 30, 30)], category=GWH, player=1)
    state.apply((LIE, 40, GWH))
    state.apply((LAY, 40, GWH, 3))
    claim = state.events[-1]
    said = "Aurland I, 4 162 GWh"
    assert [
        Narrator(table, "nb", viewer, game="kraftidioten").tell(claim) for viewer in (0, 1, None)
    ] == [
        f"Plass 2 legger et kort med baksiden opp og søker konsesjon for {said}.",
        f"Du legger et kort med baksiden opp og søker konsesjon for {said} "
        "(løgn: kortet er Straumsmo (spar 4)).",
        f"Plass 2 legger et kort med baksiden opp og søker konsesjon for {said} "
        "(løgn: kortet er Straumsmo (spar 4)).",
    ]
    assert [
        Narrator(table, "en", viewer, game="kraftidioten").tell(claim) for viewer in (0, 1, None)
    ] == [
        f"Seat 2 lays a card face down and claims {said}.",
        f"You lay a card face down and claim {said} (a lie: the card is Straumsmo (spades 4)).",
        f"Seat 2 lays a card face down and claims {said} (a lie: the card is Straumsmo "
        "(spades 4)).",
    ]


def test_every_event_kind_is_told_by_some_test() -> None:
    import ast

    from kraftstokk.games.kraftidioten import events

    kinds = {
        name
        for name, value in vars(events).items()
        if isinstance(value, type)
        and issubclass(value, Event)
        and value.__module__ == events.__name__
    }
    source = Path(__file__).read_text(encoding="utf-8")
    texts = [node.value for node in ast.walk(ast.parse(source)) if isinstance(node, ast.Constant)]
    told_words = {
        "Claimed": "søker konsesjon for",
        "StockDrawn": "a chance:",
        "Challenged": "the challenge is",
        "PileTaken": "takes the pile",
        "TopBurned": "Nobody challenges the top-3 claim",
        "JokerLaid": "lays a joker",
        "PenaltyDrawn": "as a penalty",
        "JokersOnly": "holds only jokers",
        "PileStarted": "starts a new pile",
    }
    # Each event's sentence is tested here by its words; one a variant adds before its own
    # words are written here is still held to have its sentence in every language (below).
    assert set(told_words) <= kinds, sorted(set(told_words) - kinds)
    for kind, words in told_words.items():
        assert any(isinstance(t, str) and words in t for t in texts), kind
    for kind in kinds:  # each has its sentence in every language
        for language in locales.languages():
            assert kind in locales.load(language).part("events")["kraftidioten"]["events"], kind


# ----------------------------------------------------------------- engine guarantees


def test_actions_read_as_words_in_both_languages(table: DeckTable) -> None:
    state = position(table, [[0, 20, 21], [40, 41, 42]], category=NO_CATEGORY)
    en = Narrator(table, "en", game="kraftidioten")
    nb = Narrator(table, "nb", game="kraftidioten")
    words = {
        (LAY, 0, GWH, 0): (
            "lay Tonstad (spades ace) face down and claim Tonstad, 4 405 GWh",
            "legg Tonstad (spar ess) med baksiden opp og søk konsesjon for Tonstad, 4 405 GWh",
        ),
        (LAY, 20, GWH, 0, 4500): (
            "lay Øvre Vinstra (spades 9) face down and claim Tonstad, 4 500 GWh",
            "legg Øvre Vinstra (spar 9) med baksiden opp og søk konsesjon for Tonstad, 4 500 GWh",
        ),
        (LIE, 20, GWH): (
            "lie with Øvre Vinstra (spades 9) in production",
            "lyv med Øvre Vinstra (spar 9) i produksjon",
        ),
        (JOKER, 52): ("lay the joker and burn the pile", "legg jokeren og brenn bunken"),
        TAKE_ACTION: ("take the pile (0 cards)", "ta inn bunken (0 kort)"),
        DRAW_ACTION: (
            "draw a chance: claim the top card of the stock",
            "trekk en sjanse: søk konsesjon for øverste kort i trekkbunken",
        ),
        CHALLENGE_ACTION: ("challenge the claim", "anke søknaden"),
        PASS_ACTION: ("let the claim stand", "la søknaden stå"),
    }
    for action, (english, bokmal) in words.items():
        assert state.action_text(action, en) == english == state.action_to_string(action)
        assert state.action_text(action, nb) == bokmal
    # the others see a face-down card as a card, and nothing of the choice to lie
    assert state.public_action_string((LAY, 20, GWH, 0)) == (
        "lay a card face down and claim Tonstad, 4 405 GWh"
    )
    assert state.public_action_string((LIE, 20, GWH)) == ""
    # Figures in words are the ones the card prints.
    assert table.figure_text(GWH, 0) == "4 405 GWh"
    with pytest.raises(GameError, match="unknown action"):
        state.action_to_string((99,))


def _reachable(root: object) -> list[object]:
    """Every object reachable from ``root`` by references (what introspection can find)."""
    import gc

    seen: dict[int, object] = {}
    todo = [root]
    while todo:
        item = todo.pop()
        if id(item) in seen or isinstance(item, type):
            continue
        seen[id(item)] = item
        todo.extend(gc.get_referents(item))
    return list(seen.values())


def test_observation_shows_only_what_the_seat_may_know(table: DeckTable) -> None:
    state = position(
        table, [[5, 6, 7], [40, 41, 42]], stock=[9], pile=[(0, 30, 3), (1, 25, 25)], category=GWH
    )
    seen = state.observation(0)
    assert isinstance(seen, KraftidiotenObservation) and seen.seat == 0
    assert seen.hand == (5, 6, 7) and seen.hand_counts == (3, 3)
    assert seen.claims == (
        Claim(0, 3, False, printed(table, GWH, 3)),
        Claim(1, 25, False, printed(table, GWH, 25)),
    )
    assert seen.own_cards_on_pile == ((0, 30),)  # its own face-down card only
    assert seen.stock_count == 1 and seen.pile_count == 2 and seen.category == GWH
    assert seen.floor == printed(table, GWH, 25)
    assert seen.phase == KraftidiotenPhase.TURN and not seen.challenge_pending
    # another hand and another face-down card of seat 2: seat 1 sees exactly the same
    other = position(
        table, [[5, 6, 7], [43, 44, 45]], stock=[9], pile=[(0, 30, 3), (1, 26, 25)], category=GWH
    )
    assert seen == other.observation(0)
    assert other.observation(1).hand != state.observation(1).hand
    assert seen.hand_count(1) == 3 and seen.where_shown(40) is None
    for lang in ("nb", "en"):
        narrator = Narrator(table, lang, 0, game="kraftidioten")
        assert narrator.view(seen) == narrator.view(other.observation(0))
    assert "Tokke (hearts king)" in "\n".join(
        Narrator(table, "en", 0, game="kraftidioten").view(seen)
    )  # card 5
    assert "Tokke (hjerter konge)" in "\n".join(
        Narrator(table, "nb", 0, game="kraftidioten").view(seen)
    )
    with pytest.raises(AttributeError):
        seen.hand = (1,)  # type: ignore[misc]
    # no way back to the state: nothing reachable from the observation is the state,
    # its lists, or the hidden cards' places
    reachable = _reachable(seen)
    hidden = [state, state.hands, state.hands[1], state.pile, state.stock, state.burned]
    assert not any(item is place for item in reachable for place in hidden)
    assert not any(isinstance(item, KraftidiotenState) for item in reachable)


def test_observation_lines_tell_the_claim_to_answer(table: DeckTable) -> None:
    state = position(table, [[5, 6, 7], [40, 41, 42]], pile=[(0, 30, 30)], category=GWH, player=1)
    state.apply((LIE, 40, GWH))
    assert state.observation(1).phase == KraftidiotenPhase.CLAIM
    assert state.observation(0).phase == KraftidiotenPhase.TURN  # the lie is unseen
    state.apply((LAY, 40, GWH, 1, 9999))
    seen = state.observation(0)
    assert seen.challenge_pending and seen.claim_is_top3 and seen.layer == 1
    english = Narrator(table, "en", 0, game="kraftidioten").view(seen)
    bokmal = Narrator(table, "nb", 0, game="kraftidioten").view(seen)
    name = table.names[1]
    assert english[-1] == (
        f"Seat 2 claims {name}, 9 999 GWh (nr. 1–3: the pile burns unless challenged). Challenge?"
    )
    assert bokmal[-1] == (
        f"Plass 2 søker konsesjon for {name}, 9 999 GWh (nr. 1–3: bunken brennes hvis "
        "ingen anker). Anke?"
    )
    assert f"  seat 2: {name}, 9 999 GWh (nr. 2)" in english


def test_the_public_api_sets_up_a_position(table: DeckTable) -> None:
    from kraftstokk import games

    game = games.make_game("kraftidioten", table, 2)
    state = games.from_position(game, hands=[[5, 6], [40]], pile=[(1, 30, 30)], category=GWH)
    assert isinstance(state, KraftidiotenState) and state.floor == printed(table, GWH, 30)
    assert (LAY, 5, GWH, 5) in state.legal_actions() and TAKE_ACTION in state.legal_actions()
    with pytest.raises(GameError, match="needs its category"):
        games.from_position(game, hands=[[5], [40]], pile=[(1, 30, 30)])


def test_clone_is_independent(table: DeckTable) -> None:
    state = KraftidiotenGame(table, 3).new_initial_state(random.Random(5))
    copy = state.clone()
    state.apply(state.legal_actions()[0])
    assert copy.actions == 0 and state.actions == 1
    assert copy.hands != state.hands or copy.phase != state.phase
    assert copy.events != state.events or copy.pile != state.pile
    a, b = state.clone(), state.clone()
    assert a.rng.random() == b.rng.random()
    assert a.observation(0).hand == state.observation(0).hand


def test_illegal_actions_are_refused(table: DeckTable) -> None:
    state = position(table, [[5, 6, 7], [40, 41, 42]], pile=[(1, 30, 30)], category=GWH)
    for action in [(LAY, 40, GWH, 40), (JOKER, 5), CHALLENGE_ACTION, (LIE, 52, GWH), (99,), ()]:
        with pytest.raises(GameError):
            state.apply(action)
    empty = position(table, [[5, 6, 7], [40, 41, 42]])
    for action in [TAKE_ACTION, DRAW_ACTION]:
        with pytest.raises(GameError):
            empty.apply(action)


def test_action_cap_ends_the_game_unfinished(table: DeckTable) -> None:
    game = KraftidiotenGame(table, 4, action_cap=30)
    record = play_game(game, make_bots(game, "random"), seed=2, debug=True)
    assert not record.result.finished and record.result.loser is None
    assert record.result.actions == 30 and len(record.actions) == 30


def test_same_seed_same_game_and_replay(table: DeckTable) -> None:
    game = KraftidiotenGame(table, 5)
    bots = make_bots(game, "heuristic,random,greedy,heuristic:knowledge=0.3,random")
    first = play_game(game, bots, seed=11)
    second = play_game(game, bots, seed=11)
    assert first.actions == second.actions and first.result == second.result
    assert first.stats.counters == second.stats.counters
    logged = json.loads(json.dumps(first.actions))
    state = replay(game, 11, logged, debug=True)
    assert state.result() == first.result
    assert play_game(game, bots, seed=12).actions != first.actions


def test_a_claim_of_any_whole_figure_replays(deck: Deck, table: DeckTable, tmp_path: Path) -> None:
    from kraftstokk.games.replay import load_replay, make_replay, replay_log, save_replay

    game = KraftidiotenGame(table, 2)
    state = game.new_initial_state(random.Random(8))
    card = next(c for c in state.hands[0] if not table.joker[c])
    typed = [(LIE, card, GWH), (LAY, card, GWH, card, 123_456)]  # not a listed figure
    lying = state.clone()
    lying.apply(typed[0])
    assert typed[1] not in lying.legal_actions() and lying.is_legal(typed[1])
    for action in typed:
        state.apply(action)
    assert state.claims[-1].figure == 123_456.0
    path = tmp_path / "figure.json"
    save_replay(path, make_replay(deck, game, ["person", "random"], 8, typed, None))
    again = replay_log(load_replay(path))
    assert again.events == state.events


def test_a_version_1_replay_of_kraftidioten_is_refused_in_one_line(
    deck: Deck, table: DeckTable, tmp_path: Path
) -> None:
    from kraftstokk.games.replay import load_replay, make_replay

    game = KraftidiotenGame(table, 2)
    record = play_game(game, make_bots(game, "greedy"), 3)
    log = make_replay(deck, game, ["greedy"] * 2, 3, record.actions, record.result)
    old = log.model_dump(mode="json")
    old["version"] = 1
    path = tmp_path / "v1.json"
    path.write_text(json.dumps(old), encoding="utf-8")
    with pytest.raises(
        GameError,
        match=r"v1.json: a version-1 replay of kraftidioten, whose rules "
        r"have changed since \(lies by figure, KI-4c.*KI-7\); it cannot be replayed$",
    ):
        load_replay(path)


def test_result_rounds_count_regular_turns(table: DeckTable) -> None:
    game = KraftidiotenGame(table, 3)
    record = play_game(game, make_bots(game, "greedy"), seed=4)
    state = replay(game, 4, record.actions)
    assert isinstance(state, KraftidiotenState)
    assert record.result.rounds == -(-state.turns // 3)
    assert state.turns < record.result.actions  # challenge decisions are not turns


# ----------------------------------------------------------------- bots


def test_registry_finds_game_and_bots(table: DeckTable) -> None:
    assert game_class("kraftidioten") is KraftidiotenGame
    assert bot_kinds("kraftidioten") == ["expert", "greedy", "heuristic", "random"]
    game = make_game("kraftidioten", table, 2)
    bots = make_bots(game, "heuristic:knowledge=0.2:top3_challenge=1,greedy")
    assert isinstance(bots[0], HeuristicBot) and bots[0].knowledge == 0.2
    assert isinstance(bots[1], GreedyBot)
    for spec in ("heuristic:knowledge=2", "heuristic:nerve=1", "greedy:x=1", "random:x=1"):
        with pytest.raises(SimulationError):
            make_bots(game, spec)


def test_greedy_plays_cheapest_truth_and_never_challenges(table: DeckTable) -> None:
    game = KraftidiotenGame(table, 2)
    bot = GreedyBot(game)
    rng = random.Random(1)
    state = position(table, [[5, 6, 7], [10, 12, 40]], stock=[9], pile=[(0, 30, 30)], category=GWH)
    state.player = 1
    assert bot.act(state.observation(1), state.legal_actions(), rng) == (LAY, 12, GWH, 12)
    state.apply((LAY, 12, GWH, 12))
    state.player, state.phase = 0, PHASE_CHALLENGE
    assert bot.act(state.observation(0), state.legal_actions(), rng) == PASS_ACTION
    stuck = position(table, [[5, 6, 7], [40, 41, 42]], stock=[9], pile=[(0, 3, 3)], category=GWH)
    stuck.player = 1
    assert bot.act(stuck.observation(1), stuck.legal_actions(), rng) == DRAW_ACTION
    stuck.stock = []
    stuck.burned.append(9)
    assert bot.act(stuck.observation(1), stuck.legal_actions(), rng) == TAKE_ACTION


def test_heuristic_challenges_what_it_can_refute(table: DeckTable) -> None:
    game = KraftidiotenGame(table, 2)
    bot = HeuristicBot(game, knowledge=1.0, top3_challenge=0.0)
    rng = random.Random(1)
    # seat 1 holds Sima (card 12); seat 2 claims card 12 with another card: refuted
    state = position(table, [[12, 6, 7], [20, 41, 42]], pile=[(0, 30, 30)], category=GWH, player=1)
    state.apply((LIE, 20, GWH))
    state.apply((LAY, 20, GWH, 12))
    assert bot.act(state.observation(0), state.legal_actions(), rng) == CHALLENGE_ACTION
    # a claim it cannot refute (and not top-3) stands
    state = position(table, [[13, 6, 7], [20, 41, 42]], pile=[(0, 30, 30)], category=GWH, player=1)
    state.apply((LIE, 20, GWH))
    state.apply((LAY, 20, GWH, 12))
    assert bot.act(state.observation(0), state.legal_actions(), rng) == PASS_ACTION


def test_heuristic_lies_plausibly_when_stuck(table: DeckTable) -> None:
    game = KraftidiotenGame(table, 2)
    bot = HeuristicBot(game, knowledge=1.0, bluff=1.0)
    rng = random.Random(1)
    pile = [(0, 30, 30), (1, 31, 31), (0, 25, 25)]
    state = position(table, [[5, 6, 7], [40, 41, 42]], stock=[9], pile=pile, category=GWH)
    state.player = 1
    action = bot.act(state.observation(1), state.legal_actions(), rng)
    assert action == (LIE, 42, GWH)  # its weakest card
    state.apply(action)
    claim = bot.act(state.observation(1), state.legal_actions(), rng)
    assert claim == (LAY, 42, GWH, 24)  # the least conspicuous plant that beats card 25
    assert claim in state.legal_actions()


def test_heuristic_challenges_a_wrong_figure_as_often_as_it_knows_the_deck(
    table: DeckTable,
) -> None:
    game = KraftidiotenGame(table, 2)

    def answers(knowledge: float) -> list[tuple[int, ...]]:
        bot = HeuristicBot(game, knowledge=knowledge, top3_challenge=0.0)
        rng = random.Random(3)
        state = position(
            table, [[13, 6, 7], [20, 41, 42]], pile=[(0, 30, 30)], category=GWH, player=1
        )
        state.apply((LIE, 20, GWH))
        state.apply((LAY, 20, GWH, 20, 4000))  # its own card, not its figure
        return [bot.act(state.observation(0), state.legal_actions(), rng) for _ in range(40)]

    assert set(answers(1.0)) == {CHALLENGE_ACTION}
    assert set(answers(0.0)) == {PASS_ACTION}
    assert set(answers(0.5)) == {CHALLENGE_ACTION, PASS_ACTION}


def test_heuristic_without_knowledge_lies_by_figure(table: DeckTable) -> None:
    game = KraftidiotenGame(table, 2)
    bot = HeuristicBot(game, knowledge=0.0, bluff=1.0)
    rng = random.Random(1)
    pile = [(0, 30, 30), (1, 31, 31), (0, 25, 25)]
    state = position(table, [[5, 6, 7], [40, 41, 42]], stock=[9], pile=pile, category=GWH)
    state.player = 1
    action = bot.act(state.observation(1), state.legal_actions(), rng)
    assert action == (LIE, 42, GWH)
    state.apply(action)
    claim = bot.act(state.observation(1), state.legal_actions(), rng)
    floor = printed(table, GWH, 25)
    assert claim == (LAY, 42, GWH, 42, int(floor))  # its own plant, just enough
    assert claim in state.legal_actions()


# ----------------------------------------------------------------- random games


@settings(
    max_examples=40,
    deadline=None,
    # the table fixture is read-only, so sharing it between examples is safe
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(
    players=st.integers(min_value=2, max_value=10),
    kinds=st.lists(st.sampled_from(["random", "greedy", "heuristic"]), min_size=10, max_size=10),
    seed=st.integers(min_value=0, max_value=2**32),
)
def test_random_games_keep_every_card_in_one_place_and_end(
    table: DeckTable, players: int, kinds: list[str], seed: int
) -> None:
    game = KraftidiotenGame(table, players, action_cap=1500)
    bots = make_bots(game, ",".join(kinds[:players]))
    record = play_game(game, bots, seed, debug=True)  # checks every card after every action
    result = record.result
    assert result.actions == len(record.actions) <= 1500
    if result.finished:
        assert result.loser is not None and len(result.order) == players - 1
        assert sorted([*result.order, result.loser]) == list(range(players))
        assert record.loser_cards
    else:
        assert result.actions == 1500
    counters = Counter(record.stats.counters)
    assert sum(record.stats.cards_played) == counters["claims"] + counters["joker_burns"]
    assert counters["challenges"] == (
        counters["challenges_upheld"] + counters["challenges_groundless"]
    )
    assert counters["challenges_upheld"] <= counters["lies"]
    assert counters["figure_lies"] <= counters["lies"] <= counters["claims"]
    # the counters, counted from the events, agree with the actions taken
    kinds = Counter(action[0] for action in record.actions)
    figure_claims = sum(1 for action in record.actions if len(action) == 5)
    assert counters["challenges"] == kinds[CHALLENGE]
    assert counters["stock_draws"] == kinds[DRAW]
    assert counters["figure_lies"] == figure_claims
    assert counters["claims"] <= kinds[LAY] + kinds[DRAW]
    assert counters["claims"] >= kinds[LAY]
    assert counters["pile_pickups"] >= kinds[TAKE]
    assert counters["joker_burns"] >= kinds[JOKER]
    assert counters["joker_penalties"] <= kinds[JOKER]


class WildFigures:
    """Random play that, when it lies, often states a random whole figure (not listed)."""

    def act(
        self, observation: KraftidiotenObservation, legal: list[tuple[int, ...]], rng: random.Random
    ) -> tuple[int, ...]:
        choice = legal[rng.randrange(len(legal))]
        if observation.phase == KraftidiotenPhase.CLAIM and len(choice) == 5 and rng.random() < 0.7:
            low = max(0, int(observation.floor or 0) + 1)
            return (*choice[:4], rng.randrange(low, low + 5000))
        return choice


@pytest.mark.parametrize("seed", range(6))
def test_random_games_with_any_stated_figure_keep_every_card_and_replay(
    table: DeckTable, seed: int
) -> None:
    game = KraftidiotenGame(table, 3, action_cap=1500)
    bots = [WildFigures(), WildFigures(), HeuristicBot(game)]
    record = play_game(game, bots, seed, debug=True)  # is_legal judges every stated figure
    stated = [action for action in record.actions if len(action) == 5]
    assert stated and Counter(record.stats.counters)["figure_lies"] == len(stated)
    again = replay(game, seed, record.actions)
    assert again.result() == record.result
    assert again.final_stats().counters == record.stats.counters


@pytest.mark.parametrize("kind", ["random", "greedy", "heuristic"])
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6, 7, 8, 9, 10])
def test_every_bot_finishes_games_for_every_player_count(
    table: DeckTable, kind: str, players: int
) -> None:
    game = KraftidiotenGame(table, players)
    bots = make_bots(game, kind)
    records = [play_game(game, bots, seed) for seed in range(3)]
    assert all(record.result.actions <= game.action_cap for record in records)
    if kind != "random":  # random play may run to the cap; the others must finish
        assert all(record.result.finished for record in records)
