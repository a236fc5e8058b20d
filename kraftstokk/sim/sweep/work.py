"""The unit of work a backend runs: one chunk of one configuration's games.

A :class:`ChunkTask` holds only picklable, plain inputs (the deck as a
:class:`~kraftstokk.games.core.DeckTable`, the settings and a range of game indices),
so any process on any machine with the same kraftstokk installed plays exactly the
games ``simulate`` would: game *i* from ``derive_seed(seed, i)`` with fresh bots
(:func:`kraftstokk.sim.runner.play_chunk`).
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from kraftstokk import __version__
from kraftstokk.games import registry
from kraftstokk.games.core import DeckTable, Game
from kraftstokk.games.spec import GameSpec
from kraftstokk.sim.metrics import Tally
from kraftstokk.sim.runner import SimSettings, build_game, play_chunk

#: What a worker needs to find a game the parent registered by hand (a test's toy game).
Registration = GameSpec


def registration(game: str) -> Registration:
    """The game's spec, for a worker that does not find the game by convention."""
    return registry.get_spec(game)


def ensure_registered(game: str, found: Registration) -> None:
    if game not in registry.specs():
        registry.register(found)


@dataclass(frozen=True)
class ChunkTask:
    key: str  # the configuration's key
    table: DeckTable
    settings: SimSettings
    registration: Registration
    start: int
    stop: int
    version: str = __version__


@dataclass(frozen=True)
class ChunkResult:
    key: str
    start: int
    stop: int
    tally: Tally
    seconds: float  # time spent playing, in the worker


class WorkerMismatch(RuntimeError):
    """The worker runs another kraftstokk version than the sweep."""


# Games built in this process, by configuration key: building Kraftidioten's claim tables
# costs milliseconds, which a worker pays once per configuration instead of per chunk.
# The parent keeps the games it checked the configurations with (keep_game), so that
# forked workers inherit them and build none.
_games: dict[str, Game] = {}
#: At most this many games are kept (the oldest go first): a long-lived process that
#: plans sweep after sweep keeps only the recent ones.
KEPT_GAMES = 256


def keep_game(key: str, game: Game) -> None:
    """Keep the game of configuration ``key`` for the chunks this process (or its forked
    workers) will play."""
    _games.pop(key, None)
    _games[key] = game
    while len(_games) > KEPT_GAMES:
        del _games[next(iter(_games))]


def forget_games() -> None:
    _games.clear()


def run_chunk(task: ChunkTask) -> ChunkResult:
    """Play games ``task.start`` to ``task.stop - 1`` of the task's configuration."""
    if task.version != __version__:
        raise WorkerMismatch(
            f"the worker has kraftstokk {__version__}, the sweep was started with {task.version}"
        )
    started = time.perf_counter()
    ensure_registered(task.settings.game, task.registration)
    game = _games.get(task.key)
    if game is None:
        game = build_game(task.table, task.settings)
        keep_game(task.key, game)
    tally = play_chunk(task.table, task.settings, game, task.start, task.stop)
    return ChunkResult(task.key, task.start, task.stop, tally, time.perf_counter() - started)
