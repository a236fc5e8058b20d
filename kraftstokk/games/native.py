"""The compiled engine: which modules mypyc compiles, and whether the build is current.

``scripts/compile_engine.py`` (run by ``make install``) compiles the game and bot modules
with mypyc into extension modules beside their sources, and writes :data:`MANIFEST` with
a digest of the sources it compiled. Python imports an extension module before a source
file of the same name, so a build older than its sources would silently run old rules.
:func:`use_current_build` (called when ``kraftstokk.games`` is imported) prevents that:
when the digest differs, or ``KRAFTSTOKK_PURE_PYTHON=1`` is set, the engine modules load
from their ``.py`` sources instead, and :func:`engine_status` says why.
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
#: Modules compiled to C; the rest of the engine stays Python (it is not on the hot path).
COMPILED = (
    "idiot",
    "idiot_bots",
    "kraftidioten",
    "kraftidioten_bots",
    "stromkrig",
    "stromkrig_bots",
)
#: Sources whose change makes a build stale: the compiled modules and what they import.
DIGESTED = (*COMPILED, "core", "stromkrig_rules", "../errors")
MANIFEST = GAMES_DIR / "native-build.json"
#: mypyc's shared runtime for the compiled group, an extension module in this package.
GROUP = f"{PACKAGE}._engine"
PURE_ENV = "KRAFTSTOKK_PURE_PYTHON"

_status = "pure Python"


def source_digest() -> str:
    """SHA-256 over the engine sources a compiled build depends on."""
    digest = hashlib.sha256()
    for name in DIGESTED:
        path = GAMES_DIR / f"{name}.py"
        digest.update(name.encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


def compiled_files() -> list[Path]:
    """Extension modules of the engine present beside the sources."""
    suffixes = importlib.machinery.EXTENSION_SUFFIXES
    names = [*COMPILED, f"{GROUP.rsplit('.', 1)[1]}__mypyc"]
    return [
        GAMES_DIR / f"{name}{suffix}"
        for name in names
        for suffix in suffixes
        if (GAMES_DIR / f"{name}{suffix}").exists()
    ]


class _SourcesFirst(importlib.abc.MetaPathFinder):
    """Loads the compiled modules' ``.py`` sources even where an extension module exists."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        package, _, name = fullname.rpartition(".")
        if package != PACKAGE or name not in COMPILED:
            return None
        return importlib.util.spec_from_file_location(fullname, GAMES_DIR / f"{name}.py")


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
        return False, "pure Python (the compiled build is older than the sources: make install)"
    return True, f"compiled with mypyc {manifest.get('mypy', '?')}"


def use_current_build() -> None:
    """Make the engine modules load compiled only when the build matches the sources."""
    global _status
    current, _status = build_is_current()
    if not current and not any(isinstance(f, _SourcesFirst) for f in sys.meta_path):
        sys.meta_path.insert(0, _SourcesFirst())


def engine_status() -> str:
    """'compiled with mypyc 1.x' or 'pure Python (why)', for benchmarks and reports."""
    return _status
