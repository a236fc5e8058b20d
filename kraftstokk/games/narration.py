"""What the table says: events, moves and a seat's view in words, from ``events.toml``.

A :class:`Narrator` tells one game in one language to one seat (``viewer``; None: to
everyone, for a replay read afterwards). The words are the language's
``locales/<code>/events.toml`` (with the card words of ``words.toml``): an event's sentence
is ``[<game>.events.<EventClass>]`` (the framework's own events ``[table.events.*]``), a
move's ``[<game>.moves.*]``, a view's lines ``[<game>.view.*]``. Which values a sentence is
filled with is each game's ``narration.py``: it turns an event, a move or an observation
into values (a seat, cards named as the language names them, counts, yes or no) and
never into words. A face-down card is a value only where the listener may see it
(:meth:`Narrator.sees`), so no text can name it to anyone else.

Figures are told as the cards print them (``DeckTable.figure_text``: 126,6 MW), or with
``own_numbers`` in the language's number style (126.6 MW in English: the terminal's table).
"""

from __future__ import annotations

import functools
import importlib
import importlib.util
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any, Protocol, runtime_checkable

from kraftstokk import locales
from kraftstokk.cardfacts import CATEGORIES, DECIMAL_MARK, SUITS, format_number
from kraftstokk.errors import LocaleError
from kraftstokk.games.core import CATEGORY_UNITS, Action, DeckTable, State
from kraftstokk.games.events import Event, GameOver, SeatOut
from kraftstokk.locales.template import Grammar, Person, fill

Values = dict[str, object]
#: The section of ``events.toml`` with what every game shares.
TABLE = "table"


class GameNarration(Protocol):
    """What a game's ``narration.py`` provides."""

    def event_values(self, event: Event, n: Narrator) -> Values | None: ...
    def view_lines(self, observation: Any, n: Narrator) -> list[str]: ...


@dataclass(frozen=True)
class _Language:
    """One language's narration: its ``events.toml`` and the card words."""

    code: str
    events: Mapping[str, Any]
    grammar: Grammar
    suits: tuple[str, ...]  # in the order of ``models.SUITS`` (``DeckTable.suit``)
    values: Mapping[int, str]
    categories: tuple[str, ...]  # in the order of ``models.CATEGORIES``
    joker: str
    #: Each text of ``events`` asked for, found once: its place (for errors) and entry.
    entries: dict[str, tuple[str, Any]] = field(default_factory=dict, compare=False)
    #: The texts that take no value (the words for "you", "none", the separator), made once.
    constants: dict[str, str] = field(default_factory=dict, compare=False)

    def entry(self, key: str) -> tuple[str, Any]:
        """The text ``key`` (a dotted path of ``events``) and where it is, for its errors."""
        found = self.entries.get(key)
        if found is None:
            where = f"locales/{self.code}/events.toml"
            found = self.entries[key] = (f"{where}: {key}", _entry(where, self.events, key))
        return found


@functools.cache
def _language(code: str, generation: int) -> _Language:
    locale = locales.load(code)
    events, words = locale.part("events"), locale.part("words").get("words", {})
    grammar = events.get("grammar", {})
    return _Language(
        code=code,
        events=events,
        grammar=Grammar(plurals=events.get("plurals", {}), ordinal=grammar.get("ordinal", {})),
        suits=tuple(words["suits"][suit] for suit in SUITS),
        values={int(value): word for value, word in words["values"].items()},
        categories=tuple(words["categories"][category] for category in CATEGORIES),
        joker=words["joker"],
    )


def language(code: str) -> _Language:
    return _language(code, locales.generation())


def _entry(where: str, table: Mapping[str, Any], key: str) -> Any:
    node: Any = table
    for part in key.split("."):
        node = node.get(part) if isinstance(node, dict) else None
    if node is None:
        raise LocaleError(f"{where}: missing {key}")
    return node


def _say(where: str, table: Mapping[str, Any], grammar: Grammar, key: str, values: Values) -> str:
    return fill(f"{where}: {key}", _entry(where, table, key), values, grammar)


def say_cli(lang: str, key: str, **values: object) -> str:
    """The text ``key`` of the language's ``cli.toml`` filled with ``values`` (read only
    here: the engine in the static web edition's page carries no ``cli.toml``)."""
    cli = locales.load(lang).part("cli")
    grammar = Grammar(plurals=cli.get("plurals", {}), ordinal={})
    return _say(f"locales/{lang}/cli.toml", cli, grammar, key, values)


@functools.cache
def _narration(kind: type) -> ModuleType | None:
    """The ``narration`` module of the game package that defines ``kind`` (an event or an
    observation class), found by the package convention as ``fastcore`` finds ``fast``."""
    name = f"{kind.__module__.rpartition('.')[0]}.narration"
    if name == __name__:  # a framework class: this module tells it, if anything does
        return None
    try:
        found = importlib.util.find_spec(name)
    except ModuleNotFoundError:
        return None
    return None if found is None else importlib.import_module(name)


@runtime_checkable
class TellsActions(Protocol):
    """A state that tells its actions in a language (every game's does; a state that
    does not is told by its ``action_to_string``, in English)."""

    def action_text(self, action: Action, narrator: Narrator) -> str: ...


@runtime_checkable
class HintsTyping(Protocol):
    """A state that takes typed moves (``State.typed_action``) and says so."""

    def typed_hint(self, legal: Sequence[Action], narrator: Narrator) -> str: ...


@dataclass(frozen=True)
class Narrator:
    """Tells one game's events, moves and views in one language to one seat (or to all)."""

    table: DeckTable
    lang: str = "en"
    viewer: int | None = None  # the seat listening; None: a replay, everything is told
    seat_names: tuple[str, ...] = ()  # per seat; default 'seat 2' / 'plass 2'
    game: str = ""  # the game's name (its section of events.toml)
    #: Figures in the language's own style (126.6 MW in English: the terminal's table)
    #: rather than as the cards print them (126,6 MW in every language: the default).
    own_numbers: bool = False

    def __post_init__(self) -> None:
        available = locales.languages()
        if self.lang not in available:
            raise ValueError(f"no language {self.lang!r} (choose from {', '.join(available)})")

    @property
    def words(self) -> _Language:
        return language(self.lang)

    # -- the table's words --------------------------------------------------------------

    def sees(self, seat: int) -> bool:
        """Whether the listener may see what only ``seat`` sees."""
        return self.viewer is None or self.viewer == seat

    def seat(self, seat: int) -> str:
        """'seat 2', 'plass 2', or 'you'/'du' for the listener."""
        if seat == self.viewer:
            return self.say(f"{TABLE}.words.you")
        if 0 <= seat < len(self.seat_names):
            return self.seat_names[seat]
        return self.say(f"{TABLE}.words.seat", number=seat + 1)

    def person(self, seat: int) -> Person:
        """A seat as a value: its name, and whether it is the listener's."""
        return Person(self.seat(seat), seat == self.viewer)

    def card(self, card: int) -> str:
        """'Tonstad (spar 7)' / 'Tonstad (spades 7)'; 'joker' for a joker."""
        words = self.words
        named: tuple[_Language, dict[int, str]] | None = self.__dict__.get("_cards")
        if named is None or named[0] is not words:  # a cache, not a field: per language
            named = (words, {})
            object.__setattr__(self, "_cards", named)
        text = named[1].get(card)
        if text is None:
            text = named[1][card] = self._card(words, card)
        return text

    def _card(self, words: _Language, card: int) -> str:
        table = self.table
        if table.joker[card]:
            return words.joker
        value = table.value[card]
        return self.say(
            f"{TABLE}.words.card",
            name=table.names[card],
            suit=words.suits[table.suit[card]],
            value=words.values.get(value, str(value)),
        )

    def listing(self, items: Sequence[str]) -> str:
        """Items one after the other: 'a, b, c' (the language's separator)."""
        return self.say(f"{TABLE}.words.separator").join(items)

    def cards(self, cards: Sequence[int]) -> str:
        """Cards named one after the other, or the word for none."""
        if not cards:
            return self.say(f"{TABLE}.words.none")
        return self.listing([self.card(c) for c in cards])

    def joined(self, items: Sequence[str]) -> str:
        """'a, b and c': a list whose last two are joined by the language's 'and'."""
        if len(items) <= 1:
            return "".join(items)
        return self.listing(items[:-1]) + self.say(f"{TABLE}.words.and") + items[-1]

    def number(self, value: float, decimals: int) -> str:
        """A number as the cards round it, in the language's style: '4,357.5' in English,
        '4 357,5' in Norwegian ([table.words] decimal_mark and thousands)."""
        mark = self.say(f"{TABLE}.words.decimal_mark")
        thousands = self.say(f"{TABLE}.words.thousands")
        text = format_number(value, decimals, "\x00")  # groups marked, then replaced
        return text.replace(DECIMAL_MARK, mark).replace("\x00", thousands)

    def figure(self, category: int, card: int) -> str:
        """The figure as the card rounds it, with its unit: '4 357 GWh' as printed, or in
        the language's style ('4,357 GWh' in English) with ``own_numbers``."""
        table = self.table
        if not self.own_numbers:
            return table.figure_text(category, card)
        shown = self.number(table.printed[category][card], table.decimals[category])
        return f"{shown} {CATEGORY_UNITS[category]}"

    def amount(self, category: int, value: float) -> str:
        """A figure that is no card's (a claim may name any): written like the cards'."""
        decimals = 0 if value == int(value) else 1
        if self.own_numbers:
            shown = self.number(value, decimals)
        else:
            shown = format_number(value, decimals, " ")
        return f"{shown} {CATEGORY_UNITS[category]}"

    def category(self, category: int) -> str:
        return self.words.categories[category]

    def cards_count(self, n: int) -> str:
        """'1 card', '3 cards', '3 kort'."""
        return self.say(f"{TABLE}.words.cards", count=n)

    # -- sentences ---------------------------------------------------------------------

    def say(self, key: str, **values: object) -> str:
        """The text ``key`` of ``events.toml`` (a dotted path) filled with ``values``."""
        words = self.words
        if not values:
            text = words.constants.get(key)
            if text is None:
                where, entry = words.entry(key)
                text = words.constants[key] = fill(where, entry, values, words.grammar)
            return text
        where, entry = words.entry(key)
        return fill(where, entry, values, words.grammar)

    def tell(self, event: Event) -> str:
        """The event's sentence, as the listener may hear it."""
        name = type(event).__name__
        values: Values | None = _framework_values(event, self)
        section = TABLE
        if values is None:
            values = self._game_narration(type(event)).event_values(event, self)
            section = self.game
            if values is None:
                raise LocaleError(f"{self.game}: its narration tells no {name}")
        values["seat"] = self.person(event.seat)
        return self.say(f"{section}.events.{name}", **values)

    def view(self, observation: Any) -> list[str]:
        """The observation in words, for the person in its seat."""
        return self._game_narration(type(observation)).view_lines(observation, self)

    def move(self, state: State, action: Action) -> str:
        """The action in the listener's language, as the player choosing it sees it."""
        if isinstance(state, TellsActions):
            return state.action_text(action, self)
        return state.action_to_string(action)

    def typed_hint(self, state: State, legal: Sequence[Action]) -> str:
        """A line telling a person what else the state takes typed ('' for nothing)."""
        return state.typed_hint(legal, self) if isinstance(state, HintsTyping) else ""

    def _game_narration(self, kind: type) -> GameNarration:
        if not self.game:
            raise LocaleError("a narrator of no game tells no game's events")
        module = _narration(kind)
        if module is None:
            raise LocaleError(f"{self.game}: its package has no narration.py")
        found: GameNarration = module
        return found


def _framework_values(event: Event, n: Narrator) -> Values | None:
    """The values of the events every game shares (``events.py``), None for a game's own."""
    if isinstance(event, SeatOut):
        return {"place": event.place}
    if isinstance(event, GameOver):
        return {
            "order": n.listing([n.seat(seat) for seat in event.order]),
            "loser": n.say(f"{n.game}.words.loser"),
        }
    return None


def story(events: Sequence[Event], narrator: Narrator) -> list[str]:
    """The events' sentences, in order."""
    return [narrator.tell(event) for event in events]


__all__ = [
    "TABLE",
    "GameNarration",
    "HintsTyping",
    "Narrator",
    "TellsActions",
    "Values",
    "language",
    "say_cli",
    "story",
]
