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


COMMANDS = ["fetch", "ingest", "build", "spec-schema", "validate", "repair", "diff", "render",
            "booklet", "simulate", "play"]  # fmt: skip
PYTHON_TYPE = re.compile(r"<(int|float|str|path|bool|list\[[^>]*\]|[a-z0-9-]+(\|[a-z0-9-]+)+)>")


def registered() -> list[str]:
    """Every command of the app, those added later included."""
    names = [info.name or (info.callback.__name__ if info.callback else "") for info in
             app.registered_commands]  # fmt: skip
    return [name.replace("_", "-") for name in names if name]


def test_the_list_checked_below_is_every_command():
    assert set(COMMANDS) <= set(registered())


@pytest.mark.parametrize("command", registered())
def test_help_shows_no_python_types(command: str):
    text = help_text(command)
    assert not PYTHON_TYPE.search(text), PYTHON_TYPE.search(text)
    usage = text.splitlines()[0]
    assert "{" not in usage and "}" not in usage, usage


@pytest.mark.parametrize("command", COMMANDS)
def test_each_example_is_on_its_own_line(command: str):
    lines = help_text(command).splitlines()
    start = next(i for i, line in enumerate(lines) if line.strip() in ("Example:", "Examples:"))
    examples = []
    for line in lines[start + 1 :]:
        if not line.strip():
            if examples:
                break
            continue
        examples.append(line.strip())
    assert examples, command
    for index, line in enumerate(examples):
        continued = index > 0 and examples[index - 1].endswith("\\")
        assert continued or line.startswith(f"kraftstokk {command}"), line


def test_game_names_as_people_type_them(tmp_path):
    from kraftstokk.deck.io import write_deck
    from tests.conftest import synthetic_deck

    json_path, _ = write_deck(synthetic_deck(), tmp_path)
    for typed in ("strømkrig", "Strømkrig", "STROMKRIG"):
        result = runner.invoke(
            app,
            ["simulate", str(json_path), "--game", typed, "--games", "2", "--workers", "1",
             "--no-report", "--out", str(tmp_path)],
        )  # fmt: skip
        assert result.exit_code == 0, result.output
        assert "games of stromkrig" in result.stdout


def test_more_bot_kinds_than_seats_is_an_error(tmp_path):
    from kraftstokk.deck.io import write_deck
    from tests.conftest import synthetic_deck

    json_path, _ = write_deck(synthetic_deck(), tmp_path)
    bots = "greedy,random,heuristic"
    result = runner.invoke(
        app, ["simulate", str(json_path), "-g", "idiot", "-p", "2", "-b", bots, "-n", "1"]
    )
    assert result.exit_code == 2 and "--bots names 3 bots for 2 players" in result.stderr
    result = runner.invoke(
        app, ["play", "--deck", str(json_path), "-g", "idiot", "-p", "2", "-b", bots], input="q\n"
    )
    assert result.exit_code == 2 and "--bots names 3 bots" in result.stderr


@pytest.mark.inventory
def test_play_counts_seats_from_1_everywhere_it_names_them(tmp_path):
    from kraftstokk.deck.io import write_deck
    from kraftstokk.games.registry import game_names
    from tests.conftest import synthetic_deck

    json_path, _ = write_deck(synthetic_deck(), tmp_path)
    for game in game_names():  # each with its default bots
        result = runner.invoke(
            app,
            ["play", "--deck", str(json_path), "-g", game, "-p", "3", "--seat", "2", "-s", "4"],
            input="1\n" * 6 + "q\n",
        )  # fmt: skip
        assert result.exit_code == 0, result.output
        out = result.output
        assert "you are seat 2" in out, out
        assert not re.search(r"\b[Ss]eats? 0\b", out), out
        assert re.search(r"\b[Ss]eat 3\b", out), out
