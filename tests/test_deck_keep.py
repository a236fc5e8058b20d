"""Reprints with policy.keep / build --keep-from: only what changed changes."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from kraftstokk.cli import app
from kraftstokk.deck.io import load_deck
from kraftstokk.models import Plant
from tests.conftest import synthetic_plants
from tests.test_deck_cli import write_synthetic_snapshot

runner = CliRunner()


def build(spec: Path, out: Path, *extra: str) -> str:
    result = runner.invoke(app, ["build", "--spec", str(spec), "--out", str(out), *extra])
    assert result.exit_code == 0, result.output
    return result.stdout


def setup(tmp_path: Path, plants: list[Plant]) -> Path:
    write_synthetic_snapshot(tmp_path / "plants.csv", plants)
    spec = tmp_path / "deck.toml"
    spec.write_text('snapshot = "plants.csv"\n', encoding="utf-8")
    return spec


def diff_json(old: Path, new: Path) -> dict:
    result = runner.invoke(app, ["diff", str(old), str(new), "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def ranked(plants: list[Plant]) -> list[Plant]:
    return sorted(plants, key=lambda p: -p.gwh)


def with_gwh(plants: list[Plant], plant: Plant, gwh: float) -> list[Plant]:
    return [p.model_copy(update={"gwh": gwh}) if p.id == plant.id else p for p in plants]


def test_a_changed_figure_reprints_its_card_and_the_nr_it_shifts_but_no_suit_or_value(
    tmp_path: Path,
):
    plants = synthetic_plants(70)
    spec = setup(tmp_path, plants)
    build(spec, tmp_path / "print-2024")
    top = ranked(plants)
    changed = top[20]
    new_gwh = top[10].gwh + 0.5  # moves from production nr. 21 to nr. 11
    write_synthetic_snapshot(tmp_path / "plants.csv", with_gwh(plants, changed, new_gwh))

    without_keep = tmp_path / "rebuilt"
    build(spec, without_keep)
    old = tmp_path / "print-2024" / "deck.json"
    moved = diff_json(old, without_keep / "deck.json")
    assert any(c["field"] == "card" for p in moved["changed"] for c in p["changes"])

    report = build(spec, tmp_path / "print-2025", "--keep-from", str(old))
    assert "keep " in report and "52 plants keep their suit and value; 0 left, 0 entered" in report
    new = tmp_path / "print-2025" / "deck.json"
    data = diff_json(old, new)
    assert data["entered"] == [] and data["left"] == []
    fields = {p["plant_id"]: {c["field"] for c in p["changes"]} for p in data["changed"]}
    assert {"gwh", "nr_gwh", "gwh_tens"} <= fields[changed.id]
    shifted = {pid for pid, f in fields.items() if pid != changed.id}
    assert len(shifted) == 10 and all(
        f == {"nr_gwh"} for pid, f in fields.items() if pid in shifted
    )
    assert not any("card" in f for f in fields.values())
    # gwh_tens is a game flag no face prints: the figure, its bar, the nr. and the picture's
    # lake (drawn from production) are.
    assert data["summary"] == (
        "11 faces of 55 must be reprinted (the back stays): figures on 1, nr. on 11, bars on 1, "
        "picture on 1"
    )
    assert data["reprint"] == 11 and data["reprint_back"] is False
    causes = data["verdict"]["causes"]
    assert [c["kind"] for c in causes] == ["figure"] and len(causes[0]["faces"]) == 11
    table = runner.invoke(app, ["diff", str(old), str(new)]).stdout
    assert table.strip().splitlines()[-1] == data["summary"]
    assert runner.invoke(app, ["validate", str(new)]).exit_code == 0


def test_entering_plants_take_the_places_leaving_plants_freed(tmp_path: Path):
    plants = synthetic_plants(70)
    spec = setup(tmp_path, plants)
    build(spec, tmp_path / "old")
    old_deck = load_deck(tmp_path / "old" / "deck.json")
    top = ranked(plants)
    gone, excluded, entering = top[5], top[30], top[52:54]
    write_synthetic_snapshot(tmp_path / "plants.csv", [p for p in plants if p.id != gone.id])
    spec.write_text(  # excluded by name: resolved to its id
        f'snapshot = "plants.csv"\n[selection]\nexcluded = ["{excluded.name}"]\n'
        '[policy]\nkeep = "old/deck.json"\n',
        encoding="utf-8",
    )
    report = build(spec, tmp_path / "new")
    new_deck = load_deck(tmp_path / "new" / "deck.json")
    old_cards = {c.plant_id: c.id for c in old_deck.plant_cards}
    new_cards = {c.plant_id: c.id for c in new_deck.plant_cards}
    for plant_id, card in new_cards.items():
        if plant_id in old_cards:
            assert old_cards[plant_id] == card
    freed = {old_cards[gone.id], old_cards[excluded.id]}
    assert {new_cards[p.id] for p in entering} == freed
    # The higher producer takes the freed place higher on the ladder (value 1, 13, 12, ...).
    assert new_cards[entering[0].id] == old_cards[gone.id]
    assert (
        f"left: {old_cards[gone.id]} {gone.name} ({gone.id}): no longer in the snapshot" in report
    )
    assert f"({excluded.id}): excluded in the spec" in report
    assert f"entered: {entering[0].name} ({entering[0].id}) takes {old_cards[gone.id]}" in report
    assert f"freed by {gone.name} ({gone.id}), by the production ladder" in report
    assert runner.invoke(app, ["validate", str(tmp_path / "new" / "deck.json")]).exit_code == 0


def test_keep_with_a_table_policy_is_refused(tmp_path: Path):
    spec = setup(tmp_path, synthetic_plants(70))
    build(spec, tmp_path / "old")
    spec.write_text('snapshot = "plants.csv"\n[policy]\nkind = "table"\n', encoding="utf-8")
    result = runner.invoke(
        app, ["build", "--spec", str(spec), "--keep-from", str(tmp_path / "old" / "deck.json")]
    )
    assert result.exit_code == 2
    assert "cannot be combined with kind = table" in result.stderr
