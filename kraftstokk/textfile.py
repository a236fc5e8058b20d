"""Reading input files with one clear error per way a file can be unusable."""

from __future__ import annotations

from pathlib import Path

from kraftstokk.errors import InputFileError


def read_input_bytes(path: Path, what: str) -> bytes:
    """The file's bytes; a missing, directory or unreadable path is an InputFileError."""
    try:
        return path.read_bytes()
    except FileNotFoundError:
        raise InputFileError(path, "no such file") from None
    except IsADirectoryError:
        raise InputFileError(path, f"is a directory, not a {what}") from None
    except OSError as exc:
        raise InputFileError(path, f"cannot read: {exc.strerror or exc}") from None


def read_utf8_text(path: Path, what: str) -> str:
    """A UTF-8 text file (a BOM is allowed) that is neither binary nor empty."""
    data = read_input_bytes(path, what)
    if b"\x00" in data[:4096]:
        raise InputFileError(path, f"binary file, not a {what}")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise InputFileError(path, "not a UTF-8 text file") from None
    if not text.strip():
        raise InputFileError(path, "file is empty")
    return text
