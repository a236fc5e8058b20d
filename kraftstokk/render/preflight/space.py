"""Page geometry: PDF's transformation matrices and the bounding boxes of what is painted."""

from __future__ import annotations

import math

MM = 72 / 25.4

Matrix = tuple[float, float, float, float, float, float]
IDENTITY: Matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
BBox = tuple[float, float, float, float]
Point = tuple[float, float]
Segment = tuple[Point, Point]
#: A clip that shows nothing.
EMPTY: BBox = (0.0, 0.0, 0.0, 0.0)


def multiply(m: Matrix, n: Matrix) -> Matrix:
    """m then n (PDF's row-vector convention: a point p maps to p·m·n)."""
    a, b, c, d, e, f = m
    a2, b2, c2, d2, e2, f2 = n
    return (
        a * a2 + b * c2,
        a * b2 + b * d2,
        c * a2 + d * c2,
        c * b2 + d * d2,
        e * a2 + f * c2 + e2,
        e * b2 + f * d2 + f2,
    )


def apply(m: Matrix, x: float, y: float) -> Point:
    return (m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5])


def turn(m: Matrix, vector: Point) -> Point:
    """A direction (not a point) under m: its linear part only."""
    x, y = vector
    return (m[0] * x + m[2] * y, m[1] * x + m[3] * y)


def scale_of(m: Matrix) -> float:
    """How much a length grows under m (the geometric mean of its two axes)."""
    return math.sqrt(abs(m[0] * m[3] - m[1] * m[2]))


def vertical_scale(m: Matrix) -> float:
    """How much a vertical unit grows under m: the height a font size becomes."""
    return math.hypot(m[2], m[3])


def bbox_of(points: list[Point]) -> BBox:
    xs = [p[0] for p in points if not math.isnan(p[0])]
    ys = [p[1] for p in points if not math.isnan(p[1])]
    return (min(xs), min(ys), max(xs), max(ys))


def transformed(box: BBox, m: Matrix) -> BBox:
    """The bounding box of ``box`` under m (exact when m keeps axes parallel)."""
    if m == IDENTITY:
        return box
    x0, y0, x1, y1 = box
    return bbox_of([apply(m, x, y) for x in (x0, x1) for y in (y0, y1)])


def intersect(a: BBox, b: BBox | None) -> BBox | None:
    """The overlap of two boxes; None when they do not overlap."""
    if b is None:
        return a
    box = (max(a[0], b[0]), max(a[1], b[1]), min(a[2], b[2]), min(a[3], b[3]))
    return box if box[0] <= box[2] and box[1] <= box[3] else None
