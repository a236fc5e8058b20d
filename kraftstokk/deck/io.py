"""Read and write decks: the one loader every command uses, and the writer ``build`` uses.

``deck.json`` holds the whole deck; ``deck.csv`` one row per card, UTF-8 with a byte-order
mark so that spreadsheets show æøå, with plain column names (:data:`CSV_COLUMNS`) and
text cells guarded against running as formulas, in the ``en`` or ``nb`` style
(:mod:`kraftstokk.deck.csv_style`); ``deck.xlsx`` the same cards as typed cells
(:mod:`kraftstokk.deck.table_write`). Reading accepts what a spreadsheet saves back
(:mod:`kraftstokk.deck.table_read`). The CSV and the workbook hold the cards only: title,
edition, snapshot and spec come from the ``deck.json`` beside them
(:func:`deck_json_beside`); without one, :func:`load_deck` gives an empty snapshot and
edition, which :func:`require_print_details` refuses.
"""

from __future__ import annotations

import hashlib
import json
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from kraftstokk.atomic import write_files
from kraftstokk.deck.columns import CSV_COLUMNS, LATER_CSV_COLUMNS, TEXT_COLUMNS
from kraftstokk.deck.csv_style import CsvStyle
from kraftstokk.deck.table_read import DeckTable, read_deck_table
from kraftstokk.deck.table_write import card_row, deck_csv_text, deck_xlsx_bytes
from kraftstokk.errors import InputFileError, ReadNote, listed
from kraftstokk.models import Card, Deck, SnapshotInfo
from kraftstokk.plain import first_problem
from kraftstokk.sources.plant_keys import plant_key
from kraftstokk.textfile import parse_json_text, read_utf8_text

__all__ = [
    "CSV_COLUMNS",
    "DECK_SUFFIXES",
    "LATER_CSV_COLUMNS",
    "TEXT_COLUMNS",
    "DeckFiles",
    "build_id",
    "card_row",
    "deck_csv_text",
    "deck_files",
    "deck_json_text",
    "load_deck",
    "load_deck_and_style",
    "load_deck_read",
    "load_valid_deck",
    "stamped",
    "write_deck",
    "write_deck_files",
]

#: Suffixes the loader reads.
DECK_SUFFIXES = (".json", ".csv", ".xlsx")


def deck_json_text(deck: Deck) -> str:
    return json.dumps(deck.model_dump(mode="json"), indent=2, ensure_ascii=False) + "\n"


#: Hex digits of a build id: enough that two different decks never share one by chance.
BUILD_ID_LENGTH = 12


#: Starts every build id, so that no spreadsheet reads one as a number: 12 hex digits can
#: be all digits (``123456789012``, saved back as ``1.23457E+11``) or ``123456789e12``.
BUILD_ID_MARK = "k"


def build_id(deck: Deck) -> str:
    """The id of the files ``deck`` is written as: a digest of the deck (without an id),
    so the same deck always gets the same id and files stay byte-identical."""
    return _stamp(deck_json_text(deck.model_copy(update={"build": None})))


def _stamp(text: str) -> str:
    return BUILD_ID_MARK + hashlib.sha256(text.encode("utf-8")).hexdigest()[:BUILD_ID_LENGTH]


def stamped(deck: Deck) -> Deck:
    """``deck`` with the build id its files carry."""
    return deck.model_copy(update={"build": build_id(deck)})


@dataclass(frozen=True)
class DeckFiles:
    """The files a deck is written as, together."""

    json: Path
    csv: Path
    xlsx: Path

    def all(self) -> tuple[Path, Path, Path]:
        return self.json, self.csv, self.xlsx

    def names(self) -> str:
        """``output/deck.json, output/deck.csv and output/deck.xlsx``."""
        return f"{self.json}, {self.csv} and {self.xlsx}"


def deck_files(out_dir: str | Path) -> DeckFiles:
    out_dir = Path(out_dir)
    return DeckFiles(out_dir / "deck.json", out_dir / "deck.csv", out_dir / "deck.xlsx")


def write_deck(
    deck: Deck, out_dir: str | Path, csv_style: CsvStyle | None = None
) -> tuple[Path, Path]:
    """:func:`write_deck_files`; returns the paths of deck.json and deck.csv."""
    files = write_deck_files(deck, out_dir, csv_style)
    return files.json, files.csv


def write_deck_files(
    deck: Deck, out_dir: str | Path, csv_style: CsvStyle | None = None
) -> DeckFiles:
    """Write ``deck.json``, ``deck.csv`` (in ``csv_style``, default ``en``) and
    ``deck.xlsx`` into ``out_dir`` together: all are complete on disk before any replaces
    the previous one, and all carry one build id (:func:`build_id`)."""
    files = deck_files(out_dir)
    deck = stamped(deck)
    write_files(
        {
            files.csv: deck_csv_text(deck, csv_style).encode("utf-8"),
            files.xlsx: deck_xlsx_bytes(deck),
            files.json: deck_json_text(deck).encode("utf-8"),
        }
    )
    return files


def _deck_from_raw(raw: Any, path: Path) -> Deck:
    try:
        return Deck.model_validate(raw)
    except ValidationError as exc:
        raise InputFileError(path, f"not a deck: {first_problem(exc)}") from None


def load_deck_json_file(path: Path) -> Deck:
    return read_deck_json(path)[0]


def read_deck_json(path: Path) -> tuple[Deck, bool]:
    """The deck of a deck.json, and whether it was changed after kraftstokk wrote it."""
    raw = parse_json_text(path, read_utf8_text(path, "deck file"), "deck")
    if not isinstance(raw, dict) or "cards" not in raw:
        raise InputFileError(path, "not a deck: no 'cards' list")
    return _deck_from_raw(raw, path), changed_since_written(raw)


def changed_since_written(raw: dict[str, Any]) -> bool:
    """The deck.json's content is not the one its build id was made from. Measured on the
    file's own content, not on the deck read from it, so that a field a later version adds
    to decks does not make every older deck.json look changed (and re-indenting is no
    change); an id of 12 bare hex digits, as the first builds with ids wrote them, is not
    checked."""
    build = raw.get("build")
    if not isinstance(build, str) or not build.startswith(BUILD_ID_MARK):
        return False
    return _stamp(json.dumps({**raw, "build": None}, indent=2, ensure_ascii=False) + "\n") != build


def load_deck_and_style(path: str | Path) -> tuple[Deck, CsvStyle | None]:
    """The deck, and the style of a deck.csv it was read from (None for JSON and XLSX).
    What was read otherwise than written is said as a :class:`ReadNote` warning."""
    deck, style, notes = load_deck_read(path)
    for note in notes:
        warnings.warn(ReadNote(f"{path}: {note}"), stacklevel=2)
    return deck, style


def load_deck_read(path: str | Path) -> tuple[Deck, CsvStyle | None, list[str]]:
    """The deck, the style of a deck.csv it was read from (None for JSON and XLSX), and
    notes on what was read otherwise than written (a decimal comma in an ``en`` file)."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix == ".json":
        deck, changed = read_deck_json(path)
        if not changed or as_written(path, deck) is None:
            return deck, None, []  # without its table, repair and --keep-from say why
        return (
            deck,
            None,
            [
                f"changed after kraftstokk wrote it (its content is not that of build "
                f"{deck.build}): the deck.csv and deck.xlsx written with it no longer say the "
                f"same; kraftstokk repair {path} writes all three again and keeps its changed "
                "figures as hand corrections"
            ],
        )
    if suffix not in (".csv", ".xlsx"):
        raise InputFileError(path, "not a deck file: expected a .json, .csv or .xlsx suffix")
    beside = deck_json_beside(path)
    if beside is None:
        table = read_deck_table(path)
        deck = Deck(title="Kraft-stokken", edition="", snapshot=SnapshotInfo(path=""), spec={},
                    cards=table.cards, build=table.build)  # fmt: skip
        return deck, table.style, table.notes
    for last in (False, True):
        seen = _file_stamps(path, beside)
        table = read_deck_table(path)
        details, changed = read_deck_json(beside)
        try:
            require_one_deck(path, table, beside, details, changed)
            break
        except InputFileError:
            # A build replacing the folder's files between the two reads (it holds the
            # folder's lock; readers take none) is not two decks: read both again once.
            if last or _file_stamps(path, beside) == seen:
                raise
    deck = Deck(title=details.title, edition=details.edition, snapshot=details.snapshot,
                spec=details.spec, cards=table.cards,
                build=table.build or details.build)  # fmt: skip
    return deck, table.style, table.notes


def _file_stamps(*paths: Path) -> list[tuple[int, int] | None]:
    """Which file each path is (inode and change time): an atomic replace changes both."""
    stamps: list[tuple[int, int] | None] = []
    for path in paths:
        try:
            stat = path.stat()
        except OSError:
            stamps.append(None)
        else:
            stamps.append((stat.st_ino, stat.st_mtime_ns))
    return stamps


def as_written(path: Path, deck: Deck) -> tuple[Deck, Path] | None:
    """For a deck.json changed after it was written, the deck as written: its details
    with the cards of the deck.csv or deck.xlsx beside it that carries its build id, and
    that file (None when no such file lies beside it)."""
    for table_path in (path.with_suffix(".csv"), path.with_suffix(".xlsx")):
        if not table_path.is_file():
            continue
        try:
            table = read_deck_table(table_path)
        except InputFileError:
            continue  # an unreadable table tells nothing; the other one may
        if table.build == deck.build:
            return deck.model_copy(update={"cards": table.cards}), table_path
    return None


def require_as_written(path: Path) -> tuple[Deck, Path] | None:
    """:func:`as_written` for the deck.json at ``path`` when it was changed after it was
    written (None for one as written); refuse one whose edits nothing beside it can tell."""
    deck, changed = read_deck_json(path)
    if not changed:
        return None
    written = as_written(path, deck)
    if written is None:
        raise InputFileError(
            path,
            f"changed after kraftstokk wrote it (its content is not that of build "
            f"{deck.build}), and no deck.csv or deck.xlsx of that build lies beside it to "
            "tell which figures were edited, so they cannot be kept as hand corrections: "
            "put the deck.csv written with it beside it, or edit deck.csv or deck.xlsx "
            "and run kraftstokk repair",
        )
    return written


def require_as_printed(path: Path, deck: Deck) -> None:
    """Refuse a deck.csv or deck.xlsx given as the deck that was printed (a reprint's or a
    proof's OLD) while it holds edits not repaired: its cards differ from the deck.json
    beside it, which is what its build printed, so a verdict against it would be against
    cards nobody printed."""
    beside = deck_json_beside(path) if path.suffix.lower() in (".csv", ".xlsx") else None
    if beside is None:
        return
    printed = {card.id: card for card in load_deck_json_file(beside).cards}
    ours = {card.id for card in deck.cards}
    edited = [card.id for card in deck.cards if printed.get(card.id) != card]
    edited += [card_id for card_id in printed if card_id not in ours]
    if not edited:
        return
    raise InputFileError(
        path,
        f"holds edits not repaired ({len(edited)} card(s) differ from {beside}: "
        f"{listed(edited)}), so it is not the deck that was printed: give "
        f"{beside} (the deck printed), or run kraftstokk repair {path} first if the cards "
        "were printed from these edits",
    )


def require_one_deck(
    path: Path, table: DeckTable, beside: Path, details: Deck, changed: bool = False
) -> None:
    """Refuse a deck table and the deck.json beside it that are not one deck: written by
    two builds (their build ids differ), or, for a table without a build id, with other
    plants. The deck.json gives the table its title, edition, snapshot and the figures
    hand edits are measured against: last year's would give the old edition and invent
    corrections, and so would one changed by hand after it was written (``changed``)."""
    if changed:
        raise InputFileError(
            path,
            f"{beside} was changed after kraftstokk wrote it (its content is not that of "
            f"build {details.build}), so it cannot tell what was edited in {path.name}: run "
            f"kraftstokk repair {beside} to keep its edits as hand corrections first (then "
            f"edit {path.name}), or put back the {beside.name} written with {path.name}",
        )
    if table.build is not None and details.build is not None and table.build == details.build:
        return
    ours = {plant_key(c.plant_id): c for c in table.cards if not c.joker and c.plant_id}
    theirs = {plant_key(c.plant_id): c for c in details.plant_cards if c.plant_id}
    only_ours = [_plant(c) for k, c in ours.items() if k not in theirs]
    only_theirs = [_plant(c) for k, c in theirs.items() if k not in ours]
    if table.build is None and not only_ours and not only_theirs:
        return  # written before build ids (or the column was cleared): the same plants
    said = [] if table.build is None else [f"build {table.build}"]
    differences = []
    if only_ours:
        differences.append(f"only in {path.name}: {listed(only_ours)}")
    if only_theirs:
        differences.append(f"only in {beside.name}: {listed(only_theirs)}")
    plants = "; ".join(differences) if differences else f"the same {len(ours)} plants"
    edition = f"edition {details.edition}" if details.edition else "no edition"
    other = f"build {details.build}, {edition}" if details.build else edition
    written = f"{path.name} ({', '.join(said) or 'no build id'})"
    raise InputFileError(
        path,
        f"{written} and {beside} ({other}) are not one deck ({plants}); put the "
        f"{beside.name} written with {path.name} beside it",
    )


def _plant(card: Card) -> str:
    return f"{card.name} ({card.plant_id})"


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
    return load_deck_and_style(path)[0]


def load_valid_deck(path: str | Path) -> Deck:
    """A deck that passes validation (else ValidationFailed, exit 1, listing every error)."""
    from kraftstokk.deck.validate import require_valid

    deck = load_deck(path)
    require_valid(deck, str(path))
    return deck
