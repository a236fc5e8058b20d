"""The plant picture: Norway's outline, where a plant is marked, and cards without a place."""

from __future__ import annotations

import io
import json
from importlib import resources
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from PIL import Image
from reportlab.pdfgen.canvas import Canvas

from kraftstokk.design.geometry import mm
from kraftstokk.design.layout import load_layout
from kraftstokk.design.norway_outline import norway_outline, project
from kraftstokk.design.picture_plan import map_box
from kraftstokk.models import Card, Deck
from kraftstokk.render.card import draw_card_face
from kraftstokk.render.plant_map import map_frame
from kraftstokk.sources.snapshot import read_snapshot
from scripts.derive_norway_map import decode_arcs, douglas_peucker, ring_points

REPO = Path(__file__).parents[1]
DPI = 300
POKER = load_layout("poker")
PICTURE = POKER.boxes.picture


def _inside(point: tuple[float, float], ring: tuple[tuple[float, float], ...]) -> bool:
    x, y = point
    inside = False
    for (x1, y1), (x2, y2) in zip(ring, ring[1:] + ring[:1], strict=True):
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            inside = not inside
    return inside


def _distance_to_coast(point: tuple[float, float]) -> float:
    from scripts.derive_norway_map import _distance

    return min(
        _distance(point, a, b)
        for ring in norway_outline().rings
        for a, b in zip(ring, ring[1:] + ring[:1], strict=True)
    )


def test_outline_file_is_small_and_says_where_it_comes_from():
    folder = resources.files("kraftstokk.design.data")
    raw = json.loads(folder.joinpath("norway.json").read_text("utf-8"))
    assert "Natural Earth" in raw["source"] and "world-atlas 2.0.2" in raw["source"]
    assert "Public domain" in raw["licence"]
    assert raw["derived_by"] == "scripts/derive_norway_map.py"
    assert len(folder.joinpath("norway.json").read_bytes()) < 20_000
    readme = folder.joinpath("README.md").read_text("utf-8")
    assert "public domain" in readme.lower() and "derive_norway_map.py" in readme


def test_outline_is_mainland_norway():
    outline = norway_outline()
    # Lindesnes (58.0 N) to Kinnarodden and Vardø (31 E); Svalbard is left out.
    south_lat = min(lat for ring in _raw_rings() for _, lat in ring)
    north_lat = max(lat for ring in _raw_rings() for _, lat in ring)
    east_lon = max(lon for ring in _raw_rings() for lon, _ in ring)
    assert 57.9 < south_lat < 58.1 and 71.0 < north_lat < 71.3 and 30.8 < east_lon < 31.3
    assert 1100 < outline.width < 1250 and 1400 < outline.height < 1550  # km
    # Oslo, Trondheim, Bergen and Tromsø are on land.
    biggest = max(outline.rings, key=len)
    for lat, lon in ((59.91, 10.75), (63.43, 10.39), (60.39, 5.5), (69.4, 18.9)):
        assert any(_inside(project(lat, lon), ring) for ring in outline.rings), (lat, lon)
    # Stockholm and the North Sea are not.
    for lat, lon in ((59.33, 18.07), (58.5, 3.5)):
        assert not any(_inside(project(lat, lon), ring) for ring in outline.rings)
    assert len(biggest) > 200


def _raw_rings() -> list[list[list[float]]]:
    text = resources.files("kraftstokk.design.data").joinpath("norway.json").read_text("utf-8")
    rings: list[list[list[float]]] = json.loads(text)["rings"]
    return rings


def test_every_embedded_plant_lies_on_the_map():
    plants = read_snapshot(REPO / "sources" / "jrc-2024-01.csv").plants
    for plant in plants:
        assert plant.lat is not None and plant.lon is not None
        point = project(plant.lat, plant.lon)
        on_land = any(_inside(point, ring) for ring in norway_outline().rings)
        assert on_land or _distance_to_coast(point) < 12.0, plant.name


def test_north_is_up_and_east_is_right():
    frame = map_frame((0.0, 0.0, 100.0, 100.0))
    tonstad = frame.point(58.66, 6.72)
    alta = frame.point(69.97, 23.27)
    assert tonstad is not None and alta is not None
    assert alta[0] > tonstad[0] + 40 and alta[1] > tonstad[1] + 60
    assert frame.point(0.0, 0.0) is None  # off the map: no mark at all


def _face(card: Card, deck: Deck) -> Image.Image:
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=(mm(POKER.width), mm(POKER.height)), invariant=1)
    draw_card_face(canvas, card, deck, 0, 0, POKER)
    canvas.showPage()
    canvas.save()
    page = pdfium.PdfDocument(buffer.getvalue())[0]
    return page.render(scale=DPI / 72).to_pil().convert("RGB")


def _pixel(image: Image.Image, x_pt: float, y_pt: float) -> tuple[int, int, int]:
    px = round(x_pt * DPI / 72)
    py = image.height - round(y_pt * DPI / 72)
    r, g, b = image.getpixel((px, py))  # type: ignore[misc]
    return (r, g, b)


def _map_box() -> tuple[float, float, float, float]:
    return map_box(POKER)


@pytest.mark.parametrize(("lat", "lon"), [(58.66, 6.72), (69.72, 23.8), (63.4, 10.4)])
def test_the_plant_is_marked_where_it_lies(deck: Deck, lat: float, lon: float):
    card = deck.plant_cards[0].model_copy(update={"lat": lat, "lon": lon, "type": "reservoir"})
    spot = map_frame(_map_box()).point(lat, lon)
    assert spot is not None
    r, g, b = _pixel(_face(card, deck), *spot)
    assert r > 150 and g < 80 and b < 90  # the red dot


def test_types_get_different_pictures_and_their_names(deck: Deck):
    base = deck.plant_cards[0].model_copy(update={"lat": 60.0, "lon": 7.0})
    pictures = {}
    for kind in ("reservoir", "run-of-river", "pumped-storage"):
        image = _face(base.model_copy(update={"type": kind}), deck)
        x, y, w, h = (round(v * DPI / 72) for v in PICTURE.pt())
        pictures[kind] = image.crop((x, image.height - y - h, x + w, image.height - y)).tobytes()
    assert len(set(pictures.values())) == 3


def test_a_card_without_a_place_keeps_the_map_with_no_mark(deck: Deck):
    bare = deck.plant_cards[0].model_copy(update={"lat": None, "lon": None, "type": None})
    spot = map_frame(_map_box()).point(60.0, 7.0)
    assert spot is not None
    placed = bare.model_copy(update={"lat": 60.0, "lon": 7.0})
    r, g, b = _pixel(_face(bare, deck), *spot)
    assert not (r > 150 and g < 80 and b < 90)  # no red dot
    r, g, b = _pixel(_face(placed, deck), *spot)
    assert r > 150 and g < 80 and b < 90


def _extremes() -> list[tuple[float, float]]:
    """The outline's southernmost, northernmost, westernmost and easternmost points."""
    points = [(lat, lon) for ring in _raw_rings() for lon, lat in ring]
    return [
        min(points, key=lambda p: project(*p)[1]),
        max(points, key=lambda p: project(*p)[1]),
        min(points, key=lambda p: project(*p)[0]),
        max(points, key=lambda p: project(*p)[0]),
    ]


@pytest.mark.parametrize("layout_name", ["poker", "bridge", "poker-63x88"])
def test_the_marks_ring_stays_inside_the_map_panel_at_the_countrys_edges(layout_name: str):
    """The southern tip (southern plants' rings crossed the panel's edge), the North Cape,
    the west coast and the Russian border: the ring around the dot, its line's half width
    included, lies inside the map panel."""
    layout = load_layout(layout_name)
    measures = layout.spec.map
    reach = mm(measures.ring_radius) + measures.ring_width / 2
    px, py, pw, ph = layout.boxes.map.pt()
    for lat, lon in _extremes():
        spot = map_frame(map_box(layout)).point(lat, lon)
        assert spot is not None
        x, y = spot
        assert px <= x - reach and x + reach <= px + pw, (lat, lon)
        assert py <= y - reach and y + reach <= py + ph, (lat, lon)


def test_derive_script_decodes_topojson_and_simplifies():
    topology = {
        "transform": {"scale": [0.5, 0.25], "translate": [10.0, 60.0]},
        "arcs": [[[0, 0], [2, 0], [0, 4]], [[2, 4], [-2, 0], [0, -4]]],
    }
    arcs = decode_arcs(topology)
    assert arcs[0] == [(10.0, 60.0), (11.0, 60.0), (11.0, 61.0)]
    assert ring_points([0, 1], arcs)[-1] == (10.0, 60.0)
    assert ring_points([~1], arcs)[0] == (10.0, 60.0)
    line = [(0.0, 0.0), (1.0, 0.01), (2.0, 0.0), (3.0, 5.0), (4.0, 0.0)]
    assert douglas_peucker(line, 0.5) == [0, 2, 3, 4]
