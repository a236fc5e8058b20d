"""Compile the game engine with mypyc, and build the games' native cores, in place.

    .venv/bin/python scripts/compile_engine.py             # compile now
    .venv/bin/python scripts/compile_engine.py --if-stale  # only if anything changed

``make engine`` runs the second. The game packages' modules (``native.compiled_modules()``)
become extension modules beside their sources, each game's ``_fastcore.c`` becomes its
native core (``native.native_cores()``, ``games/fastcore.py``), and
``kraftstokk/games/native-build.json`` records a digest of the sources. The same sources
run unchanged as pure Python: without a C compiler, when compiling fails, or with
``KRAFTSTOKK_PURE_PYTHON=1``, this prints why, records it, and leaves the engine pure
Python (exit 0). A source edited after compiling
is noticed at import, and its Python code runs until the next compile.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from kraftstokk.games import native  # noqa: E402  (the project root is put on the path first)

BUILD_NOW = "--build-now"


def remove_build() -> None:
    for path in [*native.compiled_files(), *native.stale_files()]:
        path.unlink()
    native.MANIFEST.unlink(missing_ok=True)


PYTHON = sys.version.split()[0]


def is_current(digest: str) -> bool:
    """The last build (or the reason for none) still holds: same sources, same Python,
    and its extension modules are all still there."""
    manifest = native.read_manifest()
    if manifest.get("digest") != digest or manifest.get("python") != PYTHON:
        return False
    return not manifest.get("compiled") or len(native.compiled_files()) == native.expected_files()


def record(digest: str, **details: str | bool) -> None:
    manifest = {"digest": digest, "python": PYTHON, **details}
    native.MANIFEST.write_text(json.dumps(manifest, indent=1) + "\n", encoding="utf-8")


def build_in_place() -> None:
    """Build the extension modules beside the sources (run in a child process)."""
    from mypyc.build import mypycify
    from setuptools import Distribution, Extension

    sources = [str(native.GAMES_DIR / f"{name}.py") for name in native.compiled_modules()]
    include = str(native.GAMES_DIR / native.CORE_INCLUDE)
    cores = [
        Extension(
            f"{native.PACKAGE}.{name}.{native.CORE_MODULE}",
            [str(native.GAMES_DIR / name / native.CORE_SOURCE)],
            include_dirs=[include],
            extra_compile_args=["-O3", "-Wall", "-Wextra"],
        )
        for name in native.native_cores()
    ]
    with tempfile.TemporaryDirectory(prefix="kraftstokk-mypyc-") as work:
        os.chdir(ROOT)  # mypy reads the project's settings from pyproject.toml
        extensions = mypycify(
            sources, opt_level="3", group_name=native.GROUP, target_dir=str(Path(work, "c"))
        )
        extensions.extend(cores)
        dist = Distribution({"name": "kraftstokk-engine", "ext_modules": extensions})
        build = dist.get_command_obj("build_ext")
        build.inplace = True
        build.build_temp = str(Path(work, "obj"))
        dist.run_command("build_ext")


def compile_engine() -> None:
    """Build in a child process, whose compiler output is shown only when it fails."""
    done = subprocess.run(
        [sys.executable, __file__, BUILD_NOW], capture_output=True, text=True, check=False
    )
    if done.returncode != 0:
        lines = (done.stdout + done.stderr).strip().splitlines() or [
            f"exit status {done.returncode}"
        ]
        print("\n".join(lines[-15:]), file=sys.stderr)
        raise RuntimeError(lines[-1])


def main(argv: list[str]) -> int:
    if argv == [BUILD_NOW]:
        build_in_place()
        return 0
    digest = native.source_digest()
    if argv == ["--if-stale"] and is_current(digest):
        return 0
    if argv not in ([], ["--if-stale"]):
        print("usage: compile_engine.py [--if-stale]", file=sys.stderr)
        return 2
    remove_build()
    try:
        from mypy.version import __version__ as mypy_version
    except ImportError:
        mypy_version = ""
    if os.environ.get(native.PURE_ENV) == "1":
        reason = f"{native.PURE_ENV}=1 when it was built"
    elif not mypy_version:
        reason = "mypy (which brings mypyc) is not installed: pip install -e '.[dev]'"
    elif shutil.which(os.environ.get("CC", "cc")) is None:
        reason = "no C compiler (cc) was found"
    else:
        print("engine: compiling the game modules with mypyc (about a minute) ...", flush=True)
        try:
            compile_engine()
        except (OSError, RuntimeError) as exc:  # a failure leaves a working Python engine
            remove_build()
            reason = f"compiling failed: {exc}"
        else:
            record(digest, compiled=True, mypy=mypy_version)
            count = len(native.compiled_modules())
            cores = ", ".join(native.native_cores()) or "none"
            print(f"engine: compiled {count} modules with mypyc {mypy_version}; cores: {cores}")
            return 0
    record(digest, compiled=False, reason=reason)
    print(f"engine: pure Python ({reason})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
