"""The print-shop file: one card per page, the page being the card plus bleed all round.

TrimBox is the cut line and BleedBox the whole page, as print shops expect. Backs either
alternate with their fronts or follow all the fronts at the end.
"""

from __future__ import annotations

import io
from typing import Literal

from reportlab.pdfgen.canvas import Canvas

from kraftstokk.models import Deck
from kraftstokk.render.back import back_form, place_back_form
from kraftstokk.render.card import draw_face_local, face_context
from kraftstokk.render.fonts import SANS, register_fonts
from kraftstokk.render.geometry import Box, mm, printshop_page
from kraftstokk.render.layout import CardLayout

PrintshopOrder = Literal["alternate", "backs-last"]
PRINTSHOP_ORDERS: tuple[PrintshopOrder, ...] = ("alternate", "backs-last")


def trim_box(card: CardLayout, bleed: float) -> Box:
    """The cut line on a print-shop page (page millimetres)."""
    return Box(bleed, bleed, card.width, card.height)


def page_sequence(card_count: int, order: PrintshopOrder) -> list[tuple[str, int]]:
    """("front" | "back", card index) for every page."""
    if order == "alternate":
        return [(side, i) for i in range(card_count) for side in ("front", "back")]
    return [("front", i) for i in range(card_count)] + [("back", i) for i in range(card_count)]


def printshop_pdf(
    deck: Deck, card: CardLayout, bleed: float = 3.0, order: PrintshopOrder = "alternate"
) -> bytes:
    """The print-shop PDF as bytes."""
    register_fonts()
    page = printshop_page(card, bleed)
    trim = trim_box(card, bleed)
    buffer = io.BytesIO()
    canvas = Canvas(
        buffer,
        pagesize=(mm(page.w), mm(page.h)),
        invariant=1,
        initialFontName=SANS,
        pageCompression=1,
        trimBox=(mm(trim.x), mm(trim.y), mm(trim.right), mm(trim.top)),
        bleedBox=(0, 0, mm(page.w), mm(page.h)),
    )
    canvas.setTitle(f"{deck.title} {deck.edition}: trykkfil, ett kort per side")
    canvas.setAuthor(deck.title)
    canvas.setSubject(
        f"{card.width} x {card.height} mm kort med {bleed:g} mm utfallende; TrimBox = skjærelinje"
    )
    canvas.setCreator("kraftstokk")
    canvas.setViewerPreference("PrintScaling", "None")
    ctx = face_context(deck, card)
    extent = (bleed, bleed, bleed, bleed)
    for side, index in page_sequence(len(deck.cards), order):
        if side == "front":
            canvas.saveState()
            canvas.translate(mm(bleed), mm(bleed))
            draw_face_local(canvas, deck.cards[index], ctx, extent)
            canvas.restoreState()
        else:
            form = back_form(canvas, deck, card, bleed)
            place_back_form(canvas, form, card, mm(bleed), mm(bleed), extent)
        canvas.showPage()
    canvas.save()
    return buffer.getvalue()
