"""Home-print sheets: as many cards per page as fit, fronts and backs alternating, duplex test.

Cards are butted on shared cut lines, so one cut serves two cards; the block's outer
cards get full bleed and the crop marks sit in the margin, never across a card and never
within 5 mm of the paper's edge. A back page puts each card's back where it lands behind
its front when the sheet is turned over the long edge (or the short edge).
"""

from __future__ import annotations

import io
from collections.abc import Collection
from dataclasses import dataclass

from reportlab.lib.colors import Color
from reportlab.pdfgen.canvas import Canvas

from kraftstokk.design.fonts import SANS, SANS_BOLD, register_fonts
from kraftstokk.design.geometry import Box, mm
from kraftstokk.design.layout import CardLayout
from kraftstokk.design.palette import palette_from_style
from kraftstokk.models import Card, Deck
from kraftstokk.progress import Progress
from kraftstokk.render.back import back_form, place_back_form
from kraftstokk.render.card import draw_face_local, face_context
from kraftstokk.render.sheet_layout import Duplex, SheetLayout, sheet_layout

MARK_WIDTH = 0.3  # points
DUPLEX_NAMES = {"long": "DuplexFlipLongEdge", "short": "DuplexFlipShortEdge"}
EDGE_WORDS = {"long": "langsiden", "short": "kortsiden"}


@dataclass(frozen=True)
class SheetPlan:
    """What goes on which page: card pages in pairs (front, back), then the duplex test."""

    layout: SheetLayout
    duplex: Duplex
    pages: tuple[tuple[Card, ...], ...]  # the cards of each sheet, in slot order

    @property
    def page_count(self) -> int:
        return 2 * len(self.pages) + 2


def plan_sheets(
    deck: Deck,
    card: CardLayout,
    paper: str = "a4",
    duplex: Duplex = "long",
    bleed: float = 3.0,
    only: Collection[str] | None = None,
) -> SheetPlan:
    """The sheets of ``deck``'s cards, or of those whose ids ``only`` lists (a reprint)."""
    layout = sheet_layout(paper, card, bleed)
    n = layout.per_page
    cards = [c for c in deck.cards if only is None or c.id in only]
    pages = tuple(tuple(cards[i : i + n]) for i in range(0, len(cards), n))
    return SheetPlan(layout=layout, duplex=duplex, pages=pages)


def sheets_pdf(
    deck: Deck,
    card: CardLayout,
    paper: str = "a4",
    duplex: Duplex = "long",
    bleed: float = 3.0,
    only: Collection[str] | None = None,
    progress: Progress | None = None,
) -> bytes:
    """The sheets PDF as bytes: every card, or the cards ``only`` lists (each drawn as in
    the whole deck, with its back); ``progress`` hears of each sheet drawn."""
    register_fonts()
    plan = plan_sheets(deck, card, paper, duplex, bleed, only)
    layout = plan.layout
    buffer = io.BytesIO()
    canvas = Canvas(
        buffer,
        pagesize=(mm(layout.paper.width), mm(layout.paper.height)),
        invariant=1,
        initialFontName=SANS,
        pageCompression=1,
    )
    canvas.setTitle(f"{deck.title} {deck.edition}: kortark ({layout.paper.name.upper()})")
    canvas.setAuthor(deck.title)
    canvas.setSubject(
        f"Kortark for utskrift: {layout.cols} x {layout.rows} kort per side, forsider og baksider"
    )
    canvas.setCreator("kraftstokk")
    canvas.setViewerPreference("PrintScaling", "None")
    canvas.setViewerPreference("Duplex", DUPLEX_NAMES[duplex])
    ctx = face_context(deck, card)
    marks, label = ctx.palette.rule, ctx.palette.rule_muted
    sheet_count = len(plan.pages)
    for number, cards in enumerate(plan.pages, start=1):
        _draw_crop_marks(canvas, layout, marks)
        fronts = [layout.cell(slot) for slot in range(len(cards))]
        for face, cell in zip(cards, fronts, strict=True):
            x, y, rotation = layout.card_origin(cell)
            canvas.saveState()
            canvas.translate(mm(x), mm(y))
            if rotation:
                canvas.rotate(rotation)
            draw_face_local(canvas, face, ctx, layout.card_extent(cell, fronts))
            canvas.restoreState()
        _page_label(canvas, layout, f"{deck.title} · forside {number}/{sheet_count}", label)
        canvas.showPage()
        _draw_crop_marks(canvas, layout, marks)
        form = back_form(canvas, deck, card)
        backs = [layout.back_cell(slot, duplex) for slot in range(len(cards))]
        for cell in backs:
            x, y, rotation = layout.card_origin(cell)
            extent = layout.card_extent(cell, backs)
            place_back_form(canvas, form, card, mm(x), mm(y), extent, rotation)
        _page_label(canvas, layout, f"{deck.title} · bakside {number}/{sheet_count}", label)
        canvas.showPage()
        if progress is not None:
            progress(number, sheet_count)
    _draw_duplex_test(canvas, layout, duplex, deck)
    canvas.save()
    return buffer.getvalue()


def _draw_crop_marks(canvas: Canvas, layout: SheetLayout, colour: Color) -> None:
    canvas.saveState()
    canvas.setStrokeColor(colour)
    canvas.setLineWidth(MARK_WIDTH)
    path = canvas.beginPath()
    for mark in layout.crop_marks():
        path.moveTo(mm(mark.x1), mm(mark.y1))
        path.lineTo(mm(mark.x2), mm(mark.y2))
    canvas.drawPath(path, stroke=1, fill=0)
    canvas.restoreState()


LABEL_SIZE = 6.0  # points


def _page_label(canvas: Canvas, layout: SheetLayout, text: str, colour: Color) -> None:
    """A small label in the top margin over the first column, between its crop marks.

    It sits halfway between the block's bleed and the printable edge (5 mm in).
    """
    first = layout.cell(0)
    low = layout.block.top + layout.bleed
    high = layout.paper.height - layout.edge_clearance
    baseline = (low + high) / 2 - LABEL_SIZE * 0.36 / mm(1)
    canvas.saveState()
    canvas.setFillColor(colour)
    canvas.setFont(SANS, LABEL_SIZE)
    canvas.drawCentredString(mm(first.x + first.w / 2), mm(baseline), text)
    canvas.restoreState()


# Duplex test ----------------------------------------------------------------------------

TARGET_REACH = 5  # mm either side on the back's scales
SCALE_LABEL_SIZE = 6.0  # points: nothing on a sheet below 6 pt
OUTCOME_SIZE = 9.0
OUTCOME_CLEARANCE = 16.0  # mm from a row of scales to the message's first line


def _test_slots(layout: SheetLayout) -> list[int]:
    """Top-left, top-right, bottom-left and middle: no half turn maps the set onto itself.

    So a back printed turned over the wrong edge shows scales where the front has no
    cross (and the numbers beside them no longer match).
    """
    last = layout.per_page - 1
    return [0, layout.cols - 1, last - layout.cols + 1, last // 2]


def _test_points(layout: SheetLayout) -> list[tuple[float, float]]:
    """Cell centres of the test slots (page mm)."""
    return [(c.x + c.w / 2, c.y + c.h / 2) for c in (layout.cell(s) for s in _test_slots(layout))]


def duplex_outcomes(duplex: Duplex) -> tuple[list[str], list[str]]:
    """What the back says upright (flipped as set) and turned (flipped over the other edge)."""
    other = "short" if duplex == "long" else "long"
    right = [
        "RIKTIG VENDEKANT: denne teksten står rett vei.",
        "Tallene 1-4 på denne siden ligger bak tallene 1-4 på forsiden.",
        "Treffer krysset midt i skalaen, er arkene rett; ellers les av",
        "forskyvningen i mm på skalaen og juster skriveren.",
    ]
    wrong = [
        "FEIL VENDEKANT: står denne teksten rett vei, er baksiden snudd.",
        f"Skriveren vender langs {EDGE_WORDS[other]}: skriv ut med samme innstilling",
        f"som nå og lag filen med --duplex {other}, eller still skriveren til",
        f"å vende langs {EDGE_WORDS[duplex]}.",
    ]
    return right, wrong


def _draw_duplex_test(canvas: Canvas, layout: SheetLayout, duplex: Duplex, deck: Deck) -> None:
    """Front: numbered crosses at four points that no half turn repeats; back: numbered
    mm scales behind them, one message upright (right edge) and one turned (wrong edge)."""
    pal = palette_from_style(deck.style())
    ink, grey = pal.rule, pal.rule_muted
    width, height = layout.paper.width, layout.paper.height
    points = _test_points(layout)
    # Front
    _draw_crop_marks(canvas, layout, ink)
    canvas.setStrokeColor(ink)
    canvas.setFillColor(ink)
    for number, (x, y) in enumerate(points, start=1):
        canvas.setLineWidth(0.5)
        canvas.line(mm(x - 8), mm(y), mm(x + 8), mm(y))
        canvas.line(mm(x), mm(y - 8), mm(x), mm(y + 8))
        canvas.circle(mm(x), mm(y), mm(1.2), stroke=1, fill=0)
        canvas.setFont(SANS_BOLD, 12)
        canvas.drawString(mm(x + 3), mm(y + 3), str(number))
    lines = [
        f"Duplekstest · {deck.title} {deck.edition}",
        "",
        f"1. Skriv ut denne siden og den neste tosidig, vend langs {EDGE_WORDS[duplex]},",
        "    i faktisk størrelse (100 %, ikke «tilpass til siden»).",
        f"2. Vend arket langs {EDGE_WORDS[duplex]} og les baksiden: der står om",
        "    vendekanten er riktig, og hva du gjør om den ikke er det.",
        "3. Hold arket mot lyset. Der krysset på denne siden treffer skalaen på",
        "    baksiden, leser du av forskyvningen i millimeter; under 1 mm er godt nok.",
        "",
        "Linjen under skal være nøyaktig 100 mm lang:",
    ]
    block = layout.block
    top = points[0][1] - 16
    x0 = block.x + 8
    for i, line in enumerate(lines):
        canvas.setFont(SANS_BOLD if i == 0 else SANS, 14 if i == 0 else 8.5)
        canvas.drawString(mm(x0), mm(top) - i * 12.5, line)
    ruler_y = mm(top) - len(lines) * 12.5 - mm(3)
    canvas.setLineWidth(0.6)
    canvas.line(mm(x0), ruler_y, mm(x0 + 100), ruler_y)
    for k in range(11):
        tick = mm(2.2 if k % 5 == 0 else 1.2)
        canvas.line(mm(x0 + 10 * k), ruler_y, mm(x0 + 10 * k), ruler_y + tick)
    canvas.showPage()
    # Back: scales centred where the front's crosses fall
    _draw_crop_marks(canvas, layout, ink)
    for number, (x, y) in enumerate(points, start=1):
        bx, by = (width - x, y) if duplex == "long" else (x, height - y)
        _draw_scale_cross(canvas, bx, by, ink, grey)
        canvas.setFillColor(ink)
        canvas.setFont(SANS_BOLD, 12)
        # beside the scale on the side where the front's number is, seen through the sheet
        label_x = bx - 3 - 12 * 0.6 / mm(1) if duplex == "long" else bx + 3
        canvas.drawString(mm(label_x), mm(by + 3), str(number))
    right, wrong = duplex_outcomes(duplex)
    # The upright message under the top row of scales, the turned one over the bottom row
    # (which reads, once the page is turned, as under its top row).
    top_row = max(y for _, y in points)
    bottom_row = min(y for _, y in points)
    _draw_outcome(canvas, right, width / 2, top_row - OUTCOME_CLEARANCE, ink)
    canvas.saveState()
    canvas.translate(mm(width), mm(height))
    canvas.rotate(180)
    _draw_outcome(canvas, wrong, width / 2, height - bottom_row - OUTCOME_CLEARANCE, grey)
    canvas.restoreState()
    canvas.showPage()


def _draw_outcome(canvas: Canvas, lines: list[str], cx: float, top: float, colour: Color) -> None:
    canvas.setFillColor(colour)
    for i, line in enumerate(lines):
        font = SANS_BOLD if i == 0 else SANS
        canvas.setFont(font, OUTCOME_SIZE)
        canvas.drawCentredString(mm(cx), mm(top) - i * OUTCOME_SIZE * 1.4, line)


def _draw_scale_cross(canvas: Canvas, x: float, y: float, ink: Color, grey: Color) -> None:
    canvas.setStrokeColor(ink)
    reach = TARGET_REACH
    for k in range(-reach, reach + 1):
        tick = 2.2 if k == 0 else 1.5 if k % 5 == 0 else 0.9
        canvas.setLineWidth(0.5 if k == 0 else 0.3)
        canvas.line(mm(x + k), mm(y - tick), mm(x + k), mm(y + tick))
        canvas.line(mm(x - tick), mm(y + k), mm(x + tick), mm(y + k))
    canvas.setLineWidth(0.3)
    canvas.line(mm(x - reach), mm(y), mm(x + reach), mm(y))
    canvas.line(mm(x), mm(y - reach), mm(x), mm(y + reach))
    canvas.setFillColor(grey)
    size = SCALE_LABEL_SIZE
    canvas.setFont(SANS, size)
    canvas.drawString(mm(x + reach + 1.2), mm(y) - size * 0.36, f"+{reach}")
    canvas.drawRightString(mm(x - reach - 1.2), mm(y) - size * 0.36, f"-{reach}")
    canvas.drawCentredString(mm(x), mm(y + reach + 1.2), f"+{reach}")
    canvas.drawCentredString(mm(x), mm(y - reach - 1.2) - size * 0.72, f"-{reach}")


def card_cells(plan: SheetPlan) -> list[tuple[int, Card, Box, Box]]:
    """(sheet, card, front cell, back cell) for every card: where a test should find it."""
    rows: list[tuple[int, Card, Box, Box]] = []
    for sheet, cards in enumerate(plan.pages):
        for slot, card in enumerate(cards):
            rows.append(
                (sheet, card, plan.layout.cell(slot), plan.layout.back_cell(slot, plan.duplex))
            )
    return rows
