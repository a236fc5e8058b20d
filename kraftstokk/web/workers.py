"""``serve --workers N`` on Linux: N processes forked from one that has made the app.

uvicorn's own supervisor starts each worker afresh (Python's ``spawn``): each imports the
program, reads and validates the deck, reads the languages and makes every game's rules
again — some 0.6 s of CPU each, 2 s for two workers and their parent. Here the parent
does that once (:func:`prepared`: the app made, its games warmed up, what it made frozen
out of the cycle collector's sight), binds the socket, and forks the workers from that
state: a worker only starts its event loop (``fork`` shares the parent's memory until
either writes it, and frozen objects are never written by the collector).

The parent then only watches: Ctrl-C or SIGTERM asks every worker to stop (SIGTERM, which
uvicorn takes as a graceful stop; the terminal's Ctrl-C reaches them too, and a second
one makes them stop at once) and waits for them; a worker that dies while serving is
forked again from the parent's state, unless workers die as fast as they are made.
Where ``fork`` is not the platform's way (macOS, Windows) ``serve`` keeps uvicorn's
supervisor.
"""

from __future__ import annotations

import contextlib
import gc
import os
import signal
import socket
import sys
import time
from typing import Any

from kraftstokk.orphans import end_with_parent

#: Seconds the parent waits for its workers after asking them to stop, past their own
#: grace (``GRACE_SECONDS``), before it kills them.
STOP_SECONDS = 10.0
#: A worker that dies within this many seconds of its start was not serving: two such in
#: a row stop the server instead of forking for ever.
EARLY_DEATH_SECONDS = 2.0


def can_fork() -> bool:
    """Whether workers are forked here (Linux); elsewhere uvicorn spawns them."""
    return sys.platform.startswith("linux") and hasattr(os, "fork")


def prepared(app: Any) -> None:
    """Make what every worker would make at its start (the app's ``prepare``: the card
    images, every game's rules and one game of each), then freeze it all: the workers
    forked from here share it."""
    app.state.prepare()
    gc.collect()
    gc.freeze()


def run_forked(server_config: Any, workers: int) -> int:
    """Serve ``server_config`` (a ``uvicorn.Config`` of a made app) on ``workers`` forked
    processes until asked to stop; the number of workers that failed."""
    import uvicorn

    class Worker(uvicorn.Server):
        """A forked worker's server. Once started (uvicorn's signal handlers set), it gets
        SIGTERM, which uvicorn takes as a stop, when the parent is killed outright
        (SIGKILL, the OOM killer): else it would serve on the parent's socket for ever and
        a new ``serve`` could not listen on the port."""

        async def startup(self, sockets: list[socket.socket] | None = None) -> None:
            await super().startup(sockets=sockets)
            end_with_parent(parent)

    parent = os.getpid()
    listening = server_config.bind_socket()
    stopping = False

    def stop(signum: int, frame: Any) -> None:
        nonlocal stopping
        stopping = True

    def start() -> tuple[int, float]:
        pid = os.fork()
        if pid == 0:  # the worker: serve until asked to stop, then leave at once
            code = 1
            try:
                # uvicorn sets its own handlers and raises the signal again once stopped.
                signal.signal(signal.SIGINT, signal.SIG_IGN)
                signal.signal(signal.SIGTERM, signal.SIG_IGN)
                Worker(server_config).run(sockets=[listening])
                code = 0
            except BaseException:
                code = 1
            finally:
                os._exit(code)
        return pid, time.monotonic()

    previous = {sig: signal.signal(sig, stop) for sig in (signal.SIGINT, signal.SIGTERM)}
    running: dict[int, float] = dict(start() for _ in range(workers))
    failed = early = 0
    try:
        while running and not stopping:
            pid, status = _reap()
            if pid == 0:
                time.sleep(0.2)
                continue
            began = running.pop(pid, None)
            if began is None or stopping:
                continue
            failed += status != 0
            early = early + 1 if time.monotonic() - began < EARLY_DEATH_SECONDS else 0
            if early >= 2:  # failing at start: forking again would fail the same way
                stopping = True
                break
            new_pid, started = start()
            running[new_pid] = started
        _stop(running)
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        listening.close()
    return failed


def _reap() -> tuple[int, int]:
    """A worker that has ended and its status, or (0, 0) when none has."""
    try:
        pid, status = os.waitpid(-1, os.WNOHANG)
    except ChildProcessError:
        return 0, 0
    return pid, os.waitstatus_to_exitcode(status) if pid else 0


def _stop(running: dict[int, float]) -> None:
    """Ask every worker to stop (SIGTERM: gracefully) and wait; kill the slow ones."""
    for pid in running:
        _signal(pid, signal.SIGTERM)
    deadline = time.monotonic() + STOP_SECONDS
    while running and time.monotonic() < deadline:
        pid, _ = _reap()
        if pid:
            running.pop(pid, None)
        else:
            time.sleep(0.05)
    for pid in running:
        _signal(pid, signal.SIGKILL)
        with contextlib.suppress(ChildProcessError):
            os.waitpid(pid, 0)


def _signal(pid: int, signum: int) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signum)


__all__ = ["can_fork", "prepared", "run_forked"]
