"""Hand corrections of figures ([figures]) across rebuilds: applied, shown, never lost."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

from typer.testing import CliRunner

from kraftstokk.cli import app
from kraftstokk.deck.io import load_deck
from kraftstokk.models import Plant
from tests.conftest import synthetic_plants
from tests.test_deck_cli import write_synthetic_snapshot

runner = CliRunner()


def invoke(*args: str):
    return runner.invoke(app, list(args))


def setup(tmp_path: Path, figures: str = "") -> tuple[Path, list[Plant]]:
    plants = synthetic_plants(70)
    write_synthetic_snapshot(tmp_path / "plants.csv", plants)
    spec = tmp_path / "deck.toml"
    spec.write_text(f'snapshot = "plants.csv"\n{figures}', encoding="utf-8")
    return spec, sorted(plants, key=lambda p: -p.gwh)


def test_a_correction_is_applied_reported_recorded_and_shown_in_diff(tmp_path: Path):
    spec, top = setup(tmp_path)
    assert invoke("build", "--spec", str(spec), "--out", str(tmp_path / "a")).exit_code == 0
    plant = top[7]
    spec.write_text(
        f'snapshot = "plants.csv"\n[figures.{plant.id}]\nhead_m = 1234.5\n'
        'reason = "the owner\'s figure"\n',
        encoding="utf-8",
    )
    result = invoke("build", "--spec", str(spec), "--out", str(tmp_path / "b"))
    assert result.exit_code == 0, result.output
    assert "hand corrections ([figures]): 1" in result.stdout
    assert f"{plant.name} ({plant.id}): head_m 1234.5 m (the snapshot says" in result.stdout
    deck = load_deck(tmp_path / "b" / "deck.json")
    card = next(c for c in deck.plant_cards if c.plant_id == plant.id)
    assert card.head_m == 1234.5
    assert deck.spec["figures"] == {plant.id: {"head_m": 1234.5, "reason": "the owner's figure"}}
    diff = invoke("diff", str(tmp_path / "a" / "deck.json"), str(tmp_path / "b" / "deck.json"))
    assert f"hand correction of {plant.id}: (none) -> head_m 1234.5: the owner's figure" in (
        diff.stdout
    )
    assert "(hand correction: the owner's figure)" in diff.stdout


def test_a_correction_the_snapshot_now_agrees_with_says_it_can_go(tmp_path: Path):
    spec, top = setup(tmp_path)
    plant = top[3]
    spec.write_text(
        f'snapshot = "plants.csv"\n[figures.{plant.id}]\nmw = {plant.mw}\nreason = "x"\n',
        encoding="utf-8",
    )
    result = invoke("build", "--spec", str(spec), "--out", str(tmp_path / "b"))
    assert "the snapshot now says the same, the entry can go" in result.stdout


def test_bad_corrections_are_refused_naming_the_key(tmp_path: Path):
    spec, top = setup(tmp_path)
    for table, wanted in (
        (f"[figures.{top[0].id}]\nmw = -3\nreason = 'x'\n", f"figures.{top[0].id}.mw"),
        (f"[figures.{top[0].id}]\nmw = 30\n", f"figures.{top[0].id}.reason"),
        (f"[figures.{top[0].id}]\nmw = 30\nreason = 'x'\nwatts = 3\n", "watts"),
        ("[figures.Z999]\nmw = 30\nreason = 'x'\n", 'figures: plant "Z999" is not in the snapshot'),
    ):
        spec.write_text(f'snapshot = "plants.csv"\n{table}', encoding="utf-8")
        result = invoke("build", "--spec", str(spec), "--out", str(tmp_path / "o"))
        assert result.exit_code == 2, table
        assert wanted in result.stderr, result.stderr


def edit_csv(path: Path, card_id: str, column: str, value: str) -> None:
    text = path.read_text(encoding="utf-8-sig")
    rows = list(csv.DictReader(io.StringIO(text)))
    for row in rows:
        if row["id"] == card_id:
            row[column] = value
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=list(rows[0]), lineterminator="\r\n")
    writer.writeheader()
    writer.writerows(rows)
    path.write_text("\ufeff" + out.getvalue(), encoding="utf-8")


def test_a_figure_edited_in_deck_csv_survives_the_next_build_with_keep(tmp_path: Path):
    spec, top = setup(tmp_path)
    printed = tmp_path / "print-2025"
    assert invoke("build", "--spec", str(spec), "--out", str(printed)).exit_code == 0
    deck = load_deck(printed / "deck.json")
    card = next(c for c in deck.plant_cards if c.plant_id == top[10].id)
    edit_csv(printed / "deck.csv", card.id, "head_m", "999.5")
    repaired = invoke("repair", str(printed / "deck.csv"))
    assert repaired.exit_code == 0, repaired.output
    assert "hand corrections recorded in the deck (1;" in repaired.stdout
    assert f"{card.id} {card.name} ({card.plant_id}) head_m" in repaired.stdout
    recorded = json.loads((printed / "deck.json").read_text(encoding="utf-8"))["spec"]["figures"]
    assert recorded[card.plant_id]["head_m"] == 999.5
    assert recorded[card.plant_id]["reason"].startswith("edited by hand in")

    rebuilt = invoke("build", "--spec", str(spec), "--keep-from", str(printed / "deck.json"),
                     "--out", str(tmp_path / "print-2026"))  # fmt: skip
    assert rebuilt.exit_code == 0, rebuilt.output
    assert "hand correction(s) carried from" in rebuilt.stdout
    again = load_deck(tmp_path / "print-2026" / "deck.json")
    assert next(c for c in again.plant_cards if c.plant_id == card.plant_id).head_m == 999.5
    assert again.spec["figures"][card.plant_id]["head_m"] == 999.5  # and the next year too

    # An entry with a reason and no figure is the decision to take the snapshot's again.
    spec.write_text(
        f'snapshot = "plants.csv"\n[figures.{card.plant_id}]\nreason = "NVE fixed it"\n',
        encoding="utf-8",
    )
    dropped = invoke("build", "--spec", str(spec), "--keep-from", str(printed / "deck.json"),
                     "--out", str(tmp_path / "print-2027"))  # fmt: skip
    assert dropped.exit_code == 0 and "carried from" not in dropped.stdout
    final = load_deck(tmp_path / "print-2027" / "deck.json")
    assert next(c for c in final.plant_cards if c.plant_id == card.plant_id).head_m == card.head_m
