"""Decks through LibreOffice itself: what it reads, saves and exports comes back with every
figure as it was, or with a message naming each figure it changed.

The round trips a deck maker makes: open deck.csv (or deck.xlsx), save as a workbook,
save as CSV again. LibreOffice (Debian's libreoffice-calc) runs headless with its own
profile in the test's folder. The CSV import filter's options are LibreOffice's own:
separator, text quote, character set, first line, column formats, language, quoted cells
as text, detect special numbers; exports add "save cell content as shown". Norwegian
import (language 1044) with special numbers detected reads "20.5" as the 20th of May:
the date-mangling case.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kraftstokk.cli import app
from kraftstokk.deck.csv_style import CSV_STYLES, CsvStyle
from kraftstokk.deck.io import load_deck, write_deck
from tests.test_deck_spreadsheet import clean_deck

SOFFICE = shutil.which("soffice") or shutil.which("libreoffice")
pytestmark = pytest.mark.skipif(
    SOFFICE is None,
    reason="LibreOffice (soffice) is not installed: apt-get install libreoffice-calc",
)
runner = CliRunner()
#: CSV filter options: separator, text quote, character set, first line, column formats,
#: language (1033 English to read the deck's '.' decimals, 1044 Norwegian bokmål to write).
READ_ENGLISH_UTF8 = "CSV:44,34,76,1,,1033"
WRITE_NORWEGIAN_1252 = "csv:Text - txt - csv (StarCalc):59,34,1,1,,1044,false,true,true"
#: The issue's Norwegian import, with special numbers (dates among them) detected.
READ_NORWEGIAN = "CSV:59,34,76,1,,1044,false,true"
READ_ENGLISH = "CSV:44,34,76,1,,1033,false,true"
WRITE_NORWEGIAN = "csv:Text - txt - csv (StarCalc):59,34,76,1,,1044,false,true,true"
WRITE_ENGLISH = "csv:Text - txt - csv (StarCalc):44,34,76,1,,1033,false,true,true"


def soffice(work: Path, *args: str) -> None:
    assert SOFFICE is not None
    env = {**os.environ, "LANG": "nb_NO.UTF-8", "LC_ALL": "nb_NO.UTF-8"}
    profile = (work / "lo-profile").as_uri()
    subprocess.run(
        [SOFFICE, f"-env:UserInstallation={profile}", "--headless", *args],
        check=True,
        capture_output=True,
        env=env,
        timeout=180,
    )


def libreoffice_round_trip(tmp_path: Path) -> tuple[Path, Path, Path]:
    """deck.json + deck.csv as build writes them, deck.xlsx and the CSV LibreOffice saved."""
    deck = clean_deck()
    deck.plant_cards[3].name = "=Aurland I"
    source = tmp_path / "deck"
    json_path, csv_path = write_deck(deck, source)
    soffice(tmp_path, f"--infilter={READ_ENGLISH_UTF8}", "--convert-to", "xlsx",
            "--outdir", str(tmp_path / "xlsx"), str(csv_path))  # fmt: skip
    xlsx = tmp_path / "xlsx" / "deck.xlsx"
    soffice(tmp_path, "--convert-to", WRITE_NORWEGIAN_1252, "--outdir", str(tmp_path / "back"),
            str(xlsx))  # fmt: skip
    saved = tmp_path / "back" / "deck.csv"
    shutil.copy(json_path, saved.with_suffix(".json"))
    return json_path, xlsx, saved


def test_a_deck_csv_saved_by_libreoffice_in_norwegian_validates(tmp_path: Path):
    json_path, xlsx, saved = libreoffice_round_trip(tmp_path)
    text = saved.read_bytes().decode("cp1252")
    assert ";USANN;" in text and "'=Aurland I" in text  # really Norwegian settings
    assert any("," in line.split(";")[6] for line in text.splitlines()[1:] if line)
    original = load_deck(json_path)
    assert load_deck(saved) == original
    assert load_deck(xlsx).cards == original.cards
    result = runner.invoke(app, ["validate", str(saved)])
    assert result.exit_code == 0, result.output
    assert "valid" in result.output


def test_a_figure_edited_in_the_libreoffice_csv_is_repaired(tmp_path: Path):
    _, _, saved = libreoffice_round_trip(tmp_path)
    lines = saved.read_bytes().decode("cp1252").splitlines()
    cells = lines[30].split(";")
    cells[7] = "4 399,5"  # production typed as a Norwegian sees it: now nr. 3
    lines[30] = ";".join(cells)
    saved.write_bytes("\n".join(lines).encode("cp1252"))
    result = runner.invoke(app, ["validate", str(saved)])
    assert result.exit_code == 1
    assert "summary: 1 figure differs from its nr." in result.stdout
    result = runner.invoke(app, ["repair", str(saved), "--out", str(tmp_path / "fixed")])
    assert result.exit_code == 0, result.output
    repaired = load_deck(tmp_path / "fixed" / "deck.json")
    card = next(c for c in repaired.plant_cards if c.id == cells[0])
    assert card.gwh == 4399.5 and card.nr is not None and card.nr.gwh == 3
    assert card.flags.top3.gwh is True


def convert(work: Path, source: Path, to: str, folder: str, infilter: str | None = None) -> Path:
    """``source`` converted by LibreOffice into ``work/folder``, beside the deck.json of
    ``source`` (for title and edition); returns the new file."""
    args = [f"--infilter={infilter}"] if infilter else []
    soffice(work, *args, "--convert-to", to, "--outdir", str(work / folder), str(source))
    suffix = ".xlsx" if to.startswith("xlsx") else ".csv"
    result = work / folder / source.with_suffix(suffix).name
    shutil.copy(source.with_suffix(".json"), result.with_suffix(".json"))
    return result


def deck_with_date_like_figures():
    """The clean deck with two figures a Norwegian spreadsheet takes for dates (and the
    nr. and flags that follow from them), and a place on every plant card."""
    from kraftstokk.deck.repair import repair_deck

    deck = clean_deck()
    deck.card("spar-7").head_m = 20.5
    deck.card("kløver-3").mw = 10.5
    for index, card in enumerate(deck.plant_cards):  # places to six decimals, as JRC gives them
        card.lat = round(58.1 + index * 0.212345, 6)
        card.lon = round(5.2 + index * 0.183457, 6)
    return repair_deck(deck).deck


def test_the_norwegian_style_survives_norwegian_import_and_export(tmp_path: Path):
    deck = deck_with_date_like_figures()
    json_path, csv_path = write_deck(deck, tmp_path / "deck", CSV_STYLES["nb"])
    xlsx = convert(tmp_path, csv_path, "xlsx", "xlsx", READ_NORWEGIAN)
    original = load_deck(json_path)
    assert load_deck(xlsx) == original  # 20,5 stayed a number: no date anywhere
    saved = convert(tmp_path, xlsx, WRITE_NORWEGIAN, "back")
    assert saved.read_text(encoding="utf-8-sig").startswith("id;joker;suit")
    assert load_deck(saved) == original
    result = runner.invoke(app, ["repair", str(saved)])
    assert result.exit_code == 0, result.output
    assert "(';' between cells, decimal comma, SANN/USANN)" in result.output
    assert "no card must be reprinted" in result.output
    assert load_deck(saved) == original
    spar7 = next(line for line in saved.read_text(encoding="utf-8-sig").splitlines()
                 if line.startswith("spar-7;"))  # fmt: skip
    assert ";20,5;" in spar7 and "SANN" in spar7


def test_a_point_decimal_file_in_norwegian_import_names_every_date_it_made(tmp_path: Path):
    """The date-mangling case: LibreOffice turns 20.5 m, 10.5 MW and a longitude of 5.2°
    into the 20th and 10th of May and the 5th of February. The workbook, and the CSV
    exported from it, are refused naming each of them as a date with the figure to type;
    none is read as a number (05.20.2026 is not 5 202 026)."""
    deck = deck_with_date_like_figures()
    assert deck.card("spar-1").lon == 5.2
    _, csv_path = write_deck(deck, tmp_path / "deck", CsvStyle(";", ".", "true", "false"))
    xlsx = convert(tmp_path, csv_path, "xlsx", "xlsx", READ_NORWEGIAN)
    names = {card: deck.card(card).name for card in ("spar-1", "spar-7", "kløver-3")}
    expected = {
        f"lon of spar-1 ({names['spar-1']})": "type 5,2 if that is the figure",
        f"head_m of spar-7 ({names['spar-7']})": "type 20,5 if that is the figure",
        f"mw of kløver-3 ({names['kløver-3']})": "type 10,5 if that is the figure",
    }
    for mangled, place in (
        (xlsx, "row"),
        (convert(tmp_path, xlsx, WRITE_NORWEGIAN, "back"), "line"),
    ):
        result = runner.invoke(app, ["validate", str(mangled)])
        assert result.exit_code == 2, result.output
        (line,) = result.stderr.splitlines()
        assert line.startswith(f"kraftstokk: error: {mangled}: 3 problems: {place} "), line
        problems = line.split(": 3 problems: ")[1].split("; ")
        assert len(problems) == 3
        for problem, (where, advice) in zip(problems, expected.items(), strict=True):
            assert where in problem and "2026, a date: format the column as Number" in problem
            assert problem.endswith(advice), problem
        assert "5202026" not in line


def test_english_import_and_export_keep_every_figure(tmp_path: Path):
    deck = deck_with_date_like_figures()
    json_path, csv_path = write_deck(deck, tmp_path / "deck")
    xlsx = convert(tmp_path, csv_path, "xlsx", "xlsx", READ_ENGLISH)
    original = load_deck(json_path)
    assert load_deck(xlsx) == original
    assert load_deck(convert(tmp_path, xlsx, WRITE_ENGLISH, "back")) == original


@pytest.mark.parametrize(
    ("export", "header"), [(WRITE_NORWEGIAN, "id;joker"), (WRITE_ENGLISH, "id,joker")]
)
def test_deck_xlsx_exported_to_csv_keeps_every_figure(tmp_path: Path, export: str, header: str):
    """deck.xlsx as build writes it (typed cells, formats that show every decimal),
    exported "as shown" by LibreOffice in Norwegian and English, reads back the same."""
    deck = deck_with_date_like_figures()
    deck.card("spar-2").gwh = 1234.0  # grouped: 1 234,0 / 1,234.0
    deck.card("spar-3").mw = 1.234  # three decimals, no lone thousands group
    json_path, _ = write_deck(deck, tmp_path / "deck")
    saved = convert(tmp_path, tmp_path / "deck" / "deck.xlsx", export, "back")
    assert saved.read_text(encoding="utf-8-sig").startswith(header)
    assert load_deck(saved) == load_deck(json_path)


def test_deck_xlsx_saved_again_by_libreoffice_reads_the_same(tmp_path: Path):
    deck = deck_with_date_like_figures()
    deck.plant_cards[3].name = "=Aurland I"
    json_path, _ = write_deck(deck, tmp_path / "deck")
    saved = convert(tmp_path, tmp_path / "deck" / "deck.xlsx", "xlsx", "again")
    assert load_deck(saved) == load_deck(json_path)
