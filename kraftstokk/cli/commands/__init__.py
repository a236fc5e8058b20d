"""CLI commands, one module per command; importing this package registers them all.

The modules are imported in pipeline order, which is the order ``--help`` lists the
commands in. A new command is a new module here plus one name in the list below.
"""

from __future__ import annotations

# isort: off
from kraftstokk.cli.commands import (  # noqa: F401  (imported to register the commands)
    fetch,
    ingest,
    places,
    build,
    validate,
    repair,
    diff,
    render,
    proof,
    booklet,
    preflight,
    simulate,
    sweep,
    play,
    serve,
)

# isort: on
