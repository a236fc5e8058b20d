"""Norwegian number format for the card figures: 4 357 GWh, 1 240,5 MW.

How one figure prints is :mod:`kraftstokk.cardfacts` (the engine's, without pydantic);
here is what needs the deck model: the rounding of each field for a whole deck.
"""

from __future__ import annotations

from kraftstokk.cardfacts import (
    DECIMAL_MARK,
    MAX_DECIMALS,
    THOUSANDS,
    decimals_for,
    format_number,
    printed_figure,
    round_shown,
)
from kraftstokk.models import CATEGORIES, CATEGORY_UNITS, Category, Deck


def deck_decimals(deck: Deck) -> dict[Category, int]:
    """The rounding of each field for this deck (a card missing a figure does not count)."""
    return {
        c: decimals_for(v for card in deck.plant_cards if (v := getattr(card, c)) is not None)
        for c in CATEGORIES
    }


def format_figure(value: float, category: Category, decimals: int = 0) -> str:
    """Figure with its unit: ``'4 357 GWh'`` (no-break spaces throughout)."""
    return f"{format_number(value, decimals)}{THOUSANDS}{CATEGORY_UNITS[category]}"


__all__ = [
    "DECIMAL_MARK",
    "MAX_DECIMALS",
    "THOUSANDS",
    "decimals_for",
    "deck_decimals",
    "format_figure",
    "format_number",
    "printed_figure",
    "round_shown",
]
