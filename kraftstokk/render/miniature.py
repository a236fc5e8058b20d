"""Card miniatures as pictures: a card drawn small is rendered to an image first.

A card face scaled to a third keeps its vector text and lines a third as thick: 1.7 pt
text and 0.13 pt lines, below what a press holds (0.25 pt). As a picture at print
resolution the miniature shows exactly the card, with no hairline anywhere.
"""

from __future__ import annotations

import io
import math

import numpy as np
import pypdfium2 as pdfium
from PIL import Image
from reportlab.lib.utils import ImageReader
from reportlab.pdfgen.canvas import Canvas

from kraftstokk.design.fonts import SANS, register_fonts
from kraftstokk.design.geometry import mm
from kraftstokk.design.layout import CardLayout
from kraftstokk.models import Card, Deck
from kraftstokk.render.back import draw_back_local
from kraftstokk.render.card import draw_face_local, face_context
from kraftstokk.render.palette import RGB, PrintColour

#: Pixels per inch of the miniature at the size it is shown (above the 300 a press asks).
MINIATURE_DPI = 400

#: The pictures of the last deck and layout drawn (a booklet shows some cards twice).
_cache: dict[tuple[str, int], bytes] = {}
_cached_for: list[tuple[Deck, CardLayout]] = []


def miniature_png(deck: Deck, layout: CardLayout, card: Card | None, width_pt: float) -> bytes:
    """PNG bytes of ``card`` (the back when None) for showing ``width_pt`` points wide."""
    if not (_cached_for and _cached_for[0][0] is deck and _cached_for[0][1] is layout):
        _cache.clear()
        _cached_for[:] = [(deck, layout)]
    pixels = max(1, math.ceil(width_pt / 72 * MINIATURE_DPI))
    key = (card.id if card else "back", pixels)
    if key not in _cache:
        _cache[key] = _render(deck, layout, card, pixels)
    return _cache[key]


def _render(deck: Deck, layout: CardLayout, card: Card | None, pixels: int) -> bytes:
    register_fonts()
    buffer = io.BytesIO()
    canvas = Canvas(
        buffer, pagesize=(mm(layout.width), mm(layout.height)), invariant=1, initialFontName=SANS
    )
    none = (0.0, 0.0, 0.0, 0.0)
    if card is None:
        draw_back_local(canvas, deck, layout, none)
    else:
        draw_face_local(canvas, card, face_context(deck, layout), none)
    canvas.showPage()
    canvas.save()
    document = pdfium.PdfDocument(buffer.getvalue())
    try:
        page = document[0]
        image = page.render(scale=pixels / mm(layout.width)).to_pil().convert("RGB")
        page.close()
    finally:
        document.close()
    out = io.BytesIO()
    image.save(out, format="PNG", dpi=(MINIATURE_DPI, MINIATURE_DPI))
    return out.getvalue()


def draw_miniature(
    canvas: Canvas,
    deck: Deck,
    layout: CardLayout,
    card: Card | None,
    width: float,
    height: float,
    colour: PrintColour = RGB,
) -> None:
    """Place the miniature with its lower-left corner at the origin, ``width`` x ``height``.

    In a CMYK file the picture is ink too (see :func:`image_as_ink`).
    """
    png = miniature_png(deck, layout, card, width)
    with Image.open(io.BytesIO(png)) as opened:
        opened.load()
        image = opened.copy()
    if colour.model == "cmyk":
        image = image_as_ink(image, colour.ink_limit_pct)
    canvas.drawImage(ImageReader(image), 0, 0, width, height)


def image_as_ink(image: Image.Image, limit_pct: float | None) -> Image.Image:
    """An RGB picture as CMYK with its grey all in K (the palette's conversion, pixel by
    pixel), C, M and Y reduced where a pixel's total ink would pass ``limit_pct``.

    So black text in the picture prints as black ink only, as it does on the card.
    """
    rgb = np.asarray(image.convert("RGB"), dtype=np.float64) / 255
    k = 1 - rgb.max(axis=2)
    room = np.where(k < 1, 1 - k, 1)
    cmy = (1 - rgb - k[..., None]) / room[..., None]
    cmy[k >= 1] = 0
    if limit_pct is not None:
        total = cmy.sum(axis=2) + k
        allowed = np.clip(limit_pct / 100 - k, 0, None)
        cmy_sum = cmy.sum(axis=2)
        scale = np.where(
            (total > limit_pct / 100) & (cmy_sum > 0), allowed / np.maximum(cmy_sum, 1e-9), 1
        )
        cmy = cmy * scale[..., None]
    cmyk = np.concatenate([cmy, k[..., None]], axis=2)
    return Image.fromarray(np.round(cmyk * 255).astype(np.uint8), mode="CMYK")
