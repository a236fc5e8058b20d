"""One sweep at a time per output folder: a lock on ``OUT/.sweep.lock``.

The lock is the operating system's (``flock``), held on the open file for as long as the
sweep runs, so it goes when the process goes, however it ends (Ctrl-C, kill -9, a crash):
there is never a stale lock to remove. The file says who holds it, for the message the
second sweep prints.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from kraftstokk.sim.sweep.model import SweepError

LOCK_NAME = ".sweep.lock"


class FolderBusy(SweepError):
    """Another sweep writes into the same output folder."""


@contextmanager
def folder_lock(out_dir: Path, sweep_file: str) -> Iterator[None]:
    """Hold the output folder's lock while inside; FolderBusy at once when another has it."""
    try:
        import fcntl
    except ImportError:  # not POSIX: no lock, as before
        yield
        return
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
        handle = os.open(out_dir / LOCK_NAME, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as exc:
        raise SweepError(f"{out_dir}: cannot be written ({exc.strerror})") from None
    try:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise FolderBusy(f"{out_dir}: {_holder(handle)}") from None
        os.ftruncate(handle, 0)
        note = {"pid": os.getpid(), "sweep": sweep_file, "started": time.strftime("%H:%M:%S")}
        os.pwrite(handle, json.dumps(note).encode(), 0)
        yield
    finally:
        os.close(handle)  # releases the lock


def _holder(handle: int) -> str:
    try:
        note = json.loads(os.pread(handle, 4096, 0) or b"{}")
        who = f"pid {int(note['pid'])}, {note['sweep']}, since {note['started']}"
    except (OSError, ValueError, KeyError, TypeError):
        who = "another process"
    return (
        f"another sweep is writing here ({who}); wait for it to end, or give this one another --out"
    )
