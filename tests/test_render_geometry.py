"""Card layouts as data, sheet geometry, and the Norwegian number format of the figures."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kraftstokk.design.geometry import Box
from kraftstokk.design.layout import CardLayout, layout_names, load_layout
from kraftstokk.design.numbers import (
    decimals_for,
    deck_decimals,
    format_figure,
    format_number,
    printed_figure,
    round_shown,
)
from kraftstokk.render.sheet_layout import PAPERS, sheet_layout
from tests.conftest import synthetic_deck

DESIGN_BOXES = (
    "index", "index_rotated", "name", "picture", "scene", "map", "disc", "type_label", "rows",
    "footer",
)  # fmt: skip
LAYOUTS = layout_names()
POKER = load_layout("poker")


def test_poker_card_with_bleed_and_safe_area():
    assert (POKER.cut.w, POKER.cut.h) == (63.5, 88.9)
    assert POKER.bleed_box == Box(-3.0, -3.0, 69.5, 94.9)
    assert POKER.safe == Box(3.5, 3.5, 56.5, 81.9)


@pytest.mark.parametrize("name", LAYOUTS)
@pytest.mark.parametrize("box_name", DESIGN_BOXES)
def test_design_boxes_inside_the_safe_area(name: str, box_name: str):
    layout = load_layout(name)
    box: Box = getattr(layout.boxes, box_name)
    safe = layout.safe
    assert safe.x <= box.x + 1e-9 and box.right <= safe.right + 1e-9
    assert safe.y <= box.y + 1e-9 and box.top <= safe.top + 1e-9


@pytest.mark.parametrize("name", LAYOUTS)
def test_design_boxes_do_not_overlap(name: str):
    layout: CardLayout = load_layout(name)

    def overlap(a: Box, b: Box) -> bool:
        return a.x < b.right and b.x < a.right and a.y < b.top and b.y < a.top

    boxes = {box_name: getattr(layout.boxes, box_name) for box_name in DESIGN_BOXES}
    nested = {("picture", "scene"), ("map", "picture"), ("disc", "picture"), ("disc", "scene"),
              ("picture", "type_label"), ("scene", "type_label")}  # fmt: skip
    for a in boxes:
        for b in boxes:
            if a < b and (a, b) not in nested:
                assert not overlap(boxes[a], boxes[b]), (name, a, b)


@pytest.mark.parametrize("name", LAYOUTS)
def test_rotated_index_is_the_index_turned_half_a_turn(name: str):
    layout = load_layout(name)
    r, index = layout.boxes.index_rotated, layout.boxes.index
    expected = (layout.width - index.x, layout.height - index.top)
    assert (r.right, r.y) == pytest.approx(expected)


@pytest.mark.parametrize("name", LAYOUTS)
@pytest.mark.parametrize("paper", list(PAPERS))
def test_sheet_block_centred_and_marks_in_the_margin(paper: str, name: str):
    layout = sheet_layout(paper, load_layout(name))
    block = layout.block
    assert block.x == pytest.approx(PAPERS[paper].width - block.right)
    assert block.y == pytest.approx(PAPERS[paper].height - block.top)
    for mark in layout.crop_marks():
        for x, y in ((mark.x1, mark.y1), (mark.x2, mark.y2)):
            assert not (block.x < x < block.right and block.y < y < block.top)
            assert 0 < x < PAPERS[paper].width and 0 < y < PAPERS[paper].height


def test_back_cell_of_a_full_row_is_its_mirror():
    layout = sheet_layout("a4", POKER)
    assert layout.back_cell(0, "long") == layout.cell(2)
    assert layout.back_cell(0, "short") == layout.cell(6)


def test_norwegian_number_format():
    assert format_number(4357.2) == "4\u00a0357"
    assert format_number(1240.45, 1) == "1\u00a0240,5"
    assert format_number(2.5) == "3"  # half up, not to even
    assert format_number(749.74) == "749"  # never up into the next ten (SK-6b)
    assert format_number(999.96, 1) == "999,9"
    assert format_number(-0.4) == "0"
    assert format_figure(4357, "gwh") == "4\u00a0357\u00a0GWh"
    assert format_figure(1020.0, "head_m") == "1\u00a0020\u00a0m"


def test_decimals_only_when_needed_to_tell_figures_apart():
    assert decimals_for([100.0, 200.4, 300.0]) == 0
    assert decimals_for([100.4, 100.2, 300.0]) == 1


def test_same_rounding_for_a_field_on_every_card():
    deck = synthetic_deck()
    decimals = deck_decimals(deck)
    for category, places in decimals.items():
        shown = [format_figure(c.figure(category), category, places) for c in deck.plant_cards]
        assert len(set(shown)) == 52  # distinct figures stay distinct
        assert all(("," in s) == (places > 0) for s in shown)


@settings(max_examples=300, deadline=None)
@given(st.floats(min_value=0, max_value=1e6, allow_nan=False), st.integers(0, 1))
def test_formatted_number_reads_back_as_the_rounded_value(value: float, decimals: int):
    text = format_number(value, decimals)
    assert text.replace("\u00a0", "").replace(",", ".") == str(round_shown(value, decimals))
    groups = text.split(",")[0].split("\u00a0")
    assert all(len(g) == 3 for g in groups[1:]) and 1 <= len(groups[0]) <= 3


def test_bleed_runs_towards_empty_slots_but_never_across_a_neighbour():
    layout = sheet_layout("a4", POKER)
    lone = [layout.cell(0)]
    assert layout.cell_bleed(layout.cell(0), lone) == (3.0, 3.0, 3.0, 3.0)
    full = [layout.cell(slot) for slot in range(9)]
    assert layout.cell_bleed(layout.cell(4), full) == (0.0, 0.0, 0.0, 0.0)
    assert layout.cell_bleed(layout.cell(0), full) == (3.0, 0.0, 0.0, 3.0)
    assert layout.cell_bleed(layout.cell(8), full) == (0.0, 3.0, 3.0, 0.0)
    two = [layout.cell(0), layout.cell(1)]
    assert layout.cell_bleed(layout.cell(0), two) == (3.0, 3.0, 0.0, 3.0)


@settings(max_examples=300, deadline=None)
@given(st.floats(min_value=0, max_value=1e6, allow_nan=False), st.integers(0, 1))
def test_the_printed_figure_is_the_number_the_card_shows(value: float, decimals: int):
    """Claims are judged in printed figures: the number, and the text made from it."""
    printed = printed_figure(value, decimals)
    text = format_number(value, decimals)
    assert float(text.replace("\u00a0", "").replace(",", ".")) == printed
    assert format_number(printed, decimals) == text
    assert format_number(printed, decimals, " ") == text.replace("\u00a0", " ")


@settings(max_examples=300, deadline=None)
@given(st.floats(min_value=0.1, max_value=20000, allow_nan=False), st.integers(0, 1))
def test_printed_production_stays_in_its_war_ten(value: float, decimals: int):
    """SK-6b: players read the printed figure; it must lie in the exact figure's ten."""
    printed = float(format_number(value, decimals).replace("\u00a0", "").replace(",", "."))
    assert printed // 10 == value // 10


#: Cards per sheet with 3 mm bleed and marks 5 mm inside the paper: (cols, rows, turned).
EXPECTED_GRID = {
    ("a4", "poker"): (3, 3, False),
    ("letter", "poker"): (2, 4, True),
    ("a4", "bridge"): (3, 3, False),
    ("letter", "bridge"): (2, 4, True),
    ("a4", "poker-63x88"): (3, 3, False),
    ("letter", "poker-63x88"): (2, 4, True),
}


@pytest.mark.parametrize(("paper", "name"), list(EXPECTED_GRID))
def test_sheet_takes_as_many_cards_as_fit_with_full_bleed(paper: str, name: str):
    card = load_layout(name)
    layout = sheet_layout(paper, card)
    assert (layout.cols, layout.rows, layout.turned) == EXPECTED_GRID[(paper, name)]
    sheet = PAPERS[paper]
    area = layout.bleed_area()
    assert area == layout.block.inset(-3.0)
    # bleed, a gap and a mark of at least MIN_MARK fit between the block and the 5 mm edge
    room = layout.bleed + layout.mark_gap + layout.min_mark + layout.edge_clearance
    assert layout.block.x >= room - 1e-9 and layout.block.y >= room - 1e-9
    # one more column or row would not fit (in either orientation)
    for turned in (False, True):
        w, h = (card.height, card.width) if turned else (card.width, card.height)
        cols = int((sheet.width - 2 * room) // w)
        rows = int((sheet.height - 2 * room) // h)
        assert cols * rows <= layout.per_page
    for mark in layout.crop_marks():
        for x, y in ((mark.x1, mark.y1), (mark.x2, mark.y2)):
            assert 5.0 - 1e-9 <= x <= sheet.width - 5.0 + 1e-9
            assert 5.0 - 1e-9 <= y <= sheet.height - 5.0 + 1e-9
            assert not area.contains(x, y, tolerance=-1e-9)


def test_turned_cells_put_the_card_top_to_the_left():
    layout = sheet_layout("letter", POKER)
    cell = layout.cell(0)
    assert (cell.w, cell.h) == (88.9, 63.5)
    assert layout.card_origin(cell) == (cell.right, cell.y, 90)
    full = [layout.cell(slot) for slot in range(layout.per_page)]
    # top-left cell: page left and top are the block's edge; in the card's own directions
    # page top is the card's right and page left the card's top
    assert layout.cell_bleed(cell, full) == (3.0, 0.0, 0.0, 3.0)
    assert layout.card_extent(cell, full) == (0.0, 0.0, 3.0, 3.0)


def test_paper_too_small_for_a_card_is_an_error():
    from kraftstokk.errors import RenderError

    with pytest.raises(RenderError, match="does not fit on a4 paper"):
        sheet_layout("a4", POKER, bleed=80.0)
