"""What is painted: a content stream's marks in its own space (a :class:`Drawing`, read
once per form), and the same marks placed on a page (:class:`Mark`), which the checks read.

A form drawn many times is read once; each draw places its drawing with the matrix and
clip of that draw. Placing is exact for sizes (a stroke's width, a text's size, an
image's resolution are carried as vectors) and for boxes under matrices that keep the
axes parallel, as cards, sheets and booklets use; under a rotation a box is the bounding
box of the turned one.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from kraftstokk.render.preflight.paint import Paint
from kraftstokk.render.preflight.space import (
    EMPTY,
    IDENTITY,
    MM,
    BBox,
    Matrix,
    Segment,
    apply,
    bbox_of,
    intersect,
    multiply,
    scale_of,
    transformed,
    turn,
)

#: A dark fill at least this large is a dark ground (for reversed text): 5 x 5 mm.
DARK_AREA_PT2 = (5 * MM) ** 2


@dataclass(slots=True)  # not frozen: a frozen dataclass is eight times slower to make
class Mark:
    """One painted object as the checks see it."""

    kind: str  # fill, stroke, text, image, shading
    page: int
    paint: Paint | None
    bbox: BBox  # in page space (points)
    size: float = 0.0  # text: size in points; stroke: width in points
    label: str = ""
    dpi: float = 0.0
    overprint: bool = False


@dataclass
class PageFacts:
    marks: list[Mark] = field(default_factory=list)
    spaces: set[str] = field(default_factory=set)
    transparency: list[str] = field(default_factory=list)
    fonts: dict[str, bool] = field(default_factory=dict)  # font name -> embedded
    dark_areas: list[BBox] = field(default_factory=list)
    #: Stroked straight lines (one per two-point subpath), clipped away when hidden:
    #: where crop marks are found.
    segments: list[Segment] = field(default_factory=list)


@dataclass(slots=True)  # not frozen: a frozen dataclass is eight times slower to make
class Painted:
    """A mark in the space of the drawing that paints it, inside the drawing's own clips.

    ``width``: a stroke's width; ``up``: a text's font size as a vector (its height),
    an image's vertical side; ``across``: an image's horizontal side; ``pixels``: an
    image's width and height in pixels; ``segments``: a stroke's straight two-point
    subpaths that its clip leaves whole (crop marks are found among them).
    """

    kind: str
    paint: Paint | None
    bbox: BBox
    width: float = 0.0
    up: tuple[float, float] = (0.0, 0.0)
    across: tuple[float, float] = (0.0, 0.0)
    pixels: tuple[float, float] = (0.0, 0.0)
    text: str = ""  # text: what it reads; image: its label
    font: str = ""
    segments: tuple[Segment, ...] = ()
    overprint: bool = False


@dataclass(slots=True)  # not frozen: a frozen dataclass is eight times slower to make
class Draw:
    """A form drawn inside a drawing: with this matrix (form space to the drawing's) and
    the drawing's clip at that point intersected with the form's BBox (None: no clip)."""

    drawing: Drawing
    matrix: Matrix
    clip: BBox | None


@dataclass
class Drawing:
    """One content stream read: what it paints and the forms it draws, in order."""

    items: list[Painted | Draw] = field(default_factory=list)
    spaces: set[str] = field(default_factory=set)
    transparency: list[str] = field(default_factory=list)
    fonts: dict[str, bool] = field(default_factory=dict)
    operators: int = 0
    #: As drawn, every form counted each time it is drawn (set by :meth:`finish`).
    total_operators: int = 0
    total_draws: int = 0
    total_marks: int = 0
    #: How many forms deep it draws (0: no forms): a form read once may be drawn deeper.
    height: int = 0

    def finish(self, images: int) -> None:
        """Add up the work of drawing it; ``images``: image XObjects it draws itself."""
        draws = [item.drawing for item in self.items if isinstance(item, Draw)]
        self.total_operators = self.operators + sum(d.total_operators for d in draws)
        self.total_draws = len(draws) + images + sum(d.total_draws for d in draws)
        self.total_marks = len(self.items) - len(draws) + sum(d.total_marks for d in draws)
        self.height = 1 + max((d.height for d in draws), default=-1)


def place(drawing: Drawing, facts: PageFacts, page: int, matrix: Matrix, clip: BBox | None) -> None:
    """Put ``drawing``'s marks on the page through ``matrix``, inside ``clip`` (page space)."""
    facts.spaces |= drawing.spaces
    facts.transparency.extend(drawing.transparency)
    facts.fonts.update(drawing.fonts)
    if clip == EMPTY:
        return
    scale = scale_of(matrix)
    marks = facts.marks
    for item in drawing.items:
        if isinstance(item, Draw):
            inner = clip
            if item.clip is not None:
                inner = intersect(transformed(item.clip, matrix), clip) or EMPTY
            combined = item.matrix if matrix == IDENTITY else multiply(item.matrix, matrix)
            place(item.drawing, facts, page, combined, inner)
            continue
        kind = item.kind
        if kind == "shading":  # an area not measured here: its colours only
            marks.append(Mark("shading", page, item.paint, EMPTY))
            continue
        box = transformed(item.bbox, matrix)
        if kind == "image":  # (images are placed whole, as their unit square)
            width = math.hypot(*turn(matrix, item.across))
            height = math.hypot(*turn(matrix, item.up))
            dpi = 0.0
            if width > 0 and height > 0:
                dpi = min(item.pixels[0] / (width / 72), item.pixels[1] / (height / 72))
            marks.append(Mark("image", page, item.paint, box, label=item.text, dpi=dpi))
            continue
        shown = intersect(box, clip)
        if shown is None:
            continue
        if kind == "text":
            size = math.hypot(*turn(matrix, item.up))
            label = f"text '{item.text}' ({item.font} {size:.1f} pt)"
            marks.append(
                Mark("text", page, item.paint, shown, size=size, label=label,
                     overprint=item.overprint)
            )  # fmt: skip
        elif kind == "stroke":
            width = item.width * scale
            marks.append(
                Mark("stroke", page, item.paint, shown, size=width, overprint=item.overprint)
            )
            for start, end in item.segments:
                points = (apply(matrix, *start), apply(matrix, *end))
                whole = bbox_of(list(points))
                if intersect(whole, clip) == whole:  # wholly visible
                    facts.segments.append(points)
        else:
            marks.append(Mark("fill", page, item.paint, shown, overprint=item.overprint))
            area = (shown[2] - shown[0]) * (shown[3] - shown[1])
            if item.paint is not None and item.paint.is_dark and area > DARK_AREA_PT2:
                facts.dark_areas.append(shown)
