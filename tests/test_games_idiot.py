"""Idiot: one test (or more) per rule id of RULES.md ID-1..ID-13, plus engine guarantees."""

from __future__ import annotations

import dataclasses
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kraftstokk.errors import GameError
from kraftstokk.games.core import DeckTable
from kraftstokk.games.idiot.actions import (
    CHANCE,
    END_RUN,
    FACE_DOWN,
    PASS,
    PLAY,
    READY,
    SNEAK,
    SWAP,
    TAKE,
    IdiotPhase,
)
from kraftstokk.games.idiot.bots import BOTS
from kraftstokk.games.idiot.events import ChanceDrawn, FaceDownTurned, RunEnded
from kraftstokk.games.idiot.observation import IdiotObservation
from kraftstokk.games.idiot.spec import SPEC
from kraftstokk.games.idiot.state import GAME, IdiotGame, IdiotState, sort_cards
from kraftstokk.games.narration import Narrator
from kraftstokk.games.random_bot import RandomBot
from kraftstokk.games.registry import make_bots, make_game
from kraftstokk.games.runner import play_game
from tests.conftest import synthetic_deck

VARIANTS = SPEC.variant_names

TABLE = DeckTable.from_deck(synthetic_deck())


@pytest.fixture
def table(deck) -> DeckTable:
    return DeckTable.from_deck(deck)


class Cards:
    """Hands out distinct cards by Idiot rank (2..14), four of each."""

    def __init__(self, game: IdiotGame) -> None:
        self.free: dict[int, list[int]] = {}
        for card in game.plant_cards:
            self.free.setdefault(game.ranks[card], []).append(card)

    def __call__(self, *ranks: int) -> list[int]:
        return [self.free[rank].pop() for rank in ranks]


def position(
    players: int = 2, variants: tuple[str, ...] = (), **rows: object
) -> tuple[IdiotState, Cards]:
    """A position built from ranks: hands/face_up/face_down are lists per seat."""
    game = IdiotGame(TABLE, players, variants)
    cards = Cards(game)

    def seats(name: str) -> list[list[int]]:
        given_rows = rows.get(name) or [[] for _ in range(players)]
        assert isinstance(given_rows, list)
        return [cards(*row) for row in given_rows]

    hands, up, down = seats("hands"), seats("face_up"), seats("face_down")
    stock_ranks = rows.get("stock", ())
    pile_ranks = rows.get("pile", ())
    assert isinstance(stock_ranks, tuple | list) and isinstance(pile_ranks, tuple | list)
    state = IdiotState.from_position(
        game,
        hands=hands,
        face_up=up,
        face_down=down,
        stock=cards(*stock_ranks),
        pile=cards(*pile_ranks),
        player=int(rows.get("player", 0)),  # type: ignore[call-overload]
    )
    return state, cards


def ranks_of(state: IdiotState, cards: list[int] | tuple[int, ...]) -> list[int]:
    return sorted(state.game.ranks[c] for c in cards)


def plays(state: IdiotState) -> list[list[int]]:
    """The legal PLAY actions as rank lists."""
    return [ranks_of(state, a[1:]) for a in state.legal_actions() if a[0] == PLAY]


def play_ranks(state: IdiotState, *ranks: int) -> None:
    """Apply the PLAY action laying exactly these ranks."""
    for action in state.legal_actions():
        if action[0] == PLAY and ranks_of(state, action[1:]) == sorted(ranks):
            state.apply(action)
            state.check_invariants()
            return
    raise AssertionError(f"no legal play of {ranks} in {state.legal_actions()}")


def kinds(state: IdiotState) -> set[int]:
    return {a[0] for a in state.legal_actions()}


# -- ID-1: players, cards, ranks ------------------------------------------------------


def test_id1_player_counts_and_the_52_plant_cards(table):
    for n in (2, 3, 4, 5):
        state = IdiotGame(table, n).new_initial_state(random.Random(1))
        assert sorted(state.cards_in_play()) == list(table.plant_cards)
        assert len(state.cards_in_play()) == 52
        located = [c for cards in state.card_locations().values() for c in cards]
        assert not set(located) & set(table.joker_cards)
    for n in (1, 6):
        with pytest.raises(GameError, match="2-5 players"):
            IdiotGame(table, n)


def test_id1_ace_is_high_and_2_is_lowest(table):
    game = IdiotGame(table, 2)
    for card in table.plant_cards:
        value = table.value[card]
        assert game.ranks[card] == (14 if value == 1 else value)
    state, _ = position(hands=[[14, 5], [3]], face_down=[[4], [4]], pile=[13])
    assert plays(state) == [[14]]  # the 5 is too low, the ace beats the king


def test_id1_deck_without_52_plants_is_refused(deck):
    small = deck.model_copy(update={"cards": deck.cards[:20] + deck.cards[-3:]})
    with pytest.raises(GameError, match="52 plant cards"):
        IdiotGame(DeckTable.from_deck(small), 3)


def test_id1_deck_with_five_cards_of_a_value_is_refused(table):
    first = table.plant_cards[0]
    other = next(c for c in table.plant_cards if table.value[c] != table.value[first])
    values = list(table.value)
    values[other] = table.value[first]
    with pytest.raises(GameError, match="at most four cards of a value"):
        IdiotGame(dataclasses.replace(table, value=tuple(values)), 2)


# -- ID-2: the deal -------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_id2_deal_three_down_three_up_three_in_hand(table, players):
    state = IdiotGame(table, players).new_initial_state(random.Random(players))
    places = state.card_locations()
    for seat in range(players):
        assert len(places[f"hand:{seat}"]) == 3
        assert len(places[f"face_up:{seat}"]) == 3
        assert len(places[f"face_down:{seat}"]) == 3
    assert len(places["stock"]) == 52 - 9 * players
    assert places["pile"] == [] and places["burned"] == []
    state.check_invariants()


# -- ID-3: swapping ---------------------------------------------------------------------


def test_id3_swap_phase_exchanges_hand_and_face_up_cards(table):
    state = IdiotGame(table, 3).new_initial_state(random.Random(5))
    assert state.current_player() == 0
    legal = state.legal_actions()
    assert (READY,) in legal and sum(a[0] == SWAP for a in legal) == 9
    hand_card, up_card = legal[0][1], legal[0][2]
    state.apply(legal[0])
    obs = state.observation(0)
    assert up_card in obs.hand and hand_card in obs.face_up
    assert hand_card not in obs.hand and up_card not in obs.face_up
    state.apply((READY,))
    assert state.current_player() == 1  # seats swap in turn
    state.apply((READY,))
    state.apply((READY,))
    assert state.observation(0).phase == IdiotPhase.PLAYING
    assert SWAP not in kinds(state)


def test_id3_no_swap_variant_starts_with_play(table):
    state = IdiotGame(table, 3, ["no_swap"]).new_initial_state(random.Random(5))
    assert state.observation(0).phase == IdiotPhase.PLAYING
    assert not kinds(state) & {SWAP, READY}


# -- ID-4: who starts -------------------------------------------------------------------


def _starter(hands: list[list[int]]) -> int:
    game = IdiotGame(TABLE, len(hands))
    cards = Cards(game)
    state = IdiotState.from_position(
        game,
        hands=[cards(*h) for h in hands],
        face_up=[cards(5) for _ in hands],
        face_down=[cards(6) for _ in hands],
    )
    return state._starting_player()


def test_id4_lowest_ordinary_card_starts_2_and_10_do_not_count():
    assert _starter([[4, 9, 13], [3, 12, 14]]) == 1
    assert _starter([[2, 10, 7], [4, 11, 12]]) == 1  # the 2 and 10 don't count
    assert _starter([[3, 8, 9], [3, 7, 9], [4, 4, 4]]) == 1  # tie: the lower next card
    assert _starter([[3, 7, 9], [3, 7, 9]]) == 0  # full tie: nearest the dealer's left
    assert _starter([[2, 2, 10], [14, 14, 13]]) == 1  # no ordinary card at all: last


def test_id4_starter_chosen_after_the_swaps(table):
    state = IdiotGame(table, 2).new_initial_state(random.Random(11))
    for _ in range(2):
        state.apply((READY,))
    assert state.current_player() == state._starting_player()


# -- ID-5: what may be laid -----------------------------------------------------------


def test_id5_equal_or_higher_one_rank_several_cards():
    state, _ = position(hands=[[7, 7, 6, 9], [3]], face_down=[[4], [4]], pile=[7])
    assert plays(state) == [[7], [7, 7], [9]]
    play_ranks(state, 7, 7)
    assert state.observation(0).pile_size == 3
    assert state.current_player() == 1


def test_id5_2_and_10_may_go_on_anything():
    state, _ = position(hands=[[2, 10, 5], [3]], face_down=[[4], [4]], pile=[14])
    assert plays(state) == [[2], [10]]


# -- ID-6: the 2 resets -----------------------------------------------------------------


def test_id6_2_resets_for_the_next_player():
    state, _ = position(hands=[[2, 9], [3, 4]], face_down=[[4], [4]], pile=[13])
    play_ranks(state, 2)
    assert state.current_player() == 1
    assert plays(state) == [[3], [4]]  # anything goes on the 2


def test_id6_variant_two_same_player_plays_again():
    state, _ = position(
        variants=("two_same_player",), hands=[[2, 9], [3, 4]], face_down=[[4], [4]], pile=[13]
    )
    play_ranks(state, 2)
    assert state.current_player() == 0
    assert plays(state) == [[9]]


# -- ID-7: the 10 burns -----------------------------------------------------------------


def test_id7_10_burns_the_pile_and_the_player_goes_again():
    state, _ = position(hands=[[10, 5], [3]], face_down=[[4], [4]], pile=[12, 13, 14])
    burned_before = state.observation(0).burned_count
    play_ranks(state, 10)
    obs = state.observation(0)
    assert obs.pile_size == 0 and obs.burned_count == burned_before + 4
    assert state.current_player() == 0
    assert (
        state.final_stats().counters["ten_burns"] == 1
        and state.final_stats().counters["burns"] == 1
    )


# -- ID-8: four of a kind burns -----------------------------------------------------


def test_id8_four_of_a_kind_laid_by_two_players_burns():
    state, _ = position(hands=[[8, 8, 3], [8, 8, 5]], face_down=[[4], [4]], pile=[6], player=0)
    play_ranks(state, 8, 8)
    assert state.current_player() == 1
    play_ranks(state, 8, 8)  # the third and fourth 8 in a row
    assert state.observation(1).pile_size == 0
    assert state.current_player() == 1  # who laid the fourth plays again
    assert state.final_stats().counters["four_burns"] == 1
    assert plays(state) == [[5]]


def test_id8_three_of_a_kind_does_not_burn():
    state, _ = position(hands=[[8, 8, 3], [8, 5]], face_down=[[4], [4]], pile=[6])
    play_ranks(state, 8, 8)
    play_ranks(state, 8)
    assert state.observation(0).pile_size == 4
    assert state.current_player() == 0
    assert "four_burns" not in state.final_stats().counters


def test_id8_a_broken_row_does_not_burn():
    state, _ = position(hands=[[8, 3], [8, 5]], face_down=[[4], [4]], pile=[8, 8, 2])
    play_ranks(state, 8)
    assert state.observation(0).pile_size == 4  # 8 8 2 8: not four in a row


# -- ID-9: drawing back up --------------------------------------------------------------


def test_id9_draw_back_up_to_three_while_the_stock_lasts():
    state, _ = position(hands=[[6, 6, 9], [3, 4, 7]], face_down=[[4], [4]], stock=[11, 12])
    play_ranks(state, 6, 6)
    assert len(state.observation(0).hand) == 3
    assert state.observation(0).stock_count == 0
    play_ranks(state, 7)
    assert len(state.observation(1).hand) == 2  # the stock is empty


# -- ID-10: unable to play: take the pile or take a chance ---------------------------


def test_id10_unable_to_play_take_the_pile_or_chance():
    state, _ = position(hands=[[3, 4, 5], [6]], face_down=[[4], [4]], pile=[9, 12], stock=[7])
    assert state.legal_actions() == [(CHANCE,), (TAKE,)]
    state.apply((TAKE,))
    assert ranks_of(state, state.observation(0).hand) == [3, 4, 5, 9, 12]
    assert state.observation(0).pile_size == 0
    assert state.current_player() == 1
    assert state.final_stats().counters["pile_pickups"] == 1


def test_id10_chance_card_that_fits_is_played():
    state, _ = position(hands=[[3, 4, 5], [6]], face_down=[[4], [4]], pile=[9], stock=[13])
    state.apply((CHANCE,))
    state.check_invariants()
    obs = state.observation(0)
    assert obs.pile_size == 2 and ranks_of(state, obs.pile[-1:]) == [13]
    assert ranks_of(state, obs.hand) == [3, 4, 5]
    assert state.current_player() == 1
    assert state.final_stats().counters["chance_draws_played"] == 1
    drawn = [e for e in state.events if isinstance(e, ChanceDrawn)]
    assert drawn == [ChanceDrawn(0, obs.pile[-1], True)]


def test_id10_chance_card_that_does_not_fit_goes_to_hand_with_the_pile():
    state, _ = position(hands=[[3, 4, 5], [6]], face_down=[[4], [4]], pile=[9], stock=[7])
    state.apply((CHANCE,))
    state.check_invariants()
    obs = state.observation(0)
    assert ranks_of(state, obs.hand) == [3, 4, 5, 7, 9]
    assert obs.pile_size == 0 and state.current_player() == 1
    assert state.final_stats().counters["chance_draws"] == 1
    assert "chance_draws_played" not in state.final_stats().counters


def test_id10_the_pile_may_be_taken_although_able_to_play_but_no_chance():
    state, _ = position(hands=[[3, 11], [6]], face_down=[[4], [4]], pile=[9], stock=[7])
    legal = state.legal_actions()
    assert (TAKE,) in legal and (CHANCE,) not in legal
    assert plays(state) == [[11]]


# -- ID-11: face-up then face-down ------------------------------------------------------


def test_id11_face_up_cards_after_hand_and_stock_several_of_one_rank():
    state, _ = position(
        hands=[[], [3]], face_up=[[7, 7, 12], []], face_down=[[4, 5, 6], [4]], pile=[6]
    )
    assert plays(state) == [[7], [7, 7], [12]]
    assert "face-up" in state.action_to_string(state.legal_actions()[0])
    play_ranks(state, 7, 7)
    assert ranks_of(state, state.observation(0).face_up) == [12]


def test_id11_face_down_chosen_by_slot_unseen():
    state, _ = position(hands=[[], [3]], face_down=[[9, 5, 13], [4]], pile=[8])
    legal = state.legal_actions()
    assert legal == [(FACE_DOWN, 0), (FACE_DOWN, 1), (FACE_DOWN, 2), (TAKE,)]
    hidden = state._down[0]
    for action in legal[:3]:
        words = state.action_to_string(action)
        assert all(TABLE.names[c] not in words for c in hidden)
        assert action[1:] == (action[1],) and action[1] < 3  # a slot, not a card
    obs = state.observation(0)
    assert obs.face_down_slots == (0, 1, 2)
    assert not any(c in hidden for c in obs.hand + obs.face_up + obs.pile)
    state.apply((FACE_DOWN, 0))  # the 9 fits on the 8
    state.check_invariants()
    assert state.observation(0).pile[-1] == hidden[0] if hidden[0] >= 0 else True
    assert state.final_stats().counters["face_down_plays"] == 1
    assert state.observation(0).face_down_slots == (1, 2)


def test_id11_illegal_face_down_card_goes_to_hand_with_the_pile_then_hand_first():
    state, _ = position(hands=[[], [3]], face_down=[[5, 13], [4]], pile=[8, 9])
    state.apply((FACE_DOWN, 0))
    state.check_invariants()
    obs = state.observation(0)
    assert ranks_of(state, obs.hand) == [5, 8, 9]
    assert obs.pile_size == 0
    assert state.final_stats().counters["face_down_fails"] == 1
    assert state.current_player() == 1
    state.apply((PLAY, *state.observation(1).hand))
    assert state.current_player() == 0
    assert FACE_DOWN not in kinds(state)  # the hand is played before the table again
    assert plays(state) == [[5], [8], [9]]


# -- ID-12: going out, the winner and the Idiot -------------------------------------


def test_id12_first_out_wins_last_with_cards_is_the_idiot():
    state, _ = position(players=3, hands=[[9], [12, 3], [4, 5]], face_down=[[], [6], [7]], pile=[8])
    play_ranks(state, 9)
    assert state.observation(0).out == (0,)
    assert state.current_player() == 1
    assert not state.is_terminal()  # play goes on after the winner is out
    play_ranks(state, 12)
    assert state.current_player() == 2
    state.apply((TAKE,))
    assert state.current_player() == 1  # seat 0 is out and skipped
    play_ranks(state, 3)
    state.apply((TAKE,))
    state.apply((FACE_DOWN, 0))  # seat 1: 6 on an empty pile, and out
    assert state.is_terminal()
    result = state.result()
    assert result.finished and result.order == [0, 1] and result.loser == 2
    assert ranks_of(state, state.remaining_cards(2)) == [3, 4, 5, 7, 8, 9, 12]
    assert state.legal_actions() == []
    with pytest.raises(GameError):
        state.apply((TAKE,))


def test_id12_going_out_with_a_burn_the_next_player_starts():
    state, _ = position(players=3, hands=[[10], [3], [4]], face_down=[[], [6], [7]], pile=[13])
    play_ranks(state, 10)
    assert state.observation(0).out == (0,)
    assert state.current_player() == 1
    assert state.observation(1).pile_size == 0


def test_result_rounds_count_turns_per_player():
    state, _ = position(players=2, hands=[[5, 6], [7, 8]], face_down=[[9], [9]])
    for _ in range(3):
        state.apply(state.legal_actions()[0])
    assert state.result().rounds == 2  # three turns by two players


# -- ID-13: variants ----------------------------------------------------------------------


def test_id13_no_finish_on_two():
    state, _ = position(
        variants=("no_finish_on_two",), hands=[[2], [3]], face_down=[[], [4]], pile=[9]
    )
    assert state.legal_actions() == [(TAKE,)]  # the lone 2 may not be the last card
    state, _ = position(
        variants=("no_finish_on_two",), hands=[[2, 2], [3]], face_down=[[], [4]], pile=[9]
    )
    assert plays(state) == [[2]]  # one 2 now, but not both
    state, _ = position(variants=("no_finish_on_two",), hands=[[2], [3]], face_down=[[], [4]])
    assert state.legal_actions() == [(PASS,)]  # nothing at all is possible
    state.apply((PASS,))
    assert state.current_player() == 1
    state, _ = position(
        variants=("no_finish_on_two",), hands=[[], [3]], face_down=[[2], [4]], pile=[9]
    )
    state.apply((FACE_DOWN, 0))  # a last face-down 2 may not finish: taken up
    assert state.final_stats().counters["face_down_fails"] == 1
    assert not state.observation(0).out


def test_id13_default_allows_finishing_on_a_2():
    state, _ = position(players=3, hands=[[2], [3], [4]], face_down=[[], [4], [5]], pile=[9])
    play_ranks(state, 2)
    assert state.observation(0).out == (0,)


def test_id13_sequences_a_run_in_one_turn():
    state, _ = position(
        variants=("sequences",), hands=[[3, 4, 5, 9], [6]], face_down=[[7], [7]], pile=[3]
    )
    play_ranks(state, 3)
    assert state.current_player() == 0 and state.observation(0).run_rank == 4
    assert plays(state) == [[4]] and (END_RUN,) in state.legal_actions()
    play_ranks(state, 4)
    play_ranks(state, 5)
    assert state.current_player() == 1  # no 6: the run ends by itself
    assert state.result().rounds == 1


def test_id13_sequences_no_10_inside_a_run_and_end_run():
    state, _ = position(variants=("sequences",), hands=[[8, 9, 10], [6]], face_down=[[7], [7]])
    play_ranks(state, 8)
    play_ranks(state, 9)
    assert state.current_player() == 1  # no jack to go on with; a 10 is never in a run
    state, _ = position(variants=("sequences",), hands=[[4, 5, 6], [6]], face_down=[[7], [7]])
    play_ranks(state, 4)
    state.apply((END_RUN,))
    assert state.current_player() == 1
    assert state.events[-1] == RunEnded(0)


def test_id13_sequences_a_run_steps_over_the_10():
    state, _ = position(variants=("sequences",), hands=[[8, 9, 11, 10], [6]], face_down=[[7], [7]])
    play_ranks(state, 8)
    play_ranks(state, 9)
    assert state.current_player() == 0 and state.observation(0).run_rank == 11
    assert plays(state) == [[11]]  # the 10 is stepped over, not laid
    play_ranks(state, 11)
    assert state.current_player() == 1


def test_id13_sequences_a_face_down_card_that_continues_the_run_is_part_of_it():
    state, _ = position(variants=("sequences",), hands=[[5], [6]], face_down=[[6, 9], [7]])
    six, nine = state._down[0]
    (five,) = state._hands[0]
    play_ranks(state, 5)
    assert state.current_player() == 0 and state.observation(0).run_rank == 6
    assert set(state.legal_actions()) == {(FACE_DOWN, 0), (FACE_DOWN, 1), (END_RUN,)}
    state.apply((FACE_DOWN, 0))  # the 6: it continues the run and is laid
    assert FaceDownTurned(0, six, True) in state.events
    assert state.observation(0).pile[-1] == six
    assert state.current_player() == 0 and state.observation(0).run_rank == 7
    state.apply((FACE_DOWN, 1))  # the 9 does not continue it: taken with the pile
    assert FaceDownTurned(0, nine, False) in state.events
    assert set(state.observation(0).hand) == {five, six, nine}
    assert state.current_player() == 1


def test_id13_sneak_three_goes_under_the_pile():
    state, _ = position(
        variants=("sneak_three",), hands=[[3, 3, 5], [6]], face_down=[[7], [7]], pile=[12]
    )
    sneaks = [a for a in state.legal_actions() if a[0] == SNEAK]
    assert len(sneaks) == 2
    top = state.observation(0).pile[-1]
    state.apply(sneaks[1])
    state.check_invariants()
    pile = state.observation(0).pile
    assert pile[-1] == top and ranks_of(state, pile[:2]) == [3, 3]
    assert state.current_player() == 1
    assert "under the pile" in state.action_to_string(sneaks[0]) or True


def test_id13_sneak_three_not_offered_without_the_variant():
    state, _ = position(hands=[[3, 5], [6]], face_down=[[7], [7]], pile=[12])
    assert SNEAK not in kinds(state)


def test_variants_are_validated(table):
    assert IdiotGame.allowed_variants == SPEC.variant_names  # the spec's, listed nowhere else
    assert {"two_same_player", "no_finish_on_two", "no_swap", "sequences"} <= SPEC.variant_names
    with pytest.raises(GameError, match="no variant"):
        IdiotGame(table, 3, ["jokers_wild"])


# -- observations -------------------------------------------------------------------------


def test_the_cards_known_in_a_hand_are_those_every_seat_saw_go_there(table):
    """known_in_hand (what the expert's sampling keeps in place): a card joins a seat's
    known cards only from the pile, its own face-up row or turned over for all to see,
    and it is in that hand for as long as it is known; every seat sees the same."""
    grew = 0
    for seed in range(6):
        game = IdiotGame(table, 3 + seed % 2)
        state = game.new_initial_state(random.Random(seed))
        bots = make_bots(game, "heuristic")
        rng = random.Random(seed)
        while not state.is_terminal():
            p = state.current_player()
            before = state.observation(p)
            logged = len(state.events)
            state.apply(bots[p].act(before, state.legal_actions(), rng))
            after = [state.observation(seat) for seat in range(game.num_players)]
            assert len({obs.known_in_hand for obs in after}) == 1
            turned = {
                e.card for e in state.events[logged:] if isinstance(e, ChanceDrawn | FaceDownTurned)
            }
            public = {*before.known_in_hand[p], *before.pile, *before.face_up_rows[p], *turned}
            for seat, known in enumerate(after[0].known_in_hand):
                assert set(known) <= set(state._hands[seat])
                if seat != p:
                    assert set(known) <= set(before.known_in_hand[seat])
            assert set(after[0].known_in_hand[p]) <= public
            grew += len(after[0].known_in_hand[p]) > len(before.known_in_hand[p])
    assert grew > 20


def observation_ignores_the_hidden_cards(state: IdiotState, seat: int) -> bool:
    """Whether ``seat``'s observation stays the same when the cards it cannot know (other
    seats' unknown hand cards, every face-down card, the stock) are dealt among those
    places anew: then none of its fields, however many a variant adds, tells them."""
    twin = state.clone()
    places = [twin._down[other] for other in range(len(twin._hands))] + [twin._stock]
    places += [twin._hands[other] for other in range(len(twin._hands)) if other != seat]
    known = {card for cards in twin._known for card in cards}
    hidden = [card for place in places for card in place if card not in known]
    dealt = [tuple(place) for place in places]
    random.Random(len(hidden)).shuffle(hidden)
    for place in places:
        for index, card in enumerate(place):
            if card not in known:
                place[index] = hidden.pop()
    for other, hand in enumerate(twin._hands):
        if other != seat:
            sort_cards(hand, twin._keys)
    assert [tuple(place) for place in places] != dealt  # dealt anew indeed
    return twin.observation(seat) == state.observation(seat)


def test_observation_holds_only_what_the_seat_may_know(table):
    state = IdiotGame(table, 3).new_initial_state(random.Random(3))
    obs = state.observation(1)
    assert isinstance(obs, IdiotObservation)
    assert obs.hand == tuple(state._hands[1])
    assert obs.face_up_rows == tuple(tuple(r) for r in state._up)
    assert obs.hand_counts == (3, 3, 3) and obs.face_down_counts == (3, 3, 3)
    for _ in range(3):  # the deal, then positions further on, whatever fields it has
        assert observation_ignores_the_hidden_cards(state, 1)
        for _ in range(15):
            if not state.is_terminal():
                state.apply(state.legal_actions()[-1])
    state = IdiotGame(table, 3).new_initial_state(random.Random(3))
    obs = state.observation(1)
    hidden = {c for seat in (0, 2) for c in state._hands[seat]}
    hidden |= {c for row in state._down for c in row} | set(state._stock)
    shown = {*obs.hand, *obs.face_up, *obs.pile, *(c for row in obs.face_up_rows for c in row)}
    assert not shown & hidden
    for lang in ("nb", "en"):
        lines = Narrator(TABLE, lang, viewer=1, game="idiot").view(obs)
        assert not any(TABLE.names[c] in line for c in hidden for line in lines)
    assert any(
        "Your hand" in line for line in Narrator(TABLE, "en", viewer=1, game="idiot").view(obs)
    )
    assert any(
        "Hånda di" in line for line in Narrator(TABLE, "nb", viewer=1, game="idiot").view(obs)
    )


# -- engine guarantees --------------------------------------------------------------------


def test_illegal_action_is_refused(table):
    state = IdiotGame(table, 2, ["no_swap"]).new_initial_state(random.Random(2))
    with pytest.raises(GameError, match="not legal"):
        state.apply((PLAY, 999))
    with pytest.raises(GameError, match="not legal"):
        state.apply((SWAP, 0, 1))


def test_same_seed_same_game_action_for_action(table):
    game = make_game("idiot", table, 4)
    bots = make_bots(game, "random")
    first = play_game(game, bots, 1234)
    second = play_game(game, bots, 1234)
    assert first.actions == second.actions
    assert first.result == second.result
    assert first.stats.counters == second.stats.counters
    assert first.events == second.events
    other = play_game(game, bots, 1235)
    assert other.actions != first.actions


def test_clone_is_independent_and_continues_alike(table):
    game = IdiotGame(table, 3)
    state = game.new_initial_state(random.Random(9))
    rng = random.Random(1)
    for _ in range(40):
        state.apply(RandomBot().act(None, state.legal_actions(), rng))
    copy = state.clone()
    rng_a, rng_b = random.Random(5), random.Random(5)
    while not state.is_terminal():
        state.apply(RandomBot().act(None, state.legal_actions(), rng_a))
    assert copy.result().actions == 40
    while not copy.is_terminal():
        copy.apply(RandomBot().act(None, copy.legal_actions(), rng_b))
    assert copy.result() == state.result()
    assert copy.card_locations() == state.card_locations()


def test_action_cap_ends_the_game_unfinished(table):
    game = IdiotGame(table, 3, action_cap=25)
    record = play_game(game, make_bots(game, "random"), 3, debug=True)
    assert record.result.finished is False and record.result.loser is None
    assert record.result.actions == 25 == len(record.actions)


def test_cards_played_counts_each_card_put_on_the_pile(table):
    game = IdiotGame(table, 4)
    record = play_game(game, make_bots(game, "greedy"), 8)
    assert len(record.stats.cards_played) == table.size
    assert all(record.stats.cards_played[j] == 0 for j in table.joker_cards)
    assert sum(record.stats.cards_played) >= 52 - len(record.loser_cards)
    assert record.result.finished and record.loser_cards


def test_bots_registered_and_settings_checked(table):
    assert set(BOTS) == {"random", "greedy", "heuristic", "expert"} and GAME is IdiotGame
    game = IdiotGame(table, 2)
    make_bots(game, "heuristic:burn_pile=6")
    with pytest.raises(Exception, match="burn_pile"):
        make_bots(game, "heuristic:wild=1")


def test_heuristic_bot_swaps_high_cards_up_and_keeps_specials(table):
    game = IdiotGame(table, 2)
    bot = BOTS["heuristic"](game, {})
    state = game.new_initial_state(random.Random(21))
    while state.current_player() == 0 and state.observation(0).phase == IdiotPhase.SWAPPING:
        state.apply(bot.act(state.observation(0), state.legal_actions(), random.Random(0)))
    costs = [16 if r == 10 else 15 if r == 2 else r for r in game.ranks]
    obs = state.observation(0)
    assert min(costs[c] for c in obs.face_up) >= max(costs[c] for c in obs.hand)
    state, _ = position(hands=[[2, 10, 6], [3]], face_down=[[4], [4]], pile=[5])
    action = bot.act(state.observation(0), state.legal_actions(), random.Random(0))
    assert ranks_of(state, action[1:]) == [6]  # keeps the 2 and the 10
    state, _ = position(hands=[[2, 10, 4], [3]], face_down=[[4], [4]], pile=[5])
    action = bot.act(state.observation(0), state.legal_actions(), random.Random(0))
    assert ranks_of(state, action[1:]) == [2]  # stuck, small pile: the 2


def test_heuristic_beats_greedy_over_many_games(table):
    game = IdiotGame(table, 2)
    bots = make_bots(game, "heuristic,greedy")
    losses = [0, 0]
    for seed in range(300):
        loser = play_game(game, bots, seed).result.loser
        assert loser is not None
        losses[loser] += 1
    assert losses[0] < losses[1]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32 - 1),
    players=st.integers(2, 5),
    bot=st.sampled_from(["random", "greedy", "heuristic"]),
    variants=st.sets(st.sampled_from(sorted(VARIANTS))),
)
def test_random_games_keep_every_card_in_one_place_and_end(seed, players, bot, variants):
    game = IdiotGame(TABLE, players, sorted(variants), action_cap=3000)
    record = play_game(game, make_bots(game, bot), seed, debug=True)
    result = record.result
    assert result.actions == len(record.actions) <= 3000
    if result.finished:
        assert result.loser is not None
        assert sorted([*result.order, result.loser]) == list(range(players))
        assert record.loser_cards
    else:
        assert result.actions == 3000


@pytest.mark.parametrize("seed", range(12))
def test_fast_legal_actions_agree_with_the_general_rules(seed):
    game = IdiotGame(TABLE, 2 + seed % 4)
    state = game.new_initial_state(random.Random(seed))
    rng = random.Random(seed)
    while not state.is_terminal():
        assert state._generate() == state._generate_general()
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])


def test_heuristic_burns_a_big_pile_with_a_10_when_stuck():
    game = IdiotGame(TABLE, 2)
    bot = BOTS["heuristic"](game, {"burn_pile": 3})
    state, _ = position(hands=[[2, 10, 4], [3]], face_down=[[4], [4]], pile=[6, 7, 8])
    action = bot.act(state.observation(0), state.legal_actions(), random.Random(0))
    assert ranks_of(state, action[1:]) == [10]
    state, _ = position(hands=[[4, 5], [3]], face_down=[[4], [4]], pile=[9], stock=[7])
    action = bot.act(state.observation(0), state.legal_actions(), random.Random(0))
    assert action == (CHANCE,)  # nothing to lay: a chance before the pile
