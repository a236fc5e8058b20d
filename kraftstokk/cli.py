"""Entry point of the ``kraftstokk`` command: the app with every command registered."""

from __future__ import annotations

import importlib
import importlib.util

from kraftstokk.cli_app import app

#: One module per pipeline stage, each registering its commands on ``app``.
COMMAND_MODULES = (
    "fetch",
    "ingest",
    "build",
    "validate",
    "diff",
    "render",
    "booklet",
    "simulate",
    "play",
)

for _name in COMMAND_MODULES:
    _module = f"kraftstokk.commands.{_name}"
    if importlib.util.find_spec(_module) is not None:
        importlib.import_module(_module)


def main() -> None:
    app()


__all__ = ["app", "main"]
