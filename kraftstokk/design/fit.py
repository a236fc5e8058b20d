"""Fitting text into its box: a plant name into the card's name box (shrink, then wrap to
two lines), and any text into lines of a width (the jokers' rules, the small print).

The same function answers the validator's question "does this name fit on the card".
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

from kraftstokk.design.fonts import missing_glyphs, text_width
from kraftstokk.design.geometry import mm
from kraftstokk.design.layout import CardLayout
from kraftstokk.limits import MAX_NAME_LENGTH


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


def best_split(name: str, font: str) -> tuple[str, str] | None:
    """The split whose longer line is shortest, in one pass: glyph widths add up (no
    kerning), so each line's width is a difference of running sums."""
    splits = _breaks(name)
    if not splits:
        return None
    running = [0.0]
    for ch in name:
        running.append(running[-1] + text_width(ch, font, 1.0))
    total = running[-1]
    end, start = min(splits, key=lambda s: max(running[s[0]], total - running[s[1]]))
    return name[:end], name[start:]


@lru_cache(maxsize=1024)
def _fit(name: str, rules: FitRules) -> NameFit:
    font, box_w, box_h, leading = rules.font, rules.box_w, rules.box_h, rules.leading
    min_size = rules.min_size
    if len(name) > 4 * MAX_NAME_LENGTH:  # not even worth collapsing its whitespace
        return _too_many_characters(len(name))
    name = " ".join(name.split())
    if not name:
        return NameFit(False, 0.0, [], "the name is empty")
    if len(name) > MAX_NAME_LENGTH:
        return _too_many_characters(len(name))
    missing = missing_glyphs(name, font)
    if missing:
        shown = ", ".join(repr(ch) for ch in missing)
        return NameFit(False, 0.0, [], f"the card font has no glyph for {shown}")
    for size in _sizes(rules.max_size, rules.one_line_min, rules.step):
        if text_width(name, font, size) <= box_w and size * leading <= box_h:
            return NameFit(True, size, [name])
    # Two lines: the split whose longer line is shortest, at the largest size that fits.
    best = best_split(name, font)
    if best is not None:
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
    # With no place to break it, a name has one line, at one_line_min at the least.
    one_line_min = rules.one_line_min
    needed = text_width(name, font, one_line_min) / mm(1)
    return NameFit(
        False,
        one_line_min,
        [name],
        f"name too long for the card: with no place to break it, it must fit on one line "
        f"at {one_line_min:g} pt or more, where it is {needed:.1f} mm wide; the name box "
        f"is {box_w / mm(1):.1f} mm",
    )


def _too_many_characters(count: int) -> NameFit:
    return NameFit(
        False,
        0.0,
        [],
        f"name too long for the card: {count} characters (at most {MAX_NAME_LENGTH})",
    )


def wrap(text: str, font: str, size: float, width: float) -> list[str]:
    """Greedy word wrap to ``width`` points."""
    lines: list[str] = []
    current = ""
    for word in text.split():
        trial = f"{current} {word}".strip()
        if current and text_width(trial, font, size) > width:
            lines.append(current)
            current = word
        else:
            current = trial
    if current:
        lines.append(current)
    return lines


def fit_name(name: str, layout: CardLayout) -> NameFit:
    """Set ``name`` in the layout's name box (inside the safe area), or say why it cannot be."""
    return _fit(name, FitRules.of(layout))
