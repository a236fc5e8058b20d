"""A deck.csv that LibreOffice itself saved, with Norwegian settings, reads back the same.

The round trip a deck maker makes: open deck.csv, save as a workbook, save as CSV again.
LibreOffice (Debian's libreoffice-calc) runs headless with its own profile in the test's
folder; Norwegian settings make it write ';' between cells, decimal commas, SANN/USANN and
Windows-1252.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kraftstokk.cli import app
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
