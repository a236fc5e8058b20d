"""The unit of work a backend runs: consecutive chunks of one configuration's games.

A :class:`ChunkTask` holds only picklable, plain inputs (the deck as a
:class:`~kraftstokk.games.core.DeckTable`, the settings and a range of game indices),
so any process on any machine with the same kraftstokk installed plays exactly the
games ``simulate`` would: game *i* from ``derive_seed(seed, i)`` with fresh bots
(:func:`kraftstokk.sim.runner.play_chunk`). A task may span several of the store's
chunks (as many as make it last long enough to be worth sending); its result has one
:class:`ChunkPart` per chunk, each with the tally to store, its sums and its games as a
matrix (for the comparisons).
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from kraftstokk import __version__
from kraftstokk.games import registry
from kraftstokk.games.core import DeckTable, Game
from kraftstokk.games.spec import GameSpec
from kraftstokk.sim.runner import SimSettings, build_game, play_chunk
from kraftstokk.sim.stream import GameMatrix, RunStats, game_matrix
from kraftstokk.sim.tally import Tally

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
    chunk: int  # the store's chunk size: the task is cut into parts at its multiples
    version: str = __version__


@dataclass(frozen=True)
class ChunkPart:
    """One stored chunk's games (or a piece of one: the last chunks are split)."""

    start: int
    stop: int
    tally: Tally
    stats: RunStats
    matrix: GameMatrix


@dataclass(frozen=True)
class ChunkResult:
    key: str
    parts: tuple[ChunkPart, ...]
    seconds: float  # time spent playing, in the worker

    @property
    def games(self) -> int:
        return sum(part.stop - part.start for part in self.parts)


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
    """Play games ``task.start`` to ``task.stop - 1`` of the task's configuration, a part
    per stored chunk."""
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
    parts = []
    players = task.settings.players
    start = task.start
    while start < task.stop:
        stop = min(task.stop, (start // task.chunk + 1) * task.chunk)
        tally = play_chunk(task.table, task.settings, game, start, stop)
        settings = task.settings
        matrix = game_matrix(tally, players, settings.time_model, settings.game)
        parts.append(
            ChunkPart(start, stop, tally, RunStats.of_matrix(matrix, tally, players), matrix)
        )
        start = stop
    return ChunkResult(task.key, tuple(parts), time.perf_counter() - started)
