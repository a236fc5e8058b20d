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
    keep_from: Annotated[
        Path | None,
        typer.Option(
            "--keep-from",
            metavar="DECK",
            help="With two snapshots: build both keeping the places of DECK (the deck.json "
            "printed), as build --keep-from does; without it they are dealt afresh.",
        ),
    ] = None,
) -> None:
    """Show what a reprint changes: plants entering or leaving, figures, nr., suit/value.

    Given two snapshots, both are built into decks with the same spec first (dealt
    afresh, or keeping the places of --keep-from DECK), so the table shows exactly what
    the new print would change; a few lines say what changed in the source outside the
    deck too (new plants, plants gone, renamed, owners merged, figures revised). The last
    line says how many cards must be reprinted and why. Exit 0 whether or not there are
    differences; 2 when a file cannot be read.

    Example:

    \b
        kraftstokk diff output/deck.json new/deck.json
        kraftstokk diff sources/jrc-2024-01.csv sources/nve-2026-11-29.csv --json
        kraftstokk diff sources/nve-2025-11.csv sources/nve-2026-11.csv \\
            --keep-from print-2025/deck.json
    """
    from kraftstokk.deck.diff import diff_files

    result = diff_files(old, new, spec, keep_from)
    if as_json:
        typer.echo(json.dumps(result.model_dump(mode="json"), indent=2, ensure_ascii=False))
        return
    for line in result.lines():
        typer.echo(line)
