"""Timing of the data stage: ingest of the real JRC file and reading the embedded snapshot."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

from kraftstokk.sources.ingest import ingest_files
from kraftstokk.sources.normalize import Filters
from kraftstokk.sources.snapshot import read_snapshot, snapshot_csv_text

REPO = Path(__file__).resolve().parents[1]
JRC_FILE = REPO.parent / "shared" / "data" / "jrc-hydro-power-plant-database.csv"
EMBEDDED = REPO / "sources" / "jrc-2024-01.csv"


def best_of(runs: int, work: Callable[[], object]) -> float:
    """Fastest of ``runs`` timings in seconds (least disturbed by other load)."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    seconds = best_of(5, lambda: read_snapshot(EMBEDDED))
    print(f"read embedded snapshot ({EMBEDDED.name}): {seconds * 1000:.1f} ms (target < 200 ms)")
    if not JRC_FILE.exists():
        print(f"ingest JRC file: skipped ({JRC_FILE} not present)")
        return

    def ingest() -> None:
        snapshot = ingest_files([JRC_FILE], filters=Filters(min_mw=20), created="2026-11-29")
        snapshot_csv_text(snapshot.plants)

    seconds = best_of(5, ingest)
    rows = ingest_files([JRC_FILE], created="2026-11-29").provenance.quality.rows_read
    print(f"ingest JRC file ({rows} rows, --min-mw 20): {seconds * 1000:.1f} ms (target < 1000 ms)")
    print(f"ingest rate: {rows / seconds:,.0f} rows/s")


if __name__ == "__main__":
    main()
