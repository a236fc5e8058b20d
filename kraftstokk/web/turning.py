"""The turning points of a finished game: the moves that shifted the most cards.

A pile burned, a pile taken after a groundless challenge, a war lost: what decided a game
of these three is where the cards went. After each action the cards everyone can count
are compared with before: the pile and each seat's cards (hand, face up, face down), as
the person's own view shows them — so nothing hidden is weighed. The actions that moved
the most are the turning points, told as the log tells their events. A table counts them
as its game is played (:class:`Shifts`); the game played again from its seed and its
recorded actions (with its redeals, ``Table.redeal``) finds the same (:func:`turning_points`,
which the tests hold the tables to). The counts come from the state where its game counts
them (``card_counts``, every game here: they are public), else from the person's observation,
else from a whole view (a Kraftidioten game of 1,950 actions took 46 ms of the answer that
ended it with a view per action; played again at the end with an observation per action,
one of 859 actions took 16 ms of Pyodide's time, an answer that missed its frame).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from kraftstokk.games.core import Action, Game, Redeal, State
from kraftstokk.games.events import Event
from kraftstokk.web import views

#: Turning points an ended game lists, at most.
MOST = 4
#: An action that moves fewer cards than this is no turning point (a card laid is one).
LEAST = 3


class Shifts:
    """The turning points found so far: after each action, how many countable cards moved
    (the counts compared with those after the action before); the :data:`MOST` actions
    that moved the most (at least :data:`LEAST`, with events told), the later first among
    equals. A table keeps one as its game is played, so the answer that ends a game does
    not play the game again (Kraftidioten's 859 actions: some 3 ms of Pyodide's time)."""

    def __init__(self, state: State, seat: int, plant_ids: Sequence[str]) -> None:
        self.seat = seat
        self.plant_ids = plant_ids
        self.before = public_counts(state, seat, plant_ids)
        self.best: list[tuple[int, int, list[Event]]] = []  # (cards moved, action, events)

    def add(self, state: State, number: int) -> None:
        """Action ``number`` was just applied to ``state`` (its events still there)."""
        after = public_counts(state, self.seat, self.plant_ids)
        shift = sum(abs(a - b) for a, b in zip(after, self.before, strict=True))
        self.before = after
        if shift >= LEAST and state.events:
            self.best.append((shift, number, list(state.events)))
            self.best.sort(key=lambda item: (-item[0], -item[1]))
            del self.best[MOST:]

    def found(self) -> list[list[Event]]:
        """The turning points' events, in the game's order."""
        return [events for _, _, events in sorted(self.best, key=lambda item: item[1])]


def turning_points(
    game: Game,
    seed: int,
    actions: Sequence[Action],
    redeals: Sequence[Redeal],
    seat: int,
    plant_ids: Sequence[str],
) -> list[list[Event]]:
    """The events of the actions that moved the most countable cards, in the game's
    order: at most :data:`MOST`, each moving at least :data:`LEAST` (the game played
    again from its seed; a table counts them as it plays, :class:`Shifts`)."""
    state = game.new_initial_state(random.Random(seed))
    pending = sorted(redeals)
    shifts = Shifts(state, seat, plant_ids)
    state.events.clear()
    for number, action in enumerate(actions):
        while pending and pending[0][0] == number:
            state.redeal_unseen(random.Random(pending.pop(0)[1]))
        state.apply(action)
        shifts.add(state, number)
        state.events.clear()
    return shifts.found()


def public_counts(state: State, seat: int, plant_ids: Sequence[str]) -> list[int]:
    """The pile's cards and each seat's (hand, face up, face down) as ``seat`` sees them:
    counted by the state where its game offers that (``card_counts``), else from the
    seat's observation where that names the counts (``hand_counts``, and ``pile_count`` or
    ``pile``, and Idiot's rows), else from its whole view (a game whose observation is
    shaped otherwise); all agree (``tests/test_web_turning.py``)."""
    counted = getattr(state, "card_counts", None)
    if counted is not None:
        counts: list[int] = counted()
        return counts
    return observed_counts(state, seat, plant_ids)


def observed_counts(state: State, seat: int, plant_ids: Sequence[str]) -> list[int]:
    """:func:`public_counts` from the seat's observation (or its whole view)."""
    obs = state.observation(seat)
    hands = getattr(obs, "hand_counts", None)
    pile = getattr(obs, "pile_count", None)
    if pile is None and hasattr(obs, "pile"):
        pile = len(obs.pile)
    if hands is None or pile is None:
        return view_counts(views.table_view(state, seat, plant_ids))
    seats = list(hands)
    for row, up in enumerate(getattr(obs, "face_up_rows", ())):
        seats[row] += len(up)
    for row, down in enumerate(getattr(obs, "face_down_counts", ())):
        seats[row] += down
    return [pile, *seats]


def view_counts(view: views.Json) -> list[int]:
    """The pile's cards and each seat's (hand, face up, face down) in ``view``."""
    seats = [
        player["hand"] + len(player["face_up"]) + player["face_down"] for player in view["players"]
    ]
    return [view["pile"]["count"], *seats]


def cards_left(view: views.Json) -> list[int]:
    """Each seat's cards at the end (hand, face up, face down), by seat."""
    return view_counts(view)[1:]
