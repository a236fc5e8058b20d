"""Fitting a plant name into the card's name box: shrink, then wrap to two lines.

The same function answers the validator's question "does this name fit on the card".
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

from kraftstokk.render.fonts import missing_glyphs, text_width
from kraftstokk.render.geometry import mm
from kraftstokk.render.layout import CardLayout


@dataclass(frozen=True)
class NameFit:
    """How a name is set: ``fits`` False means it cannot go on the card as it is."""

    fits: bool
    font_size: float
    lines: list[str] = field(default_factory=list)
    reason: str = ""


@dataclass(frozen=True)
class FitRules:
    """The name box and the sizes to try (from the layout's ``styles.name`` and ``name_fit``)."""

    font: str
    box_w: float  # points
    box_h: float
    max_size: float  # one line, shrunk down to one_line_min
    one_line_min: float
    two_line_max: float  # then two lines, shrunk down to min_size
    min_size: float
    step: float
    leading: float  # line height / font size

    @classmethod
    def of(cls, layout: CardLayout) -> FitRules:
        style, fit = layout.styles.name, layout.spec.name_fit
        box = layout.boxes.name_text
        return cls(
            font=style.face,
            box_w=mm(box.w),
            box_h=mm(box.h),
            max_size=style.size,
            one_line_min=fit.one_line_min,
            two_line_max=fit.two_line_max,
            min_size=fit.two_line_min,
            step=fit.step,
            leading=style.leading,
        )


def _sizes(largest: float, smallest: float, step: float) -> list[float]:
    count = round((largest - smallest) / step)
    return [largest - i * step for i in range(count + 1)]


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


@lru_cache(maxsize=1024)
def _fit(name: str, rules: FitRules) -> NameFit:
    font, box_w, box_h, leading = rules.font, rules.box_w, rules.box_h, rules.leading
    min_size = rules.min_size
    name = " ".join(name.split())
    if not name:
        return NameFit(False, 0.0, [], "the name is empty")
    missing = missing_glyphs(name, font)
    if missing:
        shown = ", ".join(repr(ch) for ch in missing)
        return NameFit(False, 0.0, [], f"the card font has no glyph for {shown}")
    for size in _sizes(rules.max_size, rules.one_line_min, rules.step):
        if text_width(name, font, size) <= box_w and size * leading <= box_h:
            return NameFit(True, size, [name])
    # Two lines: the split whose longer line is shortest, at the largest size that fits.
    splits = _breaks(name)
    if splits:
        best = min(
            splits,
            key=lambda s: max(text_width(s[0], font, 10), text_width(s[1], font, 10)),
        )
        widest = max(text_width(line, font, 1.0) for line in best)
        for size in _sizes(rules.two_line_max, min_size, rules.step):
            if widest * size <= box_w and 2 * size * leading <= box_h:
                return NameFit(True, size, list(best))
        needed = widest * min_size / mm(1)
        return NameFit(
            False,
            min_size,
            list(best),
            f"name too long for the card: even on two lines at {min_size:g} pt it is "
            f"{needed:.1f} mm wide; the name box is {box_w / mm(1):.1f} mm",
        )
    needed = text_width(name, font, min_size) / mm(1)
    return NameFit(
        False,
        min_size,
        [name],
        f"name too long for the card: {needed:.1f} mm at {min_size:g} pt with no place to "
        f"break it; the name box is {box_w / mm(1):.1f} mm",
    )


def fit_name(name: str, layout: CardLayout) -> NameFit:
    """Set ``name`` in the layout's name box (inside the safe area), or say why it cannot be."""
    return _fit(name, FitRules.of(layout))
