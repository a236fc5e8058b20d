"""The note a command gives when it plays on the uncompiled engine: once, on stderr, how
much slower and the one command that fixes it; nothing when the engine is compiled, when
pure Python was asked for, or when no compiler could fix it."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from kraftstokk.cli import app, engine_note
from kraftstokk.games import native

cli = CliRunner()


@pytest.fixture
def never_compiled(monkeypatch: pytest.MonkeyPatch) -> None:
    """The engine as `make deck` leaves it: no unit was ever compiled (the test process
    itself keeps its compiled modules; only what the note reads changes)."""
    monkeypatch.delenv(native.PURE_ENV, raising=False)
    monkeypatch.setattr(native, "unit_record", lambda unit, manifest=None: {})
    monkeypatch.setattr(native, "unit_state", lambda unit, manifest=None: (False, "never"))
    monkeypatch.setattr(engine_note, "compiler_available", lambda: True)


def simulate(deck_file: Path, tmp_path: Path, *more: str):
    return cli.invoke(
        app,
        [
            "simulate",
            str(deck_file),
            "-g",
            "kraftidioten",
            "-n",
            "20",
            "-w",
            "1",
            "--no-report",
            "-o",
            str(tmp_path / "out"),
            *more,
        ],
    )


def test_the_note_says_how_much_slower_and_what_fixes_it(never_compiled):
    said = engine_note.note(["kraftidioten"])
    assert said == (
        "kraftstokk: note: the game engine runs as pure Python (it was never compiled "
        "here), about 100 times slower than compiled; `make engine` compiles it (1-2 minutes)"
    )
    assert "about 54 times" in (engine_note.note(["idiot"]) or "")
    assert "many times slower" in (engine_note.note(["a-fifth-game"]) or "")


def test_a_stale_or_failed_build_is_named_as_such(monkeypatch, never_compiled):
    monkeypatch.setattr(native, "unit_record", lambda unit, manifest=None: {"compiled": True})
    assert "its sources changed since it was compiled" in (engine_note.note(["idiot"]) or "")
    monkeypatch.setattr(native, "unit_record", lambda unit, manifest=None: {"reason": "gcc"})
    assert "its last compile failed" in (engine_note.note(["idiot"]) or "")


def test_no_note_without_a_compiler_or_when_pure_python_is_asked_for(monkeypatch, never_compiled):
    monkeypatch.setattr(engine_note, "compiler_available", lambda: False)
    assert engine_note.note(["idiot"]) is None
    monkeypatch.setattr(engine_note, "compiler_available", lambda: True)
    monkeypatch.setenv(native.PURE_ENV, "1")
    assert engine_note.note(["idiot"]) is None


def test_a_compiler_is_looked_for_where_python_builds_extensions(monkeypatch):
    monkeypatch.setenv("CC", "no-such-compiler-here --flag")
    assert engine_note.compiler_available() is False
    monkeypatch.setenv("CC", "sh")  # any program on the PATH
    assert engine_note.compiler_available() is True


def test_simulate_says_it_once_for_a_run_of_two_decks(deck_file, tmp_path, never_compiled):
    result = simulate(deck_file, tmp_path, "--compare", str(deck_file))
    assert result.exit_code == 0, result.output
    assert result.stderr.count("runs as pure Python") == 1
    assert result.stderr.startswith("kraftstokk: note: the game engine runs as pure Python")
    assert "`make engine` compiles it" in result.stderr
    assert "wrote" in result.stdout and "pure Python" not in result.stdout


def test_nothing_is_said_when_the_engine_is_compiled(deck_file, tmp_path, monkeypatch):
    monkeypatch.delenv(native.PURE_ENV, raising=False)
    assert native.unit_state(native.MYPYC)[0], "the suite runs on the compiled engine"
    assert engine_note.note(["kraftidioten"]) is None
    result = simulate(deck_file, tmp_path)
    assert result.exit_code == 0, result.output
    assert result.stderr == ""


def test_play_and_sweep_say_it_too(deck_file, tmp_path, never_compiled):
    played = cli.invoke(
        app, ["play", "--game", "idiot", "--deck", str(deck_file), "--seed", "1"], input="q\n"
    )
    assert played.exit_code == 0, played.output
    assert played.stderr.count("about 54 times slower") == 1
    (tmp_path / "sweep.toml").write_text(
        'title = "t"\ngames = 20\nchunk = 10\nseed = 1\n[grid]\ndecks = ["deck.json"]\n'
        'games = ["stromkrig"]\nplayers = [3]\nbots = ["greedy"]\n',
        encoding="utf-8",
    )
    swept = cli.invoke(
        app,
        [
            "sweep",
            str(tmp_path / "sweep.toml"),
            "--no-report",
            "-w",
            "1",
            "-o",
            str(tmp_path / "swept"),
        ],
    )
    assert swept.exit_code == 0, swept.output
    assert swept.stderr.count("about 41 times slower") == 1
