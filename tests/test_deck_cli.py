"""CLI: build, validate, diff and spec-schema — exit codes and messages."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kraftstokk.cli import app
from kraftstokk.deck.io import load_deck, write_deck
from kraftstokk.deck.validate import validate_deck
from kraftstokk.models import Plant
from kraftstokk.sources.quality import QualityReport
from kraftstokk.sources.snapshot import Provenance, Snapshot, write_snapshot
from tests.conftest import synthetic_deck, synthetic_plants

runner = CliRunner()


def write_synthetic_snapshot(path: Path, plants: list[Plant]) -> Path:
    provenance = Provenance(
        source_kind="jrc-csv",
        sources=["synthetic.csv"],
        created="2026-01-01",
        data_date="2024-01",
        licence="CC BY 4.0",
        attribution="synthetic test plants",
        quality=QualityReport(rows_read=len(plants), rows_kept=len(plants)),
    )
    write_snapshot(Snapshot(plants=plants, provenance=provenance), path)
    return path


@pytest.fixture
def spec_file(tmp_path: Path) -> Path:
    plants = synthetic_plants(70)
    top = max(range(len(plants)), key=lambda i: plants[i].gwh)
    plants[top] = plants[top].model_copy(update={"head_m": 1500.0})  # an implausible head
    write_synthetic_snapshot(tmp_path / "plants.csv", plants)
    spec = tmp_path / "deck.toml"
    spec.write_text('title = "Test-stokken"\nsnapshot = "plants.csv"\n', encoding="utf-8")
    return spec


def test_build_writes_deck_and_prints_report(spec_file: Path, tmp_path: Path):
    out = tmp_path / "output"
    result = runner.invoke(app, ["build", "--spec", str(spec_file), "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "70 plants, 70 eligible, 52 selected" in result.stdout
    assert "validation: 0 errors" in result.stdout
    deck = json.loads((out / "deck.json").read_text(encoding="utf-8"))
    assert len(deck["cards"]) == 55 and deck["title"] == "Test-stokken"
    assert deck["snapshot"]["licence"] == "CC BY 4.0" and deck["snapshot"]["date"] == "2024-01"
    # Warnings other than ties (listed in the report) are printed one per line.
    report = validate_deck(load_deck(out / "deck.json"), str(out / "deck.json"))
    shown = [w for w in report.warnings if w.rule != "tie"]
    assert [(w.rule, w.field) for w in shown] == [("implausible", "head_m")]
    for warning in shown:
        assert f"  {warning.line()}\n" in result.stdout
    first = (out / "deck.json").read_bytes(), (out / "deck.csv").read_bytes()
    again = runner.invoke(app, ["build", "--spec", str(spec_file), "--out", str(out)])
    assert again.exit_code == 0
    assert ((out / "deck.json").read_bytes(), (out / "deck.csv").read_bytes()) == first


def test_build_with_invalid_spec_exits_2_naming_key(spec_file: Path, tmp_path: Path):
    spec_file.write_text(
        'snapshot = "plants.csv"\n[selection]\npinned = ["N999"]\n', encoding="utf-8"
    )
    result = runner.invoke(app, ["build", "--spec", str(spec_file), "--out", str(tmp_path / "o")])
    assert result.exit_code == 2
    assert 'selection.pinned: plant "N999" is not in the snapshot' in result.stderr
    assert "Traceback" not in result.output
    assert not (tmp_path / "o").exists()
    spec_file.write_text('snapshot = "plants.csv"\nfont = "x"\n', encoding="utf-8")
    result = runner.invoke(app, ["build", "--spec", str(spec_file), "--out", str(tmp_path / "o")])
    assert result.exit_code == 2 and "font: unknown key" in result.stderr


def test_build_with_missing_snapshot_exits_2(tmp_path: Path):
    spec = tmp_path / "deck.toml"
    spec.write_text('snapshot = "nowhere.csv"\n', encoding="utf-8")
    result = runner.invoke(app, ["build", "--spec", str(spec), "--out", str(tmp_path)])
    assert result.exit_code == 2 and "nowhere.csv" in result.stderr


def test_build_exits_1_when_the_deck_has_errors(tmp_path: Path):
    plants = synthetic_plants(60)
    long_name = "Fellesanlegget Kykkelsrud-Fossumfoss og Vamma Nedre Øvre"
    top = max(plants, key=lambda p: p.gwh)
    plants = [p.model_copy(update={"name": long_name}) if p is top else p for p in plants]
    write_synthetic_snapshot(tmp_path / "plants.csv", plants)
    spec = tmp_path / "deck.toml"
    spec.write_text('snapshot = "plants.csv"\n', encoding="utf-8")
    result = runner.invoke(app, ["build", "--spec", str(spec), "--out", str(tmp_path / "o")])
    assert result.exit_code == 1
    assert "name too long for the card" in result.stderr
    assert not (tmp_path / "o" / "deck.json").exists()  # a failing build writes nothing
    spec.write_text(f'snapshot = "plants.csv"\n[names]\n{top.id} = "Kykkelsrud"\n', "utf-8")
    result = runner.invoke(app, ["build", "--spec", str(spec), "--out", str(tmp_path / "o")])
    assert result.exit_code == 0, result.output


def test_validate_exit_codes(tmp_path: Path):
    json_path, csv_path = write_deck(synthetic_deck(), tmp_path)
    ok = runner.invoke(app, ["validate", str(json_path)])
    assert ok.exit_code == 0 and "valid: 55 cards, 0 errors" in ok.stdout

    text = csv_path.read_text(encoding="utf-8-sig")
    lines = text.splitlines()
    cells = next(csv.reader([lines[1]]))
    cells[9] = str(int(cells[9]) + 1)  # nr_mw of the first card
    lines[1] = ",".join(cells)
    csv_path.write_text("\n".join(lines) + "\n", encoding="utf-8-sig")
    bad = runner.invoke(app, ["validate", str(csv_path)])
    assert bad.exit_code == 1
    assert f"{cells[0]} ({cells[5]}): nr_mw:" in bad.stdout and "NOT valid" in bad.stdout

    as_json = runner.invoke(app, ["validate", str(csv_path), "--json"])
    assert as_json.exit_code == 1
    report = json.loads(as_json.stdout)
    assert report["ok"] is False and report["errors"][0]["field"] == "nr_mw"

    missing = runner.invoke(app, ["validate", str(tmp_path / "nope.json")])
    assert missing.exit_code == 2
    assert "nope.json: no such file" in missing.stderr and "Traceback" not in missing.output


def test_diff_of_two_decks_table_and_json(tmp_path: Path):
    old = synthetic_deck()
    new = synthetic_deck()
    card = new.plant_cards[0]
    card.gwh = (card.gwh or 0) + 1
    old_path, _ = write_deck(old, tmp_path / "old")
    new_path, _ = write_deck(new, tmp_path / "new")
    result = runner.invoke(app, ["diff", str(old_path), str(new_path)])
    assert result.exit_code == 0
    assert "cards that change: 1 (unchanged: 51)" in result.stdout
    assert card.id in result.stdout
    data = json.loads(runner.invoke(app, ["diff", str(old_path), str(new_path), "--json"]).stdout)
    assert data["changed"][0]["changes"][0]["field"] == "gwh"
    assert runner.invoke(app, ["diff", str(old_path), str(tmp_path / "x.json")]).exit_code == 2


def test_diff_of_two_snapshots_builds_both(spec_file: Path, tmp_path: Path):
    ranked = sorted(synthetic_plants(70), key=lambda p: -p.gwh)
    leaving, entering = ranked[51], ranked[52]
    old = spec_file.parent / "plants.csv"
    new = write_synthetic_snapshot(tmp_path / "newer.csv", [p for p in ranked if p is not leaving])
    result = runner.invoke(app, ["diff", str(old), str(new), "--spec", str(spec_file), "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert [p["plant_id"] for p in data["left"]] == [leaving.id]
    assert [p["plant_id"] for p in data["entered"]] == [entering.id]
    table = runner.invoke(app, ["diff", str(old), str(new), "--spec", str(spec_file)])
    assert f"- {data['left'][0]['old_card']} {leaving.name}" in table.stdout


def test_spec_schema_is_json_schema_of_the_spec():
    result = runner.invoke(app, ["spec-schema"])
    assert result.exit_code == 0
    schema = json.loads(result.stdout)
    assert schema["additionalProperties"] is False
    assert {"selection", "policy", "tie_break", "names", "style"} <= set(schema["properties"])


def test_help_texts_have_examples():
    for command in ("build", "validate", "diff", "spec-schema"):
        result = runner.invoke(app, [command, "--help"])
        assert result.exit_code == 0 and "kraftstokk " + command in result.stdout
