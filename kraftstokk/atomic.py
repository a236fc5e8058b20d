"""Atomic file writes: an output is either complete or not there at all.

Temporary files and folders carry the writer's process id in their names
(``.deck.json.4242.k3j9.tmp``), so the next write beside them removes those a killed run
left behind, and never those of a run still going.
"""

from __future__ import annotations

import os
import re
import shutil
import tempfile
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO

from kraftstokk.errors import OutputError

_LEFTOVER = re.compile(r"^\.(?P<name>.+)\.(?P<pid>\d+)\.[a-z0-9_]+\.(?:tmp|new|old)$")
#: Temporary files named before process ids were part of the name (``.x.k3j9abcd.tmp``).
_OLD_STYLE = re.compile(r"^\.(?P<name>.+)\.[a-z0-9_]{8}\.tmp$")
OLD_STYLE_AGE = 3600.0  # seconds; no write takes this long


def _umask() -> int:
    umask = os.umask(0)
    os.umask(umask)
    return umask


def _default_file_mode() -> int:
    return 0o666 & ~_umask()


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process
        return True
    return True


def remove_leftovers(folder: Path, name: str | None = None) -> list[Path]:
    """Delete temporary files and folders in ``folder`` left by runs that no longer live.

    With ``name``, only those of that target. Returns what was removed.
    """
    removed: list[Path] = []
    try:
        entries = list(folder.iterdir())
    except OSError:
        return removed
    now = time.time()
    for entry in entries:
        match = _LEFTOVER.match(entry.name)
        if match is not None:
            stale = not _alive(int(match["pid"]))
        else:
            match = _OLD_STYLE.match(entry.name)
            try:
                stale = match is not None and now - entry.lstat().st_mtime > OLD_STYLE_AGE
            except OSError:
                continue
        if match is None or not stale or (name is not None and match["name"] != name):
            continue
        try:
            if entry.is_dir() and not entry.is_symlink():
                shutil.rmtree(entry)
            else:
                entry.unlink()
        except OSError:
            continue
        removed.append(entry)
    return removed


def _temp_prefix(target: Path) -> str:
    return f".{target.name}.{os.getpid()}."


@contextmanager
def atomic_path(target: str | os.PathLike[str]) -> Iterator[Path]:
    """Yield a temporary path beside ``target``; move it into place only on success.

    Use for writers that want a file name (reportlab, pandas). On any exception the
    temporary file is removed and ``target`` keeps its previous content.
    """
    with _staged(target) as (tmp, commit):
        yield tmp
        commit()


@contextmanager
def _staged(target: str | os.PathLike[str]) -> Iterator[tuple[Path, Callable[[], None]]]:
    """A temporary path beside ``target`` and the function that moves it into place."""
    target = Path(target)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        remove_leftovers(target.parent, target.name)
        fd, tmp_name = tempfile.mkstemp(
            prefix=_temp_prefix(target), suffix=".tmp", dir=target.parent
        )
    except OSError as exc:
        raise OutputError(target, f"cannot write: {exc.strerror or exc}") from exc
    os.close(fd)
    tmp = Path(tmp_name)

    def commit() -> None:
        # mkstemp makes the file private (0600); an output gets the usual umask mode.
        os.chmod(tmp, _default_file_mode())
        os.replace(tmp, target)

    try:
        yield tmp, commit
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        raise OutputError(target, f"cannot write: {exc.strerror or exc}") from exc
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    tmp.unlink(missing_ok=True)  # gone already after commit; here when commit was skipped


@contextmanager
def atomic_open(
    target: str | os.PathLike[str], mode: str = "w", encoding: str | None = "utf-8"
) -> Iterator[IO[str]]:
    """Open a temporary file for writing text; it replaces ``target`` when closed cleanly."""
    with atomic_path(target) as tmp, open(tmp, mode, encoding=encoding, newline="") as handle:
        yield handle


def write_bytes(target: str | os.PathLike[str], data: bytes) -> None:
    with atomic_path(target) as tmp:
        tmp.write_bytes(data)


def write_text(target: str | os.PathLike[str], text: str, encoding: str = "utf-8") -> None:
    write_bytes(target, text.encode(encoding))


def write_files(files: dict[Path, bytes]) -> None:
    """Write several files as one: every one is complete on disk before any is moved into
    place, and they are moved in the order given (put the one readers check last)."""
    with _many(files) as staged:
        for (tmp, _), data in zip(staged, files.values(), strict=True):
            tmp.write_bytes(data)
        for _, commit in staged:
            commit()


@contextmanager
def _many(files: dict[Path, bytes]) -> Iterator[list[tuple[Path, Callable[[], None]]]]:
    from contextlib import ExitStack

    with ExitStack() as stack:
        yield [stack.enter_context(_staged(target)) for target in files]


def refuse_overwriting(inputs: Iterable[Path], outputs: Iterable[Path]) -> None:
    """An OutputError when an output would replace one of the inputs it is made from."""
    seen = {_identity(path): path for path in inputs}
    for output in outputs:
        source = seen.get(_identity(output))
        if source is not None:
            raise OutputError(output, f"would overwrite the input {source}; choose another --out")


def _identity(path: Path) -> object:
    try:
        info = path.stat()
    except OSError:
        return path.resolve()
    return (info.st_dev, info.st_ino)


def _temp_dir(target: Path, suffix: str) -> Path:
    return Path(tempfile.mkdtemp(prefix=_temp_prefix(target), suffix=suffix, dir=target.parent))


@contextmanager
def replaced_directory(target: Path, carry_over: Callable[[str], bool]) -> Iterator[Path]:
    """Yield an empty folder to fill; on success it takes ``target``'s place whole.

    Entries of the old ``target`` for which ``carry_over(name)`` is true (files that are
    not the writer's own) are moved into the new folder first. A failure leaves
    ``target`` as it was and removes the new folder.
    """
    target = Path(target)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        remove_leftovers(target.parent, target.name)
        staging = _temp_dir(target, ".new")
    except OSError as exc:
        raise OutputError(target, f"cannot write: {exc.strerror or exc}") from exc
    try:
        yield staging
        old: Path | None = None
        if target.is_dir():
            for entry in target.iterdir():
                if carry_over(entry.name) and not (staging / entry.name).exists():
                    os.replace(entry, staging / entry.name)
            old = _temp_dir(target, ".old")
            os.replace(target, old / target.name)
        os.chmod(staging, _default_file_mode() | (0o111 & ~_umask()))  # mkdtemp gives 0700
        os.replace(staging, target)
        if old is not None:
            shutil.rmtree(old, ignore_errors=True)
    except OSError as exc:
        shutil.rmtree(staging, ignore_errors=True)
        raise OutputError(target, f"cannot write: {exc.strerror or exc}") from exc
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
