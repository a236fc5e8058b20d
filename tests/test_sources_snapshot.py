import json
from pathlib import Path

import pytest

from kraftstokk.errors import InputFileError
from kraftstokk.models import PLANT_COLUMNS, Plant
from kraftstokk.sources.quality import QualityReport
from kraftstokk.sources.snapshot import (
    Provenance,
    Snapshot,
    format_number,
    provenance_path,
    read_snapshot,
    write_snapshot,
)

REPO = Path(__file__).parents[1]
EMBEDDED = REPO / "sources" / "jrc-2024-01.csv"


def _plant(plant_id: str, name: str, mw: float = 10.0, **extra: object) -> Plant:
    return Plant(
        id=plant_id,
        name=name,
        mw=mw,
        gwh=55.5,
        head_m=120.25,
        source="test",
        source_id=plant_id,
        **extra,
    )


def _snapshot(plants: list[Plant]) -> Snapshot:
    provenance = Provenance(
        source_kind="nve-csv",
        sources=["a.csv"],
        created="2026-01-02T03:04:05Z",
        licence="NLOD",
        attribution="NVE",
        quality=QualityReport(rows_read=len(plants), rows_kept=len(plants)),
    )
    return Snapshot(plants=plants, provenance=provenance)


def test_round_trip_keeps_every_field_and_sorts_by_id(tmp_path: Path):
    plants = [
        _plant("2", "Tonstad", 960, county="Agder", municipality="Sirdal", year=1968),
        _plant("1", "Ærøy, «Øvre»", 0.1 + 0.2, lat=58.66, lon=6.72, price_area="NO2"),
    ]
    path = tmp_path / "snap.csv"
    meta = write_snapshot(_snapshot(plants), path)
    assert meta == tmp_path / "snap.provenance.json"
    again = read_snapshot(path)
    assert again.plants == sorted(plants, key=lambda p: p.id)
    assert again.plants[0].mw == 0.1 + 0.2  # exact float round trip
    assert again.provenance.created == "2026-01-02T03:04:05Z"
    assert path.read_text(encoding="utf-8").splitlines()[0] == ",".join(PLANT_COLUMNS)


def test_writing_twice_gives_identical_bytes(tmp_path: Path):
    snapshot = _snapshot([_plant("b", "B"), _plant("a", "A")])
    first, second = tmp_path / "one.csv", tmp_path / "two.csv"
    write_snapshot(snapshot, first)
    write_snapshot(snapshot, second)
    assert first.read_bytes() == second.read_bytes()
    assert provenance_path(first).read_bytes() == provenance_path(second).read_bytes()


def test_format_number_is_short_and_exact():
    assert format_number(960.0) == "960"
    assert format_number(2158.191) == "2158.191"
    assert float(format_number(1 / 3)) == 1 / 3


def _write(tmp_path: Path, csv_text: str) -> Path:
    good = tmp_path / "good.csv"
    write_snapshot(_snapshot([_plant("1", "A")]), good)
    path = tmp_path / "snap.csv"
    path.write_text(csv_text, encoding="utf-8")
    provenance_path(path).write_bytes(provenance_path(good).read_bytes())
    return path


HEADER = ",".join(PLANT_COLUMNS)


@pytest.mark.parametrize(
    ("body", "reason"),
    [
        ("id,name,mw\n1,A,3\n", "missing column gwh"),
        (HEADER + ",extra\n", "unexpected column extra"),
        (HEADER + "\n1,A,abc,1,1,,,,,,,,,t,1\n", "row 2: bad mw 'abc'"),
        (HEADER + "\n1,A,1,1,1,,,,,,,,,t,1\n2,B,1,-4,1,,,,,,,,,t,2\n", "row 3: bad gwh '-4'"),
        (HEADER + "\n1,A,1,1,1,,,,,,,,,t,1\n1,B,1,1,1,,,,,,,,,t,1\n", "id '1' repeats row 2"),
        (HEADER + "\n1,A,1,1\n", "row 2: expected 15 fields"),
        (HEADER + "\n", "no plants"),
        ("", "file is empty"),
    ],
)
def test_malformed_snapshot_names_file_and_reason(tmp_path: Path, body: str, reason: str):
    path = _write(tmp_path, body)
    with pytest.raises(InputFileError) as info:
        read_snapshot(path)
    assert str(path) in str(info.value)
    assert reason in str(info.value)


def test_missing_or_bad_provenance_is_an_input_error(tmp_path: Path):
    path = tmp_path / "snap.csv"
    write_snapshot(_snapshot([_plant("1", "A")]), path)
    meta = provenance_path(path)
    meta.write_text(json.dumps({"source_kind": "x"}), encoding="utf-8")
    with pytest.raises(InputFileError, match="not a provenance file"):
        read_snapshot(path)
    meta.write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    with pytest.raises(InputFileError, match="nested too deeply"):
        read_snapshot(path)
    meta.unlink()
    with pytest.raises(InputFileError, match=r"snap\.provenance\.json: no such file"):
        read_snapshot(path)


def test_failed_write_leaves_previous_snapshot_untouched(tmp_path: Path):
    path = tmp_path / "snap.csv"
    write_snapshot(_snapshot([_plant("1", "Old")]), path)
    before = path.read_bytes(), provenance_path(path).read_bytes()
    blocker = tmp_path / "blocked"
    blocker.write_text("a file where a folder is needed")
    with pytest.raises(Exception, match="blocked"):
        write_snapshot(
            _snapshot([_plant("1", "New")]), path, extra_files={blocker / "raw.json": b"[]"}
        )
    assert (path.read_bytes(), provenance_path(path).read_bytes()) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "blocked",
        "snap.csv",
        "snap.provenance.json",
    ]


def test_embedded_snapshot_reads_and_is_large_enough():
    snapshot = read_snapshot(EMBEDDED)
    assert len(snapshot.plants) >= 3 * 52
    assert snapshot.provenance.licence == "CC BY 4.0"
    assert snapshot.provenance.quality.rows_kept == len(snapshot.plants)
    assert all(plant.source == "jrc" and plant.source_id == plant.id for plant in snapshot.plants)
    assert len({plant.name.casefold() for plant in snapshot.plants}) == len(snapshot.plants)
