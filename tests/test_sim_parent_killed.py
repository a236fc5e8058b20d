"""A ``kraftstokk simulate -w N`` whose parent is killed (SIGKILL, the OOM killer) leaves
nothing behind: its workers (``multiprocessing``'s and the head start of
kraftstokk/sim/head_start.py) end within moments, and the output folder's lock goes with
the parent, so the next command writing there is not refused."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from kraftstokk.folderlock import LOCK_NAME

pytestmark = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="reads the processes in /proc"
)

#: The console script, as ``kraftstokk`` runs it.
CONSOLE = "from kraftstokk.console import run; run()"
#: Seconds to wait for a state to come (the run's workers) or to go (after the kill):
#: generous for two loaded cores; the workers end within moments.
DEADLINE = 30.0
#: CPU seconds each worker has played before the parent is killed: well inside the run.
PLAYED = 0.3


def kraftstokk(*args: str, cwd: Path) -> subprocess.Popen[bytes]:
    return subprocess.Popen([sys.executable, "-c", CONSOLE, *args], cwd=cwd,
                            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                            stderr=(cwd / "stderr.txt").open("wb"))  # fmt: skip


def stat(pid: int) -> tuple[str, int, float] | None:
    """A process's state letter, parent's id and CPU seconds (None: it has gone)."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return None
    fields = text[text.rindex(")") + 2 :].split()
    ticks = os.sysconf("SC_CLK_TCK")
    return fields[0], int(fields[1]), (int(fields[11]) + int(fields[12])) / ticks


def children(parent: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and (state := stat(int(entry.name))) and state[1] == parent:
            found.append(int(entry.name))
    return found


def open_files(pid: int) -> set[str]:
    found = set()
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        with contextlib.suppress(OSError):  # closed meanwhile
            found.add(os.readlink(fd))
    return found


def alive(pid: int) -> bool:
    state = stat(pid)
    return state is not None and state[0] not in "ZX"  # a zombie has ended


def until(condition, what: str) -> None:
    deadline = time.monotonic() + DEADLINE
    while not condition():
        assert time.monotonic() < deadline, f"still not so after {DEADLINE:.0f} s: {what}"
        time.sleep(0.02)


@pytest.fixture
def remembered(deck_file: Path, tmp_path: Path) -> Path:
    """The deck, validated once so that the cache of validated decks remembers it (a head
    start plays from it)."""
    done = subprocess.run([sys.executable, "-c", CONSOLE, "simulate", str(deck_file), "-g",
                           "idiot", "-n", "2", "-w", "1", "--no-report", "-o",
                           str(tmp_path / "once")], capture_output=True, timeout=120)  # fmt: skip
    assert done.returncode == 0, done.stderr
    return deck_file


@pytest.mark.parametrize(
    "workers",
    [
        ["-w", "2"],  # the head start alone
        ["-w", "3"],  # the head start and a worker multiprocessing forks
        ["-w", "3", "-s1"],  # two of multiprocessing's (a form the head start does not read)
    ],
    ids=["head-start", "head-start-and-worker", "workers"],
)
def test_a_killed_parents_workers_end_and_free_the_folder(
    remembered: Path, tmp_path: Path, workers: list[str]
):
    count = int(workers[1])
    out = tmp_path / "out"
    run = kraftstokk("simulate", str(remembered), "-g", "idiot", "-b", "greedy", "-n", "3000000",
                     *workers, "--no-report", "--quiet", "-o", str(out), cwd=tmp_path)  # fmt: skip
    found: list[int] = []
    try:

        def playing() -> bool:  # every worker started and well into its chunks
            assert run.poll() is None, (tmp_path / "stderr.txt").read_text()
            found[:] = children(run.pid)
            states = [stat(pid) for pid in found]
            return (
                (out / LOCK_NAME).exists()
                and len(found) == count - 1
                and all(state is not None and state[2] >= PLAYED for state in states)
            )

        until(playing, f"{count - 1} workers playing")
        lock = str((out / LOCK_NAME).resolve())
        assert lock in open_files(run.pid)
        assert not any(lock in open_files(pid) for pid in found)  # the parent's alone
        run.send_signal(signal.SIGKILL)
        run.wait(timeout=DEADLINE)
        until(lambda: not any(alive(pid) for pid in found), f"workers {found} ended")
    finally:
        for pid in found:  # the test's own, whatever happened
            if alive(pid):
                os.kill(pid, signal.SIGKILL)
        if run.poll() is None:
            run.kill()
            run.wait()
    after = subprocess.run([sys.executable, "-c", CONSOLE, "simulate", str(remembered), "-g",
                            "idiot", "-n", "10", "-w", "1", "--no-report", "-o", str(out)],
                           capture_output=True, text=True, timeout=120)  # fmt: skip
    assert after.returncode == 0, after.stderr  # not "another kraftstokk command is writing"


def test_a_killed_sweeps_workers_end_and_free_the_folder(deck_file: Path, tmp_path: Path):
    """``sweep -w 3`` (its local workers, forked by kraftstokk/sim/sweep/backends.py): the
    same as simulate's."""
    spec = tmp_path / "long.toml"
    spec.write_text("games = 1000000\nchunk = 200\n[grid]\ndecks = ['deck.json']\n"
                    "games = ['idiot']\n", encoding="utf-8")  # fmt: skip
    out = tmp_path / "out"
    run = kraftstokk("sweep", str(spec), "-o", str(out), "-w", "3", "--scheduler", "local",
                     "--no-report", cwd=tmp_path)  # fmt: skip
    found: list[int] = []
    try:

        def playing() -> bool:
            assert run.poll() is None, (tmp_path / "stderr.txt").read_text()
            found[:] = children(run.pid)
            states = [stat(pid) for pid in found]
            return len(found) == 3 and all(s is not None and s[2] >= PLAYED for s in states)

        until(playing, "3 workers playing")
        lock = str((out / LOCK_NAME).resolve())
        assert not any(lock in open_files(pid) for pid in found)
        run.send_signal(signal.SIGKILL)
        run.wait(timeout=DEADLINE)
        until(lambda: not any(alive(pid) for pid in found), f"workers {found} ended")
    finally:
        for pid in found:
            if alive(pid):
                os.kill(pid, signal.SIGKILL)
        if run.poll() is None:
            run.kill()
            run.wait()


#: A child that asks to end with its parent, then sleeps (holding no pipe of the parent's);
#: with ``gone``, its parent ends before it asks.
ORPHAN = """
import os, sys, time
from kraftstokk.sim import forked
gone = sys.argv[1] == "gone"
parent = os.getpid()
child = os.fork()
if child == 0:
    while gone and os.getppid() == parent:
        time.sleep(0.01)
    forked.end_with_parent(parent)
    os.write(1, f"asked {os.getpid()}\\n".encode())
    time.sleep(600)
    os._exit(0)
if gone:
    os.write(1, f"{child}\\n".encode())
    os._exit(0)
time.sleep(600)
"""


@pytest.mark.parametrize("when", ["busy", "gone"])
def test_a_worker_that_asked_ends_with_its_parent(when: str):
    """The kernel's SIGTERM at the parent's end (``forked.end_with_parent``) ends a worker
    busy with a long chunk; a parent gone before the worker asked ends it at once."""
    run = subprocess.Popen([sys.executable, "-c", ORPHAN, when], stdout=subprocess.PIPE,
                           text=True)  # fmt: skip
    assert run.stdout is not None
    child = 0
    try:
        child = int(run.stdout.readline().split()[-1])  # "asked PID" (busy), "PID" (gone)
        if when == "busy":
            run.send_signal(signal.SIGKILL)
        run.wait(timeout=DEADLINE)
        until(lambda: not alive(child), f"the child {child} ended")
    finally:
        if child and alive(child):
            os.kill(child, signal.SIGKILL)
        if run.poll() is None:
            run.kill()
            run.wait()
        run.stdout.close()


#: A sweep's pool stopped (SIGTERM to each worker) while its workers are still between
#: the fork and their own handlers: a fork hook of this script makes that moment last.
STOPPED_STARTING = """
import os, sys, time
from kraftstokk.sim import runner
from kraftstokk.sim.sweep.backends import LocalBackend
os.register_at_fork(after_in_child=lambda: time.sleep(0.5))
runner.START_METHOD = "fork"
backend = LocalBackend(2)
with runner.sigterm_as_interrupt():  # as a sweep runs: SIGTERM is Ctrl-C in the parent
    backend._start(2)
    processes = list(backend._processes)
    backend.close()
print(*sorted(process.exitcode for process in processes))
"""


def test_workers_stopped_while_they_start_end_and_let_the_parent_go():
    """A worker forked with the parent's handlers (SIGTERM raises KeyboardInterrupt there)
    and stopped before it has set its own used to raise in its copy of the parent's code:
    lost in a fork hook, it then waited for orders for ever while the parent waited for
    it. The stop is held until the worker's handlers are set (``forked.stops_held``)."""
    done = subprocess.run([sys.executable, "-c", STOPPED_STARTING], capture_output=True,
                          text=True, timeout=DEADLINE)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == [str(-signal.SIGTERM)] * 2
    assert "KeyboardInterrupt" not in done.stderr
