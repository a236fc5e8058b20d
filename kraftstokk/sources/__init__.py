"""Plant data in: NVE's API, NVE and JRC files, and the normalized snapshot they become.

The snapshot names below load on first use, so that the CLI can read the list of source
formats (:mod:`kraftstokk.sources.formats`) without loading pydantic.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from kraftstokk.sources.snapshot import (
        Provenance,
        Snapshot,
        provenance_path,
        read_snapshot,
        write_snapshot,
    )

__all__ = ["Provenance", "Snapshot", "provenance_path", "read_snapshot", "write_snapshot"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        from kraftstokk.sources import snapshot

        return getattr(snapshot, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
