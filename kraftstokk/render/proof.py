"""``kraftstokk proof OLD NEW``: what will be reprinted, for the eye before the print shop.

A PDF (A4 landscape): a first page with the reprint verdict (the one ``diff`` gives),
then one page per face to reprint, and the back when it changes: the face as printed
before on the left, as it will be printed on the right, the same size, with every area
that differs marked on both. The areas come from the faces themselves, drawn and
compared as pictures, so a mark is wherever the print shop's sheet will differ.
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np
import pypdfium2 as pdfium
from reportlab.lib.pagesizes import A4, landscape
from reportlab.pdfgen.canvas import Canvas

from kraftstokk.deck.reprint import ReprintVerdict
from kraftstokk.design.fonts import SANS, SANS_BOLD, register_fonts, text_width
from kraftstokk.design.geometry import Box, mm
from kraftstokk.design.layout import CardLayout
from kraftstokk.design.palette import palette_from_style
from kraftstokk.design.printed import FIELD_KINDS, deck_layout
from kraftstokk.models import Deck
from kraftstokk.render.back import draw_back_local
from kraftstokk.render.card import draw_face_local, face_context
from kraftstokk.render.preview import faces_pdf

#: Resolution the faces are compared at: a bar's step (0.2 mm) is a pixel and more.
DPI = 200
#: A changed area is marked this far (mm) outside the pixels that differ.
MARGIN = 0.8
#: Changed pixels closer than this (mm) are one area.
JOIN = 2.0
PAGE = landscape(A4)
BACK = "the back"


@dataclass(frozen=True)
class Sides:
    """One page of the proof: what it shows, and the areas that differ (mm, card's
    lower-left origin)."""

    card: str
    title: str
    areas: list[Box]


def _pixels(pdf: bytes) -> Iterator[np.ndarray]:
    document = pdfium.PdfDocument(pdf)
    try:
        for page in document:
            image = page.render(scale=DPI / 72).to_pil().convert("RGB")
            page.close()
            yield np.asarray(image, dtype=np.int16)
    finally:
        document.close()


def changed_areas(before: np.ndarray, after: np.ndarray, height_mm: float) -> list[Box]:
    """The areas of a face that differ between two renderings, as boxes in mm from the
    card's lower-left corner: pixels that differ, joined when near each other."""
    rows, columns = before.shape[:2]
    differs = np.abs(before - after).max(axis=2) > 24  # antialiasing noise stays below
    if not differs.any():
        return []
    cell = max(1, round(JOIN / 25.4 * DPI))
    grid = differs[: rows - rows % cell or rows, : columns - columns % cell or columns]
    coarse = grid.reshape(grid.shape[0] // cell, cell, grid.shape[1] // cell, cell).any(axis=(1, 3))
    boxes: list[Box] = []
    for top, bottom, left, right in _regions(coarse):
        mask = differs[top * cell : (bottom + 1) * cell, left * cell : (right + 1) * cell]
        ys, xs = np.nonzero(mask)
        x0, x1 = left * cell + xs.min(), left * cell + xs.max() + 1
        y0, y1 = top * cell + ys.min(), top * cell + ys.max() + 1
        px = 25.4 / DPI
        boxes.append(
            Box(
                x0 * px - MARGIN,
                height_mm - y1 * px - MARGIN,
                (x1 - x0) * px + 2 * MARGIN,
                (y1 - y0) * px + 2 * MARGIN,
            )
        )
    return boxes


def _regions(coarse: np.ndarray) -> list[tuple[int, int, int, int]]:
    """The bounding cells (top, bottom, left, right) of each group of touching marked
    cells (eight neighbours), top to bottom."""
    seen = np.zeros_like(coarse, dtype=bool)
    found: list[tuple[int, int, int, int]] = []
    height, width = coarse.shape
    for start in zip(*np.nonzero(coarse), strict=True):
        if seen[start]:
            continue
        stack = [start]
        seen[start] = True
        top, bottom, left, right = start[0], start[0], start[1], start[1]
        while stack:
            y, x = stack.pop()
            top, bottom, left, right = min(top, y), max(bottom, y), min(left, x), max(right, x)
            for dy in (-1, 0, 1):
                for dx in (-1, 0, 1):
                    ny, nx = y + dy, x + dx
                    if 0 <= ny < height and 0 <= nx < width and coarse[ny, nx] and not seen[ny, nx]:
                        seen[ny, nx] = True
                        stack.append((ny, nx))
        found.append((int(top), int(bottom), int(left), int(right)))
    return sorted(found)


def _title(card: str, old: Deck, new: Deck, verdict: ReprintVerdict) -> str:
    if card == BACK:
        return (
            "the back: "
            + ", ".join(
                what for what in ("title", "edition") if getattr(old, what) != getattr(new, what)
            )
            or "the back: the design"
        )
    kinds = list(dict.fromkeys(FIELD_KINDS.get(f, f) for f in verdict.fields.get(card, [])))
    names = {c.id: c.name for c in new.cards if c.name}
    before = {c.id: c.name for c in old.cards if c.name}
    who = names.get(card) or card
    if before.get(card) and before[card] != names.get(card):
        who = f"{before[card]} -> {who}"
    return f"{card} {who}: {', '.join(kinds)}"


def proof_pages(
    old: Deck, new: Deck, verdict: ReprintVerdict, layout: CardLayout | None
) -> list[Sides]:
    """Each face to reprint (and the back when it changes) with its changed areas."""
    faces = list(verdict.faces)
    old_layout, new_layout = deck_layout(old, layout), deck_layout(new, layout)
    before = list(_pixels(faces_pdf(old, old_layout, only=set(faces))))
    after = list(_pixels(faces_pdf(new, new_layout, only=set(faces))))
    old_order = [c.id for c in old.cards if c.id in faces]
    new_order = [c.id for c in new.cards if c.id in faces]
    pages: list[Sides] = []
    for card in new_order:
        then = before[old_order.index(card)] if card in old_order else np.full_like(after[0], 255)
        areas = _compare(then, after[new_order.index(card)], new_layout.height)
        pages.append(Sides(card, _title(card, old, new, verdict), areas))
    if verdict.back:
        areas = _compare(before[-1], after[-1], new_layout.height)
        pages.append(Sides(BACK, _title(BACK, old, new, verdict), areas))
    return pages


def _compare(before: np.ndarray, after: np.ndarray, height_mm: float) -> list[Box]:
    if before.shape != after.shape:  # another size: the whole face differs
        rows, columns = after.shape[:2]
        return [Box(0, 0, columns * 25.4 / DPI, rows * 25.4 / DPI)]
    return changed_areas(before, after, height_mm)


def proof_pdf(
    old: Deck,
    new: Deck,
    verdict: ReprintVerdict,
    names: tuple[str, str],
    layout: CardLayout | None = None,
) -> bytes:
    """The proof: the verdict, then before and after of every face to reprint."""
    register_fonts()
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=PAGE, invariant=1, initialFontName=SANS)
    canvas.setTitle(f"Reprint proof: {names[0]} -> {names[1]}")
    pages = proof_pages(old, new, verdict, layout)
    _cover(canvas, verdict, names, len(pages))
    old_layout, new_layout = deck_layout(old, layout), deck_layout(new, layout)
    for number, sides in enumerate(pages, start=1):
        _page(canvas, sides, old, new, (old_layout, new_layout), names, (number, len(pages)))
    canvas.save()
    return buffer.getvalue()


def _lines(
    canvas: Canvas, lines: list[str], at: tuple[float, float], width: float, bold: bool = False
) -> float:
    """Write ``lines`` from ``at`` down, each wrapped to ``width`` points and indented as
    it is (its leading spaces); the y below them (a new page when the page is full)."""
    font, size = (SANS_BOLD, 10.0) if bold else (SANS, 9.0)
    leading = size * 1.3
    x, y = at
    canvas.setFont(font, size)
    for line in lines:
        indent = text_width(" " * (len(line) - len(line.lstrip(" "))), font, size)
        wrapped: list[str] = []
        for word in line.split():
            trial = f"{wrapped[-1]} {word}" if wrapped else word
            room = width - indent - (text_width("  ", font, size) if len(wrapped) > 1 else 0)
            if wrapped and text_width(trial, font, size) <= room:
                wrapped[-1] = trial
            else:
                wrapped.append(word)
        for number, part in enumerate(wrapped or [""]):
            hang = text_width("  ", font, size) if number else 0.0
            canvas.drawString(x + indent + hang, y, part)
            y -= leading
            if y < mm(15):
                canvas.showPage()
                canvas.setFont(font, size)
                y = PAGE[1] - mm(15)
    return y


def _cover(canvas: Canvas, verdict: ReprintVerdict, names: tuple[str, str], pages: int) -> None:
    width, height = PAGE
    canvas.setFont(SANS_BOLD, 16)
    canvas.drawString(mm(15), height - mm(20), "Reprint proof")
    canvas.setFont(SANS, 10)
    canvas.drawString(mm(15), height - mm(28), f"before: {names[0]}    after: {names[1]}")
    y = _lines(canvas, [verdict.summary], (mm(15), height - mm(38)), width - mm(30), bold=True)
    back = " and the back" if verdict.back else ""
    shown = (
        f"The next {pages} page(s) show each face to reprint{back}: before on the left, "
        "after on the right, every area that prints differently marked in red on both."
        if pages
        else "No face and not the back print differently: nothing to reprint."
    )
    y = _lines(canvas, [shown, ""], (mm(15), y - mm(2)), width - mm(30))
    _lines(canvas, verdict.lines(), (mm(15), y), width - mm(30))
    canvas.showPage()


def _page(
    canvas: Canvas,
    sides: Sides,
    old: Deck,
    new: Deck,
    layouts: tuple[CardLayout, CardLayout],
    names: tuple[str, str],
    count: tuple[int, int],
) -> None:
    width, height = PAGE
    canvas.setFont(SANS_BOLD, 13)
    canvas.drawString(mm(15), height - mm(16), sides.title)
    canvas.setFont(SANS, 9)
    canvas.drawRightString(width - mm(15), height - mm(16), f"{count[0]} / {count[1]}")
    top = height - mm(28)
    card_h = max(layout.height for layout in layouts)
    scale = min(
        (top - mm(15)) / mm(card_h), (width / 2 - mm(25)) / mm(max(lay.width for lay in layouts))
    )
    for side, (deck, layout, label) in enumerate(
        ((old, layouts[0], f"before: {names[0]}"), (new, layouts[1], f"after: {names[1]}"))
    ):
        x = width / 4 + side * width / 2 - mm(layout.width) * scale / 2
        y = top - mm(layout.height) * scale
        canvas.setFont(SANS, 9)
        canvas.drawString(x, top + mm(3), label)
        canvas.saveState()
        canvas.translate(x, y)
        canvas.scale(scale, scale)
        _draw(canvas, sides.card, deck, layout)
        palette = palette_from_style(deck.style())  # the proof's marks: the deck's own inks
        canvas.setLineWidth(0.4)
        canvas.setStrokeColor(palette.rule_muted)
        canvas.rect(0, 0, mm(layout.width), mm(layout.height), stroke=1, fill=0)
        for colour, line in ((palette.white, 3.0), (palette.red, 1.4)):  # red on white
            canvas.setStrokeColor(colour)
            canvas.setLineWidth(line / scale)
            for area in sides.areas:
                canvas.rect(*area.pt(), stroke=1, fill=0)
        canvas.restoreState()
    canvas.showPage()


def _draw(canvas: Canvas, card_id: str, deck: Deck, layout: CardLayout) -> None:
    if card_id == BACK:
        draw_back_local(canvas, deck, layout, (0, 0, 0, 0))
        return
    card = next((c for c in deck.cards if c.id == card_id), None)
    if card is not None:
        draw_face_local(canvas, card, face_context(deck, layout), (0, 0, 0, 0))
