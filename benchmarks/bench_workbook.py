"""The bounded workbook reader: a register-sized workbook read, and every attack of
tests/test_workbook_attacks.py refused, in CPU seconds and peak memory of the CLI.

Each attack runs ``kraftstokk validate deck.xlsx`` and ``kraftstokk ingest plants.xlsx``
as child processes (peak resident memory: the kernel's ``VmHWM``), three times each: the median
CPU time and the range are printed. Targets: a few seconds and far below 500 MB each.
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
RUNS = 3
MB = 1024 * 1024


def _register_sized_workbook() -> bytes:
    """1 700 rows of 30 cells, as NVE's whole register: numbers and text."""
    from openpyxl import Workbook

    from kraftstokk.workbook.writer import workbook_bytes

    workbook = Workbook()
    sheet = workbook.active
    assert sheet is not None
    sheet.append([f"Kolonne{n}" for n in range(30)])
    for row in range(1700):
        sheet.append([row, f"Kraftverk {row}", *(row * 1.25 + n for n in range(28))])
    return workbook_bytes(workbook)


def _read_register() -> None:
    from kraftstokk.workbook import WorkbookLimits, first_sheet

    data = _register_sized_workbook()
    times = []
    for _ in range(5):
        start = time.process_time()
        first_sheet(Path("register.xlsx"), data, WorkbookLimits())
        times.append(time.process_time() - start)
    print(
        f"read a workbook of 1 700 x 30 cells ({len(data) // 1024} kB): median "
        f"{statistics.median(times) * 1000:.0f} ms CPU (range {min(times) * 1000:.0f}-"
        f"{max(times) * 1000:.0f} ms; target < 1000 ms)"
    )


def _attacks() -> None:
    sys.path.insert(0, str(REPO))
    from tests.test_workbook_attacks import ATTACKS, run_measured

    with tempfile.TemporaryDirectory() as root:
        for index, (name, (make, _, _)) in enumerate(ATTACKS.items()):
            for command in ("validate", "ingest"):
                folder = Path(root) / f"{index}-{command}"
                folder.mkdir()
                source = make(folder / ("deck.xlsx" if command == "validate" else "plants.xlsx"))
                args = [command, str(source)]
                if command == "ingest":
                    args += ["--out", str(folder / "s.csv")]
                cpus, peaks = [], []
                for _ in range(RUNS):
                    before = os.times()
                    code, stderr, peak = run_measured(args, folder)
                    after = os.times()
                    cpus.append(
                        after.children_user - before.children_user
                        + after.children_system - before.children_system
                    )  # fmt: skip
                    peaks.append(peak)
                    assert code == 2, stderr
                print(
                    f"{name} ({command}, {source.stat().st_size // 1024} kB): median "
                    f"{statistics.median(cpus):.2f} s CPU (range {min(cpus):.2f}-{max(cpus):.2f}), "
                    f"peak {max(peaks) / MB:.0f} MB (target < 500 MB)"
                )


def main() -> None:
    _read_register()
    _attacks()


if __name__ == "__main__":
    sys.path[:0] = [str(REPO)]
    main()
