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
import re
import signal
import threading
from collections.abc import Iterator
from typing import Any, Protocol

from kraftstokk.sim.runner import default_workers, start_method
from kraftstokk.sim.sweep.model import SweepError
from kraftstokk.sim.sweep.work import ChunkResult, ChunkTask, WorkerMismatch, run_chunk

#: How long to wait for a remote scheduler to answer.
CONNECT_TIMEOUT = "10s"
_LOCAL_CLUSTER = re.compile(r"local:(\d+)")


class Backend(Protocol):
    description: str
    workers: int  # how many chunks run at once

    def run(self, tasks: list[ChunkTask]) -> Iterator[ChunkResult]: ...

    def close(self) -> None: ...


def _ignore_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent handles Ctrl-C
    # The parent turns SIGTERM into Ctrl-C while it runs; the pool stops its workers with
    # SIGTERM, which must end them quietly.
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


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


class LocalBackend:
    """A pool of worker processes on this machine (one process: no pool at all)."""

    def __init__(self, workers: int | None = None) -> None:
        self.workers = default_workers() if workers is None else workers
        if self.workers < 1:
            raise SweepError(f"--workers must be at least 1, not {self.workers}")
        self.description = f"local, {self.workers} worker process(es)"
        self._pool: Any = None

    def run(self, tasks: list[ChunkTask]) -> Iterator[ChunkResult]:
        if self.workers == 1 or len(tasks) <= 1:
            for task in tasks:
                yield run_chunk(task)
            return
        method = start_method()
        context = multiprocessing.get_context(method)
        # Forked workers inherit the games the parent built (work.keep_game); their
        # collector would walk, and so copy, every inherited object: frozen, they are
        # left out of its collections.
        freeze = method == "fork" and gc.isenabled()
        if freeze:
            gc.freeze()
        try:
            self._pool = context.Pool(min(self.workers, len(tasks)), _ignore_sigint)
        finally:
            if freeze:
                gc.unfreeze()
        yield from self._pool.imap_unordered(run_chunk, tasks)

    def close(self) -> None:
        if self._pool is not None:
            self._pool.terminate()
            self._pool.join()
            self._pool = None


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
        if address is None:
            if workers < 1:
                raise SweepError(f"local:N needs at least 1 worker, not {workers}")
            # Ctrl-C in a terminal reaches the whole process group: worker processes
            # started while SIGINT is ignored keep ignoring it (across exec, and Python
            # leaves an ignored SIGINT alone), so only this process handles it.
            with _sigint_ignored():
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
        self._futures: list[Any] = []

    def run(self, tasks: list[ChunkTask]) -> Iterator[ChunkResult]:
        distributed: Any = importlib.import_module("distributed")
        self._futures = [
            self.client.submit(
                run_chunk, task, pure=False, key=f"kraftstokk-{task.key}-{task.start}-{task.stop}"
            )
            for task in tasks
        ]
        for future in distributed.as_completed(self._futures):
            try:
                result: ChunkResult = future.result()
            except WorkerMismatch as exc:
                raise SweepError(f"Dask worker: {exc}; install the same version") from None
            yield result

    def close(self) -> None:
        # Stopping with work in flight makes the scheduler and the comms log lost keys and
        # closed connections; nothing is lost that the chunk store does not know about.
        loggers = [logging.getLogger(name) for name in ("distributed", "tornado")]
        levels = [logger.level for logger in loggers]
        for logger in loggers:
            logger.setLevel(logging.CRITICAL + 1)
        try:
            if self._futures:
                self.client.cancel(self._futures)
                self._futures = []
            self.client.close()
            if self._cluster is not None:
                self._cluster.close()
        finally:
            for logger, level in zip(loggers, levels, strict=True):
                logger.setLevel(level)


def make_backend(scheduler: str, workers: int | None = None) -> Backend:
    """The backend that ``--scheduler`` names; one clear error for anything else."""
    if scheduler == "local":
        return LocalBackend(workers)
    match = _LOCAL_CLUSTER.fullmatch(scheduler)
    if match:
        return DaskBackend(workers=int(match.group(1)))
    if scheduler.startswith("tcp://") and len(scheduler) > len("tcp://"):
        return DaskBackend(address=scheduler)
    raise SweepError(f"--scheduler {scheduler!r}: expected local, local:N or tcp://HOST:PORT")
