"""The compiled engine: what is compiled, in which units, and whether each unit is current.

``scripts/compile_engine.py`` (run by ``make engine``) builds two kinds of **units**,
each with its own digest in :data:`MANIFEST`, so that an edit rebuilds only the unit it
touches:

* ``mypyc``: the modules of every game package (:func:`compiled_modules`: found by the
  package convention, no list to keep) compiled with mypyc into extension modules
  beside their sources. Its digest covers those sources and what they import.
* one per native core (:func:`native_cores`, ``<game>/_fastcore.c``; see
  ``games/fastcore.py``), named after its game. Its digest covers the C source, the
  shared headers of ``_csrc/`` and the text of the generated header ``ks_game.h``
  (``games/cheader.py``: the game's seats, kinds, phases, counters and rule parameters),
  so a core is rebuilt when the Python it was generated from changes, and only then.

Python imports an extension module before a source file of the same name, so a build
older than its sources would silently run old rules. :func:`use_current_build` (called
when ``kraftstokk.games`` is imported) prevents that for the mypyc unit: when its
digest differs, or ``KRAFTSTOKK_PURE_PYTHON=1`` is set, the engine modules load from
their ``.py`` sources instead. :func:`load_core` does the same for each core: a core
older than its sources is not used (the Python engine plays), whatever the other units
are. :func:`engine_status` says which units are used, and why the others are not.
"""

from __future__ import annotations

import hashlib
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
FRAMEWORK = (
    "stats",
    "frozen",
    "parameters",
    "events",
    "observation",
    "ordering",
    "random_bot",
    "playability",
)
#: Modules of a game package that stay Python: the declaration, the package itself, the
#: glue that hands a game to its native core (run once per game, and it imports the core,
#: which mypy knows no types of), and what the rest of kraftstokk reads of a game in words
#: (its narration, web view and booklet chapter: they read the locale files, and no
#: simulation runs them).
NOT_COMPILED = ("__init__", "spec", "fast", "narration", "view", "chapter")
#: What the compiled modules import that is not compiled itself.
IMPORTED = ("core", "../errors", "../cardfacts")

#: The unit of the mypyc-compiled modules; each native core is a unit named by its game.
MYPYC = "mypyc"
MANIFEST = GAMES_DIR / "native-build.json"
#: mypyc's shared runtime for the compiled group, an extension module in this package.
GROUP = f"{PACKAGE}._engine"
PURE_ENV = "KRAFTSTOKK_PURE_PYTHON"
#: The file of a game's native core in its package, and its module's name there.
CORE_SOURCE = "_fastcore.c"
CORE_MODULE = "_fastcore"
#: Headers the native cores include (``ks_random.h``: random.Random's stream).
CORE_INCLUDE = "_csrc"
#: What to run when a unit is out of date.
REBUILD = "make engine"


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
    """Sources whose change makes the mypyc unit stale: the compiled modules and what
    they import."""
    return (*compiled_modules(), *IMPORTED)


def native_cores() -> tuple[str, ...]:
    """The game packages with a native core (``<game>/_fastcore.c``), by name."""
    return tuple(
        package.name
        for package in sorted(GAMES_DIR.iterdir())
        if (package / "spec.py").is_file() and (package / CORE_SOURCE).is_file()
    )


def units() -> tuple[str, ...]:
    """Every unit a build makes: the mypyc modules, then each native core."""
    return (MYPYC, *native_cores())


def shared_headers() -> list[Path]:
    """The headers of ``_csrc/`` that every core includes."""
    return sorted((GAMES_DIR / CORE_INCLUDE).glob("*.h"))


def mypyc_digest() -> str:
    """SHA-256 over the sources the mypyc unit is compiled from."""
    digest = hashlib.sha256()
    for name in digested_modules():
        digest.update(name.encode())
        digest.update((GAMES_DIR / f"{name}.py").read_bytes())
    return digest.hexdigest()


def core_header(game: str) -> str:
    """The generated ``ks_game.h`` a game's core is compiled with (``games/cheader.py``)."""
    from kraftstokk.games import registry
    from kraftstokk.games.cheader import game_header

    return game_header(registry.get_spec(game))


def core_digest(game: str) -> str:
    """SHA-256 over what a game's core is compiled from: its C source, the shared
    headers and its generated header."""
    digest = hashlib.sha256()
    for path in [*shared_headers(), GAMES_DIR / game / CORE_SOURCE]:
        digest.update(path.relative_to(GAMES_DIR).as_posix().encode())
        digest.update(path.read_bytes())
    digest.update(core_header(game).encode())
    return digest.hexdigest()


def unit_digest(unit: str) -> str:
    return mypyc_digest() if unit == MYPYC else core_digest(unit)


def _extension(name: str) -> Path | None:
    """The extension module built for ``name`` (relative to the games directory), if any."""
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        path = GAMES_DIR / f"{name}{suffix}"
        if path.exists():
            return path
    return None


def _unit_modules(unit: str) -> list[str]:
    """The extension modules a complete build of ``unit`` leaves, relative to the games
    directory without suffix."""
    if unit == MYPYC:
        return [*compiled_modules(), f"{GROUP.rsplit('.', 1)[1]}__mypyc"]
    return [f"{unit}/{CORE_MODULE}"]


def unit_files(unit: str) -> list[Path]:
    """The extension modules of ``unit`` present beside the sources."""
    found = (_extension(name) for name in _unit_modules(unit))
    return [path for path in found if path is not None]


def unit_complete(unit: str) -> bool:
    """Every extension module of ``unit`` is there."""
    return len(unit_files(unit)) == len(_unit_modules(unit))


def stale_files() -> list[Path]:
    """Extension modules left beside the sources that no unit builds (a game module that
    became a package, say): a build removes them."""
    current = {path for unit in units() for path in unit_files(unit)}
    found = {
        path
        for suffix in importlib.machinery.EXTENSION_SUFFIXES
        for path in GAMES_DIR.rglob(f"*{suffix}")
    }
    return sorted(found - current)


class _SourcesFirst:
    """Loads the compiled modules' ``.py`` sources even where an extension module exists.

    A finder of ``sys.meta_path`` by its ``find_spec`` alone: ``importlib.abc`` (its base
    class there) loads ``importlib.resources`` and ``tempfile``, 4 ms of every command's
    start that a ``simulate -w 2``'s head start (forked after this module loads) has no
    use for."""

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
    """What the last build recorded; empty when there is none (or it is unreadable)."""
    try:
        manifest = json.loads(MANIFEST.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return manifest if isinstance(manifest, dict) else {}


def unit_record(unit: str, manifest: dict[str, Any] | None = None) -> dict[str, Any]:
    """What the last build recorded of ``unit``: its digest, and ``compiled`` or the
    ``reason`` it was not; empty when it was never built."""
    units_built = (read_manifest() if manifest is None else manifest).get("units")
    record = units_built.get(unit) if isinstance(units_built, dict) else None
    return record if isinstance(record, dict) else {}


def unit_state(unit: str, manifest: dict[str, Any] | None = None) -> tuple[bool, str]:
    """Whether ``unit``'s compiled code may be used, and why not when it may not."""
    record = unit_record(unit, manifest)
    if not record:
        return False, f"not compiled: {REBUILD}"
    if not record.get("compiled"):
        return False, str(record.get("reason") or f"not compiled: {REBUILD}")
    if record.get("digest") != unit_digest(unit):
        return False, f"the compiled build is older than the sources: {REBUILD}"
    if not unit_complete(unit):
        return False, f"the compiled build is incomplete: {REBUILD}"
    return True, ""


def build_is_current() -> tuple[bool, str]:
    """Whether the mypyc modules may be used, and the engine's status in words."""
    if os.environ.get(PURE_ENV) == "1":
        return False, f"pure Python ({PURE_ENV}=1)"
    manifest = read_manifest()
    current, reason = unit_state(MYPYC, manifest)
    if not current:
        return False, f"pure Python ({reason})"
    return True, f"compiled with mypyc {unit_record(MYPYC, manifest).get('mypy', '?')}"


_status = "pure Python"


def use_current_build() -> None:
    """Make the engine modules load compiled only when the build matches the sources."""
    global _status
    current, _status = build_is_current()
    if not current and not any(isinstance(f, _SourcesFirst) for f in sys.meta_path):
        sys.meta_path.insert(0, _SourcesFirst())


def core_state(game: str) -> tuple[bool, str]:
    """Whether ``game``'s native core may be used, and why not when it may not."""
    if os.environ.get(PURE_ENV) == "1":
        return False, f"{PURE_ENV}=1"
    if game not in native_cores():
        return False, f"{game} has no native core"
    return unit_state(game)


def load_core(game: str) -> ModuleType | None:
    """A game's native core module, or None: not built, older than its sources, or
    ``KRAFTSTOKK_PURE_PYTHON=1`` (the Python engine then plays every game)."""
    if not core_state(game)[0]:
        return None
    try:
        return importlib.import_module(f"{PACKAGE}.{game}.{CORE_MODULE}")
    except ImportError:
        return None


def engine_status() -> str:
    """'compiled with mypyc 1.x; native cores: ...' or 'pure Python (why)', with the
    cores not used and why, for benchmarks, reports and tests."""
    status = _status
    if os.environ.get(PURE_ENV) == "1":
        return status
    used, unused = [], []
    for game in native_cores():
        usable, reason = core_state(game)
        if usable:
            used.append(game)
        else:
            unused.append(f"{game} ({reason})")
    if used:
        status += f"; native cores: {', '.join(used)}"
    if unused:
        status += f"; native cores not used: {', '.join(unused)}"
    return status
