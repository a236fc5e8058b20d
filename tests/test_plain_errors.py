"""Error lines in plain words: no pydantic wording, no Python reprs, no bare rule ids."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kraftstokk.cli import app
from kraftstokk.deck.io import deck_json_text
from tests.conftest import synthetic_deck

runner = CliRunner()
PYDANTIC = re.compile(r"Input should be|Value error,|Field required|validation error|type=")


def bad_deck(tmp_path: Path) -> Path:
    raw = json.loads(deck_json_text(synthetic_deck()))
    raw["cards"][3]["suit"] = "stjerne"
    path = tmp_path / "deck.json"
    path.write_text(json.dumps(raw), encoding="utf-8")
    return path


def bad_spec(tmp_path: Path) -> Path:
    path = tmp_path / "deck.toml"
    path.write_text('tie_break = "coin"\n[policy]\nkind = "random"\nseed = "x"\n', "utf-8")
    return path


@pytest.mark.parametrize(
    ("make", "args", "expected"),
    [
        (bad_deck, ["validate", "{}"], 'cards.3.suit: is "stjerne", not one of spar, kløver,'),
        (bad_spec, ["build", "--spec", "{}"], 'tie_break: is "coin", not one of other-figures-'),
        (bad_spec, ["build", "--spec", "{}"], 'policy.seed: is "x", not a whole number'),
    ],
)
def test_model_errors_are_plain(tmp_path: Path, make, args, expected):
    path = make(tmp_path)
    result = runner.invoke(app, [arg.replace("{}", str(path)) for arg in args])
    assert result.exit_code == 2
    line = result.stderr.strip()
    assert len(line.splitlines()) == 1 and expected in line, line
    assert not PYDANTIC.search(line), line
    assert "'" not in line.replace(str(path), ""), line  # no Python reprs


def test_tie_warnings_say_what_the_tie_break_rule_does(tmp_path: Path):
    deck = synthetic_deck()
    a, b = deck.plant_cards[10], deck.plant_cards[11]
    b.head_m = a.head_m
    path = tmp_path / "deck.json"
    path.write_text(deck_json_text(deck), encoding="utf-8")
    result = runner.invoke(app, ["validate", str(path), "--json"])
    messages = [p["message"] for p in json.loads(result.stdout)["warnings"] if p["rule"] == "tie"]
    assert messages
    assert all("(the higher other figures first (production, capacity, head), then the lower "
               "plant id)" in m for m in messages)  # fmt: skip


@pytest.mark.parametrize(
    ("args", "line"),
    [
        # number options have their own parsers (kraftstokk.cli.options.number)
        (
            ["simulate", "-g", "idiot", "--players", "abc"],
            "--players abc: not a whole number, at least 1 and at most 100",
        ),
        (["render", "--paper", "a5"], '--paper: "a5" is not one of "a4", "letter"'),
        (
            ["render", "--box-cards", "x"],
            "--box-cards x: not a whole number, at least 1 and at most 200",
        ),
        (["render", "--duplex", "sideways"], '--duplex: "sideways" is not one of "long", "short"'),
        (["repair"], "Missing argument 'DECK'. (see kraftstokk repair --help)"),
    ],
)
def test_bad_arguments_are_one_plain_line(args, line):
    result = runner.invoke(app, args)
    assert result.exit_code == 2
    assert result.stderr.strip() == f"kraftstokk: error: {line}"
    assert not PYDANTIC.search(result.stderr)


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (["frobnicate"], "No such command 'frobnicate'. (see kraftstokk --help)"),
        (["--bogus"], "No such option: --bogus (see kraftstokk --help)"),
    ],
)
def test_unknown_commands_and_options_are_one_line(args, line):
    result = runner.invoke(app, args)
    assert result.exit_code == 2
    assert result.stderr.strip() == f"kraftstokk: error: {line}"


def test_kraftstokk_alone_shows_the_help():
    result = runner.invoke(app, [])
    assert "Usage: kraftstokk [OPTIONS] COMMAND" in result.output and "repair" in result.output
