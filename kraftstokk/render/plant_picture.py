"""A plant card's picture: what kind of plant it is, and where in Norway it lies.

The picture box is split in two: on the left a small landscape whose motif shows the
plant's type (a reservoir high in the mountains, a pumped-storage plant with water going
both ways, a run-of-river plant in the river), with the card's suit in a disc and the
type named in bokmål; on the right a map of Norway with the plant marked
(:mod:`plant_map`). A plant without coordinates gets the landscape across the whole box,
and one without a type a neutral landscape without a name; a plant with neither keeps the
card's common landscape (:func:`has_plant_picture`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from reportlab.lib.colors import Color
from reportlab.pdfgen.canvas import Canvas

from kraftstokk.models import Card, PlantType
from kraftstokk.render.fonts import SANS_BOLD
from kraftstokk.render.geometry import Box, mm
from kraftstokk.render.palette import WHITE, Palette, mix
from kraftstokk.render.parts import Parts
from kraftstokk.render.plant_map import draw_plant_map
from kraftstokk.render.textlayer import TextLayer

#: What each type is called on the card.
TYPE_LABELS: dict[PlantType, str] = {
    "reservoir": "Magasinkraftverk",
    "run-of-river": "Elvekraftverk",
    "pumped-storage": "Pumpekraftverk",
}

MAP_WIDTH = 21.0  # mm: the map panel at the picture's right end
MAP_PADDING = 0.8  # mm around the outline
LABEL_SIZE = 7.0  # pt: light text on the water, at the print presets' minimum for reversed text
WATER = 0.2  # of the picture's height

Point = tuple[float, float]


@dataclass(frozen=True)
class Scene:
    """The landscape's frame in points, and where its water line and peak are."""

    x: float
    y: float
    w: float
    h: float
    head: float  # 0..1: the plant's head against the deck's range

    @property
    def water(self) -> float:
        return self.y + self.h * WATER

    def at(self, fx: float, fy: float) -> Point:
        """A point ``fx`` of the width across and ``fy`` of the height above the water."""
        return (self.x + self.w * fx, self.water + self.h * fy)


def has_plant_picture(card: Card) -> bool:
    """Whether the deck knows the plant's place or type; without either, the card keeps the
    landscape every card had before decks carried them (so an old deck prints as it did).
    """
    return card.type is not None or (card.lat is not None and card.lon is not None)


def draw_plant_picture(
    canvas: Canvas, box: Box, card: Card, head: float, palette: Palette, parts: Parts
) -> None:
    """The picture of plant card ``card`` in ``box`` (mm); ``head`` is 0..1 of the deck's range."""
    x, y, w, h = box.pt()
    has_place = card.lat is not None and card.lon is not None
    scene_w = w - mm(MAP_WIDTH) if has_place else w
    canvas.saveState()
    clip = canvas.beginPath()
    clip.roundRect(x, y, w, h, parts.corner_radius)
    canvas.clipPath(clip, stroke=0, fill=0)
    scene = Scene(x, y, scene_w, h, head)
    _draw_landscape(canvas, scene, card.type, palette)
    if has_place:
        _draw_map_panel(canvas, map_panel(box), card, palette, parts, map_box(box))
    canvas.restoreState()
    disc_x = x + min(mm(9.6), scene_w * 0.3)
    parts.disc(canvas, card.suit, disc_x, y + h * 0.52)
    if card.type is not None:
        text = TextLayer()
        text.add(TYPE_LABELS[card.type], SANS_BOLD, LABEL_SIZE, WHITE, x + mm(2.0), y + mm(1.6))
        text.draw(canvas)


BoxPt = tuple[float, float, float, float]


def map_panel(box: Box) -> BoxPt:
    """The map panel at the right end of the picture ``box`` (points)."""
    x, y, w, h = box.pt()
    return (x + w - mm(MAP_WIDTH), y, mm(MAP_WIDTH), h)


def map_box(box: Box) -> BoxPt:
    """Where the map of Norway is drawn in the picture ``box`` (points)."""
    px, py, pw, ph = map_panel(box)
    pad = mm(MAP_PADDING)
    return (px + pad, py + pad, pw - 2 * pad, ph - 2 * pad)


def _draw_map_panel(
    canvas: Canvas, panel: BoxPt, card: Card, palette: Palette, parts: Parts, inner: BoxPt
) -> None:
    px, py, pw, ph = panel
    canvas.setFillColor(palette.paper)
    canvas.rect(px, py, pw, ph, stroke=0, fill=1)
    canvas.setStrokeColor(palette.accent_light)
    canvas.setLineWidth(0.6)
    canvas.line(px, py, px, py + ph)
    draw_plant_map(canvas, inner, card.lat, card.lon, palette, parts)


# The landscape ---------------------------------------------------------------------------


def _polygon(canvas: Canvas, points: Sequence[Point], colour: Color) -> None:
    canvas.setFillColor(colour)
    path = canvas.beginPath()
    path.moveTo(*points[0])
    for point in points[1:]:
        path.lineTo(*point)
    path.close()
    canvas.drawPath(path, stroke=0, fill=1)


def _draw_landscape(canvas: Canvas, s: Scene, kind: PlantType | None, pal: Palette) -> None:
    low = kind == "run-of-river"
    rise = (0.16 + 0.12 * s.head) if low else (0.36 + 0.36 * s.head)
    back = [
        (s.x, s.water),
        s.at(0, 0.28 if not low else 0.16),
        s.at(0.14, 0.46 if not low else 0.24),
        s.at(0.3, 0.3 if not low else 0.14),
        s.at(0.45, 0.52 if not low else 0.26),
        s.at(0.58, 0.36 if not low else 0.18),
        s.at(0.78, rise),
        s.at(0.92, 0.42 if not low else 0.2),
        s.at(1, 0.48 if not low else 0.22),
        (s.x + s.w, s.water),
    ]
    _polygon(canvas, back, mix(pal.accent_light, pal.paper, 0.35))
    front = [
        (s.x, s.water),
        s.at(0.1, 0.16 if not low else 0.08),
        s.at(0.24, 0.06),
        s.at(0.6, 0.1 if not low else 0.05),
        s.at(0.7, rise * 0.55),
        s.at(0.86, 0.14 if not low else 0.06),
        s.at(1, 0.08),
        (s.x + s.w, s.water),
    ]
    _polygon(canvas, front, pal.accent_light)
    _draw_water(canvas, s, pal)
    if kind == "run-of-river":
        _draw_river_plant(canvas, s, pal)
    elif kind == "pumped-storage":
        _draw_pumped_storage(canvas, s, rise, pal)
    else:
        _draw_reservoir(canvas, s, rise, pal, dam=kind == "reservoir")


def _draw_water(canvas: Canvas, s: Scene, pal: Palette) -> None:
    water_h = s.water - s.y
    canvas.setFillColor(pal.accent)
    canvas.rect(s.x, s.y, s.w, water_h, stroke=0, fill=1)
    canvas.setStrokeColor(mix(pal.accent, WHITE, 0.45))
    canvas.setLineWidth(0.5)
    half, amp = mm(1.75), mm(0.5)
    wy = s.y + water_h * 0.62
    start = s.x + s.w * 0.62
    wave = canvas.beginPath()
    wave.moveTo(start, wy)
    sx = start
    while sx + 2 * half <= s.x + s.w - mm(1):
        wave.curveTo(sx + half, wy + amp, sx + half, wy - amp, sx + 2 * half, wy)
        sx += 2 * half
    canvas.drawPath(wave, stroke=1, fill=0)


def _station(canvas: Canvas, s: Scene, fx: float, pal: Palette) -> Point:
    """The power station by the water; returns the top of its intake."""
    sx = s.x + s.w * fx
    canvas.setFillColor(pal.accent_dark)
    canvas.rect(sx - mm(1.2), s.water, mm(2.4), mm(1.6), stroke=0, fill=1)
    return (sx, s.water + mm(1.1))


def _lake(canvas: Canvas, centre: Point, half_w: float, pal: Palette) -> None:
    lx, ly = centre
    canvas.setFillColor(pal.accent)
    canvas.ellipse(lx - half_w, ly - mm(0.6), lx + half_w, ly + mm(0.6), stroke=0, fill=1)


def _draw_reservoir(canvas: Canvas, s: Scene, rise: float, pal: Palette, dam: bool) -> None:
    """A lake high up, held by a dam, and the penstock down to the station."""
    lake = s.at(0.7, rise * 0.72)
    station = _station(canvas, s, 0.9, pal)
    canvas.setStrokeColor(pal.accent_dark)
    canvas.setLineWidth(0.9)
    canvas.line(lake[0] + mm(1.6), lake[1], *station)
    _lake(canvas, lake, mm(2.2), pal)
    if dam:
        canvas.setLineWidth(1.4)
        canvas.line(lake[0] + mm(2.2), lake[1] - mm(0.9), lake[0] + mm(2.2), lake[1] + mm(0.8))


def _arrow_head(canvas: Canvas, tip: Point, direction: Point, size: float, pal: Palette) -> None:
    """A filled triangle with its tip at ``tip``, pointing along the unit ``direction``."""
    (tx, ty), (ux, uy) = tip, direction
    bx, by = tx - ux * size, ty - uy * size
    spread = size * 0.55
    left = (bx - uy * spread, by + ux * spread)
    right = (bx + uy * spread, by - ux * spread)
    _polygon(canvas, [tip, left, right], pal.accent_dark)


def _draw_pumped_storage(canvas: Canvas, s: Scene, rise: float, pal: Palette) -> None:
    """An upper lake and the water below, joined by two pipes: down to run, up to pump."""
    lake = s.at(0.66, rise * 0.72)
    station = _station(canvas, s, 0.9, pal)
    top = (lake[0] + mm(1.4), lake[1])
    dx, dy = station[0] - top[0], station[1] - top[1]
    length = (dx * dx + dy * dy) ** 0.5
    down = (dx / length, dy / length)
    offset = mm(0.8)
    normal = (-down[1] * offset, down[0] * offset)
    canvas.setStrokeColor(pal.accent_dark)
    canvas.setLineWidth(0.6)
    size = mm(1.3)
    for side, sign in ((1, 1.0), (-1, -1.0)):
        a = (top[0] + side * normal[0], top[1] + side * normal[1])
        b = (station[0] + side * normal[0], station[1] + side * normal[1])
        canvas.line(*a, *b)
        # One arrow runs down its pipe (the plant runs), the other up (it pumps).
        mid = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
        direction = (down[0] * sign, down[1] * sign)
        tip = (mid[0] + direction[0] * size / 2, mid[1] + direction[1] * size / 2)
        _arrow_head(canvas, tip, direction, size, pal)
    _lake(canvas, lake, mm(2.6), pal)


def _draw_river_plant(canvas: Canvas, s: Scene, pal: Palette) -> None:
    """A station built across the river, a weir beside it, the current flowing through."""
    sx = s.x + s.w * 0.78
    water_h = s.water - s.y
    canvas.setFillColor(pal.accent_dark)
    canvas.rect(sx - mm(1.6), s.y + water_h * 0.25, mm(3.2), water_h * 0.75 + mm(2.0), 0, 1)
    canvas.setFillColor(pal.accent_pale)
    for k in range(3):
        canvas.rect(sx - mm(1.1) + k * mm(0.85), s.water + mm(0.5), mm(0.45), mm(0.9), 0, 1)
    canvas.setStrokeColor(WHITE)
    canvas.setLineWidth(0.6)
    for fx in (0.6, 0.92):
        cx, cy = s.x + s.w * fx, s.y + water_h * 0.55
        canvas.line(cx - mm(0.6), cy + mm(0.6), cx, cy)
        canvas.line(cx - mm(0.6), cy - mm(0.6), cx, cy)
