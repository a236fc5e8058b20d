"""Commands that agree: the deck first everywhere (``play DECK`` too, ``--deck`` kept),
shell completion installable, ``validate`` counting what is wrong as what it is, and the
shipped deck's ties one line each with the tie-break rule said once."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from kraftstokk.cli import app
from kraftstokk.models import Deck
from kraftstokk.terminal import printable

cli = CliRunner()
REPO = Path(__file__).resolve().parent.parent
#: The installed command (completion is named after the program: not "python -c").
KRAFTSTOKK = [str(Path(sys.executable).parent / "kraftstokk")]


@pytest.mark.parametrize(
    "command", ["validate", "repair", "render", "booklet", "simulate", "play", "serve", "proof"]
)
def test_the_deck_is_the_first_argument(command: str):
    group = typer.main.get_command(app)
    found = group.get_command(typer.Context(group), command)
    arguments = [p for p in found.params if p.param_type_name == "argument"]
    assert arguments and arguments[0].metavar in ("DECK", "OLD"), command


def test_play_takes_the_deck_as_argument_and_still_as_deck(deck_file: Path):
    for args in ([str(deck_file)], ["--deck", str(deck_file)]):
        played = cli.invoke(app, ["play", *args, "-g", "idiot", "-s", "3", "-p", "2"], input="q\n")
        assert played.exit_code == 0, played.output
        assert played.stdout.startswith("idiot: 2 players")
    both = cli.invoke(app, ["play", str(deck_file), "--deck", "other.json", "-g", "idiot"])
    assert both.exit_code == 2
    assert both.stderr.strip() == (
        f"kraftstokk: error: two decks given: {deck_file} and --deck other.json; give one"
    )


def test_shell_completion_installs_and_completes(tmp_path: Path):
    env = {**os.environ, "HOME": str(tmp_path), "SHELL": "/bin/bash"}
    done = subprocess.run(
        [*KRAFTSTOKK, "--install-completion", "bash"], env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    assert "bash completion installed" in done.stdout
    script = tmp_path / ".bash_completions" / "kraftstokk.sh"
    assert "_KRAFTSTOKK_COMPLETE" in script.read_text()
    assert str(script) in (tmp_path / ".bashrc").read_text()
    asked = {**env, "_KRAFTSTOKK_COMPLETE": "complete_bash", "COMP_WORDS": "kraftstokk sim",
             "COMP_CWORD": "1"}  # fmt: skip
    completed = subprocess.run(KRAFTSTOKK, env=asked, capture_output=True, text=True)
    assert completed.stdout.split() == ["simulate"]
    asked.update(COMP_WORDS="kraftstokk simulate --pl", COMP_CWORD="2")
    completed = subprocess.run(KRAFTSTOKK, env=asked, capture_output=True, text=True)
    assert completed.stdout.split() == ["--players"]


def test_an_out_of_range_figure_is_counted_as_out_of_range(deck: Deck, tmp_path: Path):
    document = json.loads(deck.model_dump_json())
    document["cards"][0]["head_m"] = 30_000.0
    path = tmp_path / "deck.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    result = cli.invoke(app, ["validate", str(path)])
    assert result.exit_code == 1
    assert result.stdout.splitlines()[-1] == (
        "summary: 1 figure is outside what any plant has — fix these by hand"
    )
    rules = [
        p["rule"]
        for p in json.loads(cli.invoke(app, ["validate", str(path), "--json"]).stdout)["errors"]
    ]
    assert rules == ["figure_range"]


def test_the_shipped_decks_ties_are_one_line_each_and_the_rule_is_said_once(tmp_path: Path):
    from kraftstokk.deck.build import build_from_spec_file

    deck = build_from_spec_file(REPO / "sources" / "deck.toml").deck
    path = tmp_path / "deck.json"
    path.write_text(deck.model_dump_json(indent=1), encoding="utf-8")
    result = cli.invoke(app, ["validate", str(path)])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    ties = [line for line in lines if line.startswith("warning: tie in ")]
    assert len(ties) == 9
    assert ties[0] == printable(
        "warning: tie in Effekt at 500 MW: nr. 7 kløver-13 (Rana), nr. 8 hjerter-11 (Lang-Sima)"
    )
    rule = (
        "tie-break rule other-figures-then-id (the higher other figures first (production, "
        "capacity, head), then the lower plant id)"
    )
    assert sum(rule in line for line in lines) == 1
    assert lines[len(ties)] == f"9 ties are broken by the {rule}"
    messages = [
        w["message"]
        for w in json.loads(cli.invoke(app, ["validate", str(path), "--json"]).stdout)["warnings"]
    ]
    assert all(rule in message for message in messages)  # each JSON problem says it whole
