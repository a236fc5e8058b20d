"""Read and write decks: the one loader every command uses, and the writer ``build`` uses.

``deck.json`` holds the whole deck; ``deck.csv`` one row per card, UTF-8 with a byte-order
mark so that spreadsheets show æøå, with plain column names (:data:`CSV_COLUMNS`) and
text cells guarded against running as formulas. Reading accepts what a spreadsheet saves
back (see :mod:`kraftstokk.deck.spreadsheet`), and ``deck.xlsx`` directly. The CSV and
the workbook hold the cards only: title, edition, snapshot and spec come from the
``deck.json`` beside them (:func:`deck_json_beside`); without one, :func:`load_deck`
gives an empty snapshot and edition, which :func:`require_print_details` refuses.
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from kraftstokk.atomic import write_files
from kraftstokk.deck.spreadsheet import (
    decode_text,
    guard_formula,
    parse_flag,
    parse_number,
    unguard_formula,
    xlsx_rows,
)
from kraftstokk.errors import InputFileError
from kraftstokk.models import CATEGORIES, Card, CardFlags, CategoryFlags, Deck, Ranks, SnapshotInfo
from kraftstokk.plain import first_problem
from kraftstokk.plain import reason as plain_reason
from kraftstokk.textfile import parse_json_text, read_input_bytes, read_utf8_text

CSV_COLUMNS: tuple[str, ...] = (
    "id",
    "joker",
    "suit",
    "value",
    "plant_id",
    "name",
    "mw",
    "gwh",
    "head_m",
    "nr_mw",
    "nr_gwh",
    "nr_head_m",
    "invisible_mw",
    "invisible_gwh",
    "invisible_head_m",
    "top3_mw",
    "top3_gwh",
    "top3_head_m",
    "burn",
    "reset",
    "gwh_tens",
    "war_partners",
    "lat",
    "lon",
    "type",
)
#: Columns a deck written before them lacks; such a deck still loads (the cells are empty).
LATER_CSV_COLUMNS: frozenset[str] = frozenset({"lat", "lon", "type"})
#: Text columns: guarded against formulas on write, unguarded on read.
TEXT_COLUMNS = frozenset({"id", "suit", "plant_id", "name", "war_partners", "type"})
#: Suffixes the loader reads.
DECK_SUFFIXES = (".json", ".csv", ".xlsx")


def deck_json_text(deck: Deck) -> str:
    return json.dumps(deck.model_dump(mode="json"), indent=2, ensure_ascii=False) + "\n"


def _number_text(value: float | int | None) -> str:
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return repr(value)


def _bool_text(value: bool) -> str:
    return "true" if value else "false"


def card_row(card: Card) -> dict[str, str]:
    row = {
        "id": card.id,
        "joker": _bool_text(card.joker),
        "suit": card.suit or "",
        "value": _number_text(card.value),
        "plant_id": card.plant_id or "",
        "name": card.name or "",
        "lat": _number_text(card.lat),
        "lon": _number_text(card.lon),
        "type": card.type or "",
        "burn": _bool_text(card.flags.burn),
        "reset": _bool_text(card.flags.reset),
        "gwh_tens": _number_text(card.flags.gwh_tens),
        "war_partners": " ".join(card.flags.war_partners),
    }
    for category in CATEGORIES:
        row[category] = _number_text(getattr(card, category))
        row[f"nr_{category}"] = _number_text(card.nr.get(category) if card.nr else None)
        row[f"invisible_{category}"] = _bool_text(card.flags.invisible.get(category))
        row[f"top3_{category}"] = _bool_text(card.flags.top3.get(category))
    for column in TEXT_COLUMNS:
        row[column] = guard_formula(row[column])
    return row


def deck_csv_text(deck: Deck) -> str:
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=CSV_COLUMNS, lineterminator="\r\n")
    writer.writeheader()
    for card in deck.cards:
        writer.writerow(card_row(card))
    return "\ufeff" + buffer.getvalue()


def write_deck(deck: Deck, out_dir: str | Path) -> tuple[Path, Path]:
    """Write ``deck.json`` and ``deck.csv`` into ``out_dir`` together: both are complete
    on disk before either replaces the previous one."""
    out_dir = Path(out_dir)
    json_path = out_dir / "deck.json"
    csv_path = out_dir / "deck.csv"
    write_files(
        {
            csv_path: deck_csv_text(deck).encode("utf-8"),
            json_path: deck_json_text(deck).encode("utf-8"),
        }
    )
    return json_path, csv_path


def _deck_from_raw(raw: Any, path: Path) -> Deck:
    try:
        return Deck.model_validate(raw)
    except ValidationError as exc:
        raise InputFileError(path, f"not a deck: {first_problem(exc)}") from None


def load_deck_json_file(path: Path) -> Deck:
    raw = parse_json_text(path, read_utf8_text(path, "deck file"), "deck")
    if not isinstance(raw, dict) or "cards" not in raw:
        raise InputFileError(path, "not a deck: no 'cards' list")
    return _deck_from_raw(raw, path)


class _RowReader:
    """Typed access to one row; a bad cell raises InputFileError naming row and column."""

    def __init__(self, path: Path, line: int, row: dict[str, str]) -> None:
        self.path, self.line, self.row = path, line, row
        self.label = unguard_formula((row.get("id") or "").strip()) or f"line {line}"

    def fail(self, column: str, reason: str) -> InputFileError:
        return InputFileError(self.path, f"line {self.line} ({self.label}), {column}: {reason}")

    def text(self, column: str) -> str | None:
        value = unguard_formula((self.row.get(column) or "").strip())
        return value or None

    def number(self, column: str) -> float | None:
        value = (self.row.get(column) or "").strip()
        if not value:
            return None
        try:
            return parse_number(value)
        except ValueError:
            raise self.fail(column, f'"{value}" is not a number') from None

    def integer(self, column: str) -> int | None:
        value = self.number(column)
        if value is None:
            return None
        if not value.is_integer():
            raise self.fail(column, f"{_number_text(value)} is not a whole number")
        return int(value)

    def flag(self, column: str) -> bool:
        value = (self.row.get(column) or "").strip()
        flag = parse_flag(value)
        if flag is None:
            raise self.fail(column, f'"{value}" is neither true nor false')
        return flag


def card_from_row(reader: _RowReader) -> Card:
    nrs = {c: reader.integer(f"nr_{c}") for c in CATEGORIES}
    complete_nr = {c: n for c, n in nrs.items() if n is not None}
    if complete_nr and len(complete_nr) != len(CATEGORIES):
        missing = next(c for c in CATEGORIES if nrs[c] is None)
        raise reader.fail(f"nr_{missing}", "empty, but the card has other nr. values")
    raw: dict[str, Any] = {
        "id": reader.text("id") or "",
        "joker": reader.flag("joker"),
        "suit": reader.text("suit"),
        "value": reader.integer("value"),
        "plant_id": reader.text("plant_id"),
        "name": reader.text("name"),
        "lat": reader.number("lat"),
        "lon": reader.number("lon"),
        "type": reader.text("type"),
        "nr": Ranks(**complete_nr) if complete_nr else None,
        "flags": CardFlags(
            invisible=CategoryFlags(**{c: reader.flag(f"invisible_{c}") for c in CATEGORIES}),
            top3=CategoryFlags(**{c: reader.flag(f"top3_{c}") for c in CATEGORIES}),
            burn=reader.flag("burn"),
            reset=reader.flag("reset"),
            gwh_tens=reader.integer("gwh_tens"),
            war_partners=(reader.text("war_partners") or "").split(),
        ),
    }
    for category in CATEGORIES:
        raw[category] = reader.number(category)
    try:
        return Card.model_validate(raw)
    except ValidationError as exc:
        first = exc.errors()[0]
        column = str(first["loc"][0]) if first["loc"] else "row"
        raise reader.fail(column, plain_reason(first)) from None


#: Separators a spreadsheet may save with: ',' as written, ';' where ',' is the decimal mark
#: (a Norwegian spreadsheet), tab for "text (tab delimited)".
CSV_DELIMITERS: tuple[str, ...] = (",", ";", "\t")


def csv_delimiter(text: str) -> str:
    """The separator whose header row holds the deck columns (',' when none does)."""
    first_line = text.lstrip("\ufeff").splitlines()[0] if text.strip() else ""
    for delimiter in CSV_DELIMITERS:
        header = next(csv.reader([first_line], delimiter=delimiter), [])
        if {name.strip().lower() for name in header} >= set(CSV_COLUMNS) - LATER_CSV_COLUMNS:
            return delimiter
    return ","


def _csv_rows(path: Path) -> list[tuple[int, list[str]]]:
    text = decode_text(read_input_bytes(path, "deck file"), path, "deck file")
    if not text.strip():
        raise InputFileError(path, "file is empty")
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=csv_delimiter(text))
    try:
        return [(reader.line_num, row) for row in reader]
    except csv.Error as exc:
        raise InputFileError(path, f"line {reader.line_num}: not readable as CSV ({exc})") from None


def _table_rows(path: Path) -> list[tuple[int, list[str]]]:
    """(line number, cells) of every row, the header first."""
    if path.suffix.lower() == ".xlsx":
        read_input_bytes(path, "deck workbook")  # a missing or unreadable file, said plainly
        return [(number, row) for number, row in enumerate(xlsx_rows(path), start=1)]
    return _csv_rows(path)


def load_deck_table_file(path: Path) -> Deck:
    """The cards of a deck.csv or deck.xlsx, with title, edition, snapshot and spec from
    the deck.json beside it when there is one."""
    rows = _table_rows(path)
    if not rows:
        raise InputFileError(path, "file is empty")
    _, header_cells = rows[0]
    header = [cell.strip().lstrip("\ufeff").lower() for cell in header_cells]
    missing = [c for c in CSV_COLUMNS if c not in header and c not in LATER_CSV_COLUMNS]
    if missing:
        raise InputFileError(path, f"not a deck table: missing columns {', '.join(missing)}")
    cards = []
    for line, cells in rows[1:]:
        if not any(cell.strip() for cell in cells):
            continue  # an empty row, as spreadsheets leave them
        extra = cells[len(header) :]
        if any(cell.strip() for cell in extra):
            raise InputFileError(path, f"line {line}: more cells than columns")
        row = {name: cell for name, cell in zip(header, cells, strict=False) if name}
        cards.append(card_from_row(_RowReader(path, line, row)))
    beside = deck_json_beside(path)
    if beside is not None:
        details = load_deck_json_file(beside)
        return Deck(
            title=details.title,
            edition=details.edition,
            snapshot=details.snapshot,
            spec=details.spec,
            cards=cards,
        )
    return Deck(
        title="Kraft-stokken",
        edition="",
        snapshot=SnapshotInfo(path=""),
        spec={},
        cards=cards,
    )


def deck_json_beside(path: Path) -> Path | None:
    """The deck.json that carries a deck table's title, edition, snapshot and spec:
    the same name with .json, else deck.json in the same folder."""
    for candidate in (path.with_suffix(".json"), path.parent / "deck.json"):
        if candidate.is_file():
            return candidate
    return None


def missing_print_details(deck: Deck) -> list[str]:
    """What the cards' and the booklet's small print would lack."""
    missing = []
    if not deck.edition:
        missing.append("edition")
    if not deck.snapshot.path:
        missing.append("snapshot")
    if not deck.snapshot.attribution:
        missing.append("attribution")
    return missing


def require_print_details(deck: Deck, path: Path) -> None:
    """Refuse to print a deck whose title, edition, snapshot or attribution got lost."""
    missing = missing_print_details(deck)
    if not missing:
        return
    if path.suffix.lower() in (".csv", ".xlsx") and deck_json_beside(path) is None:
        raise InputFileError(
            path,
            f"holds the cards only, no {', '.join(missing)} for the small print; put the "
            f"deck.json it was written with beside it ({path.with_suffix('.json').name})",
        )
    if "attribution" in missing and len(missing) == 1:
        return  # a deck.json built from a snapshot without provenance (build warned)
    raise InputFileError(path, f"the deck has no {', '.join(missing)} for the small print")


def load_deck(path: str | Path) -> Deck:
    """The one deck loader: ``deck.json``, ``deck.csv`` or ``deck.xlsx`` (by suffix)."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix == ".json":
        return load_deck_json_file(path)
    if suffix in (".csv", ".xlsx"):
        return load_deck_table_file(path)
    raise InputFileError(path, "not a deck file: expected a .json, .csv or .xlsx suffix")


def load_valid_deck(path: str | Path) -> Deck:
    """A deck that passes validation (else ValidationFailed, exit 1, listing every error)."""
    from kraftstokk.deck.validate import require_valid

    deck = load_deck(path)
    require_valid(deck, str(path))
    return deck
