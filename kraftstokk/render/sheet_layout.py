"""Papers and the sheet layout: where cards go on a page, and the print-shop page.

The card's own boxes come from its layout (:mod:`kraftstokk.design.layout`); card boxes
are relative to the lower-left corner of the cut line, sheet boxes to the lower-left
corner of the page.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from kraftstokk.design.geometry import Box
from kraftstokk.errors import RenderError

if TYPE_CHECKING:
    from kraftstokk.design.layout import CardLayout

#: Crop marks: they start this far outside the bleed, are this long where the margin
#: allows and at least MIN_MARK, and end EDGE_CLEARANCE or more inside the paper's edge
#: (many home printers cannot print the outermost 4-5 mm).
MARK_GAP = 0.25
MARK_LENGTH = 6.0
MIN_MARK = 1.5
EDGE_CLEARANCE = 5.0
FIT_TOLERANCE = 1e-9

Duplex = Literal["long", "short"]
DUPLEX_MODES: tuple[Duplex, ...] = ("long", "short")


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

    ``turned`` cards lie on their side (a quarter turn), which fits more of them on some
    papers. The block keeps ``bleed`` on every side, and every crop mark starts
    ``mark_gap`` outside that bleed and ends at least ``edge_clearance`` inside the paper,
    where home printers still print; :func:`sheet_layout` picks the grid so that a mark of
    at least ``min_mark`` fits.
    """

    paper: Paper
    card: CardLayout
    cols: int
    rows: int
    turned: bool = False
    bleed: float = 3.0
    mark_gap: float = MARK_GAP
    mark_length: float = MARK_LENGTH
    min_mark: float = MIN_MARK
    edge_clearance: float = EDGE_CLEARANCE

    @property
    def per_page(self) -> int:
        return self.cols * self.rows

    @property
    def cell_w(self) -> float:
        return self.card.height if self.turned else self.card.width

    @property
    def cell_h(self) -> float:
        return self.card.width if self.turned else self.card.height

    @property
    def block(self) -> Box:
        w = self.cols * self.cell_w
        h = self.rows * self.cell_h
        return Box((self.paper.width - w) / 2, (self.paper.height - h) / 2, w, h)

    def cell(self, slot: int) -> Box:
        """Front cell of slot 0..per_page-1, counted row by row from the top left."""
        col, row = slot % self.cols, slot // self.cols
        b = self.block
        return Box(
            b.x + col * self.cell_w,
            b.top - (row + 1) * self.cell_h,
            self.cell_w,
            self.cell_h,
        )

    def back_cell(self, slot: int, duplex: Duplex = "long") -> Box:
        """Where the back of slot's card goes so that it lands behind its front."""
        front = self.cell(slot)
        if duplex == "long":  # the sheet turns over its vertical axis
            return Box(self.paper.width - front.right, front.y, front.w, front.h)
        return Box(front.x, self.paper.height - front.top, front.w, front.h)

    def bleed_area(self) -> Box:
        """The block with its outer bleed: the region backgrounds may cover."""
        return self.block.inset(-self.bleed)

    def cell_bleed(
        self, cell: Box, occupied: list[Box] | None = None
    ) -> tuple[float, float, float, float]:
        """Bleed (left, bottom, right, top) of a cell, in page directions.

        None on a cut line shared with another card of ``occupied`` (all cells when not
        given); full bleed on the block's edge and towards an empty slot (waste paper).
        """
        eps = 1e-6
        if occupied is None:
            occupied = [self.cell(slot) for slot in range(self.per_page)]

        def side(dx: float, dy: float) -> float:
            shared = any(
                abs(o.x - (cell.x + dx)) < eps and abs(o.y - (cell.y + dy)) < eps for o in occupied
            )
            return 0.0 if shared else self.bleed

        w, h = self.cell_w, self.cell_h
        return (side(-w, 0), side(0, -h), side(w, 0), side(0, h))

    def card_extent(
        self, cell: Box, occupied: list[Box] | None = None
    ) -> tuple[float, float, float, float]:
        """:meth:`cell_bleed` in the card's own directions (turned cards' top is page left)."""
        left, bottom, right, top = self.cell_bleed(cell, occupied)
        if self.turned:
            return (bottom, right, top, left)
        return (left, bottom, right, top)

    def card_origin(self, cell: Box) -> tuple[float, float, int]:
        """(x, y, degrees): translate to (x, y) mm, then rotate, to draw in card coordinates."""
        if self.turned:
            return (cell.right, cell.y, 90)
        return (cell.x, cell.y, 0)

    def crop_marks(self) -> list[CropMark]:
        """Marks on every cut line, in the margin, never inside the block or its bleed."""
        b = self.block
        marks: list[CropMark] = []
        xs = [b.x + i * self.cell_w for i in range(self.cols + 1)]
        ys = [b.y + j * self.cell_h for j in range(self.rows + 1)]
        start = self.bleed + self.mark_gap
        len_y = min(self.mark_length, b.y - start - self.edge_clearance)
        len_x = min(self.mark_length, b.x - start - self.edge_clearance)
        for x in xs:
            marks.append(CropMark(x, b.y - start, x, b.y - start - len_y))
            marks.append(CropMark(x, b.top + start, x, b.top + start + len_y))
        for y in ys:
            marks.append(CropMark(b.x - start, y, b.x - start - len_x, y))
            marks.append(CropMark(b.right + start, y, b.right + start + len_x, y))
        return marks


def sheet_layout(paper: str, card: CardLayout, bleed: float = 3.0) -> SheetLayout:
    """As many cards as ``paper`` takes with full bleed and crop marks clear of its edge.

    Tries the cards upright and turned on their side and keeps the grid with more cards
    (upright on a tie).
    """
    sheet = PAPERS[paper]
    margin = bleed + MARK_GAP + MIN_MARK + EDGE_CLEARANCE
    best: SheetLayout | None = None
    for turned in (False, True):
        cell_w, cell_h = (card.height, card.width) if turned else (card.width, card.height)
        cols = math.floor((sheet.width - 2 * margin) / cell_w + FIT_TOLERANCE)
        rows = math.floor((sheet.height - 2 * margin) / cell_h + FIT_TOLERANCE)
        if cols < 1 or rows < 1:
            continue
        if best is None or cols * rows > best.per_page:
            best = SheetLayout(sheet, card, cols, rows, turned, bleed)
    if best is None:
        raise RenderError(
            f"a {card.width:g} × {card.height:g} mm card with {bleed:g} mm bleed and crop marks "
            f"does not fit on {paper} paper"
        )
    return best


def printshop_page(card: CardLayout, bleed: float = 3.0) -> Box:
    """A print-shop page: the card plus bleed on every side, cut box at (bleed, bleed)."""
    return Box(0.0, 0.0, card.width + 2 * bleed, card.height + 2 * bleed)
