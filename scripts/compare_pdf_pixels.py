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

import pypdfium2 as pdfium
from PIL import ImageChops


def compare(old: str, new: str, dpi: int) -> int:
    try:
        first, second = pdfium.PdfDocument(old), pdfium.PdfDocument(new)
    except (pdfium.PdfiumError, OSError) as exc:
        print(f"cannot read: {exc}", file=sys.stderr)
        return 2
    if len(first) != len(second):
        print(f"{old} has {len(first)} pages, {new} {len(second)}", file=sys.stderr)
        return 2
    differing = 0
    for index in range(len(first)):
        a = first[index].render(scale=dpi / 72).to_pil().convert("RGB")
        b = second[index].render(scale=dpi / 72).to_pil().convert("RGB")
        if a.size != b.size:
            print(f"page {index + 1}: size {a.size} against {b.size}")
            differing += 1
            continue
        difference = ImageChops.difference(a, b)
        box = difference.getbbox()
        if box is None:
            continue
        grey = difference.convert("L")
        changed = sum(grey.point(lambda v: 255 if v else 0).histogram()[255:])
        largest = max(band.getextrema()[1] for band in difference.split())
        print(f"page {index + 1}: {changed} pixels differ, largest change {largest}, in {box}")
        differing += 1
    print(f"{len(first)} pages at {dpi} dpi, {differing} differ")
    return 1 if differing else 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("old")
    parser.add_argument("new")
    parser.add_argument("--dpi", type=int, default=300)
    args = parser.parse_args()
    sys.exit(compare(args.old, args.new, args.dpi))


if __name__ == "__main__":
    main()
