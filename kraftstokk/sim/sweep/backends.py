"""Where chunks run: local worker processes, or a Dask cluster (local or remote).

Every backend takes the same :class:`~kraftstokk.sim.sweep.work.ChunkTask` list and
yields :class:`~kraftstokk.sim.sweep.work.ChunkResult` as chunks finish, in any order;
the games themselves never depend on the backend. ``--scheduler`` chooses:
``local`` (default) a pool of worker processes on this machine, ``local:N`` a Dask
``LocalCluster`` of N worker processes listening on 127.0.0.1 only, ``tcp://HOST:PORT``
a running Dask scheduler and its workers.
"""

from __future__ import annotations

import contextlib
import gc
import importlib
import logging
import multiprocessing
import os
import re
import select
import signal
import socket
import threading
from collections import deque
from collections.abc import Iterator
from multiprocessing.connection import Connection, wait
from multiprocessing.process import BaseProcess
from typing import Any, Protocol, cast

from kraftstokk.sim import forked
from kraftstokk.sim.runner import default_workers, send_failure, start_method, stop_processes
from kraftstokk.sim.sweep.model import SweepError
from kraftstokk.sim.sweep.work import ChunkResult, ChunkTask, WorkerMismatch, run_chunk

#: How long to wait for a remote scheduler to answer.
CONNECT_TIMEOUT = "10s"
#: How long a task should last: long enough that sending it and its result costs little
#: beside playing it (a Dask task costs milliseconds, a local one a fraction of that).
LOCAL_TASK_SECONDS = 0.25
DASK_TASK_SECONDS = 1.0
#: Dask's own periodic work, made rarer for a cluster that only runs long CPU tasks: by
#: default its statistical profiler samples every worker thread every 10 ms, each nanny
#: measures its worker's memory every 100 ms, and the event-loop and GIL monitors tick
#: every 20 ms and 1 ms.
QUIET_DASK = {
    "distributed.worker.profile.enabled": False,
    "distributed.worker.memory.monitor-interval": "1s",
    "distributed.admin.tick.interval": "500ms",
    "distributed.admin.system-monitor.gil.enabled": False,
    "distributed.admin.system-monitor.interval": "2s",
    "distributed.admin.system-monitor.disk": False,
}
_LOCAL_CLUSTER = re.compile(r"local:(\d+)")


class Backend(Protocol):
    description: str
    workers: int  # how many chunks run at once
    task_seconds: float  # how long a task should last to be worth sending

    def run(self, tasks: list[ChunkTask]) -> Iterator[ChunkResult]: ...

    def close(self) -> None: ...


def _ignore_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent handles Ctrl-C
    # The parent turns SIGTERM into Ctrl-C while it runs; the pool stops its workers with
    # SIGTERM, which must end them quietly.
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    forked.release_stops()


@contextlib.contextmanager
def _sigint_ignored() -> Iterator[None]:
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


_DASK_LOGGERS = ("distributed", "tornado")


def _quiet_logs() -> None:
    """Run on each worker of a cluster about to close: a heartbeat in flight as the
    scheduler goes logs a traceback there, which is not news to the person stopping it."""
    for name in _DASK_LOGGERS:
        logging.getLogger(name).setLevel(logging.CRITICAL + 1)


class _DeferredStop:
    """While inside, Ctrl-C and SIGTERM are only noted; Dask's callers raise them as
    KeyboardInterrupt where they choose.

    A KeyboardInterrupt raised while the main thread waits inside Dask's ``sync`` makes
    its cancel callback fail on the event loop's thread (``cannot access free variable
    'future'``) and print a traceback, so no signal may raise while Dask code runs.
    ``wakeup``: a socket the signal also writes a byte to, so that a thread waiting in
    ``select`` on it wakes at once.
    """

    def __init__(self, wakeup: socket.socket | None = None) -> None:
        self.requested = False
        self._previous: dict[int, Any] = {}
        self._wakeup = wakeup
        self._previous_fd: int | None = None

    def _note(self, signum: int, frame: object) -> None:
        self.requested = True

    def __enter__(self) -> _DeferredStop:
        if threading.current_thread() is threading.main_thread():
            for signum in (signal.SIGINT, signal.SIGTERM):
                self._previous[signum] = signal.signal(signum, self._note)
            if self._wakeup is not None:
                fd = self._wakeup.fileno()
                self._previous_fd = signal.set_wakeup_fd(fd, warn_on_full_buffer=False)
        return self

    def __exit__(self, *exc: object) -> None:
        self.restore()

    def restore(self) -> None:
        """Put back the handlers found on entry (once: later calls do nothing)."""
        if self._previous_fd is not None:
            signal.set_wakeup_fd(self._previous_fd)
            self._previous_fd = None
        for signum, handler in self._previous.items():
            signal.signal(signum, handler)
        self._previous = {}

    def raise_if_requested(self) -> None:
        if self.requested:
            raise KeyboardInterrupt


def _local_worker(connection: Connection, parent: int | None = None) -> None:
    """A local worker: run the tasks the parent sends, answer each with its result; a
    failure goes back as ``(exception,)`` and ends the worker. ``parent``: the forking
    parent's process id (a forked worker ends with it, even when it is killed)."""
    _ignore_sigint()
    if parent is not None:
        forked.end_with_parent(parent)
    try:
        while (task := connection.recv()) is not None:
            connection.send(run_chunk(task))
    except (EOFError, OSError):  # the parent has gone or stopped listening: just end
        pass
    except Exception as exc:
        send_failure(connection, exc)
    finally:
        connection.close()


class LocalBackend:
    """Worker processes on this machine, a pipe each (one worker: no process at all).

    Each worker has ``AHEAD`` tasks sent to it and gets the next as it answers, so the
    results come back in the order they finish. Nothing is shared between the processes
    but their pipes: stopping them (Ctrl-C, SIGTERM, an error) is a SIGTERM to each, with
    no lock a stopped worker could leave held (``multiprocessing.Pool.terminate`` waits
    for its task queue's lock, which an idle worker holds while it waits for a task).
    """

    AHEAD = 2

    def __init__(self, workers: int | None = None) -> None:
        self.workers = default_workers() if workers is None else workers
        if self.workers < 1:
            raise SweepError(f"--workers must be at least 1, not {self.workers}")
        self.description = f"local, {self.workers} worker process(es)"
        self.task_seconds = LOCAL_TASK_SECONDS
        self._processes: list[BaseProcess] = []
        self._connections: list[Connection] = []

    def run(self, tasks: list[ChunkTask]) -> Iterator[ChunkResult]:
        if self.workers == 1 or len(tasks) <= 1:
            for task in tasks:
                yield run_chunk(task)
            return
        self._start(min(self.workers, len(tasks)))
        waiting = deque(tasks)
        sent: dict[Connection, int] = dict.fromkeys(self._connections, 0)

        def feed(connection: Connection) -> None:
            if waiting:
                sent[connection] += 1
                with contextlib.suppress(OSError):  # a worker gone: its pipe tells why
                    connection.send(waiting.popleft())

        for _ in range(self.AHEAD):
            for connection in self._connections:
                feed(connection)
        while busy := [connection for connection, count in sent.items() if count]:
            for ready in wait(busy):
                connection = cast(Connection, ready)
                try:
                    message = connection.recv()
                except (EOFError, OSError):  # closed, or reset with tasks unread
                    process = self._processes[self._connections.index(connection)]
                    process.join(1.0)
                    if process.exitcode in (-signal.SIGTERM, -signal.SIGINT):
                        raise KeyboardInterrupt from None  # stopped with the whole group
                    raise SweepError(
                        f"a worker process ended unexpectedly (exit code {process.exitcode})"
                    ) from None
                if isinstance(message, tuple):  # the worker failed and has ended
                    raise message[0]
                sent[connection] -= 1
                feed(connection)
                yield message

    def _start(self, count: int) -> None:
        method = start_method()
        context: Any = multiprocessing.get_context(method)  # typeshed: no Process
        if method == "forkserver":
            context.set_forkserver_preload([run_chunk.__module__])
        # Forked workers inherit the games the parent built (work.keep_game); their
        # collector would walk, and so copy, every inherited object: frozen, they are
        # left out of its collections.
        freeze = method == "fork" and gc.isenabled()
        if freeze:
            gc.freeze()
        parent = os.getpid() if method == "fork" else None  # forkserver's: the server
        try:
            with forked.stops_held(forking=method == "fork"):
                for _ in range(count):
                    mine, theirs = context.Pipe()
                    forked.parent_side(mine)  # a worker forked later does not keep it open
                    process = context.Process(
                        target=_local_worker,
                        args=(theirs, parent),
                        name="kraftstokk-sweep",
                        daemon=True,
                    )
                    process.start()
                    theirs.close()
                    self._processes.append(process)
                    self._connections.append(mine)
        finally:
            if freeze:
                gc.unfreeze()

    def close(self) -> None:
        stop_processes(self._processes, self._connections)


class DaskBackend:
    """A Dask ``distributed`` client: on a LocalCluster it starts, or a running scheduler."""

    def __init__(self, address: str | None = None, workers: int = 2) -> None:
        try:
            distributed: Any = importlib.import_module("distributed")
        except ImportError:
            raise SweepError(
                "the Dask backend needs dask and distributed: pip install 'kraftstokk[dask]'"
            ) from None
        self._cluster: Any = None
        self._futures: list[Any] = []
        self._running: _DeferredStop | None = None
        self._closing = threading.Event()
        self.task_seconds = DASK_TASK_SECONDS
        with _DeferredStop() as stop:
            self._connect(distributed, address, workers)
        if stop.requested:
            self.close()
            raise KeyboardInterrupt

    def _connect(self, distributed: Any, address: str | None, workers: int) -> None:
        if address is None:
            if workers < 1:
                raise SweepError(f"local:N needs at least 1 worker, not {workers}")
            # Ctrl-C in a terminal reaches the whole process group: worker processes
            # started while SIGINT is ignored keep ignoring it (across exec, and Python
            # leaves an ignored SIGINT alone), so only this process handles it. The
            # nannies hand the workers this process's Dask configuration.
            dask: Any = importlib.import_module("dask")
            with _sigint_ignored(), dask.config.set(QUIET_DASK):
                self._cluster = distributed.LocalCluster(
                    n_workers=workers,
                    threads_per_worker=1,
                    processes=True,
                    host="127.0.0.1",
                    dashboard_address=None,
                    silence_logs=logging.ERROR,
                )
            self.client: Any = distributed.Client(self._cluster)
            self.description = f"Dask LocalCluster, {workers} worker process(es) on 127.0.0.1"
            self.workers = workers
        else:
            try:
                self.client = distributed.Client(address, timeout=CONNECT_TIMEOUT)
            except (OSError, TimeoutError) as exc:
                raise SweepError(f"{address}: cannot reach the Dask scheduler ({exc})") from None
            count = len(self.client.scheduler_info().get("workers", {}))
            self.description = f"Dask scheduler {address}, {count} worker(s)"
            self.workers = max(1, count)

    def run(self, tasks: list[ChunkTask]) -> Iterator[ChunkResult]:
        """Submit every task at once and yield the results as they finish.

        Each result is fetched on Dask's callback thread, which then writes a byte to a
        socket; this thread sleeps in ``select`` on that socket, which a Ctrl-C (noted,
        never raised, while Dask code runs) also writes to. So it neither polls nor ever
        waits inside Dask's ``sync``.
        """
        arrived: deque[tuple[bool, Any]] = deque()
        listen, notify = socket.socketpair()
        for end in (listen, notify):
            end.setblocking(False)

        def fetched(future: Any) -> None:  # on Dask's callback thread
            if self._closing.is_set() or future.cancelled():
                return  # nothing to fetch, and no sync to start while the client closes
            try:
                item: tuple[bool, Any] = (True, future.result())
            except BaseException as exc:  # the task's failure, or its cancelling
                item = (False, exc)
            arrived.append(item)
            with contextlib.suppress(OSError):
                notify.send(b"r")

        try:
            with _DeferredStop(wakeup=notify) as stop:
                self._running = stop
                self._futures = [
                    self.client.submit(
                        run_chunk,
                        task,
                        pure=False,
                        key=f"kraftstokk-{task.key}-{task.start}-{task.stop}",
                    )
                    for task in tasks
                ]
                for future in self._futures:
                    future.add_done_callback(fetched)
                left = len(self._futures)
                while left:
                    stop.raise_if_requested()
                    if not arrived:
                        select.select([listen], [], [])
                        with contextlib.suppress(BlockingIOError):
                            while listen.recv(4096):
                                pass
                        continue
                    ok, value = arrived.popleft()
                    left -= 1
                    if not ok:
                        if isinstance(value, WorkerMismatch):
                            raise SweepError(f"Dask worker: {value}; install the same version")
                        raise value
                    yield value
        finally:
            listen.close()
            notify.close()

    def close(self) -> None:
        # Stopping with work in flight makes the scheduler and the comms log lost keys and
        # closed connections; nothing is lost that the chunk store does not know about.
        self._closing.set()
        if self._running is not None:  # a run its caller left unfinished
            self._running.restore()
            self._running = None
        loggers = [logging.getLogger(name) for name in _DASK_LOGGERS]
        levels = [logger.level for logger in loggers]
        for logger in loggers:
            logger.setLevel(logging.CRITICAL + 1)
        # A second Ctrl-C while closing is only noted: the sweep is stopping anyway.
        with _DeferredStop():
            try:
                if self._futures:
                    self.client.cancel(self._futures)
                    self._futures = []
                if self._cluster is not None:
                    for nanny in (False, True):
                        self.client.run(_quiet_logs, nanny=nanny, on_error="ignore")
                self.client.close()
                if self._cluster is not None:
                    self._cluster.close()
                    self._cluster = None
            finally:
                for logger, level in zip(loggers, levels, strict=True):
                    logger.setLevel(level)


def planned_workers(scheduler: str, workers: int | None = None) -> int | None:
    """How many chunks the backend ``--scheduler`` names will play at once, for the
    estimate made before it starts (None: a remote cluster's, unknown until it answers)."""
    if scheduler == "local":
        return default_workers() if workers is None else workers
    match = _LOCAL_CLUSTER.fullmatch(scheduler)
    if match:
        return int(match.group(1))
    if _is_address(scheduler):
        return None
    raise _unknown_scheduler(scheduler)


def make_backend(scheduler: str, workers: int | None = None) -> Backend:
    """The backend that ``--scheduler`` names; one clear error for anything else."""
    if scheduler == "local":
        return LocalBackend(workers)
    match = _LOCAL_CLUSTER.fullmatch(scheduler)
    if match:
        return DaskBackend(workers=int(match.group(1)))
    if _is_address(scheduler):
        return DaskBackend(address=scheduler)
    raise _unknown_scheduler(scheduler)


def _is_address(scheduler: str) -> bool:
    return scheduler.startswith("tcp://") and len(scheduler) > len("tcp://")


def _unknown_scheduler(scheduler: str) -> SweepError:
    return SweepError(f"--scheduler {scheduler!r}: expected local, local:N or tcp://HOST:PORT")
