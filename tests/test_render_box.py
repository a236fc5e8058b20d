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
