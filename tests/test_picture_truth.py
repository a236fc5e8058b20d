"""Each plant's picture, read back from the rendered card: the drop to scale, the station
by effekt, the type by its shape, every picture different, unknown parts said in words.

The default deck (sources/deck.toml) is rendered once; its picture boxes are read as
pixels (pdfium), never from the drawing code's own numbers, except where to look: the
plan says in which column the lake and the water below lie, the pixels say how high.
"""

from __future__ import annotations

import io
import itertools
import math
from pathlib import Path

import numpy as np
import pypdfium2 as pdfium
import pytest
from pypdf import PdfReader

from kraftstokk.deck.build import build_from_spec_file
from kraftstokk.design.geometry import Box
from kraftstokk.design.layout import CardLayout, load_layout
from kraftstokk.design.palette import palette_from_style
from kraftstokk.design.picture_plan import plan_picture
from kraftstokk.design.scales import deck_scales, scale_of
from kraftstokk.models import Card, Deck
from kraftstokk.render.preview import faces_pdf
from tests.render_probe import page_text

ROOT = Path(__file__).resolve().parent.parent
SPEC = ROOT / "sources" / "deck.toml"
POKER = load_layout("poker")
#: Drops are read at 600 dpi: a pixel is 0.042 mm, 3 m of head on the 2024 deck's scale.
TRUTH_DPI = 600
#: A surface is where the colour turns to the water's: within this distance (RGB, 0-255).
COLOUR_SLACK = 40
#: Read-back tolerance: two pixels (anti-aliasing) plus one step of the drawn scale.
DROP_TOLERANCE_MM = 2 * 25.4 / TRUTH_DPI + POKER.spec.picture.drop_room / 1000
#: Two pictures "differ visibly" when at least this much of the picture box, outside the
#: suit's disc (the suit is not the plant's data), changes colour by more than
#: CHANGE_LEVEL in some channel: 4 mm², a patch 2 mm square at card size (the closest pair
#: of the 2024 deck, Solbergfoss and Kykkelsrud-Fossumfoss, differs in 8.6 mm²).
DISTINCT_MM2 = 4.0
CHANGE_LEVEL = 48
DISTINCT_DPI = 200


@pytest.fixture(scope="module")
def deck() -> Deck:
    return build_from_spec_file(SPEC).deck


@pytest.fixture(scope="module")
def document(deck: Deck) -> pdfium.PdfDocument:
    return pdfium.PdfDocument(faces_pdf(deck, POKER))


def _picture(document: pdfium.PdfDocument, index: int, dpi: int, box: Box) -> np.ndarray:
    """The ``box`` of face ``index`` as an RGB array, row 0 at the box's top."""
    page = document[index]
    width, height = page.get_size()
    x, y, w, h = box.pt()
    crop = (x, y, width - x - w, height - y - h)
    return np.asarray(page.render(scale=dpi / 72, crop=crop).to_pil().convert("RGB"), np.int16)


def _rgb(layout: CardLayout, deck: Deck, part: str) -> np.ndarray:
    colour = palette_from_style(deck.style()).named(getattr(layout.spec.picture.colours, part))
    return np.array([colour.red, colour.green, colour.blue]) * 255


def _surface(column: np.ndarray, colour: np.ndarray) -> int:
    """The first row (from the top) whose pixel is ``colour``."""
    near = np.abs(column - colour).max(axis=1) <= COLOUR_SLACK
    rows = np.flatnonzero(near)
    assert rows.size, "no such colour in this column"
    return int(rows[0])


def test_the_drop_read_back_from_every_picture_is_its_fallhøyde_on_one_scale(deck, document):
    picture = POKER.spec.picture
    heads = [card.figure("head_m") for card in deck.plant_cards]
    top = scale_of(heads)[1]  # the stated scale: 0 to the round figure above the highest
    assert top == 1250.0  # the 2024 deck's, as poker.toml says: 1 mm = 71.4 m
    per_mm = top / picture.drop_room
    scene = POKER.boxes.scene
    ranges = deck_scales(deck)
    lake, water = _rgb(POKER, deck, "lake"), _rgb(POKER, deck, "water")
    px = TRUTH_DPI / 25.4
    read: dict[str, float] = {}
    for index, card in enumerate(deck.cards):
        if card.joker:
            continue
        image = _picture(document, index, TRUTH_DPI, scene)
        plan = plan_picture(card, ranges, POKER)
        upper_x = round((plan.lake.x + plan.lake.w / 2 - scene.x) * px)
        lower_x = round((plan.station.right + 0.5 - scene.x) * px)
        drop = (_surface(image[:, lower_x], water) - _surface(image[:, upper_x], lake)) / px
        expected = card.figure("head_m") / per_mm
        assert drop == pytest.approx(expected, abs=DROP_TOLERANCE_MM), card.label
        read[card.name or card.id] = drop
    # The deck's ends: a 21 m plant barely drops, a 1 163 m one falls through the picture
    assert read["Solbergfoss"] < 0.4 and read["Jostedal"] > 0.65 * scene.h


def test_the_station_is_sized_by_effekt(deck, document):
    """The station's area in proportion to effekt: its width by the square root."""
    picture = POKER.spec.picture
    scene = POKER.boxes.scene
    ranges = deck_scales(deck)
    station = _rgb(POKER, deck, "station")
    px = TRUTH_DPI / 25.4
    mw_top = scale_of([card.figure("mw") for card in deck.plant_cards])[1]
    for index, card in enumerate(deck.cards):
        if card.joker:
            continue
        image = _picture(document, index, TRUTH_DPI, scene)
        plan = plan_picture(card, ranges, POKER)
        row = image[round((scene.top - plan.water - 0.25) * px)]  # just above the shore
        dark = np.flatnonzero(np.abs(row - station).max(axis=1) <= COLOUR_SLACK)
        right = round((plan.station.right - scene.x) * px)
        runs = [r for r in np.split(dark, np.flatnonzero(np.diff(dark) > 1) + 1) if r.size]
        hall = next(r for r in runs if abs(int(r[-1]) - right) <= 3)
        width = (hall[-1] - hall[0] + 1) / px
        expected = picture.station_width * math.sqrt(card.figure("mw") / mw_top)
        assert width == pytest.approx(max(expected, picture.station_min), abs=0.12), card.label


def test_every_pair_of_the_52_pictures_differs_visibly(deck, document):
    box, disc = POKER.boxes.picture, POKER.boxes.disc
    px = DISTINCT_DPI / 25.4
    images = [
        _picture(document, index, DISTINCT_DPI, box)
        for index, card in enumerate(deck.cards)
        if not card.joker
    ]
    mask = np.ones(images[0].shape[:2], bool)
    left, top = round((disc.x - box.x) * px), round((box.top - disc.top) * px)
    mask[top : top + round(disc.h * px) + 1, left : left + round(disc.w * px) + 1] = False
    names = [card.name for card in deck.plant_cards]
    least = (math.inf, "", "")
    for (i, a), (j, b) in itertools.combinations(enumerate(images), 2):
        changed = int(((np.abs(a - b).max(axis=2) > CHANGE_LEVEL) & mask).sum()) / px**2
        least = min(least, (changed, names[i], names[j]))
    assert len(images) == 52
    assert least[0] >= DISTINCT_MM2, f"{least[1]} and {least[2]}: {least[0]:.2f} mm² differ"


def _variant(deck: Deck, **update: object) -> Deck:
    """The deck with its first plant card changed (its scales stay the deck's)."""
    first = deck.plant_cards[0]
    cards = [card.model_copy(update=update) if card is first else card for card in deck.cards]
    return deck.model_copy(update={"cards": cards})


def _scene_without_label(deck: Deck, layout: CardLayout = POKER) -> np.ndarray:
    """The first plant's scene, its type's name and its suit's disc blotted out."""
    document = pdfium.PdfDocument(faces_pdf(deck, layout, only=[deck.plant_cards[0].id]))
    image = _picture(document, 0, DISTINCT_DPI, layout.boxes.scene)
    label, scene, disc = layout.boxes.type_label, layout.boxes.scene, layout.boxes.disc
    px = DISTINCT_DPI / 25.4
    top = round((scene.top - label.top) * px)
    image[top:, : round((label.right - scene.x) * px) + 1] = 0
    left, top = round((disc.x - scene.x) * px), round((scene.top - disc.top) * px)
    image[top : top + round(disc.h * px) + 1, left : left + round(disc.w * px) + 1] = 0
    return image


def test_the_type_is_legible_without_its_label(deck):
    """The same plant as each type, the type's name blotted out: the shapes differ."""
    shapes = {
        kind: _scene_without_label(_variant(deck, type=kind))
        for kind in ("reservoir", "run-of-river", "pumped-storage", None)
    }
    px = DISTINCT_DPI / 25.4
    for (a, first), (b, second) in itertools.combinations(shapes.items(), 2):
        changed = int((np.abs(first - second).max(axis=2) > CHANGE_LEVEL).sum()) / px**2
        assert changed >= DISTINCT_MM2, (a, b, changed)
    # A reservoir's dam and a pumped-storage plant's two dams are concrete; a plant of
    # unknown type has none
    concrete = _rgb(POKER, deck, "dam")

    def area(image: np.ndarray) -> float:  # concrete is a neutral grey: a narrow match
        return int((np.abs(image - concrete).max(axis=2) <= 10).sum()) / px**2

    assert area(shapes["pumped-storage"]) > area(shapes["reservoir"]) > 1.0
    assert area(shapes[None]) == 0.0


def test_a_plant_without_type_or_place_gets_a_whole_picture_and_says_so(deck):
    bare = _variant(deck, type=None, lat=None, lon=None)
    image = _scene_without_label(bare)
    px = DISTINCT_DPI / 25.4
    for part in ("lake", "station", "penstock"):
        colour = _rgb(POKER, deck, part)
        found = int((np.abs(image - colour).max(axis=2) <= COLOUR_SLACK).sum()) / px**2
        assert found > 0.5, part
    card: Card = bare.plant_cards[0]
    reader = PdfReader(io.BytesIO(faces_pdf(bare, POKER, only=[card.id])))
    words = " ".join(piece.text for piece in page_text(reader.pages[0]))
    assert "Type og sted ukjent." in words and "Magasinkraftverk" not in words
    only_place = _variant(deck, lat=None, lon=None)
    reader = PdfReader(io.BytesIO(faces_pdf(only_place, POKER, only=[card.id])))
    words = " ".join(piece.text for piece in page_text(reader.pages[0]))
    assert "Sted ukjent." in words and "Magasinkraftverk" in words


def test_the_same_place_gives_the_same_skyline_and_another_place_another(deck):
    ranges = deck_scales(deck)
    card = deck.plant_cards[0]
    moved = card.model_copy(update={"lat": card.lat + 0.01})  # within one step of place
    away = card.model_copy(update={"lat": card.lat + 2.0})
    assert plan_picture(card, ranges, POKER) == plan_picture(card, ranges, POKER)
    assert plan_picture(moved, ranges, POKER).ridge == plan_picture(card, ranges, POKER).ridge
    assert plan_picture(away, ranges, POKER).ridge != plan_picture(card, ranges, POKER).ridge


def test_the_drawn_measures_are_whole_steps_of_the_scale(deck):
    """A change of head no one could see (a hundredth of a metre) draws the same picture."""
    ranges = deck_scales(deck)
    card = deck.plant_cards[0]
    nudged = card.model_copy(update={"head_m": card.figure("head_m") + 0.01})
    assert plan_picture(nudged, ranges, POKER) == plan_picture(card, ranges, POKER)


def test_no_wave_runs_through_the_types_name(deck):
    """The audit saw the wave line through "Magasinkraftverk": every stroke painted in the
    picture keeps clear of the type's name, read from the PDF's drawing operations."""
    from kraftstokk.render.preflight.budget import WorkBudget
    from kraftstokk.render.preflight.content import PageReader
    from kraftstokk.render.preflight.space import MM

    picture = POKER.boxes.picture
    ids = [card.id for card in deck.plant_cards]
    reader = PdfReader(io.BytesIO(faces_pdf(deck, POKER, only=ids)))
    pages = PageReader(reader, WorkBudget())
    for number, page in enumerate(reader.pages[: len(ids)], start=1):
        marks = pages.read(page, number).marks
        (label,) = [m for m in marks if m.kind == "text" and "kraftverk'" in m.label]
        strokes = [
            m.bbox
            for m in marks
            if m.kind == "stroke"
            and picture.x * MM <= m.bbox[0]
            and m.bbox[2] <= picture.right * MM
            and picture.y * MM <= m.bbox[1]
            and m.bbox[3] <= picture.top * MM
        ]
        assert strokes, ids[number - 1]  # the wave and the penstock are there
        x0, y0, x1, y1 = label.bbox
        for sx0, sy0, sx1, sy1 in strokes:
            assert sx1 < x0 or sx0 > x1 or sy1 < y0 or sy0 > y1, (ids[number - 1], label.label)


def test_the_faces_words_are_the_locale_files(deck, locale_copy):
    """The type's name, the small print's note, the Strømkrig line, the nr. pill and the
    rows' labels are bokmål's words as its words.toml has them: a translator's edit reaches
    the face, no code holds them."""
    words = locale_copy / "nb" / "words.toml"
    text = words.read_text(encoding="utf-8")
    for old, new in [
        ('reservoir = "Magasinkraftverk"', 'reservoir = "Magasinverk"'),
        ('place = "Sted ukjent."', 'place = "Stedet er ukjent."'),
        ('burn = "brenner bunken"', 'burn = "brenner hele bunken"'),
        ('nr = "nr.\\u00A0{nr}"', 'nr = "Nr {nr}"'),
        ('head_m = "fallhøyde"', 'head_m = "fall"'),
    ]:
        assert old in text
        text = text.replace(old, new)
    words.write_text(text, encoding="utf-8")
    burner = next(c for c in deck.plant_cards if c.flags.burn and not c.flags.reset)
    card = burner.model_copy(update={"lat": None, "lon": None})
    edited = deck.model_copy(update={"cards": [card if c is burner else c for c in deck.cards]})
    assert card.type == "reservoir"
    reader = PdfReader(io.BytesIO(faces_pdf(edited, POKER, only=[card.id])))
    printed = " ".join(piece.text for piece in page_text(reader.pages[0]))
    nr = f"Nr {card.nr.get('mw')}" if card.nr else "?"
    for shown in ("Magasinverk", "Stedet er ukjent.", "Strømkrig: brenner hele bunken", nr, "Fall"):
        assert shown in printed
    assert "Magasinkraftverk" not in printed and "Fallhøyde" not in printed
