"""The compiled engine in the tests: compiled before they run, and never skipped when stale.

:func:`compile_stale_engine` runs ``scripts/compile_engine.py --if-stale`` before any test
module imports the engine (``tests/conftest.py`` calls it from ``pytest_configure``), so
``pytest tests/test_games_fastcore.py`` after an edit tests the edit, not an old build or
pure Python. :func:`require_core` is what a test of a native core asks for its module: it
skips only where a core cannot be built here (no C compiler, or ``KRAFTSTOKK_PURE_PYTHON=1``
asked for the Python engine alone) and fails otherwise, with the reason and the command.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "scripts" / "compile_engine.py"
PURE_ENV = "KRAFTSTOKK_PURE_PYTHON"  # kraftstokk.games.native.PURE_ENV, before it is imported
REBUILD = "make engine, and read what it says"


def compiler_present() -> bool:
    """A C compiler as the build looks for one (``$CC``, else ``cc``)."""
    return shutil.which(os.environ.get("CC", "cc")) is not None


def compile_stale_engine() -> str:
    """Build whatever part of the engine is older than its sources; what the build said
    ('' when everything was current, or when the Python engine alone was asked for)."""
    if os.environ.get(PURE_ENV) == "1":
        return ""
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "--if-stale"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    said = (done.stdout + done.stderr).strip()
    if done.returncode != 0:
        said += f"\nengine: {SCRIPT.name} --if-stale exited with {done.returncode}"
    return said


def _unusable(what: str, reason: str) -> None:
    """Skip where nothing can be compiled here, else fail: ``what`` should be built."""
    if os.environ.get(PURE_ENV) == "1":
        pytest.skip(f"{PURE_ENV}=1: this run tests the pure-Python engine alone")
    if not compiler_present():
        pytest.skip("no C compiler (cc) here, so the engine cannot be compiled")
    pytest.fail(f"{what} is not usable ({reason}); run {REBUILD}", pytrace=False)


def require_core(game: str) -> ModuleType:
    """``game``'s native core module, built from the current sources; skips only where no
    core can be built here, and fails when one could be but is not usable."""
    from kraftstokk.games import native

    module = native.load_core(game)
    if module is None:
        usable, reason = native.core_state(game)
        _unusable(f"the {game} native core", reason if not usable else "its module does not import")
    assert module is not None
    return module


def require_compiled_engine() -> None:
    """The mypyc-compiled engine modules are in use (skips and fails as ``require_core``)."""
    from kraftstokk.games import native

    if not native.engine_status().startswith("compiled"):
        usable, reason = native.unit_state(native.MYPYC)
        _unusable("the mypyc-compiled engine", reason if not usable else "it was loaded stale")
