"""A command run in a real terminal (tmux's pseudo-terminal), and what its screen shows.

tmux draws what the program writes as a terminal does, so ``screen()`` is what a person
sees: escape sequences the terminal understood are gone, escape codes printed as text are
there. Each session runs on a tmux server of its own (``-L``), ended when done.
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

import pytest

TMUX = shutil.which("tmux")
#: The ``kraftstokk`` command of this interpreter (the one the tests import).
KRAFTSTOKK = [sys.executable, "-c", "from kraftstokk.cli import main; main()"]

needs_tmux = pytest.mark.skipif(
    TMUX is None, reason="tmux is not installed (.ci/run installs it): no pseudo-terminal"
)


class Terminal:
    """A tmux session running one command in a ``width`` x ``height`` terminal."""

    def __init__(self, socket: str, width: int, height: int) -> None:
        self.socket, self.width, self.height = socket, width, height

    def tmux(self, *args: str) -> str:
        assert TMUX is not None
        done = subprocess.run(
            [TMUX, "-L", self.socket, *args], capture_output=True, text=True, timeout=30
        )
        return done.stdout

    def screen(self) -> str:
        """The visible screen, one line per row, trailing blanks cut."""
        return self.tmux("capture-pane", "-p", "-t", "test")

    def history(self) -> str:
        """Everything the pane showed, scrolled-off lines included."""
        return self.tmux("capture-pane", "-p", "-S", "-", "-t", "test")

    def keys(self, *keys: str) -> None:
        """Type ``keys`` (tmux key names: "Enter", "C-c", or literal text)."""
        self.tmux("send-keys", "-t", "test", *keys)

    def type(self, text: str) -> None:
        self.tmux("send-keys", "-t", "test", "-l", text)

    def wait_for(self, text: str, timeout: float = 120.0, history: bool = False) -> str:
        """The screen once it shows ``text`` (fails with the screen after ``timeout``)."""
        deadline = time.monotonic() + timeout
        while True:
            shown = self.history() if history else self.screen()
            if text in shown:
                return shown
            if time.monotonic() > deadline:
                pytest.fail(f"the terminal never showed {text!r}; it shows:\n{shown}")
            time.sleep(0.2)


@contextmanager
def terminal(
    args: Sequence[str | Path],
    cwd: Path,
    width: int = 110,
    height: int = 30,
    env: dict[str, str] | None = None,
) -> Iterator[Terminal]:
    """``kraftstokk ARGS`` in a terminal; the pane stays open after the command ends and
    says ``[exit N]``."""
    socket = f"kraftstokk-test-{uuid.uuid4().hex[:12]}"
    term = Terminal(socket, width, height)
    command = shlex.join([*KRAFTSTOKK, *map(str, args)])
    variables = {"TERM": "xterm-256color", "COLUMNS": "", "LINES": "", **(env or {})}
    unset = [f"-u {name}" for name, value in variables.items() if not value]
    exports = " ".join(
        unset + [f"{name}={shlex.quote(value)}" for name, value in variables.items() if value]
    )
    shell = f'env {exports} {command}; echo "[exit $?]"; sleep 600'
    term.tmux(
        "-f",
        os.devnull,
        "new-session",
        "-d",
        "-s",
        "test",
        "-x",
        str(width),
        "-y",
        str(height),
        "-c",
        str(cwd),
        shell,
    )
    try:
        yield term
    finally:
        term.tmux("kill-server")
