"""A small map of mainland Norway with one plant marked, drawn as vector paths into a box.

The outline is one form per document and palette (55 cards, one copy of the coastline);
only the mark is drawn per card. A place outside the map's frame gets no mark.
"""

from __future__ import annotations

from dataclasses import dataclass

from reportlab.pdfgen.canvas import Canvas

from kraftstokk.design.geometry import mm
from kraftstokk.design.norway_outline import (
    Outline,
    norway_outline,
    on_the_map,
    project,
)
from kraftstokk.render.forms import FormNames, place
from kraftstokk.render.palette import WHITE, Palette

BoxPt = tuple[float, float, float, float]  # x, y, w, h in points

MARK_RADIUS = 0.8  # mm: the plant's dot
HALO = 0.35  # mm of white around the dot, so it reads on land and on sea
RING_RADIUS = 1.75  # mm: a thin ring around the dot that catches the eye


@dataclass(frozen=True)
class MapFrame:
    """Where the outline lands in a box: scale (points per km) and the lower-left offset."""

    x: float
    y: float
    scale: float
    outline: Outline

    @property
    def width(self) -> float:
        return self.outline.width * self.scale

    @property
    def height(self) -> float:
        return self.outline.height * self.scale

    def point(self, lat: float, lon: float) -> tuple[float, float] | None:
        """Page position of (lat, lon); ``None`` when it lies off the map."""
        if not on_the_map(lat, lon):
            return None
        east, north = project(lat, lon)
        return (
            self.x + (east - self.outline.west) * self.scale,
            self.y + (north - self.outline.south) * self.scale,
        )


def map_frame(box: BoxPt) -> MapFrame:
    """The outline as large as fits in ``box``, centred."""
    x, y, w, h = box
    outline = norway_outline()
    scale = min(w / outline.width, h / outline.height)
    return MapFrame(
        x=x + (w - outline.width * scale) / 2,
        y=y + (h - outline.height * scale) / 2,
        scale=scale,
        outline=outline,
    )


def _draw_outline(canvas: Canvas, frame: MapFrame, palette: Palette) -> None:
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
    canvas.setLineWidth(0.3)
    canvas.setLineJoin(1)
    canvas.drawPath(path, stroke=1, fill=1)


def draw_plant_map(
    canvas: Canvas,
    box: BoxPt,
    lat: float | None,
    lon: float | None,
    palette: Palette,
    forms: FormNames,
) -> bool:
    """Draw Norway into ``box`` (points) and mark (lat, lon); True when the plant is marked."""
    frame = map_frame(box)
    size = f"{round(frame.width * 10)}x{round(frame.height * 10)}"
    name = forms(f"NorwayMap{size}")
    bbox = (-1.0, -1.0, frame.width + 1.0, frame.height + 1.0)
    place(canvas, name, bbox, lambda c: _draw_outline(c, frame, palette), frame.x, frame.y)
    if lat is None or lon is None:
        return False
    spot = frame.point(lat, lon)
    if spot is None:
        return False
    draw_mark(canvas, spot, palette)
    return True


def draw_mark(canvas: Canvas, spot: tuple[float, float], palette: Palette) -> None:
    """A dark dot with a white halo and a thin ring: legible on land, sea and coast."""
    x, y = spot
    canvas.setStrokeColor(palette.accent_dark)
    canvas.setLineWidth(0.45)
    canvas.circle(x, y, mm(RING_RADIUS), stroke=1, fill=0)
    canvas.setFillColor(WHITE)
    canvas.circle(x, y, mm(MARK_RADIUS + HALO), stroke=0, fill=1)
    canvas.setFillColor(palette.red)
    canvas.circle(x, y, mm(MARK_RADIUS), stroke=0, fill=1)
