"""``--quiet`` and ``--verbose`` on every command, from one shared decorator."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from kraftstokk.cli import app
from kraftstokk.cli.commands import MODULE_OF

cli = CliRunner()


@pytest.mark.parametrize("command", sorted(MODULE_OF))
def test_every_command_has_both(command: str):
    group = typer.main.get_command(app)
    found = group.get_command(typer.Context(group), command)
    names = {name for param in found.params for name in param.opts}
    assert {"--quiet", "-q", "--verbose", "-v"} <= names


def simulate(deck_file: Path, out: Path, *flags: str):
    """Twenty Idiot games on one process, no report."""
    args = ["simulate", str(deck_file), "-g", "idiot", "-n", "20", "-w", "1", "--no-report"]
    return cli.invoke(app, [*args, "-o", str(out), *flags])


def test_quiet_says_nothing_on_success_but_what_was_asked_for(deck_file: Path, tmp_path: Path):
    said = simulate(deck_file, tmp_path / "out", "--quiet")
    assert said.exit_code == 0, said.output
    assert said.stdout == "" and said.stderr == ""
    assert (tmp_path / "out" / "sim-idiot.json").is_file()  # it did its work
    report = cli.invoke(app, ["validate", str(deck_file), "-q", "--json"])
    assert report.exit_code == 0
    assert json.loads(report.stdout)["cards"] == 55  # asked for: kept
    listing = cli.invoke(app, ["render", "--list-presets", "-q"])
    assert "offset" in listing.stdout


def test_quiet_still_says_why_it_failed(tmp_path: Path):
    missing = cli.invoke(app, ["validate", str(tmp_path / "nope.json"), "-q"])
    assert missing.exit_code == 2
    assert missing.stderr.startswith("kraftstokk: error: ") and "nope.json" in missing.stderr


def test_verbose_says_the_engine_and_the_cost(deck_file: Path, tmp_path: Path):
    said = simulate(deck_file, tmp_path / "out", "--verbose")
    assert said.exit_code == 0, said.output
    lines = said.stderr.splitlines()
    assert lines[0].startswith("kraftstokk: engine: compiled with mypyc")
    assert lines[-1].startswith("kraftstokk simulate: ") and lines[-1].endswith(" s of CPU")
    assert "wrote" in said.stdout


def test_quiet_and_verbose_together_is_one_line(deck_file: Path):
    both = cli.invoke(app, ["validate", str(deck_file), "-q", "-v"])
    assert both.exit_code == 2
    assert both.stderr == (
        "kraftstokk: error: --quiet and --verbose say opposite things: give one of them\n"
    )
