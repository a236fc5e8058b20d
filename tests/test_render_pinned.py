"""The poker card stays the same picture: faces and back against committed references.

The references (tests/fixtures/poker-reference, see its README) are today's poker cards
before layouts became data. Antialiasing may differ by a shade between pdfium builds, so
a pixel counts as changed only when a channel moves by more than CHANNEL_SLACK; any moved
box, changed size or colour changes thousands.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from PIL import Image, ImageChops

from kraftstokk.design.layout import load_layout
from kraftstokk.render.preview import faces_pdf
from tests.conftest import synthetic_deck

REFERENCE = Path(__file__).parent / "fixtures" / "poker-reference"
DPI = 100
PAGES = {"spar-1": 0, "hjerter-1": 1, "hjerter-10": 17, "klover-2": 50, "joker-1": 52, "back": 55}
CHANNEL_SLACK = 24
MAX_CHANGED = 0.001  # share of pixels


def _render(page: int, document: pdfium.PdfDocument) -> Image.Image:
    return document[page].render(scale=DPI / 72).to_pil().convert("RGB")


@pytest.fixture(scope="module")
def document() -> pdfium.PdfDocument:
    return pdfium.PdfDocument(faces_pdf(synthetic_deck(), load_layout("poker")))


@pytest.mark.parametrize("name", list(PAGES))
def test_poker_card_is_the_reference_picture(name: str, document: pdfium.PdfDocument):
    with Image.open(REFERENCE / f"{name}.png") as reference:
        expected = reference.convert("RGB")
    actual = _render(PAGES[name], document)
    assert actual.size == expected.size == (250, 350)
    difference = ImageChops.difference(actual, expected).convert("L")
    changed = sum(difference.point(lambda v: 255 if v > CHANNEL_SLACK else 0).histogram()[255:])
    assert changed / (250 * 350) <= MAX_CHANGED, f"{name}: {changed} pixels changed"


def test_the_check_sees_a_small_change(document: pdfium.PdfDocument):
    """Bridge-width boxes on the same deck are caught (the check is not blind)."""
    bridge = pdfium.PdfDocument(faces_pdf(synthetic_deck(), load_layout("bridge")))
    with Image.open(REFERENCE / "spar-1.png") as reference:
        expected = reference.convert("RGB")
    narrow = _render(0, bridge).resize(expected.size)
    difference = ImageChops.difference(narrow, expected).convert("L")
    changed = sum(difference.point(lambda v: 255 if v > CHANNEL_SLACK else 0).histogram()[255:])
    assert changed / (250 * 350) > 10 * MAX_CHANGED


def regenerate() -> None:
    document = pdfium.PdfDocument(faces_pdf(synthetic_deck(), load_layout("poker")))
    for name, page in PAGES.items():
        _render(page, document).save(REFERENCE / f"{name}.png", optimize=True)
        print(f"wrote {REFERENCE / name}.png")


if __name__ == "__main__" and "--regenerate" in sys.argv:
    regenerate()
