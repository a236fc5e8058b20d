"""The ``kraftstokk`` console script (``pyproject.toml``): :func:`run`.

It gives a long ``simulate`` with workers its head start (``kraftstokk/sim/head_start.py``)
before anything else is loaded, typer and the command line's parsing included, then runs
the command (:func:`kraftstokk.cli.run`).
"""

from __future__ import annotations

import sys
from typing import NoReturn


def run() -> NoReturn:
    from kraftstokk.sim.head_start import begin

    begin(sys.argv[1:])
    from kraftstokk.cli import run as command

    command()
