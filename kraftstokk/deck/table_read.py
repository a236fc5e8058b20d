"""Reading deck.csv and deck.xlsx: cells to cards, every problem of the file at once.

A table a spreadsheet saved can be wrong in many cells at once (a whole column turned
into dates); each problem is named with its line (or row), column and card, and all of
them are reported together (:class:`~kraftstokk.errors.InputProblems`), so a deck maker
fixes the file in one go. The file's structure is checked first: its text decodes (bytes
that do not are named by line), its quotes are balanced, no deck column is there twice.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from kraftstokk.deck.columns import (
    CSV_COLUMNS,
    FLAG_COLUMNS,
    LATER_CSV_COLUMNS,
    NUMBER_COLUMNS,
    column_letters,
)
from kraftstokk.deck.csv_style import CsvStyle, flag_words, style_read
from kraftstokk.deck.spreadsheet import (
    DateText,
    date_advice,
    date_order,
    date_text,
    decode_text,
    file_decimal_mark,
    parse_flag,
    parse_number,
    unguard_formula,
)
from kraftstokk.errors import InputFileError, InputProblems, clip, listed
from kraftstokk.models import CATEGORIES, Card
from kraftstokk.plain import reason as plain_reason
from kraftstokk.sources.numbers import AmbiguousNumber, DecimalMark
from kraftstokk.textfile import read_input_bytes
from kraftstokk.workbook import (
    Cell,
    DateValue,
    ErrorValue,
    NoValue,
    WorkbookLimits,
    cell_text,
    chosen_sheet,
)
from kraftstokk.workbook.limits import MB

#: A deck workbook is 56 rows of 25 cells; these bounds leave room for notes around it.
DECK_WORKBOOK_LIMITS = WorkbookLimits(
    unpacked_bytes=8 * MB, rows=1000, cells=100_000, columns=100, rows_hint="a deck has 56"
)
#: Separators a spreadsheet may save with: ',' as written, ';' where ',' is the decimal mark
#: (a Norwegian spreadsheet), tab for "text (tab delimited)".
CSV_DELIMITERS: tuple[str, ...] = (",", ";", "\t")

Rows = list[tuple[int, list[Cell]]]


@dataclass
class DeckTable:
    """The cards of a deck table, the style a CSV was written in (None: a workbook), and
    the build id its rows carry (None: a table written before build ids, or cleared)."""

    cards: list[Card]
    style: CsvStyle | None
    build: str | None = None
    #: What was read otherwise than written (a decimal comma in a file of points).
    notes: list[str] = field(default_factory=list)


# --- the file's rows ---------------------------------------------------------------------


def csv_delimiter(text: str) -> str:
    """The separator whose header row holds the deck columns (',' when none does)."""
    first_line = text.lstrip("\ufeff").splitlines()[0] if text.strip() else ""
    for delimiter in CSV_DELIMITERS:
        header = next(csv.reader([first_line], delimiter=delimiter), [])
        if {name.strip().lower() for name in header} >= set(CSV_COLUMNS) - LATER_CSV_COLUMNS:
            return delimiter
    return ","


def _csv_rows(path: Path, text: str, delimiter: str) -> Rows:
    """(line, cells) of every row; a quote left open is named at the line it opens."""
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=True)
    rows: Rows = []
    start = 1
    try:
        for cells in reader:
            if reader.line_num > start and any("\n" in c or "\r" in c for c in cells):
                raise _open_quote(path, text, delimiter, start, reader.line_num)
            row: list[Cell] = list(cells)
            rows.append((start, row))
            start = reader.line_num + 1
    except csv.Error as exc:
        if "unexpected end of data" in str(exc):
            raise _open_quote(path, text, delimiter, start, None) from None
        if "expected after" in str(exc):
            raise InputFileError(
                path,
                f"line {reader.line_num}: a quoted cell goes on after its closing quote; "
                'write a quote inside a cell as two ("")',
            ) from None
        raise InputFileError(path, f"line {reader.line_num}: not readable as CSV ({exc})") from None
    return rows


def _open_quote(
    path: Path, text: str, delimiter: str, start: int, end: int | None
) -> InputFileError:
    lines = io.StringIO(text, newline="").readlines()
    header = next(csv.reader(lines[:1], delimiter=delimiter), [])
    opening = next(csv.reader(lines[start - 1 : start], delimiter=delimiter), [""])
    index = len(opening) - 1
    name = header[index].strip().lstrip("\ufeff") if start > 1 and index < len(header) else ""
    cell = f"the {name} cell" if name else f"cell {column_letters(index)}"
    closes = f"closes only on line {end}" if end is not None else "is never closed"
    return InputFileError(
        path,
        f'line {start}: {cell} opens a quote (") that {closes}; '
        'write a quote inside a cell as two ("")',
    )


def _header(path: Path, cells: list[Cell]) -> list[str]:
    header = [cell_text(cell).strip().lstrip("\ufeff").lower() for cell in cells]
    seen: dict[str, int] = {}
    for index, name in enumerate(header):
        if name not in CSV_COLUMNS:
            continue  # a column of the deck maker's own (notes) is left alone
        if name in seen:
            first = seen[name]
            raise InputFileError(
                path,
                f"column {name} is there twice (columns {first + 1} ({column_letters(first)}) "
                f"and {index + 1} ({column_letters(index)})); keep one",
            )
        seen[name] = index
    missing = [c for c in CSV_COLUMNS if c not in seen and c not in LATER_CSV_COLUMNS]
    if missing:
        raise InputFileError(path, f"not a deck table: missing columns {', '.join(missing)}")
    return header


# --- cells -------------------------------------------------------------------------------


def _shown(value: Cell) -> str:
    if isinstance(value, str):
        return f'"{clip(value.strip(), 40)}"'
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, DateValue):
        return value.text()
    if isinstance(value, ErrorValue):
        return value.text
    return clip(cell_text(value), 40)


def _date_of(value: DateValue) -> DateText:
    day_month = None
    if value.moment is not None and value.shows_date:
        day_month = (value.moment.day, value.moment.month)
    return DateText(value.text(), value.kind, day_month=day_month)


class _Row:
    """Typed access to the cells of one row; every problem is noted, none raised."""

    def __init__(self, read: _Reading, place: str, cells: dict[str, Cell]) -> None:
        self.read, self.place, self.cells = read, place, cells
        self.problems: list[str] = []
        card = self.text_of(cells.get("id")) or ""
        name = self.text_of(cells.get("name")) or ""
        self.label = f"{card} ({clip(name, 40)})" if card and name else card or "the card"

    @staticmethod
    def text_of(value: Cell) -> str | None:
        if not isinstance(value, str | int | float) or isinstance(value, bool):
            return None
        return unguard_formula(cell_text(value).strip()) or None

    def note(self, column: str, reason: str) -> None:
        self.problems.append(f"{self.place}: {column} of {self.label} {reason}")

    def _unusable(self, column: str, value: Cell, wanted: str) -> None:
        if isinstance(value, DateValue):
            advice = (
                "format the column as Text and type it again"
                if wanted == "text"
                else date_advice(_date_of(value), None)
            )
            self.note(column, f"reads {value.text()}, {value.kind}: {advice}")
        elif isinstance(value, ErrorValue):
            self.note(column, f"reads {value.text}, a formula's error, not {wanted}")
        elif isinstance(value, NoValue):
            self.note(
                column,
                f"holds the formula ={clip(value.formula, 40)} but no value: save the "
                "workbook in a spreadsheet, or type the value",
            )
        else:
            self.note(column, f"reads {_shown(value)}, not {wanted}")

    def text(self, column: str) -> str | None:
        value = self.cells.get(column)
        if value is None or (isinstance(value, str | int | float) and not isinstance(value, bool)):
            return self.text_of(value)
        self._unusable(column, value, "text")
        return None

    def number(self, column: str) -> float | None:
        value = self.cells.get(column)
        if value is None:
            return None
        if isinstance(value, int | float) and not isinstance(value, bool):
            return float(value)
        if not isinstance(value, str):
            self._unusable(column, value, "a number")
            return None
        text = value.strip()
        if not text:
            return None
        try:
            return parse_number(text, self.read.decimal)
        except AmbiguousNumber:
            self._ambiguous(column, text)
        except ValueError:
            value = self._other_mark(column, text)
            if value is not None:
                return value
            date = date_text(text)
            if date is not None:
                advice = date_advice(date, self.read.date_order)
                self.note(column, f"reads {clip(text, 40)}, {date.kind}: {advice}")
            elif self.read.other:
                self.note(column, f'reads "{clip(text, 40)}", not a number ({self.read.mix()})')
            else:
                self.note(column, f'reads "{clip(text, 40)}", not a number')
        return None

    def _ambiguous(self, column: str, text: str) -> None:
        if self.read.other:
            self.note(
                column,
                f'reads "{clip(text, 40)}": a thousands mark or a decimal mark? '
                f"{self.read.mix('This file')}; type it without a thousands mark",
            )
            return
        self.note(
            column,
            f'reads "{clip(text, 40)}": a thousands mark or a decimal mark? This file '
            f'writes decimals with "{self.read.decimal}"; write the number without '
            "thousands marks",
        )

    def _other_mark(self, column: str, text: str) -> float | None:
        """A number written with the other decimal mark than the file's (``442,5`` in a
        file of decimal points, as a spreadsheet set to Norwegian saves a typed figure)
        where that mark cannot be a thousands mark: read, and noted."""
        try:
            value = parse_number(text, self.read.other_mark)
        except ValueError:  # not a number that way either, or ambiguous (3,960)
            return None
        self.read.read_other.append(f"{self.place} {column} of {self.label} {text} -> {value:g}")
        return value

    def whole(self, column: str) -> int | None:
        number = self.number(column)
        if number is None:
            return None
        if not number.is_integer():
            self.note(column, f"reads {number:g}, not a whole number")
            return None
        return int(number)

    def flag(self, column: str) -> bool:
        value = self.cells.get(column)
        if value is None or isinstance(value, bool):
            return bool(value)
        if isinstance(value, int | float) and value in (0, 1):
            return bool(value)
        flag = parse_flag(value) if isinstance(value, str) else None
        if flag is None:
            self._unusable(column, value, "true or false")
            return False
        return flag


@dataclass
class _Reading:
    """What the rows of one file share: its decimal mark, the order of its dates, and
    the numbers written with the other mark (``other``: an example)."""

    decimal: DecimalMark
    date_order: str | None
    other: str | None = None
    #: Cells read with the other mark, for the note.
    read_other: list[str] = field(default_factory=list)

    @property
    def other_mark(self) -> DecimalMark:
        return "," if self.decimal == "." else "."

    def mix(self, opening: str = "this file") -> str:
        """Why a number of a file that mixes decimal marks cannot be read, and what to do."""
        marks = {".": "decimal points", ",": "decimal commas"}
        return (
            f"{opening} mixes {marks[self.decimal]} and {marks[self.other_mark]} "
            f'("{clip(self.other or "", 20)}"), as a spreadsheet set to Norwegian saves an '
            "English-style deck.csv: edit deck.xlsx instead (it holds numbers, not text), or "
            "write deck.csv with --csv-style nb (build, repair)"
        )

    def notes(self) -> list[str]:
        if not self.read_other:
            return []
        marks = {".": "decimal point", ",": "decimal comma"}
        return [
            f"{len(self.read_other)} number(s) written with a {marks[self.other_mark]} in a "
            f"file of {marks[self.decimal]}s (as a spreadsheet set to another language saves "
            f"what is typed into it), read as such: {listed(self.read_other, '; ')}; to keep "
            "one mark, edit deck.xlsx instead, or write deck.csv with --csv-style nb (build, "
            "repair)"
        ]


def _card(row: _Row) -> Card | None:
    nrs = {c: row.whole(f"nr_{c}") for c in CATEGORIES}
    complete_nr = {c: n for c, n in nrs.items() if n is not None}
    if complete_nr and len(complete_nr) != len(CATEGORIES):
        missing = next(c for c in CATEGORIES if nrs[c] is None)
        if not any(p.startswith(f"{row.place}: nr_{missing} ") for p in row.problems):
            row.note(f"nr_{missing}", "is empty, but the card has other nr. values")
    raw: dict[str, Any] = {
        "id": row.text("id") or "",
        "joker": row.flag("joker"),
        "suit": row.text("suit"),
        "value": row.whole("value"),
        "plant_id": row.text("plant_id"),
        "name": row.text("name"),
        "lat": row.number("lat"),
        "lon": row.number("lon"),
        "type": row.text("type"),
        "nr": complete_nr if len(complete_nr) == len(CATEGORIES) else None,
        "flags": {
            "invisible": {c: row.flag(f"invisible_{c}") for c in CATEGORIES},
            "top3": {c: row.flag(f"top3_{c}") for c in CATEGORIES},
            "burn": row.flag("burn"),
            "reset": row.flag("reset"),
            "gwh_tens": row.whole("gwh_tens"),
            "war_partners": (row.text("war_partners") or "").split(),
        },
    }
    for category in CATEGORIES:
        raw[category] = row.number(category)
    if row.problems:
        return None
    try:
        return Card.model_validate(raw)
    except ValidationError as exc:
        for error in exc.errors():
            column = _column_of(error["loc"])
            row.note(column, plain_reason(error))
        return None


def _column_of(location: tuple[int | str, ...]) -> str:
    """The deck.csv column of a place in a card: ``("flags", "top3", "mw")`` -> top3_mw."""
    if not location:
        return "row"
    if location[0] == "flags" and len(location) >= 3:
        return f"{location[1]}_{location[2]}"
    if location[0] in ("flags", "nr") and len(location) >= 2:
        prefix = "nr_" if location[0] == "nr" else ""
        return f"{prefix}{location[1]}"
    return str(location[0])


def _cards(
    path: Path, rows: Rows, place: Callable[[int], str], reading: _Reading
) -> tuple[list[Card], str | None]:
    """The cards of the rows, and the build id they carry."""
    header = _header(path, rows[0][1])
    cards: list[Card] = []
    problems: list[str] = []
    builds: dict[str, str] = {}  # build id -> the first row that carries it
    for number, cells in rows[1:]:
        if not any(_present(cell) for cell in cells):
            continue  # an empty row, as spreadsheets leave them
        if any(_present(cell) for cell in cells[len(header) :]):
            problems.append(f"{place(number)}: more cells than columns")
            continue
        named = {name: cell for name, cell in zip(header, cells, strict=False) if name}
        row = _Row(reading, place(number), named)
        card = _card(row)
        build = row.text("build")
        if build is not None:
            builds.setdefault(build, place(number))
        problems.extend(row.problems)
        if card is not None:
            cards.append(card)
    if len(builds) > 1:
        found = ", ".join(f"{build} from {where}" for build, where in builds.items())
        problems.append(
            f"the rows carry {len(builds)} build ids ({found}): rows of two decks' files; "
            "keep the rows of one deck (empty the build cell of a row typed in by hand)"
        )
    if problems:
        raise InputProblems(path, problems)
    return cards, next(iter(builds), None)


def _present(cell: Cell) -> bool:
    return cell is not None and (not isinstance(cell, str) or bool(cell.strip()))


def _column_texts(rows: Rows, columns: Iterable[str]) -> dict[str, list[str]]:
    """The text cells of the named columns, by column."""
    header = [cell_text(cell).strip().lstrip("\ufeff").lower() for cell in rows[0][1]]
    wanted = {name: index for index, name in enumerate(header) if name in set(columns)}
    texts: dict[str, list[str]] = {name: [] for name in wanted}
    for _, cells in rows[1:]:
        for name, index in wanted.items():
            cell = cells[index] if index < len(cells) else None
            if isinstance(cell, str):
                texts[name].append(cell)
    return texts


def _reading(rows: Rows, delimiter: str) -> _Reading:
    numbers = [cell for cells in _column_texts(rows, NUMBER_COLUMNS).values() for cell in cells]
    dates = [date for cell in numbers if (date := date_text(cell)) is not None]
    reading = _Reading(file_decimal_mark(numbers, delimiter), date_order(dates))
    reading.other = next((cell.strip() for cell in numbers if _only_other(cell, reading)), None)
    return reading


def _only_other(cell: str, reading: _Reading) -> bool:
    """Whether a cell reads as a number only with the other decimal mark than the file's."""
    try:
        parse_number(cell, reading.decimal)
        return False
    except AmbiguousNumber:
        return False
    except ValueError:
        pass
    try:
        parse_number(cell, reading.other_mark)
    except ValueError:
        return False
    return True


def _csv_style(rows: Rows, delimiter: str, decimal: DecimalMark) -> CsvStyle:
    flags = [cell for cells in _column_texts(rows, FLAG_COLUMNS).values() for cell in cells]
    words = flag_words(
        (cell for cell in flags if parse_flag(cell) is True),
        (cell for cell in flags if parse_flag(cell) is False),
    )
    return style_read(delimiter, decimal, words)


#: The sheet of deck.xlsx that holds the cards.
DECK_SHEET = "deck"


def deck_sheet(path: Path) -> Callable[[list[str]], int]:
    """Which sheet of a deck workbook to read: the one named ``deck`` (a backup copy on
    another sheet is not the deck), else the only one; several others are refused."""

    def choose(names: list[str]) -> int:
        shown = ", ".join(repr(clip(name, 31)) for name in names[:10])
        named = [i for i, name in enumerate(names) if name.strip().casefold() == DECK_SHEET]
        if len(named) > 1:
            raise InputFileError(
                path,
                f"{len(named)} of its sheets are named {DECK_SHEET!r} ({shown}): keep that "
                "name on the sheet with the cards only",
            )
        if named:
            return named[0]
        if len(names) == 1:
            return 0
        raise InputFileError(
            path,
            f"no sheet named {DECK_SHEET!r} among its {len(names)} sheets ({shown}): name "
            f"the sheet with the cards {DECK_SHEET!r}, or keep only that sheet",
        )

    return choose


def read_deck_table(path: Path) -> DeckTable:
    """The cards of a deck.csv or deck.xlsx (by suffix), the CSV's style, the build id."""
    if path.suffix.lower() == ".xlsx":
        data = read_input_bytes(path, "deck workbook")
        if not data.strip():
            raise InputFileError(path, "file is empty")
        sheet = chosen_sheet(path, data, DECK_WORKBOOK_LIMITS, deck_sheet(path))
        rows: Rows = [(number, list(cells)) for number, cells in sheet.rows]
        if not rows:
            raise InputFileError(path, f"file is empty: its sheet {sheet.name!r} has no cells")
        reading = _reading(rows, ",")
        cards, build = _cards(path, rows, lambda n: f"row {n}", reading)
        return DeckTable(cards, None, build, reading.notes())
    text = decode_text(read_input_bytes(path, "deck file"), path, "deck file")
    if not text.strip():
        raise InputFileError(path, "file is empty")
    delimiter = csv_delimiter(text)
    rows = _csv_rows(path, text, delimiter)
    reading = _reading(rows, delimiter)
    cards, build = _cards(path, rows, lambda n: f"line {n}", reading)
    return DeckTable(cards, _csv_style(rows, delimiter, reading.decimal), build, reading.notes())
