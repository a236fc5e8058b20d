"""Compile the game engine with mypyc, and build the games' native cores, in place.

    .venv/bin/python scripts/compile_engine.py             # build every unit now
    .venv/bin/python scripts/compile_engine.py --if-stale  # only the units that changed
    .venv/bin/python scripts/compile_engine.py --header idiot  # print a core's ks_game.h

``make engine`` runs the second. The build has units (``native.units()``), each with its
own digest in ``kraftstokk/games/native-build.json``: the game packages' modules
(``native.compiled_modules()``) become mypyc extension modules beside their sources, and
each game's ``_fastcore.c`` becomes its native core (``native.native_cores()``,
``games/fastcore.py``), compiled with the header ``ks_game.h`` written for it from the
game's Python (``games/cheader.py``). ``--if-stale`` rebuilds only the units whose
digest changed, so an edited ``_fastcore.c`` rebuilds that core in seconds and leaves
the mypyc modules compiled. Each unit is built in its own child process, whose compiler
output is shown when it fails. The same sources run unchanged as pure Python: without a
C compiler, when a unit fails to compile, or with ``KRAFTSTOKK_PURE_PYTHON=1``, this
prints why, records it for that unit, and leaves it pure Python (exit 0); the tests of
the native cores then fail with that reason. A source edited after compiling is noticed
at import, and its Python code runs until the next compile.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from kraftstokk.atomic import write_text  # noqa: E402  (the project root is put on the path first)
from kraftstokk.games import native  # noqa: E402
from kraftstokk.games.cheader import HEADER_NAME  # noqa: E402

BUILD_NOW = "--build-now"
HEADER = "--header"
USAGE = "usage: compile_engine.py [--if-stale | --header GAME]"
PYTHON = sys.version.split()[0]
COMPILE_ARGS = ["-O3", "-Wall", "-Wextra"]


def remove_unit(unit: str) -> None:
    """Remove a unit's extension modules (unlinked, so a process that loaded them keeps
    its copy while the new files are written)."""
    for path in native.unit_files(unit):
        path.unlink()


def is_current(unit: str, digest: str, manifest: dict[str, Any]) -> bool:
    """The last build of ``unit`` (or the reason for none) still holds: the same sources,
    the same Python, and its extension modules are all still there."""
    if manifest.get("python") != PYTHON:
        return False
    record = native.unit_record(unit, manifest)
    if record.get("digest") != digest:
        return False
    return not record.get("compiled") or native.unit_complete(unit)


def record(manifest: dict[str, Any], unit: str, digest: str, **details: str | bool) -> None:
    """Note what became of ``unit`` in the manifest, and write it (atomically)."""
    units = manifest["units"]
    units[unit] = {"digest": digest, **details}
    manifest["units"] = {name: units[name] for name in native.units() if name in units}
    write_text(native.MANIFEST, json.dumps(manifest, indent=1) + "\n")


def build_mypyc(work: Path) -> list[Any]:
    from mypyc.build import mypycify

    sources = [str(native.GAMES_DIR / f"{name}.py") for name in native.compiled_modules()]
    os.chdir(ROOT)  # mypy reads the project's settings from pyproject.toml
    extensions: list[Any] = mypycify(
        sources, opt_level="3", group_name=native.GROUP, target_dir=str(work / "c")
    )
    return extensions


def build_core(game: str, work: Path) -> list[Any]:
    """The core's extension, with its generated header written into the build directory."""
    from setuptools import Extension

    include = work / "include"
    include.mkdir()
    (include / HEADER_NAME).write_text(native.core_header(game), encoding="utf-8")
    return [
        Extension(
            f"{native.PACKAGE}.{game}.{native.CORE_MODULE}",
            [str(native.GAMES_DIR / game / native.CORE_SOURCE)],
            include_dirs=[str(include), str(native.GAMES_DIR / native.CORE_INCLUDE)],
            extra_compile_args=COMPILE_ARGS,
        )
    ]


def build_in_place(unit: str) -> None:
    """Build one unit's extension modules beside the sources (run in a child process)."""
    from setuptools import Distribution

    with tempfile.TemporaryDirectory(prefix="kraftstokk-engine-") as temporary:
        work = Path(temporary)
        extensions = build_mypyc(work) if unit == native.MYPYC else build_core(unit, work)
        dist = Distribution({"name": "kraftstokk-engine", "ext_modules": extensions})
        build = dist.get_command_obj("build_ext")
        build.inplace = True
        # Always compile: setuptools would skip a core whose .c is older than the copy it
        # left in build/, though a header it includes (ks_game.h, _csrc/) has changed.
        build.force = True
        build.build_temp = str(work / "obj")
        dist.run_command("build_ext")


def compile_unit(unit: str) -> None:
    """Build ``unit`` in a child process, whose compiler output is shown only when it fails."""
    done = subprocess.run(
        [sys.executable, __file__, BUILD_NOW, unit], capture_output=True, text=True, check=False
    )
    if done.returncode != 0:
        lines = (done.stdout + done.stderr).strip().splitlines() or [
            f"exit status {done.returncode}"
        ]
        print("\n".join(lines[-15:]), file=sys.stderr)
        raise RuntimeError(lines[-1])


def why_not_compiled(mypy_version: str) -> str:
    """Why nothing can be compiled here, or '' when it can."""
    if os.environ.get(native.PURE_ENV) == "1":
        return f"{native.PURE_ENV}=1 when it was built"
    if not mypy_version:
        return "mypy (which brings mypyc) is not installed: pip install -e '.[dev]'"
    if shutil.which(os.environ.get("CC", "cc")) is None:
        return "no C compiler (cc) was found"
    return ""


def describe(unit: str) -> str:
    if unit == native.MYPYC:
        return f"the {len(native.compiled_modules())} game modules with mypyc (a minute or two)"
    return f"the {unit} native core"


def build(stale: list[str], digests: dict[str, str]) -> None:
    """Build the ``stale`` units one by one, recording each outcome."""
    old = native.read_manifest()
    kept = old.get("units") if old.get("python") == PYTHON else None
    manifest: dict[str, Any] = {"python": PYTHON, "units": kept if isinstance(kept, dict) else {}}
    for path in native.stale_files():
        path.unlink()
    for unit in stale:
        remove_unit(unit)
    try:
        from mypy.version import __version__ as mypy_version
    except ImportError:
        mypy_version = ""
    reason = why_not_compiled(mypy_version)
    if reason:
        for unit in stale:
            record(manifest, unit, digests[unit], compiled=False, reason=reason)
        print(f"engine: pure Python ({reason})")
        return
    for unit in stale:
        print(f"engine: compiling {describe(unit)} ...", flush=True)
        try:
            compile_unit(unit)
        except (OSError, RuntimeError) as exc:  # a failure leaves a working Python engine
            remove_unit(unit)
            record(manifest, unit, digests[unit], compiled=False, reason=f"compiling failed: {exc}")
            print(f"engine: {unit} stays pure Python (compiling failed: {exc})")
            continue
        details: dict[str, str | bool] = {"compiled": True}
        if unit == native.MYPYC:
            details["mypy"] = mypy_version
        record(manifest, unit, digests[unit], **details)
    built = [unit for unit in stale if native.unit_record(unit).get("compiled")]
    if built:
        print(f"engine: compiled {', '.join(built)}")


def main(argv: list[str]) -> int:
    if argv[:1] == [BUILD_NOW] and len(argv) == 2:
        build_in_place(argv[1])
        return 0
    if argv[:1] == [HEADER] and len(argv) == 2:
        if argv[1] not in native.native_cores():
            cores = ", ".join(native.native_cores())
            print(
                f"compile_engine.py: {argv[1]!r} has no native core ({cores} have)", file=sys.stderr
            )
            return 2
        print(native.core_header(argv[1]), end="")
        return 0
    if argv not in ([], ["--if-stale"]):
        print(USAGE, file=sys.stderr)
        return 2
    manifest = native.read_manifest()
    digests = {unit: native.unit_digest(unit) for unit in native.units()}
    stale = [
        unit
        for unit, digest in digests.items()
        if not (argv == ["--if-stale"] and is_current(unit, digest, manifest))
    ]
    if stale or native.stale_files():
        build(stale, digests)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
