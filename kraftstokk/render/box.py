"""The tuck box: a one-piece dieline for the deck at its card size, as a PDF.

Laid flat with the printed side up, left to right: back, side, front, side, glue tab.
The lid folds from the back's top edge over the opening and its tuck flap slides down
inside the front, where a thumb notch is cut into the front's top edge; the bottom lid
folds from the front's bottom edge and tucks inside the back (a reverse tuck end). Dust
flaps on the sides fold in under both lids. The glue tab folds in from the right-hand
side and is glued to the inside of the back's free left edge, so the seam is hidden.

Two kinds of file. The home box (:func:`tuck_box_pdf`) is RGB on A4 or Letter, its cut
and fold lines printed as guides for scissors and a bone folder, each in an optional
content group (PDF layer) of its own. The print-shop box (:func:`shop_box_pdf`) is made
for a printer preset: CMYK in the palette of the card backs and within the preset's ink
limit, its page the flat box plus bleed (TrimBox: the die's extent), the die lines in two
named spot colours, "CutContour" and "Crease", set to overprint so they never knock a
hole in the artwork; a die-line file with those lines alone (:func:`dieline_pdf`) goes
with it, as box makers ask. A PDF/X-1a file (PDF 1.4) cannot hold optional content, so
there the spot colours are what keeps the lines off the printing plates; a PDF/X-4
file also puts them on layers marked not to print.
"""

from __future__ import annotations

import io
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from pypdf import PdfReader, PdfWriter
from pypdf.generic import ArrayObject, DictionaryObject, NameObject, TextStringObject
from reportlab.pdfgen.canvas import Canvas

from kraftstokk.design.face_text import credit_text, credit_wording
from kraftstokk.design.fit import best_split, wrap
from kraftstokk.design.fonts import SANS, SANS_BOLD, register_fonts, text_width
from kraftstokk.design.geometry import Box, mm
from kraftstokk.design.layout import CardLayout
from kraftstokk.design.palette import (
    CREASE_INK,
    CUT_INK,
    RGB,
    Palette,
    PrintColour,
    colour_enforcer,
    palette_from_style,
)
from kraftstokk.design.presets import Preset
from kraftstokk.errors import RenderError
from kraftstokk.models import Deck
from kraftstokk.render.back import draw_back_local
from kraftstokk.render.pdfx import make_pdfx
from kraftstokk.render.printshop import draw_crop_marks, page_points, slug_of
from kraftstokk.render.sheet_layout import PAPERS
from kraftstokk.render.suits import BOLT, draw_shape

Point = tuple[float, float]

DEFAULT_CARD_COUNT = 55


def norwegian(value: float) -> str:
    """A measure as the box prints it in Norwegian: a decimal comma, no trailing zeros
    ("64,5", "0,32", "19,6")."""
    return f"{round(value, 2):g}".replace(".", ",")


CLEARANCE = 1.0  # mm added to the inside width and height, so the deck slides in and out
#: mm added to the inside depth: the board's allowance. A 350 g/m² folding box board is
#: about 0.45 mm thick and each of the depth's two folds takes about that much of it,
#: and 1 mm more lets the deck slide: 55 cards of 0.32 mm make a 19.6 mm deep box.
BOARD_ALLOWANCE = 2.0
TUCK_FLAP = 15.0  # mm, at most a third of the card's height
GLUE_TAB = 10.0  # mm
DUST_SLANT = 3.0  # mm the dust flaps' sides lean in, so they clear the lids' folds
TUCK_INSET = 1.0  # mm the tuck flaps narrow by on each side, so they slide in
TUCK_RADIUS = 5.0  # mm, the tuck flaps' rounded corners
THUMB_NOTCH = 10.0  # mm radius, at most a fifth of the front's width
BLEED = 3.0
PAGE_MARGIN = 8.0  # mm the dieline keeps from the paper's edge
ARC_STEPS = 12  # segments per quarter circle
CUT_WIDTH = 0.5  # points: the print-shop box's die lines (spot colours)
FOLD_WIDTH = 0.5
FOLD_DASH = (3.0, 2.0)  # points
#: The home box's lines, to cut with scissors and fold by hand: a white core inside a
#: black edge, so each is plain on the dark artwork, on the bleed and on bare paper.
GUIDE_EDGE = 1.6  # points, the black line under the white core
GUIDE_CORE = 0.7
GUIDE_DASH = (4.0, 2.5)  # points, the fold lines

#: The optional content groups: resource name and the name a PDF viewer shows.
LAYERS = {
    "cut": ("OCcut", "Cut lines (die)"),
    "fold": ("OCfold", "Fold lines (crease)"),
    "notes": ("OCnotes", "Notes (outside the box)"),
}


@dataclass(frozen=True)
class BoxOptions:
    """How thick the deck is, and the paper the dieline is printed on."""

    cards: int = DEFAULT_CARD_COUNT
    thickness: float | None = None  # mm per card; None: the layout's card thickness
    paper: str = "a4"

    def card_thickness(self, card: CardLayout) -> float:
        return card.thickness if self.thickness is None else self.thickness

    def check(self) -> None:
        if not 1 <= self.cards <= 200:
            raise RenderError(f"--box-cards {self.cards}: must be between 1 and 200")
        if self.thickness is not None and not 0.1 <= self.thickness <= 1.0:
            raise RenderError(f"--card-thickness {self.thickness:g}: must be 0.1 to 1.0 mm")
        if self.paper not in PAPERS:
            raise RenderError(f"--paper {self.paper}: choose one of {', '.join(PAPERS)}")


@dataclass(frozen=True)
class Piece:
    """One panel or flap: its outline (mm, counter-clockwise) and where it is printed."""

    name: str
    outline: tuple[Point, ...]
    printed: bool = True

    @property
    def bounds(self) -> Box:
        xs = [p[0] for p in self.outline]
        ys = [p[1] for p in self.outline]
        return Box(min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys))


@dataclass(frozen=True)
class Segment:
    a: Point
    b: Point


@dataclass(frozen=True)
class TuckBox:
    """The flat box in dieline millimetres; origin at the back panel's lower-left corner."""

    width: float  # inside: card width + clearance
    height: float  # card height + clearance
    depth: float  # deck thickness + the board's allowance
    tuck: float
    glue: float
    dust: float
    notch: float
    pieces: dict[str, Piece] = field(default_factory=dict)
    folds: tuple[Segment, ...] = ()

    @property
    def bounds(self) -> Box:
        boxes = [p.bounds for p in self.pieces.values()]
        x0 = min(b.x for b in boxes)
        y0 = min(b.y for b in boxes)
        return Box(x0, y0, max(b.right for b in boxes) - x0, max(b.top for b in boxes) - y0)

    def panel(self, name: str) -> Box:
        return self.pieces[name].bounds

    def cuts(self) -> list[Segment]:
        """Every piece edge that is not a fold: the die's outline."""
        result: list[Segment] = []
        for piece in self.pieces.values():
            points = piece.outline
            for a, b in zip(points, points[1:] + points[:1], strict=True):
                if not any(_on_segment(a, b, fold) for fold in self.folds):
                    result.append(Segment(a, b))
        return result

    def cut_outline(self) -> list[Point]:
        """The cuts walked as one closed outline (a plotter or a die cuts it in one pass)."""
        cuts = self.cuts()
        ends: dict[tuple[float, float], list[int]] = {}
        for index, seg in enumerate(cuts):
            for point in (seg.a, seg.b):
                ends.setdefault(_key(point), []).append(index)
        if any(len(found) != 2 for found in ends.values()):
            raise RenderError("tuck box: the cut lines do not form a closed outline")
        outline = [cuts[0].a, cuts[0].b]
        used = {0}
        while len(used) < len(cuts):
            here = _key(outline[-1])
            following = [i for i in ends[here] if i not in used]
            if not following:
                raise RenderError("tuck box: the cut lines form more than one outline")
            seg = cuts[following[0]]
            used.add(following[0])
            outline.append(seg.b if _key(seg.a) == here else seg.a)
        return outline[:-1]


def _key(point: Point) -> tuple[float, float]:
    return (round(point[0], 6), round(point[1], 6))


def _on_segment(a: Point, b: Point, seg: Segment, eps: float = 1e-6) -> bool:
    """Whether the edge a-b lies along ``seg``."""

    def on(p: Point) -> bool:
        (x1, y1), (x2, y2) = seg.a, seg.b
        cross = (x2 - x1) * (p[1] - y1) - (y2 - y1) * (p[0] - x1)
        if abs(cross) > eps * max(1.0, math.hypot(x2 - x1, y2 - y1)):
            return False
        return (
            min(x1, x2) - eps <= p[0] <= max(x1, x2) + eps
            and min(y1, y2) - eps <= p[1] <= max(y1, y2) + eps
        )

    return on(a) and on(b)


def _arc(cx: float, cy: float, r: float, start: float, end: float, steps: int) -> list[Point]:
    """Points on a circle from angle ``start`` to ``end`` (degrees), both ends included."""
    return [
        (
            cx + r * math.cos(math.radians(start + (end - start) * i / steps)),
            cy + r * math.sin(math.radians(start + (end - start) * i / steps)),
        )
        for i in range(steps + 1)
    ]


def _tuck_flap(x0: float, x1: float, y: float, height: float, sign: int) -> tuple[Point, ...]:
    """A tuck flap on the fold from (x0, y) to (x1, y), reaching ``height`` up (sign 1) or down."""
    r = min(TUCK_RADIUS, height * 0.6, (x1 - x0) / 4)
    far = y + sign * height
    left, right = x0 + TUCK_INSET, x1 - TUCK_INSET
    corner_y = far - sign * r
    if sign > 0:
        points = [(x0, y), (x1, y), (right, corner_y)]
        points += _arc(right - r, corner_y, r, 0, 90, ARC_STEPS)[1:]
        points += _arc(left + r, corner_y, r, 90, 180, ARC_STEPS)
        return tuple(points)
    points = [(x1, y), (x0, y), (left, corner_y)]
    points += _arc(left + r, corner_y, r, 180, 270, ARC_STEPS)[1:]
    points += _arc(right - r, corner_y, r, 270, 360, ARC_STEPS)
    return tuple(points)


def _dust_flap(x0: float, x1: float, y: float, height: float, sign: int) -> tuple[Point, ...]:
    slant = min(DUST_SLANT, (x1 - x0) / 4)
    far = y + sign * height
    if sign > 0:
        return ((x0, y), (x1, y), (x1 - slant, far), (x0 + slant, far))
    return ((x1, y), (x0, y), (x0 + slant, far), (x1 - slant, far))


def notch_radius(width: float) -> float:
    return min(THUMB_NOTCH, width / 5)


def tuck_box(card: CardLayout, options: BoxOptions) -> TuckBox:
    """The dieline's pieces and folds for ``options.cards`` cards of this layout."""
    w = card.width + CLEARANCE
    h = card.height + CLEARANCE
    d = options.cards * options.card_thickness(card) + BOARD_ALLOWANCE
    tuck = min(TUCK_FLAP, h / 3)
    glue = min(GLUE_TAB, w / 3)
    dust = min(d, w / 2 - 2)
    notch = notch_radius(w)
    # Columns: back, side, front, side, glue tab.
    xb0, xb1 = 0.0, w
    xs1 = xb1 + d
    xf1 = xs1 + w
    xs2 = xf1 + d
    y0, y1 = 0.0, h
    pieces: dict[str, Piece] = {}

    def rect(name: str, x0: float, x1: float) -> None:
        pieces[name] = Piece(name, ((x0, y0), (x1, y0), (x1, y1), (x0, y1)))

    rect("back", xb0, xb1)
    rect("side_left", xb1, xs1)
    # The front's top edge dips into the thumb notch.
    mid = (xs1 + xf1) / 2
    notch_points = _arc(mid, y1, notch, 0, -180, 2 * ARC_STEPS)
    pieces["front"] = Piece("front", ((xs1, y0), (xf1, y0), (xf1, y1), *notch_points[:], (xs1, y1)))
    rect("side_right", xf1, xs2)
    pieces["glue_tab"] = Piece(
        "glue_tab",
        ((xs2, y0), (xs2 + glue, y0 + glue), (xs2 + glue, y1 - glue), (xs2, y1)),
        printed=False,
    )
    # Top: the lid on the back, its tuck flap, dust flaps on both sides.
    pieces["lid"] = Piece("lid", ((xb0, y1), (xb1, y1), (xb1, y1 + d), (xb0, y1 + d)))
    pieces["lid_tuck"] = Piece("lid_tuck", _tuck_flap(xb0, xb1, y1 + d, tuck, 1))
    pieces["dust_top_left"] = Piece("dust_top_left", _dust_flap(xb1, xs1, y1, dust, 1))
    pieces["dust_top_right"] = Piece("dust_top_right", _dust_flap(xf1, xs2, y1, dust, 1))
    # Bottom: the lid on the front (a reverse tuck), its tuck flap, dust flaps.
    pieces["bottom"] = Piece("bottom", ((xs1, y0 - d), (xf1, y0 - d), (xf1, y0), (xs1, y0)))
    pieces["bottom_tuck"] = Piece("bottom_tuck", _tuck_flap(xs1, xf1, y0 - d, tuck, -1))
    pieces["dust_bottom_left"] = Piece("dust_bottom_left", _dust_flap(xb1, xs1, y0, dust, -1))
    pieces["dust_bottom_right"] = Piece("dust_bottom_right", _dust_flap(xf1, xs2, y0, dust, -1))
    folds = (
        Segment((xb1, y0), (xb1, y1)),
        Segment((xs1, y0), (xs1, y1)),
        Segment((xf1, y0), (xf1, y1)),
        Segment((xs2, y0), (xs2, y1)),
        Segment((xb0, y1), (xb1, y1)),
        Segment((xb0, y1 + d), (xb1, y1 + d)),
        Segment((xb1, y1), (xs1, y1)),
        Segment((xf1, y1), (xs2, y1)),
        Segment((xs1, y0), (xf1, y0)),
        Segment((xs1, y0 - d), (xf1, y0 - d)),
        Segment((xb1, y0), (xs1, y0)),
        Segment((xf1, y0), (xs2, y0)),
    )
    return TuckBox(w, h, d, tuck, glue, dust, notch, pieces, folds)


# Drawing --------------------------------------------------------------------------------

#: The smallest text on a box, always bold and light on the dark ground: no preset's
#: reversed-text minimum is larger, and from 8 pt up text is register-safe in any inks.
BOX_TEXT_MIN = 8.0
#: mm the back panel's text keeps from its folds: a print shop's 3 mm safe area and 1 more.
BACK_MARGIN = 4.0
#: The back panel's data credit: at most this many lines.
CREDIT_LINES = 5


def _checked_box(card: CardLayout, options: BoxOptions) -> TuckBox:
    options.check()
    register_fonts()
    return tuck_box(card, options)


def _box_canvas(
    buffer: io.BytesIO, page: Box, deck: Deck, card: CardLayout, options: BoxOptions, **boxes: Any
) -> Canvas:
    canvas = Canvas(
        buffer,
        pagesize=(mm(page.w), mm(page.h)),
        invariant=1,
        initialFontName=SANS,
        pageCompression=1,
        **boxes,
    )
    canvas.setTitle(
        f"{deck.title} {deck.edition}: eske ({norwegian(card.width)} × {norwegian(card.height)} mm)"
    )
    canvas.setAuthor(deck.title)
    canvas.setSubject(
        f"Stanselinje for en eske til {options.cards} kort à "
        f"{norwegian(options.card_thickness(card))} mm; lag: skjærelinjer og falselinjer"
    )
    canvas.setCreator("kraftstokk")
    canvas.setViewerPreference("PrintScaling", "None")
    return canvas


def tuck_box_pdf(deck: Deck, card: CardLayout, options: BoxOptions | None = None) -> bytes:
    """The home box: one RGB page, artwork with bleed, cut and fold lines printed on
    layers of their own, and a note on how to make it."""
    options = options or BoxOptions()
    box = _checked_box(card, options)
    paper = PAPERS[options.paper]
    bounds = box.bounds
    room_w, room_h = paper.width - 2 * PAGE_MARGIN, paper.height - 2 * PAGE_MARGIN
    if bounds.w > room_w or bounds.h > room_h:
        raise RenderError(
            f"the tuck box for {options.cards} cards of {options.card_thickness(card):g} mm "
            f"({bounds.w:.0f} × {bounds.h:.0f} mm) does not fit on {paper.name} paper"
        )
    # Centre the dieline on the page.
    ox = (paper.width - bounds.w) / 2 - bounds.x
    oy = (paper.height - bounds.h) / 2 - bounds.y
    buffer = io.BytesIO()
    canvas = _box_canvas(buffer, Box(0, 0, paper.width, paper.height), deck, card, options)
    pal = palette_from_style(deck.style())
    canvas.saveState()
    canvas.translate(mm(ox), mm(oy))
    _draw_artwork(canvas, box, deck, card, pal, RGB)
    _glue_label(canvas, box.panel("glue_tab"), pal)
    _draw_guides(canvas, box, pal)
    canvas.restoreState()
    _draw_legend(canvas, paper.width, oy + bounds.y, options, card, box, pal)
    canvas.showPage()
    canvas.save()
    return _with_layers(buffer.getvalue(), LAYERS, printing=True)


def shop_boxes(box: TuckBox, preset: Preset) -> tuple[Box, Box, Box]:
    """Page, trim (the die's extent) and bleed of a print-shop box, in page millimetres."""
    margin = preset.bleed_mm + slug_of(preset)
    bounds = box.bounds
    page = Box(0.0, 0.0, bounds.w + 2 * margin, bounds.h + 2 * margin)
    trim = Box(margin, margin, bounds.w, bounds.h)
    return page, trim, trim.inset(-preset.bleed_mm)


def shop_box_pdf(
    deck: Deck, card: CardLayout, preset: Preset, options: BoxOptions | None = None
) -> bytes:
    """The print-shop box for ``preset``: the artwork in CMYK with bleed, die lines in
    overprinting spot colours, PDF/X as the preset asks."""
    return _shop_file(deck, card, preset, options or BoxOptions(), artwork=True)


def dieline_pdf(
    deck: Deck, card: CardLayout, preset: Preset, options: BoxOptions | None = None
) -> bytes:
    """The die lines alone, on the same page as :func:`shop_box_pdf` (for the box maker)."""
    return _shop_file(deck, card, preset, options or BoxOptions(), artwork=False)


def _shop_file(
    deck: Deck, card: CardLayout, preset: Preset, options: BoxOptions, artwork: bool
) -> bytes:
    if preset.colour != "cmyk" or not preset.is_pdfx:
        raise RenderError(
            f"preset {preset.name}: a print-shop box needs a CMYK PDF/X preset "
            "(the home box is made with --only box alone)"
        )
    box = _checked_box(card, options)
    colour = PrintColour("cmyk", preset.ink_limit_pct)
    page, trim, bleed = shop_boxes(box, preset)
    buffer = io.BytesIO()
    canvas = _box_canvas(
        buffer,
        page,
        deck,
        card,
        options,
        trimBox=page_points(trim),
        bleedBox=page_points(bleed),
        enforceColorSpace=colour_enforcer(colour),
    )
    pal = palette_from_style(deck.style(), colour)
    canvas.saveState()
    canvas.translate(mm(trim.x - box.bounds.x), mm(trim.y - box.bounds.y))
    if artwork:
        _draw_artwork(canvas, box, deck, card, pal, colour)
    # The die-line file is nothing but the die: on no layer, so it shows and prints.
    layered = artwork and preset.pdf_standard in LAYERED_STANDARDS
    _draw_die_lines(canvas, box, layered)
    canvas.restoreState()
    if preset.crop_marks:
        canvas.setStrokeColor(pal.rule)
        draw_crop_marks(canvas, trim, page, preset.bleed_mm)
    canvas.showPage()
    canvas.save()
    kind = "eske" if artwork else "stanselinjer"
    title = f"{deck.title} {deck.edition}: {kind} for {preset.name}"
    pdf = buffer.getvalue()
    pdf = _with_layers(pdf, DIE_LAYERS, printing=False) if layered else pdf
    return make_pdfx(pdf, preset, title)


#: Standards whose files may hold optional content (PDF 1.5 and later).
LAYERED_STANDARDS = ("PDF/X-4",)


def _draw_artwork(
    canvas: Canvas, box: TuckBox, deck: Deck, card: CardLayout, pal: Palette, colour: PrintColour
) -> None:
    # Background: every printed piece grown by the bleed all round its outline (filled,
    # and stroked twice the bleed wide with round joins), so the ink stops at the bleed,
    # following the flaps' curves and slants. The glue tab stays unprinted for the glue.
    canvas.saveState()
    canvas.setFillColor(pal.accent_dark)
    canvas.setStrokeColor(pal.accent_dark)
    canvas.setLineWidth(mm(2 * BLEED))
    canvas.setLineJoin(1)
    for piece in box.pieces.values():
        if piece.printed:
            canvas.drawPath(_outline_path(canvas, piece.outline), stroke=1, fill=1)
    canvas.restoreState()
    _front(canvas, box, deck, card, colour)
    _back(canvas, box.panel("back"), deck, card, pal)
    for name in ("side_left", "side_right"):
        _side(canvas, box.panel(name), deck, pal)
    # Read from the front: the closed lid's letters point to its front (tuck) edge.
    _lid(canvas, box.panel("lid"), deck.title, pal, upside_down=True)
    _lid(canvas, box.panel("bottom"), f"{deck.title} · {deck.edition}", pal, upside_down=False)


def _front(canvas: Canvas, box: TuckBox, deck: Deck, card: CardLayout, colour: PrintColour) -> None:
    """The card back, at card size, in the middle of the front (the thumb notch cut out of
    it); its frames run around the notch at their own distance from the edge, so the
    notch cuts no line."""
    panel, notch = box.panel("front"), box.notch
    canvas.saveState()
    clip = _outline_path(canvas, box.pieces["front"].outline)
    canvas.clipPath(clip, stroke=0, fill=0)
    x = panel.x + (panel.w - card.width) / 2
    y = panel.y + (panel.h - card.height) / 2
    canvas.translate(mm(x), mm(y))
    draw_back_local(canvas, deck, card, (0.0, 0.0, 0.0, 0.0), colour=colour, frames=False)
    pal = palette_from_style(deck.style(), colour)
    back = card.spec.back
    canvas.setStrokeColor(pal.back_line)
    canvas.setLineJoin(1)
    top = panel.top - y  # the front's top edge, in card coordinates
    for inset, radius, width in (
        (back.frame_inset, back.frame_radius, back.frame_width),
        (back.inner_frame_inset, back.inner_frame_radius, back.inner_frame_width),
    ):
        canvas.setLineWidth(width)
        outline = notched_frame(card.cut.inset(inset), radius, card.width / 2, top, notch)
        canvas.drawPath(_outline_path(canvas, outline), stroke=1, fill=0)
    canvas.restoreState()


def notched_frame(
    frame: Box, radius: float, notch_x: float, edge: float, notch: float
) -> list[Point]:
    """A frame's rounded rectangle whose top side, where the thumb notch (a half circle of
    ``notch`` radius on the edge at height ``edge``, centred at ``notch_x``) comes near,
    bends round it at the distance the side keeps from the edge."""
    gap = edge - frame.top
    reach = notch + gap
    across = math.sqrt(max(reach**2 - gap**2, 0.0))
    start = math.degrees(math.atan2(-gap, -across))
    end = math.degrees(math.atan2(-gap, across))
    r = radius
    points: list[Point] = [(notch_x + across, frame.top)]
    points += _arc(frame.right - r, frame.top - r, r, 90, 0, ARC_STEPS)
    points += _arc(frame.right - r, frame.y + r, r, 0, -90, ARC_STEPS)
    points += _arc(frame.x + r, frame.y + r, r, 270, 180, ARC_STEPS)
    points += _arc(frame.x + r, frame.top - r, r, 180, 90, ARC_STEPS)
    points += _arc(notch_x, edge, reach, start + 360 if start < 0 else start, end + 360,
                   4 * ARC_STEPS)  # fmt: skip
    return points


def _centred(canvas: Canvas, text: str, font: str, size: float, x: float, y: float) -> None:
    canvas.setFont(font, size)
    canvas.drawCentredString(x, y, text)


def _fitted_size(text: str, font: str, size: float, width: float) -> float:
    while text_width(text, font, size) > width and size > BOX_TEXT_MIN:
        size -= 0.5
    return max(size, BOX_TEXT_MIN)


def _back(canvas: Canvas, panel: Box, deck: Deck, card: CardLayout, pal: Palette) -> None:
    """Title, edition, what is inside, and the data credit: all of it white and bold."""
    cx = mm(panel.x + panel.w / 2)
    inner = mm(panel.w - 2 * BACK_MARGIN)
    top = mm(panel.top)
    canvas.setFillColor(pal.white)
    title_size = _fitted_size(deck.title, SANS_BOLD, 16, inner)
    _centred(canvas, deck.title, SANS_BOLD, title_size, cx, top - mm(16))
    _centred(canvas, f"Utgave {deck.edition}", SANS_BOLD, BOX_TEXT_MIN, cx, top - mm(22))
    canvas.setFillColor(pal.gold)
    draw_shape(canvas, BOLT, cx, top - mm(38), mm(14))
    canvas.setFillColor(pal.white)
    lines = (
        f"{len(deck.plant_cards)} norske vannkraftverk og {len(deck.jokers)} jokere",
        "Idiot · Kraftidioten · Strømkrig",
    )
    y = top - mm(54)
    for line in lines:  # a line too long for a narrow box at BOX_TEXT_MIN wraps
        size = _fitted_size(line, SANS_BOLD, 8.5, inner)
        parts = [line]
        if text_width(line, SANS_BOLD, size) > inner:
            parts = list(best_split(line, SANS_BOLD) or wrap(line, SANS_BOLD, size, inner))
        for part in parts:
            _centred(canvas, part, SANS_BOLD, size, cx, y)
            y -= size * 1.3
    data = credit_text(deck)
    if data:
        size = BOX_TEXT_MIN
        wrapped = _credit_lines(data, card, size, inner)
        if wrapped is None:
            raise RenderError(f"tuck box: the data credit does not fit its back panel: {data!r}")
        y = mm(panel.y + 6) + (len(wrapped) - 1) * size * 1.25
        for line in wrapped:
            _centred(canvas, line, SANS_BOLD, size, cx, y)
            y -= size * 1.25


def _credit_lines(data: str, card: CardLayout, size: float, width: float) -> list[str] | None:
    """The deck's one wording of the credit (the cards', :func:`credit_wording`) in at most
    CREDIT_LINES lines of ``width`` points; None when it does not fit."""
    wording = credit_wording(data, card)
    if wording is None:
        return None
    credit = wrap(f"Data: {wording}", SANS_BOLD, size, width)
    fits = all(text_width(line, SANS_BOLD, size) <= width for line in credit)
    return credit if len(credit) <= CREDIT_LINES and fits else None


def _side(canvas: Canvas, panel: Box, deck: Deck, pal: Palette) -> None:
    """Title and edition along the side, reading upwards."""
    text = f"{deck.title} · {deck.edition}"
    size = _fitted_size(text, SANS_BOLD, min(10.0, panel.w * 0.45 / 0.3528), mm(panel.h - 10))
    canvas.saveState()
    canvas.translate(mm(panel.x + panel.w / 2) + size * 0.36, mm(panel.y + panel.h / 2))
    canvas.rotate(90)
    canvas.setFillColor(pal.white)
    _centred(canvas, text, SANS_BOLD, size, 0, 0)
    canvas.restoreState()


def _lid(canvas: Canvas, panel: Box, text: str, pal: Palette, upside_down: bool) -> None:
    """A line across a lid; ``upside_down`` turns it half a turn."""
    size = _fitted_size(text, SANS_BOLD, min(9.0, panel.h * 0.45 / 0.3528), mm(panel.w - 8))
    canvas.saveState()
    canvas.translate(mm(panel.x + panel.w / 2), mm(panel.y + panel.h / 2))
    if upside_down:
        canvas.rotate(180)
    canvas.setFillColor(pal.white)
    _centred(canvas, text, SANS_BOLD, size, 0, -size * 0.36)
    canvas.restoreState()


def _glue_label(canvas: Canvas, glue: Box, pal: Palette) -> None:
    canvas.saveState()
    canvas.translate(mm(glue.x + glue.w / 2) + 2.5, mm(glue.y + glue.h / 2))
    canvas.rotate(90)
    canvas.setFillColor(pal.glue)
    _centred(canvas, "LIM", SANS_BOLD, 7, 0, 0)
    canvas.restoreState()


def _outline_path(canvas: Canvas, outline: Sequence[Point], closed: bool = True) -> Any:
    path = canvas.beginPath()
    path.moveTo(mm(outline[0][0]), mm(outline[0][1]))
    for x, y in outline[1:]:
        path.lineTo(mm(x), mm(y))
    if closed:
        path.close()
    return path


def _cut_path(canvas: Canvas, box: TuckBox) -> Any:
    return _outline_path(canvas, box.cut_outline())


def _fold_path(canvas: Canvas, box: TuckBox) -> Any:
    path = canvas.beginPath()
    for seg in box.folds:
        path.moveTo(mm(seg.a[0]), mm(seg.a[1]))
        path.lineTo(mm(seg.b[0]), mm(seg.b[1]))
    return path


def _draw_guides(canvas: Canvas, box: TuckBox, pal: Palette) -> None:
    """The home box: cut lines solid, fold lines dashed, each in its own layer, each a white
    core inside a black edge (plain to follow on the dark artwork and on bare paper)."""
    canvas.saveState()
    canvas.setLineCap(0)
    canvas.setLineJoin(1)
    for key, dash in (("cut", None), ("fold", GUIDE_DASH)):
        canvas.addLiteral(f"/OC /{LAYERS[key][0]} BDC")
        for colour, width in ((pal.rule, GUIDE_EDGE), (pal.white, GUIDE_CORE)):
            path = _cut_path(canvas, box) if key == "cut" else _fold_path(canvas, box)
            canvas.setStrokeColor(colour)
            canvas.setLineWidth(width)
            if dash is None:
                canvas.setDash()
            else:
                canvas.setDash(*dash)
            canvas.drawPath(path, stroke=1, fill=0)
        canvas.addLiteral("EMC")
    canvas.restoreState()


def _draw_die_lines(canvas: Canvas, box: TuckBox, layered: bool) -> None:
    """The print-shop box: cut and crease lines in their spot colours, overprinting (a
    die line never knocks the artwork out), solid, as cutting tables read them; on
    non-printing layers where the standard allows them."""
    canvas.saveState()
    canvas.setStrokeOverprint(True)
    canvas.setLineCap(1)
    canvas.setLineJoin(1)
    canvas.setLineWidth(CUT_WIDTH)
    for key, ink, path in (
        ("cut", CUT_INK, _cut_path(canvas, box)),
        ("fold", CREASE_INK, _fold_path(canvas, box)),
    ):
        if layered:
            canvas.addLiteral(f"/OC /{DIE_LAYERS[key][0]} BDC")
        canvas.setStrokeColor(ink)
        canvas.drawPath(path, stroke=1, fill=0)
        if layered:
            canvas.addLiteral("EMC")
    canvas.restoreState()


def _draw_legend(
    canvas: Canvas,
    page_width: float,
    dieline_bottom: float,
    options: BoxOptions,
    card: CardLayout,
    box: TuckBox,
    pal: Palette,
) -> None:
    inside = " × ".join(norwegian(v) for v in (box.width, box.height, box.depth))
    lines = (
        f"Eske til {options.cards} kort à {norwegian(options.card_thickness(card))} mm "
        f"(innvendig {inside} mm).",
        "Heltrukket: skjær. Stiplet: fals (brett bort fra trykket). "
        "Feltet LIM limes innvendig på baksidens venstre kant.",
    )
    canvas.saveState()
    canvas.addLiteral(f"/OC /{LAYERS['notes'][0]} BDC")
    canvas.setFillColor(pal.glue)
    y = mm(dieline_bottom - BLEED - 4)
    for line in lines:
        _centred(canvas, line, SANS, 7, mm(page_width / 2), y)
        y -= 9
    canvas.addLiteral("EMC")
    canvas.restoreState()


#: The print-shop box's layers (PDF/X-4 only), marked not to print.
DIE_LAYERS = {
    "cut": ("OCcut", "CutContour (die, does not print)"),
    "fold": ("OCfold", "Crease (die, does not print)"),
}


def _with_layers(pdf: bytes, layers: dict[str, tuple[str, str]], printing: bool) -> bytes:
    """Declare the optional content groups the page's marked content refers to; with
    ``printing`` False each is off in the default configuration (so it does not print;
    a viewer's layer panel shows it) and its Usage says it is not for print. PDF/X-4
    allows no automatic states (/AS), so none is used."""
    reader = PdfReader(io.BytesIO(pdf))
    writer = PdfWriter(clone_from=reader)
    refs = {}
    for key, (resource, title) in layers.items():
        group = DictionaryObject(
            {NameObject("/Type"): NameObject("/OCG"), NameObject("/Name"): TextStringObject(title)}
        )
        if not printing:
            group[NameObject("/Usage")] = DictionaryObject(
                {
                    NameObject("/Print"): DictionaryObject(
                        {NameObject("/PrintState"): NameObject("/OFF")}
                    ),
                }
            )
        refs[key] = (resource, writer._add_object(group))
    groups = ArrayObject([ref for _, ref in refs.values()])
    state = "/ON" if printing else "/OFF"
    default = DictionaryObject(
        {
            NameObject("/Name"): TextStringObject("Dieline"),
            NameObject("/Order"): groups,
            NameObject(state): groups,
        }
    )
    writer._root_object[NameObject("/OCProperties")] = DictionaryObject(
        {NameObject("/OCGs"): groups, NameObject("/D"): default}
    )
    for page in writer.pages:
        resources = page[NameObject("/Resources")]
        properties = DictionaryObject({NameObject(f"/{name}"): ref for name, ref in refs.values()})
        resources[NameObject("/Properties")] = properties  # type: ignore[index]
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()
