"""Cells as spreadsheets write them: text encodings, number formats, dates, yes/no words,
formulas.

A deck maker opens ``deck.csv`` in Excel or LibreOffice, edits a figure and saves. What
comes back depends on the program and its language settings: Norwegian Excel writes
Windows-1252 with ';' between cells and decimal commas, LibreOffice writes ``SANN`` and
``USANN`` for true and false, a number formatted like the cards reads ``4 357,37``. And a
spreadsheet set to Norwegian reads ``20.5`` as the 20th of May: the figure comes back as
``20.05.2026`` (or ``05.20.2026``). This module reads all of that back to the values the
deck was written with, names a figure that became a date as a date instead of guessing a
number from it, and guards text cells so that a plant name cannot run as a formula when
the file is opened.
"""

from __future__ import annotations

import codecs
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from kraftstokk.errors import InputFileError, listed
from kraftstokk.sources.numbers import DecimalMark, guess_decimal_mark
from kraftstokk.sources.numbers import parse_number as parse_strict

TRUE_WORDS = frozenset({"true", "sann", "ja", "yes", "1", "x", "wahr", "vrai"})
FALSE_WORDS = frozenset({"false", "usann", "nei", "no", "0", "", "falsch", "faux"})

#: A text cell starting with one of these runs as a formula in a spreadsheet (OWASP's list).
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
#: The prefix spreadsheet-safe CSV writers put before such a cell: it makes the cell text.
FORMULA_GUARD = "'"


# --- text encodings ----------------------------------------------------------------------

#: Lines named when a file has several that do not decode.
_BAD_LINES_SHOWN = 5


def _bad_offsets(data: bytes, encoding: str) -> list[int]:
    """Offsets of the first few bytes that do not decode (none: the file decodes)."""
    offsets: list[int] = []
    start = 0
    while len(offsets) <= _BAD_LINES_SHOWN:
        try:
            data[start:].decode(encoding)
            break
        except UnicodeDecodeError as exc:
            offsets.append(start + exc.start)
            start += exc.end
    return offsets


def _where(data: bytes, offsets: list[int], encoding: str) -> str:
    """``line 2`` or ``lines 2, 7 and 9`` (and "more" past the first few)."""
    lines = sorted(
        {data[:offset].decode(encoding, errors="replace").count("\n") + 1 for offset in offsets}
    )
    shown = [str(line) for line in lines[:_BAD_LINES_SHOWN]]
    more = " and more" if len(offsets) > _BAD_LINES_SHOWN else ""
    return f"line{'s' if len(shown) > 1 else ''} {listed(shown)}{more}"


def _has_utf8_letters(data: bytes) -> bool:
    """True when the file holds characters only UTF-8 encodes this way (æ is C3 A6)."""
    text = data.decode("utf-8", errors="replace")
    return any(ord(char) > 127 and char != "\ufffd" for char in text)


def decode_text(data: bytes, path: Path, what: str) -> str:
    """Text of a file in UTF-8 (with or without BOM), UTF-16 (BOM or not) or Windows-1252.

    Bytes that do not decode are named by their line: a UTF-8 file with a broken
    character is not read as Windows-1252 (which would garble every æ, ø and å in it).
    """
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return _decode_utf16(data, "utf-16", path).lstrip("\ufeff")
    sample = data[:4096]
    if len(sample) >= 4 and sample.count(0) * 3 >= len(sample):
        # UTF-16 without a byte-order mark: every other byte of Latin text is zero.
        encoding = "utf-16-le" if sample[1::2].count(0) > sample[0::2].count(0) else "utf-16-be"
        return _decode_utf16(data, encoding, path)
    if b"\x00" in sample:
        raise InputFileError(path, f"binary file, not a {what}")
    bom = len(codecs.BOM_UTF8) if data.startswith(codecs.BOM_UTF8) else 0
    bad = [bom + offset for offset in _bad_offsets(data[bom:], "utf-8")]
    if not bad:
        return data[bom:].decode("utf-8")
    if _has_utf8_letters(data):
        raise InputFileError(
            path,
            f"{_where(data, bad, 'utf-8')}: not UTF-8, though the rest of the file is (bytes "
            f"{data[bad[0] : bad[0] + 3].hex(' ')}); save the file as UTF-8 again",
        )
    bad = _bad_offsets(data, "cp1252")
    if not bad:
        return data.decode("cp1252")
    raise InputFileError(
        path,
        f"{_where(data, bad, 'cp1252')}: byte {data[bad[0]]:02x} is neither UTF-8 nor Windows-1252 "
        "(the encodings spreadsheets save); save the file as UTF-8",
    )


def _decode_utf16(data: bytes, encoding: str, path: Path) -> str:
    bad = _bad_offsets(data, encoding)
    if bad:
        raise InputFileError(path, f"{_where(data, bad, encoding)}: not valid UTF-16")
    return data.decode(encoding)


# --- numbers and dates -------------------------------------------------------------------


def file_decimal_mark(cells: Iterable[str], delimiter: str) -> DecimalMark:
    """The decimal mark a deck table's numbers are written with.

    Decided by the file's own numbers (a mark followed by other than three digits can
    only be a decimal mark); without such evidence, ',' in a ';'-separated file (the
    Norwegian style) and '.' otherwise.
    """
    return guess_decimal_mark(cells, "," if delimiter == ";" else ".")


def parse_number(text: str, decimal: DecimalMark = ".") -> float:
    """A number as a spreadsheet may write it with the file's decimal mark: ``4357.37``,
    ``4,357.37`` or ``4 357.37`` with '.'; ``4357,37``, ``4.357,37`` or ``4 357,37`` with ','.

    Thousands are grouped by three digits, or it is not a number: ``5.20.2026`` (a date)
    is never 5 202 026, and ``3,960`` in a '.' file (3 960 or 3,96?) is refused as
    ambiguous. Raises ValueError for anything else.
    """
    number = parse_strict(text.replace("\u2212", "-"), decimal)
    if number is None:
        raise ValueError(text)
    return number


_MONTHS = {
    "jan": 1, "feb": 2, "mar": 3, "apr": 4, "mai": 5, "may": 5, "jun": 6, "jul": 7,
    "aug": 8, "sep": 9, "okt": 10, "oct": 10, "nov": 11, "des": 12, "dec": 12,
}  # fmt: skip
_NUMERIC_DATE = re.compile(
    r"^(\d{1,4})([./-])(\d{1,2})\2(\d{1,4})(?:[ T]\d{1,2}[:.]\d{2}(?:[:.]\d{2})?)?$"
)
_NAMED_DATE = re.compile(r"^(\d{1,2})\.?[ -]?([a-zæøå]{3})[a-zæøå]*\.?(?:[ -]?(\d{2,4}))?$", re.I)
_TIME = re.compile(r"^\d{1,2}:\d{2}(?::\d{2})?$")


@dataclass(frozen=True)
class DateText:
    """A cell that holds a date or a time where a number belongs.

    ``fields`` are the first two numbers of a numeric date (``05.20.2026`` -> 5, 20),
    ``day_month`` the day and month when the text says which is which.
    """

    text: str
    kind: str  # "a date" or "a time"
    fields: tuple[int, int] | None = None
    day_month: tuple[int, int] | None = None


def date_text(text: str) -> DateText | None:
    """The cell as a date or time a spreadsheet wrote, or None when it looks like neither."""
    text = text.strip()
    if _TIME.match(text):
        return DateText(text, "a time")
    numeric = _NUMERIC_DATE.match(text)
    if numeric:
        first, _, second, third = numeric.groups()
        a, b, c = int(first), int(second), int(third)
        if len(first) == 4:  # ISO 8601: 2026-05-20
            return DateText(text, "a date", day_month=(c, b)) if _is_day_month(c, b) else None
        if not (_is_day_month(a, b) or _is_day_month(b, a)) or len(third) == 3:
            return None
        return DateText(text, "a date", fields=(a, b))
    named = _NAMED_DATE.match(text)
    if named and named.group(2).casefold() in _MONTHS:
        day, month = int(named.group(1)), _MONTHS[named.group(2).casefold()]
        if _is_day_month(day, month):
            return DateText(text, "a date", day_month=(day, month))
    return None


def _is_day_month(day: int, month: int) -> bool:
    return 1 <= day <= 31 and 1 <= month <= 12


def date_order(dates: Iterable[DateText]) -> str | None:
    """``"dm"`` or ``"md"``: the order of day and month in a file's numeric dates, when one
    of them shows it (a first number over 12 is a day, a second over 12 too)."""
    orders = set()
    for date in dates:
        if date.fields is not None:
            a, b = date.fields
            if a > 12:
                orders.add("dm")
            elif b > 12:
                orders.add("md")
    return orders.pop() if len(orders) == 1 else None


def figure_from_date(day: int, month: int) -> str:
    """The figure a Norwegian spreadsheet took for this day and month (``20,5`` for 20 May),
    written as a person types it there."""
    return f"{day},{month}"


def date_advice(date: DateText, order: str | None) -> str:
    """What to do about a figure that reads as a date: ``format the column as Number and
    type 20,5``, naming the figure it most likely was."""
    advice = "format the column as Number and type"
    day_month = date.day_month
    if day_month is None and date.fields is not None:
        a, b = date.fields
        if order == "dm" or (order is None and not _is_day_month(b, a)):
            day_month = (a, b)
        elif order == "md" or not _is_day_month(a, b):
            day_month = (b, a)
        else:  # 05.10.2026: 5 October or 10 May; the file does not say
            return (
                f"{advice} {figure_from_date(a, b)} or {figure_from_date(b, a)}, "
                "whichever is the figure"
            )
    if day_month is None:
        return f"{advice} the figure"
    return f"{advice} {figure_from_date(*day_month)} if that is the figure"


# --- true and false, formulas ------------------------------------------------------------


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
