"""Pieces drawn once per document as forms (PDF XObjects) and placed by reference.

A deck has 55 faces but only a handful of distinct pips, pills, panels and maps; drawing
each once and placing it by reference keeps the PDF small and the rendering fast. Each
piece is drawn by the module it belongs to (the face's by ``card.py``, the picture's by
``picture.py``); this module only names and places them.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass

from reportlab.pdfgen.canvas import Canvas

from kraftstokk.design.layout import CardLayout
from kraftstokk.render.palette import Palette

Draw = Callable[[Canvas], None]
BBox = tuple[float, float, float, float]


def palette_key(palette: Palette) -> str:
    """A short stable tag so that forms of differently coloured decks never mix."""
    text = repr(sorted((k, repr(v)) for k, v in vars(palette).items()))
    return hashlib.sha1(text.encode()).hexdigest()[:8]


@dataclass(frozen=True)
class FormNames:
    """The form names of one palette and layout: ``KraftPipspar<key>`` and so on."""

    key: str

    @classmethod
    def of(cls, palette: Palette, layout: CardLayout) -> FormNames:
        return cls(palette_key(palette) + layout.tag)

    def __call__(self, part: str) -> str:
        return f"Kraft{part}{self.key}"


def place(canvas: Canvas, name: str, bbox: BBox, draw: Draw, x: float, y: float) -> None:
    """Place form ``name`` with its origin at (x, y), drawing it first if this canvas lacks it."""
    if not canvas.hasForm(name):
        canvas.beginForm(name, *bbox)
        draw(canvas)
        canvas.endForm()
    canvas.saveState()
    canvas.translate(x, y)
    canvas.doForm(name)
    canvas.restoreState()


def square(size: float) -> BBox:
    """The bounding box of a symbol ``size`` wide centred on the origin, with a point spare."""
    half = size / 2 + 1
    return (-half, -half, half, half)


def ascii_name(text: str) -> str:
    """A suit's name as a form name may spell it."""
    return text.replace("ø", "o").replace("æ", "ae").replace("å", "a")
