"""Derive ``kraftstokk/design/data/norway.json`` from Natural Earth's 1:50m countries.

The source is ``countries-50m.json`` of the npm package ``world-atlas`` 2.0.2 (Natural
Earth 4.1.0 Admin 0 countries as TopoJSON, in degrees). Get it and run, from the
repository root:

    npm pack world-atlas@2.0.2 --pack-destination /tmp
    tar xzf /tmp/world-atlas-2.0.2.tgz -C /tmp
    .venv/bin/python scripts/derive_norway_map.py /tmp/package/countries-50m.json

The script takes Norway's polygons, keeps the mainland and its coastal islands (Svalbard,
Jan Mayen and Bouvet Island lie outside the card map's frame), simplifies every ring
with Douglas-Peucker on the card's own projection (kraftstokk.design.norway_outline) and
drops islands too small to see on a card. The same source gives the same bytes.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path

from kraftstokk.atomic import write_text
from kraftstokk.design.norway_outline import project

Degrees = tuple[float, float]  # (lon, lat)

NORWAY_ID = "578"  # ISO 3166-1 numeric
#: The mainland frame: everything of Norway's polygons inside it is drawn.
FRAME_LON = (3.0, 32.0)
FRAME_LAT = (57.0, 72.0)
TOLERANCE_KM = 2.5  # a card's map is about 65 km to the millimetre
MIN_ISLAND_KM2 = 60.0
DECIMALS = 3  # about 100 m

SOURCE = (
    "Natural Earth 4.1.0, Admin 0 countries, 1:50m (naturalearthdata.com), as TopoJSON in "
    "the npm package world-atlas 2.0.2 (countries-50m.json)"
)
LICENCE = "Public domain (Natural Earth); world-atlas packaging ISC"


def decode_arcs(topology: dict[str, object]) -> list[list[Degrees]]:
    """TopoJSON's quantized, delta-encoded arcs as lists of (lon, lat)."""
    transform = topology["transform"]
    assert isinstance(transform, dict)
    (sx, sy), (tx, ty) = transform["scale"], transform["translate"]
    arcs = topology["arcs"]
    assert isinstance(arcs, list)
    decoded: list[list[Degrees]] = []
    for arc in arcs:
        x = y = 0
        points: list[Degrees] = []
        for dx, dy in arc:
            x, y = x + dx, y + dy
            points.append((x * sx + tx, y * sy + ty))
        decoded.append(points)
    return decoded


def ring_points(indices: list[int], arcs: list[list[Degrees]]) -> list[Degrees]:
    """A ring from its arc indices (``~i`` is arc ``i`` reversed); shared ends once."""
    points: list[Degrees] = []
    for index in indices:
        arc = arcs[index] if index >= 0 else arcs[~index][::-1]
        points.extend(arc if not points else arc[1:])
    return points


def norway_rings(topology: dict[str, object]) -> list[list[Degrees]]:
    """The outer rings of Norway's polygons that lie inside the mainland frame."""
    objects = topology["objects"]
    assert isinstance(objects, dict)
    geometries = objects["countries"]["geometries"]
    norway = next(g for g in geometries if str(g.get("id")) == NORWAY_ID)
    polygons = norway["arcs"] if norway["type"] == "MultiPolygon" else [norway["arcs"]]
    arcs = decode_arcs(topology)
    rings: list[list[Degrees]] = []
    for polygon in polygons:
        outer = ring_points(polygon[0], arcs)
        if all(
            FRAME_LON[0] <= lon <= FRAME_LON[1] and FRAME_LAT[0] <= lat <= FRAME_LAT[1]
            for lon, lat in outer
        ):
            rings.append(outer)
    return rings


def _distance(p: tuple[float, float], a: tuple[float, float], b: tuple[float, float]) -> float:
    """Distance from p to the segment a-b."""
    (px, py), (ax, ay), (bx, by) = p, a, b
    dx, dy = bx - ax, by - ay
    length2 = dx * dx + dy * dy
    t = 0.0 if length2 == 0 else max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / length2))
    return math.hypot(px - ax - t * dx, py - ay - t * dy)


def douglas_peucker(points: list[tuple[float, float]], tolerance: float) -> list[int]:
    """Indices of the points kept (first and last always), without recursion."""
    keep = {0, len(points) - 1}
    stack = [(0, len(points) - 1)]
    while stack:
        first, last = stack.pop()
        best, where = 0.0, -1
        for i in range(first + 1, last):
            d = _distance(points[i], points[first], points[last])
            if d > best:
                best, where = d, i
        if best > tolerance:
            keep.add(where)
            stack.extend([(first, where), (where, last)])
    return sorted(keep)


def area_km2(points: list[tuple[float, float]]) -> float:
    return abs(
        sum(
            x1 * y2 - x2 * y1
            for (x1, y1), (x2, y2) in zip(points, points[1:] + points[:1], strict=True)
        )
        / 2
    )


def simplify_ring(ring: list[Degrees]) -> list[Degrees] | None:
    """The ring simplified on the card projection; ``None`` when it is too small to draw."""
    if ring[0] == ring[-1]:
        ring = ring[:-1]
    projected = [project(lat, lon) for lon, lat in ring]
    if area_km2(projected) < MIN_ISLAND_KM2:
        return None
    # A closed ring is split at the point farthest from its start, so both halves have ends.
    far = max(range(len(projected)), key=lambda i: math.dist(projected[0], projected[i]))
    halves = (list(range(far + 1)), [*range(far, len(projected)), 0])
    kept: list[int] = []
    for half in halves:
        chosen = douglas_peucker([projected[i] for i in half], TOLERANCE_KM)
        kept.extend(half[i] for i in chosen[:-1])
    if len(kept) < 4:
        return None
    return [(round(ring[i][0], DECIMALS), round(ring[i][1], DECIMALS)) for i in kept]


def derive(source: Path) -> dict[str, object]:
    topology = json.loads(source.read_text(encoding="utf-8"))
    rings = [simplified for ring in norway_rings(topology) if (simplified := simplify_ring(ring))]
    rings.sort(key=lambda ring: -area_km2([project(lat, lon) for lon, lat in ring]))
    return {
        "source": SOURCE,
        "licence": LICENCE,
        "derived_by": "scripts/derive_norway_map.py",
        "tolerance_km": TOLERANCE_KM,
        "min_island_km2": MIN_ISLAND_KM2,
        "rings": [[list(point) for point in ring] for ring in rings],
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("source", type=Path, help="countries-50m.json from world-atlas 2.0.2")
    parser.add_argument(
        "--out", type=Path, default=Path("kraftstokk/design/data/norway.json"), help="output"
    )
    args = parser.parse_args(argv)
    data = derive(args.source)
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    write_text(args.out, text + "\n")
    rings = data["rings"]
    assert isinstance(rings, list)
    points = sum(len(ring) for ring in rings)
    print(f"wrote {args.out}: {len(rings)} rings, {points} points, {len(text)} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
