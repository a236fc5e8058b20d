"""Cell values as a workbook holds them, and which number formats show a number as a date.

A spreadsheet stores a date as a number (days since 1900, or 1904) with a date format;
reading the number alone would turn a figure that a spreadsheet took for a date
(``20.5`` typed in Norwegian becomes 20 May) into 46 162 without a word. So a number
whose format shows a date or a time is read as a :class:`DateValue`, never as a number.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime, time, timedelta
from decimal import Decimal


@dataclass(frozen=True)
class DateValue:
    """A number a spreadsheet shows as a date, a time or both."""

    serial: float
    moment: datetime | None  # None: outside the dates a spreadsheet can show
    shows_date: bool = True
    shows_time: bool = False

    @property
    def kind(self) -> str:
        return "a date" if self.shows_date else "a time"

    def text(self) -> str:
        """As a Norwegian spreadsheet shows it: ``20.05.2026``, ``20.05.2026 13:30``, ``13:30``."""
        if self.moment is None:
            return f"date number {self.serial:g}"
        parts = []
        if self.shows_date:
            parts.append(self.moment.strftime("%d.%m.%Y"))
        if self.shows_time or (self.shows_date and self.moment.time() != datetime.min.time()):
            parts.append(self.moment.strftime("%H:%M"))
        return " ".join(parts)


@dataclass(frozen=True)
class ErrorValue:
    """A formula's error (``#DIV/0!``, ``#VALUE!``) as the workbook stores it."""

    text: str


@dataclass(frozen=True)
class NoValue:
    """A formula whose result the workbook does not store (written by a program, never
    opened in a spreadsheet)."""

    formula: str


Cell = str | int | float | bool | DateValue | ErrorValue | NoValue | None
Row = tuple[Cell, ...]

#: Excel's built-in formats that show dates or times (the others are numbers or text).
_BUILTIN_DATE = frozenset({14, 15, 16, 17, 22, *range(27, 37), *range(50, 59), *range(71, 82)})
_BUILTIN_TIME = frozenset({18, 19, 20, 21, 22, 45, 46, 47})
#: Quoted text, escaped and padding characters, colours, conditions and locales name no
#: date part; elapsed times (``[h]``, ``[mm]``) are kept.
_LITERALS = re.compile(r'"[^"]*"|\\.|_.|\*.|\[(?![hms]+\])[^\]]*\]', re.IGNORECASE)


@dataclass(frozen=True)
class Shows:
    """What a number format shows of a number taken as a moment."""

    date: bool
    time: bool


NUMBER = Shows(date=False, time=False)


def format_shows(format_id: int, code: str | None) -> Shows:
    """Whether the format (its id, and its code when the workbook defines one) shows a
    date or a time. Only the first section (before ``;``) counts, as for positive numbers."""
    if code is None:
        return Shows(format_id in _BUILTIN_DATE, format_id in _BUILTIN_TIME)
    first = _LITERALS.sub("", code).split(";")[0].casefold()
    first = re.sub(r"e[+-]", "", first)  # a scientific exponent, not an era year
    if first.strip() in ("general", "@", ""):
        return NUMBER
    time = bool(re.search(r"[hs]|am/pm|a/p|\[m+\]", first))
    # Next to hours or seconds "m" is minutes; without them, months.
    date = bool(re.search(r"[dyge]", first)) or ("m" in first and not time)
    return Shows(date, time)


_EPOCH_1900 = datetime(1899, 12, 31)
_EPOCH_1904 = datetime(1904, 1, 1)
#: 31 December 9999, the last day a spreadsheet shows.
_LAST_SERIAL = 2_958_465


def moment_of(serial: float, date1904: bool) -> datetime | None:
    """The moment a date number stands for (``None`` when no spreadsheet can show it).

    In the 1900 system day 60 is 29 February 1900, which never was (Lotus 1-2-3's error,
    kept by Excel): days after it are one off.
    """
    if not 0 <= serial <= _LAST_SERIAL:
        return None
    if date1904:
        return _EPOCH_1904 + timedelta(days=serial)
    shift = -1 if serial >= 61 else 0
    return _EPOCH_1900 + timedelta(days=serial + shift)


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
    if isinstance(value, DateValue):
        if value.moment is None:
            return format(value.serial, "g")
        moment = value.moment
        if not value.shows_date:
            return moment.time().isoformat()
        return moment.date().isoformat() if moment.time() == time() else moment.isoformat()
    if isinstance(value, ErrorValue):
        return value.text
    if isinstance(value, NoValue):
        return ""
    return str(value)
