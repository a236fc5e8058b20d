"""Simulation throughput: games per second for each game with 1 and 2 worker processes.

Target (issue 7): 2 workers at least 1.8 times as fast as one. Wall-clock rates depend
on what else the machine runs, so the CPU time of the run (this process and its workers)
is printed as well: its ratio shows the overhead of going parallel, independent of load,
and bounds the speed-up two otherwise idle cores would give.
"""

from __future__ import annotations

import os
import resource
import time
from pathlib import Path

from _common import default_deck

from kraftstokk.games.core import DeckTable
from kraftstokk.sim.runner import SimSettings, run_simulation

# About two seconds of one-worker play each with the compiled engine, so fixed pool costs
# weigh as in a real run (the default run, 1000 games of heuristic bots, takes longer).
GAMES = {"idiot": 5000, "kraftidioten": 4000, "stromkrig": 2500}
REPEATS = 4  # alternate 1 and 2 workers, keep the best of each: less noise from other load
PLAYERS = 4
BOTS = "greedy"
ROOT = Path(__file__).resolve().parent.parent
TARGET = 1.8


def cpu_seconds() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def measure(table: DeckTable, settings: SimSettings, workers: int) -> tuple[float, float]:
    """Games per wall second and CPU seconds used."""
    cpu_before, started = cpu_seconds(), time.perf_counter()
    outcome = run_simulation(table, settings, workers)
    wall = time.perf_counter() - started
    return outcome.tally.games / wall, cpu_seconds() - cpu_before


def main() -> None:
    table = DeckTable.from_deck(default_deck())
    load = os.getloadavg()[0]
    print(f"cores available: {len(os.sched_getaffinity(0))}; load average {load:.1f}")
    for name, games in GAMES.items():
        settings = SimSettings(game=name, players=PLAYERS, games=games, seed=7, bots=BOTS)
        try:
            runs = [
                (measure(table, settings, 1), measure(table, settings, 2)) for _ in range(REPEATS)
            ]
        except ImportError as exc:
            print(f"{name}: not available ({exc})")
            continue
        one = max(first[0] for first, _ in runs)
        two = max(second[0] for _, second in runs)
        # The least CPU of each: the run least slowed by other load on the machine.
        cpu_one = min(first[1] for first, _ in runs)
        cpu_two = min(second[1] for _, second in runs)
        speedup = two / one
        verdict = "ok" if speedup >= TARGET else "BELOW TARGET"
        print(
            f"{name} games/s ({games} games, {PLAYERS} players, {BOTS}, best of {REPEATS}): "
            f"1 worker {one:,.0f}, "
            f"2 workers {two:,.0f}, speed-up {speedup:.2f}x (target >= {TARGET}x; {verdict}); "
            f"CPU seconds {cpu_one:.2f} vs {cpu_two:.2f} (parallel overhead "
            f"{100 * (cpu_two / cpu_one - 1):+.1f} %; on two idle cores at most "
            f"{2 * cpu_one / cpu_two:.2f}x)",
            flush=True,
        )


if __name__ == "__main__":
    main()
