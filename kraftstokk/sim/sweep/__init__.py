"""``kraftstokk sweep``: many configurations (decks x games x players x bots x variants),
each played as ``simulate`` plays it, on local processes or a Dask cluster, with a
report that says what differs and what to change.

Library entry point: :func:`sweep` (sweep file to its outputs).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from kraftstokk.folderlock import folder_lock
from kraftstokk.sim.sweep.backends import make_backend, planned_workers
from kraftstokk.sim.sweep.budget import Estimate, Limits
from kraftstokk.sim.sweep.model import SweepError, SweepFile, load_sweep, sweep_schema
from kraftstokk.sim.sweep.outputs import write_outputs
from kraftstokk.sim.sweep.results import SweepResults, analyse
from kraftstokk.sim.sweep.run import STORE_DIR, Progress, SweepRun, plan, run_sweep
from kraftstokk.sim.sweep.store import ChunkStore


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
    limits: Limits | None = None,
    announce: Callable[[Estimate], None] | None = None,
) -> SweepFiles:
    """Run the sweep file at ``path`` and write its outputs under ``out_dir``.

    Everything is checked before a worker starts: the file, the limits (refused with
    what the sweep would cost), every configuration, and the output folder's lock (one
    sweep at a time per folder). ``announce`` hears the estimate before play starts.
    """
    spec = load_sweep(path)
    store = ChunkStore(out_dir / STORE_DIR)
    found = plan(spec, path.parent, str(path), limits, planned_workers(scheduler, workers), store)
    with folder_lock(out_dir, f"kraftstokk sweep {path}", within=True):
        if announce is not None:
            announce(found.estimate)
        backend = make_backend(scheduler, workers)
        run = run_sweep(found, out_dir, backend, progress)
        results = analyse(run)
        written = write_outputs(results, out_dir, report=report) if run.runs else []
    return SweepFiles(results, written)


__all__ = [
    "Limits",
    "SweepError",
    "SweepFile",
    "SweepFiles",
    "load_sweep",
    "sweep",
    "sweep_schema",
]
