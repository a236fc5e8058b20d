"""diff of two snapshots (issue 33 item 14): what changed in the source outside the deck
in a few lines, and --keep-from to keep the printed deck's places (without it, the diff
says it deals afresh).
"""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from kraftstokk.cli import app
from tests.conftest import synthetic_plants
from tests.test_deck_cli import write_synthetic_snapshot

runner = CliRunner()


def invoke(*args: object):
    result = runner.invoke(app, [str(arg) for arg in args])
    assert result.exit_code == 0, result.output
    return result


def two_years(folder: Path) -> tuple[Path, Path, Path]:
    """Last year's snapshot and this year's: a new large plant, a plant gone, one renamed,
    an owner taken over by another, one figure revised; and the spec."""
    old = [p.model_copy(update={"owner": "E-CO" if i % 5 == 0 else "Statkraft"})
           for i, p in enumerate(synthetic_plants(70))]  # fmt: skip
    by_gwh = sorted(old, key=lambda p: -p.gwh)
    gone, renamed, revised = by_gwh[10], by_gwh[20], by_gwh[30]
    new = []
    for plant in old:
        if plant.id == gone.id:
            continue
        update: dict[str, object] = {
            "owner": "Hafslund E-CO" if plant.owner == "E-CO" else "Statkraft"
        }
        if plant.id == renamed.id:
            update["name"] = f"{plant.name} kraftverk"
        if plant.id == revised.id:
            update["gwh"] = plant.gwh + 0.5
        new.append(plant.model_copy(update=update))
    largest = {"id": "S900", "source_id": "S900", "name": "Nyanlegg", "owner": "Statkraft"}
    new.append(by_gwh[0].model_copy(update={**largest, "gwh": by_gwh[0].gwh + 10}))
    write_synthetic_snapshot(folder / "old.csv", old)
    write_synthetic_snapshot(folder / "new.csv", new)
    spec = folder / "deck.toml"
    spec.write_text('snapshot = "old.csv"\n', encoding="utf-8")
    return folder / "old.csv", folder / "new.csv", spec


def test_diff_of_two_snapshots_says_what_changed_in_the_source_in_a_few_lines(tmp_path: Path):
    old, new, spec = two_years(tmp_path)
    lines = invoke("diff", old, new, "--spec", spec).stdout.splitlines()
    assert lines[1].startswith("  both snapshots dealt afresh by the spec's policy (give ")
    source = lines[2:7]
    assert source[0] == (
        f"  in the source ({old} -> {new}): 70 plants -> 70: 1 new, 1 gone, 1 renamed, "
        "figures revised for 1 (1 in the deck)"
    )
    assert source[1].startswith("    new, largest first: Nyanlegg (S900, ")
    assert source[1].endswith(" GWh, enters the deck)")
    assert source[2].startswith("    gone (out of operation, or left out by the source): ")
    assert "was in the deck)" in source[2]
    assert source[3].startswith("    renamed: ") and " kraftverk (S" in source[3]
    assert source[4] == "    owners merged: E-CO -> Hafslund E-CO (14 plants)"
    as_json = json.loads(invoke("diff", old, new, "--spec", spec, "--json").stdout)
    assert as_json["source"]["owners_merged"] == [
        {"old": "E-CO", "new": "Hafslund E-CO", "plants": 14}
    ]


def test_diff_keep_from_keeps_the_printed_decks_places(tmp_path: Path):
    old, new, spec = two_years(tmp_path)
    invoke("build", "--spec", spec, "--out", tmp_path / "print")
    afresh = invoke("diff", old, new, "--spec", spec).stdout.splitlines()
    kept = invoke(
        "diff", old, new, "--spec", spec, "--keep-from", tmp_path / "print" / "deck.json"
    ).stdout.splitlines()
    printed = tmp_path / "print" / "deck.json"
    assert kept[1] == f"  both snapshots built with the spec keeping the places of {printed}"
    faces = [int(line.split()[0]) for line in (afresh[-1], kept[-1])]
    assert faces[1] < faces[0], (afresh[-1], kept[-1])
    # The new deck the diff keeps is the one build --keep-from makes.
    invoke("build", "--spec", spec, "--keep-from", tmp_path / "print" / "deck.json",
           "--out", tmp_path / "again")  # fmt: skip
    spec_new = tmp_path / "new.toml"
    spec_new.write_text('snapshot = "new.csv"\n', encoding="utf-8")
    invoke("build", "--spec", spec_new, "--keep-from", tmp_path / "print" / "deck.json",
           "--out", tmp_path / "built")  # fmt: skip
    direct = invoke("diff", tmp_path / "print" / "deck.json", tmp_path / "built" / "deck.json")
    assert direct.stdout.splitlines()[-1] == kept[-1]


def test_keep_from_with_two_decks_is_refused(tmp_path: Path):
    _, _, spec = two_years(tmp_path)
    invoke("build", "--spec", spec, "--out", tmp_path / "print")
    deck = tmp_path / "print" / "deck.json"
    result = runner.invoke(app, ["diff", str(deck), str(deck), "--keep-from", str(deck)])
    assert result.exit_code == 2
    assert "--keep-from goes with two snapshots" in result.stderr
