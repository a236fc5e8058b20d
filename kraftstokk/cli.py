"""Entry point of the ``kraftstokk`` command: the app with every command registered.

Each module of :mod:`kraftstokk.commands` registers its commands on the shared app when
imported; they keep their heavy imports inside the command functions, so ``--help`` and
``--version`` stay fast.
"""

from __future__ import annotations

from kraftstokk.cli_app import app

# Imported in pipeline order, which is the order ``--help`` lists the commands in.
# isort: off
from kraftstokk.commands import (  # noqa: F401  (imported to register the commands)
    fetch,
    ingest,
    build,
    validate,
    diff,
    render,
    booklet,
    simulate,
    play,
    serve,
)

# isort: on


def main() -> None:
    app()


__all__ = ["app", "main"]
