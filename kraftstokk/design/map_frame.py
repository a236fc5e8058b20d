"""Where the map of Norway lands in a box, and on which cell of its grid a plant is marked.

The card's map (``render/plant_map.py``) draws it; the reprint verdict
(``design/printed.py``) reads the marked cell, so both place a plant the same way.
"""

from __future__ import annotations

from dataclasses import dataclass

from kraftstokk.design.geometry import mm
from kraftstokk.design.norway_outline import Outline, norway_outline, on_the_map, project
from kraftstokk.design.scales import MAP_GRID_MM, grid

BoxPt = tuple[float, float, float, float]  # x, y, w, h in points


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

    def grid_point(self, lat: float, lon: float) -> tuple[int, int] | None:
        """Where (lat, lon) is marked: the map grid's cell (MAP_GRID_MM) from the frame's
        lower left; ``None`` when it lies off the map."""
        if not on_the_map(lat, lon):
            return None
        east, north = project(lat, lon)
        cell = mm(MAP_GRID_MM)
        return (
            grid((east - self.outline.west) * self.scale, cell),
            grid((north - self.outline.south) * self.scale, cell),
        )

    def point(self, lat: float, lon: float) -> tuple[float, float] | None:
        """Page position of the mark of (lat, lon); ``None`` when it lies off the map."""
        spot = self.grid_point(lat, lon)
        if spot is None:
            return None
        cell = mm(MAP_GRID_MM)
        return (self.x + spot[0] * cell, self.y + spot[1] * cell)


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
