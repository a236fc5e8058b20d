"""The compiled engine: which modules mypyc compiles, and whether the build is current.

``scripts/compile_engine.py`` (run by ``make engine``) compiles the modules of every game
package (:func:`compiled_modules`: found by the package convention, no list to keep)
with mypyc into extension modules beside their sources, builds every game's native core
(``<game>/_fastcore.c``, :func:`native_cores`; see ``games/fastcore.py``), and writes
:data:`MANIFEST` with a digest of the sources it compiled. Python imports an extension
module before a source file of the same name, so a build older than its sources would
silently run old rules. :func:`use_current_build` (called when ``kraftstokk.games`` is
imported) prevents that: when the digest differs, or ``KRAFTSTOKK_PURE_PYTHON=1`` is
set, the engine modules load from their ``.py`` sources instead, no native core is used
(:func:`load_core`), and :func:`engine_status` says why.
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

PACKAGE = "kraftstokk.games"
GAMES_DIR = Path(__file__).resolve().parent
#: The framework modules the games' classes derive from, compiled with them.
FRAMEWORK = ("stats", "frozen", "events", "observation", "ordering", "random_bot")
#: Modules of a game package that stay Python: the declaration, the package itself, the
#: glue that hands a game to its native core (run once per game, and it imports the core,
#: which mypy knows no types of), and what the rest of kraftstokk reads of a game in words
#: (its narration, web view and booklet chapter: they read the locale files, and no
#: simulation runs them).
NOT_COMPILED = ("__init__", "spec", "fast", "narration", "view", "chapter")
#: What the compiled modules import that is not compiled itself.
IMPORTED = ("core", "../errors")


def compiled_modules() -> tuple[str, ...]:
    """The modules compiled to C, as paths relative to the games directory without
    ``.py`` (``idiot/state``): the framework bases, then every module of every game
    package (a directory with a ``spec.py``) but its ``__init__`` and ``spec``."""
    names = list(FRAMEWORK)
    for package in sorted(GAMES_DIR.iterdir()):
        if (package / "spec.py").is_file():
            names.extend(
                f"{package.name}/{path.stem}"
                for path in sorted(package.glob("*.py"))
                if path.stem not in NOT_COMPILED
            )
    return tuple(names)


def digested_modules() -> tuple[str, ...]:
    """Sources whose change makes a build stale: the compiled modules and what they import."""
    return (*compiled_modules(), *IMPORTED)


#: The file of a game's native core in its package, and its module's name there.
CORE_SOURCE = "_fastcore.c"
CORE_MODULE = "_fastcore"
#: Headers the native cores include (``ks_random.h``: random.Random's stream).
CORE_INCLUDE = "_csrc"


def native_cores() -> tuple[str, ...]:
    """The game packages with a native core (``<game>/_fastcore.c``), by name."""
    return tuple(
        package.name
        for package in sorted(GAMES_DIR.iterdir())
        if (package / "spec.py").is_file() and (package / CORE_SOURCE).is_file()
    )


def core_sources() -> list[Path]:
    """The C sources of the native cores and the headers they include."""
    headers = sorted((GAMES_DIR / CORE_INCLUDE).glob("*.h"))
    return [*headers, *(GAMES_DIR / name / CORE_SOURCE for name in native_cores())]


MANIFEST = GAMES_DIR / "native-build.json"
#: mypyc's shared runtime for the compiled group, an extension module in this package.
GROUP = f"{PACKAGE}._engine"
PURE_ENV = "KRAFTSTOKK_PURE_PYTHON"

_status = "pure Python"


def source_digest() -> str:
    """SHA-256 over the engine sources a compiled build depends on."""
    digest = hashlib.sha256()
    for name in digested_modules():
        path = GAMES_DIR / f"{name}.py"
        digest.update(name.encode())
        digest.update(path.read_bytes())
    for path in core_sources():
        digest.update(path.relative_to(GAMES_DIR).as_posix().encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


def compiled_files() -> list[Path]:
    """Extension modules of the engine present beside the sources."""
    suffixes = importlib.machinery.EXTENSION_SUFFIXES
    names = [*compiled_modules(), f"{GROUP.rsplit('.', 1)[1]}__mypyc", *core_modules()]
    return [
        GAMES_DIR / f"{name}{suffix}"
        for name in names
        for suffix in suffixes
        if (GAMES_DIR / f"{name}{suffix}").exists()
    ]


def core_modules() -> list[str]:
    """The native cores' modules as paths relative to the games directory (``idiot/_fastcore``)."""
    return [f"{name}/{CORE_MODULE}" for name in native_cores()]


def expected_files() -> int:
    """How many extension modules a complete build leaves: mypyc's, its runtime, the cores."""
    return len(compiled_modules()) + 1 + len(native_cores())


def stale_files() -> list[Path]:
    """Extension modules left beside the sources for modules no longer compiled (a game
    module that became a package, say): a build removes them with its own files."""
    current = set(compiled_files())
    found = {
        path
        for suffix in importlib.machinery.EXTENSION_SUFFIXES
        for path in GAMES_DIR.rglob(f"*{suffix}")
    }
    return sorted(found - current)


class _SourcesFirst(importlib.abc.MetaPathFinder):
    """Loads the compiled modules' ``.py`` sources even where an extension module exists."""

    def __init__(self) -> None:
        self._compiled = frozenset(compiled_modules())

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if not fullname.startswith(PACKAGE + "."):
            return None
        relative = fullname[len(PACKAGE) + 1 :].replace(".", "/")
        if relative not in self._compiled:
            return None
        return importlib.util.spec_from_file_location(fullname, GAMES_DIR / f"{relative}.py")


def read_manifest() -> dict[str, Any]:
    """What the last compile recorded; empty when there is none (or it is unreadable)."""
    try:
        manifest = json.loads(MANIFEST.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return manifest if isinstance(manifest, dict) else {}


def build_is_current() -> tuple[bool, str]:
    """Whether the compiled modules may be used, and the engine's status in words."""
    if os.environ.get(PURE_ENV) == "1":
        return False, f"pure Python ({PURE_ENV}=1)"
    manifest = read_manifest()
    if not compiled_files():
        reason = manifest.get("reason") or "not compiled: run scripts/compile_engine.py"
        return False, f"pure Python ({reason})"
    if manifest.get("digest") != source_digest():
        return False, "pure Python (the compiled build is older than the sources: make engine)"
    return True, f"compiled with mypyc {manifest.get('mypy', '?')}"


def use_current_build() -> None:
    """Make the engine modules load compiled only when the build matches the sources."""
    global _status, _cores_usable
    current, _status = build_is_current()
    _cores_usable = current
    if current and native_cores():
        _status += f"; native cores: {', '.join(native_cores())}"
    if not current and not any(isinstance(f, _SourcesFirst) for f in sys.meta_path):
        sys.meta_path.insert(0, _SourcesFirst())


_cores_usable = False


def load_core(game: str) -> ModuleType | None:
    """A game's native core module, or None: not built, older than its sources, or
    ``KRAFTSTOKK_PURE_PYTHON=1`` (the Python engine then plays every game)."""
    if not _cores_usable or game not in native_cores():
        return None
    try:
        return importlib.import_module(f"{PACKAGE}.{game}.{CORE_MODULE}")
    except ImportError:
        return None


def engine_status() -> str:
    """'compiled with mypyc 1.x' or 'pure Python (why)', for benchmarks and reports."""
    return _status
