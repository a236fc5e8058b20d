"""Kraftidioten (RULES.md KI-1..KI-9): rule positions, invariants, bots, random games.

The synthetic deck orders its plant cards by production: card ``j`` (0..51) has the
``j+1``-th highest GWh, so card 0-2 are nr. 1-3 in produksjon; cards 52-54 are jokers.
"""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kraftstokk.errors import GameError, SimulationError
from kraftstokk.games.core import GWH, MW, DeckTable, play_game, replay
from kraftstokk.games.kraftidioten import (
    BURNED,
    CHALLENGE_ACTION,
    DRAW_ACTION,
    JOKER,
    LAY,
    LIE,
    NO_CATEGORY,
    PASS_ACTION,
    PHASE_CHALLENGE,
    PHASE_CLAIM,
    PHASE_TURN,
    TAKE_ACTION,
    Claim,
    KraftidiotenGame,
    KraftidiotenState,
)
from kraftstokk.games.kraftidioten_bots import GreedyBot, HeuristicBot
from kraftstokk.games.registry import bot_kinds, game_class, make_bots, make_game
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
    state = game.new_initial_state(random.Random(seed))
    state.hands = [list(hand) for hand in hands]
    state.stock = list(stock or [])
    state.pile = [card for _, card, _ in pile]
    state.claims = [Claim(seat, plant, False) for seat, _, plant in pile]
    used = {card for hand in hands for card in hand} | set(state.stock) | set(state.pile)
    state.burned = [card for card in range(table.size) if card not in used]
    state.category = category
    state.floor = table.figures[category][pile[-1][2]] if pile else -1.0
    state.player = player
    state.check_invariants()
    return state


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
    assert state.stats.counters["claims"] == 1 and state.stats.counters["lies"] == 0
    assert state.stats.cards_played[20] == 1


def test_ki3_next_claim_must_reach_the_previous_figure(table: DeckTable) -> None:
    # cards 20 > 25 > 30 in production; seat 1 holds 10 (higher) and 30 (lower)
    state = position(table, [[5, 6, 7], [10, 30, 31]], pile=[(0, 25, 25)], category=GWH, player=1)
    legal = state.legal_actions()
    truths = {action[1] for action in legal if action[0] == LAY}
    assert truths == {10}
    with pytest.raises(GameError, match="below the last claim"):
        state.apply((LAY, 30, GWH, 30))
    with pytest.raises(GameError, match="played in produksjon"):
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
    assert state.stats.counters["pile_pickups"] == 1


def test_ki4b_stock_draw_claims_truthfully_or_takes_the_pile(table: DeckTable) -> None:
    # drawn card 12 beats the claim 30: laid as a truthful claim from the stock
    state = position(
        table, [[5, 6, 7], [40, 41, 42]], stock=[13, 12], pile=[(0, 30, 30)], category=GWH
    )
    state.player = 1
    state.apply(DRAW_ACTION)
    assert state.pile == [30, 12] and state.claims[-1] == Claim(1, 12, True)
    assert state.hands[1] == [40, 41, 42] and state.stock == [13]
    assert state.phase == PHASE_CHALLENGE and state.stats.counters["stock_draws"] == 1
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
    assert state.stats.counters["joker_burns"] == 1
    assert state.stats.counters["joker_penalties"] == 0
    state.check_invariants()


def test_ki4c_a_lie_lays_any_card_under_any_plant_that_beats_the_claim(
    table: DeckTable,
) -> None:
    state = position(table, [[5, 6, 7], [40, 41, 42]], pile=[(0, 30, 30)], category=GWH, player=1)
    assert (LIE, 40, GWH) in state.legal_actions()
    state.apply((LIE, 40, GWH))
    assert state.phase == PHASE_CLAIM and state.current_player() == 1
    claims = state.legal_actions()
    assert all(action[:3] == (LAY, 40, GWH) and action[3] != 40 for action in claims)
    assert {action[3] for action in claims} == set(range(30 + 1)) - {40}  # figure >= card 30
    assert state.observation(0).phase == PHASE_TURN  # the others cannot see the lie
    assert state.observation(0).lie_card == -1 and state.observation(1).lie_card == 40
    with pytest.raises(GameError, match="false claim"):
        state.apply((LAY, 41, GWH, 3))
    state.apply((LAY, 40, GWH, 3))
    assert state.pile == [30, 40] and state.claims[-1] == Claim(1, 3, False)
    assert state.stats.counters["lies"] == 1


def test_ki6_groundless_challenge_challenger_takes_next_after_layer_starts(
    table: DeckTable,
) -> None:
    hands = [[5, 6, 7], [12, 41, 42], [8, 9, 11], [43, 44, 46]]
    state = position(table, hands, stock=[47, 48], pile=[(0, 30, 30)], category=GWH, player=1)
    state.apply((LAY, 12, GWH, 12))  # the truth
    assert state.hands[1] == [41, 42, 48]
    asked = answer_window(state, challenger=3)
    assert asked == [2, 3]  # seating order after the layer; seat 3 challenges
    assert sorted(state.hands[3]) == [12, 30, 43, 44, 46]  # the challenger takes the pile
    assert state.shown[-1] == (12, 3) and state.observation(0).where_shown(12) == 3
    # people count seats from 1: index 3 is seat 4
    assert state.outcome_text() == "shown Tyin (spar 11): the truth, seat 4 takes the pile"
    assert state.current_player() == 2 and state.category == NO_CATEGORY  # after the layer
    counters = state.stats.counters
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
    assert state.stats.counters["challenges_upheld"] == 1


def test_ki6_first_in_seating_order_after_the_layer_challenges(table: DeckTable) -> None:
    hands = [[5, 6, 7], [40, 41, 42], [8, 9, 11], [12, 43, 44]]
    state = position(table, hands, pile=[(2, 30, 30)], category=GWH, player=3)
    state.apply((LAY, 12, GWH, 12))
    assert state.current_player() == 0  # asked first: the seat after the layer
    state.apply(CHALLENGE_ACTION)  # seats 1 and 2 are never asked
    assert state.phase == PHASE_TURN and sorted(state.hands[0]) == [5, 6, 7, 12, 30]


def test_ki7_joker_with_two_cards_in_hand_burns_and_costs_three_burned_cards(
    table: DeckTable,
) -> None:
    state = position(table, [[53, 20], [40, 41, 42]], pile=[(1, 30, 30)], category=GWH)
    burned_plants = [card for card in state.burned if not table.joker[card]]
    state.apply((JOKER, 53))
    assert 53 in state.burned and state.pile == []
    hand = state.hands[0]
    assert len(hand) == 4 and 20 in hand
    drawn = [card for card in hand if card != 20]
    assert set(drawn) <= {*burned_plants, 30}  # the pile burned first, then the draw
    assert 30 in state.burned or 30 in drawn
    assert not any(table.joker[card] for card in drawn)  # a shown joker stays out
    assert state.current_player() == 0 and state.category == NO_CATEGORY  # lays again
    assert state.shown[-1] == (53, BURNED)
    counters = state.stats.counters
    assert counters["joker_burns"] == 1 and counters["joker_penalties"] == 1
    assert counters["burns"] == 1
    state.check_invariants()


def test_ki7_joker_with_three_cards_has_no_penalty(table: DeckTable) -> None:
    state = position(table, [[53, 20, 21], [40, 41, 42]], pile=[(1, 30, 30)], category=GWH)
    state.apply((JOKER, 53))
    assert sorted(state.hands[0]) == [20, 21]
    assert state.stats.counters["joker_penalties"] == 0
    assert state.current_player() == 0


def test_ki8_unchallenged_top3_claim_burns_and_layer_lays_again(table: DeckTable) -> None:
    state = position(table, [[2, 20, 21], [40, 41, 42]], pile=[(1, 30, 30)], category=GWH)
    state.apply((LAY, 2, GWH, 2))  # Sima, nr. 3 in produksjon
    assert state.observation(1).claim_is_top3
    answer_window(state)
    assert 2 in state.burned and 30 in state.burned and state.pile == []
    assert state.current_player() == 0 and state.category == NO_CATEGORY
    counters = state.stats.counters
    assert counters["top3_claims"] == 1 and counters["top3_burns"] == 1
    assert counters["burns"] == 1


def test_ki8_challenged_true_challenger_takes_layer_lays_again(table: DeckTable) -> None:
    state = position(table, [[2, 20, 21], [40, 41, 42]], pile=[(1, 30, 30)], category=GWH)
    state.apply((LAY, 2, GWH, 2))
    answer_window(state, challenger=1)
    assert sorted(state.hands[1]) == [2, 30, 40, 41, 42]
    assert state.current_player() == 0 and state.category == NO_CATEGORY
    assert state.stats.counters["top3_burns"] == 0
    assert state.stats.counters["challenges_groundless"] == 1


def test_ki8_challenged_lie_layer_takes_challenger_starts(table: DeckTable) -> None:
    state = position(table, [[20, 21, 22], [40, 41, 42]], pile=[(1, 30, 30)], category=GWH)
    state.apply((LIE, 20, GWH))
    state.apply((LAY, 20, GWH, 0))  # claims Tonstad, nr. 1
    assert state.top3_claim
    answer_window(state, challenger=1)
    assert sorted(state.hands[0]) == [20, 21, 22, 30]
    assert state.current_player() == 1 and state.category == NO_CATEGORY
    assert state.stats.counters["challenges_upheld"] == 1
    assert state.stats.counters["top3_burns"] == 0


def test_ki9_last_card_goes_out_once_the_claim_stands(table: DeckTable) -> None:
    state = position(table, [[20], [40, 41], [42, 43]], pile=[(2, 30, 30)], category=GWH)
    state.apply((LAY, 20, GWH, 20))
    assert state.active[0]  # not out while the claim can be challenged
    answer_window(state)
    assert not state.active[0] and state.out_order == [0]
    assert state.outcome_text() == "seat 1 is out"  # index 0: people count from 1
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


# ----------------------------------------------------------------- engine guarantees


def test_actions_read_as_words(table: DeckTable) -> None:
    state = position(table, [[0, 20, 21], [40, 41, 42]], category=NO_CATEGORY)
    assert state.action_to_string((LAY, 0, GWH, 0)) == (
        "lay Tonstad (spar 1) face down, claim Tonstad 4 405 GWh"
    )
    assert state.public_action_string((LAY, 20, GWH, 0)) == (
        "lay a card face down, claim Tonstad 4 405 GWh"
    )
    assert state.action_to_string(CHALLENGE_ACTION) == "challenge"
    assert state.action_to_string(PASS_ACTION) == "pass"
    assert state.action_to_string(TAKE_ACTION) == "take the pile"
    assert state.action_to_string(DRAW_ACTION) == "draw from the stock"
    assert state.action_to_string((JOKER, 52)) == "lay joker 1, burning the pile"
    assert state.action_to_string((LIE, 20, GWH)) == "lie with Øvre Vinstra (spar 9) in produksjon"
    assert state.public_action_string((LIE, 20, GWH)) == ""  # only the claim is seen
    # Figures in words are the ones the card prints.
    assert table.figure_text(GWH, 0) == "4 405 GWh"
    assert state.claim_to_string(0, GWH) == f"{table.names[0]} 4 405 GWh"


def test_observation_shows_only_what_the_seat_may_know(table: DeckTable) -> None:
    state = position(
        table, [[5, 6, 7], [40, 41, 42]], stock=[9], pile=[(0, 30, 3), (1, 25, 25)], category=GWH
    )
    seen = state.observation(0)
    assert seen is state.observation(0)  # built once: O(1) per call
    assert seen.hand == (5, 6, 7) and seen.hand_counts == (3, 3)
    assert seen.claims == (Claim(0, 3, False), Claim(1, 25, False))
    assert seen.own_cards_on_pile == ((0, 30),)  # its own face-down card only
    assert seen.stock_count == 1 and seen.pile_count == 2 and seen.category == GWH
    assert seen.floor == table.figures[GWH][25]
    # another hand and another face-down card of seat 1: seat 0 sees exactly the same
    other = position(
        table, [[5, 6, 7], [43, 44, 45]], stock=[9], pile=[(0, 30, 3), (1, 26, 25)], category=GWH
    )
    names = [n for n in dir(seen) if not n.startswith("_") and not callable(getattr(seen, n))]
    assert [getattr(seen, n) for n in names] == [getattr(other.observation(0), n) for n in names]
    assert other.observation(1).hand != state.observation(1).hand
    assert seen.hand_count(1) == 3 and seen.where_shown(40) is None
    assert seen.describe() == other.observation(0).describe()
    assert "Tokke (hjerter 13)" in "\n".join(seen.describe())  # its own card 5
    with pytest.raises(AttributeError):
        seen.hand = (1,)  # type: ignore[misc]


def test_clone_is_independent(table: DeckTable) -> None:
    state = KraftidiotenGame(table, 3).new_initial_state(random.Random(5))
    copy = state.clone()
    state.apply(state.legal_actions()[0])
    assert copy.actions == 0 and state.actions == 1
    assert copy.hands != state.hands or copy.phase != state.phase
    assert copy.stats.counters != state.stats.counters or copy.pile != state.pile
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
    assert bot_kinds("kraftidioten") == ["greedy", "heuristic", "random"]
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
    # seat 0 holds Sima (card 12); seat 1 claims card 12 with another card: refuted
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
    counters = record.stats.counters
    assert sum(record.stats.cards_played) == counters["claims"] + counters["joker_burns"]
    assert counters["challenges"] == (
        counters["challenges_upheld"] + counters["challenges_groundless"]
    )
    assert counters["challenges_upheld"] <= counters["lies"]


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
