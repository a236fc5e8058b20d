"""The fixed cost of a command: ``kraftstokk NAME`` imports the module of NAME and what it
uses, nothing of the other commands; the help loads neither pydantic nor numpy; plain
argument values are converted as typer converts them, without pydantic. (The CPU figures
are `make bench`'s: benchmarks/bench_startup.py.)"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any

import pytest
import typer
from typer.testing import CliRunner

from kraftstokk.cli import command_named
from kraftstokk.cli.coercion import QuickParam
from kraftstokk.cli.commands import MODULE_OF, MODULES

#: Prints, after ``kraftstokk ARGS`` ran in this fresh process, what it had imported.
LOADED = """
import json, sys
from kraftstokk.cli import main
sys.argv = ["kraftstokk", *sys.argv[1:]]
try:
    main()
except SystemExit:
    pass
print(json.dumps(sorted(sys.modules)), file=sys.stderr)
"""
HEAVY = {"pydantic", "numpy", "reportlab", "PIL", "requests", "rich", "openpyxl", "starlette"}


def loaded(*args: str) -> set[str]:
    done = subprocess.run(
        [sys.executable, "-c", LOADED, *args], capture_output=True, text=True, timeout=120
    )
    return set(json.loads(done.stderr.strip().splitlines()[-1]))


def command_modules(modules: set[str]) -> set[str]:
    prefix = "kraftstokk.cli.commands."
    return {name.removeprefix(prefix) for name in modules if name.startswith(prefix)}


def test_the_help_loads_every_command_and_no_heavy_package():
    modules = loaded("--help")
    assert command_modules(modules) == set(MODULES)
    assert not {name.split(".")[0] for name in modules} & HEAVY


@pytest.mark.parametrize("command", ["simulate", "render", "fetch", "sweep-schema"])
def test_a_command_loads_its_own_module_only(command):
    modules = loaded(command, "--help")
    assert command_modules(modules) == {MODULE_OF[command]}
    assert not {name.split(".")[0] for name in modules} & HEAVY  # its help: nothing heavy


def test_the_command_is_the_first_word_that_is_no_option(monkeypatch):
    monkeypatch.delenv("_KRAFTSTOKK_COMPLETE", raising=False)
    assert command_named(["simulate", "deck.json", "-n", "5"]) == "simulate"
    assert command_named(["--version"]) is None
    assert command_named([]) is None
    monkeypatch.setenv("_KRAFTSTOKK_COMPLETE", "complete_bash")
    assert command_named(["simulate"]) is None  # completion lists every command


class Paper(StrEnum):
    a4 = "a4"
    letter = "letter"


def test_plain_values_convert_as_typer_converts_them(tmp_path: Path):
    """The same command with typer's pydantic conversion and with ours: same values."""
    seen: list[dict[str, Any]] = []
    app = typer.Typer()

    @app.command()
    def command(
        deck: Path,
        name: Annotated[str, typer.Option()] = "x",
        paper: Annotated[Paper, typer.Option()] = Paper.a4,
        tags: Annotated[list[str] | None, typer.Option("--tag")] = None,
        folder: Annotated[Path | None, typer.Option()] = None,
        flag: Annotated[bool, typer.Option()] = False,
        count: Annotated[int, typer.Option(parser=lambda text: int(text) * 2)] = 1,
    ) -> None:
        seen.append(
            {
                "deck": deck,
                "name": name,
                "paper": paper,
                "tags": tags,
                "folder": folder,
                "flag": flag,
                "count": count,
            }
        )

    args = [
        "deck.json",
        "--name",
        "Tonstad",
        "--paper",
        "letter",
        "--tag",
        "a",
        "--tag",
        "b",
        "--folder",
        str(tmp_path),
        "--flag",
        "--count",
        "21",
    ]
    runner = CliRunner()
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    command_object = typer.main.get_command(app)
    from kraftstokk.cli.coercion import quicken

    for param in command_object.params:
        param._runtime_param = None
        quicken(param)
    assert all(isinstance(p._runtime_param, QuickParam) for p in command_object.params)
    with command_object.make_context("command", list(args)) as context:
        command_object.invoke(context)
    typer_values, ours = seen
    assert ours == typer_values
    assert ours["paper"] is Paper.letter and ours["tags"] == ["a", "b"] and ours["count"] == 42


def test_the_collector_leaves_start_up_objects_alone_and_skips_them_at_exit():
    """Start-up's objects all live on: the collector looks at young ones every
    YOUNG_OBJECTS new ones, and after the command they are frozen, so the exit's last
    collection does not walk them (``make bench`` measures what both save); numpy gets one
    BLAS thread unless the user set a number."""
    script = (
        "import gc, sys\n"
        "from kraftstokk.cli import YOUNG_OBJECTS, main\n"
        "sys.argv = ['kraftstokk', 'validate', '--help']\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        "import os\n"
        "print(gc.get_threshold()[0] == YOUNG_OBJECTS, gc.get_freeze_count() > 10_000,"
        " os.environ['OPENBLAS_NUM_THREADS'], file=sys.stderr)\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert done.stderr.strip().splitlines()[-1] == "True True 1"  # one BLAS thread, too
    mine = {**os.environ, "OPENBLAS_NUM_THREADS": "3"}  # but what the user says
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          env=mine)  # fmt: skip
    assert done.stderr.strip().splitlines()[-1] == "True True 3"


def test_a_simulate_of_a_remembered_deck_loads_no_pydantic_and_plays_the_same(
    deck_file: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    """A deck that passed validation once is remembered (kraftstokk/games/play_deck.py):
    the next simulate of it loads neither pydantic nor the deck's and the layout's code,
    and writes the same results."""
    from kraftstokk.sim.metrics import strip_timing

    # A cache of its own: the test run's may hold this deck already (another test file
    # simulated the same bytes in this process), and the first run here would not read it.
    monkeypatch.setenv("KRAFTSTOKK_CACHE_DIR", str(tmp_path / "cache"))

    def run(out: str) -> set[str]:
        return loaded("simulate", str(deck_file), "-g", "idiot", "-n", "30", "--no-report",
                      "-o", str(tmp_path / out))  # fmt: skip

    first, again = run("first"), run("again")
    assert "pydantic" in first  # read and validated in full, then remembered
    assert not {name.split(".")[0] for name in again} & {"pydantic", "reportlab", "PIL"}
    ours = ("kraftstokk.models", "kraftstokk.deck", "kraftstokk.design")
    assert not [name for name in again if name.startswith(ours)]
    others = ("kraftstokk.games.kraftidioten", "kraftstokk.games.stromkrig")
    assert not [name for name in again if name.startswith(others)]  # not even their specs
    found = [
        strip_timing(json.loads((tmp_path / out / "sim-idiot.json").read_text(encoding="utf-8")))
        for out in ("first", "again")
    ]
    assert found[0] == found[1] and found[0]["games"] == 30


def test_simulate_starts_its_workers_before_numpy_and_the_summaries_load(
    deck_file: Path, tmp_path: Path
):
    """A remembered deck's simulate -w 2 forks its worker before numpy and the summaries'
    modules are loaded; the parent loads them while the worker plays its first chunks,
    and sums the worker's games, so that the worker never loads numpy."""
    script = (
        "import sys\n"
        "from kraftstokk.sim import runner\n"
        "start = runner._Workers.__init__\n"
        "def spy(self, *args):\n"
        "    print('numpy' in sys.modules, 'kraftstokk.sim.findings' in sys.modules,"
        " file=sys.stderr)\n"
        "    start(self, *args)\n"
        "runner._Workers.__init__ = spy\n"
        "import os\n"
        "parent, play = os.getpid(), runner.play_raw\n"
        "def played(*args):\n"  # a worker says so before it sends its chunk
        "    found = play(*args)\n"
        "    if os.getpid() != parent:\n"
        "        print('worker', 'numpy' in sys.modules, file=sys.stderr, flush=True)\n"
        "    return found\n"
        "runner.play_raw = played\n"
        "from kraftstokk.cli import main\n"
        "sys.argv = ['kraftstokk', *sys.argv[1:]]\n"
        "main()\n"
    )
    arguments = [str(deck_file), "-g", "idiot", "-n", "400", "-w", "2", "--no-report"]
    for out in ("first", "again"):  # the first run validates the deck and remembers it
        done = subprocess.run(
            [sys.executable, "-c", script, "simulate", *arguments, "-o", str(tmp_path / out)],
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert done.returncode == 0, done.stderr
    seen = [line for line in done.stderr.splitlines() if line.split(" ")[0] in ("True", "False")]
    assert seen == ["False False"]
    assert "worker False" in done.stderr.splitlines()  # the parent sums the worker's games
    assert "400 games of idiot" in done.stdout


def test_simulate_ends_without_pythons_teardown_but_keeps_its_exit(deck_file: Path, tmp_path: Path):
    """The console script (``kraftstokk.cli:run``) ends a simulate once its output is
    flushed and the atexit handlers have run, without tearing down what the operating
    system reclaims (an object's finalizer at teardown shows it); its exit codes and
    messages stay; other commands end as Python ends them."""
    script = (
        "import atexit\n"
        "atexit.register(lambda: print('atexit ran'))\n"
        "class Late:\n"
        "    def __del__(self):\n"
        "        print('torn down')\n"
        "late = Late()\n"
        "from kraftstokk.console import run\n"
        "run()\n"
    )

    def kraftstokk(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-c", script, *args], capture_output=True,
                              text=True, timeout=120)  # fmt: skip

    out = tmp_path / "out"
    played = kraftstokk("simulate", str(deck_file), "-g", "idiot", "-n", "40", "-w", "2",
                        "--no-report", "-o", str(out))  # fmt: skip
    assert played.returncode == 0, played.stderr
    lines = played.stdout.splitlines()
    assert lines[0].startswith("40 games of idiot") and f"wrote {out / 'sim-idiot.json'}" in lines
    assert lines[-1] == "atexit ran"  # after everything the command printed, and no teardown
    assert json.loads((out / "sim-idiot.json").read_text(encoding="utf-8"))["games"] == 40
    missing = kraftstokk("simulate", str(tmp_path / "nowhere.json"), "-g", "idiot")
    assert missing.returncode == 2 and missing.stdout == "atexit ran\n"
    assert "nowhere.json: no such file" in missing.stderr
    assert kraftstokk("simulate", "--help").stdout.endswith("atexit ran\n")
    other = kraftstokk("validate", str(deck_file))
    assert other.returncode == 0 and other.stdout.endswith("atexit ran\ntorn down\n")
