"""Each plant's location and type: read from the sources, kept in snapshots and decks."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from kraftstokk.deck.build import build_deck
from kraftstokk.deck.io import CSV_COLUMNS, deck_csv_text, deck_json_text, load_deck, write_deck
from kraftstokk.deck.spec import DeckSpec
from kraftstokk.deck.validate import validate_deck
from kraftstokk.models import SnapshotInfo
from kraftstokk.sources.ingest import ingest_files
from kraftstokk.sources.normalize import plant_type
from kraftstokk.sources.snapshot import read_snapshot, read_snapshot_plants
from tests.conftest import synthetic_plants

REPO = Path(__file__).parents[1]


@pytest.mark.parametrize(
    ("code", "kind"),
    [
        ("HDAM", "reservoir"),
        ("hror", "run-of-river"),
        (" HPHS ", "pumped-storage"),
        ("Pumpekraftverk", "pumped-storage"),
        ("Elvekraftverk", "run-of-river"),
        ("Magasinkraftverk", "reservoir"),
        ("run-of-river", "run-of-river"),
        ("V", None),
        ("", None),
        (None, None),
    ],
)
def test_plant_type_reads_jrc_codes_and_nve_words_and_never_guesses(code, kind):
    assert plant_type(code) == kind


def test_nve_csv_location_county_price_area_and_type_reach_the_snapshot(tmp_path: Path):
    source = tmp_path / "nve.csv"
    source.write_text(
        "VannKraftverkID;Navn;MaksYtelse;MidProd_91_20;BruttoFallhoyde_M;Fylke;Kommune;"
        "ElspotomraadeNummer;VannKVType;Lat;Lon\n"
        "7;Saurdal;640;1300;465;Rogaland;Suldal;2;Pumpekraftverk;59,479;6,692\n"
        "8;Vamma;425;1800;24;Østfold;Sarpsborg;1;Elvekraftverk;;\n",
        encoding="utf-8",
    )
    saurdal, vamma = ingest_files([source], created="2026-12-01").plants
    assert (saurdal.lat, saurdal.lon, saurdal.type) == (59.479, 6.692, "pumped-storage")
    assert (saurdal.county, saurdal.municipality, saurdal.price_area) == (
        "Rogaland",
        "Suldal",
        "NO2",
    )
    assert (vamma.lat, vamma.lon, vamma.type) == (None, None, "run-of-river")


def test_minimal_keeps_location_and_type(tmp_path: Path):
    source = tmp_path / "nve.csv"
    source.write_text(
        "VannKraftverkID,Navn,MaksYtelse,MidProd_91_20,BruttoFallhoyde_M,Fylke,Lat,Lon,VannKVType\n"
        "7,Saurdal,640,1300,465,Rogaland,59.479,6.692,Pumpekraftverk\n",
        encoding="utf-8",
    )
    (plant,) = ingest_files([source], created="2026-12-01", minimal=True).plants
    assert (plant.lat, plant.lon, plant.type, plant.county) == (
        59.479,
        6.692,
        "pumped-storage",
        None,
    )


def test_embedded_snapshot_has_a_location_and_type_for_every_plant():
    plants = read_snapshot(REPO / "sources" / "jrc-2024-01.csv").plants
    assert all(plant.lat is not None and plant.lon is not None for plant in plants)
    assert all(57.9 < (plant.lat or 0) < 71.2 and 4.5 < (plant.lon or 0) < 31.2 for plant in plants)
    kinds = {plant.type for plant in plants}
    assert kinds == {"reservoir", "pumped-storage"}  # JRC lists no Norwegian HROR plant


def test_snapshot_written_before_the_type_column_still_reads(tmp_path: Path):
    path = tmp_path / "old.csv"
    path.write_text(
        "id,name,mw,gwh,head_m,county,municipality,owner,year,lat,lon,price_area,source,source_id\n"
        "N1,Tonstad,960,3800,442,,,,,58.66,6.72,,jrc,N1\n",
        encoding="utf-8",
    )
    (plant,) = read_snapshot_plants(path)
    assert (plant.lat, plant.type) == (58.66, None)


def _deck_with_places():
    plants = [
        plant.model_copy(
            update={
                "lat": 58.0 + i / 10,
                "lon": 6.0 + i / 10,
                "type": ("reservoir", "run-of-river", "pumped-storage")[i % 3],
            }
        )
        for i, plant in enumerate(synthetic_plants())
    ]
    return build_deck(plants, DeckSpec(), SnapshotInfo(path="x.csv")).deck


def test_deck_json_and_csv_carry_lat_lon_and_type(tmp_path: Path):
    deck = _deck_with_places()
    json_path, csv_path = write_deck(deck, tmp_path)
    for path in (json_path, csv_path):
        loaded = load_deck(path)
        for card, again in zip(deck.cards, loaded.cards, strict=True):
            assert (again.lat, again.lon, again.type) == (card.lat, card.lon, card.type)
    plant = deck.plant_cards[0]
    assert plant.lat is not None and plant.type is not None
    assert all(card.lat is None and card.type is None for card in deck.jokers)
    assert validate_deck(load_deck(csv_path)).ok


def test_deck_csv_written_before_lat_lon_type_still_loads(tmp_path: Path):
    deck = _deck_with_places()
    header, *rows = deck_csv_text(deck).lstrip("\ufeff").splitlines()
    keep = [i for i, name in enumerate(CSV_COLUMNS) if name not in ("lat", "lon", "type")]
    old = ["\ufeff" + ",".join(header.split(",")[i] for i in keep)]
    for row in rows:
        cells = next(csv.reader([row]))
        old.append(",".join(f'"{cells[i]}"' for i in keep))
    path = tmp_path / "deck.csv"
    path.write_text("\r\n".join(old) + "\r\n", encoding="utf-8")
    loaded = load_deck(path)
    assert len(loaded.cards) == 55
    assert all(card.lat is None and card.type is None for card in loaded.cards)


def test_joker_with_a_location_is_reported():
    deck = _deck_with_places()
    deck.jokers[0].lat = 60.0
    report = validate_deck(deck)
    assert any(p.field == "lat" for p in report.errors)


def test_a_place_the_map_cannot_mark_is_a_warning_not_an_error():
    deck = _deck_with_places()
    plants = deck.plant_cards
    plants[0].lon = None
    plants[1].lat, plants[1].lon = 48.85, 2.35  # Paris
    report = validate_deck(deck)
    assert report.ok
    places = [p for p in report.warnings if p.rule == "place"]
    assert [(p.card, p.field) for p in places] == [(plants[0].id, "lon"), (plants[1].id, "lat/lon")]
    assert "no mark" in places[1].message
    old = _deck_with_places()
    for card in old.plant_cards:
        card.lat = card.lon = None
    assert not [p for p in validate_deck(old).warnings if p.rule == "place"]


def test_deck_csv_with_an_unknown_type_names_line_and_column(tmp_path: Path):
    from kraftstokk.errors import InputFileError

    deck = _deck_with_places()
    text = deck_csv_text(deck).replace(",reservoir,", ",dam,", 1)
    path = tmp_path / "deck.csv"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(InputFileError) as info:
        load_deck(path)
    message = str(info.value)
    assert "deck.csv: line 3: type of spar-2" in message and 'is "dam", not one of' in message


def test_diff_shows_a_plant_that_moves_or_changes_type():
    from kraftstokk.deck.diff import diff_decks

    old = _deck_with_places()
    new = old.model_copy(deep=True)
    card = new.plant_cards[0]
    card.lat = 61.5
    card.type = "run-of-river" if card.type != "run-of-river" else "reservoir"
    diff = diff_decks(old, new)
    (changed,) = diff.changed
    assert changed.plant_id == card.plant_id
    fields_changed = {c.field: (c.old, c.new) for c in changed.changes}
    assert fields_changed["lat"][1] == "61.5" and fields_changed["type"][1] == card.type
    assert "lon" not in fields_changed


def test_deck_json_written_before_lat_lon_type_still_loads(tmp_path: Path):
    import json

    raw = json.loads(deck_json_text(_deck_with_places()))
    for card in raw["cards"]:
        for key in ("lat", "lon", "type"):
            del card[key]
    del raw["snapshot"]["attribution_nb"]
    path = tmp_path / "deck.json"
    path.write_text(json.dumps(raw), encoding="utf-8")
    loaded = load_deck(path)
    assert all(card.lat is None and card.type is None for card in loaded.cards)
    assert validate_deck(loaded).ok


def test_nve_api_json_county_municipality_price_area_and_type(tmp_path: Path):
    import json

    source = tmp_path / "nve.json"
    record = {
        "VannKraftverkID": 7,
        "Navn": "Saurdal",
        "VannKVType": "Pumpekraftverk",
        "Fylke": "Rogaland",
        "Kommune": "Suldal",
        "MaksYtelse": 640,
        "MidProd_91_20": 1300,
        "BruttoFallhoyde_M": 465,
        "ElspotomraadeNummer": 2,
        "ErIDrift": True,
    }
    source.write_text(json.dumps([record, {**record, "VannKraftverkID": 8, "VannKVType": "V"}]))
    first, second = ingest_files([source], created="2026-12-01").plants
    assert (first.county, first.municipality, first.price_area) == ("Rogaland", "Suldal", "NO2")
    assert (first.type, second.type) == ("pumped-storage", None)  # an unknown code stays empty
    assert first.lat is None  # NVE's API gives no coordinates: the card shows no map
