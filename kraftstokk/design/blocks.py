"""The booklet's content as language-neutral blocks, and the words each language uses.

The booklet (``render/booklet_rules.py``) and each game's chapter (``games/<game>/chapter.py``)
build their pages as lists of these blocks from the sentences of a language
(``locales/<code>/booklet.toml``, read by ``render/locale.py``); ``render/booklet.py`` lays
the blocks out and the web app's rules panel shows them. Paragraph text uses reportlab's
paragraph markup (``<b>``, ``<i>``), so every plant name passes through :func:`escape`
first. The cards a chapter shows are this deck's own, chosen by the deck's flags (which
the games' rules computed when the deck was built), so a chapter reads as the cards print.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Protocol
from xml.sax.saxutils import escape

from kraftstokk.design.numbers import THOUSANDS, deck_decimals, format_number, round_shown
from kraftstokk.models import CATEGORY_UNITS, SUITS, Card, Category, Deck

#: A language code: the name of a folder in ``kraftstokk/locales/``.
Language = str


@dataclass(frozen=True)
class Heading:
    """Level 1 starts a chapter on a new page; both levels appear in the contents."""

    text: str
    level: int = 1


@dataclass(frozen=True)
class Para:
    text: str


@dataclass(frozen=True)
class Bullets:
    items: tuple[str, ...]


@dataclass(frozen=True)
class CardRow:
    """The deck's own cards drawn small, side by side, with a caption under each.

    A card whose index is in ``face_down`` is drawn as the deck's back: it lies on the
    table face down (a claim in Kraftidioten that nobody turned).
    """

    cards: tuple[Card, ...]
    captions: tuple[str, ...] = ()
    face_down: frozenset[int] = frozenset()


@dataclass(frozen=True)
class Numbered:
    """A numbered list: the steps of a turn."""

    items: tuple[str, ...]


@dataclass(frozen=True)
class Grid:
    """A small table of text: a heading row, then rows of cells (paragraph markup).

    ``shares`` gives each column's share of the width (none: the renderer's own widths);
    a ``figures`` table centres its cells (counts read down a column).
    """

    headings: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    shares: tuple[float, ...] = ()
    figures: bool = False


@dataclass(frozen=True)
class Example:
    """A boxed worked example: a title and its paragraphs and card rows."""

    title: str
    body: tuple[Para | Bullets | CardRow, ...]


@dataclass(frozen=True)
class Contents:
    """Where the table of contents goes."""

    title: str


@dataclass(frozen=True)
class CardTable:
    """The appendix table of all 55 cards, with the column headings of the language."""

    headings: tuple[str, ...]
    joker_label: str


@dataclass(frozen=True)
class TitlePage:
    title: str
    subtitle: str
    lines: tuple[str, ...]
    cards: tuple[Card, ...] = ()
    back: bool = True


@dataclass(frozen=True)
class QuickSection:
    """One part of a quick reference: a small heading and its text, steps or table."""

    heading: str
    body: Para | Numbered | Grid


@dataclass(frozen=True)
class QuickReference:
    """A game on one page, for the table: what you need, the deal, the turn in steps,
    this edition's special cards with their effect in the game, and how it ends.

    ``cards`` and ``deal`` say the same in a few words, for the table of every game on
    the back cover.
    """

    title: str
    sections: tuple[QuickSection, ...]
    cards: str
    deal: str


@dataclass(frozen=True)
class IfRoom:
    """Blocks printed only where they fit whole on what is left of the page they fall on
    (a page's otherwise empty foot); where they do not, they are left out, so they never
    start a page of their own nor push what follows on."""

    blocks: tuple[Block, ...]


@dataclass(frozen=True)
class WholeSheets:
    """The booklet's end: notes pages (under ``heading``) up to whole sheets of four."""

    heading: str


Block = (
    Heading
    | Para
    | Bullets
    | Numbered
    | Grid
    | CardRow
    | Example
    | Contents
    | CardTable
    | TitlePage
    | QuickReference
    | IfRoom
    | WholeSheets
)


@dataclass(frozen=True)
class Plural:
    """The forms of a counted phrase: ``one`` for exactly one, ``other`` for any other count.

    Each form is a template with ``{count}``; the rule (one for 1, other otherwise) is that
    of bokmål, nynorsk and English.
    """

    one: str
    other: str

    def form(self, count: int) -> str:
        return (self.one if count == 1 else self.other).format(count=count)


@dataclass(frozen=True)
class Spoken:
    """A figure with its unit as a player says it: ``{number} megawatt``; ``one`` for a
    figure of exactly 1, ``other`` for any other."""

    one: str
    other: str

    def say(self, number: str, value: float) -> str:
        return (self.one if value == 1 else self.other).format(number=number)


@dataclass(frozen=True)
class Count:
    """A number for a template: ``{n}`` writes it, ``{n:name}`` the plural phrase ``name``."""

    value: int
    plurals: Mapping[str, Plural]

    def __format__(self, spec: str) -> str:
        if not spec:
            return str(self.value)
        return self.plurals[spec].form(self.value)


@dataclass(frozen=True)
class Words:
    """What a language calls things, and the grammar its sentences need (a locale's words)."""

    code: Language
    suits: dict[str, str]
    values: dict[int, str]
    categories: dict[str, str]
    decimal_mark: str
    thousands: str
    page_label: str
    #: The PDF's title, with ``{title}`` the deck's.
    document_title: str
    #: What a joker is called in running text.
    joker: str
    #: How a playing card is named, with ``{suit}`` and ``{value}``: "hjerter dame".
    card_name: str
    #: How a figure is written, with ``{number}`` and ``{unit}``: "1 240 MW".
    figure: str
    #: The caption under a small card, with ``{nr}`` and ``{category}``: "nr. 3 effekt".
    caption: str
    plurals: dict[str, Plural] = field(default_factory=dict)
    #: A figure as a player says it, by the unit the card prints (``MW``, ``GWh``, ``m``).
    spoken: dict[str, Spoken] = field(default_factory=dict)
    #: The months' names, January first, and how a date is written with them.
    months: tuple[str, ...] = ()
    month_date: str = "{month} {year}"
    day_date: str = "{day} {month} {year}"
    #: Decimals per category, as on this deck's cards (see :func:`for_deck`).
    decimals: dict[str, int] = field(default_factory=dict)

    def for_deck(self, deck: Deck) -> Words:
        """These words with the deck's rounding, so figures read as on the cards."""
        return replace(self, decimals={str(k): v for k, v in deck_decimals(deck).items()})

    def count(self, value: int) -> Count:
        """``value`` for a template, with this language's plural phrases."""
        return Count(value, self.plurals)


def number(value: float, words: Words, decimals: int = 0) -> str:
    """A number in the language's format, rounded as the card renderer rounds it."""
    marks = {",": words.decimal_mark, THOUSANDS: words.thousands}
    return "".join(marks.get(char, char) for char in format_number(value, decimals))


def figure(card: Card, category: Category, words: Words) -> str:
    """A card's figure with its unit, as on the card: '1\u00a0240 MW'."""
    decimals = words.decimals.get(category, 0)
    shown = number(card.figure(category), words, decimals)
    return words.figure.format(number=shown, unit=CATEGORY_UNITS[category])


def said(card: Card, category: Category, words: Words) -> str:
    """A card's figure as a player says it in a claim: the printed number without a
    decimal that is zero, the unit in words ("840 megawatt" for "840,0 MW")."""
    decimals = words.decimals.get(category, 0)
    shown = float(round_shown(card.figure(category), decimals))
    if shown == int(shown):
        decimals = 0
    unit = CATEGORY_UNITS[category]
    return words.spoken[unit].say(number(shown, words, decimals), shown)


#: A date as a snapshot records it: a year, a year and month, or a whole date.
_DATE = re.compile(r"(?P<year>\d{4})(?:-(?P<month>\d{2})(?:-(?P<day>\d{2}))?)?")


def date_in_words(text: str, words: Words) -> str:
    """``2024-01`` as "januar 2024", ``2026-11-29`` as "29. november 2026" (the
    language's month names and order); anything else as it is, escaped."""
    match = _DATE.fullmatch(text.strip())
    if match is None or len(words.months) != 12:
        return escape(text)
    year, month, day = match.group("year"), match.group("month"), match.group("day")
    if month is None:
        return year
    if not 1 <= int(month) <= 12:
        return escape(text)
    name = words.months[int(month) - 1]
    if day is None:
        return words.month_date.format(month=name, year=year)
    return words.day_date.format(day=int(day), month=name, year=year)


def snapshot_name(path: str) -> str:
    """The snapshot's name, never its place on the build machine: ``jrc-2024-01`` for
    ``/home/x/sources/jrc-2024-01.csv`` (or a Windows path)."""
    name = re.split(r"[\\/]", path.strip())[-1]
    stem, dot, _ = name.rpartition(".")
    return stem if dot and stem else name


def joined(items: Sequence[str], last: str) -> str:
    """``a, b`` + ``last`` + ``c``: a list in running text (``last`` is " og ", " or ")."""
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + last + items[-1]


def card_name(card: Card, words: Words) -> str:
    """The playing-card name: 'hjerter dame', 'kløver 7', 'joker'."""
    if card.joker:
        return words.joker
    value = card.value or 0
    suit = words.suits[card.suit or ""]
    return words.card_name.format(suit=suit, value=words.values.get(value, str(value)))


def plant(card: Card, words: Words) -> str:
    """Markup for a card in running text: the plant in bold, the playing card after it."""
    if card.joker:
        return f"<b>{escape(words.joker)}</b>"
    return f"<b>{escape(card.name or '')}</b> ({card_name(card, words)})"


def plant_with(card: Card, category: Category, words: Words) -> str:
    """Like :func:`plant`, with the card's figure in ``category`` added."""
    if card.joker:
        return plant(card, words)
    return (
        f"<b>{escape(card.name or '')}</b> ({card_name(card, words)}\u00a0· "
        f"{figure(card, category, words)})"
    )


def caption(card: Card, category: Category | None, words: Words) -> str:
    """A short caption under a small card picture: nr. or figure in ``category``."""
    if card.joker or category is None or card.nr is None:
        return card_name(card, words)
    return words.caption.format(nr=card.nr.get(category), category=words.categories[category])


def gallery(
    groups: Sequence[tuple[Category, Sequence[Card]]], words: Words, per_row: int = 4
) -> list[CardRow]:
    """Rows of cards, each card once, its caption naming every nr. it holds in ``groups``.

    A card that is special in two categories (nr. 50 in effekt and nr. 51 in produksjon,
    say) is drawn once with both, so the gallery shows each card a single time.
    """
    order: list[Card] = []
    captions: dict[str, list[str]] = {}
    for category, cards in groups:
        for card in cards:
            if card.id not in captions:
                order.append(card)
                captions[card.id] = []
            captions[card.id].append(caption(card, category, words))
    return [
        CardRow(
            tuple(order[i : i + per_row]),
            tuple(", ".join(captions[c.id]) for c in order[i : i + per_row]),
        )
        for i in range(0, len(order), per_row)
    ]


def war_partner_line(group: Sequence[Card], words: Words) -> str:
    """One line of the war-partner list: the ten, then each plant with its production."""
    plants = ", ".join(f"<b>{escape(c.name or '')}</b> {figure(c, 'gwh', words)}" for c in group)
    return f"{number(tens(group[0]), words)}\u00a0GWh: {plants}"


# --- the deck's cards, as its flags mark them ----------------------------------------------


def by_production(deck: Deck) -> list[Card]:
    """The plant cards from the highest production to the lowest (nr. 1 first)."""
    return sorted(deck.plant_cards, key=lambda card: (card.nr.gwh if card.nr else 0, card.id))


def ranked(deck: Deck, category: Category) -> list[Card]:
    """Plant cards by nr. in ``category``, nr. 1 first."""
    return sorted(deck.plant_cards, key=lambda card: card.nr.get(category) if card.nr else 0)


def tens(card: Card) -> int:
    """The card's production rounded down to tens (its flag ``gwh_tens``, SK-6b)."""
    return card.flags.gwh_tens if card.flags.gwh_tens is not None else 0


def invisible_cards(deck: Deck, category: Category) -> list[Card]:
    """The cards with nr. 50-52 in ``category`` (D-4), nr. 50 first."""
    return [c for c in ranked(deck, category) if c.flags.invisible.get(category)]


def top_cards(deck: Deck, category: Category) -> list[Card]:
    """The cards with nr. 1-3 in ``category`` (KI-8), nr. 1 first."""
    return [c for c in ranked(deck, category) if c.flags.top3.get(category)]


def burn_cards(deck: Deck) -> list[Card]:
    """The plant cards that burn the pile in Strømkrig (clubs 1-4, SK-10), by value."""
    return sorted((c for c in deck.plant_cards if c.flags.burn), key=lambda c: c.value or 0)


def reset_cards(deck: Deck) -> list[Card]:
    """The four 2s (SK-11), in suit order."""
    twos = [c for c in deck.plant_cards if c.flags.reset]
    return sorted(twos, key=lambda card: SUITS.index(card.suit) if card.suit else len(SUITS))


def war_groups(deck: Deck) -> list[list[Card]]:
    """Groups of two or more cards with the same production ten, highest ten first."""
    groups: dict[int, list[Card]] = {}
    for card in by_production(deck):
        groups.setdefault(tens(card), []).append(card)
    return [group for _, group in sorted(groups.items(), reverse=True) if len(group) > 1]


# --- what every game's chapter shares -------------------------------------------------------


@dataclass(frozen=True)
class ChapterWords:
    """The sentences every game's chapter shares (``[chapter]`` of ``booklet.toml``)."""

    players_heading: str
    deal_heading: str
    turn_heading: str
    end_heading: str
    #: An example this deck has no cards for.
    missing: str
    #: Join the last two of a list: " and ", " or ", and after "neither", " nor ".
    and_: str
    or_: str
    nor_: str
    #: The house rules: each of the game's variants, under its name in the game's table.
    house_heading: str
    house_intro: str
    #: The quick reference's title (with ``{game}``), its parts' headings and the heads
    #: of its table of special cards.
    quick_title: str
    quick_need: str
    quick_deal: str
    quick_turn: str
    quick_cards: str
    quick_end: str
    quick_headings: tuple[str, ...]


#: The placeholders of the shared texts (a text not named here takes none).
CHAPTER_FIELDS: dict[str, frozenset[str]] = {"quick_title": frozenset({"game"})}


class QuickText(Protocol):
    """The sentences of a game's quick reference, as every game's ``chapter.Text`` names
    them (``quick_turn`` the steps of a turn; ``summary_*`` its row of the table of games)."""

    @property
    def quick_need(self) -> str: ...
    @property
    def quick_deal(self) -> str: ...
    @property
    def quick_turn(self) -> tuple[str, ...]: ...
    @property
    def quick_end(self) -> str: ...
    @property
    def summary_cards(self) -> str: ...
    @property
    def summary_deal(self) -> str: ...


def quick_reference(
    game: str, shared: ChapterWords, text: QuickText, cards: Sequence[tuple[str, str]]
) -> QuickReference:
    """A game's page for the table, in the order every game's has: what you need, the
    deal, the turn, this edition's special cards (``(cards, effect)`` rows), the end."""
    return QuickReference(
        title=shared.quick_title.format(game=game),
        sections=(
            QuickSection(shared.quick_need, Para(text.quick_need)),
            QuickSection(shared.quick_deal, Para(text.quick_deal)),
            QuickSection(shared.quick_turn, Numbered(tuple(text.quick_turn))),
            QuickSection(shared.quick_cards, Grid(shared.quick_headings, tuple(cards))),
            QuickSection(shared.quick_end, Para(text.quick_end)),
        ),
        cards=text.summary_cards,
        deal=text.summary_deal,
    )


def paras(texts: Sequence[str]) -> list[Block]:
    return [Para(text) for text in texts]


def game_opening(
    intro: str, players: Sequence[str], deal: Sequence[str], shared: ChapterWords
) -> list[Block]:
    """Every game's chapter opens alike: what it is, who plays with what, the deal."""
    return [
        Para(intro),
        Heading(shared.players_heading, 2),
        Bullets(tuple(players)),
        Heading(shared.deal_heading, 2),
        *paras(deal),
    ]


__all__ = [
    "CHAPTER_FIELDS",
    "Block",
    "Bullets",
    "CardRow",
    "CardTable",
    "ChapterWords",
    "Contents",
    "Count",
    "Example",
    "Grid",
    "Heading",
    "IfRoom",
    "Language",
    "Numbered",
    "Para",
    "Plural",
    "QuickReference",
    "QuickSection",
    "QuickText",
    "Spoken",
    "TitlePage",
    "WholeSheets",
    "Words",
    "burn_cards",
    "by_production",
    "caption",
    "card_name",
    "date_in_words",
    "escape",
    "figure",
    "gallery",
    "game_opening",
    "invisible_cards",
    "joined",
    "number",
    "paras",
    "plant",
    "plant_with",
    "quick_reference",
    "ranked",
    "reset_cards",
    "said",
    "snapshot_name",
    "tens",
    "top_cards",
    "war_groups",
    "war_partner_line",
]
