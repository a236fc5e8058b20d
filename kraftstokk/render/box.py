"""The tuck box: a one-piece dieline for the deck at its card size, as a PDF.

Laid flat with the printed side up, left to right: back, side, front, side, glue tab.
The lid folds from the back's top edge over the opening and its tuck flap slides down
inside the front, where a thumb notch is cut into the front's top edge; the bottom lid
folds from the front's bottom edge and tucks inside the back (a reverse tuck end). Dust
flaps on the sides fold in under both lids. The glue tab folds in from the right-hand
side and is glued to the inside of the back's free left edge, so the seam is hidden.

Cut lines and fold lines are drawn in two optional content groups (PDF layers) of their
own, outside the artwork, so a print shop can use or hide them; the artwork runs
``bleed`` past every cut edge.
"""

from __future__ import annotations

import io
import math
from dataclasses import dataclass, field

from pypdf import PdfReader, PdfWriter
from pypdf.generic import ArrayObject, DictionaryObject, NameObject, TextStringObject
from reportlab.pdfgen.canvas import Canvas

from kraftstokk.design.fit import wrap
from kraftstokk.design.fonts import SANS, SANS_BOLD, register_fonts, text_width
from kraftstokk.design.geometry import Box, mm
from kraftstokk.design.layout import CardLayout
from kraftstokk.errors import RenderError
from kraftstokk.models import Deck
from kraftstokk.render.back import draw_back_local
from kraftstokk.render.palette import Palette, palette_from_style
from kraftstokk.render.sheet_layout import PAPERS
from kraftstokk.render.suits import BOLT, draw_shape

Point = tuple[float, float]

DEFAULT_CARD_COUNT = 55
DEFAULT_THICKNESS = 0.3  # mm per card
CLEARANCE = 1.0  # mm added to each inside measure, so the deck slides in and out
TUCK_FLAP = 15.0  # mm, at most a third of the card's height
GLUE_TAB = 10.0  # mm
DUST_SLANT = 3.0  # mm the dust flaps' sides lean in, so they clear the lids' folds
TUCK_INSET = 1.0  # mm the tuck flaps narrow by on each side, so they slide in
TUCK_RADIUS = 5.0  # mm, the tuck flaps' rounded corners
THUMB_NOTCH = 10.0  # mm radius, at most a fifth of the front's width
BLEED = 3.0
PAGE_MARGIN = 8.0  # mm the dieline keeps from the paper's edge
ARC_STEPS = 12  # segments per quarter circle
CUT_WIDTH = 0.5  # points
FOLD_WIDTH = 0.5
FOLD_DASH = (3.0, 2.0)  # points

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
    thickness: float = DEFAULT_THICKNESS  # mm per card
    paper: str = "a4"

    def check(self) -> None:
        if not 1 <= self.cards <= 200:
            raise RenderError(f"--box-cards {self.cards}: must be between 1 and 200")
        if not 0.1 <= self.thickness <= 1.0:
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
    depth: float  # deck thickness + clearance
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
    d = options.cards * options.thickness + CLEARANCE
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


def tuck_box_pdf(deck: Deck, card: CardLayout, options: BoxOptions | None = None) -> bytes:
    """The dieline PDF: one page, artwork with bleed, cut and fold lines as layers."""
    options = options or BoxOptions()
    options.check()
    register_fonts()
    box = tuck_box(card, options)
    paper = PAPERS[options.paper]
    bounds = box.bounds
    room_w, room_h = paper.width - 2 * PAGE_MARGIN, paper.height - 2 * PAGE_MARGIN
    if bounds.w > room_w or bounds.h > room_h:
        raise RenderError(
            f"the tuck box for {options.cards} cards of {options.thickness:g} mm "
            f"({bounds.w:.0f} × {bounds.h:.0f} mm) does not fit on {paper.name} paper"
        )
    # Centre the dieline on the page.
    ox = (paper.width - bounds.w) / 2 - bounds.x
    oy = (paper.height - bounds.h) / 2 - bounds.y
    buffer = io.BytesIO()
    canvas = Canvas(
        buffer,
        pagesize=(mm(paper.width), mm(paper.height)),
        invariant=1,
        initialFontName=SANS,
        pageCompression=1,
    )
    canvas.setTitle(f"{deck.title} {deck.edition}: eske ({card.width:g} × {card.height:g} mm)")
    canvas.setAuthor(deck.title)
    canvas.setSubject(
        f"Stanselinje for en eske til {options.cards} kort à {options.thickness:g} mm; "
        "lag: skjærelinjer og falselinjer"
    )
    canvas.setCreator("kraftstokk")
    canvas.setViewerPreference("PrintScaling", "None")
    pal = palette_from_style(deck.style())
    canvas.saveState()
    canvas.translate(mm(ox), mm(oy))
    _draw_artwork(canvas, box, deck, card, pal)
    _draw_lines(canvas, box, pal)
    canvas.restoreState()
    _draw_legend(canvas, paper.width, oy + bounds.y, options, box, pal)
    canvas.showPage()
    canvas.save()
    return _with_layers(buffer.getvalue())


def _draw_artwork(canvas: Canvas, box: TuckBox, deck: Deck, card: CardLayout, pal: Palette) -> None:
    # Background: every printed piece's bounds grown by the bleed (overlaps are harmless:
    # all of it outside the cut is waste). The glue tab stays unprinted for the glue.
    canvas.setFillColor(pal.accent_dark)
    for piece in box.pieces.values():
        if piece.printed:
            canvas.rect(*piece.bounds.inset(-BLEED).pt(), stroke=0, fill=1)
    glue = box.panel("glue_tab")
    _front(canvas, box.panel("front"), deck, card)
    _back(canvas, box.panel("back"), deck, pal)
    for name in ("side_left", "side_right"):
        _side(canvas, box.panel(name), deck, pal)
    # Read from the front: the closed lid's letters point to its front (tuck) edge.
    _lid(canvas, box.panel("lid"), deck.title, pal, upside_down=True)
    _lid(canvas, box.panel("bottom"), f"{deck.title} · {deck.edition}", pal, upside_down=False)
    _glue_label(canvas, glue, pal)


def _front(canvas: Canvas, panel: Box, deck: Deck, card: CardLayout) -> None:
    """The card back, at card size, in the middle of the front."""
    canvas.saveState()
    x = panel.x + (panel.w - card.width) / 2
    y = panel.y + (panel.h - card.height) / 2
    canvas.translate(mm(x), mm(y))
    draw_back_local(canvas, deck, card, (0.0, 0.0, 0.0, 0.0))
    canvas.restoreState()


def _centred(canvas: Canvas, text: str, font: str, size: float, x: float, y: float) -> None:
    canvas.setFont(font, size)
    canvas.drawCentredString(x, y, text)


def _fitted_size(text: str, font: str, size: float, width: float, smallest: float = 6.0) -> float:
    while text_width(text, font, size) > width and size > smallest:
        size -= 0.5
    return size


def _back(canvas: Canvas, panel: Box, deck: Deck, pal: Palette) -> None:
    """Title, edition, what is inside, and the data attribution."""
    cx = mm(panel.x + panel.w / 2)
    inner = mm(panel.w - 12)
    top = mm(panel.top)
    canvas.setFillColor(pal.named("white"))
    title_size = _fitted_size(deck.title, SANS_BOLD, 16, inner)
    _centred(canvas, deck.title, SANS_BOLD, title_size, cx, top - mm(16))
    canvas.setFillColor(pal.back_edition)
    _centred(canvas, f"Utgave {deck.edition}", SANS, 8, cx, top - mm(22))
    canvas.setFillColor(pal.gold)
    draw_shape(canvas, BOLT, cx, top - mm(38), mm(14))
    canvas.setFillColor(pal.named("white"))
    lines = (
        f"{len(deck.plant_cards)} norske vannkraftverk og {len(deck.jokers)} jokere",
        "Idiot · Kraftidioten · Strømkrig",
    )
    for i, line in enumerate(lines):
        font = SANS_BOLD if i == 0 else SANS
        _centred(canvas, line, font, _fitted_size(line, font, 7.5, inner), cx, top - mm(54 + 5 * i))
    data = deck.snapshot.attribution or deck.snapshot.source
    if data:
        canvas.setFillColor(pal.back_edition)
        size = 6.0
        wrapped = wrap(f"Data: {data}", SANS, size, inner)
        y = mm(panel.y + 6) + (len(wrapped) - 1) * size * 1.25
        for line in wrapped:
            _centred(canvas, line, SANS, size, cx, y)
            y -= size * 1.25


def _side(canvas: Canvas, panel: Box, deck: Deck, pal: Palette) -> None:
    """Title and edition along the side, reading upwards."""
    text = f"{deck.title} · {deck.edition}"
    size = _fitted_size(text, SANS_BOLD, min(10.0, panel.w * 0.45 / 0.3528), mm(panel.h - 10))
    canvas.saveState()
    canvas.translate(mm(panel.x + panel.w / 2) + size * 0.36, mm(panel.y + panel.h / 2))
    canvas.rotate(90)
    canvas.setFillColor(pal.named("white"))
    _centred(canvas, text, SANS_BOLD, size, 0, 0)
    canvas.restoreState()


def _lid(canvas: Canvas, panel: Box, text: str, pal: Palette, upside_down: bool) -> None:
    """A line across a lid; ``upside_down`` turns it half a turn."""
    size = _fitted_size(text, SANS_BOLD, min(9.0, panel.h * 0.45 / 0.3528), mm(panel.w - 8))
    canvas.saveState()
    canvas.translate(mm(panel.x + panel.w / 2), mm(panel.y + panel.h / 2))
    if upside_down:
        canvas.rotate(180)
    canvas.setFillColor(pal.named("white"))
    _centred(canvas, text, SANS_BOLD, size, 0, -size * 0.36)
    canvas.restoreState()


def _glue_label(canvas: Canvas, glue: Box, pal: Palette) -> None:
    canvas.saveState()
    canvas.translate(mm(glue.x + glue.w / 2) + 2.5, mm(glue.y + glue.h / 2))
    canvas.rotate(90)
    canvas.setFillColor(pal.glue)
    _centred(canvas, "LIM", SANS_BOLD, 7, 0, 0)
    canvas.restoreState()


def _draw_lines(canvas: Canvas, box: TuckBox, pal: Palette) -> None:
    """Cut lines solid, fold lines dashed, each in its own optional content group."""
    canvas.saveState()
    canvas.setStrokeColor(pal.rule)
    canvas.setLineCap(1)
    canvas.setLineJoin(1)
    canvas.addLiteral(f"/OC /{LAYERS['cut'][0]} BDC")
    canvas.setLineWidth(CUT_WIDTH)
    path = canvas.beginPath()
    outline = box.cut_outline()
    path.moveTo(mm(outline[0][0]), mm(outline[0][1]))
    for x, y in outline[1:]:
        path.lineTo(mm(x), mm(y))
    path.close()
    canvas.drawPath(path, stroke=1, fill=0)
    canvas.addLiteral("EMC")
    canvas.addLiteral(f"/OC /{LAYERS['fold'][0]} BDC")
    canvas.setLineWidth(FOLD_WIDTH)
    canvas.setDash(*FOLD_DASH)
    path = canvas.beginPath()
    for seg in box.folds:
        path.moveTo(mm(seg.a[0]), mm(seg.a[1]))
        path.lineTo(mm(seg.b[0]), mm(seg.b[1]))
    canvas.drawPath(path, stroke=1, fill=0)
    canvas.addLiteral("EMC")
    canvas.restoreState()


def _draw_legend(
    canvas: Canvas,
    page_width: float,
    dieline_bottom: float,
    options: BoxOptions,
    box: TuckBox,
    pal: Palette,
) -> None:
    lines = (
        f"Eske til {options.cards} kort à {options.thickness:g} mm "
        f"(innvendig {box.width:g} × {box.height:g} × {box.depth:g} mm).",
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


def _with_layers(pdf: bytes) -> bytes:
    """Declare the optional content groups the page's marked content refers to."""
    reader = PdfReader(io.BytesIO(pdf))
    writer = PdfWriter(clone_from=reader)
    refs = {}
    for key, (resource, title) in LAYERS.items():
        group = DictionaryObject(
            {NameObject("/Type"): NameObject("/OCG"), NameObject("/Name"): TextStringObject(title)}
        )
        refs[key] = (resource, writer._add_object(group))
    groups = ArrayObject([ref for _, ref in refs.values()])
    writer._root_object[NameObject("/OCProperties")] = DictionaryObject(
        {
            NameObject("/OCGs"): groups,
            NameObject("/D"): DictionaryObject(
                {
                    NameObject("/Name"): TextStringObject("Dieline"),
                    NameObject("/Order"): groups,
                    NameObject("/ON"): groups,
                }
            ),
        }
    )
    for page in writer.pages:
        resources = page[NameObject("/Resources")]
        properties = DictionaryObject({NameObject(f"/{name}"): ref for name, ref in refs.values()})
        resources[NameObject("/Properties")] = properties  # type: ignore[index]
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()
