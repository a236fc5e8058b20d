"""What the benchmarks share: timing and the deck they measure."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

from kraftstokk.deck.build import build_from_spec_file
from kraftstokk.models import Deck

REPO = Path(__file__).resolve().parents[1]
DEFAULT_SPEC = REPO / "sources" / "deck.toml"


def best_of(runs: int, work: Callable[[], object]) -> tuple[float, float]:
    """Fastest wall time and fastest CPU time of ``runs`` runs, in seconds.

    The fastest run is the one least disturbed by other load on the machine.
    """
    walls, cpus = [], []
    for _ in range(runs):
        wall, cpu = time.perf_counter(), time.process_time()
        work()
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    return min(walls), min(cpus)


def default_deck() -> Deck:
    """The deck ``make deck`` builds from ``sources/deck.toml``, built in memory."""
    return build_from_spec_file(DEFAULT_SPEC).deck
