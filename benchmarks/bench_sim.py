"""Simulation throughput and bookkeeping (issues 12 and 28).

Targets:

- on 20,000 Idiot games (4 players, greedy bots) 2 workers give at least 1.8 times the
  games per wall second of 1 worker, and starting (and closing) the pool costs at most
  0.15 s;
- the parent's bookkeeping (its CPU time beside the chunks it plays itself: feeding the
  workers, merging their sums, the summary) is at most 2 µs per game, so that ``-w N``
  scales to many cores; its share of the run's CPU is printed too;
- with ``simulate``'s default (heuristic) bots, one worker plays at least 2,000 games per
  wall second in every game, Kraftidioten at 6 seats too (the native cores play them);
- ``kraftstokk simulate`` peaks at under 120 MB, within 25 % from 20,000 to 1,000,000
  games (the parent keeps sums, not a row per game);
- the whole ``kraftstokk simulate`` command on one worker (``-w 1 --no-report``, 200,000
  games, 4 players), greedy and heuristic bots in every game, plays at least twice the
  games per CPU second of the checkout given with ``--against`` (issue 37.1: the cores
  play whole chunks); the command's CPU time (its process, as getrusage counts a waited
  child) is printed for both, their runs taking turns.

Wall-clock rates depend on what else the machine runs, so the CPU seconds each process
used are printed too (the parent, and the workers together): a worker short of its share
of a core shows there, instead of hiding in a low speed-up. Runs with 1 and 2 workers
alternate; the median of ``REPEATS`` is printed with the minimum and maximum.

``python bench_sim.py [GAME ...] [--repeats N] [--memory-games N ...]`` measures only the
games named, N times, and the peak memory at the game counts given; ``--command-games N``
sets the whole command's game count (0: skip it).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

HERE = Path(__file__).resolve()
# This checkout's kraftstokk before any installed one: a child started for another
# checkout (--against) must run that checkout's simulation.
sys.path[:0] = [str(HERE.parent), str(HERE.parent.parent)]

from _common import REPO, default_deck  # noqa: E402

from kraftstokk.games import native  # noqa: E402
from kraftstokk.games.core import DeckTable  # noqa: E402
from kraftstokk.sim.runner import SimSettings, run_simulation  # noqa: E402

GAMES = {"idiot": 20_000, "kraftidioten": 8_000, "stromkrig": 6_000}
TARGET_GAME = "idiot"
REPEATS = 5
PLAYERS = 4
BOTS = "greedy"
SPEED_UP = 1.8
STARTUP_SECONDS = 0.15
STARTUP_GAMES = 2  # one game per worker: the run is nearly all start-up
PARENT_US_PER_GAME = 2.0
DEFAULT_BOTS = "heuristic"
DEFAULT_BOTS_RATE = 2_000  # games per wall second on one worker, at least
#: (game, players, games) of the default bots' runs: each about a second on one worker.
DEFAULT_BOTS_RUNS = (("idiot", 4, 4_000), ("kraftidioten", 6, 2_000), ("stromkrig", 4, 3_000))
MEMORY_GAMES = (20_000, 1_000_000)
#: A child process measuring the default bots' run for --against, once; JSON on stdout.
DEFAULT_CHILD = "--child-default-bots"
#: ``BENCH_AGAINST=DIR make bench``: measure this checkout against the one in DIR.
AGAINST_ENV = "BENCH_AGAINST"
MEMORY_MB = 120
MEMORY_GROWTH = 0.25
#: The whole simulate command on one worker: games, bot kinds, and the factor its games
#: per CPU second must reach against the --against checkout's.
COMMAND_GAMES = 200_000
COMMAND_BOTS = ("greedy", "heuristic")
COMMAND_FACTOR = 2.0

#: Runs ``kraftstokk simulate`` in this process and prints its peak memory and that of its
#: largest worker (kilobytes, as getrusage gives them on Linux).
_PEAK = """
import multiprocessing, resource, sys
from kraftstokk.cli import app
sys.argv = ["kraftstokk", *sys.argv[1:]]
try:
    app()
except SystemExit as stop:
    code = stop.code
finally:
    for child in multiprocessing.active_children():
        child.join()
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    workers = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    print(f"peak {own} {workers}", file=sys.stderr)
"""


def cpu_seconds() -> tuple[float, float]:
    """CPU seconds used so far by this process and by its finished children."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime, children.ru_utime + children.ru_stime


def measure(
    table: DeckTable, settings: SimSettings, workers: int
) -> tuple[float, float, float, float]:
    """Games per wall second, the parent's CPU seconds, the workers' CPU seconds and the
    CPU seconds the parent spent playing chunks itself."""
    own_before, children_before = cpu_seconds()
    started = time.perf_counter()
    outcome = run_simulation(table, settings, workers)
    wall = time.perf_counter() - started
    # The run does not wait for its idle workers to exit; their CPU time is counted once
    # they have (RUSAGE_CHILDREN counts children that were waited for).
    for child in multiprocessing.active_children():
        child.join()
    own_after, children_after = cpu_seconds()
    return (
        outcome.stats.games / wall,
        own_after - own_before,
        children_after - children_before,
        outcome.parent_play_seconds,
    )


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


def bookkeeping(runs: list[tuple[float, float, float, float]], games: int) -> list[float]:
    """Per run: the parent's CPU microseconds per game beside the chunks it played."""
    return [1e6 * (parent - playing) / games for _, parent, _, playing in runs]


def speed(name: str, games: int, table: DeckTable, repeats: int) -> None:
    settings = SimSettings(game=name, players=PLAYERS, games=games, seed=7, bots=BOTS)
    startups = []
    ones: list[tuple[float, float, float, float]] = []
    twos: list[tuple[float, float, float, float]] = []
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
    kept = bookkeeping(twos, games)
    shares = [100 * parent / (parent + workers) for _, parent, workers, _ in twos]
    print(
        f"{name} parent, 2 workers: its CPU beside the chunks it plays {spread(kept, 2)} µs "
        f"per game over {games:,} games, starting the worker included; its share of the "
        f"run's CPU {spread(shares, 1)} % (it plays chunks too)",
        flush=True,
    )


def default_bots_round(table: DeckTable, names: list[str]) -> dict[str, list[float]]:
    """One run of each default-bots simulation on one worker: games per wall second and
    per CPU second of this process (which plays every chunk itself)."""
    found = {}
    for name, players, games in DEFAULT_BOTS_RUNS:
        if names and name not in names:
            continue
        settings = SimSettings(game=name, players=players, games=games, seed=5, bots=DEFAULT_BOTS)
        run_simulation(table, replace(settings, games=20), 1)  # warm: tables and cores made
        wall, own, _, _ = measure(table, settings, 1)
        found[f"{name}:{players}:{games}"] = [wall, games / own]
    return found


def default_bots(
    table: DeckTable, repeats: int, names: list[str], against: Path | None = None
) -> None:
    """Games per wall and per CPU second of one worker with the default bots, per game;
    with ``against``, that checkout's figures too, from child processes taking turns with
    this one's (the whole simulation: the game, its tally and its sums)."""
    columns: list[tuple[str, Path]] = [("this checkout", HERE)]
    if against is not None:
        theirs = against / "benchmarks" / HERE.name
        if DEFAULT_CHILD in theirs.read_text(encoding="utf-8"):
            columns.append((f"@{against.name}", theirs))
        else:  # a checkout from before this comparison: this checkout's figures alone
            print(
                f"default bots, @{against.name}: its benchmarks/{HERE.name} cannot play "
                f"this section ({DEFAULT_CHILD}); only this checkout's figures",
                flush=True,
            )
            against = None
    rounds: dict[str, list[dict[str, list[float]]]] = {label: [] for label, _ in columns}
    for _ in range(repeats):
        for label, script in columns:
            if against is None:
                rounds[label].append(default_bots_round(table, names))
                continue
            done = subprocess.run(
                [sys.executable, str(script), DEFAULT_CHILD, *names],
                capture_output=True,
                text=True,
                check=True,
            )
            rounds[label].append(json.loads(done.stdout.strip().splitlines()[-1]))
    for key in rounds[columns[0][0]][0]:
        name, players, games = key.split(":")
        parts = []
        for label, _ in columns:
            walls = [run[key][0] for run in rounds[label]]
            cpus = [run[key][1] for run in rounds[label]]
            text = f"{label} {spread(walls, 0)} games/wall s, {spread(cpus, 0)} games/CPU s"
            if label == columns[0][0]:
                ok = statistics.median(walls) >= DEFAULT_BOTS_RATE
                text += f" (target >= {DEFAULT_BOTS_RATE:,}: {'ok' if ok else 'BELOW TARGET'})"
            parts.append(text)
        if against is not None:
            mine = statistics.median(run[key][1] for run in rounds[columns[0][0]])
            theirs = statistics.median(run[key][1] for run in rounds[columns[1][0]])
            parts.append(f"change {100 * (mine / theirs - 1):+.1f} % games/CPU s")
        print(
            f"{name} games/s, {DEFAULT_BOTS} bots (simulate's default), {players} players, "
            f"{int(games):,} games, 1 worker: " + "; ".join(parts),
            flush=True,
        )


def command_cpu(checkout: Path, deck_file: Path, name: str, bots: str, games: int) -> float:
    """CPU seconds of ``kraftstokk simulate`` (one worker, no report) run by ``checkout``'s
    own environment, from its start to its end."""
    program = checkout / ".venv" / "bin" / "kraftstokk"
    with tempfile.TemporaryDirectory() as out:
        command = [
            str(program), "simulate", str(deck_file), "--game", name, "--bots", bots,
            "-p", str(PLAYERS), "-n", str(games), "-w", "1", "--no-report", "--out", out,
        ]  # fmt: skip
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        done = subprocess.run(command, capture_output=True, text=True, check=False, cwd=checkout)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"{checkout}: simulate failed: {done.stderr.strip()}")
    return (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)


def engine_of(checkout: Path) -> str:
    """The engine ``checkout``'s own environment loads (a core older than its sources is
    not used: its games are played in Python, and the figures say nothing of the core)."""
    done = subprocess.run(
        [str(checkout / ".venv" / "bin" / "python"), "-c", _ENGINE],
        capture_output=True,
        text=True,
        check=False,
        cwd=checkout,
    )
    return done.stdout.strip() or done.stderr.strip()


_ENGINE = "from kraftstokk.games import native; print(native.engine_status())"


def whole_command(repeats: int, names: list[str], games: int, against: Path | None) -> None:
    """Games per CPU second of the whole simulate command, this checkout's and, taking
    turns with it, ``against``'s, per game and bot kind."""
    checkouts = [("this checkout", REPO)]
    if against is not None:
        checkouts.append((f"@{against.name}", against.resolve()))
    for label, checkout in checkouts:
        print(f"simulate's engine, {label}: {engine_of(checkout)}", flush=True)
    with tempfile.TemporaryDirectory() as folder:
        deck_file = Path(folder) / "deck.json"
        deck_file.write_text(default_deck().model_dump_json(), encoding="utf-8")
        for name in GAMES:
            if names and name not in names:
                continue
            for bots in COMMAND_BOTS:
                rates: dict[str, list[float]] = {label: [] for label, _ in checkouts}
                cpus: dict[str, list[float]] = {label: [] for label, _ in checkouts}
                for _ in range(repeats):
                    for label, checkout in checkouts:
                        cpu = command_cpu(checkout, deck_file, name, bots, games)
                        cpus[label].append(cpu)
                        rates[label].append(games / cpu)
                parts = [
                    f"{label} {spread(cpus[label], 2)} CPU s, {spread(rates[label], 0)} games/CPU s"
                    for label, _ in checkouts
                ]
                if against is not None:
                    mine = statistics.median(rates[checkouts[0][0]])
                    theirs = statistics.median(rates[checkouts[1][0]])
                    ok = mine >= COMMAND_FACTOR * theirs
                    parts.append(
                        f"{mine / theirs:.2f}x (target >= {COMMAND_FACTOR:g}x: "
                        f"{'ok' if ok else 'BELOW TARGET'})"
                    )
                print(
                    f"{name} simulate -w 1 --no-report, {bots} bots, {PLAYERS} players, "
                    f"{games:,} games, whole command: " + "; ".join(parts),
                    flush=True,
                )


def peak_memory(deck_file: Path, games: int, out: Path) -> tuple[float, float, float]:
    """``kraftstokk simulate`` (greedy Idiot, 2 workers, with its report): the peak MB of
    the process and of its largest worker, and its wall seconds."""
    command = [
        sys.executable, "-c", _PEAK, "simulate", str(deck_file), "--game", TARGET_GAME,
        "--bots", BOTS, "-p", str(PLAYERS), "-n", str(games), "-w", "2", "--out", str(out),
    ]  # fmt: skip
    started = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, check=False, cwd=REPO)
    wall = time.perf_counter() - started
    line = next((ln for ln in done.stderr.splitlines() if ln.startswith("peak ")), None)
    if done.returncode != 0 or line is None:
        raise SystemExit(f"simulate failed: {done.stderr.strip()}")
    _, own, workers = line.split()
    return int(own) / 1024, int(workers) / 1024, wall


def memory(counts: list[int], table: DeckTable) -> None:
    with tempfile.TemporaryDirectory() as folder:
        deck_file = Path(folder) / "deck.json"
        deck_file.write_text(default_deck().model_dump_json(), encoding="utf-8")
        peaks = []
        for games in counts:
            own, worker, wall = peak_memory(deck_file, games, Path(folder) / "out")
            peaks.append(own)
            print(
                f"simulate peak memory, {games:,} {TARGET_GAME} games, 2 workers: this process "
                f"{own:.0f} MB, its worker {worker:.0f} MB ({wall:.1f} s wall)",
                flush=True,
            )
        growth = max(peaks) / min(peaks) - 1
        ok = max(peaks) < MEMORY_MB and growth <= MEMORY_GROWTH
        print(
            f"simulate peak memory from {min(counts):,} to {max(counts):,} games: "
            f"{100 * growth:+.0f} % (target within {100 * MEMORY_GROWTH:.0f} % and under "
            f"{MEMORY_MB} MB: {'ok' if ok else 'OVER'})",
            flush=True,
        )
    # The bookkeeping per game, in this process, where starting the pool no longer counts.
    settings = SimSettings(game=TARGET_GAME, players=PLAYERS, games=max(counts), seed=7, bots=BOTS)
    run = measure(table, settings, 2)
    kept = bookkeeping([run], max(counts))[0]
    ok = kept <= PARENT_US_PER_GAME
    print(
        f"parent bookkeeping at {max(counts):,} {TARGET_GAME} games, 2 workers: {kept:.2f} µs "
        f"per game (target <= {PARENT_US_PER_GAME} µs: {'ok' if ok else 'OVER'}); its share "
        f"of the run's CPU {100 * run[1] / (run[1] + run[2]):.1f} % (it plays chunks too)",
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", help=f"of {', '.join(GAMES)} (default: all)")
    parser.add_argument("--repeats", type=int, default=REPEATS)
    parser.add_argument(
        "--memory-games", type=int, nargs="*", default=list(MEMORY_GAMES), metavar="N"
    )
    parser.add_argument(
        "--against",
        type=Path,
        metavar="DIR",
        default=Path(os.environ[AGAINST_ENV]) if os.environ.get(AGAINST_ENV) else None,
        help="another checkout (with its own make engine build) whose default-bots "
        f"simulation takes turns with this one's (also ${AGAINST_ENV}, as make bench passes it)",
    )
    parser.add_argument(
        "--command-games",
        type=int,
        default=COMMAND_GAMES,
        metavar="N",
        help="games of the whole simulate command's runs (0: skip them)",
    )
    arguments = parser.parse_args(sys.argv[1:] if __name__ == "__main__" else [])
    if (
        arguments.against is not None
        and not (arguments.against / "benchmarks" / HERE.name).is_file()
    ):
        parser.error(f"--against {arguments.against}: no benchmarks/{HERE.name} there")
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
        speed(name, games, table, repeats)
    default_bots(table, repeats, arguments.games, arguments.against)
    if arguments.command_games > 0:
        whole_command(repeats, arguments.games, arguments.command_games, arguments.against)
    if arguments.memory_games:
        memory(sorted(arguments.memory_games), table)


if __name__ == "__main__":
    if sys.argv[1:2] == [DEFAULT_CHILD]:
        names = sys.argv[2:]
        print(json.dumps(default_bots_round(DeckTable.from_deck(default_deck()), names)))
    else:
        main()
