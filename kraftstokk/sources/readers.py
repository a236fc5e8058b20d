"""Readers for plant files: NVE API JSON, NVE CSV and XLSX exports, the JRC database CSV.

Each reader turns a file into :class:`~kraftstokk.sources.normalize.RawRecord` rows and
leaves figure parsing to normalization. Anything that makes a file unusable (missing,
empty, binary, neither CSV nor JSON nor a workbook, a required column missing) raises
:class:`~kraftstokk.errors.InputFileError` naming the file and the reason.
"""

from __future__ import annotations

import codecs
import csv
import io
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from pydantic import ValidationError

from kraftstokk.errors import InputFileError
from kraftstokk.sources.normalize import RawRecord
from kraftstokk.sources.numbers import DecimalMark, guess_decimal_mark
from kraftstokk.sources.nve_schema import NVE_RESPONSE, NvePlantRecord
from kraftstokk.sources.xlsx import read_table
from kraftstokk.textfile import parse_json_text, read_input_bytes
from kraftstokk.workbook import Row, cell_text

#: A name of :data:`kraftstokk.sources.formats.NAMES`.
SourceFormat = Literal["nve-json", "nve-csv", "nve-xlsx", "jrc-csv"]


@dataclass
class SourceRows:
    """The records read from one file."""

    path: Path
    format: SourceFormat
    records: list[RawRecord]


# --- text loading ------------------------------------------------------------------------


def _looks_binary(data: bytes) -> bool:
    head = data[:4096]
    if b"\x00" in head:
        return True
    controls = sum(1 for byte in head if byte < 32 and byte not in (9, 10, 13))
    return controls > len(head) // 20


def load_text(path: Path) -> str:
    """The file's text: UTF-8 with or without BOM, UTF-16 with BOM, else Windows-1252."""
    return decode_text(path, read_input_bytes(path, "data file"))


def decode_text(path: Path, data: bytes) -> str:
    """``data`` (read from ``path``) as text, by the rules of :func:`load_text`."""
    if not data.strip():
        raise InputFileError(path, "file is empty")
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        # Excel's "Unicode text" export.
        try:
            text = data.decode("utf-16")
        except UnicodeDecodeError:
            raise InputFileError(path, "not a valid UTF-16 text file") from None
        if not text.strip():
            raise InputFileError(path, "file is empty")
        return text
    if _looks_binary(data):
        raise InputFileError(path, "binary file, not CSV or JSON")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        _refuse_mixed_encodings(path, data, exc.start)
        try:
            text = data.decode("cp1252")
        except UnicodeDecodeError:
            raise InputFileError(path, "not a text file (neither UTF-8 nor Windows-1252)") from None
    if not text.strip():
        raise InputFileError(path, "file is empty")
    return text


#: A UTF-8 sequence for a letter of Latin-1 (æ is C3 A6): in a Windows-1252 file these
#: byte pairs read as "Ã¦", which no Norwegian name holds.
_UTF8_LATIN = re.compile(rb"[\xc2\xc3][\x80-\xbf]")


def _line_of(data: bytes, offset: int) -> int:
    return data.count(b"\n", 0, offset) + 1


def _refuse_mixed_encodings(path: Path, data: bytes, bad: int) -> None:
    """A file that is neither all UTF-8 nor all Windows-1252 gives wrong names either way.

    ``bad`` is the offset of the first byte that is not UTF-8. When UTF-8 letters come
    before it, or after it, the file mixes the two encodings: refuse it with both lines.
    """
    before = _UTF8_LATIN.search(data, 0, bad)
    after = _UTF8_LATIN.search(data, bad)
    utf8 = before or after
    if utf8 is None:
        return  # a Windows-1252 file throughout
    raise InputFileError(
        path,
        f"mixed text encodings: line {_line_of(data, utf8.start())} is UTF-8 but line "
        f"{_line_of(data, bad)} is not (Windows-1252?); save the file in one encoding",
    )


# --- CSV ---------------------------------------------------------------------------------


def header_key(name: str) -> str:
    """``"Maks ytelse (MW)"`` -> ``"maksytelsemw"``: case, spaces and punctuation ignored."""
    return re.sub(r"[^0-9a-zæøå]", "", name.casefold())


def _delimiter(path: Path, text: str) -> str:
    first_line = next((line for line in text.splitlines() if line.strip()), "")
    unquoted = re.sub(r'"[^"]*"', "", first_line)
    counts = {mark: unquoted.count(mark) for mark in (";", ",", "\t")}
    mark, count = max(counts.items(), key=lambda item: item[1])
    if count == 0:
        raise InputFileError(path, "neither CSV nor JSON (no ',' or ';' separated header)")
    return mark


def _parse_csv(path: Path, text: str) -> tuple[str, list[str], list[list[str]]]:
    delimiter = _delimiter(path, text)
    try:
        rows = [row for row in csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)]
    except csv.Error as exc:
        raise InputFileError(path, f"malformed CSV: {exc}") from None
    rows = [row for row in rows if any(cell.strip() for cell in row)]
    header = [cell.strip() for cell in rows[0]]
    return delimiter, header, rows[1:]


@dataclass(frozen=True)
class Column:
    """A field of :class:`RawRecord` and the header names that may hold it."""

    field: str
    names: tuple[str, ...]
    required: bool = False

    def find(self, keys: Sequence[str]) -> int | None:
        wanted = {header_key(name) for name in self.names}
        return next((index for index, key in enumerate(keys) if key in wanted), None)


NVE_CSV_COLUMNS = (
    Column("id", ("VannKraftverkID", "KraftverkID", "VannKraftverkId"), required=True),
    Column("name", ("Navn", "Kraftverknavn", "VannKraftverkNavn"), required=True),
    Column("mw", ("MaksYtelse", "MaksYtelse_MW", "Maks ytelse (MW)"), required=True),
    Column("gwh", ("MidProd_91_20", "MidProd_91_20_GWh", "Midlere produksjon (GWh)"), True),
    Column("head_m", ("BruttoFallhoyde_M", "BruttoFallhøyde_M", "Bruttofallhøyde (m)"), True),
    Column("county", ("Fylke", "Fylkesnavn")),
    Column("municipality", ("Kommune", "Kommunenavn")),
    Column("owner", ("HovedEier", "Eier")),
    Column("year", ("IDriftDato", "IDriftAar", "Idriftsatt")),
    Column("price_area", ("ElspotomraadeNummer", "Elspotområde", "Elspotomraade")),
    Column("lat", ("Lat", "Breddegrad")),
    Column("lon", ("Lon", "Lengdegrad")),
    Column("type", ("VannKVType", "Kraftverkstype")),
    Column("in_operation", ("ErIDrift",)),
)

JRC_CSV_COLUMNS = (
    Column("id", ("id",), required=True),
    Column("name", ("name",), required=True),
    Column("mw", ("installed_capacity_MW",), required=True),
    Column("gwh", ("avg_annual_generation_GWh",), required=True),
    # For Norwegian rows the JRC file's dam_height_m carries NVE's gross head.
    Column("head_m", ("dam_height_m",), required=True),
    Column("country", ("country_code",), required=True),
    Column("lat", ("lat",)),
    Column("lon", ("lon",)),
    # HDAM reservoir, HROR run-of-river, HPHS pumped storage (Dispa-SET's codes).
    Column("type", ("type",)),
)

_FIGURE_FIELDS = ("mw", "gwh", "head_m", "lat", "lon")
_NOT_IN_OPERATION = {"false", "nei", "no", "0", "n"}


def _locate(path: Path, header: list[str], columns: Sequence[Column]) -> dict[str, int]:
    keys = [header_key(name) for name in header]
    found: dict[str, int] = {}
    missing: list[str] = []
    for column in columns:
        index = column.find(keys)
        if index is not None:
            found[column.field] = index
        elif column.required:
            missing.append(column.names[0])
    if missing:
        noun = "column" if len(missing) == 1 else "columns"
        raise InputFileError(path, f"missing required {noun} {', '.join(missing)}")
    return found


SkipRule = Callable[[dict[str, str]], str | None]


def _csv_records(
    path: Path, text: str, columns: Sequence[Column], source: str, skip: SkipRule
) -> list[RawRecord]:
    delimiter, header, rows = _parse_csv(path, text)
    if len(header) < 2:
        raise InputFileError(path, "neither CSV nor JSON (header has one column)")
    default: DecimalMark = "," if delimiter == ";" else "."
    return _table_records(path, header, rows, columns, source, skip, default)


def _table_records(
    path: Path,
    header: list[str],
    rows: list[list[str]],
    columns: Sequence[Column],
    source: str,
    skip: SkipRule,
    default_decimal: DecimalMark,
) -> list[RawRecord]:
    """Records from a table of text cells: the code every tabular format (CSV, XLSX) shares."""
    where = _locate(path, header, columns)
    rows_values: list[tuple[dict[str, str], str | None]] = []
    for row in rows:
        values = {name: row[index] if index < len(row) else "" for name, index in where.items()}
        reason = skip(values)
        if len(row) != len(header):
            reason = reason or f"malformed row ({len(row)} fields, header has {len(header)})"
        rows_values.append((values, reason))
    # Only the rows that will be used decide the decimal mark.
    figure_cells = [
        values[name]
        for values, reason in rows_values
        if reason is None
        for name in _FIGURE_FIELDS
        if name in values
    ]
    decimal = guess_decimal_mark(figure_cells, default_decimal)
    records: list[RawRecord] = []
    for values, reason in rows_values:
        records.append(
            RawRecord(
                source=source,
                id=values.get("id"),
                name=values.get("name"),
                mw=values.get("mw"),
                gwh=values.get("gwh"),
                head_m=values.get("head_m"),
                county=values.get("county"),
                municipality=values.get("municipality"),
                owner=values.get("owner"),
                year=values.get("year"),
                lat=values.get("lat"),
                lon=values.get("lon"),
                price_area=values.get("price_area"),
                type=values.get("type"),
                decimal=decimal,
                skip_reason=reason,
            )
        )
    return records


def _jrc_skip(values: dict[str, str]) -> str | None:
    country = values.get("country", "").strip().upper()
    return None if country == "NO" else "not Norwegian (JRC country_code)"


def _nve_csv_skip(values: dict[str, str]) -> str | None:
    state = values.get("in_operation", "").strip().casefold()
    return "not in operation" if state in _NOT_IN_OPERATION else None


def read_jrc_csv(path: Path, text: str) -> list[RawRecord]:
    """JRC Hydro-power database CSV; only Norwegian rows (``country_code`` NO) are used."""
    return _csv_records(path, text, JRC_CSV_COLUMNS, "jrc", _jrc_skip)


def read_nve_csv(path: Path, text: str) -> list[RawRecord]:
    """An NVE CSV export with Norwegian headers, ',' or ';' separated."""
    return _csv_records(path, text, NVE_CSV_COLUMNS, "nve", _nve_csv_skip)


# --- XLSX --------------------------------------------------------------------------------

_NVE_HEADER_KEYS = [{header_key(name) for name in column.names} for column in NVE_CSV_COLUMNS]
_NVE_COLUMNS_WANTED = "NVE columns (VannKraftverkID, Navn, MaksYtelse, ...)"


def _is_nve_header(row: Row) -> bool:
    """Two or more NVE column names: a header, not a title row above it."""
    keys = {header_key(cell) for cell in row if isinstance(cell, str)}
    return sum(1 for names in _NVE_HEADER_KEYS if keys & names) >= 2


def _cell_rows(header: list[str], rows: list[Row], decimal: DecimalMark) -> list[list[str]]:
    """Rows as text cells; blank rows go, and blank cells past the header's width too.

    A row shorter than the header is padded: Excel does not store trailing empty cells.
    """
    table: list[list[str]] = []
    for row in rows:
        cells = [cell_text(value, decimal) for value in row]
        if not any(cell.strip() for cell in cells):
            continue
        while len(cells) > len(header) and not cells[-1].strip():
            cells.pop()
        table.append(cells + [""] * (len(header) - len(cells)))
    return table


def read_nve_xlsx(path: Path, data: bytes) -> list[RawRecord]:
    """An NVE export as an Excel workbook, read through the same code as an NVE CSV.

    The table is the first worksheet with NVE column names in one of its first rows
    (title rows above the header are skipped). Numeric cells carry no decimal mark;
    figures typed as text decide one (as in a CSV), and numbers are written with it so
    both read alike.
    """
    table = read_table(path, data, _is_nve_header, _NVE_COLUMNS_WANTED)
    header = [cell_text(value).strip() for value in table.header]
    while header and not header[-1]:
        header.pop()
    where = _locate(path, header, NVE_CSV_COLUMNS)
    figure_columns = [where[name] for name in _FIGURE_FIELDS if name in where]
    typed_figures = [
        cell
        for row in table.rows
        for index in figure_columns
        if index < len(row) and isinstance(cell := row[index], str)
    ]
    decimal = guess_decimal_mark(typed_figures, ".")
    rows = _cell_rows(header, table.rows, decimal)
    return _table_records(path, header, rows, NVE_CSV_COLUMNS, "nve", _nve_csv_skip, decimal)


# --- JSON --------------------------------------------------------------------------------


_NVE_FIGURES = ("MaksYtelse", "MidProd_91_20", "BruttoFallhoyde_M")


def nve_records_to_raw(records: Sequence[NvePlantRecord]) -> list[RawRecord]:
    """NVE records as raw records, figures given as text read with one decimal mark.

    NVE writes decimal commas, so ``","`` unless the texts themselves show a ``"."``
    (``"12.5"``): ``"3,960"`` is then 3.96, like ``"12,5"`` is 12.5.
    """
    texts = [
        value
        for record in records
        for name in _NVE_FIGURES
        if isinstance(value := getattr(record, name), str)
    ]
    decimal = guess_decimal_mark(texts, ",")
    return [nve_record_to_raw(record, decimal) for record in records]


def nve_record_to_raw(record: NvePlantRecord, decimal: DecimalMark = ",") -> RawRecord:
    return RawRecord(
        source="nve",
        id=record.VannKraftverkID,
        name=record.Navn,
        mw=record.MaksYtelse,
        gwh=record.MidProd_91_20,
        head_m=record.BruttoFallhoyde_M,
        county=record.Fylke,
        municipality=record.Kommune,
        owner=record.HovedEier,
        year=record.IDriftDato,
        price_area=record.ElspotomraadeNummer,
        type=record.VannKVType if record.VannKVType is not None else record.VannKVTypeID,
        decimal=decimal,
        skip_reason="not in operation"
        if record.ErIDrift is False or record.UteAvDrift is True
        else None,
    )


def validation_reason(exc: ValidationError) -> str:
    """First pydantic error as ``item 3: VannKraftverkID: Field required``."""
    first = exc.errors()[0]
    parts = [str(part) for part in first["loc"]]
    if parts and parts[0].isdigit():
        parts[0] = f"item {parts[0]}"
    where = ": ".join(parts)
    return f"{where}: {first['msg']}" if where else str(first["msg"])


def parse_nve_records(raw: object) -> list[NvePlantRecord]:
    """Validate decoded JSON as a list of NVE plant records (raises ``ValidationError``)."""
    return NVE_RESPONSE.validate_python(raw)


def read_nve_json(path: Path, text: str) -> list[RawRecord]:
    """NVE API JSON as fetched: a list of plant objects."""
    raw = parse_json_text(path, text, "list of NVE plants")
    if not isinstance(raw, list):
        raise InputFileError(path, "JSON is not a list of NVE plants")
    try:
        records = parse_nve_records(raw)
    except ValidationError as exc:
        reason = validation_reason(exc)
        raise InputFileError(path, f"not a list of NVE plants: {reason}") from None
    return nve_records_to_raw(records)


# --- detection and dispatch (the formats themselves: kraftstokk.sources.formats) ---------


def header_keys(path: Path, text: str) -> set[str]:
    """The header of a CSV text, as :func:`header_key` keys."""
    _, header, _ = _parse_csv(path, text)
    return {header_key(name) for name in header}


def nve_key_names() -> set[str]:
    """Header keys of the columns that mark an NVE CSV (id, name, capacity)."""
    return {header_key(name) for column in NVE_CSV_COLUMNS[:3] for name in column.names}


def explain_unknown(path: Path, text: str) -> InputFileError:
    """Why a text file is none of the formats (its header tells)."""
    _, header, _ = _parse_csv(path, text)
    if len(header) < 2:
        return InputFileError(path, "neither CSV nor JSON")
    return InputFileError(
        path,
        "CSV header matches neither NVE (VannKraftverkID, Navn, MaksYtelse, ...) "
        "nor JRC (id, country_code, installed_capacity_MW, ...) columns",
    )
