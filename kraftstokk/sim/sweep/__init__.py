"""``kraftstokk sweep``: many configurations (decks x games x players x bots x variants),
each played as ``simulate`` plays it, on local processes or a Dask cluster, with a
report that says what differs and what to change.

Library entry point: :func:`sweep` (sweep file to its outputs).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from kraftstokk.sim.sweep.backends import make_backend
from kraftstokk.sim.sweep.model import SweepError, SweepFile, load_sweep, sweep_schema
from kraftstokk.sim.sweep.outputs import SweepResults, analyse, write_outputs
from kraftstokk.sim.sweep.run import Progress, SweepRun, plan, run_sweep


@dataclass
class SweepFiles:
    results: SweepResults
    written: list[Path]

    @property
    def run(self) -> SweepRun:
        return self.results.run


def sweep(
    path: Path,
    out_dir: Path,
    scheduler: str = "local",
    workers: int | None = None,
    progress: Progress | None = None,
    report: bool = True,
) -> SweepFiles:
    """Run the sweep file at ``path`` and write its outputs under ``out_dir``."""
    spec = load_sweep(path)
    plan(spec, path.parent)  # every error before a cluster is started
    backend = make_backend(scheduler, workers)
    run = run_sweep(spec, path.parent, out_dir, backend, progress)
    results = analyse(run)
    written = write_outputs(results, out_dir, report=report) if run.runs else []
    return SweepFiles(results, written)


__all__ = ["SweepError", "SweepFile", "SweepFiles", "load_sweep", "sweep", "sweep_schema"]
