"""Reading the table of an Excel workbook (.xlsx) as raw cell values.

Knows workbooks, not NVE: which row is a header is the caller's ``is_header`` test. The
workbook is read by the one bounded reader (:mod:`kraftstokk.workbook`), so every way
it can be unusable or too large is one :class:`~kraftstokk.errors.InputFileError`
naming the file.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from kraftstokk.errors import InputFileError
from kraftstokk.workbook import Row, WorkbookLimits, read_sheets
from kraftstokk.workbook.reader import OLE2_SIGNATURE

#: Every ZIP file (and so every .xlsx) starts with a local file header.
ZIP_SIGNATURE = b"PK\x03\x04"
XLSX_SUFFIXES = (".xlsx", ".xlsm")
#: A header below more title rows than this is not looked for.
HEADER_SEARCH_ROWS = 20
#: What a plant workbook may unpack to, and hold: NVE's whole register is 1 700 rows of
#: about 30 cells. A small file that unpacks to hundreds of MB is refused before it is parsed.
PLANT_WORKBOOK_LIMITS = WorkbookLimits()


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


def read_table(
    path: Path, data: bytes, is_header: Callable[[Row], bool], wanted: str
) -> SheetTable:
    """The first worksheet with a header row (within the first rows) that ``is_header``.

    ``wanted`` names the expected columns in the error when no worksheet has them.
    """
    if not data.strip():
        raise InputFileError(path, "file is empty")
    for sheet in read_sheets(path, data, PLANT_WORKBOOK_LIMITS):
        rows = [cells for _, cells in sheet.rows]
        start = _header_index(rows, is_header)
        if start is not None:
            return SheetTable(sheet=sheet.name, header=rows[start], rows=rows[start + 1 :])
    raise InputFileError(path, f"no worksheet with {wanted}")
