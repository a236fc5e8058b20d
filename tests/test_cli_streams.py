"""Standard output that cannot be written — a full disk (``> /dev/full``) or a closed
stream (``>&-``) — is one line naming it and exit code 2, never a traceback; the console
script (``kraftstokk.console:run``) is run as a user's shell runs it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import IO

import pytest

FULL = Path("/dev/full")
needs_full = pytest.mark.skipif(not FULL.exists(), reason="no /dev/full on this system")
SCRIPT = "from kraftstokk.console import run\nrun()\n"


def kraftstokk(
    *args: str, stdout: IO[str] | None = None, closed: bool = False
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", SCRIPT, *args],
        stdout=subprocess.DEVNULL if closed else stdout,
        stderr=subprocess.PIPE,
        preexec_fn=(lambda: os.close(1)) if closed else None,
        text=True,
        timeout=120,
    )


def said_once(done: subprocess.CompletedProcess[str], reason: str) -> None:
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr and "Exception ignored" not in done.stderr
    assert done.stderr == f"kraftstokk: error: standard output: cannot be written: {reason}\n"


@needs_full
@pytest.mark.parametrize(
    "command", [("validate",), ("simulate", "-g", "idiot", "-n", "20", "--no-report")]
)
def test_a_full_disk_under_stdout_is_one_line(command, deck_file: Path, tmp_path: Path):
    extra = ("-o", str(tmp_path / "out")) if command[0] == "simulate" else ()
    with FULL.open("w") as full:
        done = kraftstokk(command[0], str(deck_file), *command[1:], *extra, stdout=full)
    said_once(done, "No space left on device")


@needs_full
def test_help_into_a_full_disk_is_one_line():
    with FULL.open("w") as full:
        said_once(kraftstokk("--help", stdout=full), "No space left on device")


def test_a_closed_stdout_is_one_line(deck_file: Path):
    said_once(kraftstokk("--version", closed=True), "it is closed")
    said_once(kraftstokk("validate", str(deck_file), closed=True), "it is closed")


def test_a_closed_pipe_still_ends_quietly(deck_file: Path):
    reader = subprocess.Popen(["head", "-c", "1"], stdin=subprocess.PIPE,
                              stdout=subprocess.DEVNULL)  # fmt: skip
    done = kraftstokk("validate", str(deck_file), stdout=reader.stdin)  # type: ignore[arg-type]
    assert reader.stdin is not None
    reader.stdin.close()
    reader.wait(timeout=30)
    assert "Traceback" not in done.stderr and "error" not in done.stderr
