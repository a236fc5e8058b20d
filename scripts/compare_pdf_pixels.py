"""Compare two PDFs page by page as pictures: which pages differ, where, and by how much.

    .venv/bin/python scripts/compare_pdf_pixels.py OLD.pdf NEW.pdf [--dpi 300]

Renders every page of both files with pdfium and prints, for each page that differs, the
number of pixels that changed, the largest change of a colour channel and the bounding
box of the changes (pixels from the top left). Exit 0 when every page is the same
picture, 1 when some differ, 2 when the files cannot be compared (unreadable, or a
different number of pages). Use it to show that a refactoring kept the print the same.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass

import pypdfium2 as pdfium
from PIL import ImageChops


@dataclass(frozen=True)
class PageDifference:
    """One page that is not the same picture in both files (pages count from 1)."""

    page: int
    text: str


class NotComparable(Exception):
    """The files cannot be read, or have different numbers of pages."""


def differing_pages(old: str | bytes, new: str | bytes, dpi: int = 300) -> list[PageDifference]:
    """The pages of two PDFs (paths or bytes) that render to different pictures."""
    try:
        first, second = pdfium.PdfDocument(old), pdfium.PdfDocument(new)
    except (pdfium.PdfiumError, OSError) as exc:
        raise NotComparable(f"cannot read: {exc}") from exc
    if len(first) != len(second):
        raise NotComparable(f"the first file has {len(first)} pages, the second {len(second)}")
    found: list[PageDifference] = []
    for index in range(len(first)):
        a = first[index].render(scale=dpi / 72).to_pil().convert("RGB")
        b = second[index].render(scale=dpi / 72).to_pil().convert("RGB")
        if a.size != b.size:
            found.append(PageDifference(index + 1, f"size {a.size} against {b.size}"))
            continue
        difference = ImageChops.difference(a, b)
        box = difference.getbbox()
        if box is None:
            continue
        grey = difference.convert("L")
        changed = sum(grey.point(lambda v: 255 if v else 0).histogram()[255:])
        largest = max(band.getextrema()[1] for band in difference.split())
        text = f"{changed} pixels differ, largest change {largest}, in {box}"
        found.append(PageDifference(index + 1, text))
    return found


def compare(old: str, new: str, dpi: int) -> int:
    try:
        found = differing_pages(old, new, dpi)
    except NotComparable as exc:
        print(f"{old}, {new}: {exc}", file=sys.stderr)
        return 2
    for difference in found:
        print(f"page {difference.page}: {difference.text}")
    pages = len(pdfium.PdfDocument(old))
    print(f"{pages} pages at {dpi} dpi, {len(found)} differ")
    return 1 if found else 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("old")
    parser.add_argument("new")
    parser.add_argument("--dpi", type=int, default=300)
    args = parser.parse_args()
    sys.exit(compare(args.old, args.new, args.dpi))


if __name__ == "__main__":
    main()
