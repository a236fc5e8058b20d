"""Idiot engine speed in detail: games per CPU second by bot kind, plus a calibration.

The issue's target is 2,000 games/s on one core with 4 greedy players. On a shared or
slow machine the figure drops with everything else, so a calibration loop (ten million
empty iterations of Python) is timed beside it: typical desktop cores take 0.15-0.25 s.
"""

from __future__ import annotations

import time
from pathlib import Path

from _common import default_deck

from kraftstokk.games.core import DeckTable, derive_seed, play_game
from kraftstokk.games.idiot.state import IdiotGame
from kraftstokk.games.registry import make_bots

ROOT = Path(__file__).resolve().parent.parent
PLAYERS = 4
MIN_SECONDS = 1.5
SEED = 6


def calibration_seconds() -> float:
    start = time.process_time()
    for _ in range(10_000_000):
        pass
    return time.process_time() - start


def games_per_second(table: DeckTable, bots: str) -> tuple[float, float]:
    """Games per CPU second and mean actions per game."""
    game = IdiotGame(table, PLAYERS)
    players = make_bots(game, bots)
    played = actions = 0
    start = time.process_time()
    while time.process_time() - start < MIN_SECONDS:
        for _ in range(50):
            actions += play_game(game, players, derive_seed(SEED, played)).result.actions
            played += 1
    return played / (time.process_time() - start), actions / played


def main() -> None:
    table = DeckTable.from_deck(default_deck())
    print(f"calibration: 10M empty loop iterations in {calibration_seconds():.2f} s (CPU)")
    for bots in ("greedy", "heuristic", "random"):
        rate, actions = games_per_second(table, bots)
        target = " (target >= 2,000)" if bots == "greedy" else ""
        print(
            f"idiot, {PLAYERS} {bots} players: {rate:,.0f} games/s per CPU second{target}, "
            f"{actions:.0f} actions per game"
        )


if __name__ == "__main__":
    main()
