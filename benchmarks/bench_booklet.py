"""Timing of the rules booklet: the A5 PDF per language and the saddle-stitch imposition."""

from __future__ import annotations

import io
from functools import partial
from pathlib import Path

from _common import best_of, default_deck
from pypdf import PdfReader

from kraftstokk.render.booklet import build_booklet
from kraftstokk.render.imposition import impose_saddle_stitch

REPO = Path(__file__).resolve().parents[1]
SPEC = REPO / "sources" / "deck.toml"


def main() -> None:
    deck, what = default_deck(), "default deck"
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
