"""The ``kraftstokk`` command: the typer app and its commands.

:mod:`kraftstokk.cli.app` holds the app and the error translation,
:mod:`kraftstokk.cli.options` the options several commands share, and
:mod:`kraftstokk.cli.commands` one module per command. The app loads its commands when
it is first built (every one, for the tests and ``--help``); :func:`main` loads only the
command it runs, and commands keep their heavy imports inside their functions, so a
command starts with what it uses and nothing else.
"""

from __future__ import annotations

import atexit
import gc
import os
import sys
import threading
from typing import NoReturn

from kraftstokk.cli.app import app
from kraftstokk.errors import OutputError
from kraftstokk.terminal import guard_standard_streams


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
#: Commands that end without Python's teardown (:func:`run`): each writes its files whole
#: and closed (``kraftstokk.atomic``) before it returns, so nothing is left for the
#: teardown but freeing what the operating system reclaims anyway (5 ms of a simulate's
#: 0.4 s, 7 ms with its worker joined).
QUICK_EXIT = frozenset({"simulate"})
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
    guard_standard_streams()  # before --version's eager callback writes
    try:
        app()
    finally:
        # At exit Python collects every object once more, to find cycles nobody will use:
        # 50 ms of CPU after a simulate. Frozen objects are left out of it; the exit still
        # runs the atexit handlers, flushes and closes files.
        gc.freeze()


def run() -> NoReturn:
    """The command as the ``kraftstokk`` console script runs it (``kraftstokk.console``,
    after a simulate's head start): :func:`main`, and for the commands of
    :data:`QUICK_EXIT` the end of the process once its output is flushed and the atexit
    handlers have run (:func:`leave`); other commands exit as Python does."""
    quick = command_named(sys.argv[1:]) in QUICK_EXIT
    try:
        main()
    except SystemExit as done:
        code = done.code
    except OutputError as exc:  # written outside a command (its --help)
        code = _said(exc)
    else:
        code = 0
    code = _flushed(code)
    if quick:
        leave(code)
    raise SystemExit(code)


def _said(error: OutputError) -> int:
    sys.stderr.write(f"kraftstokk: error: {error.message}\n")
    return error.exit_code


def _flushed(code: str | int | None) -> str | int | None:
    """``code`` once stdout and stderr are flushed; 2 when stdout could not take what was
    written to it (a full disk), said in one line — Python's exit would print a traceback
    instead — unless the command failed (and said so) already."""
    try:
        for stream in (sys.stdout, sys.stderr):
            if stream is not None:
                stream.flush()
    except OutputError as exc:
        return _said(exc)
    except (OSError, ValueError):  # a closed pipe: Python's exit says it as before
        pass
    failure = getattr(sys.stdout, "failure", None)
    if isinstance(failure, OutputError) and code in (0, None):
        return _said(failure)
    return code


def leave(code: object) -> NoReturn:
    """End the process with ``code`` (what ``SystemExit`` takes) as Python's exit
    would, less its teardown: the atexit handlers run (the workers are joined, temporary
    folders removed) and stdout and stderr are flushed, then ``os._exit``. Python's own
    exit is taken when another thread runs (it waits for it), when a stream cannot be
    flushed (it says so), or for a code that is not a small number."""
    status = 0 if code is None else code
    if threading.active_count() > 1 or not isinstance(status, int) or not 0 <= status <= 255:
        raise SystemExit(code)
    atexit._run_exitfuncs()
    try:
        for stream in (sys.stdout, sys.stderr):
            if stream is not None:
                stream.flush()
    except (OSError, ValueError):  # a closed pipe: Python's exit reports it
        raise SystemExit(code) from None
    os._exit(status)


__all__ = ["app", "leave", "main", "run"]
