"""Timing of the rules booklet: the A5 PDF per language and the saddle-stitch imposition."""

from __future__ import annotations

import io
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

from pypdf import PdfReader

from kraftstokk.models import Deck
from kraftstokk.render.booklet import build_booklet
from kraftstokk.render.imposition import impose_saddle_stitch

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
        except Exception as exc:  # a broken spec must not hide the booklet figures
            print(f"(default deck unavailable: {exc}; using the synthetic deck)")
    from tests.conftest import synthetic_deck

    return synthetic_deck(), "synthetic deck"


def main() -> None:
    deck, what = load_bench_deck()
    for language in ("nb", "en"):
        pdf = build_booklet(deck, language)
        pages = len(PdfReader(io.BytesIO(pdf)).pages)
        wall, cpu = best_of(2, partial(build_booklet, deck, language))
        print(
            f"booklet {language} ({what}): {wall:.2f} s wall, {cpu:.2f} s CPU, "
            f"{pages} A5 pages, {len(pdf) / 1024:.0f} KiB (target < 10 s)"
        )
    pdf = build_booklet(deck, "nb")
    wall, cpu = best_of(3, lambda: impose_saddle_stitch(pdf))
    imposed = impose_saddle_stitch(pdf)
    sheets = len(PdfReader(io.BytesIO(imposed)).pages)
    print(
        f"imposition nb: {wall:.2f} s wall, {cpu:.2f} s CPU, {sheets} A4 sides, "
        f"{len(imposed) / 1024:.0f} KiB (target < 5 s)"
    )


if __name__ == "__main__":
    main()
