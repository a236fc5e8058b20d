"""Timing of the render stage: card faces, both PDFs, and every output with the PNGs."""

from __future__ import annotations

import io
import tempfile
from pathlib import Path

from _common import best_of, default_deck
from reportlab.pdfgen.canvas import Canvas

from kraftstokk.design.fonts import register_fonts
from kraftstokk.design.geometry import mm
from kraftstokk.design.layout import load_layout
from kraftstokk.models import Deck
from kraftstokk.render.card import draw_face_local, face_context
from kraftstokk.render.outputs import RenderOptions, render_deck
from kraftstokk.render.printshop import printshop_pdf
from kraftstokk.render.sheets import sheets_pdf

REPO = Path(__file__).resolve().parents[1]
SPEC = REPO / "sources" / "deck.toml"


POKER = load_layout("poker")


def draw_all_faces(deck: Deck) -> None:
    canvas = Canvas(io.BytesIO(), pagesize=(mm(POKER.width), mm(POKER.height)), invariant=1)
    ctx = face_context(deck, POKER)
    for card in deck.cards:
        draw_face_local(canvas, card, ctx, (0.0, 0.0, 0.0, 0.0))
        canvas.showPage()


def main() -> None:
    register_fonts()
    deck, what = default_deck(), "default deck"
    faces = len(deck.cards)
    draw_all_faces(deck)  # warm caches (fonts, name fits, forms) as a real run would
    wall, cpu = best_of(7, lambda: draw_all_faces(deck))
    print(
        f"draw one card face ({what}, {faces} faces): {wall / faces * 1000:.2f} ms wall, "
        f"{cpu / faces * 1000:.2f} ms CPU (target <= 2 ms)"
    )
    wall, cpu = best_of(5, lambda: (sheets_pdf(deck, POKER), printshop_pdf(deck, POKER)))
    print(
        f"sheets + print-shop PDF: {wall * 1000:.0f} ms wall, {cpu * 1000:.0f} ms CPU "
        f"(target <= 500 ms)"
    )
    wall, cpu = best_of(3, lambda: sheets_pdf(deck, POKER))
    print(f"  sheets PDF alone: {wall * 1000:.0f} ms wall, {cpu * 1000:.0f} ms CPU")
    with tempfile.TemporaryDirectory() as folder:
        wall, cpu = best_of(2, lambda: render_deck(deck, Path(folder), RenderOptions()))
        print(
            f"every output (2 PDFs + {faces + 2} PNGs at 300 dpi): {wall:.2f} s wall, "
            f"{cpu:.2f} s CPU"
        )


if __name__ == "__main__":
    main()
