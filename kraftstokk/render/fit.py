"""Fitting a plant name into the card's name box: shrink, then wrap to two lines.

The same function answers the validator's question "does this name fit on the card".
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

from kraftstokk.limits import MAX_NAME_LENGTH
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


def _breaks(name: str) -> list[tuple[int, int]]:
    """Every two-line split at a space (dropped) or after a hyphen (kept), as the end of
    the first line and the start of the second in ``name`` (whitespace already collapsed)."""
    splits: list[tuple[int, int]] = []
    for i, ch in enumerate(name):
        if ch == " ":
            end, start = i, i + 1
        elif ch == "-" and 0 < i < len(name) - 1:
            end, start = i + 1, i + 1
            if name[start] == " ":
                start += 1
        else:
            continue
        if end > 0 and start < len(name):
            splits.append((end, start))
    return splits


def _best_split(name: str) -> tuple[str, str] | None:
    """The split whose longer line is shortest, in one pass: glyph widths add up (no
    kerning), so each line's width is a difference of running sums."""
    splits = _breaks(name)
    if not splits:
        return None
    running = [0.0]
    for ch in name:
        running.append(running[-1] + text_width(ch, NAME_FONT, 1.0))
    total = running[-1]
    end, start = min(splits, key=lambda s: max(running[s[0]], total - running[s[1]]))
    return name[:end], name[start:]


@lru_cache(maxsize=512)
def _fit(name: str, box_w: float, box_h: float) -> NameFit:
    if len(name) > 4 * MAX_NAME_LENGTH:  # not even worth collapsing its whitespace
        return _too_many_characters(len(name))
    name = " ".join(name.split())
    if not name:
        return NameFit(False, 0.0, [], "the name is empty")
    if len(name) > MAX_NAME_LENGTH:
        return _too_many_characters(len(name))
    missing = missing_glyphs(name, NAME_FONT)
    if missing:
        shown = ", ".join(repr(ch) for ch in missing)
        return NameFit(False, 0.0, [], f"the card font has no glyph for {shown}")
    for size in _sizes(MAX_SIZE, ONE_LINE_MIN_SIZE):
        if text_width(name, NAME_FONT, size) <= box_w and size * LEADING <= box_h:
            return NameFit(True, size, [name])
    # Two lines: the split whose longer line is shortest, at the largest size that fits.
    best = _best_split(name)
    if best is not None:
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
    # With no place to break it, a name has one line, at ONE_LINE_MIN_SIZE at the least.
    needed = text_width(name, NAME_FONT, ONE_LINE_MIN_SIZE) / mm(1)
    return NameFit(
        False,
        ONE_LINE_MIN_SIZE,
        [name],
        f"name too long for the card: with no place to break it, it must fit on one line "
        f"at {ONE_LINE_MIN_SIZE:g} pt or more, where it is {needed:.1f} mm wide; the name box "
        f"is {box_w / mm(1):.1f} mm",
    )


def _too_many_characters(count: int) -> NameFit:
    return NameFit(
        False,
        0.0,
        [],
        f"name too long for the card: {count} characters (at most {MAX_NAME_LENGTH})",
    )


def fit_name(name: str) -> NameFit:
    """Set ``name`` in the card's name box (inside the safe area), or say why it cannot be."""
    box = CARD.name_text
    return _fit(name, mm(box.w), mm(box.h))
