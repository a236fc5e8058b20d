"""Reading input files with one clear error per way a file can be unusable.

Only regular files are read (a FIFO would block, a device never ends), and never more
than a limit per kind of file, so a hostile or mistaken path cannot hang the tool or
exhaust its memory.
"""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from kraftstokk.errors import InputFileError, KraftstokkError, clip

if TYPE_CHECKING:
    from importlib.resources.abc import Traversable

MB = 1024 * 1024
T = TypeVar("T")
#: Largest file read when the caller names no limit. Plant files, decks, saves and specs
#: are far smaller: NVE's whole register is about 2 MB as JSON.
MAX_INPUT_BYTES = 16 * MB

_FILE_KINDS = (
    (stat.S_ISFIFO, "a named pipe (FIFO)"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


def size_text(count: int) -> str:
    """``17825792`` -> ``'17 MB'``; small sizes in kB or bytes."""
    if count >= MB:
        return f"{count / MB:.0f} MB"
    if count >= 1024:
        return f"{count / 1024:.0f} kB"
    return f"{count} bytes"


def _not_regular(mode: int) -> str:
    return next((kind for test, kind in _FILE_KINDS if test(mode)), "not a regular file")


def read_input_bytes(path: Path, what: str, limit: int = MAX_INPUT_BYTES) -> bytes:
    """The file's bytes; a missing, special, too large or unreadable path is an InputFileError.

    The file is opened without blocking (a FIFO would wait for a writer) and checked to
    be a regular file before anything is read; at most ``limit`` bytes are accepted.
    """
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        raise InputFileError(path, "no such file") from None
    except IsADirectoryError:
        raise InputFileError(path, f"is a directory, not a {what}") from None
    except OSError as exc:
        raise InputFileError(path, f"cannot read: {exc.strerror or exc}") from None
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            raise InputFileError(path, f"is a directory, not a {what}")
        if not stat.S_ISREG(info.st_mode):
            raise InputFileError(
                path, f"is {_not_regular(info.st_mode)}, not a {what}: only files are read"
            )
        if info.st_size > limit:
            raise InputFileError(path, _too_large(info.st_size, what, limit))
        with os.fdopen(fd, "rb", closefd=False) as handle:
            data = handle.read(limit + 1)
    except OSError as exc:
        raise InputFileError(path, f"cannot read: {exc.strerror or exc}") from None
    finally:
        os.close(fd)
    if len(data) > limit:  # the file grew while it was read
        raise InputFileError(path, _too_large(len(data), what, limit))
    return data


def _too_large(size: int, what: str, limit: int) -> str:
    return f"too large ({size_text(size)}; a {what} is read only up to {size_text(limit)})"


def read_utf8_text(path: Path, what: str, limit: int = MAX_INPUT_BYTES) -> str:
    """A UTF-8 text file (a BOM is allowed) that is neither binary nor empty."""
    data = read_input_bytes(path, what, limit)
    if b"\x00" in data[:4096]:
        raise InputFileError(path, f"binary file, not a {what}")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise InputFileError(path, "not a UTF-8 text file") from None
    if not text.strip():
        raise InputFileError(path, "file is empty")
    return text


def _no_constant(name: str) -> object:
    raise ValueError(name)


def parse_json_text(path: object, text: str, what: str) -> object:
    """Decoded JSON, or an InputFileError naming ``path``: malformed, nested too deeply,
    or holding ``NaN``/``Infinity`` (not JSON, though Python's parser takes them)."""
    try:
        return json.loads(text, parse_constant=_no_constant)
    except json.JSONDecodeError as exc:
        raise InputFileError(path, f"not valid JSON (line {exc.lineno}: {exc.msg})") from None
    except RecursionError:
        raise InputFileError(path, f"not a {what} (JSON nested too deeply)") from None
    except ValueError as exc:
        raise InputFileError(
            path, f"not valid JSON ({exc} is not a number JSON allows; figures must be finite)"
        ) from None


def toml_names(folder: Traversable | Path) -> list[str]:
    """The names of the ``.toml`` files in ``folder`` (a package's data files), sorted."""
    return sorted(
        entry.name.removesuffix(".toml")
        for entry in folder.iterdir()
        if entry.name.endswith(".toml")
    )


def load_each(names: list[str], load: Callable[[str], T]) -> tuple[list[T], list[str]]:
    """Each of ``names`` loaded, and the error line of each that cannot be (a listing
    shows the good files and names the bad ones)."""
    good: list[T] = []
    bad: list[str] = []
    for name in names:
        try:
            good.append(load(name))
        except KraftstokkError as exc:
            bad.append(exc.message)
    return good, bad


#: Turns the reason a data file cannot be used into the caller's error (naming the file).
Refusal = Callable[[str], KraftstokkError]


def toml_table(data: bytes, what: str, refuse: Refusal) -> dict[str, Any]:
    """``data`` parsed as UTF-8 TOML, else ``refuse(reason)`` is raised."""
    import tomllib  # (here: a command that reads no TOML, or a deck's JSON, goes without)

    try:
        return tomllib.loads(data.decode("utf-8-sig"))
    except UnicodeDecodeError:
        raise refuse("not a UTF-8 text file") from None
    except tomllib.TOMLDecodeError as exc:
        raise refuse(f"not valid TOML ({clip(str(exc))})") from None
    except RecursionError:
        raise refuse(f"not a {what} (TOML nested too deeply)") from None


def read_data_file(entry: Traversable | Path, what: str, limit: int, refuse: Refusal) -> bytes:
    """A data file of the package (a layout, preset, locale) read up to ``limit`` bytes;
    an unreadable or larger file raises ``refuse(reason)``."""
    if isinstance(entry, Path):  # a folder of the user's: never wait on a FIFO
        try:
            return read_input_bytes(entry, what, limit)
        except InputFileError as exc:
            raise refuse(exc.reason) from None
    try:
        with entry.open("rb") as handle:
            data = handle.read(limit + 1)
    except OSError as exc:
        raise refuse(f"cannot be read ({exc.strerror or exc})") from None
    if len(data) > limit:
        raise refuse(f"too large (a {what} is read only up to {size_text(limit)})")
    return bytes(data)
