"""Run a sweep: cut every configuration into chunks, play what is not stored, summarize.

Completed chunks are saved as they arrive, so Ctrl-C (or a lost worker) loses at most
the chunks in flight; the next run with the same sweep file and ``--out`` plays only the
missing ones. A configuration's summary is built exactly as ``simulate`` builds it
(:func:`kraftstokk.sim.session.describe_run`) from the chunks merged in game order, so
it equals ``simulate``'s for the same deck, rules, bots and seed.
"""

from __future__ import annotations

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
from kraftstokk.sim.sweep.work import ChunkTask, registration

Progress = Callable[[int, int], None]

#: The folder under ``--out`` that keeps completed chunks.
STORE_DIR = "chunks"


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


def plan(sweep: SweepFile, base: Path) -> tuple[list[Configuration], dict[str, LoadedDeck]]:
    """Load the decks and expand the grid (every error before any game is played)."""
    decks = load_decks(sweep, base)
    return expand(sweep, decks), decks


def _deck_of(configuration: Configuration, decks: dict[str, LoadedDeck]) -> LoadedDeck:
    return decks[configuration.deck]


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
    try:
        with sigterm_as_interrupt():  # SIGTERM stops the sweep as Ctrl-C does
            for result in backend.run(tasks):
                store.save(result.key, result.start, result.stop, result.tally)
                parts[result.key][result.start] = result.tally
                seconds[result.key] += result.seconds
                played += 1
                games_played += result.tally.games
                done += 1
                if progress:
                    progress(done, total)
    except KeyboardInterrupt:
        interrupted = True
    finally:
        backend.close()
    elapsed = time.perf_counter() - started

    runs = []
    for configuration in configurations:
        deck = _deck_of(configuration, decks)
        tally = Tally(num_cards=deck.table.size)
        for start, _ in ranges:  # the games from 0 on without a gap
            part = parts[configuration.key].get(start)
            if part is None:
                break
            tally.merge(part)
        complete = tally.games == sweep.games
        if tally.games == 0:
            continue
        summary = describe_run(
            tally,
            deck.table,
            configuration.settings,
            deck.deck,
            configuration.deck_path,
            elapsed=seconds[configuration.key],
            workers=1,
            interrupted=not complete,
            rules=sweep.findings,
        )
        runs.append(ConfigurationRun(configuration, deck, tally, summary, complete))
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
