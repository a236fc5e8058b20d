"""``kraftstokk serve``: the command's refusals, and the deck it needs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kraftstokk.cli import app
from kraftstokk.models import Deck
from kraftstokk.web import server

cli = CliRunner()


def serve(*args: str | Path):
    return cli.invoke(app, ["serve", *map(str, args)])


def test_missing_deck_is_one_line_and_exit_2(tmp_path: Path) -> None:
    result = serve(tmp_path / "nope.json")
    assert result.exit_code == 2
    assert "nope.json" in result.output
    assert "Traceback" not in result.output


def test_invalid_deck_is_refused_with_exit_1(deck: Deck, tmp_path: Path) -> None:
    data = deck.model_dump(mode="json")
    data["cards"][0]["nr"]["gwh"] = data["cards"][1]["nr"]["gwh"]  # a duplicate nr.
    path = tmp_path / "deck.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    result = serve(path)
    assert result.exit_code == 1
    assert "problem" in result.output


def test_bad_port_is_refused(deck: Deck, tmp_path: Path) -> None:
    path = tmp_path / "deck.json"
    path.write_text(deck.model_dump_json(), encoding="utf-8")
    result = serve(path, "--port", "70000")
    assert result.exit_code == 2
    assert "--port 70000" in result.output


@pytest.mark.parametrize("host", ["127.0.0.1", "localhost", "::1"])
def test_loopback_needs_no_warning(host: str) -> None:
    assert server.exposure_warning(host) is None


def test_other_hosts_get_a_warning() -> None:
    warning = server.exposure_warning("0.0.0.0")
    assert warning is not None and "0.0.0.0" in warning and "127.0.0.1" in warning


def test_serve_is_listed_in_help() -> None:
    result = cli.invoke(app, ["--help"])
    assert "serve" in result.output


def test_a_port_in_use_is_one_line(deck: Deck, tmp_path: Path) -> None:
    import socket

    path = tmp_path / "deck.json"
    path.write_text(deck.model_dump_json(), encoding="utf-8")
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = serve(path, "--port", str(port))
    assert result.exit_code == 2
    assert f"127.0.0.1:{port}: cannot listen" in result.output
