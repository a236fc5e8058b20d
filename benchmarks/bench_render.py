"""Timing of the render stage: card faces, both PDFs, and every output with the PNGs."""

from __future__ import annotations

import io
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from reportlab.pdfgen.canvas import Canvas

from kraftstokk.models import Deck
from kraftstokk.render.card import draw_face_local, face_context
from kraftstokk.render.fonts import register_fonts
from kraftstokk.render.geometry import CARD, mm
from kraftstokk.render.outputs import RenderOptions, render_deck
from kraftstokk.render.printshop import printshop_pdf
from kraftstokk.render.sheets import sheets_pdf

REPO = Path(__file__).resolve().parents[1]
SPEC = REPO / "sources" / "deck.toml"


def best_of(runs: int, work: Callable[[], object]) -> tuple[float, float]:
    """Fastest wall time and fastest CPU time of ``runs`` runs, in seconds."""
    walls, cpus = [], []
    for _ in range(runs):
        wall, cpu = time.perf_counter(), time.process_time()
        work()
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    return min(walls), min(cpus)


def load_bench_deck() -> tuple[Deck, str]:
    if SPEC.exists():
        try:
            from kraftstokk.deck.build import build_from_spec_file

            return build_from_spec_file(SPEC).deck, "default deck"
        except Exception as exc:  # a broken spec must not hide the render figures
            print(f"(default deck unavailable: {exc}; using the synthetic deck)")
    from tests.conftest import synthetic_deck

    return synthetic_deck(), "synthetic deck"


def draw_all_faces(deck: Deck) -> None:
    canvas = Canvas(io.BytesIO(), pagesize=(mm(CARD.width), mm(CARD.height)), invariant=1)
    ctx = face_context(deck)
    for card in deck.cards:
        draw_face_local(canvas, card, ctx, (0.0, 0.0, 0.0, 0.0))
        canvas.showPage()


def main() -> None:
    register_fonts()
    deck, what = load_bench_deck()
    faces = len(deck.cards)
    draw_all_faces(deck)  # warm caches (fonts, name fits, forms) as a real run would
    wall, cpu = best_of(7, lambda: draw_all_faces(deck))
    print(
        f"draw one card face ({what}, {faces} faces): {wall / faces * 1000:.2f} ms wall, "
        f"{cpu / faces * 1000:.2f} ms CPU (target <= 2 ms)"
    )
    wall, cpu = best_of(5, lambda: (sheets_pdf(deck), printshop_pdf(deck)))
    print(
        f"sheets + print-shop PDF: {wall * 1000:.0f} ms wall, {cpu * 1000:.0f} ms CPU "
        f"(target <= 500 ms)"
    )
    wall, cpu = best_of(3, lambda: sheets_pdf(deck))
    print(f"  sheets PDF alone: {wall * 1000:.0f} ms wall, {cpu * 1000:.0f} ms CPU")
    with tempfile.TemporaryDirectory() as folder:
        wall, cpu = best_of(2, lambda: render_deck(deck, Path(folder), RenderOptions()))
        print(
            f"every output (2 PDFs + {faces + 2} PNGs at 300 dpi): {wall:.2f} s wall, "
            f"{cpu:.2f} s CPU"
        )
