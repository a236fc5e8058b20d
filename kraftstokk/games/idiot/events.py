"""What happens in a game of Idiot, as data: what a player at the table sees or is told.

Each event holds the whole truth; ``narration.py`` gives its sentence's values and
``locales/<code>/events.toml`` its words.

The counters the simulation reports (``spec.py``) are these events counted: a burn by a
10 adds to ``burns`` and ``ten_burns``, a chance draw to ``chance_draws`` and, when the
card could be laid, to ``chance_draws_played``, and so on.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

from kraftstokk.games.core import Stats
from kraftstokk.games.events import Event


class BurnCause(IntEnum):
    TEN = 170  # ID-7
    SAME_RANK = 171  # ID-8: the burn count of cards of one rank on top (four)


#: Counts of cards in words, for "four of a kind" whatever the burn count is.
_COUNT_NB = {2: "to", 3: "tre", 4: "fire", 5: "fem", 6: "seks", 7: "sju", 8: "åtte"}
_COUNT_EN = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight"}


@dataclass(init=False)
class Swapped(Event):
    """ID-3: a hand card swapped with a face-up card (both are seen by everyone)."""

    hand_card: int
    face_up_card: int

    def __init__(self, seat: int, hand_card: int, face_up_card: int) -> None:
        self.seat = seat
        self.hand_card = hand_card
        self.face_up_card = face_up_card


@dataclass(init=False)
class SwapsDone(Event):
    """ID-3: the seat swaps no more."""

    def __init__(self, seat: int) -> None:
        self.seat = seat


@dataclass(init=False)
class Starts(Event):
    """ID-4: the seat with the lowest ordinary card in hand starts."""

    def __init__(self, seat: int) -> None:
        self.seat = seat


@dataclass(init=False)
class Laid(Event):
    """ID-5: cards of one rank laid on the pile, from hand or from the face-up row."""

    cards: tuple[int, ...]
    from_face_up: bool

    def __init__(self, seat: int, cards: tuple[int, ...], from_face_up: bool) -> None:
        self.seat = seat
        self.cards = cards
        self.from_face_up = from_face_up

    def count(self, stats: Stats) -> None:
        played = stats.cards_played
        for card in self.cards:
            played[card] += 1


@dataclass(init=False)
class SneakedUnder(Event):
    """ID-13 ``sneak_three``: threes slipped under the pile."""

    cards: tuple[int, ...]

    def __init__(self, seat: int, cards: tuple[int, ...]) -> None:
        self.seat = seat
        self.cards = cards

    def count(self, stats: Stats) -> None:
        stats.count("sneaks")
        played = stats.cards_played
        for card in self.cards:
            played[card] += 1


@dataclass(init=False)
class FaceDownTurned(Event):
    """ID-11: a face-down card turned: laid when it may be, else taken with the pile."""

    card: int
    played: bool

    def __init__(self, seat: int, card: int, played: bool) -> None:
        self.seat = seat
        self.card = card
        self.played = played

    def count(self, stats: Stats) -> None:
        stats.count("face_down_plays")
        if self.played:
            stats.cards_played[self.card] += 1
        else:
            stats.count("face_down_fails")


@dataclass(init=False)
class ChanceDrawn(Event):
    """ID-10 sjanse: the top card of the stock turned; laid when it may be."""

    card: int
    played: bool

    def __init__(self, seat: int, card: int, played: bool) -> None:
        self.seat = seat
        self.card = card
        self.played = played

    def count(self, stats: Stats) -> None:
        stats.count("chance_draws")
        if self.played:
            stats.count("chance_draws_played")
            stats.cards_played[self.card] += 1


@dataclass(init=False)
class PileTaken(Event):
    """ID-10, ID-11: the pile (``size`` cards) into hand, with the card that failed."""

    size: int
    with_card: bool  # a chance or face-down card that could not be laid goes too

    def __init__(self, seat: int, size: int, with_card: bool = False) -> None:
        self.seat = seat
        self.size = size
        self.with_card = with_card

    def count(self, stats: Stats) -> None:
        if self.size:
            stats.count("pile_pickups")


@dataclass(init=False)
class Burned(Event):
    """ID-7, ID-8: the pile is burned (out of the game); the same seat plays again."""

    size: int  # cards burned, the burning card(s) included
    cause: BurnCause
    again: bool  # False when the seat went out with the burn (ID-12)
    stacked: int  # SAME_RANK: the cards of one rank on top that burned it; 0 for a 10

    def __init__(self, seat: int, size: int, cause: BurnCause, again: bool, stacked: int) -> None:
        self.seat = seat
        self.size = size
        self.cause = cause
        self.again = again
        self.stacked = stacked

    def count(self, stats: Stats) -> None:
        stats.count("burns")
        stats.count("ten_burns" if self.cause == BurnCause.TEN else "four_burns")


@dataclass(init=False)
class Reset(Event):
    """ID-6: a 2 on top: anything goes for the next seat (or the same, ``two_same_player``)."""

    same_player: bool

    def __init__(self, seat: int, same_player: bool) -> None:
        self.seat = seat
        self.same_player = same_player

    def count(self, stats: Stats) -> None:
        stats.count("resets")


@dataclass(init=False)
class RunEnded(Event):
    """ID-13 ``sequences``: the seat stops its run."""

    def __init__(self, seat: int) -> None:
        self.seat = seat


@dataclass(init=False)
class Passed(Event):
    """No move possible (a lone 2 under ``no_finish_on_two`` with an empty pile)."""

    def __init__(self, seat: int) -> None:
        self.seat = seat
