"""The print-shop file: one card per page with bleed, TrimBox and BleedBox."""

from __future__ import annotations

import io

import pytest
from pypdf import PdfReader

from kraftstokk.design.layout import load_layout
from kraftstokk.design.presets import load_preset
from kraftstokk.models import Deck
from kraftstokk.render.printshop import page_sequence, printshop_pdf
from tests.conftest import synthetic_deck
from tests.render_probe import PT, fonts_of, page_shapes, page_text


@pytest.fixture(scope="module")
def deck() -> Deck:
    return synthetic_deck()


@pytest.fixture(scope="module")
def reader(deck: Deck) -> PdfReader:
    return PdfReader(io.BytesIO(printshop_pdf(deck, POKER)))


POKER = load_layout("poker")


def _mm(box) -> tuple[float, ...]:
    return tuple(round(float(v) * PT, 2) for v in (box.left, box.bottom, box.right, box.top))


def test_page_is_card_plus_bleed_and_slug_with_trim_and_bleed_boxes(reader: PdfReader):
    """The default (offset) page: 3 mm bleed, then an 8 mm slug for the crop marks."""
    assert len(reader.pages) == 110
    for page in reader.pages:
        assert _mm(page.mediabox) == (0.0, 0.0, 85.5, 110.9)
        assert _mm(page.trimbox) == (11.0, 11.0, 74.5, 99.9)
        assert _mm(page.bleedbox) == (8.0, 8.0, 77.5, 102.9)
        assert "/TrimBox" in page and "/BleedBox" in page


def test_drivethrucards_page_is_the_card_plus_an_eighth_inch(deck: Deck):
    pdf = printshop_pdf(deck, load_layout("poker-dtc"), load_preset("drivethrucards"))
    page = PdfReader(io.BytesIO(pdf)).pages[0]
    assert _mm(page.mediabox) == (0.0, 0.0, 69.85, 95.25)  # 2.75 x 3.75 in
    assert float(page.mediabox.width) / 72 == pytest.approx(2.75)
    assert float(page.mediabox.height) / 72 == pytest.approx(3.75)
    assert _mm(page.trimbox) == (3.17, 3.17, 66.67, 92.07)  # 1/8 in = 3.175 mm
    assert _mm(page.bleedbox) == _mm(page.mediabox)


def test_background_fills_the_bleed(reader: PdfReader):
    for page in reader.pages[:2]:  # a front and a back
        clip = page_shapes(page).clips[0]
        assert clip.rounded(2) == (8.0, 8.0, 77.5, 102.9)


def test_fronts_and_backs_alternate(reader: PdfReader, deck: Deck):
    first_front = [p.text for p in page_text(reader.pages[0])]
    first_back = [p.text for p in page_text(reader.pages[1])]
    assert deck.cards[0].name in first_front
    assert first_back.count(deck.title) == 2 and deck.cards[0].name not in first_back
    assert deck.cards[1].name in [p.text for p in page_text(reader.pages[2])]


def test_backs_last_order(deck: Deck):
    assert page_sequence(3, "backs-last") == [
        ("front", 0),
        ("front", 1),
        ("front", 2),
        ("back", 0),
        ("back", 1),
        ("back", 2),
    ]
    reader = PdfReader(io.BytesIO(printshop_pdf(deck, POKER, order="backs-last")))
    names = [p.text for p in page_text(reader.pages[54])]
    assert deck.cards[54].name is None and "Joker" in names
    assert [p.text for p in page_text(reader.pages[55])].count(deck.title) == 2


def test_bleed_option_changes_page_and_boxes(deck: Deck):
    preset = load_preset("drivethrucards").model_copy(update={"bleed_mm": 5.0})
    reader = PdfReader(io.BytesIO(printshop_pdf(deck, POKER, preset)))
    page = reader.pages[0]
    assert _mm(page.mediabox) == (0.0, 0.0, 73.5, 98.9)
    assert _mm(page.trimbox) == (5.0, 5.0, 68.5, 93.9)
    assert page_shapes(page).clips[0].rounded(2) == (0.0, 0.0, 73.5, 98.9)


def test_fonts_embedded_and_bytes_repeat(reader: PdfReader, deck: Deck):
    assert all(fonts_of(reader).values())
    assert printshop_pdf(deck, POKER) == printshop_pdf(synthetic_deck(), POKER)
