"""Fitting a plant name into the card's name box: shrink, then wrap to two lines.

The same function answers the validator's question "does this name fit on the card".
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

from kraftstokk.render.fonts import SANS_BOLD, missing_glyphs, text_width
from kraftstokk.render.geometry import CARD, mm

NAME_FONT = SANS_BOLD
MAX_SIZE = 16.0  # one line, shrunk down to ONE_LINE_MIN_SIZE
ONE_LINE_MIN_SIZE = 12.0
MAX_TWO_LINE_SIZE = 13.0  # then two lines, shrunk down to MIN_SIZE
MIN_SIZE = 9.0
STEP = 0.5
LEADING = 1.12  # line height / font size


@dataclass(frozen=True)
class NameFit:
    """How a name is set: ``fits`` False means it cannot go on the card as it is."""

    fits: bool
    font_size: float
    lines: list[str] = field(default_factory=list)
    reason: str = ""


def _sizes(largest: float, smallest: float = MIN_SIZE) -> list[float]:
    count = round((largest - smallest) / STEP)
    return [largest - i * STEP for i in range(count + 1)]


def _breaks(name: str) -> list[tuple[str, str]]:
    """Every two-line split at a space (dropped) or after a hyphen (kept)."""
    splits: list[tuple[str, str]] = []
    for i, ch in enumerate(name):
        if ch == " ":
            first, second = name[:i].rstrip(), name[i + 1 :].lstrip()
        elif ch == "-" and 0 < i < len(name) - 1:
            first, second = name[: i + 1], name[i + 1 :].lstrip()
        else:
            continue
        if first and second:
            splits.append((first, second))
    return splits


@lru_cache(maxsize=512)
def _fit(name: str, box_w: float, box_h: float) -> NameFit:
    name = " ".join(name.split())
    if not name:
        return NameFit(False, 0.0, [], "the name is empty")
    missing = missing_glyphs(name, NAME_FONT)
    if missing:
        shown = ", ".join(repr(ch) for ch in missing)
        return NameFit(False, 0.0, [], f"the card font has no glyph for {shown}")
    for size in _sizes(MAX_SIZE, ONE_LINE_MIN_SIZE):
        if text_width(name, NAME_FONT, size) <= box_w and size * LEADING <= box_h:
            return NameFit(True, size, [name])
    # Two lines: the split whose longer line is shortest, at the largest size that fits.
    splits = _breaks(name)
    if splits:
        best = min(
            splits,
            key=lambda s: max(text_width(s[0], NAME_FONT, 10), text_width(s[1], NAME_FONT, 10)),
        )
        widest = max(text_width(line, NAME_FONT, 1.0) for line in best)
        for size in _sizes(MAX_TWO_LINE_SIZE):
            if widest * size <= box_w and 2 * size * LEADING <= box_h:
                return NameFit(True, size, list(best))
        needed = widest * MIN_SIZE / mm(1)
        return NameFit(
            False,
            MIN_SIZE,
            list(best),
            f"name too long for the card: even on two lines at {MIN_SIZE:g} pt it is "
            f"{needed:.1f} mm wide; the name box is {box_w / mm(1):.1f} mm",
        )
    needed = text_width(name, NAME_FONT, MIN_SIZE) / mm(1)
    return NameFit(
        False,
        MIN_SIZE,
        [name],
        f"name too long for the card: {needed:.1f} mm at {MIN_SIZE:g} pt with no place to "
        f"break it; the name box is {box_w / mm(1):.1f} mm",
    )


def fit_name(name: str) -> NameFit:
    """Set ``name`` in the card's name box (inside the safe area), or say why it cannot be."""
    box = CARD.name_text
    return _fit(name, mm(box.w), mm(box.h))
