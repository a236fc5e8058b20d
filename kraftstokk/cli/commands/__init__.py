"""CLI commands, one module per command.

:func:`load` imports them all, which registers each with the app (the tests, the help
listing, shell completion); ``kraftstokk NAME ...`` imports only the module of ``NAME``
(:func:`kraftstokk.cli.main`), so a command pays for what it uses and nothing else. The
modules are listed in pipeline order, which is the order ``--help`` lists the commands in.
A new command is a new module here plus its line below.
"""

from __future__ import annotations

import importlib

#: Each module and the commands it registers, in pipeline order.
MODULES: dict[str, tuple[str, ...]] = {
    "fetch": ("fetch",),
    "ingest": ("ingest",),
    "places": ("places",),
    "build": ("build", "spec-schema"),
    "validate": ("validate",),
    "repair": ("repair",),
    "diff": ("diff",),
    "render": ("render",),
    "proof": ("proof",),
    "booklet": ("booklet",),
    "preflight": ("preflight",),
    "simulate": ("simulate",),
    "sweep": ("sweep", "sweep-schema"),
    "play": ("play",),
    "serve": ("serve",),
    "export_web": ("export-web",),
}
#: The module of each command.
MODULE_OF = {command: module for module, names in MODULES.items() for command in names}


def load(command: str | None = None) -> None:
    """Import the module of ``command`` (None, or a name no module has: every module)."""
    modules = [MODULE_OF[command]] if command in MODULE_OF else list(MODULES)
    for module in modules:
        importlib.import_module(f"{__name__}.{module}")
