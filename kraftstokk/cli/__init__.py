"""The ``kraftstokk`` command: the typer app and its commands.

:mod:`kraftstokk.cli.app` holds the app and the error translation,
:mod:`kraftstokk.cli.options` the options several commands share, and
:mod:`kraftstokk.cli.commands` one module per command. The app loads its commands when
it is first built (every one, for the tests and ``--help``); :func:`main` loads only the
command it runs, and commands keep their heavy imports inside their functions, so a
command starts with what it uses and nothing else.
"""

from __future__ import annotations

import gc
import os
import sys

from kraftstokk.cli.app import app


def command_named(arguments: list[str]) -> str | None:
    """The command ``arguments`` run: the first word that is no option (None: none, or
    shell completion is asking, which needs every command)."""
    if any(name.startswith("_KRAFTSTOKK_COMPLETE") for name in os.environ):
        return None
    return next((word for word in arguments if not word.startswith("-")), None)


#: The collector's first generation is examined after this many new objects (Python's
#: default: 700). A command's start-up creates about a million objects that all live on
#: (the modules, pydantic's schemas, numpy): at 700, the passes over them cost 30-50 ms of
#: CPU, a tenth of a short command; cycles are still collected, a little later.
YOUNG_OBJECTS = 100_000
#: OpenBLAS threads numpy starts on import (one per core, unless told), whose start and
#: spinning cost a short command up to 0.09 s of CPU. The commands multiply matrices on
#: one thread anyway (``sim/stream.py``'s ``gram`` cuts its products to that size), and
#: ``simulate -w N`` runs N processes: one thread each. A value the user set is kept.
BLAS_THREADS = {"OPENBLAS_NUM_THREADS": "1"}


def main() -> None:
    gc.set_threshold(YOUNG_OBJECTS, *gc.get_threshold()[1:])
    for name, value in BLAS_THREADS.items():
        os.environ.setdefault(name, value)
    app.only(command_named(sys.argv[1:]))
    try:
        app()
    finally:
        # At exit Python collects every object once more, to find cycles nobody will use:
        # 50 ms of CPU after a simulate. Frozen objects are left out of it; the exit still
        # runs the atexit handlers, flushes and closes files.
        gc.freeze()


__all__ = ["app", "main"]
