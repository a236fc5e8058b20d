"""Engine speed (issue 12): each game on one core, 4 players, compiled and pure Python.

"compiled" is the engine ``make engine`` builds: the mypyc-compiled game modules and, for
the seats whose bots have one, each game's native core (``games/fastcore.py``), which
``play_game`` uses as a simulation does; "pure" is the Python sources alone.

Targets for the compiled engine: greedy bots Idiot >= 20,000 games/s, Kraftidioten >=
10,000 and Strømkrig >= 8,000; random bots <= 500 ns per action in every game; the
heuristic bots (``simulate``'s default) >= 2,000 games/s in every game, at 4 seats and
Kraftidioten at 6 as well (issue 28); setup (deal and bots) <= 10 µs per game, and in a
simulation's chunk, the core playing it whole (seeds, deal, the game's row and the
chunk's sums), <= 3 µs per game (issue 37.1). A playout
from a position (``games/playouts.py``, a search bot's rollout) is timed per call, with
no target. Rates are per CPU second of the measuring process (``time.process_time``), so
other work on the machine lowers them less than it lowers wall-clock rates; a calibration
loop is timed beside them to show how fast this machine is today. Each engine runs in its
own child process (``KRAFTSTOKK_PURE_PYTHON=1`` for the pure one; a process cannot load
both), the children take turns, ``ROUNDS`` times, and the median of the rounds is printed
with their minimum and maximum.

``--against DIR`` adds the engines of another checkout (with its own ``make engine``
build, e.g. ``git worktree add DIR main``) to the turns, so a change is measured against
its base in alternating rounds on the same machine at the same time:

    .venv/bin/python benchmarks/bench_games.py --against ../kraftstokk-main
"""

from __future__ import annotations

import argparse
import json
import os
import pickle
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve()
# This checkout's kraftstokk before any installed one: a child started for another
# checkout (--against) must play that checkout's engine.
sys.path[:0] = [str(HERE.parent), str(HERE.parent.parent)]

from _common import default_deck  # noqa: E402

from kraftstokk.games.core import DeckTable  # noqa: E402

GAMES = {"idiot": 20_000, "kraftidioten": 10_000, "stromkrig": 8_000}  # greedy, games/s
RANDOM_NS = 500  # random bots, ns per action, at most
SETUP_US = 10.0  # deal and bots, µs per game, at most
CHUNK_SETUP_US = 3.0  # a game's seeds, deal, row and sums in a core's chunk, at most
HEURISTIC = 2_000  # heuristic bots, games/s, at least
#: The seat counts the heuristic bots are measured at, per game.
HEURISTIC_PLAYERS = {"idiot": (4,), "kraftidioten": (4, 6), "stromkrig": (4,)}
BOTS = ("greedy", "random")
PLAYERS = 4
ROUNDS = 5
SECONDS = {"compiled": 0.4, "pure": 0.25}  # CPU seconds per figure and round
SETUPS = 10_000
SEED = 2026
ENGINES = {"compiled": {}, "pure": {"KRAFTSTOKK_PURE_PYTHON": "1"}}
CHILD = "--child"
#: ``BENCH_AGAINST=DIR make bench``: measure this checkout against the one in DIR.
AGAINST_ENV = "BENCH_AGAINST"


def calibration_seconds() -> float:
    """CPU seconds for ten million empty iterations of a Python loop (about 0.2 s)."""
    start = time.process_time()
    for _ in range(10_000_000):
        pass
    return time.process_time() - start


def measure_play(
    name: str, bots: str, table: DeckTable, seconds: float, players: int = PLAYERS
) -> dict[str, float]:
    """Games per CPU second and actions per game of ``play_game`` with fresh bots each game."""
    from kraftstokk.games import registry
    from kraftstokk.games.core import derive_seed
    from kraftstokk.games.runner import play_game

    game = registry.make_game(name, table, players)
    for warm in range(3):
        play_game(game, registry.make_bots(game, bots), derive_seed(SEED + 1, warm))
    played = actions = 0
    start = time.process_time()
    while True:
        seed = derive_seed(SEED, played)
        actions += play_game(game, registry.make_bots(game, bots), seed).result.actions
        played += 1
        cpu = time.process_time() - start
        if cpu >= seconds and played >= 3:
            break
    return {"games_per_s": played / cpu, "actions": actions / played, "cpu": cpu}


def measure_setup(name: str, table: DeckTable) -> float:
    """µs per game for what ``play_game`` does around the first action: the bots, the
    seeds, the deal, and the record, measured as whole games stopped by an action cap of
    one (so an upper bound: it includes that one action)."""
    from kraftstokk.games import registry
    from kraftstokk.games.core import derive_seed
    from kraftstokk.games.runner import play_game

    game = registry.make_game(name, table, PLAYERS, action_cap=1)
    seeds = [derive_seed(SEED, index) for index in range(SETUPS)]
    start = time.process_time()
    for seed in seeds:
        play_game(game, registry.make_bots(game, "greedy"), seed)
    return (time.process_time() - start) / SETUPS * 1e6


def measure_chunk_setup(name: str, table: DeckTable) -> float | None:
    """µs per game for what a simulation's chunk does around each game's first action,
    the core playing whole chunks (``NativeCore.play_chunk``): the seeds, the deal, the
    game's row and the chunk's sums (``stream.core_chunk``, ``RunStats.of_chunk``), as
    whole games stopped by an action cap of one (so an upper bound: it includes that one
    action); None where no core plays greedy seats (pure Python, or an older checkout)."""
    from kraftstokk.games import registry
    from kraftstokk.games.fastcore import native_core

    try:
        from kraftstokk.sim.stream import RunStats, core_chunk
    except ImportError:  # a checkout from before whole chunks
        return None
    game = registry.make_game(name, table, PLAYERS, action_cap=1)
    core = native_core(game, registry.make_bots(game, "greedy"))
    if core is None or not hasattr(core, "play_chunk"):
        return None
    chunk = 2_000  # sim/runner.py's MAX_CHUNK
    start = time.process_time()
    for first in range(0, SETUPS, chunk):
        matrix, totals = core_chunk(
            core.play_chunk(SEED, first, first + chunk), PLAYERS, table.size, first
        )
        RunStats.of_chunk(matrix, totals, PLAYERS)
    return (time.process_time() - start) / SETUPS * 1e6


def measure_playout(name: str, table: DeckTable, seconds: float) -> float:
    """µs per ``playouts.playout`` of greedy seats from a position a quarter into a greedy
    game (a search bot's rollout): the core reads the state and plays it on."""
    from kraftstokk.games import registry
    from kraftstokk.games.playouts import playout
    from kraftstokk.games.runner import play_game, replay

    game = registry.make_game(name, table, PLAYERS)
    bots = registry.make_bots(game, "greedy")
    actions = play_game(game, bots, SEED).actions
    state = replay(game, SEED, actions[: len(actions) // 4])
    for warm in range(3):
        playout(state, bots, warm)
    played = 0
    start = time.process_time()
    while True:
        playout(state, bots, played)
        played += 1
        cpu = time.process_time() - start
        if cpu >= seconds and played >= 3:
            break
    return cpu / played * 1e6


def child(table_path: str) -> None:
    """One round of every figure with the engine this process loaded; JSON on stdout."""
    from kraftstokk.games import native

    table = pickle.loads(Path(table_path).read_bytes())
    engine = "pure" if os.environ.get("KRAFTSTOKK_PURE_PYTHON") == "1" else "compiled"
    figures: dict[str, Any] = {"status": native.engine_status(), "games": {}}
    for name in GAMES:
        figures["games"][name] = {
            bots: measure_play(name, bots, table, SECONDS[engine]) for bots in BOTS
        }
        for players in HEURISTIC_PLAYERS[name]:
            figures["games"][name][f"heuristic-{players}"] = measure_play(
                name, "heuristic", table, SECONDS[engine], players
            )
        figures["games"][name]["setup_us"] = measure_setup(name, table)
        figures["games"][name]["chunk_setup_us"] = measure_chunk_setup(name, table)
        figures["games"][name]["playout_us"] = measure_playout(name, table, SECONDS[engine])
    print(json.dumps(figures))


def run_child(engine: str, table_path: str, script: Path = HERE) -> dict[str, Any]:
    """One round of ``engine`` ("compiled" or "pure") by ``script``: this benchmark, or the
    same benchmark of another checkout, which then plays with that checkout's engine."""
    from kraftstokk.cli import BLAS_THREADS

    # One OpenBLAS thread, as the kraftstokk command sets: numpy, imported where a chunk is
    # summed, would otherwise start a thread per core whose spinning the child's CPU time
    # counts (the chunk set-up of the first game measured: 4.0 µs a game instead of 1.9).
    env = {**BLAS_THREADS, **os.environ, **ENGINES[engine]}
    if engine == "compiled":
        env.pop("KRAFTSTOKK_PURE_PYTHON", None)
    done = subprocess.run(
        [sys.executable, str(script), CHILD, table_path],
        capture_output=True,
        text=True,
        env=env,
        check=True,
    )
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def spread(values: list[float], digits: int = 0) -> str:
    """'median (min-max)' of the rounds."""
    form = f"{{:,.{digits}f}}"
    low, high = min(values), max(values)
    return f"{form.format(statistics.median(values))} ({form.format(low)}-{form.format(high)})"


def verdict(ok: bool) -> str:
    return "ok" if ok else "BELOW TARGET"


def main(against: Path | None = None) -> None:
    """Every figure; ``against`` (or the environment's ``BENCH_AGAINST``, as ``make bench``
    passes it) adds another checkout's engines to the turns."""
    if against is None and os.environ.get(AGAINST_ENV):
        against = Path(os.environ[AGAINST_ENV])
    table = DeckTable.from_deck(default_deck())
    #: Each column: its name, the engine its child loads and the benchmark that runs it.
    columns = [(engine, engine, HERE) for engine in ENGINES]
    if against is not None:
        other = against / "benchmarks" / HERE.name
        columns += [(f"{engine}@{against.name}", engine, other) for engine in ENGINES]
    rounds: dict[str, list[dict[str, Any]]] = {name: [] for name, _, _ in columns}
    calibrations = []
    with tempfile.TemporaryDirectory(prefix="kraftstokk-bench-") as work:
        table_path = str(Path(work, "table.pickle"))
        Path(table_path).write_bytes(pickle.dumps(table))
        for _ in range(ROUNDS):
            calibrations.append(calibration_seconds())
            for name, engine, script in columns:
                rounds[name].append(run_child(engine, table_path, script))
    for name, _, _ in columns:
        print(f"engine {name}: {rounds[name][0]['status']}")
    print(
        f"calibration: 10M empty Python loop iterations in {spread(calibrations, 3)} CPU s; "
        f"{PLAYERS} players; median (min-max) of {ROUNDS} alternating rounds per figure"
    )
    compiled_ran = rounds["compiled"][0]["status"].startswith("compiled")
    if not compiled_ran:
        print("the compiled engine did not run, so both columns are pure Python")
    for name, target in GAMES.items():
        for bots in BOTS:
            parts = []
            for engine in rounds:
                runs = [r["games"][name][bots] for r in rounds[engine]]
                rates = [run["games_per_s"] for run in runs]
                ns = [1e9 / (run["games_per_s"] * run["actions"]) for run in runs]
                actions = statistics.median(run["actions"] for run in runs)
                text = f"{engine} {spread(rates)} games/s, {spread(ns)} ns/action"
                if engine == "compiled" and compiled_ran:
                    if bots == "greedy":
                        ok = statistics.median(rates) >= target
                        text += f" [target >= {target:,} games/s: {verdict(ok)}]"
                    else:
                        ok = statistics.median(ns) <= RANDOM_NS
                        text += f" [target <= {RANDOM_NS} ns/action: {verdict(ok)}]"
                parts.append(text)
            print(f"{name}, {bots} bots, {actions:,.0f} actions/game: " + "; ".join(parts))
        for players in HEURISTIC_PLAYERS[name]:
            parts = []
            for engine in rounds:
                runs = [r["games"][name][f"heuristic-{players}"] for r in rounds[engine]]
                rates = [run["games_per_s"] for run in runs]
                actions = statistics.median(run["actions"] for run in runs)
                text = f"{engine} {spread(rates)} games/s"
                if engine == "compiled" and compiled_ran:
                    ok = statistics.median(rates) >= HEURISTIC
                    text += f" [target >= {HEURISTIC:,} games/s: {verdict(ok)}]"
                parts.append(text)
            print(
                f"{name}, heuristic bots, {players} players, {actions:,.0f} actions/game: "
                + "; ".join(parts)
            )
        parts = []
        for engine in rounds:
            setups = [r["games"][name]["setup_us"] for r in rounds[engine]]
            text = f"{engine} {spread(setups, 1)} µs"
            if engine == "compiled" and compiled_ran:
                ok = statistics.median(setups) <= SETUP_US
                text += f" [target <= {SETUP_US:.0f} µs: {verdict(ok)}]"
            parts.append(text)
        print(f"{name}, setup per game (deal and bots): " + "; ".join(parts), flush=True)
        parts = []
        for engine in rounds:
            chunked = [r["games"][name].get("chunk_setup_us") for r in rounds[engine]]
            if None in chunked:
                continue  # no core plays whole chunks in this column
            text = f"{engine} {spread(chunked, 2)} µs"
            if engine == "compiled":
                ok = statistics.median(chunked) <= CHUNK_SETUP_US
                text += f" [target <= {CHUNK_SETUP_US:.0f} µs: {verdict(ok)}]"
            parts.append(text)
        if parts:
            print(
                f"{name}, setup per game in a simulation's chunk (seeds, deal, row, sums): "
                + "; ".join(parts),
                flush=True,
            )
        parts = []
        for engine in rounds:
            playouts = [r["games"][name]["playout_us"] for r in rounds[engine]]
            parts.append(f"{engine} {spread(playouts, 1)} µs")
        print(
            f"{name}, a greedy playout from a quarter into a game (playouts.playout): "
            + "; ".join(parts),
            flush=True,
        )


if __name__ == "__main__":
    if sys.argv[1:2] == [CHILD]:
        child(sys.argv[2])
    else:
        parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
        parser.add_argument(
            "--against",
            type=Path,
            metavar="DIR",
            help="another checkout whose compiled and pure engines take turns with these",
        )
        against = parser.parse_args().against
        if against is not None and not (against / "benchmarks" / HERE.name).is_file():
            parser.error(f"--against {against}: no benchmarks/{HERE.name} there")
        main(against)
