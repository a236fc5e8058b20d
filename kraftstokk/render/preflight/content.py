"""The page content interpreted as a RIP reads it, into the marks the checks look at.

Every content stream, and every form it draws, runs with its graphics state —
transformation, colours, line width, text matrix — so each painted object is seen at its
real size, colour and place.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from pypdf import PdfReader
from pypdf.generic import ArrayObject, ContentStream, DictionaryObject, StreamObject

from kraftstokk.errors import InputFileError
from kraftstokk.render.preflight.paint import Paint, describe_space, resolve, resource

MM = 72 / 25.4
#: Forms nested deeper than this are not followed (a loop or a hostile file).
MAX_FORM_DEPTH = 12

Matrix = tuple[float, float, float, float, float, float]
IDENTITY: Matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)


def multiply(m: Matrix, n: Matrix) -> Matrix:
    """m then n (PDF's row-vector convention: a point p maps to p·m·n)."""
    a, b, c, d, e, f = m
    a2, b2, c2, d2, e2, f2 = n
    return (
        a * a2 + b * c2,
        a * b2 + b * d2,
        c * a2 + d * c2,
        c * b2 + d * d2,
        e * a2 + f * c2 + e2,
        e * b2 + f * d2 + f2,
    )


def apply(m: Matrix, x: float, y: float) -> tuple[float, float]:
    return (m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5])


def scale_of(m: Matrix) -> float:
    """How much a length grows under m (the geometric mean of its two axes)."""
    return math.sqrt(abs(m[0] * m[3] - m[1] * m[2]))


def vertical_scale(m: Matrix) -> float:
    """How much a vertical unit grows under m: the height a font size becomes."""
    return math.hypot(m[2], m[3])


def mm(value: float) -> str:
    return f"{value / MM:.2f} mm"


@dataclass
class GraphicsState:
    ctm: Matrix = IDENTITY
    fill: Paint = field(default_factory=lambda: Paint("DeviceGray", (0.0,)))
    stroke: Paint = field(default_factory=lambda: Paint("DeviceGray", (0.0,)))
    line_width: float = 1.0
    font_name: str = ""
    font_size: float = 0.0
    font_widths: tuple[int, tuple[float, ...]] = (0, ())  # FirstChar, Widths (1/1000 em)
    render_mode: int = 0
    leading: float = 0.0
    rise: float = 0.0
    clip: BBox | None = None  # the clipping path's bounding box in page space; None: no clip

    def copy(self) -> GraphicsState:
        return GraphicsState(**self.__dict__)


BBox = tuple[float, float, float, float]
Segment = tuple[tuple[float, float], tuple[float, float]]


def intersect(a: BBox, b: BBox | None) -> BBox | None:
    """The overlap of two boxes; None when they do not overlap."""
    if b is None:
        return a
    box = (max(a[0], b[0]), max(a[1], b[1]), min(a[2], b[2]), min(a[3], b[3]))
    return box if box[0] <= box[2] and box[1] <= box[3] else None


@dataclass(frozen=True)
class Mark:
    """One painted object as the checks see it."""

    kind: str  # fill, stroke, text, image, shading
    page: int
    paint: Paint | None
    bbox: tuple[float, float, float, float]  # in page space (points)
    size: float = 0.0  # text: size in points; stroke: width in points
    label: str = ""
    dpi: float = 0.0
    light_on_dark: bool = False


@dataclass
class PageFacts:
    marks: list[Mark] = field(default_factory=list)
    spaces: set[str] = field(default_factory=set)
    transparency: list[str] = field(default_factory=list)
    fonts: dict[str, bool] = field(default_factory=dict)  # font name -> embedded
    dark_areas: list[tuple[float, float, float, float]] = field(default_factory=list)
    #: Stroked straight lines (one per two-point subpath), clipped away when hidden:
    #: where crop marks are found.
    segments: list[Segment] = field(default_factory=list)


def _font_label(font: DictionaryObject) -> str:
    return str(font.get("/BaseFont", font.get("/Name", "font"))).lstrip("/")


def font_is_embedded(font: DictionaryObject) -> bool:
    subtype = font.get("/Subtype")
    if subtype == "/Type3":
        return True
    if subtype == "/Type0":
        descendants = resolve(font.get("/DescendantFonts"))
        if not isinstance(descendants, ArrayObject) or not descendants:
            return False
        font = resolve(descendants[0])
    descriptor = resolve(font.get("/FontDescriptor"))
    if not isinstance(descriptor, DictionaryObject):
        return False
    return any(key in descriptor for key in ("/FontFile", "/FontFile2", "/FontFile3"))


def _widths(font: Any) -> tuple[int, tuple[float, ...]]:
    """A simple font's FirstChar and Widths; (0, ()) where they are not given."""
    if not isinstance(font, DictionaryObject) or font.get("/Subtype") == "/Type0":
        return (0, ())
    widths = resolve(font.get("/Widths"))
    if not isinstance(widths, ArrayObject):
        return (0, ())
    return (int(font.get("/FirstChar", 0)), tuple(float(resolve(w)) for w in widths))


def _advance(operands: list[Any], widths: tuple[int, tuple[float, ...]]) -> float:
    """The width of the shown string in text space units per point of font size."""
    first, table = widths
    if not table:
        return 0.0
    total = 0.0
    for operand in operands:
        operand = resolve(operand)
        items = list(operand) if isinstance(operand, ArrayObject) else [operand]
        for item in items:
            if isinstance(item, int | float):
                total -= float(item)
                continue
            data = item.get_original_bytes() if hasattr(item, "get_original_bytes") else item
            if isinstance(data, bytes):
                for code in data:
                    index = code - first
                    total += table[index] if 0 <= index < len(table) else 0.0
    return total / 1000


def _text_of(operands: list[Any]) -> str:
    parts: list[str] = []
    for operand in operands:
        operand = resolve(operand)
        if isinstance(operand, ArrayObject):
            parts.extend(str(item) for item in operand if isinstance(item, str | bytes))
        elif isinstance(operand, str):
            parts.append(operand)
        elif isinstance(operand, bytes):
            parts.append(operand.decode("latin-1"))
    text = "".join(parts).strip()
    return text[:24] + ("…" if len(text) > 24 else "")


class PageReader:
    """Interprets one page's content and collects what the checks need."""

    def __init__(self, reader: PdfReader, number: int) -> None:
        self.reader = reader
        self.number = number
        self.facts = PageFacts()

    def read(self, page: Any) -> PageFacts:
        resources = resolve(page.get("/Resources"))
        group = resolve(page.get("/Group"))
        if isinstance(group, DictionaryObject) and group.get("/S") == "/Transparency":
            self.facts.transparency.append("page transparency group")
        contents = page.get_contents()
        if contents is not None:
            self._run(contents, resources, GraphicsState(), depth=0)
        return self.facts

    def _run(self, stream: Any, resources: Any, state: GraphicsState, depth: int) -> None:
        if depth > MAX_FORM_DEPTH:
            raise InputFileError(
                f"page {self.number}", f"forms nested deeper than {MAX_FORM_DEPTH}"
            )
        resources = resources if isinstance(resources, DictionaryObject) else None
        self._note_fonts(resources)
        content = ContentStream(stream, self.reader)
        stack: list[GraphicsState] = []
        path: list[tuple[float, float]] = []
        subpaths: list[list[tuple[float, float]]] = []
        clip_pending = False
        text_matrix = IDENTITY
        line_matrix = IDENTITY
        for operands, operator in content.operations:
            op = operator.decode("latin-1") if isinstance(operator, bytes) else str(operator)
            if op == "q":
                stack.append(state.copy())
            elif op == "Q":
                if stack:
                    state = stack.pop()
            elif op == "cm" and len(operands) == 6:
                state.ctm = multiply(_matrix(operands), state.ctm)
            elif op == "w" and operands:
                state.line_width = float(operands[0])
            elif op in ("g", "G", "rg", "RG", "k", "K"):
                space = {"g": "DeviceGray", "rg": "DeviceRGB", "k": "DeviceCMYK"}[op.lower()]
                paint = Paint(space, tuple(float(v) for v in operands))
                self.facts.spaces.add(space)
                if op.islower():
                    state.fill = paint
                else:
                    state.stroke = paint
            elif op in ("cs", "CS") and operands:
                name, _ = describe_space(operands[0], resources)
                self.facts.spaces.add(name)
                paint = Paint(name, (0.0,))
                if op == "cs":
                    state.fill = paint
                else:
                    state.stroke = paint
            elif op in ("sc", "scn", "SC", "SCN"):
                values = tuple(float(v) for v in operands if isinstance(v, int | float))
                if op in ("sc", "scn"):
                    state.fill = Paint(state.fill.space, values)
                else:
                    state.stroke = Paint(state.stroke.space, values)
            elif op == "gs" and operands:
                self._ext_gstate(resource(resources, "/ExtGState", operands[0]), state)
            elif op in ("m", "l") and len(operands) == 2:
                point = apply(state.ctm, float(operands[0]), float(operands[1]))
                path.append(point)
                if op == "m" or not subpaths:
                    subpaths.append([point])
                else:
                    subpaths[-1].append(point)
            elif op in ("W", "W*"):
                clip_pending = True
            elif op == "c" and len(operands) == 6:
                for i in (0, 2, 4):
                    path.append(apply(state.ctm, float(operands[i]), float(operands[i + 1])))
                if subpaths:
                    subpaths[-1].append((math.nan, math.nan))  # a curve is no straight line
            elif op in ("v", "y") and len(operands) == 4:
                for i in (0, 2):
                    path.append(apply(state.ctm, float(operands[i]), float(operands[i + 1])))
                if subpaths:
                    subpaths[-1].append((math.nan, math.nan))
            elif op == "re" and len(operands) == 4:
                x, y, w, h = (float(v) for v in operands)
                path.extend(
                    apply(state.ctm, px, py) for px, py in ((x, y), (x + w, y + h), (x, y + h))
                )
                path.append(apply(state.ctm, x + w, y))
                subpaths.append([])  # a rectangle is never a crop mark
            elif op in ("f", "F", "f*", "B", "B*", "b", "b*", "S", "s", "n"):
                if op != "n":
                    self._paint(op, path, state, subpaths)
                if clip_pending and path:
                    state.clip = intersect(_bbox(path), state.clip) or (0.0, 0.0, 0.0, 0.0)
                clip_pending = False
                path = []
                subpaths = []
            elif op == "BT":
                text_matrix = line_matrix = IDENTITY
            elif op == "Tf" and len(operands) == 2:
                font = resource(resources, "/Font", operands[0])
                state.font_name = (
                    _font_label(font) if isinstance(font, DictionaryObject) else str(operands[0])
                )
                state.font_widths = _widths(font)
                state.font_size = float(operands[1])
            elif op == "Tr" and operands:
                state.render_mode = int(operands[0])
            elif op == "TL" and operands:
                state.leading = float(operands[0])
            elif op == "Ts" and operands:
                state.rise = float(operands[0])
            elif op == "Tm" and len(operands) == 6:
                text_matrix = line_matrix = _matrix(operands)
            elif op in ("Td", "TD") and len(operands) == 2:
                tx, ty = float(operands[0]), float(operands[1])
                if op == "TD":
                    state.leading = -ty
                line_matrix = multiply((1, 0, 0, 1, tx, ty), line_matrix)
                text_matrix = line_matrix
            elif op in ("T*", "'", '"'):
                line_matrix = multiply((1, 0, 0, 1, 0, -state.leading), line_matrix)
                text_matrix = line_matrix
                if op != "T*":
                    self._text(operands[-1:], text_matrix, state)
            elif op in ("Tj", "TJ"):
                self._text(operands, text_matrix, state)
            elif op == "Do" and operands:
                self._xobject(operands[0], resources, state, depth)
            elif op == "INLINE IMAGE":
                self._inline_image(operands, state)
            elif op == "sh" and operands:
                self._shading(resource(resources, "/Shading", operands[0]), resources, state)

    def _note_fonts(self, resources: DictionaryObject | None) -> None:
        fonts = resolve(resources.get("/Font")) if resources is not None else None
        if isinstance(fonts, DictionaryObject):
            for value in fonts.values():
                font = resolve(value)
                if isinstance(font, DictionaryObject):
                    self.facts.fonts[_font_label(font)] = font_is_embedded(font)

    def _ext_gstate(self, gstate: Any, state: GraphicsState) -> None:
        if not isinstance(gstate, DictionaryObject):
            return
        if "/LW" in gstate:
            state.line_width = number(gstate["/LW"])
        for key in ("/CA", "/ca"):
            if key in gstate and number(gstate[key]) < 1:
                self.facts.transparency.append(f"ExtGState {key} {number(gstate[key]):g}")
        mask = gstate.get("/SMask")
        if mask is not None and mask != "/None":
            self.facts.transparency.append("ExtGState soft mask")
        blend = gstate.get("/BM")
        if blend is not None and blend not in ("/Normal", "/Compatible"):
            self.facts.transparency.append(f"blend mode {blend}")

    def _paint(
        self,
        op: str,
        path: list[tuple[float, float]],
        state: GraphicsState,
        subpaths: list[list[tuple[float, float]]],
    ) -> None:
        if not path:
            return
        clipped = intersect(_bbox(path), state.clip)
        if clipped is None or state.clip == (0.0, 0.0, 0.0, 0.0):
            return  # nothing of it shows
        bbox = clipped
        fills = op in ("f", "F", "f*", "B", "B*", "b", "b*")
        strokes = op in ("S", "s", "B", "B*", "b", "b*")
        if fills:
            self.facts.marks.append(Mark("fill", self.number, state.fill, bbox))
            area = (bbox[2] - bbox[0]) * (bbox[3] - bbox[1])
            if state.fill.is_dark and area > (5 * MM) ** 2:
                self.facts.dark_areas.append(bbox)
        if strokes:
            width = state.line_width * scale_of(state.ctm)
            self.facts.marks.append(Mark("stroke", self.number, state.stroke, bbox, size=width))
            for points in subpaths:
                if len(points) == 2 and not any(math.isnan(v) for pt in points for v in pt):
                    box = _bbox(points)
                    if intersect(box, state.clip) == box:  # wholly visible
                        self.facts.segments.append((points[0], points[1]))

    def _text(self, operands: list[Any], text_matrix: Matrix, state: GraphicsState) -> None:
        if state.render_mode in (3, 7):
            return
        full = multiply(text_matrix, state.ctm)
        size = state.font_size * vertical_scale(full)
        advance = _advance(operands, state.font_widths) * state.font_size
        top = state.rise + state.font_size * 0.72  # cap height of a typical font
        corners = [apply(full, x, y) for x in (0, advance) for y in (state.rise, top)]
        xs = [p[0] for p in corners]
        ys = [p[1] for p in corners]
        paint = state.stroke if state.render_mode == 1 else state.fill
        label = f"text '{_text_of(operands)}' ({state.font_name} {size:.1f} pt)"
        shown = intersect((min(xs), min(ys), max(xs), max(ys)), state.clip)
        if shown is None:
            return
        self.facts.marks.append(
            Mark(
                "text",
                self.number,
                paint,
                shown,
                size=size,
                label=label,
            )
        )

    def _xobject(self, name: Any, resources: Any, state: GraphicsState, depth: int) -> None:
        xobject = resource(resources, "/XObject", name)
        if not isinstance(xobject, StreamObject):
            return
        subtype = xobject.get("/Subtype")
        if subtype == "/Form":
            inner = state.copy()
            if "/Matrix" in xobject:
                matrix: Any = resolve(xobject["/Matrix"])
                inner.ctm = multiply(_matrix(list(matrix)), inner.ctm)
            form_box = resolve(xobject.get("/BBox"))
            if isinstance(form_box, ArrayObject) and len(form_box) == 4:
                x0, y0, x1, y1 = (number(v) for v in form_box)
                corners = [apply(inner.ctm, x, y) for x in (x0, x1) for y in (y0, y1)]
                inner.clip = intersect(_bbox(corners), inner.clip) or (0.0, 0.0, 0.0, 0.0)
            group = resolve(xobject.get("/Group"))
            if isinstance(group, DictionaryObject) and group.get("/S") == "/Transparency":
                self.facts.transparency.append(f"form {name} transparency group")
            form_resources = resolve(xobject.get("/Resources")) or resources
            self._run(xobject, form_resources, inner, depth + 1)
        elif subtype == "/Image":
            self._image(xobject, str(name), resources, state)

    def _image(self, image: Any, label: str, resources: Any, state: GraphicsState) -> None:
        width_px = float(image.get("/Width", image.get("/W", 0)) or 0)
        height_px = float(image.get("/Height", image.get("/H", 0)) or 0)
        ctm = state.ctm
        width_pt = math.hypot(ctm[0], ctm[1])
        height_pt = math.hypot(ctm[2], ctm[3])
        dpi = 0.0
        if width_pt > 0 and height_pt > 0:
            dpi = min(width_px / (width_pt / 72), height_px / (height_pt / 72))
        corners = [apply(ctm, x, y) for x, y in ((0, 0), (1, 0), (0, 1), (1, 1))]
        xs = [p[0] for p in corners]
        ys = [p[1] for p in corners]
        is_mask = bool(image.get("/ImageMask", image.get("/IM", False)))
        if is_mask:
            paint = state.fill
        else:
            space = image.get("/ColorSpace", image.get("/CS"))
            name, _ = describe_space(space, resources) if space is not None else ("none", 0)
            self.facts.spaces.add(name)
            paint = Paint(name, ())
        if "/SMask" in image or int(image.get("/SMaskInData", 0) or 0):
            self.facts.transparency.append(f"image {label} soft mask")
        self.facts.marks.append(
            Mark(
                "image",
                self.number,
                paint,
                (min(xs), min(ys), max(xs), max(ys)),
                label=f"image {label} ({width_px:.0f} × {height_px:.0f} px)",
                dpi=dpi,
            )
        )

    def _inline_image(self, operands: Any, state: GraphicsState) -> None:
        settings = operands.get("settings", {}) if isinstance(operands, dict) else {}
        self._image(DictionaryObject(settings), "inline", None, state)

    def _shading(self, shading: Any, resources: Any, state: GraphicsState) -> None:
        if not isinstance(shading, DictionaryObject):
            return
        name, _ = describe_space(shading.get("/ColorSpace"), resources)
        self.facts.spaces.add(name)
        for values in _function_ends(resolve(shading.get("/Function"))):
            paint = Paint(name, values)
            self.facts.marks.append(Mark("shading", self.number, paint, (0, 0, 0, 0)))


def _function_ends(function: Any) -> Iterator[tuple[float, ...]]:
    """The colours at the ends of a shading's exponential (or stitched) functions."""
    if isinstance(function, ArrayObject):
        for item in function:
            yield from _function_ends(resolve(item))
        return
    if not isinstance(function, DictionaryObject):
        return
    if int(function.get("/FunctionType", -1)) == 2:
        for key in ("/C0", "/C1"):
            if key in function:
                values: Any = resolve(function[key])
                yield tuple(number(v) for v in values)
    elif int(function.get("/FunctionType", -1)) == 3:
        functions: Any = resolve(function.get("/Functions", ArrayObject()))
        for item in functions:
            yield from _function_ends(resolve(item))


def _bbox(points: list[tuple[float, float]]) -> BBox:
    xs = [p[0] for p in points if not math.isnan(p[0])]
    ys = [p[1] for p in points if not math.isnan(p[1])]
    return (min(xs), min(ys), max(xs), max(ys))


def number(value: Any) -> float:
    """A PDF number; anything else is a ValueError (the file is then unreadable)."""
    value = resolve(value)
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ValueError(f"expected a number, found {value!r:.40}")
    return float(value)


def _matrix(operands: list[Any]) -> Matrix:
    if len(operands) != 6:
        raise ValueError(f"a matrix has 6 numbers, not {len(operands)}")
    a, b, c, d, e, f = (number(v) for v in operands)
    return (a, b, c, d, e, f)
