"""Timing of the deck stage: build, validate, write and diff the default deck."""

from __future__ import annotations

import tempfile
from pathlib import Path

from _common import best_of

from kraftstokk.deck.build import build_from_spec_file
from kraftstokk.deck.diff import diff_decks
from kraftstokk.deck.io import load_deck, write_deck
from kraftstokk.deck.repair import repair_deck
from kraftstokk.deck.validate import validate_deck

REPO = Path(__file__).resolve().parents[1]
SPEC = REPO / "sources" / "deck.toml"


def main() -> None:
    if not (REPO / "sources" / "jrc-2024-01.csv").exists():
        print("deck benchmarks: skipped (embedded snapshot absent)")
        return
    deck = build_from_spec_file(SPEC).deck
    seconds, _ = best_of(5, lambda: build_from_spec_file(SPEC))
    print(f"build default deck (273 plants -> 55 cards): {seconds * 1000:.1f} ms (target < 1 s)")
    seconds, _ = best_of(5, lambda: validate_deck(deck))
    print(f"validate default deck: {seconds * 1000:.1f} ms (target < 500 ms)")
    with tempfile.TemporaryDirectory() as folder:
        seconds, _ = best_of(5, lambda: write_deck(deck, folder))
        print(f"write deck.json + deck.csv: {seconds * 1000:.1f} ms (target < 200 ms)")
        seconds, _ = best_of(5, lambda: load_deck(Path(folder) / "deck.csv"))
        print(f"read deck.csv: {seconds * 1000:.1f} ms (target < 200 ms)")
    seconds, _ = best_of(5, lambda: diff_decks(deck, deck))
    print(f"diff two decks: {seconds * 1000:.1f} ms (target < 200 ms)")
    seconds, _ = best_of(5, lambda: repair_deck(deck))
    print(f"repair default deck: {seconds * 1000:.1f} ms (target < 500 ms)")


if __name__ == "__main__":
    main()
