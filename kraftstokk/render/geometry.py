"""Card and sheet geometry as data: named boxes in millimetres, Squib-style.

Every drawing module asks this one for where things go; no other module holds a
dimension of the card. Card boxes are relative to the lower-left corner of the cut line;
sheet boxes are relative to the lower-left corner of the page.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Literal

MM = 72.0 / 25.4  # points per millimetre

Duplex = Literal["long", "short"]
DUPLEX_MODES: tuple[Duplex, ...] = ("long", "short")


def mm(value: float) -> float:
    """Millimetres to PDF points."""
    return value * MM


@dataclass(frozen=True)
class Box:
    """An axis-aligned rectangle in millimetres: lower-left corner, width, height."""

    x: float
    y: float
    w: float
    h: float

    @property
    def right(self) -> float:
        return self.x + self.w

    @property
    def top(self) -> float:
        return self.y + self.h

    def inset(self, d: float) -> Box:
        return Box(self.x + d, self.y + d, self.w - 2 * d, self.h - 2 * d)

    def shifted(self, dx: float, dy: float) -> Box:
        return Box(self.x + dx, self.y + dy, self.w, self.h)

    def rotated_180(self, width: float, height: float) -> Box:
        """The box turned half a turn inside a width x height frame."""
        return Box(width - self.right, height - self.top, self.w, self.h)

    def contains(self, x: float, y: float, tolerance: float = 0.0) -> bool:
        return (
            self.x - tolerance <= x <= self.right + tolerance
            and self.y - tolerance <= y <= self.top + tolerance
        )

    def pt(self) -> tuple[float, float, float, float]:
        """(x, y, w, h) in points."""
        return (mm(self.x), mm(self.y), mm(self.w), mm(self.h))


@dataclass(frozen=True)
class CardGeometry:
    """A poker card: cut, bleed and safe area, and the named boxes of the face design."""

    width: float = 63.5
    height: float = 88.9
    bleed: float = 3.0
    safe_margin: float = 3.0

    @cached_property
    def cut(self) -> Box:
        return Box(0.0, 0.0, self.width, self.height)

    @cached_property
    def bleed_box(self) -> Box:
        return self.cut.inset(-self.bleed)

    @cached_property
    def safe(self) -> Box:
        return self.cut.inset(self.safe_margin)

    # The face design. Everything below lies inside ``safe``.
    @cached_property
    def index(self) -> Box:
        """Top-left corner index (value over suit); its twin is turned into the bottom right."""
        s = self.safe
        return Box(s.x, s.top - 12.0, 8.5, 12.0)

    @cached_property
    def index_rotated(self) -> Box:
        return self.index.rotated_180(self.width, self.height)

    @cached_property
    def name(self) -> Box:
        """The plant's name, to the right of the top-left index."""
        s = self.safe
        left = self.index.right + 1.5
        return Box(left, s.top - 13.5, s.right - left, 13.5)

    @cached_property
    def name_text(self) -> Box:
        """Where the name's letters may go: the name panel less its padding."""
        n = self.name
        return Box(n.x + 1.8, n.y + 1.0, n.w - 3.6, n.h - 2.0)

    @cached_property
    def art(self) -> Box:
        """The picture panel between the name and the figures."""
        s = self.safe
        return Box(s.x, 45.5, s.w, 24.9)

    @cached_property
    def rows(self) -> Box:
        """The three category rows."""
        s = self.safe
        return Box(s.x, 15.2, s.w, 28.8)

    @cached_property
    def footer(self) -> Box:
        """Small print (title, edition, data source), left of the bottom-right index."""
        s = self.safe
        return Box(s.x, s.y, self.index_rotated.x - 1.5 - s.x, 10.0)


CARD = CardGeometry()


@dataclass(frozen=True)
class Paper:
    name: str
    width: float
    height: float


PAPERS: dict[str, Paper] = {
    "a4": Paper("a4", 210.0, 297.0),
    "letter": Paper("letter", 215.9, 279.4),
}


@dataclass(frozen=True)
class CropMark:
    """A line segment in page millimetres."""

    x1: float
    y1: float
    x2: float
    y2: float


@dataclass(frozen=True)
class SheetLayout:
    """Cards butted on shared cut lines in a centred block, crop marks in the margin.

    ``bleed`` is how far the outer cards' backgrounds run past the block's edge; it is
    limited per side so that a crop mark of at least ``min_mark`` still fits in the margin.
    """

    paper: Paper
    card: CardGeometry = CARD
    cols: int = 3
    rows: int = 3
    bleed: float = 3.0
    mark_gap: float = 1.0
    mark_length: float = 6.0
    min_mark: float = 2.5
    edge_clearance: float = 3.0  # home printers do not print the outermost ~3 mm

    @property
    def per_page(self) -> int:
        return self.cols * self.rows

    @property
    def block(self) -> Box:
        w = self.cols * self.card.width
        h = self.rows * self.card.height
        return Box((self.paper.width - w) / 2, (self.paper.height - h) / 2, w, h)

    def _room(self, margin: float) -> float:
        """Bleed that leaves room for a minimal crop mark in a margin of this size."""
        room = margin - self.edge_clearance - self.min_mark - self.mark_gap
        return max(0.0, min(self.bleed, room))

    @property
    def bleed_x(self) -> float:
        return self._room(self.block.x)

    @property
    def bleed_y(self) -> float:
        return self._room(self.block.y)

    def cell(self, slot: int) -> Box:
        """Front cell of slot 0..per_page-1, counted row by row from the top left."""
        col, row = slot % self.cols, slot // self.cols
        b = self.block
        return Box(
            b.x + col * self.card.width,
            b.top - (row + 1) * self.card.height,
            self.card.width,
            self.card.height,
        )

    def back_cell(self, slot: int, duplex: Duplex = "long") -> Box:
        """Where the back of slot's card goes so that it lands behind its front."""
        front = self.cell(slot)
        if duplex == "long":  # the sheet turns over its vertical axis
            return Box(self.paper.width - front.right, front.y, front.w, front.h)
        return Box(front.x, self.paper.height - front.top, front.w, front.h)

    def bleed_area(self) -> Box:
        """The block with its outer bleed: the region backgrounds may cover."""
        b = self.block
        return Box(
            b.x - self.bleed_x, b.y - self.bleed_y, b.w + 2 * self.bleed_x, b.h + 2 * self.bleed_y
        )

    def cell_bleed(
        self, cell: Box, occupied: list[Box] | None = None
    ) -> tuple[float, float, float, float]:
        """Bleed (left, bottom, right, top) of a cell.

        None on a cut line shared with another card of ``occupied`` (all cells when not
        given); the block's outer bleed on the block's edge; full bleed towards an empty
        slot, which is waste paper.
        """
        b = self.block
        eps = 1e-6
        if occupied is None:
            occupied = [self.cell(slot) for slot in range(self.per_page)]

        def neighbour(dx: float, dy: float) -> bool:
            return any(
                abs(o.x - (cell.x + dx)) < eps and abs(o.y - (cell.y + dy)) < eps for o in occupied
            )

        w, h = self.card.width, self.card.height
        left = self.bleed_x if cell.x <= b.x + eps else 0.0 if neighbour(-w, 0) else self.bleed
        right = (
            self.bleed_x if cell.right >= b.right - eps else 0.0 if neighbour(w, 0) else self.bleed
        )
        bottom = self.bleed_y if cell.y <= b.y + eps else 0.0 if neighbour(0, -h) else self.bleed
        top = self.bleed_y if cell.top >= b.top - eps else 0.0 if neighbour(0, h) else self.bleed
        return (left, bottom, right, top)

    def crop_marks(self) -> list[CropMark]:
        """Marks on every cut line, in the margin, never inside the block or its bleed."""
        b = self.block
        marks: list[CropMark] = []
        xs = [b.x + i * self.card.width for i in range(self.cols + 1)]
        ys = [b.y + j * self.card.height for j in range(self.rows + 1)]
        start_y = self.bleed_y + self.mark_gap
        len_y = min(self.mark_length, b.y - start_y - self.edge_clearance)
        start_x = self.bleed_x + self.mark_gap
        len_x = min(self.mark_length, b.x - start_x - self.edge_clearance)
        for x in xs:
            marks.append(CropMark(x, b.y - start_y, x, b.y - start_y - len_y))
            marks.append(CropMark(x, b.top + start_y, x, b.top + start_y + len_y))
        for y in ys:
            marks.append(CropMark(b.x - start_x, y, b.x - start_x - len_x, y))
            marks.append(CropMark(b.right + start_x, y, b.right + start_x + len_x, y))
        return marks


def sheet_layout(paper: str = "a4", bleed: float = 3.0) -> SheetLayout:
    """The 3 x 3 layout for a paper name ('a4' or 'letter')."""
    return SheetLayout(paper=PAPERS[paper], bleed=bleed)


def printshop_page(card: CardGeometry = CARD, bleed: float = 3.0) -> Box:
    """A print-shop page: the card plus bleed on every side, cut box at (bleed, bleed)."""
    return Box(0.0, 0.0, card.width + 2 * bleed, card.height + 2 * bleed)
