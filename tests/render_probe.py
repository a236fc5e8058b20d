"""Measuring rendered PDFs with pypdf: clip rectangles, line segments, text positions, fonts.

The walker follows q/Q/cm through page content and into form XObjects, so every shape
is reported in page coordinates (millimetres), whatever transforms drew it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pypdf import PageObject, PdfReader
from pypdf.generic import ContentStream

from kraftstokk.render.preflight.space import IDENTITY, Matrix, apply, multiply

PT = 25.4 / 72  # mm per point


@dataclass(frozen=True)
class Rect:
    """Millimetres, page coordinates."""

    x1: float
    y1: float
    x2: float
    y2: float

    @property
    def w(self) -> float:
        return self.x2 - self.x1

    @property
    def h(self) -> float:
        return self.y2 - self.y1

    def contains(self, x: float, y: float, tol: float = 0.01) -> bool:
        return self.x1 - tol <= x <= self.x2 + tol and self.y1 - tol <= y <= self.y2 + tol

    def rounded(self, digits: int = 2) -> tuple[float, ...]:
        return tuple(round(v, digits) for v in (self.x1, self.y1, self.x2, self.y2))


@dataclass(frozen=True)
class Segment:
    """A stroked straight line in page millimetres, with its width and stroke colour."""

    x1: float
    y1: float
    x2: float
    y2: float
    width: float  # points (as set by w, before any scaling)
    colour: tuple[float, ...]


@dataclass
class PageShapes:
    clips: list[Rect] = field(default_factory=list)  # clipping rectangles set on the page
    form_clips: list[Rect] = field(default_factory=list)  # ... and inside forms
    segments: list[Segment] = field(default_factory=list)


def _rect_from(m: Matrix, x: float, y: float, w: float, h: float) -> Rect:
    pts = [apply(m, px, py) for px, py in ((x, y), (x + w, y), (x, y + h), (x + w, y + h))]
    xs = [p[0] * PT for p in pts]
    ys = [p[1] * PT for p in pts]
    return Rect(min(xs), min(ys), max(xs), max(ys))


def page_shapes(page: PageObject) -> PageShapes:
    shapes = PageShapes()
    _walk(page.get_contents(), page.pdf, page["/Resources"], IDENTITY, shapes, False)
    return shapes


def _walk(
    content: Any, pdf: Any, resources: Any, ctm: Matrix, shapes: PageShapes, in_form: bool
) -> None:
    stream = content if isinstance(content, ContentStream) else ContentStream(content, pdf)
    stack: list[tuple[Matrix, float, tuple[float, ...]]] = []
    width, colour = 1.0, (0.0,)
    pending_rects: list[Rect] = []
    path_lines: list[tuple[float, float, float, float]] = []
    current: tuple[float, float] | None = None
    for operands, op in stream.operations:
        if op == b"q":
            stack.append((ctm, width, colour))
        elif op == b"Q":
            ctm, width, colour = stack.pop()
        elif op == b"w":
            width = float(operands[0])
        elif op in (b"RG", b"G", b"K"):
            colour = tuple(float(v) for v in operands)
        elif op == b"cm":
            ctm = multiply(tuple(float(v) for v in operands), ctm)  # type: ignore[arg-type]
        elif op == b"re":
            x, y, w, h = (float(v) for v in operands)
            pending_rects.append(_rect_from(ctm, x, y, w, h))
        elif op == b"m":
            current = apply(ctm, float(operands[0]), float(operands[1]))
        elif op == b"l" and current is not None:
            end = apply(ctm, float(operands[0]), float(operands[1]))
            path_lines.append((current[0] * PT, current[1] * PT, end[0] * PT, end[1] * PT))
            current = end
        elif op in (b"W", b"W*"):
            (shapes.form_clips if in_form else shapes.clips).extend(pending_rects)
        elif op in (b"S", b"s"):
            shapes.segments.extend(Segment(*line, width, colour) for line in path_lines)
        if op in (b"n", b"S", b"s", b"f", b"F", b"f*", b"B", b"B*", b"b", b"b*"):
            pending_rects, path_lines, current = [], [], None
        if op == b"Do":
            xobject = resources["/XObject"][operands[0]].get_object()
            if xobject.get("/Subtype") == "/Form":
                matrix = tuple(float(v) for v in xobject.get("/Matrix", IDENTITY))
                inner = multiply(matrix, ctm)  # type: ignore[arg-type]
                _walk(xobject, pdf, xobject.get("/Resources", resources), inner, shapes, True)


@dataclass(frozen=True)
class TextPiece:
    text: str
    x: float  # mm
    y: float  # mm


def page_text(page: PageObject) -> list[TextPiece]:
    """Every text run with its origin in page millimetres (no-break spaces as spaces)."""
    pieces: list[TextPiece] = []

    def visit(text: str, cm: Any, tm: Any, font: Any, size: Any) -> None:
        if not text.strip():
            return
        x, y = apply(tuple(float(v) for v in cm), float(tm[4]), float(tm[5]))  # type: ignore[arg-type]
        pieces.append(TextPiece(text.replace("\xa0", " ").strip(), x * PT, y * PT))

    page.extract_text(visitor_text=visit)
    return pieces


def text_in(pieces: list[TextPiece], rect: Rect) -> str:
    """The runs whose origin lies in ``rect``, joined by '|'."""
    return "|".join(p.text for p in pieces if rect.contains(p.x, p.y))


def fonts_of(reader: PdfReader) -> dict[str, bool]:
    """BaseFont name -> embedded? for every font on every page and in every form."""
    found: dict[str, bool] = {}

    def visit_resources(resources: Any) -> None:
        if resources is None:
            return
        resources = resources.get_object()
        for font in (resources.get("/Font") or {}).values():
            font = font.get_object()
            descriptor = font.get("/FontDescriptor")
            if font.get("/Subtype") == "/Type0":
                descendant = font["/DescendantFonts"][0].get_object()
                descriptor = descendant.get("/FontDescriptor")
            embedded = descriptor is not None and any(
                key in descriptor.get_object() for key in ("/FontFile", "/FontFile2", "/FontFile3")
            )
            found[str(font["/BaseFont"])] = embedded
        for xobject in (resources.get("/XObject") or {}).values():
            xobject = xobject.get_object()
            if xobject.get("/Subtype") == "/Form":
                visit_resources(xobject.get("/Resources"))

    for page in reader.pages:
        visit_resources(page.get("/Resources"))
    return found
