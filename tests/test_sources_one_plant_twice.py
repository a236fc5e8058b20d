"""One plant under two spellings of its id in the sources (issue 33 item 9): fetch and
ingest refuse, naming both rows, instead of writing a snapshot build then refuses; a
snapshot that has such a pair is refused by build naming the file and both rows.
"""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from kraftstokk.cli import app
from tests.loopback import PLANTS_JSON, LoopbackServer, Reply

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "sources"
runner = CliRunner()


def invoke(*args: object):
    return runner.invoke(app, [str(arg) for arg in args])


def refused(result, *parts: str) -> None:
    assert result.exit_code == 2, result.output
    line = result.stderr.strip()
    assert "\n" not in line, result.stderr
    for part in parts:
        assert part in line, line


def test_ingest_refuses_one_plant_under_two_ids_in_one_file(tmp_path: Path):
    lines = (FIXTURES / "nve-export-semicolon.csv").read_text(encoding="utf-8").splitlines()
    tonstad = next(line for line in lines if line.startswith("448;"))
    lines.append("0" + tonstad.replace("Tonstad", "Tonstad II"))
    source = tmp_path / "nve.csv"
    source.write_text("\n".join(lines) + "\n", encoding="utf-8")
    out = tmp_path / "snap.csv"
    refused(
        invoke("ingest", source, "--out", out),
        f"nve.csv row 1 (448 Tonstad) and nve.csv row {len(lines) - 1} (0448 Tonstad II) are "
        "one plant (key 448): keep one of the two rows",
    )
    assert not out.exists()


def test_ingest_refuses_one_plant_from_a_jrc_and_an_nve_file_read_together(tmp_path: Path):
    jrc = FIXTURES / "jrc-sample.csv"
    lines = (FIXTURES / "nve-export-semicolon.csv").read_text(encoding="utf-8").splitlines()
    lines.append("9003;Brekke;Eier;Viken;Halden;30;120,5;22,5;1;True;01.01.1960")
    nve = tmp_path / "nve.csv"
    nve.write_text("\n".join(lines) + "\n", encoding="utf-8")
    out = tmp_path / "snap.csv"
    refused(
        invoke("ingest", jrc, nve, "--out", out),
        "jrc-sample.csv row 3 (N9003 Brekke) and nve.csv row ",
        "(9003 Brekke) are one plant (key 9003): read one file per plant: ingest them apart",
    )
    assert not out.exists()


def test_fetch_refuses_an_answer_that_holds_one_plant_twice(server: LoopbackServer, tmp_path: Path):
    records = json.loads(PLANTS_JSON)
    twin = dict(records[0])
    twin["VannKraftverkID"] = f"0{records[0]['VannKraftverkID']}"
    twin["Navn"] = "Tvilling"
    url = server.serve("/plants", Reply(body=json.dumps([*records, twin]).encode()))
    out = tmp_path / "nve.csv"
    first = records[0]
    refused(
        invoke("fetch", "--url", url, "--out", out, "--retries", "0"),
        f"{url}: record 1 of the response ({first['VannKraftverkID']} {first['Navn'].strip()}) "
        f"and record {len(records) + 1} of the response (0{first['VannKraftverkID']} Tvilling)",
        "the answer holds one plant twice",
    )
    assert not out.exists()


def test_build_names_the_snapshot_file_that_holds_one_plant_twice(tmp_path: Path):
    sources = Path(__file__).resolve().parents[1] / "sources"
    lines = (sources / "jrc-2024-01.csv").read_text(encoding="utf-8").splitlines()
    tonstad = next(index for index, line in enumerate(lines) if line.startswith("N448,"))
    lines.append(lines[tonstad].replace("N448,", "448,", 1))
    snapshot = tmp_path / "snap.csv"
    snapshot.write_text("\n".join(lines) + "\n", encoding="utf-8")
    spec = tmp_path / "deck.toml"
    spec.write_text('snapshot = "snap.csv"\n', encoding="utf-8")
    refused(
        invoke("build", "--spec", spec, "--out", tmp_path / "out"),
        f"{snapshot}: rows {tonstad + 1} and {len(lines)}: ids 'N448' and '448' are one plant "
        "(key 448); keep one row",
    )
