"""Read a plants snapshot for the builder: its plants and the deck's SnapshotInfo."""

from __future__ import annotations

from pathlib import Path

from kraftstokk.models import Plant, SnapshotInfo


def read_plants(path: str | Path) -> tuple[list[Plant], SnapshotInfo]:
    """Plants of a snapshot CSV and where they come from (path, date, licence, credit)."""
    from kraftstokk.sources.snapshot import read_snapshot

    path = Path(path)
    snapshot = read_snapshot(path)
    provenance = snapshot.provenance
    info = SnapshotInfo(
        path=path.as_posix(),
        date=provenance.data_date or provenance.created,
        source=", ".join([provenance.source_kind, *provenance.sources]),
        licence=provenance.licence,
        attribution=provenance.attribution,
        attribution_nb=provenance.attribution_nb,
    )
    return list(snapshot.plants), info
