"""Derived card flags: one definition shared by the builder and the validator."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from kraftstokk.models import (
    CATEGORIES,
    DECK_SIZE,
    INVISIBLE_FROM_NR,
    TOP_NR,
    CardFlags,
    Category,
    CategoryFlags,
)

BURN_SUIT = "kløver"  # SK-10: clubs 1-4 burn the pile (and the jokers)
BURN_MAX_VALUE = 4
RESET_VALUE = 2  # SK-11


def gwh_tens(gwh: float) -> int:
    """Production rounded down to the nearest 10 GWh (SK-6b: 879 and 871 are both 870)."""
    return math.floor(gwh / 10) * 10


def is_burn(suit: str | None, value: int | None) -> bool:
    return suit == BURN_SUIT and value is not None and 1 <= value <= BURN_MAX_VALUE


def is_invisible(nr: int) -> bool:
    """D-4: nr. 50, 51 and 52 are "usynlige kort"."""
    return INVISIBLE_FROM_NR <= nr <= DECK_SIZE


def is_top3(nr: int) -> bool:
    """KI-8: nr. 1-3 may burn the pile."""
    return 1 <= nr <= TOP_NR


def plant_flags(
    suit: str | None, value: int | None, ranks: Mapping[Category, int], gwh: float
) -> CardFlags:
    """Flags of a plant card, without war partners (they need the whole deck)."""
    return CardFlags(
        invisible=CategoryFlags(**{c: is_invisible(ranks[c]) for c in CATEGORIES}),
        top3=CategoryFlags(**{c: is_top3(ranks[c]) for c in CATEGORIES}),
        burn=is_burn(suit, value),
        reset=value == RESET_VALUE,
        gwh_tens=gwh_tens(gwh),
    )


def joker_flags() -> CardFlags:
    return CardFlags(burn=True)


def war_partners(tens_in_deck_order: Sequence[tuple[str, int]]) -> dict[str, list[str]]:
    """Card id to the other cards (in deck order) whose production has the same tens."""
    groups: dict[int, list[str]] = {}
    for card_key, tens in tens_in_deck_order:
        groups.setdefault(tens, []).append(card_key)
    return {
        card_key: [other for other in groups[tens] if other != card_key]
        for card_key, tens in tens_in_deck_order
    }
