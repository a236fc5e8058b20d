"""Engine speed: games per second for each game on one core (4 players, greedy bots).

Targets (issue 6): Idiot >= 2,000 games/s, Kraftidioten and Strømkrig >= 1,000 games/s.
The figure is games per CPU second of this process, so that other work on the machine
does not lower it; the wall-clock rate is printed beside it. The first line says whether
the engine runs compiled (``make install`` compiles it with mypyc) or as pure Python.
"""

from __future__ import annotations

import time
from pathlib import Path

from _common import default_deck

from kraftstokk.games import native, registry
from kraftstokk.games.core import DeckTable, derive_seed, play_game

ROOT = Path(__file__).resolve().parent.parent
TARGETS = {"idiot": 2000, "kraftidioten": 1000, "stromkrig": 1000}
PLAYERS = 4
BOTS = "greedy"
MIN_SECONDS = 2.0
SEED = 2026


def measure(game_name: str, table: DeckTable) -> tuple[float, float, int]:
    """Games per CPU second, games per wall second, and games played."""
    game = registry.make_game(game_name, table, PLAYERS)
    for warm in range(20):
        play_game(game, registry.make_bots(game, BOTS), derive_seed(SEED + 1, warm))
    played = 0
    cpu_start, wall_start = time.process_time(), time.perf_counter()
    while True:
        for _ in range(50):
            play_game(game, registry.make_bots(game, BOTS), derive_seed(SEED, played))
            played += 1
        cpu = time.process_time() - cpu_start
        if cpu >= MIN_SECONDS:
            break
    wall = time.perf_counter() - wall_start
    return played / cpu, played / wall, played


def main() -> None:
    table = DeckTable.from_deck(default_deck())
    print(f"engine: {native.engine_status()}", flush=True)
    for name, target in TARGETS.items():
        try:
            per_cpu, per_wall, played = measure(name, table)
        except ImportError as exc:
            print(f"{name}: not available ({exc})")
            continue
        verdict = "ok" if per_cpu >= target else "BELOW TARGET"
        print(
            f"{name} games/s, 1 core, {PLAYERS} players, {BOTS} bots: {per_cpu:,.0f} "
            f"(target >= {target:,}; {verdict}; wall clock {per_wall:,.0f}/s, {played} games)",
            flush=True,
        )


if __name__ == "__main__":
    main()
