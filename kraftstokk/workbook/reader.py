"""The one bounded reader of Excel workbooks (.xlsx): worksheets as rows of typed cells.

Every command that opens a workbook (``ingest``, and the deck loader behind ``validate``,
``repair``, ``render`` and the rest) reads it here. The archive's declared sizes are
checked before anything is unpacked; each part is unpacked in chunks and parsed as a
stream (:mod:`kraftstokk.workbook.safexml`: no DTD, no entities); rows, cells, shared
strings, cell formats and the characters of each cell are counted as they arrive, so a
bomb is refused at its bound rather than after the memory it asked for. Whatever makes a
workbook unusable becomes one :class:`~kraftstokk.errors.InputFileError` naming the file
and the part or the bound.

Only what a table needs is read: the sheets' names and order, shared strings, the cell
formats' number formats (to know a date from a number) and the cells' values.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Generator, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from kraftstokk.errors import InputFileError
from kraftstokk.workbook.archive import Archive, rels_name, resolve
from kraftstokk.workbook.cells import (
    NUMBER,
    Cell,
    DateValue,
    ErrorValue,
    NoValue,
    Row,
    Shows,
    format_shows,
    moment_of,
)
from kraftstokk.workbook.limits import WorkbookLimits
from kraftstokk.workbook.safexml import BadPart, PartHandler, TooLarge, XmlRefused, parse_part

#: Compound File Binary: Excel 97-2003 .xls, and password-protected (encrypted) .xlsx.
OLE2_SIGNATURE = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
_NUMBER = re.compile(r"^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$")
_WHOLE = re.compile(r"^[+-]?\d{1,18}$")
_REFERENCE = re.compile(r"^([A-Za-z]{1,3})(\d{1,7})$")


@dataclass
class Sheet:
    """One worksheet: its name and its rows as (row number, cells), empty rows left out."""

    name: str
    rows: list[tuple[int, Row]] = field(default_factory=list)


class _Text:
    """Character data of one cell or string, refused past the per-cell bound."""

    def __init__(self, limit: int, where: str) -> None:
        self.limit, self.where = limit, where
        self.pieces: list[str] = []
        self.size = 0

    def add(self, data: str) -> None:
        self.size += len(data)
        if self.size > self.limit:
            raise TooLarge(
                f"{self.where} holds more than {self.limit} characters "
                "(a spreadsheet cell holds at most 32 767)"
            )
        self.pieces.append(data)

    def value(self) -> str:
        return "".join(self.pieces)


# --- small parts: relationships, the workbook, styles ------------------------------------


@dataclass
class _Relationships(PartHandler):
    targets: dict[str, tuple[str, str]] = field(default_factory=dict)  # id -> (type, target)

    def start(self, name: str, attrs: dict[str, str]) -> None:
        if name == "Relationship" and attrs.get("TargetMode", "").casefold() != "external":
            self.targets[attrs.get("Id", "")] = (attrs.get("Type", ""), attrs.get("Target", ""))


@dataclass
class _WorkbookPart(PartHandler):
    limit: int
    sheets: list[tuple[str, str]] = field(default_factory=list)  # (name, relationship id)
    date1904: bool = False

    def start(self, name: str, attrs: dict[str, str]) -> None:
        if name == "sheet":
            if len(self.sheets) >= self.limit:
                raise TooLarge(f"more than {self.limit} sheets")
            rid = next((v for k, v in attrs.items() if k.rpartition(" ")[2] == "id"), "")
            self.sheets.append((attrs.get("name", ""), rid))
        elif name == "workbookPr":
            self.date1904 = attrs.get("date1904", "").casefold() in ("1", "true")


@dataclass
class _Styles(PartHandler):
    limits: WorkbookLimits
    codes: dict[int, str] = field(default_factory=dict)
    cell_formats: list[int] = field(default_factory=list)  # number format id per cell format
    _open: list[str] = field(default_factory=list)

    elements: int = 0

    def start(self, name: str, attrs: dict[str, str]) -> None:
        self.elements += 1
        if self.elements > self.limits.style_elements:
            raise TooLarge(f"styles with more than {self.limits.style_elements} elements")
        parent = self._open[-1] if self._open else ""
        self._open.append(name)
        if name == "numFmt" and parent == "numFmts":
            if len(self.codes) >= self.limits.number_formats:
                raise TooLarge(f"more than {self.limits.number_formats} number formats")
            code = attrs.get("formatCode", "")
            if len(code) > self.limits.format_chars:
                raise TooLarge(
                    f"a number format of more than {self.limits.format_chars} characters"
                )
            self.codes[_whole(attrs.get("numFmtId", ""), "numFmtId")] = code
        elif name == "xf" and parent == "cellXfs":
            if len(self.cell_formats) >= self.limits.cell_formats:
                raise TooLarge(f"more than {self.limits.cell_formats} cell formats")
            self.cell_formats.append(_whole(attrs.get("numFmtId", "0") or "0", "numFmtId"))

    def end(self, name: str) -> None:
        if self._open:
            self._open.pop()

    def shows(self) -> list[Shows]:
        """What each cell format shows of a number."""
        cache: dict[int, Shows] = {}
        result = []
        for format_id in self.cell_formats:
            if format_id not in cache:
                cache[format_id] = format_shows(format_id, self.codes.get(format_id))
            result.append(cache[format_id])
        return result


def _whole(text: str, what: str) -> int:
    if not _WHOLE.match(text.strip()):
        raise BadPart(f"has {what} {text[:40]!r}, not a whole number")
    return int(text)


# --- shared strings and worksheets -------------------------------------------------------


@dataclass
class _SharedStrings(PartHandler):
    limits: WorkbookLimits
    strings: list[str] = field(default_factory=list)
    _text: _Text | None = None
    _in_t: bool = False
    _phonetic: bool = False

    def start(self, name: str, attrs: dict[str, str]) -> None:
        if name == "si":
            if len(self.strings) >= self.limits.shared_strings:
                raise TooLarge(f"more than {self.limits.shared_strings} shared strings")
            self._text = _Text(self.limits.cell_chars, f"shared string {len(self.strings)}")
        elif name == "rPh":
            self._phonetic = True
        elif name == "t":
            self._in_t = True

    def end(self, name: str) -> None:
        if name == "si" and self._text is not None:
            self.strings.append(self._text.value())
            self._text = None
        elif name == "rPh":
            self._phonetic = False
        elif name == "t":
            self._in_t = False

    def text(self, data: str) -> None:
        if self._in_t and not self._phonetic and self._text is not None:
            self._text.add(data)


def _column_of(reference: str) -> int:
    letters = _REFERENCE.match(reference)
    if letters is None:
        raise BadPart(f"has the cell reference {reference[:40]!r}, not a cell such as B7")
    number = 0
    for letter in letters.group(1).upper():
        number = number * 26 + ord(letter) - ord("A") + 1
    return number


class _Worksheet(PartHandler):
    """A worksheet's cells, row by row, each converted when its element closes.

    Kept lean: it runs for every element of a sheet of up to a few hundred thousand cells.
    """

    def __init__(
        self,
        sheet: Sheet,
        limits: WorkbookLimits,
        strings: list[str],
        shows: list[Shows],
        date1904: bool,
    ) -> None:
        self.sheet, self.limits = sheet, limits
        self.strings, self.shows, self.date1904 = strings, shows, date1904
        self.row_number = 0
        self.cells: dict[int, Cell] = {}
        self.cell_count = 0
        self.in_cell = False
        self.column = 0
        self.written_reference: str | None = None
        self.kind = self.style = ""
        # The text of the cell's <v>, <f> and inline <is>, as each closes.
        self.parts: dict[str, str] = {}
        self.collecting: str | None = None  # which of them is open
        self.pieces: list[str] = []
        self.size = 0
        self.phonetic = False

    @property
    def reference(self) -> str:
        return self.written_reference or f"R{self.row_number}C{self.column}"

    def start(self, name: str, attrs: dict[str, str]) -> None:
        if name == "c":
            self._start_cell(attrs)
        elif name == "row":
            self._start_row(attrs.get("r"))
        elif not self.in_cell:
            return
        elif name in ("v", "f"):
            self._collect(name)
        elif name == "is":
            self.parts["is"] = ""
        elif name == "t" and "is" in self.parts and not self.phonetic:
            self._collect("is")
        elif name == "rPh":
            self.phonetic = True

    def _collect(self, part: str) -> None:
        self.collecting = part
        self.pieces = [self.parts.get(part, "")] if part == "is" else []
        self.size = sum(map(len, self.pieces))

    def _start_row(self, number: str | None) -> None:
        self.row_number = _whole(number, "row number") if number else self.row_number + 1
        if self.row_number < 1:
            raise BadPart(f"has row number {self.row_number}")
        if self.row_number > self.limits.rows:
            hint = f"; {self.limits.rows_hint}" if self.limits.rows_hint else ""
            raise TooLarge(f"more than {self.limits.rows} rows in sheet {self.sheet.name!r}{hint}")
        self.cells = {}
        self.column = 0

    def _start_cell(self, attrs: dict[str, str]) -> None:
        self.cell_count += 1
        if self.cell_count > self.limits.cells:
            raise TooLarge(f"more than {self.limits.cells} cells in sheet {self.sheet.name!r}")
        self.written_reference = attrs.get("r")
        self.column = (
            _column_of(self.written_reference) if self.written_reference else self.column + 1
        )
        self.kind, self.style = attrs.get("t", "n"), attrs.get("s", "")
        self.in_cell = True
        self.parts = {}
        self.collecting = None

    def end(self, name: str) -> None:
        if name == "c":
            if self.in_cell and self.column <= self.limits.columns:
                self.cells[self.column] = self._cell()
            self.in_cell = False
        elif name == "row":
            self._end_row()
        elif self.collecting is not None and name in ("v", "f", "t"):
            self.parts[self.collecting] = "".join(self.pieces)
            self.collecting = None
        elif name == "rPh":
            self.phonetic = False

    def _end_row(self) -> None:
        present = {column: cell for column, cell in self.cells.items() if cell is not None}
        if present:
            width = max(present)
            self.sheet.rows.append(
                (self.row_number, tuple(present.get(c) for c in range(1, width + 1)))
            )
        self.cells = {}

    def text(self, data: str) -> None:
        if self.collecting is None or self.column > self.limits.columns:
            return
        self.size += len(data)
        if self.size > self.limits.cell_chars:
            raise TooLarge(
                f"cell {self.reference} of sheet {self.sheet.name!r} holds more than "
                f"{self.limits.cell_chars} characters (a spreadsheet cell holds at most 32 767)"
            )
        self.pieces.append(data)

    def _cell(self) -> Cell:
        kind, parts = self.kind, self.parts
        if kind == "inlineStr":
            return parts.get("is", "")
        value = parts.get("v", "")
        raw = value.strip()
        if not raw:
            formula = parts.get("f", "")
            return NoValue(formula) if formula else None
        if kind == "s":
            index = _whole(raw, f"cell {self.reference}'s shared string index")
            if not 0 <= index < len(self.strings):
                raise BadPart(
                    f"has cell {self.reference} refer to shared string {index}, "
                    f"but there are {len(self.strings)}"
                )
            return self.strings[index]
        if kind == "str":
            return value
        if kind == "b":
            if raw not in ("0", "1", "true", "false"):
                raise BadPart(f"has cell {self.reference} hold {raw[:40]!r} as true or false")
            return raw in ("1", "true")
        if kind == "e":
            return ErrorValue(raw)
        if kind == "d":
            return self._iso_moment(raw)
        return self._number(raw)

    def _number(self, raw: str) -> Cell:
        if not _NUMBER.match(raw):
            raise BadPart(f"has cell {self.reference} hold {raw[:40]!r} as a number")
        whole = len(raw) <= 18 and not any(mark in raw for mark in ".eE")
        number: int | float = int(raw) if whole else float(raw)
        if number in (float("inf"), float("-inf")):
            raise BadPart(f"has cell {self.reference} hold {raw[:40]!r} as a number")
        shows = self._shows()
        if shows is NUMBER or not (shows.date or shows.time):
            return number
        return DateValue(
            float(number), moment_of(float(number), self.date1904), shows.date, shows.time
        )

    def _shows(self) -> Shows:
        if not self.style:
            return NUMBER
        index = _whole(self.style, f"cell {self.reference}'s format")
        return self.shows[index] if 0 <= index < len(self.shows) else NUMBER

    def _iso_moment(self, raw: str) -> DateValue:
        try:
            moment = datetime.fromisoformat(raw.removesuffix("Z"))
        except ValueError:
            raise BadPart(f"has cell {self.reference} hold {raw[:40]!r} as a date") from None
        return DateValue(
            0.0, moment, shows_date=True, shows_time=moment.time() != moment.min.time()
        )


# --- the workbook ------------------------------------------------------------------------


#: Relationship types read, by the end of their URI (transitional and strict alike).
_KINDS = ("officeDocument", "worksheet", "sharedStrings", "styles")


class _Workbook:
    def __init__(self, data: bytes, limits: WorkbookLimits) -> None:
        self.limits = limits
        self.archive = Archive(data, limits)
        root = self._relationships("")
        self.part = next(iter(root.get("officeDocument", {}).values()), "xl/workbook.xml")
        book = _WorkbookPart(limit=limits.parts)
        self._parse(self.part, book)
        self.date1904 = book.date1904
        related = self._relationships(self.part)
        sheet_parts = related.get("worksheet", {})
        self.sheets = [(name, sheet_parts[rid]) for name, rid in book.sheets if rid in sheet_parts]
        self.strings: list[str] = []
        self.shows: list[Shows] = []
        strings_part = next(iter(related.get("sharedStrings", {}).values()), None)
        if strings_part is not None:
            strings = _SharedStrings(limits)
            self._parse(strings_part, strings)
            self.strings = strings.strings
        styles_part = next(iter(related.get("styles", {}).values()), None)
        if styles_part is not None:
            styles = _Styles(limits)
            self._parse(styles_part, styles)
            self.shows = styles.shows()

    def _relationships(self, part: str) -> dict[str, dict[str, str]]:
        """Kind -> {relationship id: part name} of the part's relationships that are read."""
        name = rels_name(part) if part else "_rels/.rels"
        found: dict[str, dict[str, str]] = {}
        if not self.archive.has(name):
            return found
        handler = _Relationships()
        self._parse(name, handler)
        for rid, (uri, target) in handler.targets.items():
            kind = uri.rpartition("/")[2]
            if kind in _KINDS:
                found.setdefault(kind, {})[rid] = resolve(part, target)
        return found

    def _parse(self, part: str, handler: PartHandler) -> None:
        parse_part(part, self.archive.chunks(part), handler, self.limits.depth)

    def worksheet(self, index: int) -> Sheet:
        name, part = self.sheets[index]
        sheet = Sheet(name)
        self._parse(part, _Worksheet(sheet, self.limits, self.strings, self.shows, self.date1904))
        return sheet


@contextmanager
def _opened(path: Path, data: bytes, limits: WorkbookLimits) -> Iterator[_Workbook]:
    """The workbook, open while inside; an unusable or too large one (found also while
    inside: a later part may be the broken one) is an :class:`InputFileError` naming
    ``path``."""
    if data.startswith(OLE2_SIGNATURE):
        raise InputFileError(
            path, "an Excel 97-2003 (.xls) or password-protected workbook; save it as .xlsx"
        )
    try:
        book = _Workbook(data, limits)
        try:
            if not book.sheets:
                raise XmlRefused(f"{book.part} names no worksheet")
            yield book
        finally:
            book.archive.close()
    except TooLarge as exc:
        raise InputFileError(path, f"workbook too large: {exc}") from None
    except XmlRefused as exc:
        raise InputFileError(path, f"not an XLSX workbook ({exc})") from None


def read_sheets(path: Path, data: bytes, limits: WorkbookLimits) -> Generator[Sheet, None, None]:
    """The workbook's worksheets in order, each parsed when it is reached."""
    with _opened(path, data, limits) as book:
        for index in range(len(book.sheets)):
            yield book.worksheet(index)


def chosen_sheet(
    path: Path, data: bytes, limits: WorkbookLimits, choose: Callable[[list[str]], int]
) -> Sheet:
    """The worksheet ``choose`` picks by its index among the workbook's sheet names (it
    raises to refuse them all); only that sheet is parsed."""
    with _opened(path, data, limits) as book:
        return book.worksheet(choose([name for name, _ in book.sheets]))


def first_sheet(path: Path, data: bytes, limits: WorkbookLimits) -> Sheet:
    """The workbook's first worksheet."""
    sheets = read_sheets(path, data, limits)
    try:
        return next(sheets)
    finally:
        sheets.close()
