"""A worker process forked outside ``multiprocessing`` (the head start of
``kraftstokk/sim/head_start.py``), and where it waits for the run that adopts it
(:class:`kraftstokk.sim.runner._Workers`, which stops and waits for it as for its own)."""

from __future__ import annotations

import os
import signal
import time
from contextlib import suppress
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from multiprocessing.connection import Connection

#: Chunks the head start plays before the parent adopts it: the parent's start takes
#: about as long as two full chunks (4,000 Idiot games).
CHUNKS = 2


class ForkedProcess:
    """The head start as the runner sees a worker process (``exitcode``, ``terminate``,
    ``join``), over its process id."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self._exitcode: int | None = None

    @property
    def exitcode(self) -> int | None:
        if self._exitcode is None:
            self._reap(os.WNOHANG)
        return self._exitcode

    def terminate(self) -> None:
        if self.exitcode is None:
            with suppress(ProcessLookupError):
                os.kill(self.pid, signal.SIGTERM)

    def join(self, timeout: float | None = None) -> None:
        if timeout is None:
            self._reap(0)
            return
        deadline = time.monotonic() + timeout
        while self.exitcode is None and time.monotonic() < deadline:
            time.sleep(0.005)

    def _reap(self, flags: int) -> None:
        try:
            pid, status = os.waitpid(self.pid, flags)
        except ChildProcessError:  # reaped already
            self._exitcode = self._exitcode if self._exitcode is not None else 0
            return
        if pid:
            self._exitcode = os.waitstatus_to_exitcode(status)


@dataclass
class HeadStart:
    """The parent's side: the process, where chunks go to it and where its games come."""

    process: ForkedProcess
    orders: Connection
    results: Connection


_waiting: HeadStart | None = None


def waiting() -> bool:
    """Whether a head start waits for its run."""
    return _waiting is not None


def put(head: HeadStart) -> None:
    """Leave ``head`` for the first run that starts workers."""
    global _waiting
    _waiting = head


def take() -> HeadStart | None:
    """The head start, for the first run that starts workers (None: there is none, or a
    run took it already)."""
    global _waiting
    found, _waiting = _waiting, None
    return found
