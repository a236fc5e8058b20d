"""Strict parsing of figures written with either decimal mark.

A figure is read only when its text is unambiguous under the file's decimal mark:
``1 234,5`` and ``1.234,5`` with ``,``; ``1,234.5`` and ``1234.5`` with ``.``. Thousands
are grouped by exactly three digits (``1 2 3`` and ``5.20.2026`` are not numbers). Anything
else is "not a number" rather than a guess, because a misread figure would end up printed
on a card. A lone thousands mark (``3,960`` with ``.``, ``3.960`` with ``,``) is ambiguous
and refused: NVE writes decimal commas, so ``3,960`` is 3.96 MW there, not 3 960.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from typing import Literal

DecimalMark = Literal[".", ","]

#: Spaces that group thousands: space, no-break, narrow no-break and thin space.
_SPACE = " \u00a0\u202f\u2009"
_SPACES = str.maketrans("", "", _SPACE)
_PATTERNS: dict[str, re.Pattern[str]] = {
    ".": re.compile(
        rf"^[+-]?(\d+|\d{{1,3}}(,\d{{3}})+|\d{{1,3}}([{_SPACE}]\d{{3}})+)(\.\d+)?([eE][+-]?\d+)?$"
    ),
    ",": re.compile(rf"^[+-]?(\d+|\d{{1,3}}(\.\d{{3}})+|\d{{1,3}}([{_SPACE}]\d{{3}})+)(,\d+)?$"),
}


class NotANumber(ValueError):
    """The text is present but cannot be read as a figure."""


class AmbiguousNumber(NotANumber):
    """One mark before three digits (``3,960``, ``3.960``): a decimal or a thousands mark?"""


#: One thousands-style group and nothing else: ``3,960`` in a ``.`` file is 3 960 or 3,96.
_LONE_GROUP = re.compile(r"^[+-]?\d{1,3}[.,]\d{3}$")


def parse_number(value: object, decimal: DecimalMark = ".") -> float | None:
    """Return the number, ``None`` when the value is missing, or raise :class:`NotANumber`."""
    if value is None:
        return None
    if isinstance(value, bool):
        raise NotANumber(repr(value))
    if isinstance(value, int | float):
        number = float(value)
    else:
        text = str(value).strip()
        if not text:
            return None
        if not _PATTERNS[decimal].match(text):
            raise NotANumber(text)
        text = text.translate(_SPACES)
        thousands = "." if decimal == "," else ","
        if _LONE_GROUP.match(text) and thousands in text:
            raise AmbiguousNumber(text)
        text = text.replace(thousands, "").replace(",", ".")
        number = float(text)
    if not math.isfinite(number):
        raise NotANumber(repr(value))
    return number


def guess_decimal_mark(cells: Iterable[str], default: DecimalMark) -> DecimalMark:
    """Pick the decimal mark a column set is written with.

    A mark followed by other than exactly three digits (``12,5``, ``0.25``) can only be a
    decimal mark; a mark followed by three digits could be either, and leaves the choice
    to ``default`` (``,`` for ``;``-separated files, ``.`` otherwise).
    """
    evidence: set[str] = set()
    for cell in cells:
        text = cell.strip().translate(_SPACES)
        last = max(text.rfind("."), text.rfind(","))
        if last < 0:
            continue
        tail = text[last + 1 :]
        if tail.isdigit() and len(tail) != 3:
            evidence.add(text[last])
        elif tail.isdigit() and "." in text and "," in text:
            # 1.234,567 or 1,234.567: the last mark is the decimal one.
            evidence.add(text[last])
    if evidence == {","}:
        return ","
    if evidence == {"."}:
        return "."
    return default
