"""Vector symbols: the four suits, a star (top-3 mark), an eye (invisible mark), a bolt.

Shapes are outlines in a unit square centred on the origin (y up), drawn at any size by
scaling the coordinates, so no font is needed for them.
"""

from __future__ import annotations

from collections.abc import Sequence
from math import cos, pi, sin

from reportlab.pdfgen.canvas import Canvas

FILL_NON_ZERO = 1

# A path is a list of segments: ("M", x, y), ("L", x, y), ("C", x1, y1, x2, y2, x3, y3),
# ("O", cx, cy, r) for a circle, ("Z",) to close.
Segment = tuple[float | str, ...]

HEART: tuple[Segment, ...] = (
    ("M", 0.0, -0.5),
    ("C", -0.1, -0.36, -0.5, -0.12, -0.5, 0.17),
    ("C", -0.5, 0.4, -0.34, 0.5, -0.24, 0.5),
    ("C", -0.1, 0.5, -0.02, 0.41, 0.0, 0.31),
    ("C", 0.02, 0.41, 0.1, 0.5, 0.24, 0.5),
    ("C", 0.34, 0.5, 0.5, 0.4, 0.5, 0.17),
    ("C", 0.5, -0.12, 0.1, -0.36, 0.0, -0.5),
    ("Z",),
)

DIAMOND: tuple[Segment, ...] = (
    ("M", 0.0, 0.5),
    ("C", 0.12, 0.3, 0.26, 0.13, 0.4, 0.0),
    ("C", 0.26, -0.13, 0.12, -0.3, 0.0, -0.5),
    ("C", -0.12, -0.3, -0.26, -0.13, -0.4, 0.0),
    ("C", -0.26, 0.13, -0.12, 0.3, 0.0, 0.5),
    ("Z",),
)

_STEM: tuple[Segment, ...] = (
    ("M", -0.035, -0.12),
    ("C", -0.04, -0.3, -0.1, -0.44, -0.22, -0.5),
    ("L", 0.22, -0.5),
    ("C", 0.1, -0.44, 0.04, -0.3, 0.035, -0.12),
    ("Z",),
)

SPADE: tuple[Segment, ...] = (
    ("M", 0.0, 0.5),
    ("C", 0.1, 0.34, 0.48, 0.16, 0.48, -0.09),
    ("C", 0.48, -0.28, 0.34, -0.36, 0.23, -0.36),
    ("C", 0.12, -0.36, 0.04, -0.29, 0.0, -0.2),
    ("C", -0.04, -0.29, -0.12, -0.36, -0.23, -0.36),
    ("C", -0.34, -0.36, -0.48, -0.28, -0.48, -0.09),
    ("C", -0.48, 0.16, -0.1, 0.34, 0.0, 0.5),
    ("Z",),
    *_STEM,
)

CLUB: tuple[Segment, ...] = (
    ("O", 0.0, 0.27, 0.21),
    ("O", -0.25, -0.07, 0.21),
    ("O", 0.25, -0.07, 0.21),
    ("M", 0.0, 0.2),
    ("L", 0.15, -0.05),
    ("L", 0.0, -0.15),
    ("L", -0.15, -0.05),
    ("Z",),
    *_STEM,
)

SUIT_SHAPES: dict[str, tuple[Segment, ...]] = {
    "spar": SPADE,
    "kløver": CLUB,
    "hjerter": HEART,
    "ruter": DIAMOND,
}


def _star(points: int = 5, outer: float = 0.5, inner: float = 0.2) -> tuple[Segment, ...]:
    segments: list[Segment] = []
    for i in range(points * 2):
        r = outer if i % 2 == 0 else inner
        angle = pi / 2 + i * pi / points
        segments.append(("M" if i == 0 else "L", r * cos(angle), r * sin(angle) - 0.03))
    segments.append(("Z",))
    return tuple(segments)


STAR = _star()

#: A zigzag bolt, the same after a half turn (it is drawn on the symmetric card back).
BOLT: tuple[Segment, ...] = (
    ("M", 0.16, 0.5),
    ("L", -0.22, -0.06),
    ("L", -0.03, -0.06),
    ("L", -0.16, -0.5),
    ("L", 0.22, 0.06),
    ("L", 0.03, 0.06),
    ("Z",),
)


def draw_shape(
    canvas: Canvas,
    shape: Sequence[Segment],
    cx: float,
    cy: float,
    size: float,
    fill: bool = True,
    stroke: bool = False,
) -> None:
    """Draw ``shape`` centred on (cx, cy), ``size`` points tall, in the current colours."""
    path = canvas.beginPath()
    for seg in shape:
        op = seg[0]
        nums = [float(v) for v in seg[1:]]
        if op == "M":
            path.moveTo(cx + nums[0] * size, cy + nums[1] * size)
        elif op == "L":
            path.lineTo(cx + nums[0] * size, cy + nums[1] * size)
        elif op == "C":
            points = [(cx if i % 2 == 0 else cy) + v * size for i, v in enumerate(nums)]
            path.curveTo(*points)
        elif op == "O":
            path.circle(cx + nums[0] * size, cy + nums[1] * size, nums[2] * size)
        else:
            path.close()
    canvas.drawPath(path, stroke=int(stroke), fill=int(fill), fillMode=FILL_NON_ZERO)


def draw_suit(canvas: Canvas, suit: str, cx: float, cy: float, size: float) -> None:
    draw_shape(canvas, SUIT_SHAPES[suit], cx, cy, size)


def draw_eye_slash(canvas: Canvas, cx: float, cy: float, size: float, width: float) -> None:
    """An eye struck through: the mark of an invisible card (stroked, current stroke colour)."""
    h = size * 0.5
    path = canvas.beginPath()
    path.moveTo(cx - h, cy)
    path.curveTo(cx - h * 0.5, cy + h * 0.75, cx + h * 0.5, cy + h * 0.75, cx + h, cy)
    path.curveTo(cx + h * 0.5, cy - h * 0.75, cx - h * 0.5, cy - h * 0.75, cx - h, cy)
    path.close()
    path.circle(cx, cy, h * 0.28)
    path.moveTo(cx - h * 0.8, cy - h * 0.8)
    path.lineTo(cx + h * 0.8, cy + h * 0.8)
    canvas.setLineWidth(width)
    canvas.drawPath(path, stroke=1, fill=0)
