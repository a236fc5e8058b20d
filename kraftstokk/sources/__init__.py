"""Plant data in: NVE's API, NVE and JRC files, and the normalized snapshot they become."""

from __future__ import annotations

from kraftstokk.sources.snapshot import (
    Provenance,
    Snapshot,
    provenance_path,
    read_snapshot,
    write_snapshot,
)

__all__ = ["Provenance", "Snapshot", "provenance_path", "read_snapshot", "write_snapshot"]
