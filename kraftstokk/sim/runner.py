"""Play a series of seeded games, in worker processes, with results independent of them.

Game ``i`` of a run with seed ``S`` is played with ``derive_seed(S, i)`` and fresh bots,
so it is the same game whichever process plays it. The games are cut into chunks of
consecutive indices; each chunk is played in one call by a game's native core (or game
by game into a :class:`~kraftstokk.sim.tally.Tally`) and reduced to its sums
(:class:`~kraftstokk.sim.stream.RunStats`), which add up exactly in any order: the parent
keeps only those, so its memory does not grow with the run. Workers send their chunks as
played and the parent sums them (vectorized, a fraction of a millisecond a chunk), so
that a worker never loads numpy: in a run of a second, loading it took a worker as long
as a tenth of its games. A paired run (:func:`run_paired`, ``simulate
--compare``) plays each chunk with both decks and sums the products of their figures
game by game too (:class:`~kraftstokk.sim.stream.PairStats`). Workers receive only
picklable inputs (the decks as :class:`~kraftstokk.games.core.DeckTable` and the
settings); forked ones inherit the games, others build them. The pool is the runner's own
(:class:`_Workers`: two pipes per worker; the parent's one thread besides its own reads a
head start's pipe while the command loads what it needs after the games). Ctrl-C stops the run;
the games finished before it are kept.
"""

from __future__ import annotations

import gc
import os
import select
import signal
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Protocol, TypeAlias, TypeVar

from kraftstokk.errors import KraftstokkError, SimulationError
from kraftstokk.games import registry
from kraftstokk.games.core import DEFAULT_ACTION_CAP, DeckTable, Game, derive_seed
from kraftstokk.games.fastcore import MAX_SEED, NativeChunk, native_core
from kraftstokk.games.runner import native_record, play_game
from kraftstokk.games.spec import GameSpec
from kraftstokk.sim import forked

try:
    import fcntl
except ImportError:  # not POSIX: pipes keep their size
    fcntl = None  # type: ignore[assignment]

if TYPE_CHECKING:
    from kraftstokk.sim.forked import Channel
    from kraftstokk.sim.pace import Pace
    from kraftstokk.sim.stream import ChunkTotals, GameMatrix, PairStats, RunStats
    from kraftstokk.sim.tally import Tally

# The sums (sim/stream.py) and the time model (sim/pace.py) load numpy: they are imported
# where a chunk is summed, in the parent only, and after its workers are forked.
# ``multiprocessing`` is imported where worker processes start: the head start, forked
# once this module is loaded, and a run that adopts it and starts no other, go without it
# (their pipes are ``forked.PipeEnd``, waited for with ``forked.readable``).

#: Chunks per worker: enough to balance the load and move the progress bar, few enough
#: that sending tallies back costs little.
CHUNKS_PER_WORKER = 16
#: The most games in a chunk: a core plays a chunk in one call and its sums cost the same
#: whatever its size (about 0.3 ms), so large chunks make them a small part of each game;
#: 2,000 games are a few tens of milliseconds of play (Ctrl-C and the progress bar wait
#: no longer than that).
MAX_CHUNK = 2_000
#: How worker processes start; None: :func:`start_method` chooses.
START_METHOD: str | None = None
#: Bytes the pipe from a worker to the parent holds. A chunk's games as played are a few
#: hundred kB (2,000 Idiot games: 386 kB), where a pipe holds 64 kB unless told: a worker
#: then waited in ``send`` until the parent read, which it does only between chunks of its
#: own, and in a 20,000-game run waited a quarter of its time. 1 MB (Linux's default limit
#: for a pipe, ``/proc/sys/fs/pipe-max-size``) takes two such chunks.
PIPE_BYTES = 1 << 20
#: The most workers whose pipes are widened (16 MB): a user's pipes beyond Linux's soft
#: limit (``/proc/sys/fs/pipe-user-pages-soft``, 64 MB by default) make every new pipe of
#: that user, other programs' too, 8 kB while the run lasts. More workers' pipes keep 64 kB
#: (their sends wait for the parent, as before the widening).
WIDE_PIPES = 16

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
    #: The time model of the minutes at a table (None: ``pace.toml``'s).
    pace: Pace | None = None

    @property
    def time_model(self) -> Pace:
        from kraftstokk.sim.pace import default_pace

        return self.pace or default_pace()


@dataclass
class ChunkSums:
    """What a chunk sends back: each deck's sums, and for two decks their paired sums."""

    runs: tuple[RunStats, ...]
    pair: PairStats | None = None

    def merge(self, other: ChunkSums) -> None:
        for mine, theirs in zip(self.runs, other.runs, strict=True):
            mine.merge(theirs)
        if self.pair is not None and other.pair is not None:
            self.pair.merge(other.pair)


@dataclass
class SimOutcome:
    """The sums of the games played, how long they took, and whether Ctrl-C cut it short.

    ``other`` and ``pair``: the second deck's sums and the paired sums of a paired run.
    ``parent_play_seconds``: the CPU seconds this process spent playing chunks itself
    (the rest of its CPU time is the run's bookkeeping).
    """

    stats: RunStats
    elapsed: float
    workers: int
    interrupted: bool
    other: RunStats | None = None
    pair: PairStats | None = None
    parent_play_seconds: float = 0.0


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


def run_chunks(games: int, workers: int, first: int = 0) -> list[tuple[int, int]]:
    """The chunks of a run of ``games`` games from game ``first`` on (:func:`chunk_bounds`)."""
    return [(first + a, first + b) for a, b in chunk_bounds(games, workers)]


def chunk_bounds(games: int, workers: int) -> list[tuple[int, int]]:
    """Consecutive ``[start, stop)`` ranges covering ``games``.

    With several workers the chunks shrink towards the end (a quarter of each worker's
    share of what is left, down to a quarter of the even size), so that the workers run
    out of games at nearly the same time instead of one waiting for the other's last
    chunk.
    """
    even = max(1, min(MAX_CHUNK, games // (workers * CHUNKS_PER_WORKER)))
    if workers == 1:
        return [(start, min(start + even, games)) for start in range(0, games, even)]
    smallest = max(1, even // 4)
    bounds = []
    start = 0
    while start < games:
        size = max(smallest, min(MAX_CHUNK, (games - start) // (workers * 4)))
        bounds.append((start, min(start + size, games)))
        start += size
    return bounds


def play_sums(
    tables: tuple[DeckTable, ...],
    settings: SimSettings,
    games: tuple[Game, ...],
    start: int,
    stop: int,
) -> ChunkSums:
    """Play games ``start`` to ``stop - 1`` with each deck and reduce them to their sums."""
    return chunk_sums(play_raw(tables, settings, games, start, stop), tables, settings, start)


#: A chunk's games as played, before their sums: a native core's chunk, or a tally.
#: (The tally's module is loaded where a chunk is played game by game or summed: a run's
#: head start, forked before it, plays native chunks without it.)
Played: TypeAlias = "NativeChunk | Tally"


def play_raw(
    tables: tuple[DeckTable, ...],
    settings: SimSettings,
    games: tuple[Game, ...],
    start: int,
    stop: int,
) -> tuple[Played, ...]:
    """Games ``start`` to ``stop - 1`` played with each deck, as played (no numpy: what a
    worker does; the parent sums them, :func:`chunk_sums`)."""
    return tuple(
        play_played(table, settings, game, start, stop)
        for table, game in zip(tables, games, strict=True)
    )


def play_played(
    table: DeckTable, settings: SimSettings, game: Game, start: int, stop: int
) -> Played:
    """Games ``start`` to ``stop - 1`` as played: in one call by the game's native core
    where it has one for these bots (``NativeCore.play_chunk``), else game by game into a
    tally (:func:`play_chunk`). Both give the same sums; a failure in the core is played
    again game by game, which names the game."""
    core = native_core(game, registry.make_bots(game, settings.bots))
    if core is None:
        return play_chunk(table, settings, game, start, stop)
    try:
        return core.play_chunk(settings.seed & MAX_SEED, start, stop)
    except Exception:
        play_chunk(table, settings, game, start, stop)  # raises, naming the game
        raise


def played_matrix(
    played: Played, table: DeckTable, settings: SimSettings, start: int
) -> tuple[GameMatrix, ChunkTotals]:
    """A chunk's games as played from game ``start`` on, as their matrix (with their
    minutes at a table) and totals."""
    from kraftstokk.sim.stream import ChunkTotals, core_chunk, game_matrix
    from kraftstokk.sim.tally import Tally

    players, pace, name = settings.players, settings.time_model, settings.game
    if isinstance(played, Tally):
        return game_matrix(played, players, pace, name), ChunkTotals.of_tally(played)
    return core_chunk(played, players, table.size, start, pace, name)


def chunk_matrix(
    table: DeckTable, settings: SimSettings, game: Game, start: int, stop: int
) -> tuple[GameMatrix, ChunkTotals]:
    """Games ``start`` to ``stop - 1`` as their matrix and totals (:func:`play_played`,
    :func:`played_matrix`)."""
    return played_matrix(play_played(table, settings, game, start, stop), table, settings, start)


def chunk_sums(
    played: tuple[Played, ...], tables: tuple[DeckTable, ...], settings: SimSettings, start: int
) -> ChunkSums:
    """The sums of a chunk's games played from game ``start`` on (:func:`play_raw`)."""
    from kraftstokk.sim.stream import PairStats, RunStats

    players = settings.players
    chunks = [
        played_matrix(one, table, settings, start)
        for one, table in zip(played, tables, strict=True)
    ]
    runs = tuple(RunStats.of_chunk(matrix, totals, players) for matrix, totals in chunks)
    if len(chunks) == 1:
        return ChunkSums(runs)
    return ChunkSums(runs, PairStats.of_matrices(chunks[0][0], chunks[1][0], players, players))


def play_chunk(table: DeckTable, settings: SimSettings, game: Game, start: int, stop: int) -> Tally:
    """Play games ``start`` to ``stop - 1`` and tally them.

    Each game is ``play_game`` with fresh bots. Where a native core plays those bots, it is
    looked up once for the chunk and asked for each game (what ``play_game`` would do with
    every new set of the same bots), which saves making the bots and finding the core
    game by game.
    """
    from kraftstokk.sim.tally import Tally

    tally = Tally(num_cards=table.size, names=registry.get_spec(settings.game).counter_names())
    add = tally.add
    make_bots = registry.bot_maker(game, settings.bots)
    core = native_core(game, make_bots())
    series = settings.seed
    for index in range(start, stop):
        seed = derive_seed(series, index)
        try:
            if core is not None:
                record = native_record(game, seed, core.play(seed))
            else:
                record = play_game(game, make_bots(), seed)
        except KraftstokkError as exc:
            raise SimulationError(f"game {index} (seed {seed}): {exc}") from None
        except Exception as exc:  # an engine bug: say which game reproduces it
            raise SimulationError(
                f"game {index} (seed {seed}) failed: {type(exc).__name__}: {exc}"
            ) from exc
        add(index, record)
    return tally


def start_method() -> str:
    """How worker processes start: :data:`START_METHOD` if set, else fork where it is safe.

    Fork starts a worker in a few milliseconds and hands it the parent's game without
    pickling, but a child forked while another thread of the parent holds a lock (a
    server thread, a watchdog) may wait on that lock forever. On Linux this forks only
    when the parent runs no other Python thread and uses forkserver otherwise (whose
    server is a fresh single-threaded process); elsewhere the platform's default.
    """
    if START_METHOD is not None:
        return START_METHOD
    if sys.platform.startswith("linux"):
        return "fork" if threading.active_count() == 1 else "forkserver"
    import multiprocessing

    return multiprocessing.get_context().get_start_method()


def _worker_main(
    orders: Channel,
    results: Channel,
    tables: tuple[DeckTable, ...],
    settings: SimSettings,
    spec: GameSpec,
    inherited: tuple[Game, ...] | None,
    ahead: dict[tuple[int, int], tuple[Played, ...]] | None = None,
    parent: int | None = None,
) -> None:
    """A worker: play the chunks the parent sends, answer each with its games as played
    (:class:`PlayedChunk`; the parent sums them, so a worker never loads numpy, which
    would take a short run's worker as long as its games).

    The parent sends ``(start, stop)`` or None (stop) on ``orders``; the games go back on
    ``results``. A failure goes back as ``(exception,)`` and ends the worker. ``ahead``:
    chunks played before they were asked for (a head start's), by their bounds.
    ``parent``: the forking parent's process id (a forked worker ends with it).
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent handles Ctrl-C
    # The parent turns SIGTERM into Ctrl-C for itself; a worker inherits that handler, but
    # the parent stops its workers with SIGTERM, which must end them quietly.
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    forked.release_stops()
    if parent is not None:  # (the head start asked already)
        forked.end_with_parent(parent)
    try:
        if registry.known_spec(settings.game) is None:
            registry.register(spec)  # a game registered in the parent, not by convention
        # A forked worker inherits the parent's game for free, where building it again
        # (Kraftidioten's claim tables) costs milliseconds; other start methods would have
        # to pickle it, which the compiled game classes do not support: they build it.
        games = inherited or tuple(build_game(table, settings) for table in tables)
        while (bounds := orders.recv()) is not None:
            played = (ahead or {}).pop(tuple(bounds), None)
            if played is None:
                played = play_raw(tables, settings, games, *bounds)
            results.send(PlayedChunk(bounds[0], played))
    except (EOFError, OSError):  # the parent has gone or stopped listening: just end
        pass
    except Exception as exc:  # goes to the parent, which raises it
        send_failure(results, exc)
    finally:
        orders.close()
        results.close()


def serve_head_start(
    orders: Channel,
    results: Channel,
    prepared: tuple[tuple[DeckTable, ...], SimSettings, tuple[Game, ...]] | None,
    ahead: dict[tuple[int, int], tuple[Played, ...]],
) -> None:
    """The head start (``sim/head_start.py``) once adopted: the parent's decks, settings
    and game spec come first; the chunks it played ahead are kept only when it guessed
    those decks and the settings that decide how the games are played."""
    try:
        tables, settings, spec = orders.recv()
    except (EOFError, OSError):  # the parent did not need it
        return
    games: tuple[Game, ...] | None = None
    if prepared is not None and prepared[0] == tables and _plays_as(prepared[1], settings):
        games = prepared[2]
    else:
        ahead = {}
    _worker_main(orders, results, tables, settings, spec, games, ahead)


def _plays_as(one: SimSettings, other: SimSettings) -> bool:
    """Whether a game of the same number is the same game under both settings (the count
    of games, the first game and the time model decide no game)."""
    return replace(one, games=0, first=0, pace=None) == replace(other, games=0, first=0, pace=None)


@dataclass(frozen=True)
class PlayedChunk:
    """What a worker sends for a chunk: its first game's index and its games as played
    (a native core's rows are a few hundred kB for 2,000 games)."""

    start: int
    played: tuple[Played, ...]


def widen(connection: Channel) -> None:
    """Let the pipe of ``connection`` hold :data:`PIPE_BYTES` where the system allows it
    (Linux; elsewhere, or beyond the user's limit, it keeps its size)."""
    resize = getattr(fcntl, "F_SETPIPE_SZ", None) if fcntl is not None else None
    if resize is not None:
        with suppress(OSError):
            fcntl.fcntl(connection.fileno(), resize, PIPE_BYTES)


def send_failure(connection: Channel, exc: Exception) -> None:
    """Send a worker's failure to the parent, whole, or its words when it cannot be pickled."""
    try:
        connection.send((exc,))  # pickled whole before anything is written
    except OSError:  # the parent has gone
        pass
    except Exception:  # not picklable: its words are enough
        with suppress(OSError):
            connection.send((SimulationError(f"{type(exc).__name__}: {exc}"),))


#: ``receive``'s message not read yet (its connection is read).
_UNREAD = object()


class _Workers:
    """``count`` workers playing chunks: the parent and ``count - 1`` processes.

    Each process has two pipes of its own (chunks to play in, games as played out, the
    latter wide enough for two chunks: :data:`PIPE_BYTES`) and ``AHEAD`` chunks sent to
    it (a head start: those it played ahead and one more, on top), so it plays on while
    the parent, busy with a chunk of its own, has not read the last ones. Between chunks
    of its own the parent feeds the processes, and once no chunk is left for it, it
    sleeps in ``wait`` until sums come; it hands them on in chunk order. Its one thread
    (:class:`~kraftstokk.sim.forked.Drain`) only reads a head start's pipe while
    ``meanwhile`` runs.
    The parent playing saves a process's start and its copy-on-write faults: with games
    of microseconds, a noticeable part of a run.
    """

    AHEAD = 2

    def __init__(
        self,
        count: int,
        tables: tuple[DeckTable, ...],
        settings: SimSettings,
        games: tuple[Game, ...],
    ) -> None:
        self._local: tuple[tuple[DeckTable, ...], SimSettings, tuple[Game, ...]] | None = (
            tables,
            settings,
            games,
        )
        self._tables, self._settings = tables, settings
        self.play_seconds = 0.0  # CPU seconds the parent spent playing its own chunks
        spec = registry.get_spec(settings.game)
        self._processes: list[WorkerProcess] = []
        #: Where each process's games as played arrive, and where its chunks are sent.
        self._connections: list[Channel] = []
        self._orders: dict[Channel, Channel] = {}
        #: Chunks the first process played before it was asked (a head start's).
        self._played_ahead = 0
        if count > 1:
            self._adopt_head_start(tables, settings, spec)
        try:
            self._start(count - 1 - len(self._processes), games, spec)
        except BaseException:
            self.close()
            raise

    def _start(self, count: int, games: tuple[Game, ...], spec: GameSpec) -> None:
        """Start ``count`` worker processes with ``multiprocessing`` (not loaded for none:
        ``-w 2`` with its head start adopted needs no more, and 8 ms of CPU less)."""
        if count < 1:
            return
        tables, settings = self._tables, self._settings
        import multiprocessing

        method = start_method()
        context: Any = multiprocessing.get_context(method)  # typeshed: no Process
        if method == "forkserver":
            context.set_forkserver_preload([__name__])
        inherited = games if method == "fork" else None
        parent = os.getpid() if method == "fork" else None  # forkserver's: the server
        # A forked worker's collector would walk (and so copy) every object it inherits;
        # frozen, they are left out of its collections.
        freeze = method == "fork" and gc.isenabled()
        if freeze:
            gc.freeze()
        try:
            with forked.stops_held(forking=method == "fork"):
                for _ in range(count):
                    orders, to_worker = context.Pipe(duplex=False)
                    from_worker, results = context.Pipe(duplex=False)
                    if len(self._processes) < WIDE_PIPES:  # (the head start's is the first)
                        widen(results)
                    self._connections.append(from_worker)
                    self._orders[from_worker] = to_worker
                    forked.parent_side(to_worker, from_worker)  # not kept by the next worker
                    process = context.Process(
                        target=_worker_main,
                        args=(orders, results, tables, settings, spec, inherited, None, parent),
                        name="kraftstokk-sim",
                        daemon=True,
                    )
                    try:
                        process.start()
                    finally:
                        orders.close()
                        results.close()
                    self._processes.append(process)
        finally:
            if freeze:
                gc.unfreeze()

    def _adopt_head_start(
        self, tables: tuple[DeckTable, ...], settings: SimSettings, spec: GameSpec
    ) -> None:
        """Make the head start (``sim/head_start.py``), when there is one, the first
        process: it gets the run's decks and settings, and the first chunks it played
        ahead (used when it guessed the run)."""
        head = forked.take()
        if head is None:
            return
        try:
            if head.process.exitcode is not None:
                raise OSError("the head start has ended")
            head.orders.send((tables, settings, spec))
        except OSError:  # not there to adopt: stopped at the exit
            head.process.terminate()
            return
        self._connections.append(head.results)
        self._orders[head.results] = head.orders
        self._processes.append(head.process)
        self._played_ahead = forked.CHUNKS

    def sums(
        self, chunks: list[tuple[int, int]], meanwhile: Callable[[], object] | None = None
    ) -> Iterator[ChunkSums]:
        """The chunks' sums, in the order of ``chunks`` (``meanwhile`` is called once the
        processes have their first chunks).

        A worker's failure is raised when its chunk's turn comes, so the error is the
        first failing game's whatever the workers' timing (a worker plays its chunks in
        the order sent, so the one it failed on is the first it still had).
        """
        wait = forked.readable
        waiting = list(enumerate(chunks))[::-1]  # next chunk last
        sent: dict[Channel, deque[int]] = {c: deque() for c in self._connections}

        def feed(connection: Channel) -> None:
            if waiting:
                number, bounds = waiting.pop()
                sent[connection].append(number)
                with suppress(OSError):  # a worker gone: its pipe tells why, read next
                    self._orders[connection].send(bounds)

        def receive(connection: Channel, message: Any = _UNREAD) -> None:
            numbers = sent[connection]
            try:
                if message is _UNREAD:
                    message = connection.recv()
            except (EOFError, OSError):  # closed, or reset with chunks unread
                process = self._processes[self._connections.index(connection)]
                process.join(1.0)
                if process.exitcode in (-signal.SIGTERM, -signal.SIGINT):
                    raise KeyboardInterrupt from None  # stopped with the whole group
                arrived[numbers[0]] = SimulationError(
                    f"a worker process ended unexpectedly (exit code {process.exitcode})"
                )
                numbers.clear()
                return
            if isinstance(message, tuple):  # the worker failed and has ended
                arrived[numbers[0]] = message[0]
                numbers.clear()
                return
            arrived[numbers.popleft()] = self._summed(message)
            # ``AHEAD`` in flight (the head start's chunks played ahead come on top, once):
            # more would be chunks the parent, out of its own, waits for at the end.
            if len(numbers) < self.AHEAD:
                feed(connection)

        arrived: dict[int, ChunkSums | BaseException] = {}
        for _ in range(self._played_ahead):  # the head start has them played: to it first
            feed(self._connections[0])
        for _ in range(self.AHEAD):
            for connection in self._connections:
                feed(connection)
        if meanwhile and self._played_ahead and hasattr(select, "poll"):
            # The head start's chunks played ahead fill most of its pipe (two 2,000-game
            # chunks: 770 kB of 1 MB): it would wait in ``send`` with the next one until
            # this process reads, after ``meanwhile`` (15 ms of a -w 2 run's 240). A
            # thread reads its pipe meanwhile; what it read is summed after. And one
            # chunk more to play: this process feeds it again only once it has summed
            # what the thread read (the head start waited 7 ms for it).
            head = self._connections[0]
            feed(head)
            drain = forked.Drain(head)
            try:
                meanwhile()
            except BaseException:
                with suppress(Exception):  # what stopped the run is said, not what followed
                    drain.stop()  # and a run being stopped sums nothing more
                raise
            for message in drain.stop():
                receive(head, message)
        elif meanwhile:
            meanwhile()
        following = 0
        while following < len(chunks):
            while following in arrived:
                part = arrived.pop(following)
                if isinstance(part, BaseException):
                    raise part
                yield part
                following += 1
            busy = [c for c in self._connections if sent[c]]
            if following == len(chunks):
                break
            playing = self._local is not None and bool(waiting)
            ready_now = wait(busy, timeout=0) if playing else wait(busy) if busy else []
            if playing and not ready_now:
                self._play_one(waiting.pop(), arrived)
                continue
            if not ready_now:
                break
            for ready in ready_now:
                receive(ready)
        if following < len(chunks):
            raise SimulationError(f"no worker left to play chunk {following}")

    def _summed(self, chunk: PlayedChunk) -> ChunkSums | BaseException:
        """A worker's chunk, summed as it arrives: a chunk that waits for its turn (while
        another worker is slow with an earlier one) waits as its sums, a twentieth of its
        games as played. A failure is kept for its turn."""
        try:
            return chunk_sums(chunk.played, self._tables, self._settings, chunk.start)
        except Exception as exc:
            return exc

    def _play_one(
        self,
        chunk: tuple[int, tuple[int, int]],
        arrived: dict[int, ChunkSums | BaseException],
    ) -> None:
        """The parent plays a chunk; a failure is kept for its turn, and ends its playing."""
        if self._local is None:
            raise RuntimeError("the parent stopped playing after a failure")
        number, (start, stop) = chunk
        tables, settings, games = self._local
        began = time.process_time()
        try:
            arrived[number] = play_sums(tables, settings, games, start, stop)
        except Exception as exc:  # raised in chunk order, as a worker's failure is
            arrived[number] = exc
            self._local = None
        finally:
            self.play_seconds += time.process_time() - began

    def close(self, finished: bool = False) -> None:
        """Stop the workers.

        ``finished``: every tally is in, so the workers are idle and end when told; the
        parent does not wait for them to exit (``multiprocessing`` reaps them). Else
        (Ctrl-C, an error) they are stopped with SIGTERM and waited for.
        """
        pipes = [*self._connections, *self._orders.values()]
        if finished:
            for orders in self._orders.values():
                with suppress(OSError):  # that worker has gone already
                    orders.send(None)
            for pipe in pipes:
                pipe.close()
            self._processes.clear()
        else:
            stop_processes(self._processes, pipes)
        self._connections.clear()
        self._orders.clear()


class WorkerProcess(Protocol):
    """A worker process as the runner stops it: a ``multiprocessing`` one, or the head start."""

    @property
    def exitcode(self) -> int | None: ...

    def terminate(self) -> None: ...

    def join(self, timeout: float | None = None) -> None: ...


Worker = TypeVar("Worker", bound=WorkerProcess)
Pipe = TypeVar("Pipe", bound="Channel")


def stop_processes(processes: list[Worker], connections: list[Pipe]) -> None:
    """Stop worker processes with SIGTERM, wait for them, close their pipes, forget both."""
    for process in processes:
        if process.exitcode is None:
            process.terminate()
    for process in processes:
        process.join()
    for connection in connections:
        connection.close()
    processes.clear()
    connections.clear()


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
    meanwhile: Callable[[], object] | None = None,
    merged: Callable[[ChunkSums], object] | None = None,
) -> SimOutcome:
    """Play ``settings.games`` games with ``workers`` processes (default: all cores).

    ``meanwhile`` is called once the workers are started, before this process plays: work
    of the caller's (loading code) done while they play, not before they start.
    ``merged`` is called with the sums so far each time a chunk's are added, in chunk
    order (the games from the first on): the caller's work on them while the workers
    play on."""
    return _run((table,), settings, workers, progress, meanwhile, merged)


def run_paired(
    table_a: DeckTable,
    table_b: DeckTable,
    settings: SimSettings,
    workers: int | None = None,
    progress: Progress | None = None,
    meanwhile: Callable[[], object] | None = None,
) -> SimOutcome:
    """Play the games of ``settings`` with both decks, chunk by chunk, and pair them
    (``meanwhile``: as :func:`run_simulation`'s)."""
    return _run((table_a, table_b), settings, workers, progress, meanwhile)


def _run(
    tables: tuple[DeckTable, ...],
    settings: SimSettings,
    workers: int | None,
    progress: Progress | None,
    meanwhile: Callable[[], object] | None = None,
    merged: Callable[[ChunkSums], object] | None = None,
) -> SimOutcome:
    games = tuple(check_settings(table, settings) for table in tables)
    count = default_workers() if workers is None else workers
    if count < 1:
        raise SimulationError(f"--workers must be at least 1, not {count}")
    count = min(count, settings.games)
    chunks = run_chunks(settings.games, count, settings.first)
    players = settings.players
    total: ChunkSums | None = None
    interrupted = False
    played = 0
    parent_play = 0.0
    started = time.perf_counter()
    if progress:
        progress(0, settings.games)
    stop_on_sigterm = sigterm_as_interrupt()
    try:
        stop_on_sigterm.__enter__()
        if count == 1:
            if meanwhile:
                meanwhile()
            total = _no_sums(tables, players)
            for start, stop in chunks:
                began = time.process_time()
                total.merge(play_sums(tables, settings, games, start, stop))
                parent_play += time.process_time() - began
                if merged:
                    merged(total)
                played += stop - start
                if progress:
                    progress(played, settings.games)
        else:
            pool = _Workers(count, tables, settings, games)
            finished = False
            try:
                for (start, stop), part in zip(chunks, pool.sums(chunks, meanwhile), strict=False):
                    if total is None:  # numpy is loaded by now, after the fork
                        total = _no_sums(tables, players)
                    total.merge(part)
                    if merged:
                        merged(total)
                    played += stop - start
                    if progress:
                        progress(played, settings.games)
                finished = True
            finally:
                parent_play = pool.play_seconds
                pool.close(finished)  # also on Ctrl-C or an error
    except KeyboardInterrupt:
        interrupted = True
    finally:
        stop_on_sigterm.__exit__(None, None, None)
    elapsed = time.perf_counter() - started
    if total is None:  # Ctrl-C before any game
        total = _no_sums(tables, players)
    return SimOutcome(
        stats=total.runs[0],
        elapsed=elapsed,
        workers=count,
        interrupted=interrupted,
        other=total.runs[1] if len(tables) == 2 else None,
        pair=total.pair,
        parent_play_seconds=parent_play,
    )


def _no_sums(tables: tuple[DeckTable, ...], players: int) -> ChunkSums:
    """The sums of no games yet, for each deck (and for two, their pair)."""
    from kraftstokk.sim.stream import PairStats, RunStats

    return ChunkSums(
        tuple(RunStats(table.size, players) for table in tables),
        PairStats(players, players) if len(tables) == 2 else None,
    )
