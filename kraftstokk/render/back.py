"""The card back: the same after a half turn, background into the bleed, title and edition.

Faces differ but backs do not, so a document draws the back once as a form (XObject)
and places that form behind every card.
"""

from __future__ import annotations

import hashlib

from reportlab.pdfgen.canvas import Canvas

from kraftstokk.design.fonts import register_fonts, text_width
from kraftstokk.design.geometry import Box, mm
from kraftstokk.design.layout import CardLayout
from kraftstokk.design.palette import RGB, Palette, PrintColour, palette_from_style
from kraftstokk.models import Deck
from kraftstokk.render.suits import BOLT, draw_shape

Extent = tuple[float, float, float, float]


def draw_card_back(
    canvas: Canvas,
    deck: Deck,
    x: float,
    y: float,
    layout: CardLayout,
    scale: float = 1.0,
    bleed: bool = False,
    colour: PrintColour = RGB,
) -> None:
    """Draw the back with its lower-left cut corner at (x, y) points, ``scale`` times size."""
    b = layout.bleed if bleed else 0.0
    canvas.saveState()
    canvas.translate(x, y)
    if scale != 1.0:
        canvas.scale(scale, scale)
    draw_back_local(canvas, deck, layout, (b, b, b, b), colour=colour)
    canvas.restoreState()


def back_form(
    canvas: Canvas,
    deck: Deck,
    layout: CardLayout,
    bleed: float | None = None,
    colour: PrintColour = RGB,
) -> str:
    """Draw the back with ``bleed`` mm all round (the layout's by default) once into a form.

    Returns the form's name for :func:`place_back_form`.
    """
    bleed = layout.bleed if bleed is None else bleed
    text = f"{deck.title}|{deck.edition}|{deck.style()}|{layout.tag}|{colour}"
    tag = hashlib.sha1(text.encode()).hexdigest()[:8]
    name = f"KraftBack{round(bleed * 100)}{tag}"
    if not canvas.hasForm(name):
        box = layout.cut.inset(-bleed)
        canvas.beginForm(name, mm(box.x), mm(box.y), mm(box.right), mm(box.top))
        draw_back_local(canvas, deck, layout, (bleed,) * 4, clip=False, colour=colour)
        canvas.endForm()
    return name


def place_back_form(
    canvas: Canvas,
    name: str,
    layout: CardLayout,
    x: float,
    y: float,
    extent: Extent,
    rotation: float = 0,
) -> None:
    """Place the back form at cut corner (x, y) points, showing ``extent`` mm of bleed.

    With ``rotation`` the card is turned about that corner first (``extent`` is in the
    card's own directions).
    """
    left, bottom, right, top = extent
    canvas.saveState()
    canvas.translate(x, y)
    if rotation:
        canvas.rotate(rotation)
    path = canvas.beginPath()
    width = mm(layout.width + left + right)
    path.rect(-mm(left), -mm(bottom), width, mm(layout.height + bottom + top))
    canvas.clipPath(path, stroke=0, fill=0)
    canvas.doForm(name)
    canvas.restoreState()


def draw_back_local(
    canvas: Canvas,
    deck: Deck,
    layout: CardLayout,
    extent: Extent,
    clip: bool = True,
    colour: PrintColour = RGB,
    frames: bool = True,
) -> None:
    """The back in card coordinates, covering the cut plus ``extent`` mm of bleed; without
    ``frames`` the two frames are left for the caller (the tuck box draws them around its
    thumb notch)."""
    register_fonts()
    pal = palette_from_style(deck.style(), colour)
    left, bottom, right, top = extent
    area = Box(-left, -bottom, layout.width + left + right, layout.height + bottom + top)
    canvas.saveState()
    if clip:
        path = canvas.beginPath()
        path.rect(*area.pt())
        canvas.clipPath(path, stroke=0, fill=0)
    canvas.setFillColor(pal.accent_dark)
    canvas.rect(*area.pt(), stroke=0, fill=1)
    _draw_lattice(canvas, pal, layout, area)
    if frames:
        _draw_frame(canvas, pal, layout)
    _draw_emblem(canvas, pal, layout)
    cx, cy = mm(layout.width / 2), mm(layout.height / 2)
    # Title and edition above the emblem, and the same text turned below it.
    for turn in (0, 180):
        canvas.saveState()
        canvas.translate(cx, cy)
        canvas.rotate(turn)
        _draw_titles(canvas, pal, layout, deck)
        canvas.restoreState()
    canvas.restoreState()


def _draw_lattice(canvas: Canvas, pal: Palette, layout: CardLayout, full: Box) -> None:
    """Diagonal lines through points symmetric about the card's centre."""
    cx, cy = mm(layout.width / 2), mm(layout.height / 2)
    x0, y0, w, h = full.pt()
    reach = w + h
    step = mm(layout.spec.back.lattice_step)
    canvas.setStrokeColor(pal.back_lattice)
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


def _draw_frame(canvas: Canvas, pal: Palette, layout: CardLayout) -> None:
    back = layout.spec.back
    inner = layout.cut.inset(back.frame_inset)
    canvas.setStrokeColor(pal.back_line)
    canvas.setLineWidth(back.frame_width)
    canvas.roundRect(*inner.pt(), radius=mm(back.frame_radius), stroke=1, fill=0)
    inner2 = layout.cut.inset(back.inner_frame_inset)
    canvas.setLineWidth(back.inner_frame_width)
    canvas.roundRect(*inner2.pt(), radius=mm(back.inner_frame_radius), stroke=1, fill=0)


def _draw_emblem(canvas: Canvas, pal: Palette, layout: CardLayout) -> None:
    back = layout.spec.back
    cx, cy = mm(layout.width / 2), mm(layout.height / 2)
    canvas.setFillColor(pal.accent_dark)
    canvas.setStrokeColor(pal.back_line)
    canvas.setLineWidth(back.frame_width)
    canvas.circle(cx, cy, mm(back.emblem_radius), stroke=1, fill=1)
    canvas.setFillColor(pal.paper)
    canvas.circle(cx, cy, mm(back.emblem_inner_radius), stroke=0, fill=1)
    canvas.setFillColor(pal.gold)
    draw_shape(canvas, BOLT, cx, cy, mm(back.bolt_size))


def _draw_titles(canvas: Canvas, pal: Palette, layout: CardLayout, deck: Deck) -> None:
    """Drawn relative to the card centre, above the emblem."""
    back = layout.spec.back
    title_style, edition_style = layout.styles.back_title, layout.styles.back_edition
    font = title_style.face
    title_size = title_style.size
    width = mm(layout.width - 2 * back.title_margin)
    while text_width(deck.title, font, title_size) > width and title_size > back.title_min_size:
        title_size -= 0.5
    plate_y = mm(back.plate_offset)
    canvas.setFillColor(pal.accent_dark)
    plate_w = text_width(deck.title, font, title_size) + mm(back.plate_padding)
    canvas.roundRect(
        -plate_w / 2,
        plate_y,
        plate_w,
        mm(back.plate_height),
        mm(back.plate_radius),
        stroke=0,
        fill=1,
    )
    canvas.setFillColor(pal.named(title_style.colour))
    canvas.setFont(font, title_size)
    canvas.drawCentredString(0, plate_y + mm(back.title_baseline), deck.title)
    canvas.setFillColor(pal.named(edition_style.colour))
    canvas.setFont(edition_style.face, edition_style.size)
    canvas.drawCentredString(0, plate_y + mm(back.edition_baseline), deck.edition)
