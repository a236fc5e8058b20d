"""Places and types a snapshot lacks: the place table (kraftstokk places) and carrying."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kraftstokk.cli import app
from kraftstokk.deck.io import load_deck
from kraftstokk.errors import InputFileError
from kraftstokk.models import Plant
from kraftstokk.sources.normalize import plant_type
from kraftstokk.sources.places import read_places
from tests.test_deck_cli import write_synthetic_snapshot
from tests.test_plant_keys import jrc_and_nve

runner = CliRunner()
SOURCES = Path(__file__).resolve().parents[1] / "sources"
JRC_FILE = (
    Path(__file__).resolve().parents[2] / "shared" / "data" / "jrc-hydro-power-plant-database.csv"
)
needs_jrc = pytest.mark.skipif(
    not JRC_FILE.is_file(), reason="the JRC file is not in ../shared/data (a fresh clone)"
)


def invoke(*args: str):
    return runner.invoke(app, list(args))


@pytest.mark.parametrize(
    ("code", "kind"),
    [("Kraftverk", None), ("K", None), ("Pumpe", None), ("P", None),
     ("Pumpekraftverk", "pumped-storage"), ("PK", "pumped-storage"), ("HDAM", "reservoir")],
)  # fmt: skip
def test_nve_type_names_map_and_a_generic_plant_gets_none(code: str, kind: str | None):
    assert plant_type(code) == kind


@needs_jrc
def test_the_shipped_place_table_is_what_the_places_command_makes_of_the_jrc_file(tmp_path):
    out = tmp_path / "plant-places.csv"
    result = invoke("places", str(JRC_FILE), "--min-mw", "20", "--data-date", "2024-01",
                    "--created", "2026-12-01", "--out", str(out))  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "278 plants: 278 with a place, 278 with a type" in result.stdout
    assert out.read_bytes() == (SOURCES / "plant-places.csv").read_bytes()
    shipped = SOURCES / "plant-places.provenance.json"
    assert out.with_name("plant-places.provenance.json").read_bytes() == shipped.read_bytes()


def test_the_shipped_table_holds_keys_places_and_types_only_credited_to_jrc():
    table = read_places(SOURCES / "plant-places.csv")
    header = (SOURCES / "plant-places.csv").read_text(encoding="utf-8").splitlines()[0]
    assert header == "key,lat,lon,type"
    assert table.places["448"].type == "reservoir" and table.places["448"].has_place
    assert table.provenance.licence == "CC BY 4.0"
    assert table.provenance.attribution.startswith("Plant locations and types: JRC")


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("id,lat,lon,type\n1,60,10,\n", "not a place table: the header is not key,lat,lon,type"),
        ("key,lat,lon,type\n1,95,10,\n", "line 2: lat 95 is not a latitude"),
        ("key,lat,lon,type\n1,60,,\n", "line 2: a place needs both lat and lon"),
        ("key,lat,lon,type\n1,60,10,dam\n", "line 2: type 'dam' is not one of reservoir"),
        ("key,lat,lon,type\nN1,60,10,\n1,61,10,\n", "line 3: plant 1 is listed twice"),
        ("key,lat,lon,type\n1,sixty,10,\n", "line 2: lat 'sixty' is not a number"),
    ],
)
def test_a_bad_place_table_is_refused_in_one_line(tmp_path: Path, text: str, reason: str):
    path = tmp_path / "places.csv"
    path.write_text(text, encoding="utf-8")  # rows are checked before the provenance
    with pytest.raises(InputFileError) as info:
        read_places(path)
    assert reason in str(info.value) and str(path) in str(info.value)


def place(plant: Plant, lat: float, lon: float, kind: str) -> Plant:
    return plant.model_copy(update={"lat": lat, "lon": lon, "type": kind})


def test_build_carries_from_the_first_source_that_knows_and_lists_what_it_could_not(
    tmp_path: Path,
):
    jrc, nve = jrc_and_nve()
    top = sorted(range(len(nve)), key=lambda i: -nve[i].gwh)[:52]
    # An older snapshot knows the places of all but the last three of the deck.
    older = [place(p, 60 + i / 100, 8 + i / 100, "reservoir") for i, p in enumerate(jrc)]
    older = [p for i, p in enumerate(older) if i not in top[-3:]]
    write_synthetic_snapshot(tmp_path / "older.csv", older)
    write_synthetic_snapshot(tmp_path / "nve.csv", nve)
    spec = tmp_path / "deck.toml"
    spec.write_text('snapshot = "nve.csv"\ncarry_from = ["older.csv"]\n', encoding="utf-8")
    result = invoke("build", "--spec", str(spec), "--out", str(tmp_path / "out"))
    assert result.exit_code == 0, result.output
    assert "from " in result.stdout and "older.csv: place of 49; type of 49" in result.stdout
    missing = [f"{nve[i].name} ({nve[i].id})" for i in top[-3:]]
    assert "warning: no place for 3 plants" in result.stdout
    assert all(who in result.stdout for who in missing)
    assert 'carry_from = ["plant-places.csv"]' in result.stdout  # the way out
    deck = load_deck(tmp_path / "out" / "deck.json")
    by_id = {c.plant_id: c for c in deck.plant_cards}
    first = nve[top[0]]
    assert (by_id[first.id].lat, by_id[first.id].type) == (60 + top[0] / 100, "reservoir")
    # The places come from the source the figures do: it is credited once, not twice.
    assert deck.snapshot.attribution == "synthetic test plants"


def test_a_missing_carry_from_file_names_the_spec(tmp_path: Path):
    _, nve = jrc_and_nve()
    write_synthetic_snapshot(tmp_path / "nve.csv", nve)
    spec = tmp_path / "deck.toml"
    spec.write_text('snapshot = "nve.csv"\ncarry_from = ["gone.csv"]\n', encoding="utf-8")
    result = invoke("build", "--spec", str(spec), "--out", str(tmp_path / "out"))
    assert result.exit_code == 2
    assert "gone.csv: no such file (carry_from in" in result.stderr


def test_places_refuses_a_file_without_places_or_types(tmp_path: Path):
    source = tmp_path / "nve.json"
    record = {"VannKraftverkID": 1, "Navn": "A", "VannKVType": "Kraftverk", "MaksYtelse": 10}
    source.write_text(json.dumps([record]), encoding="utf-8")
    result = invoke("places", str(source), "--out", str(tmp_path / "p.csv"))
    assert result.exit_code == 2
    assert "no plant with a place (lat and lon) or a type" in result.stderr
