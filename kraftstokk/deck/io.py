"""Read and write decks: ``deck.json`` (the whole deck) and ``deck.csv`` (one row per card).

``deck.csv`` is UTF-8 with a byte-order mark so that spreadsheets show æøå, with plain
column names (:data:`CSV_COLUMNS`). Reading also accepts what a spreadsheet saves back:
no byte-order mark, ';' or tab separators, decimal commas, TRUE/FALSE. It holds the cards
only; title, edition, snapshot and spec live in ``deck.json`` (a deck read from CSV has an
empty snapshot path and spec).
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from kraftstokk.atomic import write_files
from kraftstokk.errors import InputFileError
from kraftstokk.models import CATEGORIES, Card, CardFlags, CategoryFlags, Deck, Ranks, SnapshotInfo
from kraftstokk.textfile import parse_json_text, read_utf8_text

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
)
TRUE_WORDS = frozenset({"true", "yes", "1", "ja", "x"})
FALSE_WORDS = frozenset({"false", "no", "0", "nei", ""})


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
        first = exc.errors()[0]
        where = ".".join(str(part) for part in first["loc"]) or "top level"
        raise InputFileError(path, f"not a deck: {where}: {first['msg']}") from None


def load_deck_json_file(path: Path) -> Deck:
    raw = parse_json_text(path, read_utf8_text(path, "deck file"), "deck")
    if not isinstance(raw, dict) or "cards" not in raw:
        raise InputFileError(path, "not a deck: no 'cards' list")
    return _deck_from_raw(raw, path)


class _RowReader:
    """Typed access to one CSV row; a bad cell raises InputFileError naming row and column."""

    def __init__(self, path: Path, line: int, row: dict[str, str]) -> None:
        self.path, self.line, self.row = path, line, row
        self.label = row.get("id") or f"line {line}"

    def fail(self, column: str, reason: str) -> InputFileError:
        return InputFileError(self.path, f"line {self.line} ({self.label}), {column}: {reason}")

    def text(self, column: str) -> str | None:
        value = (self.row.get(column) or "").strip()
        return value or None

    def number(self, column: str) -> float | None:
        value = self.text(column)
        if value is None:
            return None
        try:
            return float(value.replace(",", "."))
        except ValueError:
            raise self.fail(column, f"{value!r} is not a number") from None

    def integer(self, column: str) -> int | None:
        value = self.number(column)
        if value is None:
            return None
        if not value.is_integer():
            raise self.fail(column, f"{value!r} is not a whole number")
        return int(value)

    def flag(self, column: str) -> bool:
        value = (self.row.get(column) or "").strip().lower()
        if value in TRUE_WORDS:
            return True
        if value in FALSE_WORDS:
            return False
        raise self.fail(column, f"{value!r} is not true or false")


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
        found = raw.get(column)
        raise reader.fail(column, f"{found!r}: {first['msg']}") from None


#: Separators a spreadsheet may save with: ',' as written, ';' where ',' is the decimal mark
#: (a Norwegian spreadsheet), tab for "text (tab delimited)".
CSV_DELIMITERS: tuple[str, ...] = (",", ";", "\t")


def csv_delimiter(text: str) -> str:
    """The separator whose header row holds the deck columns (',' when none does)."""
    first_line = text.lstrip("\ufeff").splitlines()[0] if text.strip() else ""
    for delimiter in CSV_DELIMITERS:
        header = next(csv.reader([first_line], delimiter=delimiter), [])
        if {name.strip() for name in header} >= set(CSV_COLUMNS):
            return delimiter
    return ","


def load_deck_csv_file(path: Path) -> Deck:
    text = read_utf8_text(path, "deck file")
    reader = csv.DictReader(io.StringIO(text, newline=""), delimiter=csv_delimiter(text))
    header = [name.strip() for name in reader.fieldnames or []]
    missing = [column for column in CSV_COLUMNS if column not in header]
    if missing:
        raise InputFileError(path, f"not a deck CSV: missing columns {', '.join(missing)}")
    reader.fieldnames = header
    cards = []
    for row in reader:
        if None in row:
            raise InputFileError(path, f"line {reader.line_num}: more cells than columns")
        if not any((cell or "").strip() for cell in row.values()):
            continue
        cards.append(card_from_row(_RowReader(path, reader.line_num, row)))
    return Deck(
        title="Kraft-stokken",
        edition="",
        snapshot=SnapshotInfo(path=""),
        spec={},
        cards=cards,
    )


def load_deck(path: str | Path) -> Deck:
    """Read ``deck.json`` or ``deck.csv`` (chosen by suffix)."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix == ".json":
        return load_deck_json_file(path)
    if suffix == ".csv":
        return load_deck_csv_file(path)
    raise InputFileError(path, "not a deck file: expected a .json or .csv suffix")
