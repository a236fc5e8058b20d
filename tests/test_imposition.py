"""Saddle-stitch imposition: page order, padding and the imposed PDF."""

from __future__ import annotations

import io

import pytest
from pypdf import PdfReader
from reportlab.lib.pagesizes import A5
from reportlab.pdfgen.canvas import Canvas

from kraftstokk.errors import RenderError
from kraftstokk.render.imposition import (
    A4_LANDSCAPE_PT,
    SheetSide,
    impose_saddle_stitch,
    padded_page_count,
    saddle_stitch_sides,
)


def reading_order(sides: list[SheetSide]) -> list[int | None]:
    """The order a reader meets the pages once the sheets are stacked, folded and stapled.

    Going in, each sheet shows its front's right half and then its back's left half;
    coming out of the centre, each sheet (innermost first) shows its back's right half
    and then its front's left half.
    """
    fronts, backs = sides[0::2], sides[1::2]
    order: list[int | None] = []
    for front, back in zip(fronts, backs, strict=True):
        order += [front.right, back.left]
    for front, back in reversed(list(zip(fronts, backs, strict=True))):
        order += [back.right, front.left]
    return order


@pytest.mark.parametrize("pages", [1, 4, 8, 12, 13, 20, 22, 23])
def test_folded_stack_reads_in_order(pages):
    sides = saddle_stitch_sides(pages)
    total = padded_page_count(pages)
    assert total % 4 == 0 and total - 4 < pages <= total
    assert len(sides) == total // 2
    if pages == 1:
        expected: list[int | None] = [1, None, None, None]
    else:  # the blanks go just before the last page, the outside back cover
        expected = [*range(1, pages), *[None] * (total - pages), pages]
    assert reading_order(sides) == expected


def test_four_pages_is_one_sheet():
    assert saddle_stitch_sides(4) == [SheetSide(4, 1), SheetSide(2, 3)]


def test_eight_pages_outer_sheet_first():
    assert saddle_stitch_sides(8) == [
        SheetSide(8, 1),
        SheetSide(2, 7),
        SheetSide(6, 3),
        SheetSide(4, 5),
    ]


def test_thirteen_pages_get_three_blanks_before_the_back_cover():
    """Today's defect: the blanks went after page 13, so the outside back cover was blank."""
    sides = saddle_stitch_sides(13)
    assert padded_page_count(13) == 16
    numbers = [n for side in sides for n in (side.left, side.right)]
    assert numbers.count(None) == 3
    assert sorted(n for n in numbers if n is not None) == list(range(1, 14))
    # Page 13 is the outer sheet's front left (position 16, the outside back cover);
    # the blanks are positions 13-15, inside.
    assert sides[0] == SheetSide(13, 1)
    assert sides[1] == SheetSide(2, None)
    assert sides[2] == SheetSide(None, 3)
    assert reading_order(sides)[-1] == 13


def test_twenty_pages_middle_sheet():
    sides = saddle_stitch_sides(20)
    assert sides[-2:] == [SheetSide(12, 9), SheetSide(10, 11)]


@pytest.mark.parametrize("pages", [0, -3])
def test_no_pages_is_an_error(pages):
    with pytest.raises(RenderError):
        saddle_stitch_sides(pages)


def numbered_pdf(pages: int) -> bytes:
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=A5, invariant=1)
    for number in range(1, pages + 1):
        canvas.drawString(60, 300, f"PAGE{number:02d}")
        canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def page_markers(text: str) -> set[int]:
    return {int(word[4:]) for word in text.split() if word.startswith("PAGE")}


def test_imposed_pdf_places_pages_on_the_right_sides():
    imposed = impose_saddle_stitch(numbered_pdf(13))
    reader = PdfReader(io.BytesIO(imposed))
    assert len(reader.pages) == 8
    for page in reader.pages:
        assert float(page.mediabox.width) == pytest.approx(A4_LANDSCAPE_PT[0], abs=0.01)
        assert float(page.mediabox.height) == pytest.approx(A4_LANDSCAPE_PT[1], abs=0.01)
    for page, side in zip(reader.pages, saddle_stitch_sides(13), strict=True):
        expected = {n for n in (side.left, side.right) if n is not None}
        assert page_markers(page.extract_text()) == expected


def test_imposed_left_and_right_halves():
    reader = PdfReader(io.BytesIO(impose_saddle_stitch(numbered_pdf(4))))
    half = A4_LANDSCAPE_PT[0] / 2
    positions: dict[int, float] = {}

    def visit(text, cm, tm, font_dict, font_size):
        if text.startswith("PAGE"):
            positions[int(text[4:6])] = cm[4] + tm[4]

    reader.pages[0].extract_text(visitor_text=visit)
    assert positions[4] < half < positions[1]
    positions.clear()
    reader.pages[1].extract_text(visitor_text=visit)
    assert positions[2] < half < positions[3]


def test_imposition_is_reproducible():
    source = numbered_pdf(6)
    assert impose_saddle_stitch(source) == impose_saddle_stitch(source)


def test_the_imposed_file_is_a_print_file_with_print_hints():
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=A5, invariant=1)
    for number in range(1, 5):
        canvas.drawString(60, 300, f"PAGE{number:02d}")
        canvas.linkURL("https://example.org", (50, 290, 150, 310))  # a link, as in a ToC
        canvas.showPage()
    canvas.save()
    assert PdfReader(io.BytesIO(buffer.getvalue())).pages[0].get("/Annots")
    imposed = impose_saddle_stitch(buffer.getvalue())
    reader = PdfReader(io.BytesIO(imposed))
    assert all("/Annots" not in page for page in reader.pages)  # links stay on screen
    preferences = reader.trailer["/Root"]["/ViewerPreferences"]
    assert preferences["/PrintScaling"] == "/None"
    assert preferences["/Duplex"] == "/DuplexFlipShortEdge"  # as the sheets are imposed
    first, second = reader.trailer["/ID"]
    assert first == second and len(first) == 16
    other = impose_saddle_stitch(numbered_pdf(4))
    assert PdfReader(io.BytesIO(other)).trailer["/ID"][0] != first  # from the content
