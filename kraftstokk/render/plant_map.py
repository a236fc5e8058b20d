"""A small map of mainland Norway with one plant marked, drawn as vector paths into a box.

The outline is one form per document and palette (55 cards, one copy of the coastline);
only the mark is drawn per card. A place outside the map's frame gets no mark.
"""

from __future__ import annotations

from reportlab.pdfgen.canvas import Canvas

from kraftstokk.design.geometry import mm
from kraftstokk.design.layout import MapMeasures
from kraftstokk.design.map_frame import BoxPt, MapFrame, map_frame
from kraftstokk.design.palette import WHITE, Palette
from kraftstokk.render.forms import FormNames, place


def _draw_outline(canvas: Canvas, frame: MapFrame, palette: Palette, coast: float) -> None:
    """Norway's land in the form's own coordinates (origin at the frame's lower left)."""
    outline = frame.outline
    path = canvas.beginPath()
    for ring in outline.rings:
        (x0, y0), *rest = ring
        path.moveTo((x0 - outline.west) * frame.scale, (y0 - outline.south) * frame.scale)
        for px, py in rest:
            path.lineTo((px - outline.west) * frame.scale, (py - outline.south) * frame.scale)
        path.close()
    canvas.setFillColor(palette.accent_light)
    canvas.setStrokeColor(palette.accent)
    canvas.setLineWidth(coast)  # the coast in the accent's inks: 0.5 pt and up is register-safe
    canvas.setLineJoin(1)
    canvas.drawPath(path, stroke=1, fill=1)


def draw_plant_map(
    canvas: Canvas,
    box: BoxPt,
    lat: float | None,
    lon: float | None,
    palette: Palette,
    forms: FormNames,
    measures: MapMeasures,
) -> bool:
    """Draw Norway into ``box`` (points) and mark (lat, lon); True when the plant is marked."""
    frame = map_frame(box)
    size = f"{round(frame.width * 10)}x{round(frame.height * 10)}"
    name = forms(f"NorwayMap{size}")
    bbox = (-1.0, -1.0, frame.width + 1.0, frame.height + 1.0)
    coast = measures.coast_width
    place(canvas, name, bbox, lambda c: _draw_outline(c, frame, palette, coast), frame.x, frame.y)
    if lat is None or lon is None:
        return False
    spot = frame.point(lat, lon)
    if spot is None:
        return False
    draw_mark(canvas, spot, palette, measures)
    return True


def draw_mark(
    canvas: Canvas, spot: tuple[float, float], palette: Palette, measures: MapMeasures
) -> None:
    """A red dot with a white halo and a thin ring: legible on land, sea and coast."""
    x, y = spot
    canvas.setStrokeColor(palette.accent_dark)
    canvas.setLineWidth(measures.ring_width)
    canvas.circle(x, y, mm(measures.ring_radius), stroke=1, fill=0)
    canvas.setFillColor(WHITE)
    canvas.circle(x, y, mm(measures.mark_radius + measures.halo), stroke=0, fill=1)
    canvas.setFillColor(palette.red)
    canvas.circle(x, y, mm(measures.mark_radius), stroke=0, fill=1)
