from pathlib import Path

import pytest
from typer.testing import CliRunner

from kraftstokk.cli import app
from kraftstokk.models import Plant
from kraftstokk.sources.formats import detect_format, read_source
from kraftstokk.sources.ingest import ingest_files
from kraftstokk.sources.normalize import Filters, RawRecord, keep_names_apart, normalize
from kraftstokk.sources.readers import load_text
from kraftstokk.sources.snapshot import provenance_path, read_snapshot

FIXTURES = Path(__file__).parent / "fixtures" / "sources"
SEMICOLON = FIXTURES / "nve-export-semicolon.csv"
CP1252 = FIXTURES / "nve-export-cp1252.csv"
JRC = FIXTURES / "jrc-sample.csv"
NVE_JSON = FIXTURES / "nve-plants.json"
runner = CliRunner()


def figures(plant: Plant) -> tuple[float, float, float]:
    return (plant.mw, plant.gwh, plant.head_m)


@pytest.mark.parametrize(
    ("path", "expected"),
    [(SEMICOLON, "nve-csv"), (CP1252, "nve-csv"), (JRC, "jrc-csv"), (NVE_JSON, "nve-json")],
)
def test_format_is_detected(path: Path, expected: str):
    assert detect_format(path, load_text(path)) == expected


def test_nve_semicolon_csv_with_decimal_comma():
    snapshot = ingest_files([SEMICOLON], created="2026-01-01")
    by_id = {plant.id: plant for plant in snapshot.plants}
    assert figures(by_id["448"]) == (960.0, 3800.5, 442.0)
    assert figures(by_id["222"]) == (1240.0, 3500.0, 536.5)
    assert figures(by_id["1001"]) == (12.75, 48.25, 210.4)
    assert by_id["222"].name == "Kvilldal"  # trimmed
    assert by_id["1001"].name == "Fjell; nedre"  # quoted separator inside a name
    assert (by_id["448"].county, by_id["448"].municipality) == ("Agder", "Sirdal")
    assert (by_id["448"].year, by_id["448"].price_area) == (1968, "NO2")
    quality = snapshot.provenance.quality
    assert quality.rows_read == 8
    assert quality.dropped == {"gwh not a number": 1, "mw negative": 1, "not in operation": 1}
    assert snapshot.provenance.source_kind == "nve-csv"
    assert snapshot.provenance.licence.startswith("NLOD")


def test_nve_comma_csv_in_windows_1252_with_point_decimals():
    snapshot = ingest_files([CP1252], created="2026-01-01")
    by_id = {plant.id: plant for plant in snapshot.plants}
    assert by_id["2002"].name == "Øvre Åsen"
    assert figures(by_id["2002"]) == (25.5, 1234.5, 310.25)
    assert figures(by_id["2004"]) == (0.95, 4.1, 55.0)
    assert snapshot.provenance.quality.dropped == {"gwh zero": 1, "head_m missing": 1}


def test_jrc_csv_keeps_norwegian_rows_and_repeated_names_apart():
    snapshot = ingest_files([JRC], created="2026-01-01")
    names = {plant.id: plant.name for plant in snapshot.plants}
    assert names == {
        "N9003": "Brekke (N9003)",
        "N9004": "Brekke (N9004)",
        "N9005": "Osen (N9005)",
        "N9006": "Osen (N9006)",
        "N9007": "Mo (N9007)",
        "N9008": "Mo (N9008)",
        "N9011": "Stor-Fjell",
    }
    stor = snapshot.plant("N9011")
    assert figures(stor) == (120.0, 410.125, 600.5)  # dam_height_m read as gross head
    assert (stor.source, stor.source_id, stor.lat, stor.lon) == ("jrc", "N9011", 60.1, 7.1)
    quality = snapshot.provenance.quality
    assert quality.rows_read == 11
    assert quality.dropped == {
        "not Norwegian (JRC country_code)": 2,
        "gwh missing": 1,
        "gwh zero": 1,
    }
    assert quality.repeated_names == {
        "Brekke": ["N9003", "N9004"],
        "Mo": ["N9007", "N9008"],
        "Osen": ["N9005", "N9006"],
    }
    assert quality.figure_ranges["head_m"].min == 18.0
    assert quality.figure_ranges["head_m"].max == 600.5
    assert snapshot.provenance.licence == "CC BY 4.0"
    assert "De Felice" in snapshot.provenance.attribution


def test_nve_json_file_ingests_like_a_fetch():
    snapshot = ingest_files([NVE_JSON], created="2026-01-01")
    assert [plant.id for plant in snapshot.plants] == ["222", "323", "371", "448"]
    assert snapshot.plant("371").name == "Osen (Ringsaker)"
    assert snapshot.provenance.source_kind == "nve-json"


def test_several_sources_make_one_mixed_snapshot():
    snapshot = ingest_files([SEMICOLON, JRC], created="2026-01-01")
    assert snapshot.provenance.source_kind == "mixed"
    assert snapshot.provenance.sources == [SEMICOLON.name, JRC.name]
    assert "CC BY 4.0" in snapshot.provenance.licence
    assert "NLOD" in snapshot.provenance.licence
    osen = {plant.id: plant.name for plant in snapshot.plants if plant.name.startswith("Osen")}
    assert osen == {
        "1002": "Osen (Ringsaker)",
        "1003": "Osen (Bjerkreim)",
        "N9005": "Osen (N9005)",
        "N9006": "Osen (N9006)",
    }


def test_repeated_id_keeps_first_record_and_is_counted():
    def record(name: str, mw: object) -> RawRecord:
        return RawRecord(source="nve", id=" 7 ", name=name, mw=mw, gwh="10", head_m="20")

    result = normalize([record("Første", "5"), record("Andre", "6")])
    assert [(p.id, p.name, p.mw) for p in result.plants] == [("7", "Første", 5.0)]
    assert result.quality.dropped == {"repeated id (first kept)": 1}


def test_same_name_in_one_municipality_falls_back_to_source_id():
    plants = [
        Plant(
            id=i, name="Dale", mw=1, gwh=1, head_m=1, municipality="Voss", source="nve", source_id=i
        )
        for i in ("5", "6")
    ] + [
        Plant(
            id="7",
            name="DALE",
            mw=1,
            gwh=1,
            head_m=1,
            municipality="Vaksdal",
            source="nve",
            source_id="7",
        )
    ]
    named, repeated = keep_names_apart(plants)
    assert [plant.name for plant in named] == ["Dale (5)", "Dale (6)", "DALE (Vaksdal)"]
    assert repeated == {"Dale": ["5", "6", "7"]}


def test_filters_drop_small_plants_and_are_recorded():
    snapshot = ingest_files([JRC], filters=Filters(min_mw=20, min_head_m=100), created="2026-01-01")
    assert [plant.id for plant in snapshot.plants] == ["N9005", "N9006", "N9007", "N9011"]
    assert snapshot.provenance.filters == {"min_mw": 20.0, "min_head_m": 100.0}
    dropped = snapshot.provenance.quality.dropped
    assert dropped["mw below 20 (filter)"] == 2
    assert dropped["head_m below 100 (filter)"] == 1
    # Once the only other Osen is gone the remaining names need no qualifier.
    snapshot = ingest_files([JRC], filters=Filters(min_mw=30), created="2026-01-01")
    assert {plant.name for plant in snapshot.plants} == {"Brekke", "Osen", "Stor-Fjell"}


def test_minimal_keeps_only_deck_columns():
    snapshot = ingest_files([SEMICOLON], created="2026-01-01", minimal=True)
    tonstad = snapshot.plant("448")
    assert figures(tonstad) == (960.0, 3800.5, 442.0)
    assert (tonstad.county, tonstad.municipality, tonstad.year, tonstad.lat) == (None,) * 4
    assert snapshot.provenance.minimal is True


def test_explicit_format_overrides_detection():
    rows = read_source(JRC, "jrc-csv")
    assert rows.format == "jrc-csv" and len(rows.records) == 11


def test_cli_ingest_prints_quality_report_and_is_reproducible(tmp_path: Path):
    outputs = []
    for name in ("a", "b"):
        out = tmp_path / name / "snap.csv"
        args = ["ingest", str(JRC), str(SEMICOLON), "--out", str(out), "--created", "2026-11-29"]
        result = runner.invoke(app, args)
        assert result.exit_code == 0, result.output
        outputs.append((out.read_bytes(), provenance_path(out).read_bytes()))
    assert outputs[0] == outputs[1]
    assert "rows read: 19" in result.stdout
    assert "kept: 12" in result.stdout
    assert "Osen: 1002, 1003, N9005, N9006" in result.stdout
    assert "not Norwegian (JRC country_code)" in result.stdout
    assert read_snapshot(out).provenance.quality.rows_kept == 12


def test_cli_ingest_default_output_is_dated_under_sources(tmp_path: Path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, ["ingest", str(JRC), "--data-date", "2024-01"])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "sources" / "jrc-csv-2024-01.csv").exists()
    assert (tmp_path / "sources" / "jrc-csv-2024-01.provenance.json").exists()


def test_cli_ingest_rejects_bad_created_time(tmp_path: Path):
    result = runner.invoke(app, ["ingest", str(JRC), "--created", "yesterday"])
    assert result.exit_code == 2
    assert "--created 'yesterday': not an ISO date" in result.stderr


def test_source_date_epoch_fixes_created_time(monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    snapshot = ingest_files([JRC])
    assert snapshot.provenance.created == "2023-11-14T22:13:20Z"


def test_utf16_tab_separated_excel_export(tmp_path: Path):
    text = "VannKraftverkID\tNavn\tKommune\tMaksYtelse\tMidProd_91_20\tBruttoFallhoyde_M\n"
    text += "448\tTonstad\tSirdal\t960\t3 800,5\t442\n5\tÅbjøra\tNord-Aurdal\t95,5\t400\t480,2\n"
    path = tmp_path / "eksport.txt"
    path.write_text(text, encoding="utf-16")
    snapshot = ingest_files([path], created="2026-01-01")
    assert [(p.id, p.name, figures(p)) for p in snapshot.plants] == [
        ("448", "Tonstad", (960.0, 3800.5, 442.0)),
        ("5", "Åbjøra", (95.5, 400.0, 480.2)),
    ]


def test_unwritable_output_is_one_error_line(tmp_path: Path):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    out = blocker / "snap.csv"
    result = runner.invoke(app, ["ingest", str(JRC), "--out", str(out)])
    assert result.exit_code == 2
    assert result.stderr.startswith(f"kraftstokk: error: {out}: cannot write")
    assert len(result.stderr.splitlines()) == 1


@pytest.mark.parametrize("command", ["ingest", "fetch"])
def test_help_says_what_it_does_with_an_example(command: str):
    result = runner.invoke(app, [command, "--help"])
    assert result.exit_code == 0
    assert "snapshot" in result.stdout
    assert f"kraftstokk {command} " in result.stdout.split("Example:")[1]
