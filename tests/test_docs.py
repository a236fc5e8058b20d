"""The user guide: the site builds strictly (no broken link or anchor), and every
``kraftstokk ...`` command line the README and the guide show still parses: the command
exists, its options exist, and an example's arguments are accepted as written."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.core import TyperGroup

from kraftstokk.cli import app

REPO = Path(__file__).resolve().parent.parent
PAGES = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]


@dataclass(frozen=True)
class Shown:
    """A command line as a page shows it: an example to run, or a synopsis in a sentence
    (``kraftstokk fetch [--url URL] ...``) whose option names are checked."""

    page: str
    line: int
    text: str
    example: bool

    def __str__(self) -> str:
        return f"{self.page}:{self.line}: {self.text}"


FENCE = re.compile(r"^\s*```")
#: A code span that starts a command (it may run over a line break in the text).
SPAN = re.compile(r"`(kraftstokk [^`]+)`")


def shown_commands(path: Path) -> Iterator[Shown]:
    lines = path.read_text(encoding="utf-8").split("\n")
    in_fence = False
    pending: list[str] = []
    start = 0
    for number, line in enumerate(lines, start=1):
        if FENCE.match(line):
            in_fence = not in_fence
            continue
        code = in_fence or (line.startswith("    ") and not line.lstrip().startswith("- "))
        text = line.strip().removeprefix("$ ")
        if code and (pending or text.startswith("kraftstokk ")):
            if not pending:
                start = number
            pending.append(text.rstrip("\\").strip())
            if not text.endswith("\\"):
                yield Shown(path.name, start, " ".join(pending), example=True)
                pending = []
    prose = "\n".join(lines)
    for match in SPAN.finditer(prose):
        number = prose.count("\n", 0, match.start()) + 1
        yield Shown(path.name, number, " ".join(match.group(1).split()), example=False)


SHOWN = [shown for page in PAGES for shown in shown_commands(page)]
ROOT = typer.main.get_command(app)


def command_of(words: list[str]) -> tuple[Any, list[str]]:
    """The command ``words`` name (``kraftstokk sweep-schema``), and its arguments."""
    command: Any = ROOT
    while isinstance(command, TyperGroup) and words and not words[0].startswith("-"):
        found = command.get_command(typer.Context(command), words[0])
        if found is None:
            break
        command, words = found, words[1:]
    return command, words


def test_the_pages_show_command_lines():
    examples = [shown for shown in SHOWN if shown.example]
    assert len(examples) >= 40 and len(SHOWN) >= 60  # the checks below look at something
    assert {shown.page for shown in examples} >= {
        "README.md",
        "yearly-update.md",
        "printing.md",
        "games.md",
        "web.md",
        "simulation.md",
    }


@pytest.mark.parametrize("shown", [s for s in SHOWN if s.example], ids=str)
def test_every_example_parses_as_written(shown: Shown):
    words = shlex.split(shown.text, comments=True)[1:]
    for redirect in (">", "|", "&&", "2>&1"):  # the shell's part of the line
        words = words[: words.index(redirect)] if redirect in words else words
    command, arguments = command_of(words)
    assert command is not ROOT or arguments[:1] in (["--help"], ["--version"]), (
        f"{shown}: no such command"
    )
    try:
        with command.make_context(command.name or "kraftstokk", list(arguments)) as context:
            assert context.params is not None
    except typer.Exit as done:  # --help, --version
        assert done.exit_code == 0, shown
    except typer.exceptions.TyperException as problem:
        pytest.fail(f"{shown}: {problem.format_message()}")


#: A placeholder in a synopsis: COMMAND, DECK, [OPTIONS].
PLACEHOLDER = re.compile(r"^\[?[A-Z][A-Z_.]*\]?$")


@pytest.mark.parametrize("shown", [s for s in SHOWN if not s.example], ids=str)
def test_every_command_and_option_in_a_sentence_exists(shown: Shown):
    words = shown.text.replace("[", " ").replace("]", " ").replace("|", " ").split()[1:]
    if words and (PLACEHOLDER.match(words[0]) or words[0].endswith(":")):
        return  # `kraftstokk COMMAND --help`; `kraftstokk simulate: 2.08 s` (its output)
    command, arguments = command_of(words)
    assert command is not ROOT or not arguments or arguments[0].startswith("-"), (
        f"{shown}: no such command"
    )
    known = {name for param in command.params for name in param.opts + param.secondary_opts}
    known |= {"--help"}
    for word in arguments:
        option = word.split("=")[0]
        if option.startswith("-") and not re.fullmatch(r"-?\d[\d.]*", option):
            assert option in known, f"{shown}: {command.name} has no option {option}"


def test_every_command_shown_answers_help():
    from typer.testing import CliRunner

    runner = CliRunner()
    names = set()
    for shown in SHOWN:
        words = shown.text.replace("[", " ").split()[1:]
        command, _ = command_of(words)
        if command is not ROOT:
            names.add(command.name)
    assert len(names) >= 12
    for name in sorted(n for n in names if n):
        result = runner.invoke(app, [name, "--help"])
        assert result.exit_code == 0, (name, result.output)
        assert "Usage: kraftstokk" in result.output


def test_the_site_builds_strictly(tmp_path: Path):
    """mkdocs (Material) builds docs/ with strict checks: a broken link, a missing anchor
    or a page outside the navigation fails the build."""
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path)],
        cwd=REPO,
        capture_output=True,
        text=True,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert (tmp_path / "index.html").exists()
    for page in ("yearly-update", "printing", "games", "web", "simulation", "development"):
        html = (tmp_path / page / "index.html").read_text(encoding="utf-8")
        assert 'class="md-content"' in html  # Material's page, the page's own text in it
    html = (tmp_path / "simulation" / "index.html").read_text(encoding="utf-8")
    assert 'id="many-configurations-sweep"' in html
