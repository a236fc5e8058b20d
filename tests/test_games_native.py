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
from kraftstokk.games.core import DeckTable, derive_seed
from kraftstokk.games.runner import play_game
from tests.native_build import require_compiled_engine

ROOT = Path(__file__).resolve().parent.parent
CASES = [("idiot", 4, "greedy,heuristic,random,greedy"), ("kraftidioten", 5, "heuristic")]
CASES += [("stromkrig", 3, "heuristic,random,greedy")]

# Printed by a child process that runs the engine from its Python sources.
GAMES_DIGEST = """
import hashlib, json, sys
from kraftstokk.games import native, registry
from kraftstokk.games.core import DeckTable, derive_seed
from kraftstokk.games.runner import play_game
from tests.native_build import require_compiled_engine
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
    require_compiled_engine()
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
    """A copy of the engine sources that ``native`` looks at instead of the real ones,
    with two games' native cores (their C sources made up) and the shared headers."""
    games = tmp_path / "kraftstokk" / "games"
    games.mkdir(parents=True)
    for name in native.digested_modules():
        target = games / f"{name}.py"
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(native.GAMES_DIR / f"{name}.py", target)
    for spec in native.GAMES_DIR.glob("*/spec.py"):  # what marks a game package
        shutil.copyfile(spec, games / spec.parent.name / "spec.py")
    (games / native.CORE_INCLUDE).mkdir()
    (games / native.CORE_INCLUDE / "ks_random.h").write_text("/* header */\n")
    for game in CORES:
        (games / game / native.CORE_SOURCE).write_text(f"/* the {game} core */\n")
    monkeypatch.setattr(native, "GAMES_DIR", games)
    monkeypatch.setattr(native, "MANIFEST", games / "native-build.json")
    monkeypatch.delenv(native.PURE_ENV, raising=False)
    return games


CORES = ("idiot", "stromkrig")
SUFFIX = importlib.machinery.EXTENSION_SUFFIXES[0]
PYTHON = sys.version.split()[0]


def fake_build(games: Path, units: tuple[str, ...] | None = None) -> None:
    """What a build of ``units`` (every unit: None) leaves: empty extension modules and
    their records in the manifest, as compiled."""
    built = native.read_manifest().get("units", {})
    for unit in native.units() if units is None else units:
        for path in native._unit_modules(unit):
            (games / f"{path}{SUFFIX}").write_bytes(b"")
        built[unit] = {"digest": native.unit_digest(unit), "compiled": True}
        if unit == native.MYPYC:
            built[unit]["mypy"] = "1.0"
    manifest = {"python": PYTHON, "units": built}
    native.MANIFEST.write_text(json.dumps(manifest), encoding="utf-8")


def append(path: Path, text: str) -> None:
    with path.open("a", encoding="utf-8") as source:
        source.write(text)


def test_the_units_are_the_mypyc_modules_and_each_core(sources):
    assert native.native_cores() == CORES
    assert native.units() == (native.MYPYC, *CORES)
    fake_build(sources)
    assert native.unit_files("idiot") == [sources / "idiot" / f"{native.CORE_MODULE}{SUFFIX}"]
    assert len(native.unit_files(native.MYPYC)) == len(native.compiled_modules()) + 1


def test_a_build_of_the_current_sources_is_used(sources):
    fake_build(sources)
    assert native.build_is_current() == (True, "compiled with mypyc 1.0")
    assert all(native.core_state(game) == (True, "") for game in CORES)
    status = native.engine_status()
    assert status.endswith("native cores: idiot, stromkrig") or "native cores not used" in status


def test_a_build_older_than_a_source_is_not_used(sources):
    fake_build(sources)
    append(sources / "idiot" / "state.py", "# edited after compiling\n")
    current, status = native.build_is_current()
    assert not current and "older than the sources" in status
    assert native.core_state("idiot") == (True, "")  # a core does not depend on mypyc's unit


@pytest.mark.parametrize("edited", ["idiot/_fastcore.c", f"{native.CORE_INCLUDE}/ks_random.h"])
def test_an_edited_c_source_makes_only_the_cores_built_from_it_stale(sources, edited):
    fake_build(sources)
    append(sources / edited, "/* edited after compiling */\n")
    assert native.build_is_current()[0] is True  # the mypyc modules stay compiled
    usable, reason = native.core_state("idiot")
    assert not usable and "older than the sources" in reason
    shared = edited.startswith(native.CORE_INCLUDE)
    assert native.core_state("stromkrig")[0] is not shared
    assert native.load_core("idiot") is None
    assert "native cores not used: idiot (the compiled build is older" in native.engine_status()


def test_a_core_is_stale_when_its_generated_header_changes(sources, monkeypatch):
    """ks_game.h is written from the game's Python (kinds, counters, rule parameters), so
    a change there that reaches the header makes the core stale, and only that core."""
    fake_build(sources)
    header = native.core_header

    def with_a_new_parameter(game: str) -> str:
        text = header(game)
        return text.replace("X(burn_count)", "X(burn_count) X(burn_rank)") if game else text

    monkeypatch.setattr(native, "core_header", with_a_new_parameter)
    assert native.core_state("idiot")[0] is False
    assert native.core_state("stromkrig")[0] is True
    assert native.build_is_current()[0] is True


def test_a_core_whose_module_is_missing_or_that_failed_is_not_used(sources):
    fake_build(sources)
    native.unit_files("stromkrig")[0].unlink()
    assert native.core_state("stromkrig") == (
        False,
        "the compiled build is incomplete: make engine",
    )
    manifest = json.loads(native.MANIFEST.read_text(encoding="utf-8"))
    manifest["units"]["idiot"] = {"digest": "x", "compiled": False, "reason": "compiling failed: x"}
    native.MANIFEST.write_text(json.dumps(manifest), encoding="utf-8")
    assert native.core_state("idiot") == (False, "compiling failed: x")


def test_a_build_without_its_manifest_is_not_used(sources):
    fake_build(sources)
    native.MANIFEST.unlink()
    assert native.build_is_current()[0] is False
    assert native.core_state("idiot")[0] is False


def test_the_environment_variable_keeps_the_engine_pure_python(sources, monkeypatch):
    fake_build(sources)
    monkeypatch.setenv(native.PURE_ENV, "1")
    assert native.build_is_current() == (False, f"pure Python ({native.PURE_ENV}=1)")
    assert native.core_state("idiot") == (False, f"{native.PURE_ENV}=1")


def test_an_engine_that_was_never_compiled_says_how_to_compile_it(sources):
    current, status = native.build_is_current()
    assert not current and status == "pure Python (not compiled: make engine)"


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


@pytest.fixture
def script(monkeypatch: pytest.MonkeyPatch) -> tuple[ModuleType, list[str]]:
    """compile_engine.py, with a compiler that builds each unit asked for (listed) as
    fake_build does."""
    module = load_script()
    asked: list[str] = []

    def compile_unit(unit: str) -> None:
        asked.append(unit)
        fake_build(native.GAMES_DIR, (unit,))

    monkeypatch.setattr(module, "compile_unit", compile_unit)
    monkeypatch.setattr(module.shutil, "which", lambda name: f"/usr/bin/{name}")
    return module, asked


def test_the_script_rebuilds_only_the_units_that_changed(sources, script):
    compile_engine, asked = script
    fake_build(sources)
    assert compile_engine.main(["--if-stale"]) == 0 and asked == []
    append(sources / "stromkrig" / native.CORE_SOURCE, "/* edited */\n")
    assert compile_engine.main(["--if-stale"]) == 0
    assert asked == ["stromkrig"]
    assert all(native.unit_state(unit)[0] for unit in native.units())
    asked.clear()
    append(sources / "core.py", "# edited\n")
    assert compile_engine.main(["--if-stale"]) == 0 and asked == [native.MYPYC]
    asked.clear()
    assert compile_engine.main([]) == 0 and asked == list(native.units())  # everything


@pytest.mark.parametrize("change", ["python", "missing module"])
def test_the_script_rebuilds_after_any_change_to_what_it_built(sources, script, change):
    compile_engine, asked = script
    fake_build(sources)
    if change == "python":
        manifest = json.loads(native.MANIFEST.read_text(encoding="utf-8"))
        native.MANIFEST.write_text(json.dumps({**manifest, "python": "3.12.0"}), encoding="utf-8")
        expected = list(native.units())
    else:
        native.unit_files(native.MYPYC)[0].unlink()
        expected = [native.MYPYC]
    assert compile_engine.main(["--if-stale"]) == 0
    assert asked == expected


def test_a_unit_that_fails_to_compile_is_recorded_and_the_others_are_built(
    sources, script, monkeypatch, capsys
):
    compile_engine = script[0]

    def compile_unit(unit: str) -> None:
        if unit == "idiot":
            raise RuntimeError("_fastcore.c:12: error: expected ';'")
        fake_build(native.GAMES_DIR, (unit,))

    monkeypatch.setattr(compile_engine, "compile_unit", compile_unit)
    assert compile_engine.main([]) == 0
    assert "idiot stays pure Python (compiling failed" in capsys.readouterr().out
    assert native.core_state("idiot") == (
        False,
        "compiling failed: _fastcore.c:12: error: expected ';'",
    )
    assert native.unit_files("idiot") == []
    assert native.core_state("stromkrig") == (True, "") and native.build_is_current()[0]


def test_without_a_compiler_the_script_records_why_and_succeeds(sources, monkeypatch, capsys):
    fake_build(sources)
    stale = sources / f"oldgame{SUFFIX}"
    stale.write_bytes(b"")  # the extension module of a game module that became a package
    assert native.stale_files() == [stale]
    monkeypatch.setenv("CC", str(sources / "no-such-compiler"))
    assert load_script().main([]) == 0
    assert "no C compiler" in capsys.readouterr().out
    assert all(native.unit_files(unit) == [] for unit in native.units())
    assert native.stale_files() == []  # nothing left stale
    manifest = json.loads(native.MANIFEST.read_text(encoding="utf-8"))
    assert set(manifest["units"]) == set(native.units())
    assert all(not record["compiled"] for record in manifest["units"].values())
    assert native.build_is_current() == (False, "pure Python (no C compiler (cc) was found)")
    assert native.core_state("idiot") == (False, "no C compiler (cc) was found")


def test_the_script_prints_a_cores_header_and_refuses_unknown_options(capsys):
    compile_engine = load_script()
    assert compile_engine.main(["--header", "idiot"]) == 0
    header = capsys.readouterr().out
    assert header == native.core_header("idiot")
    assert "#define KIND_PLAY 102" in header and "X(burn_count)" in header
    assert compile_engine.main(["--header", "chess"]) == 2
    assert "'chess' has no native core" in capsys.readouterr().err
    assert compile_engine.main(["--fast"]) == 2
    assert "usage" in capsys.readouterr().err
