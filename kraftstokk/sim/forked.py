"""A worker process forked outside ``multiprocessing`` (the head start of
``kraftstokk/sim/head_start.py``), and where it waits for the run that adopts it
(:class:`kraftstokk.sim.runner._Workers`, which stops and waits for it as for its own).

Also what keeps a worker from outliving its parent (killed with SIGKILL, by the OOM
killer): a forked child inherits every file the parent has open, so each one closes the
parent's ends of the workers' pipes as it starts (:func:`parent_side`; else a worker
waiting for orders holds a write end of its own orders' pipe and never sees the parent go),
and asks the kernel for SIGTERM when its parent ends (:func:`end_with_parent`).

And the pipes between them without ``multiprocessing`` (a -w 2 run that adopts its head
start never loads it): :class:`PipeEnd` reads and writes the format of
``multiprocessing.connection`` (so a worker of either kind talks to the runner alike),
:func:`readable` waits for any of them, and :class:`Drain` reads one on a thread while the
parent does something else.
"""

from __future__ import annotations

import os
import select
import signal
import threading
import time
import weakref
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from typing import Any, Protocol

from kraftstokk.orphans import end_with_parent as end_with_parent  # its workers ask it

#: Chunks the head start plays before the parent adopts it: the parent's start takes
#: about as long as two full chunks (4,000 Idiot games).
CHUNKS = 2

#: The parent's ends of its workers' pipes, open or closed: a child forked closes them.
_parent_ends: weakref.WeakSet[Channel] = weakref.WeakSet()


def parent_side(*connections: Channel) -> None:
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

#: What stops a worker: Ctrl-C (which workers ignore) and SIGTERM (which ends them).
_STOPS = {signal.SIGINT, signal.SIGTERM}


@contextmanager
def stops_held(*, forking: bool) -> Iterator[None]:
    """SIGINT and SIGTERM held (blocked) in this thread while workers are ``forking``.

    A forked worker starts with the parent's handlers, and a run turns SIGTERM into
    KeyboardInterrupt: stopped (the pool's SIGTERM) before it has set its own, a worker
    raised in its copy of the parent's code — outside ``multiprocessing``'s guard that
    ends a child, it went on running the parent's program (a test session forked whole),
    or the exception was lost in a fork hook and it waited for orders for ever while its
    parent waited for it. Held, the signal waits until the worker has set its handlers
    and takes it then (:func:`release_stops`). Workers started otherwise (spawn, a fork
    server) set out with handlers of their own: nothing is held for them, nor where the
    mask cannot be set."""
    if not forking or not hasattr(signal, "pthread_sigmask"):
        yield
        return
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, _STOPS)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


def release_stops() -> None:
    """In a worker whose handlers are set: a stop held while it was forked comes now."""
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, _STOPS)


class Channel(Protocol):
    """One end of a worker's pipe, as a worker uses it: a ``multiprocessing`` connection,
    or the head start's :class:`PipeEnd`."""

    def send(self, obj: Any) -> None: ...

    def recv(self) -> Any: ...

    def fileno(self) -> int: ...

    def close(self) -> None: ...


#: Bytes of a message's length; a length that does not fit (2 GB) is this, then 8 bytes.
_SHORT, _LONG, _TOO_LONG = 4, 8, -1


class PipeEnd:
    """One end of an ``os.pipe()`` speaking ``multiprocessing.connection.Connection``'s
    format (each message its length in 4 big-endian bytes, or -1 and 8 bytes from 2 GB
    on, then its pickle): the head start's pipes, both ends. Neither the head start nor a
    ``-w 2`` run that adopts it then loads ``multiprocessing`` (8 ms of CPU, which the
    head start's would spend before its fork, on one core)."""

    def __init__(self, fd: int) -> None:
        self._fd: int | None = fd

    def fileno(self) -> int:
        if self._fd is None:
            raise OSError("the pipe end is closed")
        return self._fd

    def send(self, obj: Any) -> None:
        import pickle

        data = pickle.dumps(obj)
        size = len(data)
        if size > 0x7FFFFFFF:
            head = _TOO_LONG.to_bytes(_SHORT, "big", signed=True) + size.to_bytes(_LONG, "big")
        else:
            head = size.to_bytes(_SHORT, "big", signed=True)
        self._write(head + data if size <= 16384 else head)
        if size > 16384:
            self._write(data)

    def recv(self) -> Any:
        import pickle

        head = self._read(_SHORT, at_start=True)
        size = int.from_bytes(head, "big", signed=True)
        if size == _TOO_LONG:
            size = int.from_bytes(self._read(_LONG), "big")
        return pickle.loads(self._read(size))

    def close(self) -> None:
        if self._fd is not None:
            fd, self._fd = self._fd, None
            os.close(fd)

    def _write(self, data: bytes) -> None:
        view = memoryview(data)
        while view:
            view = view[os.write(self.fileno(), view) :]

    def _read(self, size: int, at_start: bool = False) -> bytes:
        parts, left = [], size
        while left:
            part = os.read(self.fileno(), left)
            if not part:  # the writer has closed its end
                if at_start and left == size:
                    raise EOFError
                raise OSError("got end of file during message")
            parts.append(part)
            left -= len(part)
        return b"".join(parts)


def readable(channels: list[Channel], timeout: float | None = None) -> list[Channel]:
    """Those of ``channels`` with a message to read, or whose other end has closed;
    waits up to ``timeout`` seconds for one (None: as long as it takes). What
    ``multiprocessing.connection.wait`` does, without loading ``multiprocessing`` where
    ``select.poll`` is (``-w 2``'s parent has only the head start's pipes)."""
    if not hasattr(select, "poll"):  # Windows: its workers' connections, its wait
        from multiprocessing.connection import wait

        return wait(channels, timeout)  # type: ignore[arg-type,return-value]
    poller = select.poll()
    by_fd = {}
    for channel in channels:
        by_fd[channel.fileno()] = channel
        poller.register(channel.fileno(), select.POLLIN)
    wait_ms = None if timeout is None else max(0, round(timeout * 1000))
    return [by_fd[fd] for fd, _ in poller.poll(wait_ms)]


class Drain:
    """Reads what arrives on a pipe end in a thread while the calling thread is busy
    (loading code), so that the process at the other end does not wait in a full pipe;
    :meth:`stop` returns the messages read, in order (POSIX: a thread that sleeps in
    ``poll`` until a message comes or it is stopped)."""

    def __init__(self, channel: Channel) -> None:
        self._messages: list[Any] = []
        self._failure: BaseException | None = None
        self._wake_read, self._wake = os.pipe()
        self._thread = threading.Thread(
            target=self._read, args=(channel,), name="kraftstokk-drain", daemon=True
        )
        self._thread.start()

    def _read(self, channel: Channel) -> None:
        poller = select.poll()
        poller.register(channel.fileno(), select.POLLIN)
        poller.register(self._wake_read, select.POLLIN)
        try:
            while all(fd != self._wake_read for fd, _ in poller.poll()):
                self._messages.append(channel.recv())
        except (EOFError, OSError):  # the other end has gone: the caller's next read says so
            pass
        except BaseException as exc:  # raised in the caller
            self._failure = exc

    def stop(self) -> list[Any]:
        os.write(self._wake, b"x")
        self._thread.join()
        os.close(self._wake)
        os.close(self._wake_read)
        if self._failure is not None:
            raise self._failure
        return self._messages


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
    orders: Channel
    results: Channel


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
