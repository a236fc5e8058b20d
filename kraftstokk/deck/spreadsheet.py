"""Cells as spreadsheets write them: text encodings, number formats, yes/no words, formulas.

A deck maker opens ``deck.csv`` in Excel or LibreOffice, edits a figure and saves. What
comes back depends on the program and its language settings: Norwegian Excel writes
Windows-1252 with ';' between cells and decimal commas, LibreOffice writes ``SANN`` and
``USANN`` for true and false, a number formatted like the cards reads ``4 357,37``. This
module reads all of that back to the values the deck was written with, and guards text
cells so that a plant name cannot run as a formula when the file is opened.
"""

from __future__ import annotations

import re
from pathlib import Path

from kraftstokk.errors import InputFileError

TRUE_WORDS = frozenset({"true", "sann", "ja", "yes", "1", "x", "wahr", "vrai"})
FALSE_WORDS = frozenset({"false", "usann", "nei", "no", "0", "", "falsch", "faux"})

#: A text cell starting with one of these runs as a formula in a spreadsheet (OWASP's list).
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
#: The prefix spreadsheet-safe CSV writers put before such a cell: it makes the cell text.
FORMULA_GUARD = "'"

#: Spaces spreadsheets use between groups of thousands: space, no-break and narrow no-break.
_GROUP_SPACES = re.compile("[ \u00a0\u202f\u2009]")
_PLAIN_NUMBER = re.compile(r"^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$")


def decode_text(data: bytes, path: Path, what: str) -> str:
    """Text of a file in UTF-8 (with or without BOM), UTF-16 (BOM or not) or Windows-1252."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            text = data.decode("utf-16")
        except UnicodeDecodeError:
            raise InputFileError(path, "starts like UTF-16 text but is not valid UTF-16") from None
        return text.lstrip("\ufeff")
    sample = data[:4096]
    if len(sample) >= 4 and sample.count(0) * 3 >= len(sample):
        # UTF-16 without a byte-order mark: every other byte of Latin text is zero.
        encoding = "utf-16-le" if sample[1::2].count(0) > sample[0::2].count(0) else "utf-16-be"
        try:
            return data.decode(encoding)
        except UnicodeDecodeError:
            raise InputFileError(path, f"binary file, not a {what}") from None
    if b"\x00" in sample:
        raise InputFileError(path, f"binary file, not a {what}")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        pass
    try:
        return data.decode("cp1252")
    except UnicodeDecodeError:
        raise InputFileError(
            path,
            "not a text file in UTF-8, UTF-16 or Windows-1252 (the encodings spreadsheets save)",
        ) from None


def parse_number(text: str) -> float:
    """A number as a spreadsheet may write it: ``4357.37``, ``4357,37``, ``4 357,37``,
    ``4,357.37``, ``4.357,37``. Raises ValueError for anything else.

    With one mark only, it is the decimal mark unless it appears more than once; with
    both, the last one is the decimal mark and the other groups thousands.
    """
    cleaned = _GROUP_SPACES.sub("", text.strip()).replace("\u2212", "-")
    has_comma, has_dot = "," in cleaned, "." in cleaned
    if has_comma and has_dot:
        decimal = "," if cleaned.rfind(",") > cleaned.rfind(".") else "."
        group = "." if decimal == "," else ","
        cleaned = cleaned.replace(group, "").replace(decimal, ".")
    elif has_comma:
        cleaned = cleaned.replace(",", "") if cleaned.count(",") > 1 else cleaned.replace(",", ".")
    elif cleaned.count(".") > 1:
        cleaned = cleaned.replace(".", "")
    if not _PLAIN_NUMBER.match(cleaned):
        raise ValueError(text)
    return float(cleaned)


def parse_flag(text: str) -> bool | None:
    """True or false from the words spreadsheets write (None when it is neither)."""
    word = text.strip().lower()
    if word in TRUE_WORDS:
        return True
    if word in FALSE_WORDS:
        return False
    return None


def guard_formula(text: str) -> str:
    """A text cell that a spreadsheet shows as text, never evaluates."""
    if text.startswith(FORMULA_STARTS) or text.startswith(FORMULA_GUARD):
        return FORMULA_GUARD + text
    return text


def unguard_formula(text: str) -> str:
    """The text :func:`guard_formula` was given."""
    if text.startswith(FORMULA_GUARD):
        rest = text[len(FORMULA_GUARD) :]
        if rest.startswith(FORMULA_STARTS) or rest.startswith(FORMULA_GUARD):
            return rest
    return text


#: Rows read from a workbook at most: a deck has 56, a sheet with far more is not a deck.
MAX_XLSX_ROWS = 1000
#: Columns read per row at most (a deck has 22).
MAX_XLSX_COLUMNS = 100


def xlsx_rows(path: Path) -> list[list[str]]:
    """The first sheet of a workbook as rows of cell texts (numbers in plain notation).

    Reads row by row and stops past :data:`MAX_XLSX_ROWS`, so a huge sheet costs no more
    memory than a deck."""
    import zipfile

    from openpyxl import load_workbook

    try:
        workbook = load_workbook(path, read_only=True, data_only=True)
    except (zipfile.BadZipFile, KeyError, ValueError, OSError) as exc:
        raise InputFileError(path, f"not a readable Excel workbook ({exc})") from None
    try:
        sheet = workbook.worksheets[0]
        rows: list[list[str]] = []
        for row in sheet.iter_rows(values_only=True, max_col=MAX_XLSX_COLUMNS):
            if len(rows) >= MAX_XLSX_ROWS:
                raise InputFileError(
                    path, f"more than {MAX_XLSX_ROWS} rows in the first sheet; a deck has 56"
                )
            rows.append([_cell_text(value) for value in row])
        return rows
    finally:
        workbook.close()


def _cell_text(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() else repr(value)
    return str(value)
