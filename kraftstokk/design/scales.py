"""Marks drawn to a scale, in steps: a figure's bar, the picture's drop, station and lake,
the map's dot.

A bar shows its figure on the deck's scale, from 0 to a round figure at or above the
deck's highest (4 357 GWh: 0 to 4 500), and the picture draws the plant's head, effekt
and produksjon on the same scales (``design/picture_plan.py``); each is drawn in whole
steps of its scale, and a plant's dot sits on a grid of the map. So a revised figure
changes no other card's marks unless the deck's highest passes a round figure, a change
no one could see (a hundredth of a millimetre) draws the very same card, and the reprint
verdict (:mod:`kraftstokk.design.printed`) can say exactly which faces print differently.
The steps are finer than the eye: 0.2 mm on a bar, under 0.02 mm on the drop (the
layout's ``drop_steps``), 0.1 mm on the map.
"""

from __future__ import annotations

import math

from kraftstokk.models import CATEGORIES, Category, Deck

#: A bar is drawn in this many steps of the deck's range (about 0.2 mm each on poker).
BAR_STEPS = 200
#: The grid the map's dot sits on, in mm.
MAP_GRID_MM = 0.1


def scale_of(figures: list[float]) -> tuple[float, float]:
    """The scale a deck's figures are drawn on: 0 to the first multiple of a quarter of
    the highest figure's power of ten at or above it (4 357 -> 4 500, 1 240 -> 1 250)."""
    high = max(figures, default=0.0)
    if high <= 0:
        return (0.0, 1.0)
    quarter = 10 ** math.floor(math.log10(high)) / 4
    return (0.0, round(math.ceil(high / quarter - 1e-9) * quarter, 9))


def fraction(value: float, span: tuple[float, float]) -> float:
    """``value`` between the deck's lowest and highest (0..1); 1 when they are equal."""
    low, high = span
    if high <= low:
        return 1.0
    return max(0.0, min(1.0, (value - low) / (high - low)))


def step(value: float, span: tuple[float, float], steps: int) -> int:
    """The whole step (0..``steps``) a mark of ``value`` is drawn at."""
    return math.floor(fraction(value, span) * steps + 0.5)


def bar_share(value: float, span: tuple[float, float]) -> float:
    """The share of a bar filled for ``value``: whole steps of the deck's range."""
    return step(value, span, BAR_STEPS) / BAR_STEPS


def grid(offset: float, cell: float) -> int:
    """The grid line nearest ``offset`` (both in the same unit)."""
    return math.floor(offset / cell + 0.5)


def deck_scales(deck: Deck) -> dict[Category, tuple[float, float]]:
    """The scale each category's bars (and the picture's measures) are drawn on in ``deck``."""
    plants = deck.plant_cards
    return {
        c: scale_of([v for card in plants if (v := getattr(card, c)) is not None])
        for c in CATEGORIES
    }
