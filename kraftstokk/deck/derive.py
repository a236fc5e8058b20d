"""What follows from a deck's plants, suits and values: nr., flags, war partners, jokers.

The one computation ``build``, ``repair`` and the reprint verdict's "what would this one
change alone cost" share (:mod:`kraftstokk.deck.rank`, :mod:`kraftstokk.deck.flags`).
"""

from __future__ import annotations

from collections.abc import Sequence

from kraftstokk.deck.flags import joker_flags, plant_flags, war_partners
from kraftstokk.deck.rank import DEFAULT_TIE_BREAK, TIE_BREAK_RULES, RankItem, rank_all
from kraftstokk.models import CATEGORIES, JOKERS, SUITS, Card, Deck, Ranks, Suit, card_id


def tie_break_of(deck: Deck) -> str:
    """The tie-break rule the deck was built with (the default when it does not say)."""
    rule = deck.spec.get("tie_break", DEFAULT_TIE_BREAK) if isinstance(deck.spec, dict) else ""
    return rule if rule in TIE_BREAK_RULES else DEFAULT_TIE_BREAK


def card_order(suit: Suit, value: int) -> tuple[int, int]:
    return SUITS.index(suit), value


def derived_cards(placed: Sequence[tuple[Suit, int, Card]], tie_break: str) -> list[Card]:
    """The 55 cards: each plant card (with its suit and value) with every nr., flag and war
    partner recomputed, in deck order, then the three bare jokers. Every plant card must
    have all three figures."""
    ordered = sorted(placed, key=lambda item: card_order(item[0], item[1]))
    items = [
        RankItem(key=str(index), plant_id=card.plant_id or "",
                 figures={c: card.figure(c) for c in CATEGORIES})
        for index, (_, _, card) in enumerate(ordered)
    ]  # fmt: skip
    ranking = rank_all(items, tie_break)
    cards: list[Card] = []
    for index, (suit, value, card) in enumerate(ordered):
        ranks = ranking.ranks_of(str(index))
        cards.append(
            card.model_copy(
                update={
                    "id": card_id(suit, value),
                    "suit": suit,
                    "value": value,
                    "nr": Ranks(**ranks),
                    "flags": plant_flags(suit, value, ranks, card.figure("gwh")),
                }
            )
        )
    partners = war_partners([(card.id, card.flags.gwh_tens or 0) for card in cards])
    for card in cards:
        card.flags.war_partners = partners[card.id]
    cards.extend(
        Card(id=f"joker-{n}", joker=True, flags=joker_flags()) for n in range(1, JOKERS + 1)
    )
    return cards
