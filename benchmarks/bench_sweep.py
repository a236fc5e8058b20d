"""Sweep throughput on the local backend and on a Dask LocalCluster of two worker
processes, against the same games played by plain ``simulate``; and what Dask costs
while idle and to start, so the README can say when ``local:N`` pays off.

Target (issue 18): at most 10 % overhead against plain simulate for chunks of 500 games.
The baseline does per configuration what ``simulate -w 2`` computes: ``run_simulation``
on 2 worker processes, then ``describe_run`` (the summary and findings, which the sweep
makes for every configuration too); only writing files is left out. The sweeps include
measuring the cost of a game, loading the decks, storing every chunk on disk, the
summaries and the comparisons (sweep.json, the tables and sweep.pdf are timed apart).
Two workloads: fast games (greedy bots, 24 configurations x 2,000 games) and slow ones
(heuristic bots, 8 configurations x 300 games of Strømkrig), since Dask's cost is per
task and per second, not per game. Wall-clock rates depend on what else the machine runs,
so the CPU time of each run (this process and its workers) is compared as well.
"""

from __future__ import annotations

import importlib
import importlib.util
import multiprocessing
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

if __name__ == "__main__":  # run as a script (each measurement is): the repository too
    sys.path[:0] = [str(Path(__file__).resolve().parent), str(Path(__file__).resolve().parents[1])]

from _common import REPO

from kraftstokk.sim.runner import run_simulation
from kraftstokk.sim.session import describe_run
from kraftstokk.sim.sweep.backends import QUIET_DASK, make_backend
from kraftstokk.sim.sweep.model import SweepFile, parse_sweep
from kraftstokk.sim.sweep.outputs import write_outputs
from kraftstokk.sim.sweep.results import analyse
from kraftstokk.sim.sweep.run import SweepPlan, plan, run_sweep

HERE = Path(__file__).resolve().parent

FAST = """
title = "benchmark, fast games"
games = 2000
chunk = 500
seed = 7
[grid]
decks = ["deck.toml", "deck-head.toml"]
games = ["idiot", "kraftidioten", "stromkrig"]
players = [2, 3, 4, 5]
bots = ["greedy"]
"""
SLOW = """
title = "benchmark, slow games"
games = 300
chunk = 100
seed = 7
[grid]
decks = ["deck.toml", "deck-head.toml"]
games = ["stromkrig"]
players = [3, 4, 5, 6]
bots = ["heuristic"]
"""
WORKLOADS = {"fast": FAST, "slow": SLOW}
WORKERS = 2
REPEATS = 2
TARGET = 0.10
IDLE_SECONDS = 5.0


def cpu_seconds() -> float:
    """CPU seconds of this process and its children so far, once every child that has
    ended is waited for (simulate's pool does not wait for its idle workers, and a child
    counts where it is waited for)."""
    for child in multiprocessing.active_children():
        child.join()
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def plain(found: SweepPlan) -> tuple[float, float, float]:
    """Wall and CPU seconds of doing what ``simulate -w 2`` does for every configuration,
    and the wall seconds of its playing alone."""
    cpu, started = cpu_seconds(), time.perf_counter()
    playing = 0.0
    for configuration in found.configurations:
        deck = found.decks[configuration.deck]
        outcome = run_simulation(deck.table, configuration.settings, WORKERS)
        playing += outcome.elapsed
        describe_run(
            outcome.stats,
            deck.table,
            configuration.settings,
            deck.deck,
            configuration.deck_path,
            elapsed=outcome.elapsed,
            workers=outcome.workers,
            interrupted=outcome.interrupted,
            rules=found.sweep.findings,
        )
    return time.perf_counter() - started, cpu_seconds() - cpu, playing


def swept(spec: SweepFile, scheduler: str) -> tuple[float, float, float]:
    """Wall and CPU seconds of the sweep (planning, the cluster's start and close
    included), and seconds of its outputs."""
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder)
        cpu, started = cpu_seconds(), time.perf_counter()
        found = plan(spec, REPO / "sources", workers=WORKERS)
        backend = make_backend(scheduler, WORKERS)
        run = run_sweep(found, out, backend)
        wall, used = time.perf_counter() - started, cpu_seconds() - cpu
        started = time.perf_counter()
        write_outputs(analyse(run), out)
        return wall, used, time.perf_counter() - started


def one_run(workload: str, scheduler: str) -> tuple[float, float, float]:
    """One measurement in a fresh process: its CPU time is then all counted (a process
    that has run Dask keeps threads, so it would start later workers from a forkserver,
    whose children's CPU time it never sees)."""
    command = [sys.executable, __file__, "--one", workload, scheduler]
    done = subprocess.run(command, capture_output=True, text=True, check=False, cwd=HERE)
    if done.returncode != 0:
        raise SystemExit(f"bench_sweep --one {workload} {scheduler}: {done.stderr.strip()}")
    wall, cpu, other = (float(part) for part in done.stdout.split()[-3:])
    return wall, cpu, other


def measure_one(workload: str, scheduler: str) -> None:
    spec = parse_sweep(WORKLOADS[workload], "benchmark sweep")
    if scheduler == "plain":
        figures = plain(plan(spec, REPO / "sources", workers=WORKERS))
    else:
        figures = swept(spec, scheduler)
    print(*figures)


def compare(workload: str, schedulers: list[str]) -> None:
    spec = parse_sweep(WORKLOADS[workload], "benchmark sweep")
    found = plan(spec, REPO / "sources", workers=WORKERS)
    games = len(found.configurations) * spec.games
    print(f"{spec.title}: {len(found.configurations)} configurations x {spec.games} games")
    # Alternate the runs and keep the best of each: less noise from other load.
    best: dict[str, tuple[float, float, float]] = {}
    for _ in range(REPEATS):
        for scheduler in ["plain", *schedulers]:
            figures = one_run(workload, scheduler)
            best[scheduler] = min(best.get(scheduler, figures), figures)
    baseline, baseline_cpu, playing = best["plain"]
    print(
        f"  plain simulate, {WORKERS} workers: {games / baseline:.0f} games/s, "
        f"{baseline:.1f} s ({baseline_cpu:.1f} CPU s); playing alone {games / playing:.0f} "
        "games/s"
    )
    for scheduler in schedulers:
        wall, used, writing = best[scheduler]
        overhead = wall / baseline - 1
        verdict = "ok" if overhead <= TARGET else "over"
        print(
            f"  sweep --scheduler {scheduler}: {games / wall:.0f} games/s, {wall:.1f} s, "
            f"overhead {100 * overhead:+.1f} % against plain simulate (target <= "
            f"{100 * TARGET:.0f} %: {verdict}); CPU {used:.1f} s "
            f"({100 * (used / baseline_cpu - 1):+.1f} %); outputs and sweep.pdf {writing:.1f} s",
            flush=True,
        )


def _tree_cpu(root: Any) -> float:
    """CPU seconds of a process and every process below it."""
    total = 0.0
    for process in [root, *root.children(recursive=True)]:
        try:
            times = process.cpu_times()
        except Exception:  # gone meanwhile
            continue
        total += times.user + times.system
    return total


def dask_costs() -> None:
    """A LocalCluster of two workers: seconds to start and close it, and the CPU its
    processes use while idle, with Dask's defaults and with the sweep's settings."""
    distributed: Any = importlib.import_module("distributed")
    dask: Any = importlib.import_module("dask")
    psutil: Any = importlib.import_module("psutil")
    me = psutil.Process()
    for label, settings in (("Dask's defaults", {}), ("the sweep's settings", QUIET_DASK)):
        started = time.perf_counter()
        with dask.config.set(settings):
            cluster = distributed.LocalCluster(
                n_workers=WORKERS,
                threads_per_worker=1,
                processes=True,
                host="127.0.0.1",
                dashboard_address=None,
                silence_logs=50,
            )
            client = distributed.Client(cluster)
        up = time.perf_counter() - started
        time.sleep(1.0)  # settled
        before, wall = _tree_cpu(me), time.perf_counter()
        time.sleep(IDLE_SECONDS)
        idle = (_tree_cpu(me) - before) / (time.perf_counter() - wall)
        started = time.perf_counter()
        client.close()
        cluster.close()
        down = time.perf_counter() - started
        print(
            f"  LocalCluster of {WORKERS} workers, {label}: start {up:.1f} s, close {down:.1f} s; "
            f"idle, all its processes and this one use {100 * idle:.1f} % of a core",
            flush=True,
        )


def main() -> None:
    schedulers = ["local", f"local:{WORKERS}"]
    dask = importlib.util.find_spec("distributed") is not None
    if not dask:
        print(f"sweep --scheduler {schedulers.pop()}: not available (pip install '.[dask]')")
    for workload in WORKLOADS:
        compare(workload, schedulers)
    if dask:
        print("what Dask costs, beside the games:")
        dask_costs()


if __name__ == "__main__":
    if sys.argv[1:2] == ["--one"]:
        measure_one(sys.argv[2], sys.argv[3])
    else:
        main()
