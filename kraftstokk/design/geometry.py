"""Boxes in millimetres and the conversion to PDF points.

A card's named boxes (:mod:`kraftstokk.design.layout`) are relative to the lower-left
corner of its cut line; the sheet layout (:mod:`kraftstokk.render.sheet_layout`) places
cards on a page with the same boxes.
"""

from __future__ import annotations

from dataclasses import dataclass

MM = 72.0 / 25.4  # points per millimetre


def mm(value: float) -> float:
    """Millimetres to PDF points."""
    return value * MM


@dataclass(frozen=True)
class Box:
    """An axis-aligned rectangle in millimetres: lower-left corner, width, height."""

    x: float
    y: float
    w: float
    h: float

    @property
    def right(self) -> float:
        return self.x + self.w

    @property
    def top(self) -> float:
        return self.y + self.h

    def inset(self, d: float) -> Box:
        return Box(self.x + d, self.y + d, self.w - 2 * d, self.h - 2 * d)

    def shifted(self, dx: float, dy: float) -> Box:
        return Box(self.x + dx, self.y + dy, self.w, self.h)

    def rotated_180(self, width: float, height: float) -> Box:
        """The box turned half a turn inside a width x height frame."""
        return Box(width - self.right, height - self.top, self.w, self.h)

    def contains(self, x: float, y: float, tolerance: float = 0.0) -> bool:
        return (
            self.x - tolerance <= x <= self.right + tolerance
            and self.y - tolerance <= y <= self.top + tolerance
        )

    def pt(self) -> tuple[float, float, float, float]:
        """(x, y, w, h) in points."""
        return (mm(self.x), mm(self.y), mm(self.w), mm(self.h))
