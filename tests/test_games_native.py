"""The compiled engine: same games (actions and events) as the Python sources, never stale."""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from kraftstokk.games import native, registry
from kraftstokk.games.core import DeckTable, derive_seed, play_game

ROOT = Path(__file__).resolve().parent.parent
CASES = [("idiot", 4, "greedy,heuristic,random,greedy"), ("kraftidioten", 5, "heuristic")]
CASES += [("stromkrig", 3, "heuristic,random,greedy")]

# Printed by a child process that runs the engine from its Python sources.
GAMES_DIGEST = """
import hashlib, json, sys
from kraftstokk.games import native, registry
from kraftstokk.games.core import DeckTable, derive_seed, play_game
from tests.conftest import synthetic_deck
assert native.engine_status().startswith("pure Python"), native.engine_status()
table = DeckTable.from_deck(synthetic_deck())
print(hashlib.sha256(json.dumps([
    [[list(a) for a in record.actions], [repr(e) for e in record.events]]
    for name, players, bots in json.loads(sys.argv[1])
    for game in [registry.make_game(name, table, players)]
    for i in range(6)
    for record in [play_game(game, registry.make_bots(game, bots), derive_seed(9, i))]
]).encode()).hexdigest())
"""


def games_digest(table: DeckTable) -> str:
    games = []
    for name, players, bots in CASES:
        game = registry.make_game(name, table, players)
        for i in range(6):
            record = play_game(game, registry.make_bots(game, bots), derive_seed(9, i))
            actions = [list(action) for action in record.actions]
            games.append([actions, [repr(event) for event in record.events]])
    return hashlib.sha256(json.dumps(games).encode()).hexdigest()


def test_the_compiled_engine_plays_the_games_of_the_python_sources(deck):
    if not native.engine_status().startswith("compiled"):
        pytest.skip(f"the engine is not compiled here: {native.engine_status()}")
    env = {**os.environ, native.PURE_ENV: "1"}
    child = subprocess.run(
        [sys.executable, "-c", GAMES_DIGEST, json.dumps(CASES)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    assert child.stdout.strip() == games_digest(DeckTable.from_deck(deck))


@pytest.fixture
def sources(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of the engine sources that ``native`` looks at instead of the real ones."""
    games = tmp_path / "kraftstokk" / "games"
    games.mkdir(parents=True)
    for name in native.digested_modules():
        target = games / f"{name}.py"
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(native.GAMES_DIR / f"{name}.py", target)
    for spec in native.GAMES_DIR.glob("*/spec.py"):  # what marks a game package
        shutil.copyfile(spec, games / spec.parent.name / "spec.py")
    monkeypatch.setattr(native, "GAMES_DIR", games)
    monkeypatch.setattr(native, "MANIFEST", games / "native-build.json")
    monkeypatch.delenv(native.PURE_ENV, raising=False)
    return games


def fake_build(games: Path) -> None:
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    group = f"{native.GROUP.rsplit('.', 1)[1]}__mypyc"
    for name in (*native.compiled_modules(), group, *native.core_modules()):
        (games / f"{name}{suffix}").write_bytes(b"")
    python = sys.version.split()[0]
    manifest = {"digest": native.source_digest(), "compiled": True, "mypy": "1.0", "python": python}
    native.MANIFEST.write_text(json.dumps(manifest), encoding="utf-8")


def test_a_build_of_the_current_sources_is_used(sources):
    fake_build(sources)
    assert native.build_is_current() == (True, "compiled with mypyc 1.0")


def test_a_build_older_than_a_source_is_not_used(sources):
    fake_build(sources)
    with (sources / "idiot" / "state.py").open("a", encoding="utf-8") as source:
        source.write("# edited after compiling\n")
    current, status = native.build_is_current()
    assert not current and "older than the sources" in status


def test_a_native_core_is_part_of_the_build_and_its_sources_of_the_digest(sources):
    (sources / native.CORE_INCLUDE).mkdir()
    (sources / native.CORE_INCLUDE / "ks_random.h").write_text("/* header */\n")
    (sources / "idiot" / native.CORE_SOURCE).write_text("/* core */\n")
    assert native.native_cores() == ("idiot",)
    assert native.expected_files() == len(native.compiled_modules()) + 2
    fake_build(sources)
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    assert sources / "idiot" / f"{native.CORE_MODULE}{suffix}" in native.compiled_files()
    assert native.build_is_current()[0] is True
    for edited in (
        sources / native.CORE_INCLUDE / "ks_random.h",
        sources / "idiot" / "_fastcore.c",
    ):
        fake_build(sources)
        with edited.open("a", encoding="utf-8") as source:
            source.write("/* edited after compiling */\n")
        current, status = native.build_is_current()
        assert not current and "older than the sources" in status, edited.name


def test_a_build_without_its_manifest_is_not_used(sources):
    fake_build(sources)
    native.MANIFEST.unlink()
    assert native.build_is_current()[0] is False


def test_the_environment_variable_keeps_the_engine_pure_python(sources, monkeypatch):
    fake_build(sources)
    monkeypatch.setenv(native.PURE_ENV, "1")
    assert native.build_is_current() == (False, f"pure Python ({native.PURE_ENV}=1)")


def test_an_engine_that_was_never_compiled_says_how_to_compile_it(sources):
    current, status = native.build_is_current()
    assert not current and "scripts/compile_engine.py" in status


def test_sources_first_loads_only_the_compiled_modules_from_source():
    finder = native._SourcesFirst()
    spec = finder.find_spec("kraftstokk.games.idiot.state", None)
    assert spec is not None and spec.origin == str(native.GAMES_DIR / "idiot" / "state.py")
    assert finder.find_spec("kraftstokk.games.registry", None) is None
    assert finder.find_spec("kraftstokk.games.idiot.spec", None) is None  # stays Python
    assert finder.find_spec("kraftstokk.games.idiot", None) is None
    assert finder.find_spec("idiot", None) is None


def load_script() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "compile_engine", ROOT / "scripts" / "compile_engine.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_without_a_compiler_the_script_records_why_and_succeeds(sources, monkeypatch, capsys):
    fake_build(sources)
    stale = sources / f"oldgame{importlib.machinery.EXTENSION_SUFFIXES[0]}"
    stale.write_bytes(b"")  # the extension module of a game module that became a package
    assert native.stale_files() == [stale]
    monkeypatch.setenv("CC", str(sources / "no-such-compiler"))
    assert load_script().main([]) == 0
    assert "no C compiler" in capsys.readouterr().out
    assert native.compiled_files() == [] and native.stale_files() == []  # nothing left stale
    manifest = json.loads(native.MANIFEST.read_text(encoding="utf-8"))
    assert manifest["compiled"] is False and manifest["digest"] == native.source_digest()
    assert native.build_is_current() == (False, "pure Python (no C compiler (cc) was found)")


def test_the_script_skips_a_current_build_and_refuses_unknown_options(sources, capsys):
    fake_build(sources)
    script = load_script()
    assert script.is_current(native.source_digest())
    assert script.main(["--if-stale"]) == 0
    assert len(native.compiled_files()) == len(native.compiled_modules()) + 1  # as it was
    assert script.main(["--fast"]) == 2
    assert "usage" in capsys.readouterr().err


@pytest.mark.parametrize("change", ["source", "python", "missing module"])
def test_the_script_rebuilds_after_any_change_to_what_it_built(sources, change):
    fake_build(sources)
    if change == "source":
        with (sources / "core.py").open("a", encoding="utf-8") as source:
            source.write("# edited\n")
    elif change == "python":
        manifest = json.loads(native.MANIFEST.read_text(encoding="utf-8"))
        native.MANIFEST.write_text(json.dumps({**manifest, "python": "3.12.0"}), encoding="utf-8")
    else:
        native.compiled_files()[0].unlink()
    assert not load_script().is_current(native.source_digest())
