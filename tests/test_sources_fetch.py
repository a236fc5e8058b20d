"""Fetch against a real HTTP server on 127.0.0.1 (no mocking of requests)."""

from __future__ import annotations

import json
import socket
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kraftstokk.cli import app
from kraftstokk.errors import FetchError
from kraftstokk.sources.nve_api import DEFAULT_URL, fetch_nve, raw_path
from kraftstokk.sources.snapshot import provenance_path, read_snapshot
from tests.loopback import PLANTS_JSON, LoopbackServer, Reply

runner = CliRunner()


def run_fetch(url: str, out: Path, *extra: str):
    args = ["fetch", "--url", url, "--out", str(out), "--backoff", "0.01", *extra]
    return runner.invoke(app, args)


def test_default_url_is_nves_hydropower_api():
    from kraftstokk.cli.commands import fetch as fetch_command

    assert DEFAULT_URL == "https://api.nve.no/web/Powerplant/GetHydroPowerPlantsInOperation"
    assert fetch_command.DEFAULT_URL == DEFAULT_URL


def test_fetch_writes_snapshot_provenance_and_raw(server: LoopbackServer, tmp_path: Path):
    url = server.serve("/plants", Reply())
    out = tmp_path / "nve.csv"
    result = run_fetch(url, out)
    assert result.exit_code == 0, result.output
    assert "rows read: 6" in result.stdout
    snapshot = read_snapshot(out)
    assert raw_path(out).read_bytes() == PLANTS_JSON
    assert [plant.id for plant in snapshot.plants] == ["222", "323", "371", "448"]
    tonstad = snapshot.plant("448")
    assert (tonstad.mw, tonstad.gwh, tonstad.head_m) == (960.0, 3800.5, 442.0)
    assert (tonstad.county, tonstad.municipality, tonstad.year) == ("Agder", "Sirdal", 1968)
    assert tonstad.price_area == "NO2" and tonstad.source == "nve"
    assert snapshot.plant("222").name == "Kvilldal"
    assert {snapshot.plant(i).name for i in ("323", "371")} == {
        "Osen (Bjerkreim)",
        "Osen (Ringsaker)",
    }
    provenance = snapshot.provenance
    assert provenance.source_kind == "nve-api"
    assert provenance.sources == [url]
    assert provenance.licence.startswith("NLOD")
    assert "NVE" in provenance.attribution
    assert provenance.raw_file == "nve.raw.json"
    assert provenance.quality.rows_read == 6
    assert provenance.quality.dropped == {"gwh missing": 1, "gwh zero": 1}
    assert provenance.quality.repeated_names == {"Osen": ["323", "371"]}


def test_server_error_then_success_is_retried(server: LoopbackServer, tmp_path: Path):
    url = server.serve("/flaky", Reply(500, b"oops"), Reply())
    result = run_fetch(url, tmp_path / "nve.csv", "--retries", "2")
    assert result.exit_code == 0, result.output
    assert server.requests == ["/flaky", "/flaky"]
    assert len(read_snapshot(tmp_path / "nve.csv").plants) == 4


def test_backoff_doubles_between_retries(server: LoopbackServer):
    url = server.serve("/down", Reply(503, b""), Reply(502, b""), Reply())
    waits: list[float] = []
    result = fetch_nve(url, timeout=2, retries=3, backoff=0.5, sleep=waits.append)
    assert waits == [0.5, 1.0]
    assert len(result.records) == 6


def test_persistent_server_error_gives_up_after_retries(server: LoopbackServer):
    url = server.serve("/down", Reply(503, b""))
    with pytest.raises(FetchError) as info:
        fetch_nve(url, timeout=2, retries=2, backoff=0, sleep=lambda _: None)
    assert str(info.value) == f"{url}: server error HTTP 503 Service Unavailable (3 attempts)"
    assert len(server.requests) == 3


def _existing_snapshot(tmp_path: Path, server: LoopbackServer) -> tuple[Path, dict[str, bytes]]:
    out = tmp_path / "nve.csv"
    assert run_fetch(server.serve("/first", Reply()), out).exit_code == 0
    return out, {p.name: p.read_bytes() for p in tmp_path.iterdir()}


FAILURES = [
    pytest.param(Reply(delay=0.6), "timed out after 0.2 s (1 attempt)", id="timeout"),
    pytest.param(Reply(body=PLANTS_JSON[:150]), "response is not valid JSON", id="truncated"),
    pytest.param(
        Reply(body=b'{"error": "busy"}'), "not a list of plants (got a JSON object)", id="object"
    ),
    pytest.param(
        Reply(body=b'[{"Name": "Tonstad"}]'),
        "not a list of NVE plants: item 0: VannKraftverkID: Field required",
        id="not-plants",
    ),
    pytest.param(Reply(body=b"[]"), "response holds no plants (empty list)", id="empty"),
    pytest.param(
        Reply(body=b"[" * 100_000 + b"]" * 100_000), "JSON nested too deeply", id="deeply-nested"
    ),
    pytest.param(Reply(404, b"no"), "HTTP 404 Not Found", id="404"),
]


@pytest.mark.parametrize(("reply", "reason"), FAILURES)
def test_failed_fetch_exits_2_and_keeps_previous_snapshot(
    server: LoopbackServer, tmp_path: Path, reply: Reply, reason: str
):
    out, before = _existing_snapshot(tmp_path, server)
    url = server.serve("/bad", reply)
    result = run_fetch(url, out, "--timeout", "0.2", "--retries", "0")
    assert result.exit_code == 2
    assert result.stderr.startswith(f"kraftstokk: error: {url}: ")
    assert reason in result.stderr
    assert "Traceback" not in result.output
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == before


def test_4xx_is_not_retried(server: LoopbackServer):
    url = server.serve("/gone", Reply(404, b"no"))
    with pytest.raises(FetchError, match="HTTP 404"):
        fetch_nve(url, timeout=2, retries=3, backoff=0, sleep=lambda _: None)
    assert server.requests == ["/gone"]


def test_timeout_is_retried_then_succeeds(server: LoopbackServer):
    url = server.serve("/slow", Reply(delay=0.6), Reply())
    result = fetch_nve(url, timeout=0.2, retries=1, backoff=0, sleep=lambda _: None)
    assert len(result.records) == 6


def test_connection_refused_names_url(tmp_path: Path):
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    url = f"http://127.0.0.1:{port}/plants"
    result = run_fetch(url, tmp_path / "nve.csv", "--retries", "1", "--timeout", "0.5")
    assert result.exit_code == 2
    assert result.stderr.startswith(f"kraftstokk: error: {url}: connection failed")
    assert "(2 attempts)" in result.stderr
    assert list(tmp_path.iterdir()) == []


def test_pages_are_followed_through_link_header(server: LoopbackServer, tmp_path: Path):
    records = json.loads(PLANTS_JSON)
    first = json.dumps(records[:3]).encode()
    second = json.dumps(records[3:]).encode()
    server.serve("/p2", Reply(body=second))
    url = server.serve("/p1", Reply(body=first, headers={"Link": '</p2>; rel="next"'}))
    out = tmp_path / "nve.csv"
    result = run_fetch(url, out)
    assert result.exit_code == 0, result.output
    assert server.requests == ["/p1", "/p2"]
    assert read_snapshot(out).provenance.quality.rows_read == 6
    assert json.loads(raw_path(out).read_bytes()) == records
    assert provenance_path(out).exists()


def test_pagination_loop_is_an_error(server: LoopbackServer):
    url = server.serve("/loop", Reply(headers={"Link": '</loop>; rel="next"'}))
    with pytest.raises(FetchError, match="pagination does not end"):
        fetch_nve(url, timeout=2, retries=0)


def test_bad_fetch_options_are_one_error_line(tmp_path: Path):
    result = run_fetch("http://127.0.0.1:9/plants", tmp_path / "nve.csv", "--retries", "-1")
    assert result.exit_code == 2
    assert result.stderr == (
        "kraftstokk: error: --retries -1: must be a whole number, at least 0 and at most 20\n"
    )
