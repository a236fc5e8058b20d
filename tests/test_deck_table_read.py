"""deck.csv and deck.xlsx as spreadsheets give them back (issue 22.5 and 24.5): a figure
turned into a date is named as a date, every problem of a file is reported at once, a
broken file is named at its line, and both tables are written so that opening them
changes no figure."""

from __future__ import annotations

import csv
import io
from datetime import datetime
from pathlib import Path

import pytest
from openpyxl import load_workbook
from typer.testing import CliRunner

from kraftstokk.cli import app
from kraftstokk.deck.columns import CSV_COLUMNS, FLAG_COLUMNS
from kraftstokk.deck.csv_style import CSV_STYLES, CsvStyle
from kraftstokk.deck.io import deck_csv_text, load_deck, load_deck_and_style, write_deck
from kraftstokk.errors import InputFileError, InputProblems
from kraftstokk.models import Deck
from tests.test_deck_spreadsheet import clean_deck
from tests.test_hostile_inputs import one_error_line

runner = CliRunner()
NB = CSV_STYLES["nb"]


def deck_with_head(head_m: float = 20.5) -> Deck:
    """The clean deck with spar-7's head 20.5 m: a figure Norwegian settings read as 20 May."""
    deck = clean_deck()
    deck.card("spar-7").head_m = head_m
    return deck


def csv_lines(path: Path, encoding: str = "utf-8-sig") -> list[list[str]]:
    text = path.read_bytes().decode(encoding)
    delimiter = ";" if text.splitlines()[0].count(";") > 5 else ","
    return list(csv.reader(io.StringIO(text, newline=""), delimiter=delimiter))


def write_lines(path: Path, rows: list[list[str]], delimiter: str = ",") -> Path:
    out = io.StringIO()
    csv.writer(out, delimiter=delimiter, lineterminator="\r\n").writerows(rows)
    path.write_text(out.getvalue(), encoding="utf-8")
    return path


def row_of(rows: list[list[str]], card: str) -> list[str]:
    return next(row for row in rows if row and row[0] == card)


def set_cell(rows: list[list[str]], card: str, column: str, text: str) -> None:
    row_of(rows, card)[CSV_COLUMNS.index(column)] = text


def problems_of(path: Path) -> list[str]:
    with pytest.raises(InputProblems) as caught:
        load_deck(path)
    assert caught.value.exit_code == 2
    return caught.value.problems


# --- figures that became dates --------------------------------------------------------


def test_a_date_cell_in_a_workbook_is_named_as_a_date_with_the_figure_to_type(tmp_path: Path):
    write_deck(deck_with_head(), tmp_path)
    path = tmp_path / "deck.xlsx"
    book = load_workbook(path)
    sheet = book.active
    assert sheet is not None
    row = next(r for r in range(2, 57) if sheet.cell(r, 1).value == "spar-7")
    column = CSV_COLUMNS.index("head_m") + 1
    assert sheet.cell(row, column).value == 20.5
    sheet.cell(row, column).value = datetime(2026, 5, 20)  # as Norwegian import makes it
    sheet.cell(row, column).number_format = "mm/dd/yyyy"
    book.save(path)
    name = load_deck(tmp_path / "deck.json").card("spar-7").name
    assert problems_of(path) == [
        f"row {row}: head_m of spar-7 ({name}) reads 20.05.2026, a date: format the column "
        "as Number and type 20,5 if that is the figure"
    ]


@pytest.mark.parametrize(
    ("cells", "advice"),
    [
        # LibreOffice's own export of a date cell made from 20.5 and 10.5, month first
        (["05.20.2026", "05.10.2026"], ["type 20,5 if that", "type 10,5 if that"]),
        (["20.05.2026", "10.05.2026"], ["type 20,5 if that", "type 10,5 if that"]),
        (["2026-05-20", "20. mai"], ["type 20,5 if that", "type 20,5 if that"]),
        (["05/20/26", "13:30"],
         ["type 20,5 if that", "a time: format the column as Number and type the figure"]),
        (["05.10.2026", "07.12.2026"],
         ["type 5,10 or 10,5, whichever", "type 7,12 or 12,7, whichever"]),
    ],
)  # fmt: skip
def test_date_text_in_a_csv_is_named_as_a_date(tmp_path: Path, cells: list[str], advice: list[str]):
    _, csv_path = write_deck(clean_deck(), tmp_path)
    rows = csv_lines(csv_path)
    set_cell(rows, "spar-7", "head_m", cells[0])
    set_cell(rows, "kløver-3", "mw", cells[1])
    problems = problems_of(write_lines(csv_path, rows, ";"))
    assert len(problems) == 2
    assert "head_m of spar-7" in problems[0] and f"reads {cells[0]}, a" in problems[0]
    assert "mw of kløver-3" in problems[1] and f"reads {cells[1]}, a" in problems[1]
    for problem, words in zip(problems, advice, strict=True):
        assert words in problem, problem


def test_a_date_is_never_read_as_a_number_of_thousands(tmp_path: Path):
    """``5.20.2026`` once read as 5 202 026 m."""
    _, csv_path = write_deck(clean_deck(), tmp_path)
    rows = csv_lines(csv_path)
    set_cell(rows, "spar-7", "head_m", "5.20.2026")
    for delimiter in (",", ";"):
        (problem,) = problems_of(write_lines(csv_path, rows, delimiter))
        assert "head_m of spar-7" in problem and "reads 5.20.2026, a date" in problem
        assert "type 20,5 if that is the figure" in problem


def test_every_problem_of_a_file_in_one_pass(tmp_path: Path):
    _, csv_path = write_deck(clean_deck(), tmp_path)
    rows = csv_lines(csv_path)
    set_cell(rows, "spar-1", "head_m", "20.05.2026")
    set_cell(rows, "hjerter-1", "burn", "kanskje")
    set_cell(rows, "kløver-1", "value", "tre")
    set_cell(rows, "ruter-1", "nr_gwh", "2.5")
    set_cell(rows, "spar-13", "suit", "stjerne")
    set_cell(rows, "hjerter-13", "mw", "3,960")
    set_cell(rows, "hjerter-13", "gwh", "12 GWh")
    row_of(rows, "kløver-13").append("extra")
    problems = problems_of(write_lines(csv_path, rows))
    assert [p.split(":")[0] for p in problems] == [
        "line 2", "line 3", "line 4", "line 5", "line 6", "line 7", "line 7", "line 8"
    ]  # fmt: skip
    expected = [
        "head_m of spar-1 (Tonstad) reads 20.05.2026, a date",
        'burn of hjerter-1 (Kvilldal) reads "kanskje", not true or false',
        'value of kløver-1 (Sima) reads "tre", not a number',
        "nr_gwh of ruter-1 (Aurland I) reads 2.5, not a whole number",
        'suit of spar-13 (Saurdal) is "stjerne", not one of',
        'mw of hjerter-13 (Tokke) reads "3,960": a thousands mark or a decimal mark?',
        'gwh of hjerter-13 (Tokke) reads "12 GWh", not a number',
        "more cells than columns",
    ]
    for problem, words in zip(problems, expected, strict=True):
        assert words in problem, problem
    result = runner.invoke(app, ["validate", str(csv_path)])
    line = one_error_line(result, 2, str(csv_path), "8 problems: line 2: head_m of spar-1")
    assert "and 3 more" in line
    lines = result.stderr.splitlines()
    listed = [line.strip() for line in lines if not line.startswith("kraftstokk:")]
    assert listed == problems  # all eight above the error line, not only the first five


def test_a_workbook_with_several_problems_reports_them_all(tmp_path: Path):
    write_deck(clean_deck(), tmp_path)
    path = tmp_path / "deck.xlsx"
    book = load_workbook(path)
    sheet = book.active
    assert sheet is not None
    mw, joker, name = (CSV_COLUMNS.index(c) + 1 for c in ("mw", "joker", "name"))
    sheet.cell(2, mw).value = "=1/0"  # a formula openpyxl stores without a value
    sheet.cell(3, joker).value = "kanskje"
    sheet.cell(4, name).value = datetime(2026, 5, 20)
    sheet.cell(4, name).number_format = "dd.mm.yyyy"
    book.save(path)
    assert problems_of(path) == [
        "row 2: mw of spar-1 (Tonstad) holds the formula =1/0 but no value: save the workbook "
        "in a spreadsheet, or type the value",
        'row 3: joker of hjerter-1 (Kvilldal) reads "kanskje", not true or false',
        "row 4: name of kløver-1 reads 20.05.2026, a date: format the column as Text and type "
        "it again",
    ]


# --- the file's structure (24.5) -----------------------------------------------------


def test_a_column_that_is_there_twice_is_refused_by_name(tmp_path: Path):
    _, csv_path = write_deck(clean_deck(), tmp_path)
    rows = csv_lines(csv_path)
    for row in rows:
        row.append("Falsk navn" if row[0] != "id" else "name")
    result = runner.invoke(app, ["validate", str(write_lines(csv_path, rows))])
    one_error_line(
        result, 2, str(csv_path), "column name is there twice (columns 6 (F) and 27 (AA)); keep one"
    )


def test_a_column_of_ones_own_may_be_there_twice(tmp_path: Path):
    deck = clean_deck()
    _, csv_path = write_deck(deck, tmp_path)
    rows = csv_lines(csv_path)
    for row in rows:
        row.extend(["notat", "notat"] if row[0] == "id" else ["a", "b"])
    assert load_deck(write_lines(csv_path, rows)).cards == deck.cards


def test_a_broken_character_is_named_at_its_line(tmp_path: Path):
    _, csv_path = write_deck(clean_deck(), tmp_path)
    data = csv_path.read_bytes()
    lines = data.split(b"\r\n")
    lines[1] = lines[1].replace(b"Tonstad", b"Ton\xed\xa0\x80stad")  # a lone surrogate
    lines[40] = lines[40] + b"\xff"
    csv_path.write_bytes(b"\r\n".join(lines))
    result = runner.invoke(app, ["validate", str(csv_path)])
    one_error_line(
        result, 2, str(csv_path),
        "lines 2, 41: not UTF-8, though the rest of the file is (bytes ed a0 80); "
        "save the file as UTF-8 again",
    )  # fmt: skip


def test_a_windows_1252_file_is_read_and_a_byte_neither_encodes_is_named(tmp_path: Path):
    deck = clean_deck()
    _, csv_path = write_deck(deck, tmp_path)
    text = csv_path.read_bytes().decode("utf-8-sig")
    csv_path.write_bytes(text.encode("cp1252"))
    assert load_deck(csv_path).cards == deck.cards
    lines = text.encode("cp1252").split(b"\r\n")
    lines[6] += b"\x81"  # undefined in Windows-1252
    csv_path.write_bytes(b"\r\n".join(lines))
    with pytest.raises(InputFileError, match=r"line 7: byte 81 is neither UTF-8 nor Windows-1252"):
        load_deck(csv_path)


def test_a_broken_utf16_file_is_named_at_its_line(tmp_path: Path):
    _, csv_path = write_deck(clean_deck(), tmp_path)
    data = csv_path.read_text(encoding="utf-8-sig").encode("utf-16")
    at = data.index("Kvilldal".encode("utf-16-le"))
    csv_path.write_bytes(data[:at] + b"\x00\xdc" + data[at:])  # a lone low surrogate
    with pytest.raises(InputFileError, match=r"line 3: not valid UTF-16$"):
        load_deck(csv_path)


def edited_csv(tmp_path: Path, edits: dict[int, tuple[str, str]]) -> Path:
    """The clean deck's deck.csv with text replaced on the given lines (1 = the header)."""
    _, csv_path = write_deck(clean_deck(), tmp_path)
    lines = csv_path.read_bytes().decode("utf-8-sig").split("\r\n")
    for number, (old, new) in edits.items():
        assert old in lines[number - 1]
        lines[number - 1] = lines[number - 1].replace(old, new, 1)
    csv_path.write_text("\r\n".join(lines), encoding="utf-8")
    return csv_path


def test_a_quote_that_never_closes_is_named_at_its_line(tmp_path: Path):
    csv_path = edited_csv(tmp_path, {5: (",Aurland I,", ',"Aurland I,')})
    result = runner.invoke(app, ["validate", str(csv_path)])
    one_error_line(
        result, 2, str(csv_path),
        'line 5: the name cell opens a quote (") that is never closed; write a quote inside a '
        'cell as two ("")',
    )  # fmt: skip


def test_a_quote_that_closes_lines_later_is_named_at_its_line(tmp_path: Path):
    edits = {5: (",Aurland I,", ',"Aurland I,'), 10: (",Mauranger,", ',Mauranger",')}
    match = r'line 5: the name cell opens a quote \("\) that closes only on line 10'
    with pytest.raises(InputFileError, match=match):
        load_deck(edited_csv(tmp_path, edits))


def test_text_after_a_closing_quote_is_named(tmp_path: Path):
    match = r"line 4: a quoted cell goes on after its closing quote"
    with pytest.raises(InputFileError, match=match):
        load_deck(edited_csv(tmp_path, {4: (",Sima,", ',"Si" ma,')}))


# --- writing: the Norwegian style, deck.xlsx -----------------------------------------


def test_the_norwegian_style_is_what_a_norwegian_spreadsheet_expects(tmp_path: Path):
    deck = deck_with_head()
    result = runner.invoke(app, ["build", "--help"])
    assert "--csv-style" in result.output
    json_path, csv_path = write_deck(deck, tmp_path, NB)
    data = csv_path.read_bytes()
    assert data.startswith(b"\xef\xbb\xbf") and b"\r\n" in data
    rows = csv_lines(csv_path)
    assert rows[0] == list(CSV_COLUMNS)
    spar7 = row_of(rows, "spar-7")
    assert spar7[CSV_COLUMNS.index("head_m")] == "20,5"
    flags = {spar7[CSV_COLUMNS.index(c)] for c in FLAG_COLUMNS}
    assert flags <= {"SANN", "USANN"} and "USANN" in flags
    assert not any("." in row[CSV_COLUMNS.index(c)] for row in rows[1:] for c in ("mw", "gwh"))
    assert load_deck(csv_path) == load_deck(json_path)


def test_build_writes_the_style_asked_for_and_deck_xlsx(tmp_path: Path):
    from tests.conftest import synthetic_plants
    from tests.test_deck_cli import write_synthetic_snapshot

    write_synthetic_snapshot(tmp_path / "plants.csv", synthetic_plants(60))
    spec = tmp_path / "deck.toml"
    spec.write_text('snapshot = "plants.csv"\n', encoding="utf-8")
    result = runner.invoke(
        app, ["build", "--spec", str(spec), "--out", str(tmp_path / "o"), "--csv-style", "nb"]
    )
    assert result.exit_code == 0, result.output
    assert "deck.json, " in result.output and "deck.xlsx (55 cards)" in result.output
    assert (tmp_path / "o" / "deck.csv").read_text(encoding="utf-8-sig").startswith("id;joker;suit")
    assert load_deck(tmp_path / "o" / "deck.xlsx") == load_deck(tmp_path / "o" / "deck.json")


@pytest.mark.parametrize(
    "style",
    [CSV_STYLES["nb"], CSV_STYLES["en"], CsvStyle("\t", ",", "ja", "nei"),
     CsvStyle(";", ".", "1", "0")],
    ids=["nb", "en", "tab-ja-nei", "semicolon-point-1-0"],
)  # fmt: skip
def test_repair_writes_the_style_it_read(tmp_path: Path, style: CsvStyle):
    deck = deck_with_head()  # spar-7's nr. no longer follow from its head: repair changes them
    write_deck(deck, tmp_path / "in", style)
    path = tmp_path / "in" / "deck.csv"
    assert load_deck_and_style(path) == (load_deck(tmp_path / "in" / "deck.json"), style)
    result = runner.invoke(app, ["repair", str(path), "--out", str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    assert style.describe() in result.output
    repaired = load_deck(tmp_path / "out" / "deck.json")
    assert repaired.card("spar-7").nr != deck.card("spar-7").nr
    assert (tmp_path / "out" / "deck.csv").read_bytes().decode() == deck_csv_text(repaired, style)
    result = runner.invoke(
        app, ["repair", str(path), "--out", str(tmp_path / "en"), "--csv-style", "en"]
    )
    assert result.exit_code == 0, result.output
    assert (tmp_path / "en" / "deck.csv").read_bytes().decode() == deck_csv_text(
        load_deck(tmp_path / "en" / "deck.json")
    )


def test_a_libreoffice_style_file_comes_back_in_its_style(tmp_path: Path):
    """';', decimal commas and SANN/USANN, as Norwegian LibreOffice saves a deck.csv, with an
    edited figure: repair recomputes the nr. and keeps every mark of the style."""
    write_deck(clean_deck(), tmp_path / "in", NB)
    path = tmp_path / "in" / "deck.csv"
    rows = csv_lines(path)
    set_cell(rows, "spar-7", "gwh", "4 399,5")
    out = io.StringIO()
    csv.writer(out, delimiter=";", lineterminator="\r\n").writerows(rows)
    path.write_bytes(out.getvalue().encode("cp1252"))  # and Windows-1252, as Excel saves it
    result = runner.invoke(app, ["repair", str(path)])
    assert result.exit_code == 0, result.output
    repaired = csv_lines(path)
    spar7 = row_of(repaired, "spar-7")
    assert spar7[CSV_COLUMNS.index("gwh")] == "4399,5" and spar7[CSV_COLUMNS.index("nr_gwh")] == "3"
    assert spar7[CSV_COLUMNS.index("top3_gwh")] == "SANN"


def test_deck_xlsx_holds_typed_cells_in_formats_that_show_every_digit(tmp_path: Path):
    deck = deck_with_head()
    deck.card("hjerter-1").name = '=HYPERLINK("http://x")'
    deck.card("spar-3").mw = 1234.0
    deck.card("spar-4").gwh = 1.234
    write_deck(deck, tmp_path)
    book = load_workbook(tmp_path / "deck.xlsx")
    sheet = book.active
    assert sheet is not None and sheet.title == "deck" and sheet.freeze_panes == "A2"
    header = [cell.value for cell in sheet[1]]
    assert header == list(CSV_COLUMNS)
    cells = {name: sheet.cell(3, index + 1) for index, name in enumerate(CSV_COLUMNS)}  # hjerter-1
    assert cells["name"].value == '=HYPERLINK("http://x")' and cells["name"].data_type == "s"
    assert cells["name"].quotePrefix and cells["name"].number_format == "@"
    assert cells["id"].value == "hjerter-1" and cells["id"].number_format == "@"
    assert cells["plant_id"].value == deck.card("hjerter-1").plant_id
    assert cells["value"].value == 1 and cells["value"].number_format == "0"
    assert cells["nr_mw"].data_type == "n" and cells["nr_mw"].number_format == "0"
    assert cells["joker"].value is False and cells["burn"].value in (True, False)
    assert isinstance(cells["mw"].value, float) and cells["mw"].number_format == "#,##0.0#"
    assert cells["gwh"].number_format == "#,##0.0##"  # 1.234 shows three decimals
    assert sheet.cell(56, 1).value == "joker-3" and sheet.cell(56, 7).value is None
    (tmp_path / "again").mkdir()
    write_deck(deck, tmp_path / "again")
    assert (tmp_path / "again" / "deck.xlsx").read_bytes() == (tmp_path / "deck.xlsx").read_bytes()
    assert load_deck(tmp_path / "deck.xlsx") == load_deck(tmp_path / "deck.json")


def test_decimal_formats_show_every_decimal_and_at_least_one():
    from kraftstokk.deck.table_write import decimal_format

    assert decimal_format([960.0, 12.0], grouped=True) == "#,##0.0"
    assert decimal_format([4357.37, 20.5], grouped=True) == "#,##0.0#"
    assert decimal_format([58.658155, 6.7], grouped=False) == "0.0#####"
    assert decimal_format([], grouped=False) == "0.0"
