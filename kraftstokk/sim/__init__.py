"""Playability simulation: run many seeded games, measure them, compare decks, report.

Library entry points: :func:`simulate` (deck files to ``sim-<game>.json``, the comparison
and the PDF report), :func:`simulate_deck` (one deck to its summary),
:func:`run_simulation` (a :class:`~kraftstokk.games.core.DeckTable` to the run's sums,
:class:`RunStats`) and :func:`run_paired` (two decks on the same seeds, with their
:class:`PairStats`).
"""

from __future__ import annotations

from kraftstokk.sim.metrics import TIMING_KEYS, RunInfo, strip_timing, summarize
from kraftstokk.sim.runner import SimOutcome, SimSettings, run_paired, run_simulation
from kraftstokk.sim.session import DeckRun, SimulationFiles, simulate, simulate_deck
from kraftstokk.sim.stream import PairStats, RunStats
from kraftstokk.sim.tally import Tally

__all__ = [
    "TIMING_KEYS",
    "DeckRun",
    "PairStats",
    "RunInfo",
    "RunStats",
    "SimOutcome",
    "SimSettings",
    "SimulationFiles",
    "Tally",
    "run_paired",
    "run_simulation",
    "simulate",
    "simulate_deck",
    "strip_timing",
    "summarize",
]
