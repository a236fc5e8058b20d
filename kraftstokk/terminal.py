"""What reaches the terminal: text from files (plant names, titles) can hold control
characters (BEL, backspace, DEL, ANSI escapes, bidi overrides) that would ring, erase,
recolour or reorder what the user reads. They are shown escaped (``\\x07``) instead."""

from __future__ import annotations

import re
from typing import Any, TextIO

#: C0 controls but tab and newline, DEL, C1 controls, and the bidi embedding/override/
#: isolate characters that reorder a line.
_OTHERS = "\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069"
_CONTROL = re.compile(f"[\x00-\x08\x0b-\x1f{_OTHERS}]")
_CONTROL_KEEP_CR = re.compile(f"[\x00-\x08\x0b\x0c\x0e-\x1f{_OTHERS}]")


def _escaped(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def printable(text: str, keep_carriage_return: bool = False) -> str:
    """``text`` with every control character written as an escape (``\\x07``)."""
    pattern = _CONTROL_KEEP_CR if keep_carriage_return else _CONTROL
    return pattern.sub(_escaped, text)


class PrintableStream:
    """A text stream that escapes control characters in everything written to it.

    A carriage return is kept: the progress bar redraws its line with it.
    """

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        self._stream.write(printable(text, keep_carriage_return=True))
        return len(text)

    def writelines(self, lines: Any) -> None:
        for line in lines:
            self.write(line)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


def guard(stream: TextIO) -> TextIO:
    """``stream`` wrapped once in a :class:`PrintableStream`."""
    if isinstance(stream, PrintableStream):
        return stream
    return PrintableStream(stream)  # type: ignore[return-value]


def unguarded(stream: TextIO) -> TextIO:
    """The stream below a :class:`PrintableStream` (for a display that writes its own
    escape sequences and escapes the text it shows itself)."""
    while isinstance(stream, PrintableStream):
        stream = stream._stream
    return stream
