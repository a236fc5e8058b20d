"""The ``kraftstokk`` command: the typer app with every command registered.

:mod:`kraftstokk.cli.app` holds the app and the error translation,
:mod:`kraftstokk.cli.options` the options several commands share, and
:mod:`kraftstokk.cli.commands` one module per command. Commands keep their heavy imports
inside the command functions, so ``--help`` and ``--version`` stay fast.
"""

from __future__ import annotations

from kraftstokk.cli import commands  # noqa: F401  (imported to register the commands)
from kraftstokk.cli.app import app


def main() -> None:
    app()


__all__ = ["app", "main"]
