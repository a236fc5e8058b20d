"""Saddle-stitch imposition: A5 pages two-up on A4 sheets that fold into a booklet.

A booklet of ``n`` pages is padded with blank pages to a multiple of four; the blanks go
before the last page, so the last page stays the outside back cover. Each A4 sheet
carries four pages, two per side; the sheets are printed duplex (flip on the short edge),
stacked in order, folded in the middle and stapled on the fold, and then read 1, 2, 3...
Sheet ``k`` (counting from 0, outermost first) of a booklet of ``N`` padded pages holds
pages ``N - 2k`` and ``2k + 1`` on its front and ``2k + 2`` and ``N - 2k - 1`` on its back.
"""

from __future__ import annotations

import io
from dataclasses import dataclass

from kraftstokk.errors import RenderError
from kraftstokk.render.print_hints import drop_annotations, set_print_hints, written_with_id

#: A4 landscape holds two A5 portrait pages side by side.
A4_LANDSCAPE_PT = (841.8897637795275, 595.2755905511812)


@dataclass(frozen=True)
class SheetSide:
    """One printed side: the page on the left and on the right half (None = blank)."""

    left: int | None
    right: int | None


def padded_page_count(page_count: int) -> int:
    """The page count rounded up to a multiple of four (a sheet holds four pages)."""
    if page_count < 1:
        raise RenderError(f"cannot impose a booklet of {page_count} pages")
    return -(-page_count // 4) * 4


def saddle_stitch_sides(page_count: int) -> list[SheetSide]:
    """The printed sides in print order: sheet 1 front, sheet 1 back, sheet 2 front, ...

    Page numbers are 1-based; the padding pages (``None``) come just before the last
    page, which is always the outside back cover (position ``total``).
    """
    total = padded_page_count(page_count)

    def page(position: int) -> int | None:
        if position < page_count or page_count == 1:
            return position if position <= page_count else None
        return page_count if position == total else None

    sides: list[SheetSide] = []
    for sheet in range(total // 4):
        sides.append(SheetSide(left=page(total - 2 * sheet), right=page(2 * sheet + 1)))
        sides.append(SheetSide(left=page(2 * sheet + 2), right=page(total - 2 * sheet - 1)))
    return sides


def impose_saddle_stitch(pdf: bytes) -> bytes:
    """Impose an A5 PDF (all pages the same size) onto A4 landscape sheets, two-up.

    Each source page is scaled to fit half of the A4 side and centred in it (A5 fits
    exactly). The output is deterministic: the same input bytes give the same output.
    """
    from pypdf import PageObject, PdfReader, PdfWriter, Transformation

    reader = PdfReader(io.BytesIO(pdf))
    pages = list(reader.pages)
    if not pages:
        raise RenderError("cannot impose a PDF without pages")
    sheet_width, sheet_height = A4_LANDSCAPE_PT
    half_width = sheet_width / 2
    writer = PdfWriter()
    for side in saddle_stitch_sides(len(pages)):
        sheet = PageObject.create_blank_page(width=sheet_width, height=sheet_height)
        for slot, number in enumerate((side.left, side.right)):
            if number is None:
                continue
            source = pages[number - 1]
            width = float(source.mediabox.width)
            height = float(source.mediabox.height)
            scale = min(half_width / width, sheet_height / height)
            dx = slot * half_width + (half_width - width * scale) / 2
            dy = (sheet_height - height * scale) / 2
            offset_x = float(source.mediabox.left)
            offset_y = float(source.mediabox.bottom)
            transform = (
                Transformation().translate(-offset_x, -offset_y).scale(scale).translate(dx, dy)
            )
            sheet.merge_transformed_page(source, transform)
        writer.add_page(sheet)
    # A print file: no links (merged from the pages, they would point at the wrong half),
    # printed at actual size on both sides, flipped on the short edge as imposed.
    drop_annotations(writer)
    set_print_hints(writer, duplex="short")
    return written_with_id(writer)
