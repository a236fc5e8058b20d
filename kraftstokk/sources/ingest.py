"""Ingest plant files into a snapshot: read, normalize, attach provenance."""

from __future__ import annotations

import os
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path

from kraftstokk.errors import KraftstokkError
from kraftstokk.models import Plant
from kraftstokk.sources import formats
from kraftstokk.sources.formats.origins import JRC, NVE
from kraftstokk.sources.normalize import Filters, RawRecord, normalize
from kraftstokk.sources.snapshot import Provenance, Snapshot

JRC_LICENCE = JRC.licence
JRC_ATTRIBUTION = JRC.attribution

#: What ``--minimal`` leaves out. Location and plant type stay: every card shows them.
OPTIONAL_FIELDS = ("county", "municipality", "owner", "year", "price_area")

_ORIGINS = {origin.name: origin for origin in (JRC, NVE)}


class NoPlantsError(KraftstokkError):
    """Sources were read but no plant survived normalization."""


def utc_now_text() -> str:
    """Now (or ``SOURCE_DATE_EPOCH`` when set, for reproducible builds) as ISO 8601 UTC."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    moment = (
        datetime.fromtimestamp(int(epoch), tz=UTC)
        if epoch and epoch.isdigit()
        else datetime.now(UTC)
    )
    return moment.replace(microsecond=0).isoformat().replace("+00:00", "Z")


def check_timestamp(text: str) -> str:
    """Accept an ISO date or date-time (``2024-01-31``, ``2024-01-31T12:00:00Z``)."""
    try:
        datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        raise KraftstokkError(f"--created {text!r}: not an ISO date or date-time") from None
    return text


def strip_optional(plant: Plant) -> Plant:
    """The plant with only the deck's columns: id, name, figures, lat, lon, type, source."""
    return plant.model_copy(update=dict.fromkeys(OPTIONAL_FIELDS))


def licence_for(origins: Sequence[str]) -> tuple[str, str]:
    """Licence and attribution text for the sources' origins (``jrc``, ``nve``).

    An origin no format has is an error naming it, not a KeyError.
    """
    unknown = sorted(set(origins) - set(_ORIGINS))
    if unknown:
        known = ", ".join(sorted(_ORIGINS))
        raise KraftstokkError(f"unknown data origin {unknown[0]!r} (known: {known})")
    unique = sorted(set(origins))
    return (
        "; ".join(_ORIGINS[origin].licence for origin in unique),
        " ".join(_ORIGINS[origin].attribution for origin in unique),
    )


def ingest_files(
    paths: Sequence[str | Path],
    fmt: str = "auto",
    filters: Filters | None = None,
    created: str | None = None,
    data_date: str | None = None,
    minimal: bool = False,
) -> Snapshot:
    """Read every file, normalize all rows together, and return the snapshot.

    ``created`` defaults to now; pass it (or set ``SOURCE_DATE_EPOCH``) to make the
    provenance, and so the output bytes, reproducible. ``minimal`` keeps only the
    columns a deck needs (id, name, the three figures, source) and leaves the rest empty.
    """
    filters = filters or Filters()
    batches = [formats.read_source(path, fmt) for path in paths]
    records: list[RawRecord] = []
    for batch in batches:
        for number, record in enumerate(batch.records, start=1):
            record.where = record.where or f"{batch.path.name} row {number}"
            records.append(record)
    result = normalize(records, filters)
    if not result.plants:
        names = ", ".join(str(batch.path) for batch in batches)
        raise NoPlantsError(f"{names}: no plant with all three figures (of {len(records)} rows)")
    plants = [strip_optional(plant) for plant in result.plants] if minimal else result.plants
    kinds = sorted({batch.format for batch in batches})
    used = [formats.find(batch.format) for batch in batches]
    licence, attribution = formats.licence_and_attribution(used)
    provenance = Provenance(
        source_kind=kinds[0] if len(kinds) == 1 else "mixed",
        sources=[batch.path.name for batch in batches],
        created=check_timestamp(created) if created else utc_now_text(),
        data_date=data_date,
        licence=licence,
        attribution=attribution,
        attribution_nb=formats.attribution_nb(used),
        filters=filters.as_dict(),
        minimal=minimal,
        quality=result.quality,
    )
    return Snapshot(plants=plants, provenance=provenance)
