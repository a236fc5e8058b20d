"""Derived card flags: one definition shared by the builder and the validator."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from kraftstokk.games.kraftidioten import rules as ki
from kraftstokk.games.stromkrig import rules as sk
from kraftstokk.models import (
    CATEGORIES,
    CardFlags,
    Category,
    CategoryFlags,
)

# The flags are the engine's own predicates (games/stromkrig/rules.py and
# games/kraftidioten/rules.py), so the deck, the validator and the games agree.
BURN_SUIT = sk.CLUBS  # SK-10: clubs 1-4 burn the pile (and the jokers)
BURN_MAX_VALUE = sk.BURN_MAX_VALUE
RESET_VALUE = sk.RESET_VALUE  # SK-11


def gwh_tens(gwh: float) -> int:
    """Production rounded down to the nearest 10 GWh (SK-6b: 879 and 871 are both 870)."""
    return sk.production_tens(gwh)


def is_burn(suit: str | None, value: int | None) -> bool:
    """SK-10 for a plant card: a club with value 1-4."""
    return sk.burns(sk.CardFace(joker=False, suit=suit, value=value))


def is_reset(value: int | None) -> bool:
    """SK-11: a 2."""
    return sk.resets(sk.CardFace(joker=False, value=value))


def is_invisible(nr: int) -> bool:
    """D-4: nr. 50, 51 and 52 are "usynlige kort"."""
    return sk.invisible_nr(nr)


def is_top3(nr: int) -> bool:
    """KI-8: nr. 1-3 may burn the pile (the engine's own predicate)."""
    return ki.is_top3(nr)


def plant_flags(
    suit: str | None, value: int | None, ranks: Mapping[Category, int], gwh: float
) -> CardFlags:
    """Flags of a plant card, without war partners (they need the whole deck)."""
    return CardFlags(
        invisible=CategoryFlags(**{c: is_invisible(ranks[c]) for c in CATEGORIES}),
        top3=CategoryFlags(**{c: is_top3(ranks[c]) for c in CATEGORIES}),
        burn=is_burn(suit, value),
        reset=is_reset(value),
        gwh_tens=gwh_tens(gwh),
    )


def joker_flags() -> CardFlags:
    return CardFlags(burn=sk.burns(sk.CardFace(joker=True)))


def war_partners(tens_in_deck_order: Sequence[tuple[str, int]]) -> dict[str, list[str]]:
    """Card id to the other cards (in deck order) whose production has the same tens
    (``gwh_tens``): the cards it starts a war with by SK-6b
    (:func:`~kraftstokk.games.stromkrig_rules.war_reasons`)."""
    groups: dict[int, list[str]] = {}
    for card_key, tens in tens_in_deck_order:
        groups.setdefault(tens, []).append(card_key)
    return {
        card_key: [other for other in groups[tens] if other != card_key]
        for card_key, tens in tens_in_deck_order
    }
