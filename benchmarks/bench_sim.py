"""Simulation throughput (issue 12): ``simulate`` with 1 and 2 worker processes.

Targets: on 20,000 Idiot games (4 players, greedy bots) 2 workers give at least 1.8 times
the games per wall second of 1 worker, and starting (and closing) the pool costs at most
0.15 s. Wall-clock rates depend on what else the machine runs, so the CPU seconds each
process used are printed too (the parent, and the workers together): a worker short of
its share of a core shows there, instead of hiding in a low speed-up. Runs with 1 and 2
workers alternate; the median of ``REPEATS`` is printed with the minimum and maximum.

``python bench_sim.py [GAME ...] [--repeats N]`` measures only the games named, N times.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import resource
import statistics
import time

from _common import default_deck

from kraftstokk.games import native
from kraftstokk.games.core import DeckTable
from kraftstokk.sim.runner import SimSettings, run_simulation

GAMES = {"idiot": 20_000, "kraftidioten": 8_000, "stromkrig": 6_000}
TARGET_GAME = "idiot"
REPEATS = 5
PLAYERS = 4
BOTS = "greedy"
SPEED_UP = 1.8
STARTUP_SECONDS = 0.15
STARTUP_GAMES = 2  # one game per worker: the run is nearly all start-up


def cpu_seconds() -> tuple[float, float]:
    """CPU seconds used so far by this process and by its finished children."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime, children.ru_utime + children.ru_stime


def measure(table: DeckTable, settings: SimSettings, workers: int) -> tuple[float, float, float]:
    """Games per wall second, the parent's CPU seconds and the workers' CPU seconds."""
    own_before, children_before = cpu_seconds()
    started = time.perf_counter()
    outcome = run_simulation(table, settings, workers)
    wall = time.perf_counter() - started
    # The run does not wait for its idle workers to exit; their CPU time is counted once
    # they have (RUSAGE_CHILDREN counts children that were waited for).
    for child in multiprocessing.active_children():
        child.join()
    own_after, children_after = cpu_seconds()
    return outcome.tally.games / wall, own_after - own_before, children_after - children_before


def startup_seconds(table: DeckTable, name: str) -> float:
    """Wall seconds a 2-worker run of one game per worker takes beyond playing them."""
    settings = SimSettings(game=name, players=PLAYERS, games=STARTUP_GAMES, seed=11, bots=BOTS)
    run_simulation(table, settings, 1)  # warm: the game and bots are made once before
    started = time.perf_counter()
    run_simulation(table, settings, 1)
    serial = time.perf_counter() - started
    started = time.perf_counter()
    run_simulation(table, settings, 2)
    return max(0.0, time.perf_counter() - started - serial)


def spread(values: list[float], digits: int) -> str:
    form = f"{{:,.{digits}f}}"
    return (
        f"{form.format(statistics.median(values))} "
        f"({form.format(min(values))}-{form.format(max(values))})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", help=f"of {', '.join(GAMES)} (default: all)")
    parser.add_argument("--repeats", type=int, default=REPEATS)
    arguments = parser.parse_args()
    unknown = sorted(set(arguments.games) - set(GAMES))
    if unknown:
        parser.error(f"no game {', '.join(unknown)} (choose from {', '.join(GAMES)})")
    repeats = max(1, arguments.repeats)
    table = DeckTable.from_deck(default_deck())
    load = os.getloadavg()[0]
    print(
        f"engine: {native.engine_status()}; cores available: "
        f"{len(os.sched_getaffinity(0))}; load average {load:.1f}; "
        f"median (min-max) of {repeats} alternating runs"
    )
    for name, games in GAMES.items():
        if arguments.games and name not in arguments.games:
            continue
        settings = SimSettings(game=name, players=PLAYERS, games=games, seed=7, bots=BOTS)
        startups = []
        ones: list[tuple[float, float, float]] = []
        twos: list[tuple[float, float, float]] = []
        for _ in range(repeats):
            ones.append(measure(table, settings, 1))
            twos.append(measure(table, settings, 2))
            startups.append(startup_seconds(table, name))
        speedups = [two[0] / one[0] for one, two in zip(ones, twos, strict=True)]
        line = (
            f"{name} games/s ({games:,} games, {PLAYERS} players, {BOTS}): "
            f"1 worker {spread([r[0] for r in ones], 0)}, "
            f"2 workers {spread([r[0] for r in twos], 0)}, "
            f"speed-up {spread(speedups, 2)}x"
        )
        if name == TARGET_GAME:
            ok = statistics.median(speedups) >= SPEED_UP
            line += f" (target >= {SPEED_UP}x: {'ok' if ok else 'BELOW TARGET'})"
        print(line)
        ok = statistics.median(startups) <= STARTUP_SECONDS
        cpu_one = statistics.median(r[1] for r in ones)
        cpu_two = statistics.median(r[1] + r[2] for r in twos)
        print(
            f"{name} CPU seconds per run: 1 worker {spread([r[1] for r in ones], 2)}; "
            f"2 workers: parent {spread([r[1] for r in twos], 2)}, "
            f"workers together {spread([r[2] for r in twos], 2)} "
            f"(on two idle cores the speed-up is at most about "
            f"{2 * cpu_one / cpu_two:.2f}x); "
            f"pool start-up and close {spread(startups, 3)} s "
            f"(target <= {STARTUP_SECONDS} s: {'ok' if ok else 'BELOW TARGET'})",
            flush=True,
        )


if __name__ == "__main__":
    main()
