"""Every Idiot event: a position that makes it happen, and its sentence in nb and en.

The sentences are checked whole, with the cards named as the narrator names them (so
the card names of the synthetic deck do not have to be spelled out here).
"""

from __future__ import annotations

import inspect
import random

import pytest

from kraftstokk.games import events as framework
from kraftstokk.games.events import Event, GameOver, SeatOut
from kraftstokk.games.idiot import events as idiot_events
from kraftstokk.games.idiot.actions import CHANCE, END_RUN, FACE_DOWN, PASS, READY, SNEAK, TAKE
from kraftstokk.games.idiot.events import (
    BurnCause,
    Burned,
    ChanceDrawn,
    FaceDownTurned,
    Laid,
    Passed,
    PileTaken,
    Reset,
    RunEnded,
    SneakedUnder,
    Starts,
    Swapped,
    SwapsDone,
)
from kraftstokk.games.idiot.spec import SPEC
from kraftstokk.games.idiot.state import IdiotGame
from kraftstokk.games.narration import Narrator
from kraftstokk.games.registry import make_bots
from kraftstokk.games.runner import play_game
from tests.test_games_idiot import TABLE, play_ranks, position

NB = Narrator(TABLE, "nb", game="idiot")
EN = Narrator(TABLE, "en", game="idiot")
EN_SEAT_0 = Narrator(TABLE, "en", viewer=0, game="idiot")

PRODUCED: set[type[Event]] = set()


def told(events: list[Event], kind: type[Event]) -> Event:
    """The one event of ``kind`` among ``events`` (and note that a test produced it)."""
    found = [e for e in events if type(e) is kind]
    assert len(found) == 1, f"{kind.__name__}: {events}"
    PRODUCED.add(kind)
    return found[0]


def texts(event: Event) -> tuple[str, str]:
    return NB.tell(event), EN.tell(event)


def test_swapping_and_the_start():
    state = IdiotGame(TABLE, 2).new_initial_state(random.Random(5))
    swap = state.legal_actions()[0]
    state.apply(swap)
    event = told(state.events, Swapped)
    hand, up = NB.card(swap[1]), NB.card(swap[2])
    assert NB.tell(event) == f"Plass 1 bytter {hand} fra hånda med {up} fra de åpne bordkortene."
    assert EN_SEAT_0.tell(event) == (
        f"You swap {EN.card(swap[1])} from hand with {EN.card(swap[2])} from the face-up row."
    )
    state.apply((READY,))
    state.apply((READY,))
    assert texts(told(state.events[1:2], SwapsDone)) == (
        "Plass 1 er ferdig med å bytte.",
        "Seat 1 is done swapping.",
    )
    start = told(state.events, Starts)
    assert NB.tell(start) == f"Plass {start.seat + 1} begynner (lavest vanlige kort på hånda)."
    assert EN.tell(start) == f"Seat {start.seat + 1} starts (lowest ordinary card in hand)."


def test_cards_laid_from_hand_and_from_the_face_up_row():
    state, _ = position(hands=[[5, 5, 9], [6]], face_down=[[4], [4]])
    play_ranks(state, 5, 5)
    event = told(state.events, Laid)
    assert isinstance(event, Laid) and not event.from_face_up
    assert NB.tell(event) == f"Plass 1 legger: {NB.cards(event.cards)}."
    assert EN_SEAT_0.tell(event) == f"You play: {EN.cards(event.cards)}."
    state, _ = position(face_up=[[7], [6]], face_down=[[4], [4]], player=0)
    play_ranks(state, 7)
    event = told(state.events, Laid)
    assert texts(event) == (
        f"Plass 1 legger fra de åpne bordkortene: {NB.cards(event.cards)}.",
        f"Seat 1 plays from the face-up row: {EN.cards(event.cards)}.",
    )


def test_threes_slipped_under_the_pile():
    state2, _ = position(
        variants=("sneak_three",), hands=[[3, 9], [6]], face_down=[[4], [4]], pile=[8]
    )
    sneak = next(a for a in state2.legal_actions() if a[0] == SNEAK)
    state2.apply(sneak)
    event = told(state2.events, SneakedUnder)
    assert texts(event) == (
        f"Plass 1 legger under bunken: {NB.card(sneak[1])}.",
        f"Seat 1 slips under the pile: {EN.card(sneak[1])}.",
    )


@pytest.mark.parametrize("fits", [True, False])
def test_a_face_down_card_turned(fits):
    state, _ = position(face_down=[[9 if fits else 4], [4, 5]], hands=[[], [6]], pile=[7])
    card = state._down[0][0]
    state.apply((FACE_DOWN, 0))
    event = told(state.events, FaceDownTurned)
    nb_fate, en_fate = (
        ("legges på bunken", "laid on the pile")
        if fits
        else (
            "kan ikke legges",
            "cannot be laid",
        )
    )
    assert texts(event) == (
        f"Plass 1 snur et skjult bordkort: {NB.card(card)}, {nb_fate}.",
        f"Seat 1 turns a face-down card: {EN.card(card)}, {en_fate}.",
    )
    if not fits:
        taken = told(state.events, PileTaken)
        assert texts(taken) == (
            "Plass 1 tar bunken (1 kort) og kortet.",
            "Seat 1 takes the pile (1 card) with the card.",
        )


@pytest.mark.parametrize("fits", [True, False])
def test_a_chance_card(fits):
    state, _ = position(
        hands=[[3, 4], [6]], face_down=[[4], [4]], pile=[9, 9], stock=[13 if fits else 5]
    )
    card = state._stock[-1]
    state.apply((CHANCE,))
    event = told(state.events, ChanceDrawn)
    nb_fate, en_fate = (
        ("legges på bunken", "laid on the pile")
        if fits
        else (
            "kan ikke legges",
            "cannot be laid",
        )
    )
    assert texts(event) == (
        f"Plass 1 tar sjansen: {NB.card(card)}, {nb_fate}.",
        f"Seat 1 takes a chance: {EN.card(card)}, {en_fate}.",
    )
    if not fits:
        assert texts(told(state.events, PileTaken)) == (
            "Plass 1 tar bunken (2 kort) og kortet.",
            "Seat 1 takes the pile (2 cards) with the card.",
        )


def test_the_pile_taken_and_a_card_taken_alone():
    state, _ = position(hands=[[3, 4], [6]], face_down=[[4], [4]], pile=[9, 9, 9])
    state.apply((TAKE,))
    assert texts(told(state.events, PileTaken)) == (
        "Plass 1 tar bunken (3 kort).",
        "Seat 1 takes the pile (3 cards).",
    )
    alone = PileTaken(1, 0, with_card=True)
    assert NB.tell(alone) == "Plass 2 tar kortet opp på hånda."
    assert (
        Narrator(TABLE, "en", viewer=1, game="idiot").tell(alone) == "You take the card into hand."
    )


def test_burns_by_a_ten_and_by_four_of_a_kind():
    state, _ = position(hands=[[10, 4], [6]], face_down=[[4], [4]], pile=[8, 9])
    play_ranks(state, 10)
    event = told(state.events, Burned)
    assert isinstance(event, Burned) and event.cause == BurnCause.TEN and event.again
    assert texts(event) == (
        "Bunken brennes av en tier (3 kort). Plass 1 legger igjen.",
        "The pile is burned by a 10 (3 cards). Seat 1 plays again.",
    )
    assert EN_SEAT_0.tell(event).endswith("You play again.")
    state, _ = position(hands=[[8, 4], [6]], face_down=[[4], [4]], pile=[8, 8, 8])
    play_ranks(state, 8)
    event = told(state.events, Burned)
    assert texts(event) == (
        "Bunken brennes av fire like på toppen (4 kort). Plass 1 legger igjen.",
        "The pile is burned by four of a kind on top (4 cards). Seat 1 plays again.",
    )
    assert event.stacked == 4
    out = Burned(1, 5, BurnCause.SAME_RANK, again=False, stacked=3)
    assert EN.tell(out) == "The pile is burned by three of a kind on top (5 cards)."
    assert NB.tell(out).startswith("Bunken brennes av tre like på toppen (5 kort).")


@pytest.mark.parametrize("same", [False, True])
def test_a_two_resets(same):
    variants = ("two_same_player",) if same else ()
    state, _ = position(variants=variants, hands=[[2, 4], [6]], face_down=[[4], [4]], pile=[9])
    play_ranks(state, 2)
    event = told(state.events, Reset)
    if same:
        assert texts(event) == (
            "En toer: plass 1 legger igjen, hva som helst.",
            "A 2: seat 1 may play again, anything.",
        )
    else:
        assert texts(event) == (
            "En toer: neste kan legge hva som helst.",
            "A 2: the next player may play anything.",
        )


def test_a_run_ended():
    state, _ = position(variants=("sequences",), hands=[[4, 5, 6], [6]], face_down=[[7], [7]])
    play_ranks(state, 4)
    state.apply((END_RUN,))
    assert texts(told(state.events, RunEnded)) == (
        "Plass 1 avslutter serien.",
        "Seat 1 ends the run.",
    )


def test_a_pass_when_no_move_is_possible():
    state, _ = position(variants=("no_finish_on_two",), hands=[[2], [6]], face_down=[[], [7]])
    assert state.legal_actions() == [(PASS,)]
    state.apply((PASS,))
    assert texts(told(state.events, Passed)) == (
        "Plass 1 står over: ingen trekk er mulig.",
        "Seat 1 passes: no move is possible.",
    )


def test_a_seat_out_and_the_game_over():
    state, _ = position(players=3, hands=[[9], [3], [4]], face_down=[[], [4], [5]], pile=[8])
    play_ranks(state, 9)
    assert texts(told(state.events, SeatOut)) == (
        "Plass 1 er ute som nr. 1.",
        "Seat 1 is out, 1st.",
    )
    state, _ = position(hands=[[9], [3]], face_down=[[], [4]], pile=[8])
    play_ranks(state, 9)
    over = told(state.events, GameOver)
    assert texts(over) == (
        "Spillet er over. Rekkefølgen ut: plass 1. Plass 2 er idioten.",
        "The game is over. Out in this order: seat 1. Seat 2 is the Idiot.",
    )


def told_in_seeded_play(kinds: set[type[Event]], games: int = 40) -> set[type[Event]]:
    """Which of ``kinds`` seeded games of Idiot produce, with each variant alone and all of
    them together, random and greedy seats; each one produced is told in nb and en."""
    found: set[type[Event]] = set()
    names = [variant.name for variant in SPEC.variants]
    for variants in [(), *((name,) for name in names), tuple(names)]:
        for seed in range(games):
            game = IdiotGame(TABLE, 2 + seed % 4, variants)
            bots = "greedy" if seed % 2 else "random"
            for event in play_game(game, make_bots(game, bots), seed).events:
                if type(event) in kinds - found:
                    assert all(texts(event)), event
                    found.add(type(event))
            if found == kinds:
                return found
    return found


def test_seeded_play_finds_and_tells_the_rare_events():
    rare = {RunEnded, SneakedUnder, ChanceDrawn}
    assert told_in_seeded_play(rare) == rare


def test_every_event_kind_is_produced_by_a_test_above():
    """Each event kind's sentence is checked here; one a variant has added since (before
    its own test here) must at least be produced and told in seeded play."""
    for name, test in list(globals().items()):
        if name.startswith("test_") and test not in (
            test_every_event_kind_is_produced_by_a_test_above,
            test_seeded_play_finds_and_tells_the_rare_events,
        ):
            parameters = inspect.signature(test).parameters
            for flag in (True, False) if parameters else (None,):
                test(flag) if parameters else test()
    kinds = {
        cls
        for module in (idiot_events, framework)
        for _, cls in inspect.getmembers(module, inspect.isclass)
        if issubclass(cls, Event) and cls is not Event and cls.__module__ == module.__name__
    }
    untested = kinds - PRODUCED
    assert told_in_seeded_play(untested) == untested
