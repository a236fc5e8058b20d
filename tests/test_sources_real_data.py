"""Checks against the real JRC file in ../shared/data (skipped when it is absent)."""

import csv
import shlex
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kraftstokk.cli import app
from kraftstokk.sources.ingest import ingest_files
from kraftstokk.sources.snapshot import provenance_path, read_snapshot

REPO = Path(__file__).parents[1]
SHARED = Path(__file__).parents[2] / "shared" / "data"
JRC_FILE = SHARED / "jrc-hydro-power-plant-database.csv"
EMBEDDED = REPO / "sources" / "jrc-2024-01.csv"

pytestmark = pytest.mark.skipif(
    not JRC_FILE.exists(),
    reason=f"real JRC data not available at {JRC_FILE} (only present in the dev workspace)",
)


JRC_TYPES = {"HDAM": "reservoir", "HROR": "run-of-river", "HPHS": "pumped-storage"}


def norwegian_rows() -> dict[str, dict[str, str]]:
    """The source's Norwegian rows by id, read independently of the project's readers."""
    with JRC_FILE.open(encoding="utf-8-sig", newline="") as handle:
        return {row["id"]: row for row in csv.DictReader(handle) if row["country_code"] == "NO"}


def source_figures(row: dict[str, str]) -> tuple[float, float, float]:
    return (
        float(row["installed_capacity_MW"]),
        float(row["avg_annual_generation_GWh"]),
        float(row["dam_height_m"]),
    )


@pytest.mark.parametrize("name", ["Tonstad", "Kvilldal", "Sy-Sima"])
def test_embedded_snapshot_figures_equal_the_source(name: str):
    rows = [row for row in norwegian_rows().values() if row["name"] == name]
    assert len(rows) == 1
    plant = read_snapshot(EMBEDDED).plant(rows[0]["id"])
    assert plant.name == name
    assert (plant.mw, plant.gwh, plant.head_m) == source_figures(rows[0])


def test_every_embedded_plant_matches_its_source_row():
    rows = norwegian_rows()
    snapshot = read_snapshot(EMBEDDED)
    for plant in snapshot.plants:
        row = rows[plant.id]
        assert plant.name == row["name"].strip()
        assert (plant.mw, plant.gwh, plant.head_m) == source_figures(row), plant.id
        assert plant.mw >= 20
        assert (plant.lat, plant.lon) == (float(row["lat"]), float(row["lon"])), plant.id
        assert plant.type == JRC_TYPES[row["type"]], plant.id
    expected = {
        plant_id
        for plant_id, row in rows.items()
        if all(
            row[c] for c in ("installed_capacity_MW", "avg_annual_generation_GWh", "dam_height_m")
        )
        and min(source_figures(row)) > 0
        and float(row["installed_capacity_MW"]) >= 20
    }
    assert {plant.id for plant in snapshot.plants} == expected


def documented_command() -> list[str]:
    """The ingest command sources/README.md gives for the embedded snapshot."""
    readme = (REPO / "sources" / "README.md").read_text(encoding="utf-8")
    block = readme.split("```\n", 2)[1]
    assert block.startswith("kraftstokk ingest")
    return shlex.split(block.replace("\\\n", " "))[1:]


def test_documented_command_reproduces_the_embedded_snapshot(tmp_path: Path):
    args = documented_command()
    args[args.index("--out") + 1] = str(tmp_path / "jrc.csv")
    args[args.index("../shared/data/jrc-hydro-power-plant-database.csv")] = str(JRC_FILE)
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    assert (tmp_path / "jrc.csv").read_bytes() == EMBEDDED.read_bytes()
    assert (tmp_path / "jrc.provenance.json").read_bytes() == provenance_path(EMBEDDED).read_bytes()


def test_whole_file_keeps_repeated_names_apart():
    rows = norwegian_rows()
    snapshot = ingest_files([JRC_FILE], created="2026-11-29")
    quality = snapshot.provenance.quality
    assert quality.rows_read - quality.dropped["not Norwegian (JRC country_code)"] == len(rows)
    for name in ("Brekke", "Osen", "Mo"):
        ids = sorted(plant_id for plant_id, row in rows.items() if row["name"] == name)
        assert len(ids) >= 2
        kept = [plant for plant in snapshot.plants if plant.id in ids]
        assert len(kept) == len(ids)
        assert len({plant.name for plant in kept}) == len(ids)
        assert all(plant.name.startswith(f"{name} (") for plant in kept)
        assert quality.repeated_names[name] == ids
