"""The tuck box: panel sizes from the card size and deck thickness, one piece that folds."""

from __future__ import annotations

import io
from collections import Counter

import pytest
from pypdf import PdfReader

from kraftstokk.design.layout import layout_names, load_layout
from kraftstokk.errors import RenderError
from kraftstokk.models import Deck
from kraftstokk.render.box import (
    BOARD_ALLOWANCE,
    CLEARANCE,
    LAYERS,
    BoxOptions,
    Segment,
    TuckBox,
    tuck_box,
    tuck_box_pdf,
)
from tests.conftest import synthetic_deck
from tests.render_probe import PT, page_text

CASES = [(name, 55, 0.3) for name in layout_names()] + [("poker", 40, 0.5), ("bridge", 60, 0.28)]


def _key(p: tuple[float, float]) -> tuple[float, float]:
    return (round(p[0], 6), round(p[1], 6))


def _edges(box: TuckBox, piece: str) -> list[Segment]:
    points = box.pieces[piece].outline
    return [Segment(a, b) for a, b in zip(points, points[1:] + points[:1], strict=True)]


def _same(a: Segment, b: Segment) -> bool:
    return {_key(a.a), _key(a.b)} == {_key(b.a), _key(b.b)}


@pytest.mark.parametrize(("name", "cards", "thickness"), CASES)
def test_panel_sizes_follow_card_size_and_thickness(name: str, cards: int, thickness: float):
    layout = load_layout(name)
    box = tuck_box(layout, BoxOptions(cards=cards, thickness=thickness))
    width, height = layout.width + CLEARANCE, layout.height + CLEARANCE
    depth = cards * thickness + BOARD_ALLOWANCE
    size = lambda part: (round(box.panel(part).w, 6), round(box.panel(part).h, 6))  # noqa: E731
    assert size("front") == size("back") == (round(width, 6), round(height, 6))
    assert size("side_left") == size("side_right") == (round(depth, 6), round(height, 6))
    assert size("lid") == size("bottom") == (round(width, 6), round(depth, 6))
    assert size("lid_tuck") == size("bottom_tuck") == (round(width, 6), round(box.tuck, 6))
    for dust in ("dust_top_left", "dust_top_right", "dust_bottom_left", "dust_bottom_right"):
        w, h = size(dust)
        assert w == round(depth, 6)
        assert h < width / 2  # the two dust flaps of an end never overlap
    assert size("glue_tab")[1] == round(height, 6)
    # the thumb notch fits in the front's top edge and is shallower than the tuck flap
    assert 2 * box.notch < width / 2 and box.notch < box.tuck


@pytest.mark.parametrize(("name", "cards", "thickness"), CASES)
def test_it_folds_as_drawn(name: str, cards: int, thickness: float):
    box = tuck_box(load_layout(name), BoxOptions(cards=cards, thickness=thickness))
    # every fold joins exactly two pieces, along a whole edge of each
    for fold in box.folds:
        joined = [p for p in box.pieces if any(_same(fold, e) for e in _edges(box, p))]
        assert len(joined) == 2, (fold, joined)

    def joins(a: str, b: str) -> bool:
        return any(_same(e, f) for e in _edges(box, a) for f in _edges(box, b))

    # the body wraps round: back, side, front, side, and the glue tab on the far side
    for a, b in [("back", "side_left"), ("side_left", "front"), ("front", "side_right"),
                 ("side_right", "glue_tab")]:  # fmt: skip
        assert joins(a, b), (a, b)
    assert not joins("back", "glue_tab")  # glued inside the back's free edge, not folded to it
    back, glue = box.panel("back"), box.panel("glue_tab")
    assert glue.x > back.right and glue.w <= back.w  # it lies inside the back once folded
    # lids: the top one on the back (its tuck flap into the front, at the thumb notch),
    # the bottom one on the front (a reverse tuck); dust flaps on the sides
    assert joins("back", "lid") and joins("lid", "lid_tuck")
    assert joins("front", "bottom") and joins("bottom", "bottom_tuck")
    assert not joins("front", "lid") and not joins("back", "bottom")
    for side in ("side_left", "side_right"):
        end = side.split("_")[1]
        assert joins(side, f"dust_top_{end}") and joins(side, f"dust_bottom_{end}")
    front = box.pieces["front"]
    notch_floor = min(y for x, y in front.outline if y < box.height - 1e-6 and y > 0)
    assert notch_floor == pytest.approx(box.height - box.notch, abs=0.01)
    # the cut lines are one closed outline: every end meets exactly one other cut
    ends = Counter(_key(p) for seg in box.cuts() for p in (seg.a, seg.b))
    assert set(ends.values()) == {2}
    loops, seen = 0, set()
    neighbours: dict[tuple[float, float], list[tuple[float, float]]] = {}
    for seg in box.cuts():
        neighbours.setdefault(_key(seg.a), []).append(_key(seg.b))
        neighbours.setdefault(_key(seg.b), []).append(_key(seg.a))
    for start in neighbours:
        if start in seen:
            continue
        loops += 1
        stack = [start]
        while stack:
            point = stack.pop()
            if point not in seen:
                seen.add(point)
                stack.extend(neighbours[point])
    assert loops == 1
    outline = box.cut_outline()  # the same loop, walked in order, every cut once
    assert len(outline) == len(box.cuts()) and len(set(map(_key, outline))) == len(outline)


@pytest.fixture(scope="module")
def deck() -> Deck:
    return synthetic_deck()


@pytest.fixture(scope="module")
def reader(deck: Deck) -> PdfReader:
    return PdfReader(io.BytesIO(tuck_box_pdf(deck, load_layout("poker"))))


def test_cut_and_fold_lines_are_named_layers_outside_the_artwork(reader: PdfReader):
    properties = reader.trailer["/Root"]["/OCProperties"]
    names = sorted(str(group.get_object()["/Name"]) for group in properties["/OCGs"])
    assert names == sorted(title for _, title in LAYERS.values())
    page = reader.pages[0]
    resources = page["/Resources"]["/Properties"]
    assert {str(k) for k in resources} == {f"/{resource}" for resource, _ in LAYERS.values()}
    content = page.get_contents().get_data().decode("latin-1")
    cut = content.index("/OC /OCcut BDC")
    fold = content.index("/OC /OCfold BDC")
    # each layer holds only its strokes: no text, no fills, and it is closed before the next
    for start in (cut, fold):
        body = content[start : content.index("EMC", start)]
        ops = body.split()
        assert "S" in ops and "BT" not in ops and "f" not in ops and "f*" not in ops
    assert content.count("BDC") == content.count("EMC") == 3


def test_faces_carry_title_edition_and_attribution(reader: PdfReader, deck: Deck):
    texts = [p.text for p in page_text(reader.pages[0])]
    assert texts.count(deck.title) >= 4  # the card back art twice, the back, the lid
    assert any(deck.edition in t for t in texts)
    assert any(t.startswith("Data:") for t in texts)
    assert "LIM" in texts
    width, height = (float(v) * PT for v in reader.pages[0].mediabox[2:])
    assert (round(width), round(height)) == (210, 297)


def test_same_deck_same_bytes(deck: Deck):
    poker = load_layout("poker")
    assert tuck_box_pdf(deck, poker) == tuck_box_pdf(synthetic_deck(), poker)


def test_a_deck_too_thick_for_the_paper_is_an_error(deck: Deck):
    with pytest.raises(RenderError, match="does not fit on a4 paper"):
        tuck_box_pdf(deck, load_layout("poker"), BoxOptions(cards=200, thickness=1.0))
    with pytest.raises(RenderError, match="--card-thickness"):
        BoxOptions(thickness=3.0).check()


# --- Issue 34: what the prepress audit found on the home box ---------------------------


def _luminance(rgb: tuple[float, float, float]) -> float:
    """WCAG 2 relative luminance of an sRGB colour (0..1 channels)."""

    def linear(c: float) -> float:
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (linear(c) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def _contrast(a: tuple[float, float, float], b: tuple[float, float, float]) -> float:
    high, low = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def _strokes(content: str, layer: str) -> list[tuple[tuple[float, ...], float]]:
    """(stroke colour, line width) of each stroke painted in ``layer``'s marked content."""
    start = content.index(f"/OC /{layer} BDC")
    tokens = content[start : content.index("EMC", start)].split()
    colour: tuple[float, ...] = ()
    width = 1.0
    found = []
    for i, token in enumerate(tokens):
        if token == "RG":
            colour = tuple(float(v) for v in tokens[i - 3 : i])
        elif token == "w":
            width = float(tokens[i - 1])
        elif token == "S":
            found.append((colour, width))
    return found


def test_the_home_box_cut_line_is_one_a_person_can_follow_with_scissors(reader, deck):
    """The audit measured 0.5 pt black on navy (about 1.7:1). Now a white core inside a
    black edge: the core stands out from the artwork, the edge from bare paper."""
    from kraftstokk.design.palette import palette_from_style

    ground = palette_from_style(deck.style()).accent_dark
    fill = (ground.red, ground.green, ground.blue)
    content = reader.pages[0].get_contents().get_data().decode("latin-1")
    for layer in ("OCcut", "OCfold"):
        (edge, edge_width), (core, core_width) = _strokes(content, layer)
        assert edge == (0.0, 0.0, 0.0) and core == (1.0, 1.0, 1.0)
        assert edge_width >= 1.5 and core_width >= 0.6 and edge_width > core_width + 0.6
        assert _contrast(core, fill) >= 7.0  # the white core on the navy artwork
        assert _contrast(edge, (1.0, 1.0, 1.0)) >= 7.0  # the black edge on bare paper


def test_the_home_box_fill_stops_at_the_bleed(deck):
    """No ink further than the bleed from the cut: the flaps' rounded and slanted corners
    are not filled out to rectangles any more."""
    import numpy as np
    import pypdfium2 as pdfium

    from kraftstokk.render.box import BLEED, PAGE_MARGIN, tuck_box
    from kraftstokk.render.sheet_layout import PAPERS

    poker = load_layout("poker")
    box = tuck_box(poker, BoxOptions())
    page = pdfium.PdfDocument(tuck_box_pdf(deck, poker))[0]
    dpi = 50
    image = np.asarray(page.render(scale=dpi / 72).to_pil().convert("L"), np.int16)
    paper = PAPERS["a4"]
    bounds = box.bounds
    ox = (paper.width - bounds.w) / 2 - bounds.x
    oy = (paper.height - bounds.h) / 2 - bounds.y
    outline = np.array(box.cut_outline())
    a, b = outline, np.roll(outline, -1, axis=0)
    dark, checked = 0, 0
    for row in range(0, image.shape[0], 2):
        for col in range(0, image.shape[1], 2):
            x = (col + 0.5) * 25.4 / dpi - ox
            y = paper.height - (row + 0.5) * 25.4 / dpi - oy
            reach = BLEED + 2.5  # (the notes below the box start 4 mm past the bleed)
            if not (bounds.x - reach < x < bounds.right + reach
                    and bounds.y - reach < y < bounds.top + reach):  # fmt: skip
                continue
            ab = b - a
            t = np.clip(((x - a[:, 0]) * ab[:, 0] + (y - a[:, 1]) * ab[:, 1]) / (ab**2).sum(1),
                        0, 1)  # fmt: skip
            distance = np.hypot(a[:, 0] + t * ab[:, 0] - x, a[:, 1] + t * ab[:, 1] - y).min()
            inside = _inside_polygon((x, y), box.cut_outline())
            if not inside and distance > BLEED + 0.6:
                checked += 1
                dark += int(image[row, col] < 200)
    assert checked > 1000 and dark == 0
    assert PAGE_MARGIN > BLEED


def _inside_polygon(point: tuple[float, float], ring: list[tuple[float, float]]) -> bool:
    x, y = point
    inside = False
    for (x1, y1), (x2, y2) in zip(ring, ring[1:] + ring[:1], strict=True):
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            inside = not inside
    return inside


def test_the_thumb_notch_cuts_no_frame_of_the_back(deck):
    """The front's frames bend round the notch at the distance they keep from the edge."""
    import math

    from kraftstokk.render.box import notched_frame, tuck_box

    for name in layout_names():
        card = load_layout(name)
        box = tuck_box(card, BoxOptions())
        front = box.panel("front")
        notch_x = card.width / 2
        edge = card.height + (front.h - card.height) / 2
        back = card.spec.back
        for inset, radius in ((back.frame_inset, back.frame_radius),
                              (back.inner_frame_inset, back.inner_frame_radius)):  # fmt: skip
            frame = notched_frame(card.cut.inset(inset), radius, notch_x, edge, box.notch)
            gap = edge - card.cut.inset(inset).top
            nearest = min(math.hypot(x - notch_x, y - edge) for x, y in frame)
            assert nearest >= box.notch + gap - 0.01, name
            assert max(y for _, y in frame) <= edge - gap + 1e-6


def test_the_box_speaks_norwegian_numbers_and_the_cards_credit(reader, deck):
    from kraftstokk.design.face_text import small_print_lines

    texts = " ".join(p.text for p in page_text(reader.pages[0]))
    assert "64,5 × 89,9 × 19,6 mm" in texts and "0,32 mm" in texts
    assert "64.5" not in texts and "0.32" not in texts
    info = reader.metadata
    assert info is not None and "63,5 × 88,9 mm" in str(info.title)
    assert "0,32 mm" in str(info.subject)
    # The same words as the cards' small print, though the box has room for more
    credit = (
        "JRC Hydro-power database (Matteo De Felice et al., energy-modelling-toolkit/"
        "hydro-power-database), CC BY 4.0; norske tall opprinnelig fra NVE, NLOD."
    )
    credited = deck.model_copy(
        update={"snapshot": deck.snapshot.model_copy(update={"attribution_nb": credit})}
    )
    boxed = PdfReader(io.BytesIO(tuck_box_pdf(credited, load_layout("poker"))))
    lines = [p.text for p in page_text(boxed.pages[0])]
    first = next(i for i, line in enumerate(lines) if line.startswith("Data:"))
    on_box = " ".join(lines[first : first + 2])
    on_cards = " ".join(small_print_lines(credited, load_layout("poker"))[1:])
    assert on_box == on_cards == "Data: JRC Hydro-power database, CC BY 4.0; NVE, NLOD."
