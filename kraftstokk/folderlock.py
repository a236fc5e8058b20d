"""One writer at a time per folder: the lock every command that writes into a folder takes.

Two commands writing into one folder at once mix their files (deck.json from one build,
deck.xlsx from the other), and a later command reads the mix as one deck. So a command
holds ``FOLDER/.kraftstokk.lock`` for as long as it runs, and a second one refuses at
once, naming the folder and the command that holds it.

The lock is the operating system's (``flock``), held on the open file, so it goes when
the process goes, however it ends (Ctrl-C, kill -9, a crash): there is never a stale lock
to remove. The file says who holds it (process id, command, since when) for the refusal
the second command prints; the holder removes it when it ends, and a folder the lock
itself had to create is removed again when nothing was written into it.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

from kraftstokk.errors import KraftstokkError, OutputError

try:
    import fcntl
except ImportError:  # not POSIX: no lock
    fcntl = None  # type: ignore[assignment]

LOCK_NAME = ".kraftstokk.lock"
#: A new holder writes its note right after it takes the lock; a reader waits this long
#: (seconds) for it before it says "another process".
NOTE_WAIT = 0.5
#: Attempts at taking a lock file another holder removed meanwhile (it ended).
ATTEMPTS = 20


class FolderBusy(KraftstokkError):
    """Another command is writing into the folder (exit 2)."""


def _created_folders(folder: Path) -> list[Path]:
    """Make ``folder``; the folders this made, innermost first."""
    made: list[Path] = []
    current = folder
    while not current.exists() and current != current.parent:
        made.append(current)
        current = current.parent
    folder.mkdir(parents=True, exist_ok=True)
    return made


#: The folders (device, inode) whose lock this process holds, and the lock files' handles.
_held: dict[tuple[int, int], int] = {}


def _let_go_in_child() -> None:
    """In a process just forked (a ``simulate`` worker): close the lock files' handles.
    The lock is the open file's, so a child keeping the handle would hold the folder
    after the holder ended (killed with SIGKILL, its workers live on for a moment); the
    holder's own handles stay open, and the lock with them."""
    for handle in _held.values():
        with suppress(OSError):
            os.close(handle)
    _held.clear()


if hasattr(os, "register_at_fork"):  # POSIX (O_CLOEXEC covers exec, not fork)
    os.register_at_fork(after_in_child=_let_go_in_child)


@contextmanager
def folder_lock(
    folder: str | os.PathLike[str], command: str, *, within: bool = False
) -> Iterator[None]:
    """Hold ``folder``'s lock while inside; :class:`FolderBusy` at once when another has it.

    ``command`` is what the holder is (``kraftstokk build --out print-2026``), for the
    refusal another command prints. ``within``: a library function that takes the lock
    for callers from Python goes on under the lock its command already holds.
    """
    if fcntl is None:
        yield
        return
    folder = Path(folder)
    try:
        made = _created_folders(folder)
        info = folder.stat()
    except OSError:  # nothing can be written there: the command says so when it tries
        yield
        return
    identity = (info.st_dev, info.st_ino)
    if within and identity in _held:
        yield
        return
    path = folder / LOCK_NAME
    handle = _take(path, folder, command)
    if handle is None:  # a folder no one may write into needs no lock
        yield
        return
    _held[identity] = handle
    try:
        yield
    finally:
        if _held.pop(identity, None) == handle:  # (else a child forked inside: not its lock)
            _release(path, handle, made)


def _release(path: Path, handle: int, made: list[Path]) -> None:
    """The holder's end: its lock file removed, the lock released, and the folders the
    lock made removed when nothing was written into them."""
    with suppress(OSError):
        path.unlink()  # still held: no one else can have taken this file meanwhile
    os.close(handle)  # releases the lock
    for created in made:  # innermost first; a folder written into stays
        try:
            created.rmdir()
        except OSError:
            break


def _take(path: Path, folder: Path, command: str) -> int | None:
    """The open, locked lock file at ``path``, its note written (None: the folder cannot
    be written into)."""
    for _ in range(ATTEMPTS):
        try:
            handle = os.open(path, os.O_RDWR | os.O_CREAT | getattr(os, "O_CLOEXEC", 0), 0o644)
        except FileNotFoundError:  # the folder went with the last holder: make it again
            _created_folders(folder)
            continue
        except OSError:
            return None
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = _holder(handle)
            os.close(handle)
            raise FolderBusy(
                f"{folder}: another kraftstokk command is writing into this folder ({holder}); "
                "wait for it to end, or give this one another --out"
            ) from None
        except OSError as exc:
            os.close(handle)
            raise OutputError(folder, f"cannot be locked ({exc.strerror or exc})") from None
        if _same_file(handle, path):
            note = {"pid": os.getpid(), "command": command, "since": _now()}
            os.ftruncate(handle, 0)
            os.pwrite(handle, json.dumps(note, ensure_ascii=False).encode(), 0)
            return handle
        os.close(handle)  # the last holder removed this file as it ended: take the new one
    raise OutputError(folder, "cannot be locked: its lock file keeps being replaced")


def _same_file(handle: int, path: Path) -> bool:
    try:
        there = path.stat()
    except OSError:
        return False
    held = os.fstat(handle)
    return (held.st_dev, held.st_ino) == (there.st_dev, there.st_ino)


def _now() -> str:
    return time.strftime("%Y-%m-%d %H:%M:%S")


def _holder(handle: int) -> str:
    """``pid 4242, kraftstokk build --out race, since 2026-05-02 14:03:11``."""
    deadline = time.monotonic() + NOTE_WAIT
    while True:
        try:
            note = json.loads(os.pread(handle, 4096, 0) or b"{}")
            return f"pid {int(note['pid'])}, {note['command']}, since {note['since']}"
        except (OSError, ValueError, KeyError, TypeError):
            if time.monotonic() > deadline:
                return "another process"
            time.sleep(0.02)
