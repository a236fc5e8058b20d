"""Mainland Norway's outline (Natural Earth, simplified; see ``data/README.md``) and its map
projection.

The outline is stored in degrees; :func:`project` turns degrees into kilometres on a
transverse Mercator projection centred on 15° E (the meridian of UTM zone 33, which
Norway's own national maps use), so the shape on the card is the one Norwegians know.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from functools import cache
from importlib import resources

EARTH_RADIUS_KM = 6371.0
CENTRAL_MERIDIAN = 15.0
OUTLINE_FILE = "norway.json"

Point = tuple[float, float]
Ring = tuple[Point, ...]


def project(lat: float, lon: float) -> Point:
    """(east, north) in km on a spherical transverse Mercator centred on 15° E."""
    phi = math.radians(lat)
    lam = math.radians(lon - CENTRAL_MERIDIAN)
    b = math.cos(phi) * math.sin(lam)
    east = 0.5 * EARTH_RADIUS_KM * math.log((1 + b) / (1 - b))
    north = EARTH_RADIUS_KM * math.atan2(math.tan(phi), math.cos(lam))
    return east, north


@dataclass(frozen=True)
class Outline:
    """Projected rings (km) of mainland Norway and their bounding box."""

    rings: tuple[Ring, ...]
    west: float
    south: float
    east: float
    north: float

    @property
    def width(self) -> float:
        return self.east - self.west

    @property
    def height(self) -> float:
        return self.north - self.south

    def contains(self, point: Point, margin_km: float = 0.0) -> bool:
        """Whether ``point`` (projected) lies within the outline's box, plus a margin."""
        x, y = point
        return (
            self.west - margin_km <= x <= self.east + margin_km
            and self.south - margin_km <= y <= self.north + margin_km
        )


#: How far past the outline's box a place may lie and still be marked (islands, rounding).
MAP_MARGIN_KM = 60.0


def on_the_map(lat: float, lon: float) -> bool:
    """Whether (lat, lon) lies within the card map's frame, so the card can mark it."""
    return norway_outline().contains(project(lat, lon), MAP_MARGIN_KM)


@cache
def norway_outline() -> Outline:
    """The outline shipped in the package, projected (read once)."""
    text = resources.files("kraftstokk.design.data").joinpath(OUTLINE_FILE).read_text("utf-8")
    raw = json.loads(text)
    rings = tuple(tuple(project(lat, lon) for lon, lat in ring) for ring in raw["rings"])
    xs = [x for ring in rings for x, _ in ring]
    ys = [y for ring in rings for _, y in ring]
    return Outline(rings=rings, west=min(xs), south=min(ys), east=max(xs), north=max(ys))
