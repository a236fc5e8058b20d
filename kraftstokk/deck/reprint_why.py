"""Why one revised figure reprints many faces, and the nearest figure that would not.

A figure is printed the same way on every card of a deck (:mod:`kraftstokk.design.numbers`):
whole, unless two different figures of the deck would then print alike, when every card
gets one decimal. And each bar is drawn against the deck's scale
(:mod:`kraftstokk.design.scales`), 0 to a round figure above the highest. So one figure
can change every face: ``442.5`` m would print as ``443``, the same as Nedre Vinstra's
``443.2``, and every head is then printed with a decimal. This module says so with the
figures, and finds the nearest value of the revised figure that keeps the deck's rounding.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from kraftstokk.design.numbers import decimals_for, format_number, round_shown
from kraftstokk.design.scales import scale_of
from kraftstokk.limits import FIGURE_LIMITS
from kraftstokk.models import CATEGORY_UNITS, Card, Category, Deck
from kraftstokk.sources.snapshot import format_number as plain_number

#: The figure's name in a sentence.
WORDS: dict[Category, str] = {"mw": "capacity", "gwh": "production", "head_m": "head"}
#: How far (in steps of the figure's last decimal) the nearest value is looked for.
SEARCH_STEPS = 2000


@dataclass(frozen=True)
class FigureEdit:
    """One plant's figure, revised: the card it is on, which figure, the new value."""

    card: str
    category: Category
    value: float


@dataclass(frozen=True)
class Why:
    """What the edit changes on every card, and the nearest value that changes less."""

    says: str
    #: The nearest value keeping the deck's rounding (None: there is none near).
    nearest: float | None = None
    #: How the nearest value prints.
    nearest_printed: str = ""


def _figures(deck: Deck, category: Category) -> list[tuple[Card, float]]:
    return [(c, float(v)) for c in deck.plant_cards if (v := getattr(c, category)) is not None]


def _with(deck: Deck, edit: FigureEdit, value: float) -> list[float]:
    return [value if c.id == edit.card else v for c, v in _figures(deck, edit.category)]


def _step(value: float) -> Decimal:
    """The figure's last decimal place as a step: 442.5 -> 0.1, 442 -> 1."""
    exponent = Decimal(repr(value)).normalize().as_tuple().exponent
    places = -exponent if isinstance(exponent, int) and exponent < 0 else 0
    return Decimal(1).scaleb(-places)


def nearest_keeping(deck: Deck, edit: FigureEdit, decimals: int) -> float | None:
    """The value nearest ``edit.value`` (in steps of its last decimal) with which the
    deck's ``edit.category`` figures still print with ``decimals`` decimals; equal to no
    other plant's figure (that would make a tie). None when none is near."""
    others = {v for c, v in _figures(deck, edit.category) if c.id != edit.card}
    low, high = FIGURE_LIMITS[edit.category]
    exact, step = Decimal(repr(edit.value)), _step(edit.value)
    for distance in range(1, SEARCH_STEPS + 1):
        for sign in (-1, 1):
            candidate = float(exact + sign * distance * step)
            if not low <= candidate <= high or candidate in others:
                continue
            if decimals_for(_with(deck, edit, candidate)) == decimals:
                return candidate
    return None


def why_many(before: Deck, after: Deck, edit: FigureEdit) -> list[Why]:
    """What the edit changes on every card of ``before`` (the deck without it) in
    ``after`` (with it): the figure's rounding, the scale of its bars."""
    category, value = edit.category, edit.value
    word, unit = WORDS[category], CATEGORY_UNITS[category]
    found: list[Why] = []
    was = decimals_for(v for _, v in _figures(before, category))
    now = decimals_for(v for _, v in _figures(after, category))
    if now > was:
        shown = format_number(value, was)
        twin = next(
            (
                (card, v)
                for card, v in _figures(after, category)
                if card.id != edit.card
                and v != value
                and round_shown(v, was) == round_shown(value, was)
            ),
            None,
        )
        same = (
            f"the same as {twin[0].name}'s {plain_number(twin[1])}"
            if twin is not None
            else "which no figure may print as"
        )
        nearest = nearest_keeping(after, edit, was)
        found.append(
            Why(
                f"{word} now printed with {_decimals_text(now)}: {plain_number(value)} would "
                f"print as {shown}, {same}",
                nearest,
                format_number(nearest, was) if nearest is not None else "",
            )
        )
    elif now < was:
        found.append(
            Why(
                f"{word} now printed as {_decimals_text(now)}: no two figures print alike "
                "without the decimal any more"
            )
        )
    old_top = scale_of([v for _, v in _figures(before, category)])[1]
    new_top = scale_of([v for _, v in _figures(after, category)])[1]
    if old_top != new_top:
        marks = "bar and peak" if category == "head_m" else "bar"
        found.append(
            Why(
                f"the {word} scale now goes to {plain_number(new_top)} {unit} (was "
                f"{plain_number(old_top)} {unit}): every {word} {marks} is drawn against it",
                old_top if value > old_top else None,
                format_number(old_top, now) if value > old_top else "",
            )
        )
    return found


def _decimals_text(decimals: int) -> str:
    return (
        "whole numbers"
        if decimals == 0
        else "one decimal"
        if decimals == 1
        else f"{decimals} decimals"
    )
