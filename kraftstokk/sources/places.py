"""Plant places: where each plant lies and what kind it is, by plant key.

NVE's API gives no coordinates and no reservoir or run-of-river type; the JRC database
has both. ``kraftstokk places`` writes this table from a source that has them, and
``build`` carries from it what a snapshot lacks (:mod:`kraftstokk.deck.carry`).

File contract: ``<name>.csv`` with the columns ``key, lat, lon, type`` (the plant key of
:mod:`kraftstokk.sources.plant_keys`, decimal degrees, ``reservoir`` | ``run-of-river``
| ``pumped-storage`` or empty) and, when a row states its own source, ``source`` (who
measured that place: the card of that plant credits it instead of the table's source),
UTF-8, ``.`` decimals, sorted by key as a number; its provenance (licence, attribution,
rows) beside it as ``<name>.provenance.json``, written last and vouching for the CSV by
its SHA-256, like a snapshot's. A table written by hand needs no provenance when every
row states its source.
"""

from __future__ import annotations

import csv
import io
import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from kraftstokk.errors import InputFileError
from kraftstokk.models import PLANT_TYPES, PlantType
from kraftstokk.sources.formats.origins import Origin
from kraftstokk.sources.normalize import RawRecord, clean_id, plant_type
from kraftstokk.sources.numbers import DecimalMark, NotANumber, parse_number
from kraftstokk.sources.plant_keys import plant_key
from kraftstokk.sources.quality import QualityReport, sorted_reasons
from kraftstokk.sources.snapshot import (
    Provenance,
    format_number,
    provenance_path,
    verified_provenance,
    write_with_provenance,
)
from kraftstokk.textfile import read_input_bytes

PLACE_COLUMNS: tuple[str, ...] = ("key", "lat", "lon", "type")
#: The columns of a table whose rows state their own source.
SOURCED_COLUMNS: tuple[str, ...] = (*PLACE_COLUMNS, "source")
#: A row's source is printed on its card: a short line, like "Kartverket, CC BY 4.0".
MAX_SOURCE = 120
#: What a place table is credited with, per origin of its data. The cards print the
#: bokmål one in their small print's two lines, so it is short: the map (kart) and the
#: type picture beside it.
PLACES_CREDIT = "Plant locations and types"
PLACES_CREDIT_NB = "Kart"


@dataclass(frozen=True)
class Place:
    """Where one plant lies (both coordinates or neither) and what kind it is."""

    lat: float | None
    lon: float | None
    type: PlantType | None
    #: Who measured this place, when the row says so (else the table's source).
    source: str | None = None

    @property
    def has_place(self) -> bool:
        return self.lat is not None and self.lon is not None


@dataclass(frozen=True)
class PlaceTable:
    places: dict[str, Place]
    provenance: Provenance
    #: Rows whose coordinates were left out: their source publishes none, and no
    #: ``--source`` said who measured them (their types are kept).
    unsourced: int = 0


def places_origin(origin: Origin) -> Origin:
    """The credit a place table made from ``origin``'s data carries."""
    return Origin(
        name=origin.name,
        licence=origin.licence,
        attribution=places_credit(origin.attribution),
        attribution_nb=places_credit(origin.attribution_nb, nb=True),
    )


def places_credit(attribution: str, nb: bool = False) -> str:
    """``"JRC Hydro-power database (…), CC BY 4.0; Norwegian figures …"`` ->
    ``"Plant locations and types: JRC Hydro-power database (…), CC BY 4.0."``: the source
    and its licence, without what it says of its own figures' origin."""
    head = attribution.split("; ")[0].strip()
    head = head if head.endswith(".") else f"{head}."
    return f"{PLACES_CREDIT_NB if nb else PLACES_CREDIT}: {head}"


def _number_in(value: object, decimal: DecimalMark, low: float, high: float) -> float | None:
    try:
        number = parse_number(value, decimal)
    except NotANumber:
        return None
    return number if number is not None and low <= number <= high else None


def places_from_records(
    records: Sequence[RawRecord],
    min_mw: float | None = None,
    unpublished: Sequence[bool] = (),
    source: str | None = None,
) -> tuple[dict[str, Place], QualityReport, int]:
    """Each plant's place and type from raw source rows, by plant key; rows the reader
    skips, without an id, below ``min_mw`` (or without a capacity when it is set), or with
    neither a place nor a type are counted and left out.

    ``unpublished[i]``: record i comes from a format whose origin publishes no coordinates
    (NVE's): its coordinates are taken only with ``source`` (who measured them), which
    their rows then state, and otherwise left out (the third value counts them).
    """
    places: dict[str, Place] = {}
    dropped: Counter[str] = Counter()
    unsourced = 0
    for index, record in enumerate(records):
        plant_id = clean_id(record.id)
        if record.skip_reason is not None:
            dropped[record.skip_reason] += 1
            continue
        if plant_id is None:
            dropped["id missing"] += 1
            continue
        if min_mw is not None:
            mw = _number_in(record.mw, record.decimal, 0.0, math.inf)
            if mw is None or mw < min_mw:
                dropped[f"mw below {format_number(min_mw)} or missing (filter)"] += 1
                continue
        lat = _number_in(record.lat, record.decimal, -90.0, 90.0)
        lon = _number_in(record.lon, record.decimal, -180.0, 180.0)
        if lat is None or lon is None:
            lat = lon = None
        stated = None
        if lat is not None and index < len(unpublished) and unpublished[index]:
            if source is None:
                unsourced += 1
                lat = lon = None
            else:
                stated = source
        place = Place(lat=lat, lon=lon, type=plant_type(record.type), source=stated)
        if not place.has_place and place.type is None:
            dropped["neither a place nor a type"] += 1
            continue
        key = plant_key(plant_id)
        if key in places:
            dropped["repeated plant (first kept)"] += 1
            continue
        places[key] = place
    quality = QualityReport(
        rows_read=len(records), rows_kept=len(places), dropped=sorted_reasons(dropped)
    )
    return dict(sorted(places.items(), key=lambda item: _key_order(item[0]))), quality, unsourced


def _key_order(key: str) -> tuple[int, int, str]:
    """NVE's numbers in numeric order, then any other key."""
    return (0, int(key), "") if key.isdigit() else (1, 0, key)


def places_csv_text(places: dict[str, Place]) -> str:
    """The table; the ``source`` column only when a row states its own."""
    sourced = any(place.source for place in places.values())
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(SOURCED_COLUMNS if sourced else PLACE_COLUMNS)
    for key, place in places.items():
        row = [
            key,
            "" if place.lat is None else format_number(place.lat),
            "" if place.lon is None else format_number(place.lon),
            place.type or "",
        ]
        writer.writerow([*row, place.source or ""] if sourced else row)
    return buffer.getvalue()


def write_places(table: PlaceTable, path: str | Path) -> Path:
    """Write the table and its provenance as one unit; returns the provenance path."""
    data = places_csv_text(table.places).encode("utf-8")
    return write_with_provenance(Path(path), data, table.provenance, None)


def is_places_csv(header: Sequence[str]) -> bool:
    return [name.strip() for name in header] in (list(PLACE_COLUMNS), list(SOURCED_COLUMNS))


def read_places(path: str | Path) -> PlaceTable:
    """Read a place table and its provenance, checking every row.

    A table without a provenance is read when every row states its source (a table
    written by hand); else it is refused, naming the rows that state none."""
    path = Path(path)
    data = read_input_bytes(path, "place table")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise InputFileError(path, "not a UTF-8 text file") from None
    reader = csv.reader(io.StringIO(text, newline=""))
    header = next(reader, [])
    if not is_places_csv(header):
        wanted = ",".join(PLACE_COLUMNS)
        raise InputFileError(
            path, f"not a place table: the header is not {wanted} (or {wanted},source)"
        )
    width = len(header)
    places: dict[str, Place] = {}
    unsourced: list[int] = []
    for row in reader:
        line = reader.line_num
        if not any(cell.strip() for cell in row):
            continue
        if len(row) != width:
            raise InputFileError(path, f"line {line}: expected {width} fields")
        place = _row_place(path, line, row)
        places[_row_key(path, line, row[0], places)] = place
        if place.source is None:
            unsourced.append(line)
    if provenance_path(path).exists() or not places:
        provenance = verified_provenance(path, data, "run places again")
    elif unsourced:
        lines = ", ".join(map(str, unsourced[:5])) + (" ..." if len(unsourced) > 5 else "")
        raise InputFileError(
            path,
            f"has no provenance ({provenance_path(path).name}) and line(s) {lines} state no "
            "source: give every row its source in a source column (key,lat,lon,type,source; "
            'e.g. "Kartverket, CC BY 4.0"), or add the places with kraftstokk places --add '
            "KEY --lat LAT --lon LON --source TEXT",
        )
    else:
        provenance = hand_provenance(path.name, len(places))
    return PlaceTable(places=places, provenance=provenance)


def hand_provenance(name: str, rows: int, created: str = "") -> Provenance:
    """The provenance of a table whose every row states its source (no table-wide
    credit: each card credits its own row's source)."""
    return Provenance(
        source_kind="hand",
        sources=[name],
        created=created,
        licence="",
        attribution="",
        attribution_nb="",
        quality=QualityReport(rows_read=rows, rows_kept=rows),
    )


def _row_key(path: Path, line: int, text: str, seen: dict[str, Place]) -> str:
    key = plant_key(text)
    if not key:
        raise InputFileError(path, f"line {line}: key is empty")
    if key in seen:
        raise InputFileError(path, f"line {line}: plant {key} is listed twice")
    return key


def _row_place(path: Path, line: int, row: list[str]) -> Place:
    coordinates: list[float | None] = []
    for column, text, low, high in (("lat", row[1], -90, 90), ("lon", row[2], -180, 180)):
        text = text.strip()
        if not text:
            coordinates.append(None)
            continue
        try:
            value = float(text)
        except ValueError:
            raise InputFileError(path, f"line {line}: {column} {text!r} is not a number") from None
        if not low <= value <= high:
            raise InputFileError(path, f"line {line}: {column} {text} is not a {column}itude")
        coordinates.append(value)
    lat, lon = coordinates
    if (lat is None) != (lon is None):
        raise InputFileError(path, f"line {line}: a place needs both lat and lon")
    kind = row[3].strip() or None
    if kind is not None and kind not in PLANT_TYPES:
        raise InputFileError(
            path, f"line {line}: type {kind!r} is not one of {', '.join(PLANT_TYPES)}"
        )
    source = " ".join(row[4].split()) if len(row) > len(PLACE_COLUMNS) else ""
    if len(source) > MAX_SOURCE:
        raise InputFileError(
            path, f"line {line}: the source has {len(source)} characters (at most {MAX_SOURCE})"
        )
    return Place(lat=lat, lon=lon, type=plant_type(kind), source=source or None)


def places_from_files(
    paths: Sequence[str | Path],
    fmt: str = "auto",
    created: str | None = None,
    data_date: str | None = None,
    min_mw: float | None = None,
    source: str | None = None,
) -> PlaceTable:
    """The place table of plant files (any ``ingest`` format; the JRC CSV has places and
    types, NVE files types only), with the provenance crediting their origins.

    Coordinates in a file of a format whose origin publishes none (an NVE export with
    coordinates added) are someone else's: they are taken only with ``source`` (who
    measured them), which their rows state and their cards credit."""
    from kraftstokk.sources import formats
    from kraftstokk.sources.ingest import check_timestamp, utc_now_text

    batches = [formats.read_source(path, fmt) for path in paths]
    records = [record for batch in batches for record in batch.records]
    used = [formats.find(batch.format) for batch in batches]
    unpublished = [
        not found.origin.publishes_places
        for found, batch in zip(used, batches, strict=True)
        for _ in batch.records
    ]
    places, quality, unsourced = places_from_records(records, min_mw, unpublished, source)
    if not places:
        names = ", ".join(str(batch.path) for batch in batches)
        raise InputFileError(names, "no plant with a place (lat and lon) or a type")
    origins = [places_origin(o) for o in sorted({f.origin for f in used}, key=lambda o: o.name)]
    kinds = sorted({batch.format for batch in batches})
    provenance = Provenance(
        source_kind=kinds[0] if len(kinds) == 1 else "mixed",
        sources=[batch.path.name for batch in batches],
        created=check_timestamp(created) if created else utc_now_text(),
        data_date=data_date,
        filters={} if min_mw is None else {"min_mw": min_mw},
        licence="; ".join(origin.licence for origin in origins),
        attribution=" ".join(origin.attribution for origin in origins),
        attribution_nb=" ".join(origin.attribution_nb for origin in origins),
        quality=quality,
    )
    return PlaceTable(places=places, provenance=provenance, unsourced=unsourced)


def added_place(
    path: Path, key: str, place: Place, created: str | None = None
) -> tuple[PlaceTable, Place | None]:
    """The table at ``path`` (a new one when there is none) with ``place`` for the plant
    ``key``, stating its own source; and the place it replaces, if any."""
    from kraftstokk.sources.ingest import check_timestamp, utc_now_text

    stamp = check_timestamp(created) if created else utc_now_text()
    if path.exists():
        table = read_places(path)
    else:
        table = PlaceTable(places={}, provenance=hand_provenance(path.name, 0, stamp))
    plant = plant_key(key)
    before = table.places.get(plant)
    places = dict(sorted({**table.places, plant: place}.items(), key=lambda i: _key_order(i[0])))
    rows = table.provenance.quality
    quality = rows.model_copy(
        update={"rows_kept": len(places), "rows_read": max(rows.rows_read, len(places))}
    )
    provenance = table.provenance.model_copy(update={"quality": quality})
    return PlaceTable(places=places, provenance=provenance), before
