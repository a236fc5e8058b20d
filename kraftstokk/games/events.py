"""Events: what a player at the table sees or is told, recorded by ``State.apply``.

Each game defines its events in ``<game>/events.py`` as dataclasses deriving from
:class:`Event`: data, never sentences. An event holds the whole truth (the simulation
counts lies from it); a :class:`~kraftstokk.games.narration.Narrator` tells it to a
listener in a language (``locales/<code>/events.toml``), and tells a face-down card only
to whoever may see it.

An event also knows what it adds to the simulation's counters (:meth:`Event.count`),
so the counters are the events counted, not a second bookkeeping (:func:`tally`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from kraftstokk.games.stats import Stats


@dataclass(init=False)
class Event:
    """Base of every event: a value saying what happened (never changed once recorded).

    ``seat`` is the seat the event is about (-1 for the whole table). A subclass is a
    ``@dataclass(init=False)`` that declares its fields (no defaults in the class body)
    and sets every one, ``seat`` first, in its own ``__init__``; it may add to the
    simulation's counters (:meth:`count`). Its sentence is its game's ``narration.py``'s.
    """

    seat: int

    def __init__(self, seat: int) -> None:
        self.seat = seat

    def count(self, stats: Stats) -> None:
        """Add this event to the simulation's counters (most events count nothing)."""


@dataclass(init=False)
class SeatOut(Event):
    """A seat has no cards left: it is out, in ``place`` (1 = the winner)."""

    place: int

    def __init__(self, seat: int, place: int) -> None:
        self.seat = seat
        self.place = place


@dataclass(init=False)
class GameOver(Event):
    """The game is over: the seats in the order they went out; ``seat`` is the loser."""

    order: tuple[int, ...]

    def __init__(self, seat: int, order: tuple[int, ...]) -> None:
        self.seat = seat
        self.order = order


def tally(events: Sequence[Event], stats: Stats) -> Stats:
    """The counters of a game: every event counted once."""
    for event in events:
        event.count(stats)
    return stats
