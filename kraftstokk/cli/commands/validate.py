"""``kraftstokk validate``: check a deck before it goes to print."""

from __future__ import annotations

import json
from typing import Annotated

import typer

from kraftstokk.cli.app import app, handle_errors
from kraftstokk.cli.options import DEFAULT_DECK, DeckArgument, json_option


@app.command()
@handle_errors
def validate(
    deck: DeckArgument = DEFAULT_DECK,
    as_json: Annotated[bool, json_option("Print the report as JSON for machines.")] = False,
) -> None:
    """Check every number, nr., suit, value, flag and name of a deck; list all problems.

    Each problem names the card (suit, value, plant), the field, what it is and what it
    should be. The last line sums them up and says which `kraftstokk repair` recomputes
    and which must be fixed by hand. Exit 0: valid (warnings allowed, e.g. ties); 1: problems found;
    2: the file could not be read.

    Example:

    \b
        kraftstokk validate output/deck.json
        kraftstokk validate output/deck.csv --json
    """
    from kraftstokk.deck.io import load_deck_read
    from kraftstokk.deck.validate import validate_deck

    loaded, _, notes = load_deck_read(deck)
    report = validate_deck(loaded, str(deck))
    for note in notes:
        typer.echo(f"note: {deck}: {note}", err=as_json)
    if as_json:
        typer.echo(json.dumps(report.model_dump(mode="json"), indent=2, ensure_ascii=False))
    else:
        for line in report.lines():
            typer.echo(line)
        verdict = "valid" if report.ok else "NOT valid"
        typer.echo(
            f"{deck}: {verdict}: {report.cards} cards, "
            f"{len(report.errors)} errors, {len(report.warnings)} warnings"
        )
        typer.echo(f"summary: {report.summary}")
    if not report.ok:
        raise typer.Exit(1)
