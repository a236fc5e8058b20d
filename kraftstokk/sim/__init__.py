"""Playability simulation: run many seeded games, measure them, compare decks, report.

Library entry points: :func:`simulate` (deck files to ``sim-<game>.json``, the comparison
and the PDF report), :func:`simulate_deck` (one deck to its summary),
:func:`run_simulation` (a :class:`~kraftstokk.games.core.DeckTable` to the run's sums,
:class:`RunStats`) and :func:`run_paired` (two decks on the same seeds, with their
:class:`PairStats`).

The names are loaded when first asked for (``kraftstokk.sim.simulate``): importing one
module of the package (``sim.runner``) loads only what that module uses, so a command
starts without the modules (and numpy) it does not need yet.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

#: Each name of the package's API and the module that holds it.
_HOME = {
    "TIMING_KEYS": "metrics",
    "RunInfo": "metrics",
    "strip_timing": "metrics",
    "summarize": "metrics",
    "SimOutcome": "runner",
    "SimSettings": "runner",
    "run_paired": "runner",
    "run_simulation": "runner",
    "DeckRun": "session",
    "SimulationFiles": "session",
    "simulate": "session",
    "simulate_deck": "session",
    "PairStats": "stream",
    "RunStats": "stream",
    "Tally": "tally",
}

__all__ = sorted(_HOME)


def __getattr__(name: str) -> Any:
    home = _HOME.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(import_module(f"{__name__}.{home}"), name)
