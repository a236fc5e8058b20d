"""Sweep throughput: 24 configurations x 2,000 games on the local backend and on a Dask
LocalCluster of two workers, against the same games played by plain ``simulate``.

Target (issue 18): at most 10 % overhead against plain simulate for chunks of 500 games.
The baseline does per configuration what ``simulate -w 2`` computes: ``run_simulation``
on 2 worker processes, then ``describe_run`` (the summary and findings, which the sweep
makes for every configuration too); only writing files is left out. The sweeps include
loading the decks, storing every chunk on disk and the summaries (sweep.json, the tables
and sweep.pdf are timed apart). The baseline's playing alone is printed as well. Wall-
clock rates depend on what else the machine runs, so the CPU time of each run (this
process and its workers) is compared as well.
"""

from __future__ import annotations

import importlib.util
import resource
import tempfile
import time
from pathlib import Path

from _common import REPO

from kraftstokk.sim.runner import run_simulation
from kraftstokk.sim.session import describe_run
from kraftstokk.sim.sweep.backends import make_backend
from kraftstokk.sim.sweep.grid import Configuration, LoadedDeck
from kraftstokk.sim.sweep.model import SweepFile, parse_sweep
from kraftstokk.sim.sweep.outputs import analyse, write_outputs
from kraftstokk.sim.sweep.run import plan, run_sweep

SWEEP = """
title = "benchmark"
games = 2000
chunk = 500
seed = 7
[grid]
decks = ["deck.toml", "deck-head.toml"]
games = ["idiot", "kraftidioten", "stromkrig"]
players = [2, 3, 4, 5]
bots = ["greedy"]
"""
WORKERS = 2
REPEATS = 2
TARGET = 0.10


def cpu_seconds() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def plain(
    configurations: list[Configuration], decks: dict[str, LoadedDeck], spec: SweepFile
) -> tuple[float, float, float]:
    """Wall and CPU seconds of doing what ``simulate -w 2`` does for every configuration,
    and the wall seconds of its playing alone."""
    cpu, started = cpu_seconds(), time.perf_counter()
    playing = 0.0
    for configuration in configurations:
        deck = decks[configuration.deck]
        outcome = run_simulation(deck.table, configuration.settings, WORKERS)
        playing += outcome.elapsed
        describe_run(
            outcome.tally,
            deck.table,
            configuration.settings,
            deck.deck,
            configuration.deck_path,
            elapsed=outcome.elapsed,
            workers=outcome.workers,
            interrupted=outcome.interrupted,
            rules=spec.findings,
        )
    return time.perf_counter() - started, cpu_seconds() - cpu, playing


def swept(spec: SweepFile, scheduler: str) -> tuple[float, float, float]:
    """Wall and CPU seconds of the sweep's games, and seconds of its outputs."""
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder)
        backend = make_backend(scheduler, WORKERS)
        cpu, started = cpu_seconds(), time.perf_counter()
        run = run_sweep(spec, REPO / "sources", out, backend)
        wall, used = time.perf_counter() - started, cpu_seconds() - cpu
        started = time.perf_counter()
        write_outputs(analyse(run), out)
        return wall, used, time.perf_counter() - started


def main() -> None:
    spec = parse_sweep(SWEEP, "benchmark sweep")
    configurations, decks = plan(spec, REPO / "sources")
    games = len(configurations) * spec.games
    print(f"{len(configurations)} configurations x {spec.games} games = {games} games")
    schedulers = ["local", f"local:{WORKERS}"]
    if importlib.util.find_spec("distributed") is None:
        print(f"sweep --scheduler {schedulers.pop()}: not available (pip install '.[dask]')")
    # Alternate the runs and keep the best of each: less noise from other load.
    best: dict[str, tuple[float, float, float]] = {}
    for _ in range(REPEATS):
        figures = plain(configurations, decks, spec)
        best["plain"] = min(best.get("plain", figures), figures)
        for scheduler in schedulers:
            figures = swept(spec, scheduler)
            best[scheduler] = min(best.get(scheduler, figures), figures)
    baseline, baseline_cpu, playing = best["plain"]
    print(
        f"plain simulate, {WORKERS} workers: {games / baseline:.0f} games/s "
        f"({baseline_cpu:.1f} CPU s); playing alone {games / playing:.0f} games/s"
    )
    for scheduler in schedulers:
        wall, used, writing = best[scheduler]
        overhead = wall / baseline - 1
        verdict = "ok" if overhead <= TARGET else "over"
        print(
            f"sweep --scheduler {scheduler}: {games / wall:.0f} games/s, overhead "
            f"{100 * overhead:+.1f} % against plain simulate (target <= {100 * TARGET:.0f} %: "
            f"{verdict}); against playing alone {100 * (wall / playing - 1):+.1f} %; "
            f"CPU {100 * (used / baseline_cpu - 1):+.1f} %; "
            f"outputs and sweep.pdf {writing:.1f} s"
        )


if __name__ == "__main__":
    main()
