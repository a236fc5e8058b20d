"""Idiot's chapter of the rules booklet (ID-1 .. ID-13), with this deck's own cards.

The sentences are ``[idiot]`` of ``locales/<code>/booklet.toml`` (:class:`Text`); the
variants (ID-13) are told as house rules under their names (``[idiot.house_rules]``, added
by the booklet). The worked example sorts the deck's cards with the engine's own
predicates (``rules.py``), so the booklet and the game never disagree about what may be
laid on a queen. :func:`quick` is the game on one page.
"""

from __future__ import annotations

from dataclasses import dataclass

from kraftstokk.design.blocks import (
    Block,
    Bullets,
    CardRow,
    ChapterWords,
    Example,
    Heading,
    Para,
    QuickReference,
    Words,
    escape,
    game_opening,
    joined,
    plant,
    quick_reference,
)
from kraftstokk.games.idiot.rules import may_lay, need_after, rank_of, reach
from kraftstokk.models import SUITS, Card, Deck

Paras = tuple[str, ...]


@dataclass(frozen=True)
class Text:
    """Every sentence of the chapter, in the order it uses them."""

    intro: str
    players: Paras
    deal: Paras
    start_heading: str
    start: str
    turn: str
    special_heading: str
    special: Paras
    stuck_heading: str
    stuck: str
    example_missing_title: str
    example_title: str
    example_captions: Paras
    example: Paras
    table_heading: str
    table: str
    end: str
    # The game on one page: each special card as a pair (label, effect)
    quick_need: str
    quick_deal: str
    quick_turn: Paras
    quick_twos: Paras
    quick_tens: Paras
    quick_four: Paras
    quick_jokers: Paras
    quick_end: str
    summary_cards: str
    summary_deal: str


#: The placeholders each text may use (a text not named here takes none).
FIELDS: dict[str, frozenset[str]] = {"example": frozenset({"top", "allowed", "special", "refused"})}
#: Lists of a fixed length: a quick reference's row is a label and an effect.
LENGTHS: dict[str, int] = {
    "quick_twos": 2,
    "quick_tens": 2,
    "quick_four": 2,
    "quick_jokers": 2,
}


def chapter(deck: Deck, w: Words, t: Text, shared: ChapterWords) -> list[Block]:
    return [
        *game_opening(t.intro, t.players, t.deal, shared),
        Heading(t.start_heading, 2),
        Para(t.start),
        Heading(shared.turn_heading, 2),
        Para(t.turn),
        Heading(t.special_heading, 2),
        Bullets(t.special),
        Heading(t.stuck_heading, 2),
        Para(t.stuck),
        *_example(deck, w, t, shared),
        Heading(t.table_heading, 2),
        Para(t.table),
        Heading(shared.end_heading, 2),
        Para(t.end),
    ]


def _names(cards: list[Card]) -> str:
    return ", ".join(f"<b>{escape(card.name or '')}</b>" for card in cards)


def quick(deck: Deck, w: Words, t: Text, shared: ChapterWords, title: str) -> QuickReference:
    """Idiot on one page, with the plants that are this edition's 2s and 10s."""
    in_suit_order = sorted(deck.plant_cards, key=lambda card: SUITS.index(card.suit or "spar"))
    twos = [card for card in in_suit_order if card.value == 2]
    tens = [card for card in in_suit_order if card.value == 10]
    rows = [
        (f"<b>{t.quick_twos[0]}</b>: {_names(twos)}", t.quick_twos[1]),
        (f"<b>{t.quick_tens[0]}</b>: {_names(tens)}", t.quick_tens[1]),
        (f"<b>{t.quick_four[0]}</b>", t.quick_four[1]),
        (f"<b>{t.quick_jokers[0]}</b>", t.quick_jokers[1]),
    ]
    return quick_reference(title, shared, t, rows)


def _example(deck: Deck, w: Words, t: Text, shared: ChapterWords) -> list[Block]:
    example = queen_example(deck)
    if example is None:
        return [Example(t.example_missing_title, (Para(shared.missing),))]
    fill = {
        "top": plant(example.top, w),
        "allowed": joined([plant(c, w) for c in example.allowed], shared.or_),
        "special": joined([plant(c, w) for c in example.special], shared.and_),
        "refused": joined([plant(c, w) for c in example.refused], shared.nor_),
    }
    return [
        Example(
            t.example_title,
            (
                CardRow((example.top, *example.allowed), t.example_captions),
                *(Para(text.format(**fill)) for text in t.example),
            ),
        )
    ]


@dataclass(frozen=True)
class QueenExample:
    """A queen on the pile: which of this deck's cards may follow and which may not."""

    top: Card
    allowed: tuple[Card, ...]
    special: tuple[Card, ...]
    refused: tuple[Card, ...]


def _first_with_value(deck: Deck, value: int, exclude: set[str]) -> Card | None:
    for card in sorted(deck.plant_cards, key=lambda c: c.id):
        if card.value == value and card.id not in exclude:
            return card
    return None


def queen_example(deck: Deck) -> QueenExample | None:
    """What may go on a queen (ID-5, ID-6, ID-7), sorted by the engine's own predicates."""
    top = _first_with_value(deck, 12, set())
    if top is None:
        return None
    need = need_after(rank_of(12))
    used = {top.id}
    picked: list[Card] = []
    for value in (12, 13, 1, 2, 10, 9, 5):
        card = _first_with_value(deck, value, used)
        if card is None or card.value is None:
            return None
        used.add(card.id)
        picked.append(card)
    ranks = {card.id: rank_of(card.value or 0) for card in picked}
    on_anything = {card.id for card in picked if reach(ranks[card.id]) > rank_of(1)}
    return QueenExample(
        top=top,
        allowed=tuple(c for c in picked if may_lay(ranks[c.id], need) and c.id not in on_anything),
        special=tuple(c for c in picked if c.id in on_anything),
        refused=tuple(c for c in picked if not may_lay(ranks[c.id], need)),
    )
