"""The print-shop file: one card face per page, the page being the card plus bleed.

TrimBox is the cut line and BleedBox the cut plus bleed, as print shops expect; a preset
with crop marks gets a slug around the bleed for them (MediaBox = slug, marks outside
the BleedBox). The preset sets the colour model, ink limit and PDF standard; a PDF/X
preset's file gets its keys afterwards (:mod:`kraftstokk.render.pdfx`).
"""

from __future__ import annotations

import io
from collections.abc import Collection
from typing import Literal

from reportlab.pdfgen.canvas import Canvas

from kraftstokk.design.fonts import SANS, register_fonts
from kraftstokk.design.geometry import Box, mm
from kraftstokk.design.layout import CardLayout
from kraftstokk.design.palette import PrintColour, colour_enforcer, palette_from_style
from kraftstokk.design.presets import Preset, load_preset
from kraftstokk.models import Deck
from kraftstokk.progress import Progress
from kraftstokk.render.back import back_form, place_back_form
from kraftstokk.render.card import draw_face_local, face_context
from kraftstokk.render.pdfx import make_pdfx

PrintshopOrder = Literal["alternate", "backs-first", "backs-last"]
PRINTSHOP_ORDERS: tuple[PrintshopOrder, ...] = ("alternate", "backs-first", "backs-last")
#: Crop marks on a one-card page: in a slug this wide outside the bleed, starting
#: MARK_GAP outside the bleed, so no mark is ever inside the BleedBox.
SLUG = 8.0  # mm
MARK_GAP = 1.0  # mm
MARK_WIDTH = 0.3  # points
DEFAULT_PRESET = "offset"


def print_colour(preset: Preset) -> PrintColour:
    """The colour model and ink limit a preset's files are made in."""
    return PrintColour(preset.colour, preset.ink_limit_pct)


def slug_of(preset: Preset) -> float:
    """Millimetres of page outside the bleed (room for crop marks)."""
    return SLUG if preset.crop_marks else 0.0


def page_box(card: CardLayout, preset: Preset) -> Box:
    """The whole page (MediaBox) in millimetres."""
    margin = preset.bleed_mm + slug_of(preset)
    return Box(0.0, 0.0, card.width + 2 * margin, card.height + 2 * margin)


def trim_box(card: CardLayout, preset: Preset) -> Box:
    """The cut line on a print-shop page (page millimetres)."""
    margin = preset.bleed_mm + slug_of(preset)
    return Box(margin, margin, card.width, card.height)


def bleed_box(card: CardLayout, preset: Preset) -> Box:
    return trim_box(card, preset).inset(-preset.bleed_mm)


def page_sequence(card_count: int, order: PrintshopOrder) -> list[tuple[str, int]]:
    """("front" | "back", card index) for every page."""
    if order == "alternate":
        return [(side, i) for i in range(card_count) for side in ("front", "back")]
    if order == "backs-first":
        return [(side, i) for i in range(card_count) for side in ("back", "front")]
    return [("front", i) for i in range(card_count)] + [("back", i) for i in range(card_count)]


def page_points(box: Box) -> tuple[float, float, float, float]:
    return (mm(box.x), mm(box.y), mm(box.right), mm(box.top))


def printshop_pdf(
    deck: Deck,
    card: CardLayout,
    preset: Preset | None = None,
    order: PrintshopOrder | None = None,
    only: Collection[str] | None = None,
    progress: Progress | None = None,
) -> bytes:
    """The print-shop PDF as bytes, made for ``preset`` (offset by default).

    ``order`` overrides the preset's page order. With ``only`` (card ids), just those
    cards, each with its back, drawn as in the whole deck (a reprint). ``progress`` hears
    of each page drawn.
    """
    preset = preset or load_preset(DEFAULT_PRESET)
    order = order or preset.page_order
    colour = print_colour(preset)
    register_fonts()
    page, trim, bleed = page_box(card, preset), trim_box(card, preset), bleed_box(card, preset)
    buffer = io.BytesIO()
    canvas = Canvas(
        buffer,
        pagesize=(mm(page.w), mm(page.h)),
        invariant=1,
        initialFontName=SANS,
        pageCompression=1,
        trimBox=page_points(trim),
        bleedBox=page_points(bleed),
        enforceColorSpace=colour_enforcer(colour),
    )
    title = f"{deck.title} {deck.edition}: trykkfil for {preset.name}, ett kort per side"
    canvas.setTitle(title)
    canvas.setAuthor(deck.title)
    canvas.setSubject(
        f"{card.width} x {card.height} mm kort med {preset.bleed_mm:g} mm utfallende; "
        "TrimBox = skjærelinje"
    )
    canvas.setCreator("kraftstokk")
    canvas.setViewerPreference("PrintScaling", "None")
    ctx = face_context(deck, card, colour)
    b = preset.bleed_mm
    extent = (b, b, b, b)
    marks = palette_from_style(deck.style(), colour).rule
    indices = [i for i, c in enumerate(deck.cards) if only is None or c.id in only]
    sequence = page_sequence(len(indices), order)
    for done, (side, position) in enumerate(sequence, start=1):
        index = indices[position]
        if side == "front":
            canvas.saveState()
            canvas.translate(mm(trim.x), mm(trim.y))
            draw_face_local(canvas, deck.cards[index], ctx, extent)
            canvas.restoreState()
        else:
            form = back_form(canvas, deck, card, b, colour)
            place_back_form(canvas, form, card, mm(trim.x), mm(trim.y), extent)
        if preset.crop_marks:
            canvas.setStrokeColor(marks)
            draw_crop_marks(canvas, trim, page, b)
        canvas.showPage()
        if progress is not None:
            progress(done, len(sequence))
    canvas.save()
    pdf = buffer.getvalue()
    return make_pdfx(pdf, preset, title) if preset.is_pdfx else pdf


def draw_crop_marks(canvas: Canvas, trim: Box, page: Box, bleed: float) -> None:
    """Eight marks on the trim lines' extensions, in the slug outside the bleed."""
    start = bleed + MARK_GAP
    end = min(trim.x, trim.y) - MARK_GAP  # the slug ends MARK_GAP inside the page edge
    canvas.setLineWidth(MARK_WIDTH)
    path = canvas.beginPath()
    for x in (trim.x, trim.right):
        for y0, y1 in ((trim.y - start, trim.y - end), (trim.top + start, trim.top + end)):
            path.moveTo(mm(x), mm(y0))
            path.lineTo(mm(x), mm(y1))
    for y in (trim.y, trim.top):
        for x0, x1 in ((trim.x - start, trim.x - end), (trim.right + start, trim.right + end)):
            path.moveTo(mm(x0), mm(y))
            path.lineTo(mm(x1), mm(y))
    canvas.drawPath(path, stroke=1, fill=0)
