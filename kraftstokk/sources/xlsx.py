"""Reading the table of an Excel workbook (.xlsx) as raw cell values.

Knows workbooks, not NVE: which row is a header is the caller's ``is_header`` test.
Every way a workbook can be unreadable (not a ZIP, a missing or damaged part, broken
XML) becomes one :class:`~kraftstokk.errors.InputFileError` naming the file.
"""

from __future__ import annotations

import io
import zipfile
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date, datetime, time
from decimal import Decimal
from pathlib import Path

from kraftstokk.errors import InputFileError

#: Every ZIP file (and so every .xlsx) starts with a local file header.
ZIP_SIGNATURE = b"PK\x03\x04"
#: Compound File Binary: Excel 97-2003 .xls, and password-protected .xlsx.
OLE2_SIGNATURE = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
XLSX_SUFFIXES = (".xlsx", ".xlsm")
#: A header below more title rows than this is not looked for.
HEADER_SEARCH_ROWS = 20
#: What a workbook may unpack to, and hold: NVE's whole register is 1 700 rows of about
#: 30 cells. A small file that unpacks to hundreds of MB is refused before it is parsed.
MAX_UNPACKED_BYTES = 32 * 1024 * 1024
MAX_ROWS = 100_000
MAX_CELLS = 2_000_000

Cell = object
Row = tuple[Cell, ...]


@dataclass
class SheetTable:
    """The header row of one worksheet and the rows below it, as cell values."""

    sheet: str
    header: Row
    rows: list[Row]


def looks_like_xlsx(path: Path, data: bytes) -> bool:
    """An .xlsx/.xlsm name, or a ZIP or legacy Excel signature, whatever the name."""
    return path.suffix.casefold() in XLSX_SUFFIXES or data.startswith(
        (ZIP_SIGNATURE, OLE2_SIGNATURE)
    )


def _header_index(rows: Sequence[Row], is_header: Callable[[Row], bool]) -> int | None:
    return next(
        (index for index, row in enumerate(rows[:HEADER_SEARCH_ROWS]) if is_header(row)), None
    )


class _TooBig(Exception):
    """The workbook is larger than the limits above."""


def _check_unpacked_size(data: bytes) -> None:
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        infos = archive.infolist()
    unpacked = sum(info.file_size for info in infos)
    if len(infos) > 10_000 or unpacked > MAX_UNPACKED_BYTES:
        raise _TooBig(
            f"unpacks to {unpacked / 2**20:.0f} MB in {len(infos)} parts "
            f"(a workbook is read only up to {MAX_UNPACKED_BYTES // 2**20} MB)"
        )


def _sheet_rows(sheet: object) -> list[Row]:
    rows: list[Row] = []
    cells = 0
    for row in sheet.iter_rows(values_only=True):  # type: ignore[attr-defined]
        cells += len(row)
        if len(rows) >= MAX_ROWS or cells > MAX_CELLS:
            raise _TooBig(f"more than {MAX_ROWS} rows or {MAX_CELLS} cells in one worksheet")
        rows.append(tuple(row))
    return rows


def _find_table(data: bytes, is_header: Callable[[Row], bool]) -> SheetTable | None:
    import openpyxl

    _check_unpacked_size(data)
    workbook = openpyxl.load_workbook(io.BytesIO(data), read_only=True, data_only=True)
    try:
        for sheet in workbook.worksheets:
            # Some writers record a wrong used range; without it every row is read in full.
            sheet.reset_dimensions()
            rows = _sheet_rows(sheet)
            start = _header_index(rows, is_header)
            if start is not None:
                return SheetTable(sheet=sheet.title, header=rows[start], rows=rows[start + 1 :])
        return None
    finally:
        workbook.close()


def _unreadable_errors() -> tuple[type[Exception], ...]:
    from openpyxl.utils.exceptions import InvalidFileException

    return (
        zipfile.BadZipFile,
        zipfile.LargeZipFile,
        zlib.error,
        EOFError,
        KeyError,  # a part the workbook names is missing from the archive
        SyntaxError,  # xml.etree's ParseError: a part is not well-formed XML
        ValueError,
        TypeError,
        IndexError,
        OSError,
        InvalidFileException,
    )


def _why_unreadable(exc: Exception) -> str:
    lines = str(exc).strip().strip('"').splitlines()
    detail = lines[0][:120] if lines else type(exc).__name__
    if isinstance(exc, zipfile.BadZipFile) and detail == "File is not a zip file":
        return "not a ZIP archive, or cut short"
    if isinstance(exc, zipfile.BadZipFile | zlib.error | EOFError):
        return f"damaged: {detail}"
    if isinstance(exc, KeyError):
        return f"a part is missing: {detail}"
    return detail


def read_table(
    path: Path, data: bytes, is_header: Callable[[Row], bool], wanted: str
) -> SheetTable:
    """The first worksheet with a header row (within the first rows) that ``is_header``.

    ``wanted`` names the expected columns in the error when no worksheet has them.
    """
    if not data.strip():
        raise InputFileError(path, "file is empty")
    if data.startswith(OLE2_SIGNATURE):
        raise InputFileError(
            path, "an Excel 97-2003 (.xls) or password-protected workbook; save it as .xlsx"
        )
    try:
        table = _find_table(data, is_header)
    except _TooBig as exc:
        raise InputFileError(path, f"workbook too large: {exc}") from None
    except _unreadable_errors() as exc:
        raise InputFileError(path, f"not an XLSX workbook ({_why_unreadable(exc)})") from None
    if table is None:
        raise InputFileError(path, f"no worksheet with {wanted}")
    return table


def cell_text(value: Cell, decimal: str = ".") -> str:
    """A cell as the text a CSV export would hold.

    Whole numbers lose the ``.0`` a float gives them (ids, years); other numbers keep
    every digit, never an exponent, with ``decimal`` as the mark; dates are ISO 8601.
    """
    if value is None:
        return ""
    if isinstance(value, bool):
        return "True" if value else "False"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if value.is_integer():
            return str(int(value))
        text = format(Decimal(repr(value)), "f")  # repr: shortest text that reads back
        return text.replace(".", decimal)
    if isinstance(value, datetime):
        return value.date().isoformat() if value.time() == time() else value.isoformat()
    if isinstance(value, date | time):
        return value.isoformat()
    return str(value)
