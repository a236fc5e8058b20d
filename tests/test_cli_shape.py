"""The CLI's shape: shared options are spelled the same way in every command."""

from __future__ import annotations

import re

import pytest
from typer.testing import CliRunner

from kraftstokk.cli import app

runner = CliRunner()


def help_text(*command: str) -> str:
    result = runner.invoke(app, [*command, "--help"], terminal_width=200)
    assert result.exit_code == 0, result.output
    return result.output


@pytest.mark.parametrize("command", ["fetch", "ingest", "build", "render", "booklet", "simulate"])
def test_every_out_option_has_the_short_flag_o(command: str):
    assert re.search(r"-o, --out [A-Z]+", help_text(command)), command


@pytest.mark.parametrize("command", ["play", "simulate"])
def test_game_options_share_their_short_flags(command: str):
    text = help_text(command)
    for flags in ("-g, --game GAME", "-p, --players N", "-s, --seed N", "-b, --bots KINDS"):
        assert flags in text, f"{command}: {flags}"


@pytest.mark.parametrize("command", ["validate", "render", "booklet", "simulate"])
def test_the_deck_argument_is_named_deck_everywhere(command: str):
    assert re.search(rf"Usage: kraftstokk {command} \[OPTIONS\] \[DECK\]", help_text(command))
