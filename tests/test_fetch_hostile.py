"""Fetch against a hostile server: dripping, inflating, redirecting, resetting, throttling.

Every case runs against the loopback server (tests/loopback.py); none asserts a time.
A fetch that ignored its timeout would still end (the drips are finite) but succeed, and
the test would fail on that.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kraftstokk.cli import app
from kraftstokk.errors import FetchError
from kraftstokk.sources.http import MAX_BODY_BYTES
from kraftstokk.sources.nve_api import fetch_nve, fetch_to_snapshot, snapshot_from_fetch
from kraftstokk.sources.snapshot import read_snapshot
from tests.loopback import PLANTS_JSON, LoopbackServer, Reply, gzip_bomb

runner = CliRunner()


def no_sleep(seconds: float) -> None:
    pass


def test_a_body_dripping_one_byte_at_a_time_times_out(server: LoopbackServer):
    # 1.6 kB at one byte per 20 ms is 30 s; the timeout is for the whole request.
    url = server.serve("/drip", Reply(drip=0.02))
    with pytest.raises(FetchError) as info:
        fetch_nve(url, timeout=0.5, retries=0, sleep=no_sleep)
    assert "timed out after 0.5 s" in str(info.value)


def test_headers_dripping_slowly_time_out(server: LoopbackServer):
    url = server.serve("/slow-headers", Reply(drip=0.05, drip_headers=True))
    with pytest.raises(FetchError, match=r"timed out after 0\.5 s"):
        fetch_nve(url, timeout=0.5, retries=0, sleep=no_sleep)


def test_a_gzip_bomb_is_refused_by_its_inflated_size(server: LoopbackServer):
    bomb = gzip_bomb(MAX_BODY_BYTES * 8)  # about 130 kB on the wire
    assert len(bomb) < 1024 * 1024
    url = server.serve("/bomb", Reply(body=bomb, headers={"Content-Encoding": "gzip"}))
    with pytest.raises(FetchError) as info:
        fetch_nve(url, timeout=10, retries=0, sleep=no_sleep)
    assert "answer larger than 16 MB (after decompression)" in str(info.value)


def test_a_gzip_answer_within_the_limit_is_read(server: LoopbackServer):
    url = server.serve("/gz", Reply(gzip=True))
    result = fetch_nve(url, timeout=5, retries=0, sleep=no_sleep)
    assert result.raw == PLANTS_JSON and len(result.records) == 6


def test_an_endless_body_without_length_is_cut_at_the_limit(server: LoopbackServer):
    url = server.serve("/endless", Reply(body=b"[" + b" " * (MAX_BODY_BYTES + 10), no_length=True))
    with pytest.raises(FetchError, match="answer larger than 16 MB"):
        fetch_nve(url, timeout=10, retries=0, sleep=no_sleep)


def test_every_url_read_is_in_the_provenance(server: LoopbackServer, tmp_path: Path):
    records = json.loads(PLANTS_JSON)
    second = server.serve("/p2", Reply(body=json.dumps(records[3:]).encode()))
    first_body = json.dumps(records[:3]).encode()
    first = server.serve("/p1", Reply(body=first_body, headers={"Link": '</p2>; rel="next"'}))
    start = server.serve("/old", Reply(redirect=first))
    out = tmp_path / "nve.csv"
    fetch_to_snapshot(start, out=out, timeout=5, retries=0, sleep=no_sleep)
    assert read_snapshot(out).provenance.sources == [start, first, second]


def test_a_connection_reset_halfway_is_retried(server: LoopbackServer):
    url = server.serve("/reset", Reply(reset_after=100), Reply())
    result = fetch_nve(url, timeout=5, retries=1, backoff=0, sleep=no_sleep)
    assert len(result.records) == 6
    assert server.requests == ["/reset", "/reset"]


def test_a_connection_reset_without_retries_names_the_failure(server: LoopbackServer):
    url = server.serve("/reset", Reply(reset_after=100))
    with pytest.raises(FetchError, match="connection failed"):
        fetch_nve(url, timeout=5, retries=0, sleep=no_sleep)


@pytest.mark.parametrize("status", [429, 503])
def test_retry_after_is_honoured(server: LoopbackServer, status: int):
    url = server.serve("/busy", Reply(status, b"", headers={"Retry-After": "7"}), Reply())
    waits: list[float] = []
    result = fetch_nve(url, timeout=5, retries=2, backoff=0.5, sleep=waits.append)
    assert waits == [7.0]
    assert len(result.records) == 6


def test_a_retry_after_beyond_the_cap_fails_at_once(server: LoopbackServer):
    url = server.serve("/later", Reply(503, b"", headers={"Retry-After": "86400"}))
    waits: list[float] = []
    with pytest.raises(FetchError) as info:
        fetch_nve(url, timeout=5, retries=3, backoff=0.5, sleep=waits.append)
    assert "asks to retry after 86400 s (Retry-After)" in str(info.value)
    assert waits == [] and len(server.requests) == 1


def test_max_time_caps_the_retries_and_waits(server: LoopbackServer):
    url = server.serve("/down", Reply(503, b""))
    waits: list[float] = []
    with pytest.raises(FetchError) as info:
        fetch_nve(url, timeout=5, retries=10, backoff=30, sleep=waits.append, max_time=20)
    assert "gave up after 20 s in all (--max-time)" in str(info.value)
    assert waits == [] and len(server.requests) == 1


def test_implausible_and_non_finite_figures_from_the_api_are_dropped(server: LoopbackServer):
    records = json.loads(PLANTS_JSON)
    records[0]["MaksYtelse"] = 1e308
    records[1]["BruttoFallhoyde_M"] = "1e-300"
    url = server.serve("/odd", Reply(body=json.dumps(records).encode()))
    snapshot = snapshot_from_fetch(fetch_nve(url, timeout=5, retries=0, sleep=no_sleep))
    dropped = snapshot.provenance.quality.dropped
    assert dropped.get("mw out of range (0.05 to 25000)") == 1
    ids = {plant.id for plant in snapshot.plants}
    assert str(records[0]["VannKraftverkID"]) not in ids


def test_nan_in_an_answer_is_not_json(server: LoopbackServer):
    url = server.serve(
        "/nan", Reply(body=b'[{"VannKraftverkID": 1, "Navn": "A", "MaksYtelse": NaN}]')
    )
    with pytest.raises(FetchError, match="NaN is not a number JSON allows"):
        fetch_nve(url, timeout=5, retries=0, sleep=no_sleep)


@pytest.mark.parametrize(
    ("option", "value", "message"),
    [
        ("--timeout", "nan", "--timeout nan: not a finite number of seconds"),
        ("--timeout", "inf", "--timeout inf: not a finite number of seconds"),
        ("--timeout", "0", "--timeout 0: must be a finite number of seconds, more than 0"),
        ("--backoff", "inf", "--backoff inf: not a finite number of seconds"),
        ("--max-time", "-1", "--max-time -1: must be a finite number of seconds, more than 0"),
        ("--retries", "2.5", "--retries 2.5: not a whole number"),
    ],
)
def test_bad_numbers_are_one_line_and_exit_2(tmp_path: Path, option: str, value: str, message):
    out = tmp_path / "nve.csv"
    result = runner.invoke(
        app, ["fetch", "--url", "http://127.0.0.1:9/", "--out", str(out), option, value]
    )
    assert result.exit_code == 2
    assert result.stderr.startswith(f"kraftstokk: error: {message}")
    assert result.stderr.count("\n") == 1
    assert not list(tmp_path.iterdir())
