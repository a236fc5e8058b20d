"""The ``kraftstokk`` command: the typer app and its commands.

:mod:`kraftstokk.cli.app` holds the app and the error translation,
:mod:`kraftstokk.cli.options` the options several commands share, and
:mod:`kraftstokk.cli.commands` one module per command. The app loads its commands when
it is first built (every one, for the tests and ``--help``); :func:`main` loads only the
command it runs, and commands keep their heavy imports inside their functions, so a
command starts with what it uses and nothing else.
"""

from __future__ import annotations

import os
import sys

from kraftstokk.cli.app import app


def command_named(arguments: list[str]) -> str | None:
    """The command ``arguments`` run: the first word that is no option (None: none, or
    shell completion is asking, which needs every command)."""
    if any(name.startswith("_KRAFTSTOKK_COMPLETE") for name in os.environ):
        return None
    return next((word for word in arguments if not word.startswith("-")), None)


def main() -> None:
    app.only(command_named(sys.argv[1:]))
    app()


__all__ = ["app", "main"]
