"""Running ``kraftstokk`` on generated input the way a user would, with the limits the
issues ask for: each run is its own process under an address-space cap, must end within a
time limit, use less than :data:`MAX_RSS` of memory (its own peak, measured by ``wait4`` in a small
launcher), exit 0, 1 or 2, print no traceback and, on exit 2, exactly one error line.

Two Hypothesis profiles: ``short`` (the default; few examples, derandomized, no example
database, so ``make test`` is the same on every run) and ``long`` (``make fuzz``:
``KRAFTSTOKK_FUZZ=long``, ``KRAFTSTOKK_FUZZ_EXAMPLES`` examples per reader, a fresh random
seed each run, which Hypothesis prints with any failure). Every run's time and peak
memory are kept in :data:`RUNS`, which ``make fuzz`` prints as a table.
"""

from __future__ import annotations

import os
import signal
import statistics
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

#: Address space a command may reserve: the CLI maps about 400 MB (Python, pydantic,
#: reportlab, numpy); a reader without bounds reaches this at once.
ADDRESS_SPACE = 1024 * 1024 * 1024
#: What a command may really use (its peak resident memory), as issue 24 asks.
MAX_RSS = 500 * 1024 * 1024
#: Far above what any command here takes (a few seconds); reaching it means a hang.
TIME_LIMIT = 120
LONG = os.environ.get("KRAFTSTOKK_FUZZ") == "long"
LONG_EXAMPLES = int(os.environ.get("KRAFTSTOKK_FUZZ_EXAMPLES", "200"))


def examples(short: int) -> settings:
    """Hypothesis settings: ``short`` examples in ``make test``, many in ``make fuzz``."""
    return settings(
        max_examples=LONG_EXAMPLES if LONG else short,
        derandomize=not LONG,
        deadline=None,
        database=None,
        print_blob=LONG,
        suppress_health_check=[
            HealthCheck.too_slow,
            HealthCheck.function_scoped_fixture,
            HealthCheck.data_too_large,
            HealthCheck.large_base_example,
        ],
    )


@dataclass
class Run:
    reader: str
    args: list[str]
    returncode: int
    stdout: str
    stderr: str
    seconds: float
    peak_rss: int  # bytes


#: Every run of this session, for ``make fuzz``'s summary.
RUNS: list[Run] = []


#: Runs the command as its own child and reports that child's status and peak memory.
#: ``wait4`` counts in a child's peak the memory of the process it was forked from (Linux
#: keeps the larger of the two when the child execs), so a child forked by this pytest
#: process, which grows to hundreds of MB over a run, would carry that size into every
#: figure; a launcher that has just started is small, and its child's peak is the
#: command's own. Killed with its process group at the time limit.
LAUNCHER = """
import os, resource, sys
report, limit, argv = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3:]
pid = os.fork()
if pid == 0:
    os.close(report)
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    os.execv(argv[0], argv)
_, status, usage = os.wait4(pid, 0)
os.write(report, f"{status} {usage.ru_maxrss}".encode())
"""


def run_command(
    args: list[str], cwd: Path, stdin: str = "", reader: str = "", setup: str = ""
) -> Run:
    """``kraftstokk ARGS`` in a child process under the limits; ``setup`` is Python run
    first in the child (to point a loader at a test's folder of data files)."""
    env = {**os.environ, "KRAFTSTOKK_PURE_PYTHON": "1", "SOURCE_DATE_EPOCH": "1764547200"}
    code = f"{setup}\nfrom kraftstokk.cli import main\nmain()"
    command = [sys.executable, "-c", code, *args]
    report_read, report_write = os.pipe()
    started = time.monotonic()
    try:
        process = subprocess.Popen(
            [sys.executable, "-c", LAUNCHER, str(report_write), str(ADDRESS_SPACE), *command],
            cwd=cwd,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            pass_fds=(report_write,),
            start_new_session=True,
            env=env,
        )
    finally:
        os.close(report_write)
    outputs: dict[str, bytes] = {}
    readers = [
        threading.Thread(target=lambda: outputs.update(out=process.stdout.read())),  # type: ignore[union-attr]
        threading.Thread(target=lambda: outputs.update(err=process.stderr.read())),  # type: ignore[union-attr]
    ]
    for thread in readers:
        thread.start()
    assert process.stdin is not None
    try:
        process.stdin.write(stdin.encode("utf-8"))
        process.stdin.close()
    except BrokenPipeError:
        pass
    try:
        process.wait(TIME_LIMIT)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()
    for thread in readers:
        thread.join()
    with os.fdopen(report_read, "rb") as report:
        reported = report.read().split()
    if len(reported) != 2:
        pytest.fail(f"kraftstokk {' '.join(args)[:200]} did not end within {TIME_LIMIT} s")
    status, peak_kib = (int(value) for value in reported)
    run = Run(
        reader or args[0],
        args,
        os.waitstatus_to_exitcode(status),
        outputs.get("out", b"").decode("utf-8", errors="replace"),
        outputs.get("err", b"").decode("utf-8", errors="replace"),
        time.monotonic() - started,
        peak_kib * 1024,
    )
    RUNS.append(run)
    return run


def assert_well_behaved(run: Run) -> None:
    """Exit 0, 1 or 2; no traceback; within the memory limit; one error line on exit 2."""
    context = f"kraftstokk {' '.join(run.args)[:200]}\n{run.stderr[-2000:]}"
    assert run.returncode in (0, 1, 2), (run.returncode, context)
    assert "Traceback" not in run.stderr, context
    assert "out of memory" not in run.stderr, context
    assert run.peak_rss < MAX_RSS, (run.peak_rss // 2**20, "MB", context)
    if run.returncode == 2:
        errors = [line for line in run.stderr.splitlines() if line.startswith("kraftstokk:")]
        assert len(errors) == 1, context
        assert len(errors[0]) <= 1100


def snapshot_of(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def summary() -> list[str]:
    """Per reader: runs, exit codes, median and largest time and peak memory."""
    rows = [f"{'reader':<14} {'runs':>5}  exits 0/1/2   seconds (median, max)   MB (max)"]
    for reader in sorted({run.reader for run in RUNS}):
        runs = [run for run in RUNS if run.reader == reader]
        codes = "/".join(str(sum(r.returncode == c for r in runs)) for c in (0, 1, 2))
        seconds = [r.seconds for r in runs]
        rows.append(
            f"{reader:<14} {len(runs):>5}  {codes:<12} {statistics.median(seconds):6.2f} "
            f"{max(seconds):7.2f}            {max(r.peak_rss for r in runs) / 2**20:6.0f}"
        )
    return rows
