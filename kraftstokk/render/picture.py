"""A face's picture box: the plant's own scene, drawn from its plan, and the map of Norway
with the plant marked; on a joker, a landscape with the joker's bolt.

The plan (:mod:`kraftstokk.design.picture_plan`) says what goes where; this module only
paints it, back to front: the sky, the far range and the ridge with their snow, the
mountain the upper water lies in, the water below, the upper water, the dams, the
penstock, the station, the waves, the type's name on the water and the suit in its disc.
The layout gives every size and names every colour (``[picture]``, ``[picture.colours]``,
``[map]``); strokes are 0.5 pt and up and light text 8 pt and up, so the picture stays
register-safe in a print file.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from itertools import pairwise

from reportlab.lib.colors import Color
from reportlab.pdfgen.canvas import Canvas

from kraftstokk.design.geometry import Box, mm
from kraftstokk.design.layout import CardLayout, PictureColours, PictureMeasures
from kraftstokk.design.palette import Palette
from kraftstokk.design.picture_plan import (
    Dam,
    PicturePlan,
    Point,
    joker_landscape,
    map_box,
    map_panel,
)
from kraftstokk.models import Card
from kraftstokk.render.forms import FormNames, ascii_name, place, square
from kraftstokk.render.plant_map import draw_plant_map
from kraftstokk.render.suits import BOLT, draw_shape, draw_suit
from kraftstokk.render.textlayer import TextLayer

#: The type's name sits on its box's floor with room for its descenders, in ems.
LABEL_DESCENT = 0.24


class Paints:
    """The picture's colours from the palette, by the names the layout gives."""

    sky: Color
    haze: Color
    ridge: Color
    snow: Color
    mountain: Color
    mountain_shade: Color
    water: Color
    lake: Color
    wave: Color
    dam: Color
    station: Color
    window: Color
    penstock: Color
    flow: Color
    disc: Color
    disc_ring: Color
    joker_bolt: Color

    def __init__(self, colours: PictureColours, palette: Palette) -> None:
        self.palette = palette
        for part, name in colours:
            setattr(self, part, palette.named(name))


def draw_picture(
    canvas: Canvas,
    card: Card,
    plan: PicturePlan | None,
    label: str | None,
    layout: CardLayout,
    palette: Palette,
    forms: FormNames,
) -> None:
    """The picture box of ``card``: its plan's scene and its map, with its type's name
    ``label`` on the water; a joker's landscape."""
    paints = Paints(layout.spec.picture.colours, palette)
    box = layout.boxes.picture
    canvas.saveState()
    clip = canvas.beginPath()
    clip.roundRect(*box.pt(), mm(layout.spec.card.corner_radius))
    canvas.clipPath(clip, stroke=0, fill=0)
    if plan is None:
        _draw_joker_landscape(canvas, layout, paints)
    else:
        _draw_scene(canvas, plan, layout.spec.picture, paints, layout.boxes.type_label)
        _draw_map_panel(canvas, card, layout, paints, forms)
    canvas.restoreState()
    disc = layout.boxes.disc
    if plan is None:  # the joker's disc in the middle of its landscape
        disc = Box(box.x + (box.w - disc.w) / 2, disc.y, disc.w, disc.h)
    _draw_disc(canvas, None if plan is None else card.suit, disc, layout, paints, forms)
    if plan is not None and label is not None:
        style = layout.styles.type_label
        where = layout.boxes.type_label
        text = TextLayer()
        baseline = mm(where.y) + style.size * LABEL_DESCENT
        colour = palette.named(style.colour)
        text.add(label, style.face, style.size, colour, mm(where.x), baseline)
        text.draw(canvas)


# Shapes in card millimetres --------------------------------------------------------------


def _polygon(canvas: Canvas, points: Sequence[Point], colour: Color) -> None:
    canvas.setFillColor(colour)
    path = canvas.beginPath()
    (x0, y0), *rest = points
    path.moveTo(mm(x0), mm(y0))
    for x, y in rest:
        path.lineTo(mm(x), mm(y))
    path.close()
    canvas.drawPath(path, stroke=0, fill=1)


def _rect(canvas: Canvas, x: float, y: float, w: float, h: float, colour: Color) -> None:
    canvas.setFillColor(colour)
    canvas.rect(mm(x), mm(y), mm(w), mm(h), stroke=0, fill=1)


def _line(canvas: Canvas, a: Point, b: Point, width: float, colour: Color) -> None:
    canvas.setStrokeColor(colour)
    canvas.setLineWidth(width)
    canvas.setLineCap(1)
    canvas.line(mm(a[0]), mm(a[1]), mm(b[0]), mm(b[1]))
    canvas.setLineCap(0)


# The plant's scene -----------------------------------------------------------------------


def _draw_scene(
    canvas: Canvas, plan: PicturePlan, m: PictureMeasures, p: Paints, label: Box
) -> None:
    scene = plan.scene
    _rect(canvas, scene.x, scene.y, scene.w, scene.h, p.sky)
    for layer, colour in ((plan.far_range, p.haze), (plan.ridge, p.ridge)):
        _polygon(canvas, layer, colour)
        _draw_snow(canvas, layer[1:-1], plan.snow_line, m.snow_reach, p)
    _draw_mountain(canvas, plan, m, p)
    _rect(canvas, scene.x, scene.y, scene.w, plan.water - scene.y, p.water)
    if plan.lower_dam is not None:
        _draw_lower_reservoir(canvas, plan, plan.lower_dam, p)
    _draw_upper_water(canvas, plan, p)
    if plan.dam is not None and plan.kind == "run-of-river":
        _draw_weir(canvas, plan.dam, m, p)
    elif plan.dam is not None:
        _polygon(canvas, plan.dam.outline, p.dam)
    if plan.penstock is not None and plan.kind == "pumped-storage":
        _draw_two_way_pipes(canvas, plan.penstock, m, p)
    elif plan.penstock is not None:
        _line(canvas, *plan.penstock, m.penstock_width, p.penstock)
    _draw_station(canvas, plan.station, m, p)
    # Waves on the water below, right of the type's name (never through it)
    right = plan.lower_dam.face if plan.lower_dam is not None else scene.right
    start = label.right + 0.8 if plan.kind is not None else scene.x + 1.0
    y = scene.y + (plan.water - scene.y) / 2
    _draw_waves(canvas, start, right - 0.8, y, m, p)
    if plan.kind == "run-of-river":
        _draw_current(canvas, plan, m, p)


def _draw_snow(
    canvas: Canvas, line: Sequence[Point], snow_line: float | None, reach: float, p: Paints
) -> None:
    if snow_line is None:
        return
    cap = snow_cap(line, snow_line, reach)
    if cap:
        _polygon(canvas, cap, p.snow)


def snow_cap(line: Sequence[Point], level: float, reach: float) -> list[Point]:
    """The snow on ``line`` (a skyline, left to right) above ``level``: the line itself where
    it is above, and below it a copy pressed towards the level (``reach`` of its height
    above it), so each peak's cap reaches further down the higher the peak stands."""
    top: list[Point] = []
    for (x0, y0), (x1, y1) in pairwise(line):
        if y0 >= level:
            top.append((x0, y0))
        if (y0 >= level) != (y1 >= level):
            top.append((x0 + (x1 - x0) * (level - y0) / (y1 - y0), level))
    if line and line[-1][1] >= level:
        top.append(line[-1])
    if not any(y > level for _, y in top):
        return []
    bottom = [(x, level + (y - level) * reach) for x, y in reversed(top)]
    return [*top, *bottom]


def _draw_mountain(canvas: Canvas, plan: PicturePlan, m: PictureMeasures, p: Paints) -> None:
    """The mountain the upper water lies in, its side towards the station in shade, white
    above the snow line."""
    _polygon(canvas, plan.terrain, p.mountain)
    (toe_x, toe_y), station = plan.terrain[-3], plan.terrain[-2]
    if toe_y - station[1] > 0.3:
        foot = (toe_x + (station[0] - toe_x) * 0.3, station[1])
        _polygon(canvas, [(toe_x, toe_y), station, foot], p.mountain_shade)
    _draw_snow(canvas, plan.terrain[1:-4], plan.snow_line, m.snow_reach, p)


def _draw_upper_water(canvas: Canvas, plan: PicturePlan, p: Paints) -> None:
    """The reservoir (or intake lake) in section, a flat surface over a rounded bed; a
    river runs in from the scene's edge."""
    lake = plan.lake
    if plan.kind == "run-of-river":
        _rect(canvas, plan.scene.x, lake.y, lake.right - plan.scene.x, lake.h, p.lake)
        return
    steps = 12
    bed = [
        (lake.x + lake.w * i / steps, lake.top - lake.h * math.sin(math.pi * i / steps / 2) ** 0.6)
        for i in range(1, steps)
    ]
    _polygon(canvas, [(lake.x, lake.top), *bed, (lake.right, lake.y), (lake.right, lake.top)],
             p.lake)  # fmt: skip


def _draw_weir(canvas: Canvas, weir: Dam, m: PictureMeasures, p: Paints) -> None:
    """A low weir across the river, its gate piers and the deck across them."""
    _polygon(canvas, weir.outline, p.dam)
    span = weir.toe - weir.face
    for share in (0.15, 0.45, 0.75):
        _rect(canvas, weir.face + span * share, weir.crest, m.pier_width, m.pier_height, p.dam)
    _rect(canvas, weir.face, weir.crest + m.pier_height, span, m.weir_deck, p.dam)


def _draw_two_way_pipes(
    canvas: Canvas, pipe: tuple[Point, Point], m: PictureMeasures, p: Paints
) -> None:
    """Pumped storage: one pipe the water runs down, one it is pumped up, each with an
    arrowhead saying which way; on a short pipe the two arrows stand side by side above."""
    (x0, y0), (x1, y1) = pipe
    length = math.hypot(x1 - x0, y1 - y0) or 1.0
    ux, uy = (x1 - x0) / length, (y1 - y0) / length
    nx, ny = -uy * m.pipe_gap / 2, ux * m.pipe_gap / 2
    along = length >= 2.2 * m.arrow_size
    for side, at in ((1.0, 0.72), (-1.0, 0.3)):
        a = (x0 + side * nx, y0 + side * ny)
        b = (x1 + side * nx, y1 + side * ny)
        _line(canvas, a, b, m.penstock_width * 0.75, p.penstock)
        if along:
            centre = (a[0] + (b[0] - a[0]) * at, a[1] + (b[1] - a[1]) * at)
            _arrow_head(canvas, centre, (ux * side, uy * side), m.arrow_size, p.flow)
    if not along:
        mx, my = (x0 + x1) / 2, max(y0, y1) + m.arrow_size * 0.9
        for dx, sign in ((-0.55, -1.0), (0.55, 1.0)):
            _arrow_head(canvas, (mx + dx * m.arrow_size, my), (0.0, sign), m.arrow_size, p.flow)


def _arrow_head(
    canvas: Canvas, centre: Point, direction: Point, size: float, colour: Color
) -> None:
    """A filled arrowhead centred on ``centre``, pointing along the unit ``direction``."""
    (cx, cy), (ux, uy) = centre, direction
    tip = (cx + ux * size / 2, cy + uy * size / 2)
    bx, by = cx - ux * size / 2, cy - uy * size / 2
    spread = size * 0.45
    left, right = (bx - uy * spread, by + ux * spread), (bx + uy * spread, by - ux * spread)
    _polygon(canvas, [tip, left, right], colour)


def _draw_station(canvas: Canvas, s: Box, m: PictureMeasures, p: Paints) -> None:
    """The power station on the shore: a hall under a low roof, a band of lit windows."""
    _rect(canvas, s.x, s.y, s.w, s.h, p.station)
    roof = min(m.roof, s.h * m.roof_share)
    eave = roof * 0.4
    outline = [(s.x - eave, s.top), (s.right + eave, s.top), (s.right, s.top + roof),
               (s.x, s.top + roof)]  # fmt: skip
    _polygon(canvas, outline, p.station)
    if s.w < m.windowless_below:
        return
    band = min(m.windows, s.h * m.window_share)
    panes = max(2, round(s.w / m.pane))
    pane = (s.w - m.pane_gap * (panes + 1)) / panes
    for i in range(panes):
        x = s.x + m.pane_gap + i * (pane + m.pane_gap)
        _rect(canvas, x, s.y + s.h * 0.55, pane, band, p.window)


def _draw_lower_reservoir(canvas: Canvas, plan: PicturePlan, dam: Dam, p: Paints) -> None:
    """Pumped storage: the water below is a reservoir too, held by its own dam; below the
    dam the ground falls away to the river."""
    scene = plan.scene
    beyond = scene.right - dam.face
    depth = plan.water - scene.y
    _rect(canvas, dam.face, scene.y, beyond, depth + 0.5, p.sky)
    ground = [(dam.face, scene.y), (dam.face, plan.water - depth * 0.35),
              (scene.right, plan.water - depth * 0.55), (scene.right, scene.y)]  # fmt: skip
    _polygon(canvas, ground, p.mountain)
    _rect(canvas, dam.face, scene.y, beyond, depth * 0.3, p.water)
    _polygon(canvas, dam.outline, p.dam)


def _draw_waves(
    canvas: Canvas, start: float, end: float, y: float, m: PictureMeasures, p: Paints
) -> None:
    """Light waves from ``start`` to ``end`` (mm) along ``y``, whole ones only."""
    length, amplitude = m.wave_length, m.wave_amplitude
    if end - start < length:
        return
    canvas.setStrokeColor(p.wave)
    canvas.setLineWidth(m.wave_width)
    canvas.setLineCap(1)
    path = canvas.beginPath()
    path.moveTo(mm(start), mm(y))
    x = start
    while x + length <= end + 1e-9:
        middle = mm(x + length / 2)
        path.curveTo(middle, mm(y + amplitude), middle, mm(y - amplitude), mm(x + length), mm(y))
        x += length
    canvas.drawPath(path, stroke=1, fill=0)
    canvas.setLineCap(0)


def _draw_current(canvas: Canvas, plan: PicturePlan, m: PictureMeasures, p: Paints) -> None:
    """A run-of-river plant: chevrons in the river, the current running towards the weir."""
    lake = plan.lake
    canvas.setStrokeColor(p.wave)
    canvas.setLineWidth(max(m.wave_width, 0.8))
    canvas.setLineCap(1)
    canvas.setLineJoin(1)
    size = lake.h * m.chevron_share
    y = lake.top - lake.h / 2
    x = lake.right - 1.2 - size
    while x > plan.scene.x + 0.5:
        path = canvas.beginPath()
        path.moveTo(mm(x), mm(y + size))
        path.lineTo(mm(x + size), mm(y))
        path.lineTo(mm(x), mm(y - size))
        canvas.drawPath(path, stroke=1, fill=0)
        x -= m.chevron_step
    canvas.setLineCap(0)
    canvas.setLineJoin(0)


# The disc, the map, the joker ------------------------------------------------------------


def _draw_disc(
    canvas: Canvas, suit: str | None, box: Box, layout: CardLayout, p: Paints, forms: FormNames
) -> None:
    """The suit in a disc filling ``box`` (the joker's bolt when ``suit`` is None), one form
    per suit."""
    ring = layout.spec.picture.disc_ring_width
    r = mm(min(box.w, box.h)) / 2 - ring / 2

    def draw(c: Canvas) -> None:
        c.setFillColor(p.disc)
        c.setStrokeColor(p.disc_ring)
        c.setLineWidth(ring)
        c.circle(0, 0, r, stroke=1, fill=1)
        if suit is None:
            c.setFillColor(p.joker_bolt)
            draw_shape(c, BOLT, 0, 0, r * 1.35)
        else:
            c.setFillColor(p.palette.suit_colour(suit))
            draw_suit(c, suit, 0, 0, r * 1.15)

    name = forms(f"Disc{ascii_name(suit or 'joker')}")
    centre = (mm(box.x + box.w / 2), mm(box.y + box.h / 2))
    place(canvas, name, square(2 * r + ring), draw, *centre)


def _draw_map_panel(
    canvas: Canvas, card: Card, layout: CardLayout, p: Paints, forms: FormNames
) -> None:
    px, py, pw, ph = map_panel(layout)
    canvas.setFillColor(p.palette.paper)
    canvas.rect(px, py, pw, ph, stroke=0, fill=1)
    canvas.setStrokeColor(p.disc_ring)
    canvas.setLineWidth(layout.spec.map.coast_width)
    canvas.line(px, py, px, py + ph)
    draw_plant_map(canvas, map_box(layout), card.lat, card.lon, p.palette, forms, layout.spec.map)


def _draw_joker_landscape(canvas: Canvas, layout: CardLayout, p: Paints) -> None:
    """Sky, mountains and water across the whole picture box, no plant in it."""
    box = layout.boxes.picture
    m = layout.spec.picture
    far, ridge = joker_landscape(layout)
    _rect(canvas, box.x, box.y, box.w, box.h, p.sky)
    _polygon(canvas, far, p.haze)
    _polygon(canvas, ridge, p.ridge)
    _rect(canvas, box.x, box.y, box.w, m.water_level, p.water)
    _draw_waves(canvas, box.x + 2.0, box.right - 2.0, box.y + m.water_level / 2, m, p)
