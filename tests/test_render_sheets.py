"""The home-print sheets, measured in the PDF itself."""

from __future__ import annotations

import io
from itertools import pairwise

import pytest
from pypdf import PdfReader

from kraftstokk.design.fit import fit_name
from kraftstokk.design.layout import load_layout
from kraftstokk.design.numbers import deck_decimals, format_figure
from kraftstokk.models import CATEGORIES, Deck
from kraftstokk.render.sheets import sheets_pdf
from tests.conftest import synthetic_deck
from tests.render_probe import PT, Rect, Segment, fonts_of, page_shapes, page_text, text_in

POKER = load_layout("poker")
CARD_W, CARD_H = 63.5, 88.9
TOL = 0.05
ROUNDING = 0.01  # mm: reportlab writes coordinates to 1/100 pt
PAGE_MM = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
#: Cells per paper for poker cards: (columns, rows, cell width, cell height). Letter is
#: too short for three rows with full bleed and marks, so its cards lie on their side.
GRID = {"a4": (3, 3, CARD_W, CARD_H), "letter": (2, 4, CARD_H, CARD_W)}


@pytest.fixture(scope="module")
def deck() -> Deck:
    return synthetic_deck()


@pytest.fixture(scope="module", params=["a4", "letter"])
def sheets(request: pytest.FixtureRequest, deck: Deck) -> tuple[str, PdfReader]:
    return request.param, PdfReader(io.BytesIO(sheets_pdf(deck, POKER, paper=request.param)))


def crop_marks(segments: list[Segment]) -> list[Segment]:
    return [s for s in segments if abs(s.width - 0.3) < 1e-6 and s.colour == (0.0, 0.0, 0.0)]


def cut_lines(marks: list[Segment]) -> tuple[list[float], list[float]]:
    """x of the vertical cut lines and y of the horizontal ones, read from the crop marks."""
    xs = sorted({round(m.x1, 3) for m in marks if abs(m.x1 - m.x2) < 1e-6})
    ys = sorted({round(m.y1, 3) for m in marks if abs(m.y1 - m.y2) < 1e-6})
    return xs, ys


def test_page_size_and_count(sheets: tuple[str, PdfReader]):
    paper, reader = sheets
    assert len(reader.pages) == 7 + 7 + 2  # fronts and backs of 55 cards, duplex test sheet
    width, height = PAGE_MM[paper]
    for page in reader.pages:
        assert float(page.mediabox.width) * PT == pytest.approx(width, abs=0.01)
        assert float(page.mediabox.height) * PT == pytest.approx(height, abs=0.01)


def test_viewer_prints_at_actual_size(sheets: tuple[str, PdfReader]):
    _, reader = sheets
    prefs = reader.trailer["/Root"]["/ViewerPreferences"]
    assert prefs["/PrintScaling"] == "/None"
    assert prefs["/Duplex"] == "/DuplexFlipLongEdge"


def test_crop_marks_give_card_sized_cells_and_stay_outside_the_block(
    sheets: tuple[str, PdfReader],
):
    paper, reader = sheets
    cols, rows, cell_w, cell_h = GRID[paper]
    for number in range(14):
        marks = crop_marks(page_shapes(reader.pages[number]).segments)
        assert len(marks) == 2 * (cols + 1) + 2 * (rows + 1), f"page {number + 1}"
        xs, ys = cut_lines(marks)
        assert len(xs) == cols + 1 and len(ys) == rows + 1
        for a, b in pairwise(xs):
            assert b - a == pytest.approx(cell_w, abs=TOL)
        for a, b in pairwise(ys):
            assert b - a == pytest.approx(cell_h, abs=TOL)
        block = Rect(xs[0], ys[0], xs[-1], ys[-1])
        for m in marks:
            for x, y in ((m.x1, m.y1), (m.x2, m.y2)):
                inside = block.x1 < x < block.x2 and block.y1 < y < block.y2
                assert not inside, f"crop mark inside the card block on page {number + 1}"
            # a mark runs along its cut line, never across the block
            assert (
                min(m.y1, m.y2) >= block.y2
                or max(m.y1, m.y2) <= block.y1
                or (min(m.x1, m.x2) >= block.x2 or max(m.x1, m.x2) <= block.x1)
            )


def test_each_card_is_clipped_to_its_cell_with_bleed_only_on_the_block_edge(
    sheets: tuple[str, PdfReader],
):
    paper, reader = sheets
    cols, rows, cell_w, cell_h = GRID[paper]
    page = reader.pages[0]
    xs, ys = cut_lines(crop_marks(page_shapes(page).segments))
    clips = page_shapes(page).clips
    assert len(clips) == cols * rows
    for clip in clips:
        mid_x, mid_y = (clip.x1 + clip.x2) / 2, (clip.y1 + clip.y2) / 2
        col = min(range(cols), key=lambda i: abs((xs[i] + xs[i + 1]) / 2 - mid_x))
        row = min(range(rows), key=lambda j: abs((ys[j] + ys[j + 1]) / 2 - mid_y))
        cell = Rect(xs[col], ys[row], xs[col + 1], ys[row + 1])
        assert cell.w == pytest.approx(cell_w, abs=TOL)
        assert cell.h == pytest.approx(cell_h, abs=TOL)
        # interior edges sit exactly on the shared cut line; outer edges get the full bleed
        for edge, cut, outer, sign in (
            (clip.x1, cell.x1, col == 0, -1),
            (clip.x2, cell.x2, col == cols - 1, 1),
            (clip.y1, cell.y1, row == 0, -1),
            (clip.y2, cell.y2, row == rows - 1, 1),
        ):
            if outer:
                assert sign * (edge - cut) == pytest.approx(3.0, abs=0.01)
            else:
                assert edge == pytest.approx(cut, abs=0.01)


def test_full_bleed_on_every_side_of_every_paper(sheets: tuple[str, PdfReader]):
    """Issue 14: Letter sheets had no bleed at the top and bottom (dropped for the marks)."""
    _, reader = sheets
    for number in (0, 1):  # a front page and a back page
        clips = page_shapes(reader.pages[number]).clips
        xs, ys = cut_lines(crop_marks(page_shapes(reader.pages[number]).segments))
        assert min(c.x1 for c in clips) == pytest.approx(xs[0] - 3.0, abs=0.01)
        assert max(c.x2 for c in clips) == pytest.approx(xs[-1] + 3.0, abs=0.01)
        assert min(c.y1 for c in clips) == pytest.approx(ys[0] - 3.0, abs=0.01)
        assert max(c.y2 for c in clips) == pytest.approx(ys[-1] + 3.0, abs=0.01)


def test_every_crop_mark_ends_5_mm_inside_the_paper(sheets: tuple[str, PdfReader]):
    """Issue 14: marks ended 3 mm from the edge, where many home printers cannot print."""
    paper, reader = sheets
    width, height = PAGE_MM[paper]
    for number in range(len(reader.pages)):
        for m in crop_marks(page_shapes(reader.pages[number]).segments):
            for x, y in ((m.x1, m.y1), (m.x2, m.y2)):
                assert 5.0 - ROUNDING <= x <= width - 5.0 + ROUNDING, (
                    f"page {number + 1}: x {x:.2f}"
                )
                assert 5.0 - ROUNDING <= y <= height - 5.0 + ROUNDING, (
                    f"page {number + 1}: y {y:.2f}"
                )
            assert abs(m.x1 - m.x2) + abs(m.y1 - m.y2) >= 1.5 - 1e-6  # still a visible mark


def _close(a: list[Rect], b: list[Rect]) -> bool:
    key = lambda r: (round(r.y1), round(r.x1))  # noqa: E731
    return len(a) == len(b) and all(
        max(abs(p - q) for p, q in zip(r.rounded(4), t.rounded(4), strict=True)) < 0.01
        for r, t in zip(sorted(a, key=key), sorted(b, key=key), strict=True)
    )


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("duplex", ["long", "short"])
def test_back_cells_mirror_front_cells(deck: Deck, duplex: str, paper: str):
    pdf = sheets_pdf(deck, POKER, paper=paper, duplex=duplex)  # type: ignore[arg-type]
    reader = PdfReader(io.BytesIO(pdf))
    page_w, page_h = PAGE_MM[paper]
    per_page = GRID[paper][0] * GRID[paper][1]
    for sheet in range(7):
        fronts = page_shapes(reader.pages[2 * sheet]).clips
        backs = page_shapes(reader.pages[2 * sheet + 1]).clips
        assert len(fronts) == len(backs) == min(per_page, 55 - sheet * per_page)
        if duplex == "long":
            expected = [Rect(page_w - r.x2, r.y1, page_w - r.x1, r.y2) for r in fronts]
        else:
            expected = [Rect(r.x1, page_h - r.y2, r.x2, page_h - r.y1) for r in fronts]
        assert _close(backs, expected), f"sheet {sheet + 1}"
    if paper != "a4":
        return
    # the lone last card: top-left in front, so top-right (long) or bottom-left (short) behind
    last_back = page_shapes(reader.pages[13]).clips[0]
    if duplex == "long":
        assert last_back.x2 > page_w / 2 and last_back.y1 > page_h / 2
    else:
        assert last_back.x2 < page_w / 2 and last_back.y2 < page_h / 2


def test_every_name_figure_and_nr_is_text_inside_its_own_cell(
    sheets: tuple[str, PdfReader], deck: Deck
):
    _, reader = sheets
    decimals = deck_decimals(deck)
    cards = iter(deck.cards)
    for sheet in range(7):
        page = reader.pages[2 * sheet]
        pieces = page_text(page)
        clips = page_shapes(page).clips
        # clips are drawn in slot order: row by row from the top left
        for clip in clips:
            card = next(cards)
            found = text_in(pieces, clip).split("|")
            if card.joker:
                assert "Joker" in found
                continue
            for line in fit_name(card.name or "", POKER).lines:
                assert line in found, f"{card.label}: {line!r} not in {found}"
            for category in CATEGORIES:
                figure = format_figure(card.figure(category), category, decimals[category])
                assert figure.replace("\xa0", " ") in found, f"{card.label}: {figure!r}"
                assert card.nr is not None
                assert f"nr. {card.nr.get(category)}" in found
    assert next(cards, None) is None


def test_back_pages_carry_title_and_edition(sheets: tuple[str, PdfReader], deck: Deck):
    paper, reader = sheets
    texts = [p.text for p in page_text(reader.pages[1])]
    per_page = GRID[paper][0] * GRID[paper][1]
    assert texts.count(deck.title) == 2 * per_page  # upright and turned, on each back
    assert deck.edition in texts


def test_all_fonts_embedded(sheets: tuple[str, PdfReader]):
    _, reader = sheets
    fonts = fonts_of(reader)
    assert fonts and all(fonts.values()), fonts
    assert all("Vera" in name for name in fonts)


def test_duplex_test_sheet_is_last_and_has_scales(deck: Deck):
    reader = PdfReader(io.BytesIO(sheets_pdf(deck, POKER)))
    front = " ".join(p.text for p in page_text(reader.pages[14]))
    back = " ".join(p.text for p in page_text(reader.pages[15]))
    assert "Duplekstest" in front and "100 mm" in front
    assert "+5" in back and "-5" in back


def test_same_deck_same_bytes(deck: Deck):
    assert sheets_pdf(deck, POKER) == sheets_pdf(synthetic_deck(), POKER)
