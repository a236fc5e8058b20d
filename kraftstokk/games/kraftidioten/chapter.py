"""Kraftidioten's chapter of the rules booklet (KI-1 .. KI-9), with this deck's own cards.

The sentences are ``[kraftidioten]`` of ``locales/<code>/booklet.toml`` (:class:`Text`);
the rules the seed is silent on, as the engine plays them (``RULES.md``, "the digest's
choices"), are ``[kraftidioten.rules]``, each under its rule id (:data:`RULES`). The worked
examples take three claims and a top-3 claim from the deck's own ranking, and say the
claims as a player says them ("840 megawatt"). :func:`quick` is the game on one page.
"""

from __future__ import annotations

from collections.abc import Mapping
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
    by_production,
    escape,
    figure,
    game_opening,
    paras,
    plant,
    plant_with,
    quick_reference,
    ranked,
    said,
    top_cards,
)
from kraftstokk.models import CATEGORIES, Card, Category, Deck

Paras = tuple[str, ...]
Keyed = Mapping[str, str]

#: The rules the seed is silent on, as the engine plays them, by rule id and a name: each
#: is a text of ``[kraftidioten.rules]`` in every language. KI-4: a joker drawn as a
#: chance costs nothing, and the card list stays closed while playing (a choice: the
#: bluff is the game); KI-7: a joker is one of the last two cards, and a penalty that
#: leaves only jokers while no plant is burned passes the turn; KI-8: a top-3 plant named
#: is a top-3 claim.
RULES: tuple[str, ...] = (
    "KI-4_chance_joker",
    "KI-4_card_list",
    "KI-7_last_two",
    "KI-7_jokers_only",
    "KI-8_named_plant",
)


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
    rules: Keyed
    # The game on one page: each special card as a pair (label, effect)
    quick_need: str
    quick_deal: str
    quick_turn: Paras
    quick_jokers: Paras
    quick_top: Paras
    quick_end: str
    summary_cards: str
    summary_deal: str


_CLAIM_FIELDS = (
    "category first first_name first_said second second_name second_said "
    "hidden hidden_name hidden_figure claimed_name claimed_said"
)

#: The placeholders each text may use (a text not named here takes none).
FIELDS: dict[str, frozenset[str]] = {
    "turn": frozenset({"name", "said"}),
    "claims_story": frozenset(_CLAIM_FIELDS.split()),
    "top_example": frozenset({"category", "under", "top", "name", "said", "nr"}),
    "quick_top": frozenset({"category"}),
}
#: The names of each table of texts.
KEYS: dict[str, tuple[str, ...]] = {"rules": RULES}
#: Lists of a fixed length: a quick reference's row is a label and an effect.
LENGTHS: dict[str, int] = {"quick_jokers": 2, "quick_top": 2}


def _name(card: Card) -> str:
    return escape(card.name or "")


def chapter(deck: Deck, w: Words, t: Text, shared: ChapterWords) -> list[Block]:
    cards = by_production(deck)
    sample = cards[len(cards) // 5]
    fill = {"name": _name(sample), "said": said(sample, "gwh", w)}
    rules = t.rules
    return [
        *game_opening(t.intro, t.players, t.deal, shared),
        Heading(t.turn_heading, 2),
        *paras(tuple(text.format(**fill) for text in t.turn)),
        Heading(t.stuck_heading, 2),
        Para(t.stuck_intro),
        Bullets(t.stuck),
        Para(t.after_take),
        Para(rules["KI-4_card_list"]),
        Heading(t.challenge_heading, 2),
        Para(t.challenge),
        Bullets(t.challenge_outcomes),
        *_claims_example(deck, w, t, shared),
        Heading(t.joker_heading, 2),
        Para(t.joker),
        Bullets((rules["KI-7_last_two"], rules["KI-4_chance_joker"], rules["KI-7_jokers_only"])),
        Heading(t.top_heading, 2),
        Para(t.top),
        Para(rules["KI-8_named_plant"]),
        Bullets(t.top_outcomes),
        *_top_example(deck, w, t),
        Heading(shared.end_heading, 2),
        Para(t.end),
    ]


def quick(deck: Deck, w: Words, t: Text, shared: ChapterWords, title: str) -> QuickReference:
    """Kraftidioten on one page, with this edition's top 3 of each category."""
    rows = [(f"<b>{t.quick_jokers[0]}</b>", t.quick_jokers[1])]
    for category in CATEGORIES:
        label = t.quick_top[0].format(category=w.categories[category])
        top = ", ".join(
            f"<b>{_name(card)}</b> {figure(card, category, w)}"
            for card in top_cards(deck, category)
        )
        rows.append(
            (f"<b>{label}</b>: {top}", t.quick_top[1].format(category=w.categories[category]))
        )
    return quick_reference(title, shared, t, rows)


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
        "first_said": said(claims.first, cat, w),
        "second": plant(claims.second, w),
        "second_name": _name(claims.second),
        "second_said": said(claims.second, cat, w),
        "hidden": plant(claims.hidden, w),
        "hidden_name": _name(claims.hidden),
        "hidden_figure": figure(claims.hidden, cat, w),
        "claimed_name": _name(claims.claimed),
        "claimed_said": said(claims.claimed, cat, w),
    }
    return [
        Example(
            t.claims_title,
            (
                *(Para(text.format(**fill)) for text in t.claims_story),
                # Only Per's card is turned: Kari's and Ola's stay face down.
                CardRow(
                    (claims.first, claims.second, claims.hidden),
                    t.claims_captions,
                    face_down=frozenset({0, 1}),
                ),
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
                        said=said(top.top, cat, w),
                        nr=nr,
                    )
                ),
                CardRow((top.under, top.top), (t.top_example_under, f"nr.\u00a0{nr}")),
                Para(t.top_example_outcome),
            ),
        )
    ]
