"""Every unusable input to ingest exits 2 with one line naming the file and the reason."""

from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kraftstokk.cli import app

FIXTURES = Path(__file__).parent / "fixtures" / "sources"
runner = CliRunner()


def make(tmp_path: Path, name: str, data: bytes) -> Path:
    path = tmp_path / name
    path.write_bytes(data)
    return path


CASES: dict[str, tuple[Callable[[Path], Path], list[str], str]] = {
    "empty file": (lambda t: make(t, "empty.csv", b""), [], "file is empty"),
    "blank file": (lambda t: make(t, "blank.json", b"  \n\n"), [], "file is empty"),
    "neither CSV nor JSON": (
        lambda t: make(t, "notes.txt", "Tonstad er størst\nKvilldal har mest effekt\n".encode()),
        [],
        "neither CSV nor JSON",
    ),
    "CSV without a required NVE column": (
        lambda t: FIXTURES / "nve-missing-column.csv",
        [],
        "missing required column MidProd_91_20",
    ),
    "JRC CSV without a required column": (
        lambda t: make(t, "jrc.csv", b"id,name,installed_capacity_MW,country_code\nN1,A,3,NO\n"),
        [],
        "missing required columns avg_annual_generation_GWh, dam_height_m",
    ),
    "NVE CSV read as JRC": (
        lambda t: FIXTURES / "nve-export-semicolon.csv",
        ["--format", "jrc-csv"],
        "missing required columns id, name, installed_capacity_MW",
    ),
    "CSV with unknown columns": (
        lambda t: make(t, "other.csv", b"kolonne,annen\n1,2\n"),
        [],
        "CSV header matches neither NVE",
    ),
    "binary file": (
        lambda t: make(t, "plants.csv", bytes(range(256)) * 4),
        [],
        "binary file, not CSV or JSON",
    ),
    "gzip file": (
        lambda t: make(
            t, "plants.json.gz", b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03" + b"\x00" * 20
        ),
        [],
        "binary file",
    ),
    "unknown --format": (
        lambda t: FIXTURES / "jrc-sample.csv",
        ["--format", "xlsx"],
        "unknown format 'xlsx' (use auto, nve-json, nve-csv, nve-xlsx, jrc-csv)",
    ),
    "path that does not exist": (lambda t: t / "missing.csv", [], "no such file"),
    "directory": (lambda t: t, [], "is a directory"),
    "truncated JSON": (
        lambda t: make(t, "nve.json", b'[{"VannKraftverkID": 1, "Navn": "Ton'),
        [],
        "not valid JSON (line 1",
    ),
    "JSON that is not a list": (
        lambda t: make(t, "nve.json", b'{"VannKraftverkID": 1}'),
        [],
        "JSON is not a list of NVE plants",
    ),
    "JSON nested too deeply": (
        lambda t: make(t, "nve.json", b"[" * 100_000 + b"]" * 100_000),
        [],
        "not a list of NVE plants (JSON nested too deeply)",
    ),
    "JSON list of non-plants": (
        lambda t: make(t, "nve.json", b'[{"VannKraftverkID": 1, "Navn": 5}]'),
        [],
        "not a list of NVE plants: item 0: Navn: Input should be a valid string",
    ),
}


def assert_ingest_refuses(tmp_path: Path, source: Path, extra: list[str], reason: str) -> None:
    """``ingest`` exits 2 with one line naming ``source`` and ``reason``, writing nothing."""
    out = tmp_path / "out" / "snap.csv"
    result = runner.invoke(app, ["ingest", str(source), *extra, "--out", str(out)])
    assert result.exit_code == 2, result.output
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith(f"kraftstokk: error: {source}: ")
    assert reason in lines[0]
    assert "Traceback" not in result.output
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("case", list(CASES))
def test_bad_input_exits_2_with_one_line(tmp_path: Path, case: str):
    build, extra, reason = CASES[case]
    assert_ingest_refuses(tmp_path, build(tmp_path), extra, reason)


def test_no_surviving_plant_is_an_error_not_an_empty_snapshot(tmp_path: Path):
    source = make(
        tmp_path,
        "x.csv",
        b"VannKraftverkID;Navn;MaksYtelse;MidProd_91_20;BruttoFallhoyde_M\n1;A;;;\n",
    )
    out = tmp_path / "out" / "snap.csv"
    result = runner.invoke(app, ["ingest", str(source), "--out", str(out)])
    assert result.exit_code == 2
    assert (
        result.stderr
        == f"kraftstokk: error: {source}: no plant with all three figures (of 1 rows)\n"
    )
    assert not out.exists()


def test_second_bad_file_stops_before_anything_is_written(tmp_path: Path):
    good = FIXTURES / "jrc-sample.csv"
    bad = make(tmp_path, "empty.csv", b"")
    out = tmp_path / "snap.csv"
    result = runner.invoke(app, ["ingest", str(good), str(bad), "--out", str(out)])
    assert result.exit_code == 2
    assert result.stderr == f"kraftstokk: error: {bad}: file is empty\n"
    assert not out.exists()
