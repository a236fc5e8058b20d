"""``kraftstokk diff``: what a reprint changes between two decks or two snapshots."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from kraftstokk.cli.app import app, handle_errors
from kraftstokk.cli.options import DEFAULT_SPEC, json_option, spec_option


@app.command()
@handle_errors
def diff(
    old: Annotated[
        Path,
        typer.Argument(
            metavar="OLD", help="Old deck (deck.json, deck.csv, deck.xlsx) or snapshot CSV."
        ),
    ],
    new: Annotated[
        Path,
        typer.Argument(
            metavar="NEW", help="New deck (deck.json, deck.csv, deck.xlsx) or snapshot CSV."
        ),
    ],
    spec: Annotated[
        Path, spec_option("Deck spec used to build decks from snapshot CSVs.")
    ] = DEFAULT_SPEC,
    as_json: Annotated[bool, json_option("Print the diff as JSON.")] = False,
) -> None:
    """Show what a reprint changes: plants entering or leaving, figures, nr., suit/value.

    Given two snapshots, both are built into decks with the same spec first, so the
    table shows exactly what the new print would change. The last line says how many
    cards must be reprinted and why. Exit 0 whether or not there are differences; 2 when
    a file cannot be read.

    Example:

    \b
        kraftstokk diff output/deck.json new/deck.json
        kraftstokk diff sources/jrc-2024-01.csv sources/nve-2026-11-29.csv --json
    """
    from kraftstokk.deck.diff import diff_files

    result = diff_files(old, new, spec)
    if as_json:
        typer.echo(json.dumps(result.model_dump(mode="json"), indent=2, ensure_ascii=False))
        return
    for line in result.lines():
        typer.echo(line)
