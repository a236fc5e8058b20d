"""Run a sweep: plan it within its limits, play what is not stored, summarize as it goes.

:func:`plan` loads the decks, measures what a game costs, refuses a sweep over its
limits (:mod:`kraftstokk.sim.sweep.budget`), checks every configuration and lists the
comparisons (each configuration against its neighbour at the baseline of each
parameter). :func:`run_sweep` then cuts the missing games into tasks sized from the
measured cost, plays them on the backend, and keeps per configuration only the sums of
its chunks (:class:`~kraftstokk.sim.stream.RunStats`); each chunk's tally is stored as it
arrives, so Ctrl-C (or a lost worker) loses at most the chunks in flight and the next run
with the same sweep file and ``--out`` plays only the missing ones. A configuration is
summarized as ``simulate`` summarizes it (:func:`kraftstokk.sim.session.describe_run`)
the moment its last chunk is in, and a comparison is summed game by game
(:class:`~kraftstokk.sim.stream.PairStats`) the moment both its configurations are, from
their chunks' game matrices (kept while a comparison still needs them, within a memory
budget, else read back from the store).
"""

from __future__ import annotations

import dataclasses
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kraftstokk.sim.progress import SweepStatus, remaining
from kraftstokk.sim.runner import SimSettings, sigterm_as_interrupt
from kraftstokk.sim.session import describe_run
from kraftstokk.sim.stream import GameMatrix, PairStats, RunStats, game_matrix
from kraftstokk.sim.sweep.backends import Backend
from kraftstokk.sim.sweep.budget import Cost, Estimate, Limits, check, estimate, measure_costs
from kraftstokk.sim.sweep.grid import (
    Configuration,
    LoadedDeck,
    PlannedPair,
    baseline,
    expand,
    load_decks,
    planned_pairs,
)
from kraftstokk.sim.sweep.model import SweepError, SweepFile
from kraftstokk.sim.sweep.store import ChunkStore
from kraftstokk.sim.sweep.work import ChunkPart, ChunkTask, forget_games, registration
from kraftstokk.sim.tally import Tally

Progress = Callable[[SweepStatus], None]

#: The folder under ``--out`` that keeps completed chunks.
STORE_DIR = "chunks"
#: Pieces the last chunks of a sweep are cut into (see :func:`split_tail`).
TAIL_PIECES = 4
#: A task holds at most this many chunks, however cheap its games.
MAX_TASK_CHUNKS = 64
#: Game matrices kept for comparisons still to sum; past this they are read back.
MATRIX_BUDGET_BYTES = 64 * 1024 * 1024


@dataclass
class ConfigurationRun:
    configuration: Configuration
    deck: LoadedDeck
    stats: RunStats
    summary: dict[str, Any]
    complete: bool


@dataclass
class PairRun:
    """A comparison both of whose configurations completed, summed game by game."""

    plan: PlannedPair
    a: ConfigurationRun
    b: ConfigurationRun
    stats: PairStats

    @property
    def parameter(self) -> str:
        return self.plan.parameter


@dataclass
class SweepPlan:
    """Everything decided before a game is played."""

    sweep: SweepFile
    configurations: list[Configuration]
    decks: dict[str, LoadedDeck]
    pairs: list[PlannedPair]
    baseline: dict[str, object]
    estimate: Estimate
    costs: dict[tuple[str, int, str], Cost]


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
    pairs: list[PairRun] = field(default_factory=list)
    decks: dict[str, LoadedDeck] = field(default_factory=dict)
    baseline: dict[str, object] = field(default_factory=dict)
    planned_pairs: int = 0
    play_seconds: float = 0.0
    games_played: int = 0


def chunk_ranges(games: int, size: int) -> list[tuple[int, int]]:
    return [(start, min(start + size, games)) for start in range(0, games, size)]


def split_tail(tasks: list[ChunkTask], workers: int) -> list[ChunkTask]:
    """The tasks, with the last few cut into their chunks and those into quarters.

    Chunks are the unit of storing and resuming, but a worker that takes a whole task
    last keeps the others idle until it ends; quarters at the end let all finish at about
    the same time. The quarters of a chunk are merged again before it is stored.
    """
    if workers < 2:
        return tasks
    tail = 2 * workers
    head, last = tasks[:-tail], tasks[-tail:]
    pieces = []
    for task in last:
        for start in range(task.start, task.stop, task.chunk):
            stop = min(task.stop, (start // task.chunk + 1) * task.chunk)
            size = max(1, -(-(stop - start) // TAIL_PIECES))
            for piece in range(start, stop, size):
                pieces.append(dataclasses.replace(task, start=piece, stop=min(piece + size, stop)))
    return head + pieces


def task_chunks(cost: float, chunk: int, seconds: float, chunks: int, workers: int) -> int:
    """How many chunks a task holds: enough to last about ``seconds`` at ``cost`` per game,
    few enough that every worker gets several tasks."""
    wanted = round(seconds / (cost * chunk)) if cost > 0 else MAX_TASK_CHUNKS
    balanced = max(1, chunks // (4 * max(1, workers)))
    return max(1, min(wanted, balanced, MAX_TASK_CHUNKS))


def plan(
    sweep: SweepFile,
    base: Path,
    source: str = "sweep",
    limits: Limits | None = None,
    workers: int | None = 1,
    store: ChunkStore | None = None,
) -> SweepPlan:
    """Load the decks, measure, check the limits, expand the grid and list the
    comparisons: every error before any game is played or any worker started.

    ``workers``: how many run at once, for the time estimate (None: not known yet).
    """
    limits = limits or Limits()
    decks = load_decks(sweep, base)
    costs = measure_costs(sweep, decks)
    check(estimate(sweep, costs, workers), limits, source)  # before listing a huge grid
    configurations = expand(sweep, decks)
    values = baseline(sweep)
    pairs = planned_pairs(configurations, values, source)
    ranges = chunk_ranges(sweep.games, sweep.chunk)
    stored = 0
    if store is not None:
        stored = sum(
            stop - start
            for c in configurations
            for start, stop in ranges
            if store.path(c.key, start, stop).is_file()
        )
    found = estimate(sweep, costs, workers, stored, len(pairs))
    check(found, limits, source)
    return SweepPlan(sweep, configurations, decks, pairs, values, found, costs)


class _Matrices:
    """Chunks' game matrices for the comparisons still to sum: the newest in memory
    (up to a budget of bytes), the others read back from the store."""

    def __init__(self, store: ChunkStore, budget: int = MATRIX_BUDGET_BYTES) -> None:
        self.store = store
        self.budget = budget
        self.kept: OrderedDict[tuple[str, int], GameMatrix] = OrderedDict()
        self.starts: dict[str, set[int]] = {}  # per configuration, its chunks kept
        self.bytes = 0

    def keep(self, key: str, start: int, matrix: GameMatrix) -> None:
        self._drop((key, start))
        self.kept[(key, start)] = matrix
        self.starts.setdefault(key, set()).add(start)
        self.bytes += matrix.values.nbytes
        while self.bytes > self.budget and len(self.kept) > 1:
            self._drop(next(iter(self.kept)))

    def _drop(self, item: tuple[str, int]) -> None:
        dropped = self.kept.pop(item, None)
        if dropped is not None:
            self.bytes -= dropped.values.nbytes
            self.starts.get(item[0], set()).discard(item[1])

    def get(self, key: str, start: int, stop: int, settings: SimSettings) -> GameMatrix:
        found = self.kept.get((key, start))
        if found is not None:
            self.kept.move_to_end((key, start))
            return found
        tally = self.store.load(key, start, stop)
        if tally is None:
            raise SweepError(
                f"{self.store.path(key, start, stop)}: a stored chunk went missing while "
                "the sweep ran"
            )
        matrix = game_matrix(tally, settings.players, settings.time_model, settings.game)
        self.keep(key, start, matrix)
        return matrix

    def forget(self, key: str) -> None:
        for start in list(self.starts.pop(key, ())):
            self._drop((key, start))


class _Configurations:
    """Per configuration: the sums of its chunks as they come, until it is complete."""

    def __init__(self, sweep_plan: SweepPlan, ranges: list[tuple[int, int]]) -> None:
        self.plan = sweep_plan
        self.ranges = ranges
        self.chunks: dict[str, dict[int, RunStats]] = {c.key: {} for c in sweep_plan.configurations}
        self.seconds: dict[str, float] = {c.key: 0.0 for c in sweep_plan.configurations}
        self.done: dict[str, ConfigurationRun] = {}

    def add(self, key: str, start: int, stats: RunStats) -> None:
        self.chunks[key][start] = stats

    def complete(self, key: str) -> bool:
        return len(self.chunks[key]) == len(self.ranges)

    def summarize(
        self, configuration: Configuration, final: bool = False
    ) -> ConfigurationRun | None:
        """Its games from 0 on without a gap, summarized as simulate does (None: none);
        ``final``: also an incomplete one (the sweep stops)."""
        key = configuration.key
        if key in self.done:
            return self.done[key]
        if not self.complete(key) and not final:
            return None
        deck = self.plan.decks[configuration.deck]
        stats = RunStats(deck.table.size, configuration.settings.players)
        for start, _ in self.ranges:
            part = self.chunks[key].get(start)
            if part is None:
                break
            stats.merge(part)
        if stats.games == 0:
            return None
        sweep = self.plan.sweep
        complete = stats.games == sweep.games
        summary = describe_run(
            stats,
            deck.table,
            configuration.settings,
            deck.deck,
            configuration.deck_path,
            elapsed=self.seconds[key],
            workers=1,
            interrupted=not complete,
            rules=sweep.findings.rules(),
        )
        found = ConfigurationRun(configuration, deck, stats, summary, complete)
        if complete:
            self.done[key] = found
            del self.chunks[key]
        return found


def _pair_stats(pair: PlannedPair, ranges: list[tuple[int, int]], matrices: _Matrices) -> PairStats:
    players_a, players_b = pair.a.settings.players, pair.b.settings.players
    total = PairStats(players_a, players_b)
    for start, stop in ranges:
        total.merge(
            PairStats.of_matrices(
                matrices.get(pair.a.key, start, stop, pair.a.settings),
                matrices.get(pair.b.key, start, stop, pair.b.settings),
                players_a,
                players_b,
            )
        )
    return total


def run_sweep(
    sweep_plan: SweepPlan,
    out_dir: Path,
    backend: Backend,
    progress: Progress | None = None,
) -> SweepRun:
    """Play every configuration's missing chunks on ``backend`` and summarize them all."""
    sweep = sweep_plan.sweep
    configurations = sweep_plan.configurations
    store = ChunkStore(out_dir / STORE_DIR)
    ranges = chunk_ranges(sweep.games, sweep.chunk)
    state = _Configurations(sweep_plan, ranges)
    matrices = _Matrices(store)
    waiting: dict[str, list[PlannedPair]] = {c.key: [] for c in configurations}
    for pair in sweep_plan.pairs:
        waiting[pair.a.key].append(pair)
        waiting[pair.b.key].append(pair)
    tasks: list[ChunkTask] = []
    for configuration in configurations:
        deck = sweep_plan.decks[configuration.deck]
        players = configuration.settings.players
        missing: list[tuple[int, int]] = []
        for start, stop in ranges:
            stored = store.load(configuration.key, start, stop)
            if stored is None:
                missing.append((start, stop))
                continue
            settings = configuration.settings
            matrix = game_matrix(stored, players, settings.time_model, settings.game)
            state.add(configuration.key, start, RunStats.of_matrix(matrix, stored, players))
            if waiting[configuration.key]:
                matrices.keep(configuration.key, start, matrix)
        cost = sweep_plan.costs.get(
            (configuration.settings.game, players, configuration.settings.bots)
        )
        per_task = task_chunks(
            cost.seconds if cost else 0.0,
            sweep.chunk,
            backend.task_seconds,
            len(configurations) * len(ranges),
            backend.workers,
        )
        for at in range(0, len(missing), per_task):
            group = missing[at : at + per_task]
            # A task covers consecutive missing chunks only.
            spans: list[list[tuple[int, int]]] = []
            for bounds in group:
                if spans and spans[-1][-1][1] == bounds[0]:
                    spans[-1].append(bounds)
                else:
                    spans.append([bounds])
            for span in spans:
                tasks.append(
                    ChunkTask(
                        configuration.key,
                        deck.table,
                        configuration.settings,
                        registration(configuration.settings.game),
                        span[0][0],
                        span[-1][1],
                        sweep.chunk,
                    )
                )
    total = len(configurations) * len(ranges)
    stored_count = total - sum(1 for t in tasks for _ in range(t.start, t.stop, sweep.chunk))
    done = stored_count
    games_left = sum(task.stop - task.start for task in tasks)
    by_key = {configuration.key: configuration for configuration in configurations}
    pair_runs: dict[PlannedPair, PairRun] = {}

    def finish(configuration: Configuration) -> None:
        """Summarize a completed configuration and sum the comparisons it completes."""
        found = state.summarize(configuration)
        if found is None:
            return
        for pair in waiting[configuration.key]:
            if pair in pair_runs:
                continue
            a, b = state.done.get(pair.a.key), state.done.get(pair.b.key)
            if a is not None and b is not None:
                pair_runs[pair] = PairRun(pair, a, b, _pair_stats(pair, ranges, matrices))
                for side in (pair.a.key, pair.b.key):
                    if all(p in pair_runs for p in waiting[side]):
                        matrices.forget(side)

    for configuration in configurations:
        if state.complete(configuration.key):
            finish(configuration)
    interrupted = False
    played = 0
    games_played = 0
    started = time.perf_counter()

    def report(finished: Configuration | None = None, games: int = 0) -> None:
        if progress is None:
            return
        playing = next((c for c in configurations if c.key not in state.done), None)
        # Begun and not complete, and the next one in play (its chunks are on their way).
        running = tuple(
            (f"#{c.number} {c.label}", (len(state.chunks[c.key]), len(ranges)))
            for c in configurations
            if c.key not in state.done and (state.chunks[c.key] or c is playing)
        )
        eta = remaining(games_played, games_left, time.perf_counter() - started)
        if eta is None and games_left:
            eta = sweep_plan.estimate.seconds
        progress(
            SweepStatus(
                chunks_done=done,
                chunks_total=total,
                configurations_done=len(state.done),
                configurations_total=len(configurations),
                eta=eta,
                playing=f"#{playing.number} {playing.label}" if playing else "",
                finished=f"#{finished.number} {finished.label}" if finished else "",
                finished_games=games,
                finished_seconds=state.done[finished.key].summary["elapsed_seconds"]
                if finished and finished.key in state.done
                else 0.0,
                running=running,
            )
        )

    report()
    pieces: dict[tuple[str, int], list[ChunkPart]] = {}
    try:
        with sigterm_as_interrupt():  # SIGTERM stops the sweep as Ctrl-C does
            for result in backend.run(split_tail(tasks, backend.workers)):
                key = result.key
                configuration = by_key[key]
                state.seconds[key] += result.seconds
                games_played += result.games
                for part in result.parts:
                    start = part.start - part.start % sweep.chunk
                    stop = min(start + sweep.chunk, sweep.games)
                    if (part.start, part.stop) != (start, stop):
                        got = pieces.setdefault((key, start), [])
                        got.append(part)
                        if sum(p.stop - p.start for p in got) < stop - start:
                            continue  # more pieces of this chunk to come
                        part = _joined(sorted(got, key=lambda p: p.start), configuration)
                        del pieces[(key, start)]
                    # Counted before it is stored: Ctrl-C while the file is written (it
                    # may be in place already) must not drop a chunk that was played.
                    state.add(key, start, part.stats)
                    played += 1
                    done += 1
                    if waiting[key]:
                        matrices.keep(key, start, part.matrix)
                    store.save(key, start, stop, part.tally)
                if state.complete(key) and key not in state.done:
                    finish(configuration)  # while the workers play on
                    report(configuration, sweep.games)
                else:
                    report()
    except KeyboardInterrupt:
        interrupted = True
    finally:
        backend.close()
    elapsed = time.perf_counter() - started

    forget_games()
    runs = []
    for configuration in configurations:
        found = state.summarize(configuration, final=True)
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
        pairs=[pair_runs[pair] for pair in sweep_plan.pairs if pair in pair_runs],
        decks=sweep_plan.decks,
        baseline=sweep_plan.baseline,
        planned_pairs=len(sweep_plan.pairs),
        play_seconds=sum(state.seconds.values()),
        games_played=games_played,
    )


def _joined(parts: list[ChunkPart], configuration: Configuration) -> ChunkPart:
    """The pieces of one chunk as one part (tallies merged in game order, sums added)."""
    tally = Tally(num_cards=parts[0].tally.num_cards)
    stats = RunStats(parts[0].stats.num_cards, configuration.settings.players)
    for part in parts:
        tally.merge(part.tally)
        stats.merge(part.stats)
    settings = configuration.settings
    matrix = game_matrix(tally, settings.players, settings.time_model, settings.game)
    return ChunkPart(parts[0].start, parts[-1].stop, tally, stats, matrix)
