"""A worker process forked outside ``multiprocessing`` (the head start of
``kraftstokk/sim/head_start.py``), and where it waits for the run that adopts it
(:class:`kraftstokk.sim.runner._Workers`, which stops and waits for it as for its own).

Also what keeps a worker from outliving its parent (killed with SIGKILL, by the OOM
killer): a forked child inherits every file the parent has open, so each one closes the
parent's ends of the workers' pipes as it starts (:func:`parent_side`; else a worker
waiting for orders holds a write end of its own orders' pipe and never sees the parent go),
and asks the kernel for SIGTERM when its parent ends (:func:`end_with_parent`).
"""

from __future__ import annotations

import os
import signal
import time
import weakref
from contextlib import suppress
from dataclasses import dataclass
from typing import TYPE_CHECKING

from kraftstokk.orphans import end_with_parent as end_with_parent  # its workers ask it

if TYPE_CHECKING:
    from multiprocessing.connection import Connection

#: Chunks the head start plays before the parent adopts it: the parent's start takes
#: about as long as two full chunks (4,000 Idiot games).
CHUNKS = 2

#: The parent's ends of its workers' pipes, open or closed: a child forked closes them.
_parent_ends: weakref.WeakSet[Connection] = weakref.WeakSet()


def parent_side(*connections: Connection) -> None:
    """Mark ``connections`` as the parent's ends of workers' pipes: every process forked
    after this (a worker ``multiprocessing`` forks) closes them as it starts."""
    _parent_ends.update(connections)


def _close_parent_ends() -> None:
    for connection in list(_parent_ends):
        with suppress(OSError):
            connection.close()  # closes this process's copy; the parent's stays open
    _parent_ends.clear()


if hasattr(os, "register_at_fork"):  # POSIX
    os.register_at_fork(after_in_child=_close_parent_ends)


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
