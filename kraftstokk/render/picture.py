"""A face's picture box: what kind of plant it is and where in Norway it lies, or, on a
joker and on a card whose deck knows neither, the landscape every card had before.

The plant's picture is split in two: on the left a small landscape whose motif shows the
plant's type (a reservoir high in the mountains, a pumped-storage plant with water going
both ways, a run-of-river plant in the river), with the card's suit in a disc and the
type named in bokmål; on the right a map of Norway with the plant marked
(:mod:`plant_map`). A plant without coordinates gets the landscape across the whole box,
and one without a type a neutral landscape without a name. In every landscape the peak
rises with the plant's head.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from reportlab.lib.colors import Color
from reportlab.pdfgen.canvas import Canvas

from kraftstokk.design.fonts import SANS_BOLD
from kraftstokk.design.geometry import mm
from kraftstokk.design.layout import CardLayout
from kraftstokk.design.map_frame import BoxPt
from kraftstokk.design.palette import WHITE, Palette, mix
from kraftstokk.design.picture_plan import MAP_WIDTH, has_plant_picture, map_box, map_panel
from kraftstokk.models import Card, PlantType
from kraftstokk.render.forms import FormNames, ascii_name, place, square
from kraftstokk.render.plant_map import draw_plant_map
from kraftstokk.render.suits import BOLT, draw_shape, draw_suit
from kraftstokk.render.textlayer import TextLayer

#: What each type is called on the card.
TYPE_LABELS: dict[PlantType, str] = {
    "reservoir": "Magasinkraftverk",
    "run-of-river": "Elvekraftverk",
    "pumped-storage": "Pumpekraftverk",
}

LABEL_SIZE = 8.0  # pt: light text on the water, knocked out of its inks: 8 pt is register-safe
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


def draw_picture(
    canvas: Canvas,
    card: Card,
    head: float,
    layout: CardLayout,
    palette: Palette,
    forms: FormNames,
) -> None:
    """The picture box of ``card``; ``head`` is 0..1 of the deck's range (a joker's 0.5)."""
    if not card.joker and has_plant_picture(card):
        _draw_plant_picture(canvas, card, head, layout, palette, forms)
    else:
        _draw_common_landscape(canvas, card, head, layout, palette, forms)


def _draw_plant_picture(
    canvas: Canvas,
    card: Card,
    head: float,
    layout: CardLayout,
    palette: Palette,
    forms: FormNames,
) -> None:
    x, y, w, h = layout.boxes.picture.pt()
    has_place = card.lat is not None and card.lon is not None
    scene_w = w - mm(MAP_WIDTH) if has_place else w
    canvas.saveState()
    clip = canvas.beginPath()
    clip.roundRect(x, y, w, h, mm(layout.spec.card.corner_radius))
    canvas.clipPath(clip, stroke=0, fill=0)
    scene = Scene(x, y, scene_w, h, head)
    _draw_landscape(canvas, scene, card.type, palette)
    if has_place:
        box = layout.boxes.picture
        _draw_map_panel(canvas, map_panel(box), card, palette, forms, map_box(box))
    canvas.restoreState()
    disc_x = x + min(mm(9.6), scene_w * 0.3)
    _draw_disc(canvas, card.suit, disc_x, y + h * 0.52, layout, palette, forms)
    if card.type is not None:
        text = TextLayer()
        text.add(TYPE_LABELS[card.type], SANS_BOLD, LABEL_SIZE, WHITE, x + mm(2.0), y + mm(1.6))
        text.draw(canvas)


def _draw_disc(
    canvas: Canvas,
    suit: str | None,
    cx: float,
    cy: float,
    layout: CardLayout,
    pal: Palette,
    forms: FormNames,
) -> None:
    """The suit in a white disc (the joker's bolt when ``suit`` is None), one form per suit."""
    r = mm(layout.spec.picture.disc_radius)

    def draw(c: Canvas) -> None:
        c.setFillColor(pal.paper)
        c.setStrokeColor(pal.accent_light)
        c.setLineWidth(0.8)
        c.circle(0, 0, r, stroke=1, fill=1)
        if suit is None:
            c.setFillColor(pal.gold)
            draw_shape(c, BOLT, 0, 0, r * 1.35)
        else:
            c.setFillColor(pal.suit_colour(suit))
            draw_suit(c, suit, 0, 0, r * 1.15)

    name = forms(f"Disc{ascii_name(suit or 'joker')}")
    place(canvas, name, square(2 * r + 2), draw, cx, cy)


def _draw_map_panel(
    canvas: Canvas, panel: BoxPt, card: Card, palette: Palette, forms: FormNames, inner: BoxPt
) -> None:
    px, py, pw, ph = panel
    canvas.setFillColor(palette.paper)
    canvas.rect(px, py, pw, ph, stroke=0, fill=1)
    canvas.setStrokeColor(palette.accent_light)
    canvas.setLineWidth(0.6)
    canvas.line(px, py, px, py + ph)
    draw_plant_map(canvas, inner, card.lat, card.lon, palette, forms)


# The common landscape --------------------------------------------------------------------


def _draw_common_landscape(
    canvas: Canvas,
    card: Card,
    head: float,
    layout: CardLayout,
    pal: Palette,
    forms: FormNames,
) -> None:
    """A fjord landscape with a penstock, and the suit (a joker's bolt) in a disc."""
    x, y, w, h = layout.boxes.picture.pt()
    water = y + h * WATER
    peak = water + h * (0.36 + 0.36 * head)
    back = [
        (x, water),
        (x, water + h * 0.28),
        (x + w * 0.12, water + h * 0.46),
        (x + w * 0.27, water + h * 0.3),
        (x + w * 0.4, water + h * 0.52),
        (x + w * 0.52, water + h * 0.36),
        (x + w * 0.78, peak),
        (x + w * 0.92, water + h * 0.42),
        (x + w, water + h * 0.48),
        (x + w, water),
    ]
    _polygon(canvas, back, mix(pal.accent_light, pal.paper, 0.35))
    front = [
        (x, water),
        (x + w * 0.1, water + h * 0.16),
        (x + w * 0.22, water + h * 0.06),
        (x + w * 0.62, water + h * 0.1),
        (x + w * 0.7, water + (peak - water) * 0.55),
        (x + w * 0.86, water + h * 0.14),
        (x + w, water + h * 0.08),
        (x + w, water),
    ]
    _polygon(canvas, front, pal.accent_light)
    # Penstock: from a lake below the peak down to the power station by the fjord.
    lake_x, lake_y = x + w * 0.72, water + (peak - water) * 0.72
    station_x = x + w * 0.9
    canvas.setStrokeColor(pal.accent_dark)
    canvas.setLineWidth(0.9)
    canvas.line(lake_x, lake_y, station_x, water + mm(1.1))
    canvas.setFillColor(pal.accent)
    canvas.ellipse(lake_x - mm(2.2), lake_y - mm(0.6), lake_x + mm(2.2), lake_y + mm(0.6), 0, 1)
    canvas.setFillColor(pal.accent_dark)
    canvas.rect(station_x - mm(1.1), water, mm(2.4), mm(1.6), stroke=0, fill=1)
    _draw_fjord(canvas, water - y, layout, pal, forms)
    suit = None if card.joker else card.suit
    _draw_disc(canvas, suit, x + w * 0.3, y + h * 0.52, layout, pal, forms)


def _draw_fjord(
    canvas: Canvas, water_h: float, layout: CardLayout, pal: Palette, forms: FormNames
) -> None:
    """The fjord along the picture's bottom edge, waves and rounded corners included."""
    x, y, w, _ = layout.boxes.picture.pt()
    r = mm(layout.spec.card.corner_radius)

    def draw(c: Canvas) -> None:
        path = c.beginPath()
        path.moveTo(0, water_h)
        path.lineTo(w, water_h)
        path.lineTo(w, r)
        path.arcTo(w - 2 * r, 0, w, 2 * r, startAng=0, extent=-90)
        path.lineTo(r, 0)
        path.arcTo(0, 0, 2 * r, 2 * r, startAng=-90, extent=-90)
        path.close()
        c.setFillColor(pal.accent)
        c.drawPath(path, stroke=0, fill=1)
        c.setStrokeColor(mix(pal.accent, pal.white, 0.45))
        c.setLineWidth(0.5)
        for k in range(2):
            wy = water_h * (0.62 - 0.32 * k)
            wave = c.beginPath()
            start = mm(2 + 3 * k)
            wave.moveTo(start, wy)
            half, amp = mm(1.75), mm(0.5)
            for i in range(14):
                sx = start + i * 2 * half
                wave.curveTo(sx + half, wy + amp, sx + half, wy - amp, sx + 2 * half, wy)
            c.drawPath(wave, stroke=1, fill=0)

    place(canvas, forms("ArtWater"), (0, 0, w, water_h), draw, x, y)


# The plant's landscape -----------------------------------------------------------------


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
