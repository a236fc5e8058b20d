"""Events: what a player at the table sees or is told, recorded by ``State.apply``.

Each game defines its events in ``<game>/events.py`` as frozen dataclasses deriving from
:class:`Event`. An event holds the whole truth (the simulation counts lies from it); its
sentence is told to a viewer through a :class:`Narrator`, which knows the language, the
seat listening (``None``: everything, for a replay read afterwards) and the deck, so a
face-down card is told only to whoever may see it. Figures are told as the cards print
them (``DeckTable.printed``, written as the cards write them).

An event also knows what it adds to the simulation's counters (:meth:`Event.count`),
so the counters are the events counted, not a second bookkeeping (:func:`tally`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from kraftstokk.design.numbers import format_number
from kraftstokk.games.core import CATEGORY_UNITS, DeckTable, Stats

LANGUAGES: tuple[str, ...] = ("nb", "en")
CATEGORY_WORDS: dict[str, tuple[str, ...]] = {
    "nb": ("effekt", "produksjon", "fallhøyde"),
    "en": ("capacity", "production", "head"),
}
#: In the order of ``models.SUITS`` (``DeckTable.suit`` indexes it).
SUIT_WORDS: dict[str, tuple[str, ...]] = {
    "nb": ("spar", "hjerter", "kløver", "ruter"),
    "en": ("spades", "hearts", "clubs", "diamonds"),
}
VALUE_WORDS: dict[str, dict[int, str]] = {
    "nb": {1: "ess", 11: "knekt", 12: "dame", 13: "konge"},
    "en": {1: "ace", 11: "jack", 12: "queen", 13: "king"},
}


@dataclass(frozen=True)
class Narrator:
    """Tells events and views in one language to one seat (or to everyone)."""

    table: DeckTable
    lang: str = "en"
    viewer: int | None = None  # the seat listening; None: a replay, everything is told
    seat_names: tuple[str, ...] = ()  # per seat; default 'seat 2' / 'plass 2'

    def __post_init__(self) -> None:
        if self.lang not in LANGUAGES:
            raise ValueError(f"no language {self.lang!r} (choose from {', '.join(LANGUAGES)})")

    @property
    def nb(self) -> bool:
        return self.lang == "nb"

    def sees(self, seat: int) -> bool:
        """Whether the listener may see what only ``seat`` sees."""
        return self.viewer is None or self.viewer == seat

    def seat(self, seat: int) -> str:
        """'seat 2', 'plass 2', or 'you'/'du' for the listener."""
        if seat == self.viewer:
            return "du" if self.nb else "you"
        if 0 <= seat < len(self.seat_names):
            return self.seat_names[seat]
        return f"plass {seat + 1}" if self.nb else f"seat {seat + 1}"

    def who(self, seat: int, verb_nb: str, third: str, second: str) -> str:
        """The seat and its verb, capitalized: 'Plass 2 legger', 'Seat 2 lays', 'You lay'."""
        name = self.seat(seat)
        verb = verb_nb if self.nb else second if seat == self.viewer else third
        text = f"{name} {verb}"
        return text[0].upper() + text[1:]

    def card(self, card: int) -> str:
        """'Tonstad (spar 7)' / 'Tonstad (spades 7)'; 'joker' for a joker."""
        table = self.table
        if table.joker[card]:
            return "joker"
        value = table.value[card]
        shown = VALUE_WORDS[self.lang].get(value, str(value))
        return f"{table.names[card]} ({SUIT_WORDS[self.lang][table.suit[card]]} {shown})"

    def cards(self, cards: Sequence[int]) -> str:
        return ", ".join(self.card(c) for c in cards) or "-"

    def figure(self, category: int, card: int) -> str:
        """The figure as the card prints it, with its unit: '4 357 GWh'."""
        return self.table.figure_text(category, card)

    def amount(self, category: int, value: float) -> str:
        """A figure that is no card's (a claim may name any): printed like the cards'."""
        text = format_number(value, 0 if value == int(value) else 1, " ")
        return f"{text} {CATEGORY_UNITS[category]}"

    def category(self, category: int) -> str:
        return CATEGORY_WORDS[self.lang][category]

    def count(self, n: int, nb_one: str, nb_many: str, en_one: str, en_many: str) -> str:
        """'1 kort', '3 kort', '1 card', '3 cards'."""
        if self.nb:
            return f"{n} {nb_one if n == 1 else nb_many}"
        return f"{n} {en_one if n == 1 else en_many}"

    def cards_count(self, n: int) -> str:
        return self.count(n, "kort", "kort", "card", "cards")

    def ordinal(self, place: int) -> str:
        return f"{place}." if self.nb else _english_ordinal(place)


def _english_ordinal(place: int) -> str:
    suffix = "th" if 10 <= place % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(place % 10, "th")
    return f"{place}{suffix}"


@dataclass(init=False)
class Event:
    """Base of every event: a value saying what happened (never changed once recorded).

    ``seat`` is the seat the event is about (-1 for the whole table). A subclass is a
    ``@dataclass(init=False)`` that declares its fields (no defaults in the class body)
    and sets every one, ``seat`` first, in its own ``__init__``; it gives its sentence in
    both languages (:meth:`nb`, :meth:`en`) and may add to the simulation's counters
    (:meth:`count`).
    """

    seat: int

    def __init__(self, seat: int) -> None:
        self.seat = seat

    def nb(self, n: Narrator) -> str:
        raise NotImplementedError

    def en(self, n: Narrator) -> str:
        raise NotImplementedError

    def text(self, n: Narrator) -> str:
        """The sentence in the narrator's language, as the narrator's listener may hear it."""
        return self.nb(n) if n.lang == "nb" else self.en(n)

    def count(self, stats: Stats) -> None:
        """Add this event to the simulation's counters (most events count nothing)."""


@dataclass(init=False)
class SeatOut(Event):
    """A seat has no cards left: it is out, in ``place`` (1 = the winner)."""

    place: int

    def __init__(self, seat: int, place: int) -> None:
        self.seat = seat
        self.place = place

    def nb(self, n: Narrator) -> str:
        return f"{n.who(self.seat, 'er', 'is', 'are')} ute som nr. {self.place}."

    def en(self, n: Narrator) -> str:
        return f"{n.who(self.seat, 'er', 'is', 'are')} out, {n.ordinal(self.place)}."


@dataclass(init=False)
class GameOver(Event):
    """The game is over: the seats in the order they went out; ``seat`` is the loser."""

    order: tuple[int, ...]
    loser_title_nb: str
    loser_title_en: str

    def __init__(
        self,
        seat: int,
        order: tuple[int, ...],
        loser_title_nb: str = "taperen",
        loser_title_en: str = "the loser",
    ) -> None:
        self.seat = seat
        self.order = order
        self.loser_title_nb = loser_title_nb
        self.loser_title_en = loser_title_en

    def nb(self, n: Narrator) -> str:
        order = ", ".join(n.seat(s) for s in self.order)
        return (
            f"Spillet er over. Rekkefølgen ut: {order}. "
            f"{n.who(self.seat, 'er', 'is', 'are')} {self.loser_title_nb}."
        )

    def en(self, n: Narrator) -> str:
        order = ", ".join(n.seat(s) for s in self.order)
        return (
            f"The game is over. Out in this order: {order}. "
            f"{n.who(self.seat, 'er', 'is', 'are')} {self.loser_title_en}."
        )


def tally(events: Sequence[Event], stats: Stats) -> Stats:
    """The counters of a game: every event counted once."""
    for event in events:
        event.count(stats)
    return stats


def story(events: Sequence[Event], narrator: Narrator) -> list[str]:
    """The events' sentences, in order."""
    return [event.text(narrator) for event in events]
