"""``preflight`` without ``--preset``: the file says which preset (its PDF/X output
intent, else the name render gave it), the first line says which and why; ``--preset``
still decides when given."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from pypdf import PdfReader, PdfWriter
from pypdf.generic import NameObject, TextStringObject
from typer.testing import CliRunner

from kraftstokk.cli import app
from kraftstokk.models import Deck
from kraftstokk.render.outputs import RenderOptions, render_deck
from tests.test_preflight import make_pdf

runner = CliRunner()


def preflight(*args: str | Path):
    return runner.invoke(app, ["preflight", *map(str, args)])


def with_condition(path: Path, identifier: str) -> Path:
    """``path`` with its PDF/X output intent made for another printing condition."""
    writer = PdfWriter(clone_from=PdfReader(path))
    intent = writer._root_object["/OutputIntents"][0].get_object()
    intent[NameObject("/OutputConditionIdentifier")] = TextStringObject(identifier)
    writer.write(path)
    return path


@pytest.fixture(scope="module")
def home_sheet(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from tests.conftest import synthetic_deck

    deck: Deck = synthetic_deck()
    out = tmp_path_factory.mktemp("sheets")
    render_deck(deck, out, RenderOptions(only=("sheets",)))
    return out / "kraftstokk-a4.pdf"


def test_a_pdfx_file_is_checked_for_the_condition_it_declares(tmp_path: Path):
    result = preflight(make_pdf(tmp_path / "cards.pdf"))
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[0] == (
        "preset offset (the file is PDF/X-1a:2003 for the printing condition FOGRA39)"
    )
    assert "passes preflight for offset" in result.output
    other = with_condition(make_pdf(tmp_path / "dtc.pdf"), "CGATS TR 001")
    result = preflight(other)
    assert result.output.splitlines()[0].startswith("preset drivethrucards (the file is")


def test_a_home_sheet_is_known_by_its_name_and_passes(home_sheet: Path, tmp_path: Path):
    result = preflight(home_sheet)
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[0] == "preset home-a4 (the file's name, kraftstokk-a4.pdf)"
    assert "passes preflight for home-a4" in result.output
    renamed = tmp_path / "sheet.pdf"  # nothing says home: the default, which it fails
    renamed.write_bytes(home_sheet.read_bytes())
    result = preflight(renamed)
    assert result.exit_code == 1
    assert result.output.splitlines()[0] == (
        "preset offset (the default: the file names no preset)"
    )


def test_the_preset_given_wins_and_the_json_says_where_it_came_from(home_sheet: Path):
    result = preflight(home_sheet, "--preset", "offset", "--json")
    assert result.exit_code == 1
    report = json.loads(result.stdout)
    assert (report["preset"], report["preset_from"]) == ("offset", "--preset")
    report = json.loads(preflight(home_sheet, "--json").stdout)
    assert (report["preset"], report["preset_from"]) == (
        "home-a4",
        "the file's name, kraftstokk-a4.pdf",
    )


def test_a_tuck_box_is_checked_at_any_card_size(tmp_path: Path):
    """drivethrucards asks for its poker card's TrimBox; its tuck box has the die's."""
    die = (178.2, 159.1)
    box = with_condition(
        make_pdf(tmp_path / "kraftstokk-box-drivethrucards.pdf", trim=die, bleed=3.175),
        "CGATS TR 001",
    )
    result = preflight(box)
    assert result.output.splitlines()[0].startswith("preset drivethrucards (the file is")
    assert re.search(r"boxes +pass", result.output), result.output
    cards = tmp_path / "cards.pdf"  # the same file, not named as a box: a card size is asked
    cards.write_bytes(box.read_bytes())
    result = preflight(cards)
    assert result.exit_code == 1
    assert re.search(r"boxes +FAIL", result.output, re.IGNORECASE), result.output


@pytest.mark.parametrize(
    ("name", "preset"),
    [
        ("kraftstokk-letter.pdf", "home-letter"),
        ("kraftstokk-a4-reprint.pdf", "home-a4"),
        ("kraftstokk-printshop-reprint.pdf", "offset"),
        ("kraftstokk-drivethrucards.pdf", "drivethrucards"),
        ("kraftstokk-box-offset-x4-dieline.pdf", "offset-x4"),
        ("kraftstokk-box.pdf", "offset"),  # the home box names no preset
        ("regler.pdf", "offset"),
    ],
)
def test_names_render_writes_name_their_preset(tmp_path: Path, name: str, preset: str):
    from kraftstokk.render.preflight.detect import detect_preset

    path = make_pdf(tmp_path / name, pdfx=False)
    assert detect_preset(path).preset == preset
