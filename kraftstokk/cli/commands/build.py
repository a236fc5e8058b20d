"""``kraftstokk build`` and ``kraftstokk spec-schema``: a deck from a spec and a snapshot."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from kraftstokk.cli.app import app, handle_errors, writes_into
from kraftstokk.cli.options import (
    DEFAULT_OUT,
    DEFAULT_SPEC,
    CsvStyleChoice,
    csv_style_option,
    out_option,
    spec_option,
)


@app.command()
@handle_errors
@writes_into(lambda a: a["out"])
def build(
    spec: Annotated[
        Path, spec_option("Deck spec (TOML); its snapshot path is relative to it.")
    ] = DEFAULT_SPEC,
    out: Annotated[Path, out_option("Folder for deck.json, deck.csv and deck.xlsx.")] = DEFAULT_OUT,
    keep_from: Annotated[
        Path | None,
        typer.Option(
            "--keep-from",
            metavar="DECK",
            help="Reprint from this previous deck.json: plants that stay keep their suit and "
            "value, entering plants take the freed places (the spec's policy.keep).",
        ),
    ] = None,
    pin: Annotated[
        list[str] | None,
        typer.Option(
            "--pin",
            metavar="PLANT",
            help="Keep this plant in the deck (id, N448 or 448, or name; repeatable): added "
            "to the spec's [selection] pinned for this build. With --keep-from it keeps its "
            "card too. diff suggests it when a plant that is still in the snapshot leaves.",
        ),
    ] = None,
    csv_style: Annotated[
        CsvStyleChoice,
        csv_style_option(
            "How deck.csv is written: en (',' between cells, '.' decimals, true/false) or nb, "
            "what a Norwegian spreadsheet expects (';', decimal commas, SANN/USANN)."
        ),
    ] = CsvStyleChoice.en,
) -> None:
    """Build the 55-card deck (52 plants + 3 jokers) from a deck spec and its snapshot.

    Selects the plants, deals suits and values, ranks every category (nr. 1 = highest,
    ties broken by the spec's tie-break rule), derives the game flags, and prints a short
    report listing every tie. The new deck is validated before anything is written: with
    errors the exit code is 1 and deck.json, deck.csv and deck.xlsx stay as they were; a
    valid deck replaces all three. With --keep-from (or policy.keep in the spec) a reprint
    changes only what changed: the report says which plants left, which entered and which
    card each took. Plants are matched by plant key (JRC N448 is NVE 448). Places and types
    the snapshot lacks (NVE's API has no coordinates) are carried from the previous deck
    and the spec's carry_from, and the report lists what it carried and what it could not;
    hand corrections ([figures]) are applied and listed.

    deck.xlsx holds the cards as typed cells (numbers, true/false, text), which any
    spreadsheet opens without converting a figure. deck.csv is text a spreadsheet reads
    by its language: a Norwegian one takes the en style's 20.5 for the 20th of May, so
    for it write --csv-style nb.

    Examples:

    \b
        kraftstokk build --spec sources/deck.toml --out output
        kraftstokk build --keep-from print-2024/deck.json --out output
        kraftstokk build --keep-from print-2024/deck.json --pin N1699 --out output
        kraftstokk build --csv-style nb
    """
    from kraftstokk.deck.build import build_from_spec_file
    from kraftstokk.deck.csv_style import CSV_STYLES
    from kraftstokk.deck.io import write_deck_files
    from kraftstokk.deck.validate import validate_deck

    result = build_from_spec_file(spec, keep_from=keep_from, out_dir=out, pins=pin or ())
    for line in result.report.lines():
        typer.echo(line)
    report = validate_deck(result.deck, str(out / "deck.json"))
    typer.echo(f"validation: {len(report.errors)} errors, {len(report.warnings)} warnings")
    for problem in report.warnings:
        if problem.rule != "tie":  # ties are listed in the report above
            typer.echo(f"  {problem.line()}")
    if not report.ok:
        for problem in report.errors:
            typer.echo(f"  {problem.line()}", err=True)
        typer.echo(f"nothing written: {out} keeps its previous deck", err=True)
        raise typer.Exit(1)
    files = write_deck_files(result.deck, out, CSV_STYLES[csv_style.value])
    typer.echo(f"wrote {files.names()} ({len(result.deck.cards)} cards)")


@app.command("spec-schema")
@handle_errors
def spec_schema() -> None:
    """Print the JSON Schema of the deck spec (sources/deck.toml).

    Example:

    \b
        kraftstokk spec-schema > deck-spec.schema.json
    """
    from kraftstokk.deck.spec import spec_json_schema

    typer.echo(spec_json_schema(), nl=False)
