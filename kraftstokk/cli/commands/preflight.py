"""``kraftstokk preflight``: check a PDF against a printer preset before it goes out."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from kraftstokk.cli.app import app, handle_errors
from kraftstokk.cli.options import json_option

DEFAULT_PRESET = "offset"


@app.command()
@handle_errors
def preflight(
    pdf: Annotated[Path, typer.Argument(metavar="FILE.pdf", help="The PDF to check.")],
    preset: Annotated[
        str,
        typer.Option(
            "--preset",
            metavar="NAME",
            help="The printer preset to check against (render --list-presets shows them).",
        ),
    ] = DEFAULT_PRESET,
    as_json: Annotated[bool, json_option("Print the report as JSON for machines.")] = False,
) -> None:
    """Check a PDF (ours or anyone's) against a printer's rules, as a print shop would.

    Checks page boxes, colour spaces, total ink, black text in four inks, fonts, text
    and line sizes, image resolution, transparency and the PDF/X keys, and prints a
    table. Exit 0: it passes; 1: it fails, each failure named (page, object, value,
    limit); 2: the file cannot be read.

    Example:

    \b
        kraftstokk preflight output/kraftstokk-drivethrucards.pdf --preset drivethrucards
        kraftstokk preflight output/kraftstokk-a4.pdf --preset home-a4 --json
    """
    from kraftstokk.render.preflight import preflight as check
    from kraftstokk.render.presets import load_preset

    report = check(pdf, load_preset(preset))
    if as_json:
        typer.echo(json.dumps(report.to_json(), indent=2, ensure_ascii=False))
    else:
        for line in report.lines():
            typer.echo(line)
    if not report.passed:
        raise typer.Exit(1)
