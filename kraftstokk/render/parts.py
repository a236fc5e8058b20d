"""Pieces every face shares, drawn once per document as forms (PDF XObjects) and reused.

A deck has 55 faces but only a handful of distinct pips, pills and panels; drawing each
once and placing it by reference keeps the PDF small and the rendering fast.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable

from reportlab.pdfgen.canvas import Canvas

from kraftstokk.design.geometry import mm
from kraftstokk.design.layout import CardLayout
from kraftstokk.render.palette import Palette, mix
from kraftstokk.render.suits import BOLT, STAR, draw_eye_slash, draw_shape, draw_suit

Draw = Callable[[Canvas], None]
BBox = tuple[float, float, float, float]


def palette_key(palette: Palette) -> str:
    """A short stable tag so that forms of differently coloured decks never mix."""
    text = repr(sorted((k, repr(v)) for k, v in vars(palette).items()))
    return hashlib.sha1(text.encode()).hexdigest()[:8]


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


class Parts:
    """The shared pieces of one palette and layout, placed on any canvas."""

    def __init__(self, palette: Palette, layout: CardLayout) -> None:
        self.pal = palette
        self.layout = layout
        self.key = palette_key(palette) + layout.tag

    def _name(self, part: str) -> str:
        return f"Kraft{part}{self.key}"

    # Suit pips ------------------------------------------------------------------------

    def index_pip(self, canvas: Canvas, suit: str, cx: float, cy: float) -> None:
        size = mm(self.layout.spec.index.pip_size)

        def draw(c: Canvas) -> None:
            c.setFillColor(self.pal.suit_colour(suit))
            draw_suit(c, suit, 0, 0, size)

        place(canvas, self._name(f"Pip{_ascii(suit)}"), _square(size), draw, cx, cy)

    def disc(self, canvas: Canvas, suit: str | None, cx: float, cy: float) -> None:
        """The suit in a white disc (the joker's bolt when ``suit`` is None)."""
        r = mm(self.layout.spec.picture.disc_radius)

        def draw(c: Canvas) -> None:
            c.setFillColor(self.pal.paper)
            c.setStrokeColor(self.pal.accent_light)
            c.setLineWidth(0.8)
            c.circle(0, 0, r, stroke=1, fill=1)
            if suit is None:
                c.setFillColor(self.pal.gold)
                draw_shape(c, BOLT, 0, 0, r * 1.35)
            else:
                c.setFillColor(self.pal.suit_colour(suit))
                draw_suit(c, suit, 0, 0, r * 1.15)

        name = self._name(f"Disc{_ascii(suit or 'joker')}")
        place(canvas, name, _square(2 * r + 2), draw, cx, cy)

    # Panels ---------------------------------------------------------------------------

    def name(self, part: str) -> str:
        """The form name of ``part`` for this palette."""
        return self._name(part)

    @property
    def corner_radius(self) -> float:
        """Of the name and picture panels, in points."""
        return mm(self.layout.spec.card.corner_radius)

    def draw_name_panel(self, canvas: Canvas) -> None:
        canvas.setFillColor(self.pal.accent)
        canvas.roundRect(*self.layout.boxes.name.pt(), radius=self.corner_radius, stroke=0, fill=1)

    def draw_art_sky(self, canvas: Canvas) -> None:
        """The picture panel's background."""
        canvas.setFillColor(self.pal.accent_pale)
        canvas.roundRect(
            *self.layout.boxes.picture.pt(), radius=self.corner_radius, stroke=0, fill=1
        )

    def art_water(self, canvas: Canvas, water_h: float) -> None:
        """The fjord along the picture's bottom edge, waves and rounded corners included."""
        x, y, w, _ = self.layout.boxes.picture.pt()
        r = self.corner_radius

        def draw(c: Canvas) -> None:
            pal = self.pal
            path = c.beginPath()
            path.moveTo(0, water_h)
            path.lineTo(w, water_h)
            path.lineTo(w, r)
            path.arcTo(w - 2 * r, 0, w, 2 * r, startAng=0, extent=-90)
            path.lineTo(r, 0)
            path.arcTo(0, 0, 2 * r, 2 * r, startAng=-90, extent=-90)
            path.close()
            c.setFillColor(pal.accent)
            c.drawPath(path, stroke=0, fill=1)
            c.setStrokeColor(mix(pal.accent, pal.white, 0.45))
            c.setLineWidth(0.5)
            for k in range(2):
                wy = water_h * (0.62 - 0.32 * k)
                wave = c.beginPath()
                start = mm(2 + 3 * k)
                wave.moveTo(start, wy)
                half, amp = mm(1.75), mm(0.5)
                for i in range(14):
                    sx = start + i * 2 * half
                    wave.curveTo(sx + half, wy + amp, sx + half, wy - amp, sx + 2 * half, wy)
                c.drawPath(wave, stroke=1, fill=0)

        place(canvas, self._name("ArtWater"), (0, 0, w, water_h), draw, x, y)

    # nr. pills ------------------------------------------------------------------------

    def pill(self, canvas: Canvas, kind: str, x: float, y: float) -> None:
        """An nr. pill: kind 'plain', 'top3' (gold, star) or 'invisible' (dashed, eye)."""
        rows = self.layout.spec.rows
        w, h = mm(rows.pill_width), mm(rows.pill_height)
        icon = mm(rows.pill_icon)
        radius = h / 2

        def draw(c: Canvas) -> None:
            pal = self.pal
            if kind == "top3":
                c.setFillColor(pal.gold_pale)
                c.setStrokeColor(pal.gold)
                c.setLineWidth(1.0)
                c.roundRect(0, 0, w, h, radius, stroke=1, fill=1)
                c.setFillColor(pal.gold)
                draw_shape(c, STAR, self.pill_icon_x(), h / 2, icon)
            elif kind == "invisible":
                c.setFillColor(pal.white)
                c.setStrokeColor(pal.ink)
                c.setLineWidth(0.8)
                c.setDash(1.6, 1.1)
                c.roundRect(0, 0, w, h, radius, stroke=1, fill=1)
                c.setDash()
                draw_eye_slash(c, self.pill_icon_x(), h / 2, icon, 0.6)
            else:
                c.setFillColor(pal.pill)
                c.roundRect(0, 0, w, h, radius, stroke=0, fill=1)

        place(canvas, self._name(f"Pill{kind}"), (-1, -1, w + 1, h + 1), draw, x, y)

    def pill_icon_x(self) -> float:
        """Centre of the mark inside a pill, from the pill's left edge (points)."""
        rows = self.layout.spec.rows
        return mm(rows.pill_icon_inset) + mm(rows.pill_icon) / 2


def _square(size: float) -> BBox:
    half = size / 2 + 1
    return (-half, -half, half, half)


def _ascii(text: str) -> str:
    return text.replace("ø", "o").replace("æ", "ae").replace("å", "a")
