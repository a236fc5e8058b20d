"""Kraftidioten's chapter of the rules booklet (KI-1 .. KI-9), with this deck's own cards.

The sentences are ``[kraftidioten]`` of ``locales/<code>/booklet.toml`` (:class:`Text`);
the worked examples take three claims and a top-3 claim from the deck's own ranking.
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
    Words,
    by_production,
    escape,
    figure,
    game_opening,
    paras,
    plant,
    plant_with,
    ranked,
    top_cards,
)
from kraftstokk.models import Card, Category, Deck

Paras = tuple[str, ...]


@dataclass(frozen=True)
class Text:
    """Every sentence of the chapter, in the order it uses them."""

    intro: str
    players: Paras
    deal: Paras
    turn_heading: str
    turn: Paras
    stuck_heading: str
    stuck_intro: str
    stuck: Paras
    after_take: str
    challenge_heading: str
    challenge: str
    challenge_outcomes: Paras
    claims_missing_title: str
    claims_title: str
    claims_story: Paras
    claims_captions: Paras
    claims_outcome: str
    joker_heading: str
    joker: str
    top_heading: str
    top: str
    top_outcomes: Paras
    top_example_title: str
    top_example: str
    top_example_under: str
    top_example_outcome: str
    end: str


_CLAIM_FIELDS = (
    "category first first_name first_figure second second_name second_figure "
    "hidden hidden_name hidden_figure claimed_name claimed_figure"
)

#: The placeholders each text may use (a text not named here takes none).
FIELDS: dict[str, frozenset[str]] = {
    "turn": frozenset({"name", "figure"}),
    "claims_story": frozenset(_CLAIM_FIELDS.split()),
    "top_example": frozenset({"category", "under", "top", "name", "figure", "nr"}),
}


def _name(card: Card) -> str:
    return escape(card.name or "")


def chapter(deck: Deck, w: Words, t: Text, shared: ChapterWords) -> list[Block]:
    cards = by_production(deck)
    sample = cards[len(cards) // 5]
    fill = {"name": _name(sample), "figure": figure(sample, "gwh", w)}
    return [
        *game_opening(t.intro, t.players, t.deal, shared),
        Heading(t.turn_heading, 2),
        *paras(tuple(text.format(**fill) for text in t.turn)),
        Heading(t.stuck_heading, 2),
        Para(t.stuck_intro),
        Bullets(t.stuck),
        Para(t.after_take),
        Heading(t.challenge_heading, 2),
        Para(t.challenge),
        Bullets(t.challenge_outcomes),
        *_claims_example(deck, w, t, shared),
        Heading(t.joker_heading, 2),
        Para(t.joker),
        Heading(t.top_heading, 2),
        Para(t.top),
        Bullets(t.top_outcomes),
        *_top_example(deck, w, t),
        Heading(shared.end_heading, 2),
        Para(t.end),
    ]


@dataclass(frozen=True)
class ClaimExample:
    """Three claims in ``category``; the third is a lie and is challenged.

    First player lays ``first`` truthfully, the second lays ``second`` truthfully, the
    third lays ``hidden`` face down but names ``claimed``; the first player challenges.
    """

    category: Category
    first: Card
    second: Card
    hidden: Card
    claimed: Card


@dataclass(frozen=True)
class TopClaimExample:
    """A truthful claim of a nr. 1-3 card (``top``) in ``category`` on ``under``."""

    category: Category
    under: Card
    top: Card


def claims_example(deck: Deck) -> ClaimExample | None:
    category: Category = "gwh"
    cards = [c for c in ranked(deck, category) if not c.flags.top3.get(category)]
    if len(cards) < 6:
        return None
    n = len(cards)
    first = cards[n * 3 // 4]
    second = cards[n // 2]
    claimed = cards[n // 4]
    hidden = cards[-1]
    return ClaimExample(category, first=first, second=second, hidden=hidden, claimed=claimed)


def top_example(deck: Deck) -> TopClaimExample | None:
    category: Category = "mw"
    top = top_cards(deck, category)
    rest = [c for c in ranked(deck, category) if not c.flags.top3.get(category)]
    if not top or not rest:
        return None
    return TopClaimExample(category=category, under=rest[len(rest) // 3], top=top[-1])


def _claims_example(deck: Deck, w: Words, t: Text, shared: ChapterWords) -> list[Block]:
    claims = claims_example(deck)
    if claims is None:
        return [Example(t.claims_missing_title, (Para(shared.missing),))]
    cat = claims.category
    fill = {
        "category": w.categories[cat],
        "first": plant(claims.first, w),
        "first_name": _name(claims.first),
        "first_figure": figure(claims.first, cat, w),
        "second": plant(claims.second, w),
        "second_name": _name(claims.second),
        "second_figure": figure(claims.second, cat, w),
        "hidden": plant(claims.hidden, w),
        "hidden_name": _name(claims.hidden),
        "hidden_figure": figure(claims.hidden, cat, w),
        "claimed_name": _name(claims.claimed),
        "claimed_figure": figure(claims.claimed, cat, w),
    }
    return [
        Example(
            t.claims_title,
            (
                *(Para(text.format(**fill)) for text in t.claims_story),
                CardRow((claims.first, claims.second, claims.hidden), t.claims_captions),
                Para(t.claims_outcome),
            ),
        )
    ]


def _top_example(deck: Deck, w: Words, t: Text) -> list[Block]:
    top = top_example(deck)
    if top is None:
        return []
    cat = top.category
    nr = top.top.nr.get(cat) if top.top.nr else 0
    return [
        Example(
            t.top_example_title,
            (
                Para(
                    t.top_example.format(
                        category=w.categories[cat],
                        under=plant_with(top.under, cat, w),
                        top=plant(top.top, w),
                        name=_name(top.top),
                        figure=figure(top.top, cat, w),
                        nr=nr,
                    )
                ),
                CardRow((top.under, top.top), (t.top_example_under, f"nr.\u00a0{nr}")),
                Para(t.top_example_outcome),
            ),
        )
    ]
