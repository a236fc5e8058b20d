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
_games: dict[str, Game] = {}


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
        game = _games[task.key] = build_game(task.table, task.settings)
    tally = play_chunk(task.table, task.settings, game, task.start, task.stop)
    return ChunkResult(task.key, task.start, task.stop, tally, time.perf_counter() - started)
