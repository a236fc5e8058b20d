"""The booklet's content as language-neutral blocks, and the words each language uses.

:mod:`booklet_rules` builds the rules as a list of blocks from the sentences of a language
(:mod:`booklet_nb`, :mod:`booklet_en`); :mod:`booklet` lays the blocks out. Paragraph text
uses reportlab's paragraph markup (``<b>``, ``<i>``), so every plant name passes through
:func:`escape` first.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Literal
from xml.sax.saxutils import escape

from kraftstokk.models import CATEGORY_UNITS, Card, Category, Deck
from kraftstokk.render.numbers import THOUSANDS, deck_decimals, format_number

Language = Literal["nb", "en"]
LANGUAGES: tuple[Language, ...] = ("nb", "en")

#: Output file name per language.
OUTPUT_NAMES: dict[Language, str] = {"nb": "regler.pdf", "en": "rules-en.pdf"}


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
    """The deck's own cards drawn small, side by side, with a caption under each."""

    cards: tuple[Card, ...]
    captions: tuple[str, ...] = ()


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


Block = Heading | Para | Bullets | CardRow | Example | Contents | CardTable | TitlePage


@dataclass(frozen=True)
class Words:
    """What a language calls things, and how it writes numbers."""

    code: Language
    suits: dict[str, str]
    values: dict[int, str]
    categories: dict[str, str]
    decimal_mark: str
    thousands: str
    page_label: str
    #: Decimals per category, as on this deck's cards (see :func:`for_deck`).
    decimals: dict[str, int] = field(default_factory=dict)

    def for_deck(self, deck: Deck) -> Words:
        """These words with the deck's rounding, so figures read as on the cards."""
        return replace(self, decimals={str(k): v for k, v in deck_decimals(deck).items()})


NB = Words(
    code="nb",
    suits={"spar": "spar", "kløver": "kløver", "hjerter": "hjerter", "ruter": "ruter"},
    values={1: "ess", 11: "knekt", 12: "dame", 13: "konge"},
    categories={"mw": "effekt", "gwh": "produksjon", "head_m": "fallhøyde"},
    decimal_mark=",",
    thousands="\u00a0",
    page_label="Side",
)

EN = Words(
    code="en",
    suits={"spar": "spades", "kløver": "clubs", "hjerter": "hearts", "ruter": "diamonds"},
    values={1: "ace", 11: "jack", 12: "queen", 13: "king"},
    categories={"mw": "capacity", "gwh": "production", "head_m": "head"},
    decimal_mark=".",
    thousands=",",
    page_label="Page",
)

WORDS: dict[Language, Words] = {"nb": NB, "en": EN}


def number(value: float, words: Words, decimals: int = 0) -> str:
    """A number in the language's format, rounded as the card renderer rounds it."""
    text = format_number(value, decimals)
    if words.code == "nb":
        return text
    return text.replace(",", ".").replace(THOUSANDS, words.thousands)


def figure(card: Card, category: Category, words: Words) -> str:
    """A card's figure with its unit, as on the card: '1\u00a0240 MW'."""
    decimals = words.decimals.get(category, 0)
    return f"{number(card.figure(category), words, decimals)}\u00a0{CATEGORY_UNITS[category]}"


def card_name(card: Card, words: Words) -> str:
    """The playing-card name: 'hjerter dame', 'kløver 7', 'joker'."""
    if card.joker:
        return "joker"
    value = card.value or 0
    suit = words.suits[card.suit or ""]
    value_name = words.values.get(value, str(value))
    return f"{suit} {value_name}" if words.code == "nb" else f"{value_name} of {suit}"


def plant(card: Card, words: Words) -> str:
    """Markup for a card in running text: the plant in bold, the playing card after it."""
    if card.joker:
        return "<b>joker</b>"
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
    return f"nr.\u00a0{card.nr.get(category)} {words.categories[category]}"


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
    from kraftstokk.render.booklet_examples import tens

    plants = ", ".join(f"<b>{escape(c.name or '')}</b> {figure(c, 'gwh', words)}" for c in group)
    return f"{number(tens(group[0]), words)}\u00a0GWh: {plants}"


def booklet_blocks(deck: Deck, language: Language) -> list[Block]:
    """The whole booklet's content in ``language``."""
    from kraftstokk.render.booklet_rules import rules_blocks

    if language == "nb":
        from kraftstokk.render.booklet_nb import TEXT
    else:
        from kraftstokk.render.booklet_en import TEXT
    return rules_blocks(deck, WORDS[language].for_deck(deck), TEXT)


__all__ = [
    "EN",
    "LANGUAGES",
    "NB",
    "OUTPUT_NAMES",
    "WORDS",
    "Block",
    "Bullets",
    "CardRow",
    "CardTable",
    "Contents",
    "Example",
    "Heading",
    "Language",
    "Para",
    "TitlePage",
    "Words",
    "booklet_blocks",
    "caption",
    "card_name",
    "escape",
    "figure",
    "gallery",
    "number",
    "plant",
    "plant_with",
    "war_partner_line",
]
