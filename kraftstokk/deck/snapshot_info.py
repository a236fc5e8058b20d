"""Read a plants snapshot for the builder: its plants and the deck's SnapshotInfo."""

from __future__ import annotations

from pathlib import Path

from kraftstokk.models import Plant, SnapshotInfo

#: What the cards' and the booklet's small print take from a snapshot's provenance.
SMALL_PRINT = "the data's source, date, licence and attribution"


def read_plants(path: str | Path) -> tuple[list[Plant], SnapshotInfo, list[str]]:
    """Plants of a snapshot CSV, where they come from (path, date, licence, credit), and
    warnings: a snapshot edited by hand without its provenance file is read, and the
    warning says what the deck's small print will lack."""
    from kraftstokk.sources.snapshot import provenance_path, read_snapshot, read_snapshot_plants

    path = Path(path)
    meta = provenance_path(path)
    if path.is_file() and not meta.exists():
        plants = read_snapshot_plants(path)
        warning = (
            f"{path}: no provenance file ({meta.name}) beside the snapshot, so the cards' "
            f"small print will lack {SMALL_PRINT}; copy the provenance file of the snapshot "
            f"this one was edited from to {meta}"
        )
        return plants, SnapshotInfo(path=path.as_posix()), [warning]
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
    return list(snapshot.plants), info, []
