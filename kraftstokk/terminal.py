"""What reaches the terminal: text from files (plant names, titles) can hold control
characters (BEL, backspace, DEL, ANSI escapes, bidi overrides) that would ring, erase,
recolour or reorder what the user reads. They are shown escaped (``\\x07``) instead.

A standard stream that cannot be written (a full disk, ``>&-``) is an :class:`OutputError`
naming it, said in one line, rather than a traceback."""

from __future__ import annotations

import os
import re
import sys
from typing import Any, TextIO

from kraftstokk.errors import OutputError

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

    A carriage return is kept: the progress bar redraws its line with it. Writing to
    standard output when it is closed or full raises :class:`OutputError`; standard
    error's own failures are dropped (there is nowhere left to say them). A closed pipe
    (``| head``) is left to click, which ends quietly.
    """

    def __init__(self, stream: TextIO | None, name: str = "standard output") -> None:
        self._stream = stream
        self._name = name
        #: Why standard output could not be written (None: it could), kept for the exit
        #: in case a library caught the error (click's probe of the stream does).
        self.failure: OutputError | None = None
        self._broken = False

    def write(self, text: str) -> int:
        if self._broken or text == "":  # b"" stays an error: click probes for a binary stream
            return len(text)
        if self._stream is None:
            self._failed("it is closed")
        try:
            self._stream.write(printable(text, keep_carriage_return=True))  # type: ignore[union-attr]
        except BrokenPipeError:
            raise
        except OSError as exc:
            self._failed(exc.strerror or str(exc))
        return len(text)

    def flush(self) -> None:
        if self._broken or self._stream is None:
            return
        try:
            self._stream.flush()
        except BrokenPipeError:
            raise
        except OSError as exc:
            self._failed(exc.strerror or str(exc))

    def _failed(self, reason: str) -> None:
        """Raise the stream's failure, once; what is still buffered for it goes to the null
        device, so the flush at exit cannot fail again (with a traceback)."""
        self._broken = True
        if self._stream is not None:
            try:
                with open(os.devnull, "w") as sink:
                    os.dup2(sink.fileno(), self._stream.fileno())
            except (OSError, ValueError, AttributeError):  # no file below (a test's StringIO)
                pass
        if self._name != "standard error":
            self.failure = OutputError(self._name, f"cannot be written: {reason}")
            raise self.failure

    def writelines(self, lines: Any) -> None:
        for line in lines:
            self.write(line)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


def guard(stream: TextIO | None, name: str = "standard output") -> TextIO:
    """``stream`` (``None``: closed) wrapped once in a :class:`PrintableStream`."""
    if isinstance(stream, PrintableStream):
        return stream
    return PrintableStream(stream, name)  # type: ignore[return-value]


def guard_standard_streams() -> None:
    """``sys.stdout`` and ``sys.stderr`` guarded (:func:`guard`)."""
    sys.stdout = guard(sys.stdout)
    sys.stderr = guard(sys.stderr, "standard error")


def unguarded(stream: TextIO) -> TextIO:
    """The stream below a :class:`PrintableStream` (for a display that writes its own
    escape sequences and escapes the text it shows itself); the guard itself where the
    stream below is closed."""
    while isinstance(stream, PrintableStream) and stream._stream is not None:
        stream = stream._stream
    return stream
