"""draw_card_face / draw_card_back as other parts (the booklet) use them: placed and scaled."""

from __future__ import annotations

import io

import pytest
from PIL import Image
from pypdf import PdfReader
from reportlab.pdfgen.canvas import Canvas

from kraftstokk.design.geometry import mm
from kraftstokk.design.layout import load_layout
from kraftstokk.design.palette import PrintColour, palette_from_style
from kraftstokk.errors import RenderError
from kraftstokk.models import Deck
from kraftstokk.render.back import draw_card_back
from kraftstokk.render.card import draw_card_face
from kraftstokk.render.forms import palette_key
from tests.render_probe import Rect, fonts_of, page_shapes, page_text, text_in

POKER = load_layout("poker")


def _draw(deck: Deck, scale: float, bleed: bool) -> PdfReader:
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=(mm(200), mm(120)), invariant=1)
    draw_card_face(canvas, deck.cards[0], deck, mm(10), mm(20), POKER, scale=scale, bleed=bleed)
    draw_card_back(canvas, deck, mm(110), mm(20), POKER, scale=scale, bleed=bleed)
    canvas.showPage()
    canvas.save()
    return PdfReader(io.BytesIO(buffer.getvalue()))


@pytest.mark.parametrize(("scale", "bleed"), [(1.0, False), (0.5, False), (1.0, True)])
def test_face_and_back_land_where_asked(deck: Deck, scale: float, bleed: bool):
    page = _draw(deck, scale, bleed).pages[0]
    pad = 3.0 * scale if bleed else 0.0
    w, h = 63.5 * scale, 88.9 * scale
    face = Rect(10 - pad, 20 - pad, 10 + w + pad, 20 + h + pad)
    back = Rect(110 - pad, 20 - pad, 110 + w + pad, 20 + h + pad)
    clips = page_shapes(page).clips
    assert clips[0].rounded(2) == face.rounded(2)
    assert clips[1].rounded(2) == back.rounded(2)
    pieces = page_text(page)
    card = deck.cards[0]
    face_text = text_in(pieces, face).split("|")
    assert card.name in face_text and "nr. 1" in face_text
    assert text_in(pieces, back).split("|").count(deck.title) == 2
    assert all(face.contains(p.x, p.y) or back.contains(p.x, p.y) for p in pieces)


def test_corner_index_twice_and_the_second_turned(deck: Deck):
    page = _draw(deck, 1.0, False).pages[0]
    aces = [p for p in page_text(page) if p.text == "A"]
    assert len(aces) == 2
    top, bottom = sorted(aces, key=lambda p: -p.y)
    assert top.x < 10 + 63.5 / 2 < bottom.x and top.y > 20 + 88.9 / 2 > bottom.y


def test_joker_face(deck: Deck):
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=(mm(80), mm(100)), invariant=1)
    draw_card_face(canvas, deck.jokers[0], deck, 0, 0, POKER)
    canvas.showPage()
    canvas.save()
    texts = [p.text for p in page_text(PdfReader(io.BytesIO(buffer.getvalue())).pages[0])]
    assert "Joker" in texts and "Strømkrig" in texts and "Kraftidioten" in texts


def test_name_that_cannot_fit_is_a_render_error(deck: Deck):
    card = deck.cards[0].model_copy(update={"name": "X" * 60})
    canvas = Canvas(io.BytesIO(), invariant=1)
    with pytest.raises(RenderError, match="name too long"):
        draw_card_face(canvas, card, deck, 0, 0, POKER)


def test_style_colours_are_used_and_tag_the_shared_pieces(deck: Deck):
    plain = palette_from_style({})
    styled = palette_from_style({"accent": "#aa3300", "colours": {"hjerter": "#990000"}})
    assert styled.accent.hexval() == "0xaa3300" and styled.red.hexval() == "0x990000"
    print_styled = palette_from_style(styled_style := {"accent": "#aa3300"}, PrintColour("cmyk"))
    assert (print_styled.accent.cyan, print_styled.accent.magenta) == (0.0, 0.7)
    assert palette_key(print_styled) != palette_key(palette_from_style(styled_style))
    assert palette_key(plain) != palette_key(styled)
    assert palette_from_style({"accent": "not a colour"}).accent == plain.accent


def test_fonts_embedded(deck: Deck):
    fonts = fonts_of(_draw(deck, 1.0, False))
    vera = {name: embedded for name, embedded in fonts.items() if "Vera" in name}
    assert vera and all(vera.values())


def test_small_print_keeps_attribution_inside_the_footer(deck: Deck):
    from kraftstokk.design.face_text import small_print_lines
    from kraftstokk.design.fonts import text_width

    style = POKER.styles.small_print

    long = (
        "JRC Hydro-power database (Matteo De Felice et al., energy-modelling-toolkit/"
        "hydro-power-database), CC BY 4.0; from NVE."
    )
    snapshot = deck.snapshot.model_copy(update={"attribution": long})
    lines = small_print_lines(deck.model_copy(update={"snapshot": snapshot}), POKER)
    assert lines[0] == f"{deck.title} · {deck.edition}"
    assert " ".join(lines[1:]) == "Data: JRC Hydro-power database, CC BY 4.0; from NVE."
    for line in lines:
        assert text_width(line, style.face, style.size) <= mm(POKER.boxes.footer.w)
    endless = deck.model_copy(
        update={"snapshot": snapshot.model_copy(update={"attribution": "word " * 80})}
    )
    with pytest.raises(RenderError, match=r"data credit does not fit .* in 2 lines"):
        small_print_lines(endless, POKER)


def test_every_layout_prints_one_wording_of_the_credit_never_a_cut_one(deck: Deck):
    from kraftstokk.design.face_text import small_print_lines
    from kraftstokk.design.layout import layout_names

    credit = (
        "JRC Hydro-power database (Matteo De Felice et al., energy-modelling-toolkit/"
        "hydro-power-database), CC BY 4.0; norske tall opprinnelig fra NVE, NLOD."
    )
    snapshot = deck.snapshot.model_copy(update={"attribution_nb": credit})
    credited = deck.model_copy(update={"snapshot": snapshot})
    # The narrowest layout (bridge) sets the wording: each source keeps its name and
    # licence, "CC BY 4.0" whole; poker, wider, says the same words (on two lines as well).
    wordings = {
        name: " ".join(small_print_lines(credited, load_layout(name))[1:])
        for name in layout_names()
    }
    assert set(wordings.values()) == {"Data: JRC Hydro-power database, CC BY 4.0; NVE, NLOD."}
    assert small_print_lines(credited, load_layout("bridge"))[1:] == [
        "Data: JRC Hydro-power database,",
        "CC BY 4.0; NVE, NLOD.",
    ]


def _raster(draw) -> Image.Image:
    import pypdfium2 as pdfium

    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=(mm(63.5), mm(88.9)), invariant=1)
    draw(canvas)
    canvas.showPage()
    canvas.save()
    return pdfium.PdfDocument(buffer.getvalue())[0].render(scale=150 / 72).to_pil().convert("L")


def _turn_difference(image: Image.Image) -> float:
    from PIL import ImageChops, ImageStat

    turned = image.rotate(180)
    return float(ImageStat.Stat(ImageChops.difference(image, turned)).mean[0])


def test_back_is_the_same_after_a_half_turn(deck: Deck):
    back = _raster(lambda c: draw_card_back(c, deck, 0, 0, POKER))
    face = _raster(lambda c: draw_card_face(c, deck.cards[0], deck, 0, 0, POKER))
    assert _turn_difference(back) < 1.0  # antialiasing only
    assert _turn_difference(face) > 10 * _turn_difference(back)  # the check can tell
