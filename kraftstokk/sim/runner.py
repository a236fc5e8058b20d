"""Play a series of seeded games, in worker processes, with results independent of them.

Game ``i`` of a run with seed ``S`` is played with ``derive_seed(S, i)`` and fresh bots,
so it is the same game whichever process plays it. The games are cut into chunks of
consecutive indices; each chunk gives a :class:`~kraftstokk.sim.metrics.Tally`, and the
tallies are merged in index order. Workers receive only picklable inputs (the deck as a
:class:`~kraftstokk.games.core.DeckTable` and the settings) and rebuild the game
themselves. Ctrl-C stops the run; the games finished before it are kept.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from kraftstokk.errors import KraftstokkError, SimulationError
from kraftstokk.games import registry
from kraftstokk.games.core import DEFAULT_ACTION_CAP, DeckTable, Game, derive_seed, play_game
from kraftstokk.games.spec import GameSpec
from kraftstokk.sim.metrics import Tally

#: Chunks per worker: enough to balance the load and move the progress bar, few enough
#: that sending tallies back costs little.
CHUNKS_PER_WORKER = 16
MAX_CHUNK = 500
#: How worker processes start; None is the platform's default (fork on Linux up to 3.13).
START_METHOD: str | None = None

Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class SimSettings:
    """Everything a worker needs, besides the deck, to play any game of the run."""

    game: str
    players: int
    games: int
    seed: int
    bots: str
    variants: tuple[str, ...] = ()
    action_cap: int = DEFAULT_ACTION_CAP
    first: int = 0  # index of the first game: plays games first .. first + games - 1


@dataclass
class SimOutcome:
    """The tally of the games played, how long they took, and whether Ctrl-C cut it short."""

    tally: Tally
    elapsed: float
    workers: int
    interrupted: bool


def default_workers() -> int:
    """All cores this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def default_bots(game: str) -> str:
    """The game's heuristic bot for every seat, or greedy when it has none."""
    return registry.get_spec(game).default_bot


def build_game(table: DeckTable, settings: SimSettings) -> Game:
    """The game of ``settings``; raises the registry's errors for bad names or counts."""
    return registry.make_game(
        settings.game, table, settings.players, settings.variants, settings.action_cap
    )


def check_arguments(settings: SimSettings) -> None:
    """Check what needs no deck: the game count, the game's name and its player range."""
    if settings.games < 1:
        raise SimulationError(f"--games must be at least 1, not {settings.games}")
    if settings.first < 0:
        raise SimulationError(f"--first-game must be 0 or more, not {settings.first}")
    rules = registry.get_spec(settings.game)
    if not rules.min_players <= settings.players <= rules.max_players:
        raise SimulationError(
            f"{settings.game} is for {rules.min_players}-{rules.max_players} players, "
            f"not {settings.players}"
        )


def check_settings(table: DeckTable, settings: SimSettings) -> Game:
    """Fail early, in the calling process, on anything a worker would trip over."""
    check_arguments(settings)
    game = build_game(table, settings)
    registry.make_bots(game, settings.bots)
    return game


def chunk_bounds(games: int, workers: int) -> list[tuple[int, int]]:
    """Consecutive ``[start, stop)`` ranges covering ``games``.

    With several workers the chunks shrink towards the end (a quarter of each worker's
    share of what is left, down to half the even size), so that the workers run out of
    games at nearly the same time instead of one waiting for the other's last chunk.
    """
    even = max(1, min(MAX_CHUNK, games // (workers * CHUNKS_PER_WORKER)))
    if workers == 1:
        return [(start, min(start + even, games)) for start in range(0, games, even)]
    smallest = max(1, even // 2)
    bounds = []
    start = 0
    while start < games:
        size = max(smallest, min(MAX_CHUNK, (games - start) // (workers * 4)))
        bounds.append((start, min(start + size, games)))
        start += size
    return bounds


def play_chunk(table: DeckTable, settings: SimSettings, game: Game, start: int, stop: int) -> Tally:
    """Play games ``start`` to ``stop - 1`` and tally them."""
    tally = Tally(num_cards=table.size)
    for index in range(start, stop):
        seed = derive_seed(settings.seed, index)
        try:
            bots = registry.make_bots(game, settings.bots)
            record = play_game(game, bots, seed)
        except KraftstokkError as exc:
            raise SimulationError(f"game {index} (seed {seed}): {exc}") from None
        except Exception as exc:  # an engine bug: say which game reproduces it
            raise SimulationError(
                f"game {index} (seed {seed}) failed: {type(exc).__name__}: {exc}"
            ) from exc
        tally.add(index, record)
    return tally


# One game per worker process, set once by the initializer.
_worker: tuple[DeckTable, SimSettings, Game] | None = None


def _init_worker(
    table: DeckTable, settings: SimSettings, spec: GameSpec, game: Game | None
) -> None:
    # A forked worker inherits the parent's game for free, where building it again
    # (Kraftidioten's claim tables) costs several milliseconds. Other start methods would
    # have to pickle it, which the compiled game classes do not support: they build it.
    global _worker
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent handles Ctrl-C
    # The parent turns SIGTERM into Ctrl-C for itself; a worker inherits that handler, but
    # the pool stops its workers with SIGTERM, which must end them quietly.
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if settings.game not in registry.specs():
        registry.register(spec)  # a game registered in the parent, not found by convention
    _worker = (table, settings, game or build_game(table, settings))


def _run_chunk(bounds: tuple[int, int]) -> Tally:
    if _worker is None:
        raise RuntimeError("worker used before its initializer ran")
    table, settings, game = _worker
    return play_chunk(table, settings, game, *bounds)


def _serial(
    table: DeckTable, settings: SimSettings, game: Game, chunks: list[tuple[int, int]]
) -> Iterator[Tally]:
    for start, stop in chunks:
        yield play_chunk(table, settings, game, start, stop)


@contextmanager
def sigterm_as_interrupt() -> Iterator[None]:
    """While inside, SIGTERM stops the run as Ctrl-C does (the games so far are kept and
    the workers end quietly); outside the main thread nothing changes."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def interrupt(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGTERM, interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def run_simulation(
    table: DeckTable,
    settings: SimSettings,
    workers: int | None = None,
    progress: Progress | None = None,
) -> SimOutcome:
    """Play ``settings.games`` games with ``workers`` processes (default: all cores)."""
    game = check_settings(table, settings)
    count = default_workers() if workers is None else workers
    if count < 1:
        raise SimulationError(f"--workers must be at least 1, not {count}")
    count = min(count, settings.games)
    first = settings.first
    chunks = [(first + a, first + b) for a, b in chunk_bounds(settings.games, count)]
    tally = Tally(num_cards=table.size)
    interrupted = False
    started = time.perf_counter()
    if progress:
        progress(0, settings.games)
    stop_on_sigterm = sigterm_as_interrupt()
    try:
        stop_on_sigterm.__enter__()
        if count == 1:
            for part in _serial(table, settings, game, chunks):
                tally.merge(part)
                if progress:
                    progress(tally.games, settings.games)
        else:
            spec = registry.get_spec(settings.game)
            context = multiprocessing.get_context(START_METHOD)
            inherited = game if context.get_start_method() == "fork" else None
            # Leaving the block terminates the workers, also on Ctrl-C or an error.
            with context.Pool(count, _init_worker, (table, settings, spec, inherited)) as pool:
                for part in pool.imap(_run_chunk, chunks):
                    tally.merge(part)
                    if progress:
                        progress(tally.games, settings.games)
    except KeyboardInterrupt:
        interrupted = True
    finally:
        stop_on_sigterm.__exit__(None, None, None)
    elapsed = time.perf_counter() - started
    return SimOutcome(tally=tally, elapsed=elapsed, workers=count, interrupted=interrupted)
