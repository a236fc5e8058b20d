"""The page content interpreted as a RIP reads it, into the marks the checks look at.

Every content stream, and every form it draws, runs with its graphics state —
transformation, colours, line width, text matrix — so each painted object is seen at its
real size, colour and place. A form is read once for each state it inherits (colours,
line width, font: what its marks can depend on) and placed at every draw with that
draw's matrix and clip (:mod:`marks`), so a form drawn ten times inside a form drawn
ten times costs one reading, and the :class:`~budget.WorkBudget` counts what it paints
at every draw before it is placed.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from pypdf import PdfReader
from pypdf.generic import ArrayObject, DictionaryObject, IndirectObject, StreamObject

from kraftstokk.errors import KraftstokkError
from kraftstokk.render.preflight.budget import CLOCK_EVERY, WorkBudget
from kraftstokk.render.preflight.fonttext import FontInfo, read_font, readable
from kraftstokk.render.preflight.marks import Draw, Drawing, PageFacts, Painted, place
from kraftstokk.render.preflight.paint import Paint, describe_space, resolve, resource
from kraftstokk.render.preflight.space import (
    EMPTY,
    IDENTITY,
    BBox,
    Matrix,
    Point,
    Segment,
    apply,
    bbox_of,
    intersect,
    multiply,
    scale_of,
)
from kraftstokk.render.preflight.tokens import operations

#: Forms nested deeper than this are not followed (a hostile file).
MAX_FORM_DEPTH = 12
#: Shown text in a failure line is cut to this many characters.
MAX_LABEL = 24
#: A TJ adjustment at least this wide (1/1000 em) reads as a space between words.
WORD_GAP = 250
#: Straight two-point subpaths kept per path (crop marks are a few dozen).
MAX_PATH_SEGMENTS = 10_000
#: Graphics states saved (q) and not restored that are kept; deeper saves are dropped.
MAX_SAVED_STATES = 1_000
#: Functions of a shading nested deeper than this are not followed.
MAX_FUNCTION_DEPTH = 8

PAINT_OPERATORS = frozenset(("f", "F", "f*", "B", "B*", "b", "b*", "S", "s", "n"))
TEXT_OPERATORS = ("Tj", "TJ", "'", '"', "Td", "TD", "Tm", "T*", "BT", "Tf", "Tr", "TL", "Ts")
FILLS = frozenset(("f", "F", "f*", "B", "B*", "b", "b*"))
STROKES = frozenset(("S", "s", "B", "B*", "b", "b*"))
COLOUR_OPERATORS = {
    "g": "DeviceGray",
    "G": "DeviceGray",
    "rg": "DeviceRGB",
    "RG": "DeviceRGB",
    "k": "DeviceCMYK",
    "K": "DeviceCMYK",
}


class ContentError(KraftstokkError):
    """Page content that cannot be interpreted (the caller names the file and page)."""


BLACK = Paint("DeviceGray", (0.0,))


@dataclass(slots=True)
class GraphicsState:
    ctm: Matrix = IDENTITY
    fill: Paint = BLACK
    stroke: Paint = BLACK
    line_width: float = 1.0
    font: FontInfo | None = None
    font_size: float = 0.0
    render_mode: int = 0
    leading: float = 0.0
    rise: float = 0.0
    fill_overprint: bool = False  # ExtGState /op (or /OP alone)
    stroke_overprint: bool = False  # ExtGState /OP
    overprint_mode: int = 0  # ExtGState /OPM
    clip: BBox | None = None  # the clipping path's bounding box; None: no clip

    def _fields(self) -> tuple[Any, ...]:
        return (
            self.ctm,
            self.fill,
            self.stroke,
            self.line_width,
            self.font,
            self.font_size,
            self.render_mode,
            self.leading,
            self.rise,
            self.fill_overprint,
            self.stroke_overprint,
            self.overprint_mode,
            self.clip,
        )

    def copy(self) -> GraphicsState:
        return GraphicsState(*self._fields())

    def inherited(self) -> tuple[Any, ...]:
        """What a form's marks can take from the state it is drawn in: all but its place
        (the matrix, first, and the clip, last)."""
        return self._fields()[1:-1]


def _overprints(paint: Paint, asked: bool, mode: int) -> bool:
    """Whether paint leaves the inks under it: overprint on, and for DeviceCMYK the
    nonzero-overprint mode (OPM 1), without which its zero inks still knock out."""
    return asked and (mode == 1 or paint.family != "cmyk")


def number(value: Any) -> float:
    """A PDF number; anything else is a ValueError (the file is then unreadable)."""
    kind = type(value)
    if kind is float or kind is int:
        return float(value)
    value = resolve(value)
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ValueError(f"expected a number, found {value!r:.40}")
    return float(value)


def _matrix(operands: list[Any]) -> Matrix:
    if len(operands) != 6:
        raise ValueError(f"a matrix has 6 numbers, not {len(operands)}")
    a, b, c, d, e, f = (number(v) for v in operands)
    return (a, b, c, d, e, f)


def content_bytes(contents: Any, budget: WorkBudget) -> bytes:
    """A page's /Contents (a stream or an array of streams) as one decoded stream, each
    part counted in the budget as soon as it is decoded."""
    contents = resolve(contents)
    streams = [contents] if isinstance(contents, StreamObject) else []
    if isinstance(contents, ArrayObject):
        streams = [part for part in map(resolve, contents) if isinstance(part, StreamObject)]
    parts: list[bytes] = []
    for stream in streams:
        parts.append(bytes(stream.get_data()))
        budget.decoded(len(parts[-1]))
    return b"\n".join(parts)


class PageReader:
    """Interprets the pages of one file; forms read once are kept for every page."""

    def __init__(self, reader: PdfReader, budget: WorkBudget) -> None:
        self.reader = reader
        self.budget = budget
        self.fonts: dict[Any, FontInfo | None] = {}
        self.forms: dict[tuple[Any, ...], Drawing] = {}
        self.reading: set[Any] = set()  # forms being read: one drawn again inside is a loop
        self.keep: list[Any] = []  # objects keyed by id() stay alive while they are keys

    def read(self, page: Any, number: int) -> PageFacts:
        facts = PageFacts()
        group = resolve(page.get("/Group"))
        if isinstance(group, DictionaryObject) and group.get("/S") == "/Transparency":
            facts.transparency.append("page transparency group")
        data = content_bytes(page.get("/Contents"), self.budget)
        resources = resolve(page.get("/Resources"))
        drawing = self._read(data, resources, GraphicsState(), depth=0)
        self.budget.spend(drawing.total_operators, drawing.total_draws, drawing.total_marks)
        place(drawing, facts, number, IDENTITY, None)
        return facts

    def _key(self, value: Any, resolved: Any) -> Any:
        if isinstance(value, IndirectObject):
            return (value.idnum, value.generation)
        self.keep.append(resolved)
        return id(resolved)

    def _font(self, resources: DictionaryObject | None, name: Any) -> FontInfo | None:
        fonts = resolve(resources.get("/Font")) if resources is not None else None
        if not isinstance(fonts, DictionaryObject) or not isinstance(name, str):
            return None
        value = fonts.get(name)
        font = resolve(value)
        if font is None:
            return None
        key = self._key(value, font)
        if key not in self.fonts:
            self.fonts[key] = read_font(font, self.budget.decoded)
        return self.fonts[key]

    def _read(self, data: bytes, resources: Any, state: GraphicsState, depth: int) -> Drawing:
        """Interpret one content stream from ``state`` (its matrix and clip: the identity
        and none; they are applied when the drawing is placed)."""
        resources = resources if isinstance(resources, DictionaryObject) else None
        drawing = Drawing()
        self._note_fonts(resources, drawing)
        interpreter = _Interpreter(self, drawing, resources, state, depth)
        handlers = interpreter.handlers
        images = unread = 0
        for operands, operator in operations(data):
            unread += 1
            if unread == CLOCK_EVERY:
                self.budget.read(unread)
                drawing.operators += unread
                unread = 0
            handler = handlers.get(operator)
            if handler is None:
                continue
            try:
                images += handler(operands, operator) or 0
            except (ValueError, TypeError, IndexError) as exc:
                raise ContentError(f"operator {operator}: {exc}") from None
        self.budget.read(unread)
        drawing.operators += unread
        drawing.finish(images)
        return drawing

    def _note_fonts(self, resources: DictionaryObject | None, drawing: Drawing) -> None:
        fonts = resolve(resources.get("/Font")) if resources is not None else None
        if isinstance(fonts, DictionaryObject):
            for name in list(fonts)[:1000]:
                info = self._font(resources, name)
                if info is not None:
                    drawing.fonts[info.label] = info.embedded

    def form(
        self, name: Any, xobject: Any, key: Any, resources: Any, state: GraphicsState, depth: int
    ) -> Draw:
        """A form XObject drawn in ``state``: read once per inherited state, then reused."""
        if depth >= MAX_FORM_DEPTH:
            raise ContentError(f"forms nested deeper than {MAX_FORM_DEPTH}")
        if key in self.reading:
            raise ContentError(f"form {name} draws itself (a loop of forms)")
        matrix = IDENTITY
        if "/Matrix" in xobject:
            listed: Any = resolve(xobject["/Matrix"])
            matrix = _matrix(list(listed))
        inner = multiply(matrix, state.ctm)
        clip = state.clip
        form_box = resolve(xobject.get("/BBox"))
        if isinstance(form_box, ArrayObject) and len(form_box) == 4:
            x0, y0, x1, y1 = (number(v) for v in form_box)
            corners = [apply(inner, x, y) for x in (x0, x1) for y in (y0, y1)]
            clip = intersect(bbox_of(corners), clip) or EMPTY
        memo = (key, state.inherited())
        drawing = self.forms.get(memo)
        if drawing is not None and depth + 1 + drawing.height > MAX_FORM_DEPTH:
            raise ContentError(f"forms nested deeper than {MAX_FORM_DEPTH}")
        if drawing is None:
            data = bytes(xobject.get_data())
            self.budget.decoded(len(data))
            form_resources = resolve(xobject.get("/Resources")) or resources
            start = state.copy()
            start.ctm, start.clip = IDENTITY, None
            self.reading.add(key)
            try:
                drawing = self._read(data, form_resources, start, depth + 1)
            finally:
                self.reading.discard(key)
            group = resolve(xobject.get("/Group"))
            if isinstance(group, DictionaryObject) and group.get("/S") == "/Transparency":
                drawing.transparency.append(f"form {name} transparency group")
            self.forms[memo] = drawing
        return Draw(drawing, inner, clip)


class _Interpreter:
    """The operators of one content stream, applied to its graphics state.

    The current path is kept as its bounding box and its straight two-point subpaths
    (where crop marks are found), so a path of a million points takes no memory.
    """

    def __init__(
        self,
        pages: PageReader,
        drawing: Drawing,
        resources: DictionaryObject | None,
        state: GraphicsState,
        depth: int,
    ) -> None:
        self.pages = pages
        self.drawing = drawing
        self.resources = resources
        self.state = state
        self.depth = depth
        self.stack: list[GraphicsState] = []
        self.text_matrix = IDENTITY
        self.line_matrix = IDENTITY
        self.clip_pending = False
        self._new_path()
        self.handlers: dict[str, Callable[[list[Any], str], int | None]] = {
            "m": self._move,
            "l": self._line,
            "c": self._curve,
            "v": self._curve,
            "y": self._curve,
            "re": self._rectangle,
            "q": self._save,
            "Q": self._restore,
            "cm": self._concat,
            "w": self._line_width,
            "W": self._clip,
            "W*": self._clip,
            "cs": self._colour_space,
            "CS": self._colour_space,
            "sc": self._colour,
            "scn": self._colour,
            "SC": self._colour,
            "SCN": self._colour,
            "gs": self._graphics_state,
            "Do": self._xobject,
            "BI": self._inline_image,
            "sh": self._shading_operator,
            **{op: self._device_colour for op in COLOUR_OPERATORS},
            **{op: self._paint for op in PAINT_OPERATORS},
            **{op: self._text_operator for op in TEXT_OPERATORS},
        }

    def run(self, operands: list[Any], op: str) -> int:
        """Apply one operator; the number of images it drew."""
        handler = self.handlers.get(op)
        return (handler(operands, op) or 0) if handler is not None else 0

    # --- paths ---------------------------------------------------------------------------

    def _new_path(self) -> None:
        self.x0 = self.y0 = math.inf
        self.x1 = self.y1 = -math.inf
        self.segments: list[Segment] = []
        self.start: Point | None = None  # the current subpath's first point
        self.last: Point | None = None  # and its last
        self.points = 0
        self.curved = False

    def _extend(self, x: float, y: float) -> Point:
        m = self.state.ctm
        px, py = m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]
        if px < self.x0:
            self.x0 = px
        if px > self.x1:
            self.x1 = px
        if py < self.y0:
            self.y0 = py
        if py > self.y1:
            self.y1 = py
        return (px, py)

    def _end_subpath(self) -> None:
        straight = self.points == 2 and not self.curved
        room = len(self.segments) < MAX_PATH_SEGMENTS
        if straight and room and self.start is not None and self.last is not None:
            self.segments.append((self.start, self.last))
        self.start = self.last = None
        self.points = 0
        self.curved = False

    def _move(self, operands: list[Any], op: str) -> None:
        if len(operands) == 2:
            self._end_subpath()
            self.start = self.last = self._extend(number(operands[0]), number(operands[1]))
            self.points = 1

    def _line(self, operands: list[Any], op: str) -> None:
        if len(operands) == 2:
            point = self._extend(number(operands[0]), number(operands[1]))
            if self.start is None:  # no m first: the line starts a subpath
                self.start = point
            self.last = point
            self.points += 1

    def _curve(self, operands: list[Any], op: str) -> None:
        if len(operands) == (6 if op == "c" else 4):
            for i in range(0, len(operands), 2):
                self._extend(number(operands[i]), number(operands[i + 1]))
            self.curved = True  # a curve is no straight line

    def _rectangle(self, operands: list[Any], op: str) -> None:
        if len(operands) == 4:
            self._end_subpath()
            x, y, w, h = (number(v) for v in operands)
            for px, py in ((x, y), (x + w, y + h), (x, y + h), (x + w, y)):
                self._extend(px, py)  # a rectangle is never a crop mark

    def _path_box(self) -> BBox | None:
        return None if self.x0 > self.x1 else (self.x0, self.y0, self.x1, self.y1)

    def _paint(self, operands: list[Any], op: str) -> None:
        self._end_subpath()
        state = self.state
        box = self._path_box()
        if box is not None and op != "n" and state.clip != EMPTY:
            self._painted(op, box)
        if self.clip_pending and box is not None:
            state.clip = intersect(box, state.clip) or EMPTY
        self.clip_pending = False
        self._new_path()

    def _painted(self, op: str, path_box: BBox) -> None:
        state = self.state
        bbox = intersect(path_box, state.clip)
        if bbox is None:
            return  # nothing of it shows
        items = self.drawing.items
        if op in FILLS:
            overprint = _overprints(state.fill, state.fill_overprint, state.overprint_mode)
            items.append(Painted("fill", state.fill, bbox, overprint=overprint))
        if op in STROKES:
            width = state.line_width * scale_of(state.ctm)
            segments = tuple(
                segment
                for segment in self.segments
                if (whole := bbox_of(list(segment))) == intersect(whole, state.clip)
            )  # wholly visible
            items.append(
                Painted(
                    "stroke",
                    state.stroke,
                    bbox,
                    width=width,
                    segments=segments,
                    overprint=_overprints(
                        state.stroke, state.stroke_overprint, state.overprint_mode
                    ),
                )
            )
        self.pages.budget.painted(len(items))

    def _clip(self, operands: list[Any], op: str) -> None:
        self.clip_pending = True

    # --- graphics state ------------------------------------------------------------------

    def _save(self, operands: list[Any], op: str) -> None:
        if len(self.stack) < MAX_SAVED_STATES:
            self.stack.append(self.state.copy())

    def _restore(self, operands: list[Any], op: str) -> None:
        if self.stack:
            self.state = self.stack.pop()

    def _concat(self, operands: list[Any], op: str) -> None:
        if len(operands) == 6:
            self.state.ctm = multiply(_matrix(operands), self.state.ctm)

    def _line_width(self, operands: list[Any], op: str) -> None:
        if operands:
            self.state.line_width = number(operands[0])

    def _device_colour(self, operands: list[Any], op: str) -> None:
        space = COLOUR_OPERATORS[op]
        paint = Paint(space, tuple(number(v) for v in operands))
        self.drawing.spaces.add(space)
        if op.islower():
            self.state.fill = paint
        else:
            self.state.stroke = paint

    def _colour_space(self, operands: list[Any], op: str) -> None:
        if operands:
            name, _ = describe_space(operands[0], self.resources)
            self.drawing.spaces.add(name)
            if op == "cs":
                self.state.fill = Paint(name, (0.0,))
            else:
                self.state.stroke = Paint(name, (0.0,))

    def _colour(self, operands: list[Any], op: str) -> None:
        values = tuple(
            float(v) for v in operands if isinstance(v, int | float) and not isinstance(v, bool)
        )
        if op in ("sc", "scn"):
            self.state.fill = Paint(self.state.fill.space, values)
        else:
            self.state.stroke = Paint(self.state.stroke.space, values)

    def _graphics_state(self, operands: list[Any], op: str) -> None:
        if operands:
            self._ext_gstate(resource(self.resources, "/ExtGState", operands[0]))

    def _inline_image(self, operands: list[Any], op: str) -> None:
        if operands and isinstance(operands[0], dict):
            self._image(operands[0], "inline", None)

    def _shading_operator(self, operands: list[Any], op: str) -> None:
        if operands:
            self._shading(resource(self.resources, "/Shading", operands[0]))

    # --- text ------------------------------------------------------------------------------

    def _text_operator(self, operands: list[Any], op: str) -> None:
        state = self.state
        if op == "BT":
            self.text_matrix = self.line_matrix = IDENTITY
        elif op == "Tf" and len(operands) == 2:
            state.font = self.pages._font(self.resources, operands[0])
            state.font_size = number(operands[1])
        elif op == "Tr" and operands:
            state.render_mode = int(number(operands[0]))
        elif op == "TL" and operands:
            state.leading = number(operands[0])
        elif op == "Ts" and operands:
            state.rise = number(operands[0])
        elif op == "Tm" and len(operands) == 6:
            self.text_matrix = self.line_matrix = _matrix(operands)
        elif op in ("Td", "TD") and len(operands) == 2:
            tx, ty = number(operands[0]), number(operands[1])
            if op == "TD":
                state.leading = -ty
            self.line_matrix = multiply((1, 0, 0, 1, tx, ty), self.line_matrix)
            self.text_matrix = self.line_matrix
        elif op in ("T*", "'", '"'):
            self.line_matrix = multiply((1, 0, 0, 1, 0, -state.leading), self.line_matrix)
            self.text_matrix = self.line_matrix
            if op != "T*" and operands:
                self._text(operands[-1:])
        elif op in ("Tj", "TJ"):
            self._text(operands)

    def _ext_gstate(self, gstate: Any) -> None:
        if not isinstance(gstate, DictionaryObject):
            return
        transparency = self.drawing.transparency
        if "/LW" in gstate:
            self.state.line_width = number(gstate["/LW"])
        if "/OP" in gstate:  # /OP sets both, unless /op is given (ISO 32000-1, 8.6.7)
            self.state.stroke_overprint = self.state.fill_overprint = bool(gstate["/OP"])
        if "/op" in gstate:
            self.state.fill_overprint = bool(gstate["/op"])
        if "/OPM" in gstate:
            self.state.overprint_mode = int(number(gstate["/OPM"]))
        for key in ("/CA", "/ca"):
            if key in gstate and number(gstate[key]) < 1:
                transparency.append(f"ExtGState {key} {number(gstate[key]):g}")
        mask = gstate.get("/SMask")
        if mask is not None and mask != "/None":
            transparency.append("ExtGState soft mask")
        blend = gstate.get("/BM")
        if blend is not None and blend not in ("/Normal", "/Compatible"):
            transparency.append(f"blend mode {blend}")

    def _text(self, operands: list[Any]) -> None:
        state = self.state
        if state.render_mode in (3, 7) or state.clip == EMPTY:
            return
        full = multiply(self.text_matrix, state.ctm)
        shown, advance = _shown(operands, state.font)
        width = advance * state.font_size
        top = state.rise + state.font_size * 0.72  # cap height of a typical font
        corners = [apply(full, x, y) for x in (0, width) for y in (state.rise, top)]
        box = intersect(bbox_of(corners), state.clip)
        if box is None:
            return
        paint = state.stroke if state.render_mode == 1 else state.fill
        asked = state.stroke_overprint if state.render_mode == 1 else state.fill_overprint
        overprint = _overprints(paint, asked, state.overprint_mode)
        text = shown.strip()
        if len(text) > MAX_LABEL:
            text = text[:MAX_LABEL] + "…"
        font = state.font.label if state.font is not None else ""
        up = (state.font_size * full[2], state.font_size * full[3])
        self.drawing.items.append(
            Painted("text", paint, box, up=up, text=text, font=font, overprint=overprint)
        )

    # --- XObjects, images, shadings ------------------------------------------------------

    def _xobject(self, operands: list[Any], op: str) -> int:
        if not operands:
            return 0
        name = operands[0]
        table = resolve(self.resources.get("/XObject")) if self.resources is not None else None
        if not isinstance(table, DictionaryObject) or not isinstance(name, str):
            return 0
        value = table.get(name)
        xobject = resolve(value)
        if not isinstance(xobject, StreamObject):
            return 0
        subtype = xobject.get("/Subtype")
        if subtype == "/Form":
            key = self.pages._key(value, xobject)
            draw = self.pages.form(name, xobject, key, self.resources, self.state, self.depth)
            self.drawing.items.append(draw)
            return 0
        if subtype == "/Image":
            self._image(xobject, str(name), self.resources)
            return 1
        return 0

    def _image(self, image: Any, label: str, resources: Any) -> None:
        width_px = _pixels(image, "/Width", "/W")
        height_px = _pixels(image, "/Height", "/H")
        ctm = self.state.ctm
        corners = [apply(ctm, x, y) for x, y in ((0, 0), (1, 0), (0, 1), (1, 1))]
        is_mask = bool(resolve(image.get("/ImageMask", image.get("/IM", False))))
        if is_mask:
            paint = self.state.fill
        else:
            space = image.get("/ColorSpace", image.get("/CS"))
            name, _ = describe_space(space, resources) if space is not None else ("none", 0)
            self.drawing.spaces.add(name)
            paint = Paint(name, ())
        soft_mask_in_data = resolve(image.get("/SMaskInData", 0))
        if "/SMask" in image or (isinstance(soft_mask_in_data, int) and soft_mask_in_data):
            self.drawing.transparency.append(f"image {label} soft mask")
        self.drawing.items.append(
            Painted(
                "image",
                paint,
                bbox_of(corners),
                up=(ctm[2], ctm[3]),
                across=(ctm[0], ctm[1]),
                pixels=(width_px, height_px),
                text=f"image {label} ({width_px:.0f} × {height_px:.0f} px)",
            )
        )

    def _shading(self, shading: Any) -> None:
        if not isinstance(shading, DictionaryObject):
            return
        name, _ = describe_space(shading.get("/ColorSpace"), self.resources)
        self.drawing.spaces.add(name)
        for values in _function_ends(resolve(shading.get("/Function")), 0):
            self.drawing.items.append(Painted("shading", Paint(name, values), EMPTY))


def _pixels(image: Any, key: str, short: str) -> float:
    value = resolve(image.get(key, image.get(short, 0)))
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else 0.0


def _shown(operands: list[Any], font: FontInfo | None) -> tuple[str, float]:
    """What a Tj/TJ/'/" shows, as a reader sees it, and its advance (em per point)."""
    parts: list[str] = []
    advance = 0.0
    for operand in operands:
        operand = resolve(operand)
        items = list(operand) if isinstance(operand, list) else [operand]
        for item in items:
            item = resolve(item)
            if isinstance(item, int | float) and not isinstance(item, bool):
                advance -= float(item)
                if item <= -WORD_GAP and parts and not parts[-1].endswith(" "):
                    parts.append(" ")
            elif isinstance(item, bytes):
                if font is None:  # no font set: the bytes as Latin-1, as far as they show
                    parts.append("".join(readable(char) for char in item.decode("latin-1")))
                    continue
                parts.append(font.decode(item))
                advance += font.advance(item)
    return "".join(parts), advance / 1000


def _function_ends(function: Any, depth: int) -> Iterator[tuple[float, ...]]:
    """The colours at the ends of a shading's exponential (or stitched) functions."""
    if depth > MAX_FUNCTION_DEPTH:
        return
    if isinstance(function, ArrayObject):
        for item in function[:64]:
            yield from _function_ends(resolve(item), depth + 1)
        return
    if not isinstance(function, DictionaryObject):
        return
    kind = resolve(function.get("/FunctionType", -1))
    if kind == 2:
        for key in ("/C0", "/C1"):
            if key in function:
                values: Any = resolve(function[key])
                yield tuple(number(v) for v in values)
    elif kind == 3:
        functions: Any = resolve(function.get("/Functions", ArrayObject()))
        for item in functions[:64]:
            yield from _function_ends(resolve(item), depth + 1)
