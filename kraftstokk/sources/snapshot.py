"""The plants snapshot: a CSV of normalized plants plus its provenance JSON beside it.

File contract (DESIGN.md): one row per plant, the columns named exactly as the
:class:`~kraftstokk.models.Plant` fields in :data:`~kraftstokk.models.PLANT_COLUMNS` order,
UTF-8, ``.`` as decimal mark, rows sorted by ``id``. The provenance lives in
``<stem>.provenance.json``. Writing is deterministic: the same plants and provenance
give the same bytes.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from kraftstokk.atomic import write_files
from kraftstokk.errors import InputFileError
from kraftstokk.models import PLANT_COLUMNS, Plant
from kraftstokk.sources.plant_keys import plant_key
from kraftstokk.sources.quality import QualityReport
from kraftstokk.textfile import parse_json_text, read_input_bytes, read_utf8_text


class Provenance(BaseModel):
    """Where a snapshot's figures come from, and what happened on the way in."""

    model_config = ConfigDict(extra="forbid")

    #: ``nve-api`` (fetched), ``nve-json``, ``nve-csv``, ``nve-xlsx``, ``jrc-csv``, or ``mixed``.
    source_kind: str
    #: The URL fetched, or the names (not paths) of the files ingested.
    sources: list[str]
    #: When the data was retrieved (fetch) or the snapshot was made (ingest), ISO 8601.
    created: str
    #: The date the figures describe, when known (e.g. ``2024-01`` for the JRC release).
    data_date: str | None = None
    licence: str
    attribution: str
    #: The attribution in bokmål, for the cards' small print (older snapshots lack it).
    attribution_nb: str | None = None
    #: Selection filters applied on ingest, e.g. ``{"min_mw": 20.0}``.
    filters: dict[str, float] = Field(default_factory=dict)
    #: True when optional columns (county, lat, ...) were left empty on purpose (--minimal).
    minimal: bool = False
    #: File name of the raw response saved beside the snapshot (fetch only).
    raw_file: str | None = None
    quality: QualityReport
    #: SHA-256 of the snapshot CSV and of the raw response. The provenance is written
    #: last, so it vouches for the files of one run, and a reader checks them. After a
    #: hand edit of the CSV, remove ``csv_sha256`` (or run ingest on the edited file).
    csv_sha256: str | None = None
    raw_sha256: str | None = None


@dataclass(frozen=True)
class Snapshot:
    """Normalized plants, sorted by id, and their provenance."""

    plants: list[Plant]
    provenance: Provenance

    def plant(self, plant_id: str) -> Plant:
        for plant in self.plants:
            if plant.id == plant_id:
                return plant
        raise KeyError(plant_id)


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def provenance_path(snapshot_path: str | Path) -> Path:
    """``sources/x.csv`` -> ``sources/x.provenance.json``."""
    path = Path(snapshot_path)
    return path.with_name(f"{path.stem}.provenance.json")


def format_number(value: float) -> str:
    """Shortest text that reads back as the same float; whole numbers without ``.0``."""
    if not math.isfinite(value):
        raise ValueError(f"not a finite number: {value!r}")
    if value == int(value) and abs(value) < 1e15:
        return str(int(value))
    return repr(value)


def _cell(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        raise TypeError("booleans are not snapshot values")
    if isinstance(value, float):
        return format_number(value)
    return str(value)


def snapshot_csv_text(plants: list[Plant]) -> str:
    """The snapshot CSV for ``plants`` (sorted by id), as text."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(PLANT_COLUMNS)
    for plant in sorted(plants, key=lambda p: p.id):
        writer.writerow([_cell(getattr(plant, column)) for column in PLANT_COLUMNS])
    return buffer.getvalue()


def provenance_json_text(provenance: Provenance) -> str:
    return json.dumps(provenance.model_dump(mode="json"), ensure_ascii=False, indent=2) + "\n"


def write_snapshot(
    snapshot: Snapshot, path: str | Path, extra_files: dict[Path, bytes] | None = None
) -> Path:
    """Write the snapshot CSV, any ``extra_files`` and the provenance as one unit
    (:func:`write_with_provenance`). Returns the provenance path."""
    csv_bytes = snapshot_csv_text(snapshot.plants).encode("utf-8")
    return write_with_provenance(Path(path), csv_bytes, snapshot.provenance, extra_files)


def write_with_provenance(
    path: Path, csv_bytes: bytes, provenance: Provenance, extra_files: dict[Path, bytes] | None
) -> Path:
    """Write a CSV, any ``extra_files`` and the provenance beside the CSV as one unit.

    Every file is written to a temporary name first; they are moved into place only after
    all of them were written, the provenance last, and it records each other file's
    SHA-256: a run killed between two moves leaves files that :func:`verified_provenance`
    refuses rather than mixes. A failure before the moves leaves the previous files
    untouched. Returns the provenance path.
    """
    meta_path = provenance_path(path)
    files: dict[Path, bytes] = {path: csv_bytes}
    files.update(extra_files or {})
    digests = {"csv_sha256": _sha256(csv_bytes)}
    raw_name = provenance.raw_file
    raw = next((data for target, data in files.items() if target.name == raw_name), None)
    if raw is not None:
        digests["raw_sha256"] = _sha256(raw)
    recorded = provenance.model_copy(update=digests)
    files[meta_path] = provenance_json_text(recorded).encode("utf-8")
    write_files(files)
    return meta_path


def _first_error(exc: ValidationError) -> str:
    first = exc.errors()[0]
    where = ".".join(str(part) for part in first["loc"])
    return f"{where}: {first['msg']}" if where else str(first["msg"])


def read_provenance(path: str | Path) -> Provenance:
    path = Path(path)
    raw = parse_json_text(path, read_utf8_text(path, "provenance file"), "provenance file")
    try:
        return Provenance.model_validate(raw)
    except ValidationError as exc:
        raise InputFileError(path, f"not a provenance file: {_first_error(exc)}") from None


#: Columns added after snapshots were first written; a snapshot without them still reads.
LATER_COLUMNS: tuple[str, ...] = ("type",)


def _plant_from_row(path: Path, line: int, row: dict[str, str]) -> Plant:
    values: dict[str, Any] = {}
    for column in PLANT_COLUMNS:
        text = row.get(column, "").strip()
        values[column] = text if text else None
    try:
        return Plant.model_validate(values)
    except ValidationError as exc:
        first = exc.errors()[0]
        column = str(first["loc"][0]) if first["loc"] else "?"
        shown = row.get(column, "")
        raise InputFileError(
            path, f"row {line}: bad {column} {shown!r} ({first['msg'].lower()})"
        ) from None


def read_snapshot_plants(path: str | Path) -> list[Plant]:
    """Read only the snapshot CSV (no provenance), checking every row."""
    return _plants_from_text(Path(path), read_utf8_text(Path(path), "snapshot CSV"))


def _plants_from_text(path: Path, text: str) -> list[Plant]:
    reader = csv.DictReader(io.StringIO(text, newline=""))
    header = [name.strip() for name in reader.fieldnames or []]
    missing = [c for c in PLANT_COLUMNS if c not in header and c not in LATER_COLUMNS]
    if missing:
        raise InputFileError(path, f"missing column {', '.join(missing)}")
    unexpected = [column for column in header if column not in PLANT_COLUMNS]
    if unexpected:
        raise InputFileError(path, f"unexpected column {', '.join(unexpected)}")
    reader.fieldnames = header
    plants: list[Plant] = []
    seen: dict[str, int] = {}
    keys: dict[str, tuple[str, int]] = {}
    for row in reader:
        line = reader.line_num
        if None in row or any(value is None for value in row.values()):
            raise InputFileError(path, f"row {line}: expected {len(header)} fields")
        plant = _plant_from_row(path, line, row)
        if plant.id in seen:
            raise InputFileError(path, f"row {line}: id {plant.id!r} repeats row {seen[plant.id]}")
        seen[plant.id] = line
        first_id, first_line = keys.setdefault(plant_key(plant.id), (plant.id, line))
        if first_line != line:
            raise InputFileError(
                path,
                f"rows {first_line} and {line}: ids {first_id!r} and {plant.id!r} are one plant "
                f"(key {plant_key(plant.id)}); keep one row (ingest the source again: it now "
                "refuses such a pair)",
            )
        plants.append(plant)
    if not plants:
        raise InputFileError(path, "no plants in snapshot")
    return sorted(plants, key=lambda p: p.id)


def read_snapshot(path: str | Path) -> Snapshot:
    """Read a snapshot CSV and the provenance beside it.

    Raises :class:`InputFileError` naming the file and the reason (missing file or column,
    a bad number in row N, a repeated id, a malformed provenance file).
    """
    path = Path(path)
    data = read_input_bytes(path, "snapshot CSV")
    plants = _plants_from_text(path, read_utf8_text(path, "snapshot CSV"))
    return Snapshot(plants=plants, provenance=verified_provenance(path, data))


def verified_provenance(
    path: Path, data: bytes, remedy: str = "run ingest or fetch again"
) -> Provenance:
    """The provenance beside the CSV ``path``, refused when it vouches for other bytes
    than ``data`` (the CSV as read); the message says to ``remedy``."""
    provenance = read_provenance(provenance_path(path))
    recorded = provenance.csv_sha256
    if recorded is not None and _sha256(data) != recorded:
        raise InputFileError(
            path,
            f"does not match its provenance {provenance_path(path).name} (another run's "
            f"files, or a run stopped halfway): {remedy}; after a hand edit, remove "
            "csv_sha256 from the provenance",
        )
    return provenance
