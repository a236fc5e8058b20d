"""The card back: the same after a half turn, background into the bleed, title and edition.

Faces differ but backs do not, so a document draws the back once as a form (XObject)
and places that form behind every card.
"""

from __future__ import annotations

import hashlib

from reportlab.pdfgen.canvas import Canvas

from kraftstokk.models import Deck
from kraftstokk.render.fonts import SANS, SANS_BOLD, register_fonts, text_width
from kraftstokk.render.geometry import CARD, Box, mm
from kraftstokk.render.palette import WHITE, Palette, mix, palette_from_style
from kraftstokk.render.suits import BOLT, draw_shape

Extent = tuple[float, float, float, float]


def draw_card_back(
    canvas: Canvas, deck: Deck, x: float, y: float, scale: float = 1.0, bleed: bool = False
) -> None:
    """Draw the back with its lower-left cut corner at (x, y) points, ``scale`` times size."""
    b = CARD.bleed if bleed else 0.0
    canvas.saveState()
    canvas.translate(x, y)
    if scale != 1.0:
        canvas.scale(scale, scale)
    draw_back_local(canvas, deck, (b, b, b, b))
    canvas.restoreState()


def back_form(canvas: Canvas, deck: Deck, bleed: float = CARD.bleed) -> str:
    """Draw the back with ``bleed`` mm all round once into a form of this canvas.

    Returns the form's name for :func:`place_back_form`.
    """
    tag = hashlib.sha1(f"{deck.title}|{deck.edition}|{deck.style()}".encode()).hexdigest()[:8]
    name = f"KraftBack{round(bleed * 100)}{tag}"
    if not canvas.hasForm(name):
        box = CARD.cut.inset(-bleed)
        canvas.beginForm(name, mm(box.x), mm(box.y), mm(box.right), mm(box.top))
        draw_back_local(canvas, deck, (bleed,) * 4, clip=False)
        canvas.endForm()
    return name


def place_back_form(canvas: Canvas, name: str, x: float, y: float, extent: Extent) -> None:
    """Place the back form at cut corner (x, y) points, showing ``extent`` mm of bleed."""
    left, bottom, right, top = extent
    canvas.saveState()
    canvas.translate(x, y)
    path = canvas.beginPath()
    path.rect(-mm(left), -mm(bottom), mm(CARD.width + left + right), mm(CARD.height + bottom + top))
    canvas.clipPath(path, stroke=0, fill=0)
    canvas.doForm(name)
    canvas.restoreState()


def draw_back_local(canvas: Canvas, deck: Deck, extent: Extent, clip: bool = True) -> None:
    """The back in card coordinates, covering the cut plus ``extent`` mm of bleed."""
    register_fonts()
    pal = palette_from_style(deck.style())
    left, bottom, right, top = extent
    area = Box(-left, -bottom, CARD.width + left + right, CARD.height + bottom + top)
    canvas.saveState()
    if clip:
        path = canvas.beginPath()
        path.rect(*area.pt())
        canvas.clipPath(path, stroke=0, fill=0)
    canvas.setFillColor(pal.accent_dark)
    canvas.rect(*area.pt(), stroke=0, fill=1)
    _draw_lattice(canvas, pal, area)
    _draw_frame(canvas, pal)
    _draw_emblem(canvas, pal)
    cx, cy = mm(CARD.width / 2), mm(CARD.height / 2)
    # Title and edition above the emblem, and the same text turned below it.
    for turn in (0, 180):
        canvas.saveState()
        canvas.translate(cx, cy)
        canvas.rotate(turn)
        _draw_titles(canvas, pal, deck)
        canvas.restoreState()
    canvas.restoreState()


def _draw_lattice(canvas: Canvas, pal: Palette, full: Box) -> None:
    """Diagonal lines through points symmetric about the card's centre."""
    cx, cy = mm(CARD.width / 2), mm(CARD.height / 2)
    x0, y0, w, h = full.pt()
    reach = w + h
    step = mm(4.0)
    canvas.setStrokeColor(mix(pal.accent_dark, pal.accent, 0.45))
    canvas.setLineWidth(0.6)
    path = canvas.beginPath()
    count = int(reach / step) + 1
    for k in range(-count, count + 1):
        off = k * step
        # lines y - cy = (x - cx) + off and y - cy = -(x - cx) + off
        path.moveTo(cx - reach, cy - reach + off)
        path.lineTo(cx + reach, cy + reach + off)
        path.moveTo(cx - reach, cy + reach + off)
        path.lineTo(cx + reach, cy - reach + off)
    canvas.saveState()
    clip = canvas.beginPath()
    clip.rect(x0, y0, w, h)
    canvas.clipPath(clip, stroke=0, fill=0)
    canvas.drawPath(path, stroke=1, fill=0)
    canvas.restoreState()


def _draw_frame(canvas: Canvas, pal: Palette) -> None:
    inner = CARD.cut.inset(4.2)
    canvas.setStrokeColor(mix(pal.accent, WHITE, 0.35))
    canvas.setLineWidth(1.1)
    canvas.roundRect(*inner.pt(), radius=mm(3.0), stroke=1, fill=0)
    inner2 = CARD.cut.inset(5.4)
    canvas.setLineWidth(0.45)
    canvas.roundRect(*inner2.pt(), radius=mm(2.2), stroke=1, fill=0)


def _draw_emblem(canvas: Canvas, pal: Palette) -> None:
    cx, cy = mm(CARD.width / 2), mm(CARD.height / 2)
    canvas.setFillColor(pal.accent_dark)
    canvas.setStrokeColor(mix(pal.accent, WHITE, 0.35))
    canvas.setLineWidth(1.1)
    canvas.circle(cx, cy, mm(13.5), stroke=1, fill=1)
    canvas.setFillColor(pal.paper)
    canvas.circle(cx, cy, mm(11.5), stroke=0, fill=1)
    canvas.setFillColor(pal.gold)
    draw_shape(canvas, BOLT, cx, cy, mm(17.0))


def _draw_titles(canvas: Canvas, pal: Palette, deck: Deck) -> None:
    """Drawn relative to the card centre, above the emblem."""
    title_size = 12.5
    width = mm(CARD.width - 14.0)
    while text_width(deck.title, SANS_BOLD, title_size) > width and title_size > 7:
        title_size -= 0.5
    plate_y = mm(16.5)
    canvas.setFillColor(pal.accent_dark)
    plate_w = text_width(deck.title, SANS_BOLD, title_size) + mm(5)
    canvas.roundRect(-plate_w / 2, plate_y, plate_w, mm(11.5), mm(2), stroke=0, fill=1)
    canvas.setFillColor(WHITE)
    canvas.setFont(SANS_BOLD, title_size)
    canvas.drawCentredString(0, plate_y + mm(5.0), deck.title)
    canvas.setFillColor(mix(pal.accent, WHITE, 0.6))
    canvas.setFont(SANS, 7.0)
    canvas.drawCentredString(0, plate_y + mm(1.5), deck.edition)
