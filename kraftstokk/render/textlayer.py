"""All the text of one face in one PDF text object, set on top of the shapes.

A face has some forty text runs; reportlab's drawString opens a text object (and resets
its colour) for each, so collecting the runs and writing them at once is several times
cheaper and gives the same page.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from reportlab.lib.colors import CMYKColor, Color
from reportlab.pdfgen.canvas import Canvas

from kraftstokk.design.fonts import text_width

Align = Literal["left", "centre", "right"]


Run = tuple[str, str, float, Color, float, float, float]


@dataclass
class TextLayer:
    runs: list[Run] = field(default_factory=list)

    def add(
        self,
        text: str,
        font: str,
        size: float,
        colour: Color,
        x: float,
        y: float,
        align: Align = "left",
        squeeze: float = 100.0,
    ) -> None:
        """Queue ``text`` with its baseline at y; x is its left, centre or right end."""
        if align != "left":
            width = text_width(text, font, size) * squeeze / 100.0
            x -= width if align == "right" else width / 2
        self.runs.append((text, font, size, colour, x, y, squeeze))

    def draw(self, canvas: Canvas) -> None:
        """The runs as text objects: 100 % K ones (CMYK files) in one of their own, set to
        overprint, so black text prints over a pill or tint without a knocked-out hole
        that a plate off register would show."""
        black = [run for run in self.runs if _is_black_ink(run[3])]
        others = [run for run in self.runs if not _is_black_ink(run[3])]
        if others:
            _draw_runs(canvas, others)
        if black:
            canvas.saveState()
            canvas.setFillOverprint(True)
            canvas.setOverprintMask(1)  # CMY zero: left as they are (nonzero overprint)
            _draw_runs(canvas, black)
            canvas.restoreState()
        self.runs.clear()


def _is_black_ink(colour: Color) -> bool:
    return isinstance(colour, CMYKColor) and (
        colour.cyan,
        colour.magenta,
        colour.yellow,
        colour.black * colour.density,
    ) == (0, 0, 0, 1)


def _draw_runs(canvas: Canvas, runs: list[Run]) -> None:
    obj = canvas.beginText()
    font_now: tuple[str, float] | None = None
    colour_now: Color | None = None
    squeeze_now = 100.0
    for text, font, size, colour, x, y, squeeze in runs:
        if font_now != (font, size):
            obj.setFont(font, size)
            font_now = (font, size)
        if colour is not colour_now:
            obj.setFillColor(colour)
            colour_now = colour
        if squeeze != squeeze_now:
            obj.setHorizScale(squeeze)
            squeeze_now = squeeze
        obj.setTextOrigin(x, y)
        obj.textOut(text)
    canvas.drawText(obj)
