"""deck.csv as spreadsheets write it back, deck.xlsx, formula guards, the deck's details."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kraftstokk.cli import app
from kraftstokk.deck.io import CSV_COLUMNS, deck_csv_text, load_deck, write_deck
from kraftstokk.deck.spreadsheet import parse_number
from kraftstokk.errors import InputFileError
from tests.conftest import synthetic_deck

runner = CliRunner()
FIGURES = {"mw", "gwh", "head_m"}
NUMBERS = FIGURES | {"value", "nr_mw", "nr_gwh", "nr_head_m", "gwh_tens"}
FLAGS = {"joker", "burn", "reset"} | {f"{k}_{c}" for k in ("invisible", "top3") for c in FIGURES}


def clean_deck():
    """The synthetic deck with figures as a data source gives them (no float noise such as
    203.26999999999998, which a spreadsheet's 15 digits would round)."""
    deck = synthetic_deck()
    for card in deck.plant_cards:
        for category in FIGURES:
            setattr(card, category, round(getattr(card, category), 3))
    return deck


def rows_of(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text.lstrip("\ufeff"), newline="")))


def norwegian_number(text: str) -> str:
    """As Norwegian Excel shows 4357.37 with thousands grouped: '4 357,37' (no-break space)."""
    if not text:
        return text
    whole, _, decimals = text.partition(".")
    grouped = f"{int(whole):,}".replace(",", "\u00a0")
    return grouped + ("," + decimals if decimals else "")


def spreadsheet_csv(rows: list[dict[str, str]], delimiter: str, true: str, false: str) -> str:
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=CSV_COLUMNS, delimiter=delimiter, lineterminator="\r\n")
    writer.writeheader()
    for index, row in enumerate(rows):
        changed = dict(row)
        for column in NUMBERS:
            changed[column] = norwegian_number(row[column])
        for column in FLAGS:
            changed[column] = true if row[column] == "true" else false
        writer.writerow(changed)
        if index == 20:
            out.write(delimiter * (len(CSV_COLUMNS) - 1) + "\r\n")  # an empty row
    return out.getvalue() + "\r\n"


@pytest.mark.parametrize(
    ("encoding", "delimiter", "true", "false"),
    [
        ("cp1252", ";", "SANN", "USANN"),  # Norwegian Excel's "CSV (semikolonseparert)"
        ("utf-16", "\t", "ja", "nei"),  # "Unicode-tekst": UTF-16 with BOM, tabs
        ("utf-8", ",", "1", "0"),
        ("utf-8-sig", ";", "TRUE", "FALSE"),
    ],
)
def test_a_deck_csv_saved_by_a_spreadsheet_reads_back_the_same_cards(
    tmp_path: Path, encoding: str, delimiter: str, true: str, false: str
):
    deck = synthetic_deck()
    text = spreadsheet_csv(rows_of(deck_csv_text(deck)), delimiter, true, false)
    assert "4\u00a0" in text  # thousands really are grouped
    path = tmp_path / "deck.csv"
    path.write_bytes(text.encode(encoding))
    assert load_deck(path).cards == deck.cards


@pytest.mark.parametrize(
    ("text", "decimal", "value"),
    [
        ("4357.37", ".", 4357.37),
        ("4357,37", ",", 4357.37),
        ("4 357,37", ",", 4357.37),
        ("4\u00a0357,37", ",", 4357.37),
        ("4\u202f357,37", ",", 4357.37),
        ("4,357.37", ".", 4357.37),
        ("4.357,37", ",", 4357.37),
        ("1 234 567", ".", 1234567.0),
        ("\u22123,5", ",", -3.5),
        ("12", ",", 12.0),
    ],
)
def test_numbers_in_spreadsheet_formats(text: str, decimal, value: float):
    assert parse_number(text, decimal) == value


@pytest.mark.parametrize(
    ("text", "decimal"),
    [
        ("", "."),
        ("abc", "."),
        ("1,2,3.4.5", "."),
        ("12 GWh", "."),
        ("nan", "."),
        ("inf", "."),
        ("5.20.2026", ","),  # a date LibreOffice exported, not 5 202 026
        ("5.20.2026", "."),
        ("05.20.2026", ","),
        ("1.2345.678", ","),  # a group of four digits
        ("12.34.567", ","),  # a group of two
        ("1 2 3", "."),  # spaces that group no thousands
        ("4 35,5", ","),
        ("4357,37", "."),  # the other decimal mark than the file's
        ("3,960", "."),  # 3 960 or 3,96: refused, not guessed
        ("3.960", ","),
    ],
)
def test_what_is_not_a_number(text: str, decimal):
    with pytest.raises(ValueError):
        parse_number(text, decimal)


def test_a_name_that_looks_like_a_formula_is_guarded_and_reads_back_unchanged(tmp_path: Path):
    deck = synthetic_deck()
    hostile = ['=HYPERLINK("http://x","y")', "+47 Kraft", "-Sima", "@SUM(A1)", "'=quoted"]
    for card, name in zip(deck.plant_cards, hostile, strict=False):
        card.name = name
    _, csv_path = write_deck(deck, tmp_path)
    cells = [row["name"] for row in rows_of(csv_path.read_text(encoding="utf-8-sig"))]
    for cell in cells:
        assert not cell.startswith(("=", "+", "-", "@")), cell
    assert cells[:5] == ["'" + name for name in hostile]
    assert load_deck(csv_path).cards == deck.cards


def test_a_deck_xlsx_is_read_directly(tmp_path: Path):
    from openpyxl import Workbook

    deck = clean_deck()
    workbook = Workbook()
    sheet = workbook.active
    assert sheet is not None
    sheet.append(list(CSV_COLUMNS))
    for row in rows_of(deck_csv_text(deck)):
        cells: list[object] = []
        for column in CSV_COLUMNS:
            text = row[column]
            if column in FLAGS:
                cells.append(text == "true")  # real booleans, as a spreadsheet stores them
            elif column in NUMBERS and text:
                cells.append(float(text))
            else:
                cells.append(text or None)
        sheet.append(cells)
    sheet.append([None] * len(CSV_COLUMNS))
    path = tmp_path / "deck.xlsx"
    workbook.save(path)
    assert load_deck(path).cards == deck.cards


def test_a_deck_xlsx_that_is_no_workbook_says_so(tmp_path: Path):
    path = tmp_path / "deck.xlsx"
    path.write_text("id,joker\n", encoding="utf-8")
    with pytest.raises(
        InputFileError, match=r"not an XLSX workbook \(not a ZIP archive, or cut short\)"
    ):
        load_deck(path)


def test_the_deck_json_beside_a_csv_carries_title_edition_and_snapshot(tmp_path: Path):
    deck = synthetic_deck()
    _, csv_path = write_deck(deck, tmp_path)
    loaded = load_deck(csv_path)
    assert (loaded.title, loaded.edition, loaded.snapshot) == (
        deck.title,
        deck.edition,
        deck.snapshot,
    )


@pytest.mark.parametrize("command", ["render", "booklet"])
def test_printing_from_a_lone_csv_is_refused_in_one_line(tmp_path: Path, command: str):
    lone = tmp_path / "lone"
    lone.mkdir()
    (lone / "deck.csv").write_text(deck_csv_text(synthetic_deck()), encoding="utf-8")
    result = runner.invoke(app, [command, str(lone / "deck.csv"), "--out", str(tmp_path / "o")])
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1
    assert "holds the cards only, no edition, snapshot, attribution" in lines[0]
    assert "deck.json" in lines[0]
    assert not (tmp_path / "o").exists()


def test_simulate_and_play_accept_a_deck_csv(tmp_path: Path):
    _, csv_path = write_deck(synthetic_deck(), tmp_path)
    (tmp_path / "deck.json").unlink()  # the cards alone are enough to play
    result = runner.invoke(
        app,
        ["simulate", str(csv_path), "--game", "idiot", "--games", "3", "--workers", "1",
         "--no-report", "--out", str(tmp_path / "sim")],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert (tmp_path / "sim" / "sim-idiot.json").exists()
    result = runner.invoke(
        app,
        ["play", "--deck", str(csv_path), "--game", "idiot", "--players", "2", "--seed", "1"],
        input="q\n",
    )
    assert result.exit_code == 0, result.output
    assert "Game left unfinished" in result.output


def test_play_refuses_an_invalid_deck_like_simulate(tmp_path: Path):
    deck = synthetic_deck()
    deck.plant_cards[0].gwh = 1.0
    json_path, _ = write_deck(deck, tmp_path)
    for args in (
        ["play", "--deck", str(json_path), "--game", "idiot", "--players", "2"],
        ["simulate", str(json_path), "--game", "idiot", "--games", "1", "--no-report"],
    ):
        result = runner.invoke(app, args, input="q\n")
        assert result.exit_code == 1, result.output
        assert "problems found" in result.stderr


def test_a_workbook_far_larger_than_a_deck_is_refused(tmp_path: Path):
    from openpyxl import Workbook

    from kraftstokk.deck.table_read import DECK_WORKBOOK_LIMITS

    workbook = Workbook(write_only=True)
    sheet = workbook.create_sheet()
    sheet.append(list(CSV_COLUMNS))
    for _ in range(DECK_WORKBOOK_LIMITS.rows + 5):
        sheet.append(["x"] * 3)
    path = tmp_path / "deck.xlsx"
    workbook.save(path)
    with pytest.raises(
        InputFileError,
        match=f"more than {DECK_WORKBOOK_LIMITS.rows} rows in sheet .*; a deck has 56",
    ):
        load_deck(path)


def test_rendering_from_deck_csv_prints_the_same_sheets_as_from_deck_json(tmp_path: Path):
    json_path, csv_path = write_deck(synthetic_deck(), tmp_path / "deck")
    pdfs = []
    for source, out in ((json_path, tmp_path / "a"), (csv_path, tmp_path / "b")):
        result = runner.invoke(app, ["render", str(source), "--only", "sheets", "-o", str(out)])
        assert result.exit_code == 0, result.output
        pdfs.append((out / "kraftstokk-a4.pdf").read_bytes())
    assert pdfs[0] == pdfs[1]  # title, edition and attribution came from the deck.json beside
