"""``kraftstokk repair``: a hand-edited deck made valid again, every change reported."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from kraftstokk.cli.app import app, handle_errors, writes_into
from kraftstokk.cli.options import CsvStyleChoice, DeckArgument, csv_style_option, out_option

REPORT_NAME = "repair-report.txt"


@app.command()
@handle_errors
@writes_into(lambda a: a["out"] if a["out"] is not None else a["deck"].parent)
def repair(
    deck: DeckArgument,
    out: Annotated[
        Path | None,
        out_option(
            "Folder for the repaired deck.json, deck.csv and deck.xlsx [default: the deck's "
            "folder]."
        ),
    ] = None,
    csv_style: Annotated[
        CsvStyleChoice | None,
        csv_style_option(
            "How deck.csv is written: en (',', '.', true/false) or nb (';', decimal commas, "
            "SANN/USANN) [default: the style of the deck.csv read, else en]."
        ),
    ] = None,
) -> None:
    """Recompute every nr., flag and war partner of a hand-edited deck, and write it valid.

    Keeps what a person decides: plants, names, figures, suits and values (a card id that
    disagrees with its suit and value follows the suit and value). Recomputes what follows
    from them with the code build uses, writes OUT/deck.json, OUT/deck.csv, OUT/deck.xlsx
    and OUT/repair-report.txt (every change, as diff shows it). A figure missing or two
    cards with the same suit and value are refused (exit 1) with what to fix. Figures
    edited in deck.csv or deck.xlsx against the deck.json beside it are recorded in the
    deck as hand corrections, which a later build --keep-from keeps (and says so). A
    deck.csv comes back in the style it was read in (a ';'-separated file with decimal
    commas and SANN/USANN stays so), unless --csv-style says otherwise. A deck file under
    another name (a copy beside the printed deck) is refused where OUT holds a deck.json
    it would replace: give --out a folder of its own.

    Examples:

    \b
        kraftstokk repair output/deck.csv
        kraftstokk repair edited/deck.xlsx --out output
        kraftstokk repair output/deck.csv --csv-style nb
    """
    from kraftstokk.atomic import write_text
    from kraftstokk.deck.csv_style import CSV_STYLES, DEFAULT_CSV_STYLE
    from kraftstokk.deck.io import (
        deck_json_beside,
        load_deck,
        load_deck_read,
        missing_print_details,
        require_as_written,
        write_deck_files,
    )
    from kraftstokk.deck.repair import repair_deck
    from kraftstokk.deck.validate import require_figures_in_range
    from kraftstokk.errors import ValidationFailed

    loaded, read_style, notes = load_deck_read(deck)
    for note in notes:
        typer.echo(f"note: {deck}: {note}")
    require_figures_in_range(loaded, str(deck))
    if csv_style is not None:
        style = CSV_STYLES[csv_style.value]
    else:
        style = read_style or CSV_STYLES[DEFAULT_CSV_STYLE]
    beside = deck_json_beside(deck) if deck.suffix.lower() != ".json" else None
    original = load_deck(beside) if beside is not None else None
    if deck.suffix.lower() == ".json":  # changed by hand: against the table written with it
        original, beside = require_as_written(deck) or (None, None)
    result = repair_deck(loaded, str(deck), original, str(beside) if beside else "")
    if not result.report.ok:  # e.g. a name too long for its card: a person must choose
        raise ValidationFailed(str(deck), [problem.line() for problem in result.report.errors])
    folder = out if out is not None else deck.parent
    _refuse_to_replace_another_deck(deck, folder)
    lines = result.lines()
    for line in lines:
        typer.echo(line)
    files = write_deck_files(result.deck, folder, style)
    report_path = folder / REPORT_NAME
    write_text(report_path, "\n".join(lines) + "\n")
    typer.echo(
        f"wrote {files.json}, {files.csv} ({style.describe()}), {files.xlsx} and {report_path}"
    )
    missing = missing_print_details(result.deck)
    if missing:
        typer.echo(
            f"note: {deck} carried no {', '.join(missing)}; render will ask for them "
            "(put the deck.json it was written with beside it and repair again)"
        )
    typer.echo(
        f"validation: {len(result.report.errors)} errors, {len(result.report.warnings)} warnings"
    )


def _refuse_to_replace_another_deck(deck: Path, folder: Path) -> None:
    """A deck file not named deck.json (a copy kept beside the printed deck, say) would
    be repaired over the deck.json, deck.csv and deck.xlsx of the deck in that folder: the
    other deck lost without a word. Refused before anything is written."""
    from kraftstokk.deck.io import deck_files
    from kraftstokk.errors import OutputError

    target = deck_files(folder).json
    if deck.suffix.lower() != ".json" or not target.exists() or target.samefile(deck):
        return
    raise OutputError(
        target,
        f"repairing {deck} would replace this deck.json (and the deck.csv and deck.xlsx "
        "written with it), which is another file: give --out a folder of its own",
    )
