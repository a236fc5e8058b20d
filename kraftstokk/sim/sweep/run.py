"""Run a sweep: cut every configuration into chunks, play what is not stored, summarize.

Completed chunks are saved as they arrive, so Ctrl-C (or a lost worker) loses at most
the chunks in flight; the next run with the same sweep file and ``--out`` plays only the
missing ones. A configuration's summary is built exactly as ``simulate`` builds it
(:func:`kraftstokk.sim.session.describe_run`) from the chunks merged in game order, so
it equals ``simulate``'s for the same deck, rules, bots and seed.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kraftstokk.sim.metrics import Tally
from kraftstokk.sim.runner import sigterm_as_interrupt
from kraftstokk.sim.session import describe_run
from kraftstokk.sim.sweep.backends import Backend
from kraftstokk.sim.sweep.grid import Configuration, LoadedDeck, expand, load_decks
from kraftstokk.sim.sweep.model import SweepFile
from kraftstokk.sim.sweep.store import ChunkStore
from kraftstokk.sim.sweep.work import ChunkTask, forget_games, registration

Progress = Callable[[int, int], None]

#: The folder under ``--out`` that keeps completed chunks.
STORE_DIR = "chunks"
#: Pieces the last chunks of a sweep are cut into (see :func:`split_tail`).
TAIL_PIECES = 4


@dataclass
class ConfigurationRun:
    configuration: Configuration
    deck: LoadedDeck
    tally: Tally
    summary: dict[str, Any]
    complete: bool


@dataclass
class SweepRun:
    sweep: SweepFile
    runs: list[ConfigurationRun]
    backend: str
    chunks_total: int
    chunks_stored: int  # found on disk from an earlier run
    chunks_played: int
    elapsed: float
    interrupted: bool
    play_seconds: float = 0.0
    games_played: int = 0
    extra: dict[str, Any] = field(default_factory=dict)


def chunk_ranges(games: int, size: int) -> list[tuple[int, int]]:
    return [(start, min(start + size, games)) for start in range(0, games, size)]


def split_tail(tasks: list[ChunkTask], workers: int) -> list[ChunkTask]:
    """The tasks, with the last few chunks cut into quarters.

    Chunks are the unit of storing and resuming, but a worker that takes a whole chunk
    last keeps the others idle until it ends; quarters at the end let all finish at about
    the same time. The quarters of a chunk are merged again before it is stored.
    """
    if workers < 2:
        return tasks
    tail = 2 * workers
    head, last = tasks[:-tail], tasks[-tail:]
    pieces = []
    for task in last:
        size = max(1, -(-(task.stop - task.start) // TAIL_PIECES))
        for start in range(task.start, task.stop, size):
            pieces.append(dataclasses.replace(task, start=start, stop=min(start + size, task.stop)))
    return head + pieces


def plan(sweep: SweepFile, base: Path) -> tuple[list[Configuration], dict[str, LoadedDeck]]:
    """Load the decks and expand the grid (every error before any game is played)."""
    decks = load_decks(sweep, base)
    return expand(sweep, decks), decks


def _deck_of(configuration: Configuration, decks: dict[str, LoadedDeck]) -> LoadedDeck:
    return decks[configuration.deck]


def _chunk_of(
    chunks: dict[tuple[str, int], tuple[int, int]], key: str, start: int, size: int
) -> tuple[int, int]:
    """The stored chunk a piece of games belongs to (chunks start at multiples of size)."""
    return chunks[(key, start - start % size)]


def _summarize(
    configuration: Configuration,
    decks: dict[str, LoadedDeck],
    parts: dict[int, Tally],
    sweep: SweepFile,
    seconds: float,
) -> ConfigurationRun | None:
    """The configuration's games from 0 on without a gap, summarized as simulate does;
    None when it has none."""
    deck = _deck_of(configuration, decks)
    tally = Tally(num_cards=deck.table.size)
    for start, _ in chunk_ranges(sweep.games, sweep.chunk):
        part = parts.get(start)
        if part is None:
            break
        tally.merge(part)
    if tally.games == 0:
        return None
    complete = tally.games == sweep.games
    summary = describe_run(
        tally,
        deck.table,
        configuration.settings,
        deck.deck,
        configuration.deck_path,
        elapsed=seconds,
        workers=1,
        interrupted=not complete,
        rules=sweep.findings,
    )
    return ConfigurationRun(configuration, deck, tally, summary, complete)


def run_sweep(
    sweep: SweepFile,
    base: Path,
    out_dir: Path,
    backend: Backend,
    progress: Progress | None = None,
) -> SweepRun:
    """Play every configuration's missing chunks on ``backend`` and summarize them all."""
    configurations, decks = plan(sweep, base)
    store = ChunkStore(out_dir / STORE_DIR)
    ranges = chunk_ranges(sweep.games, sweep.chunk)
    parts: dict[str, dict[int, Tally]] = {c.key: {} for c in configurations}
    seconds: dict[str, float] = {c.key: 0.0 for c in configurations}
    tasks: list[ChunkTask] = []
    for configuration in configurations:
        deck = _deck_of(configuration, decks)
        for start, stop in ranges:
            stored = store.load(configuration.key, start, stop)
            if stored is not None:
                parts[configuration.key][start] = stored
                continue
            tasks.append(
                ChunkTask(
                    configuration.key,
                    deck.table,
                    configuration.settings,
                    registration(configuration.settings.game),
                    start,
                    stop,
                )
            )
    total = len(configurations) * len(ranges)
    stored_count = total - len(tasks)
    done = stored_count
    interrupted = False
    played = 0
    games_played = 0
    started = time.perf_counter()
    if progress:
        progress(done, total)
    chunk_of = {(task.key, task.start): (task.start, task.stop) for task in tasks}
    by_key = {configuration.key: configuration for configuration in configurations}
    summaries: dict[str, ConfigurationRun | None] = {}
    pieces: dict[tuple[str, int], dict[int, Tally]] = {}
    try:
        with sigterm_as_interrupt():  # SIGTERM stops the sweep as Ctrl-C does
            for result in backend.run(split_tail(tasks, backend.workers)):
                seconds[result.key] += result.seconds
                games_played += result.tally.games
                start, stop = _chunk_of(chunk_of, result.key, result.start, sweep.chunk)
                got = pieces.setdefault((result.key, start), {})
                got[result.start] = result.tally
                if sum(part.games for part in got.values()) < stop - start:
                    continue  # more pieces of this chunk to come
                tally = Tally(num_cards=result.tally.num_cards)
                for piece_start in sorted(got):
                    tally.merge(got[piece_start])
                del pieces[(result.key, start)]
                # Counted before it is stored: Ctrl-C while the file is written (it may
                # be in place already) must not drop a chunk that was played.
                parts[result.key][start] = tally
                store.save(result.key, start, stop, tally)
                played += 1
                done += 1
                if progress:
                    progress(done, total)
                if len(parts[result.key]) == len(ranges):
                    # Summarized while the workers play on, not all after the last game.
                    configuration = by_key[result.key]
                    summaries[result.key] = _summarize(
                        configuration, decks, parts[result.key], sweep, seconds[result.key]
                    )
    except KeyboardInterrupt:
        interrupted = True
    finally:
        backend.close()
    elapsed = time.perf_counter() - started

    forget_games()
    runs = []
    for configuration in configurations:
        found = summaries.get(configuration.key)
        if found is None:
            found = _summarize(
                configuration, decks, parts[configuration.key], sweep, seconds[configuration.key]
            )
        if found is not None:
            runs.append(found)
    return SweepRun(
        sweep=sweep,
        runs=runs,
        backend=backend.description,
        chunks_total=total,
        chunks_stored=stored_count,
        chunks_played=played,
        elapsed=elapsed,
        interrupted=interrupted,
        play_seconds=sum(seconds.values()),
        games_played=games_played,
    )
