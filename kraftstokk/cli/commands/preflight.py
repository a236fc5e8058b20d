"""``kraftstokk preflight``: check a PDF against a printer preset before it goes out."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from kraftstokk.cli.app import app, handle_errors
from kraftstokk.cli.options import json_option, seconds
from kraftstokk.limits import PREFLIGHT_SECONDS

DEFAULT_PRESET = "offset"
#: ``--layout any``: no card size asked of the TrimBoxes (a tuck box's is the die's).
ANY_SIZE = "any"


@app.command()
@handle_errors
def preflight(
    pdf: Annotated[Path, typer.Argument(metavar="FILE.pdf", help="The PDF to check.")],
    preset: Annotated[
        str | None,
        typer.Option(
            "--preset",
            metavar="NAME",
            help="The printer preset to check against (render --list-presets shows them) "
            "[default: the one the file asks for: its PDF/X output intent, else its name as "
            f"render writes it (kraftstokk-a4.pdf), else {DEFAULT_PRESET}].",
        ),
    ] = None,
    layout: Annotated[
        str | None,
        typer.Option(
            "--layout",
            metavar="NAME",
            help="Card layout whose size every TrimBox must have [default: the preset's; "
            f"none: any size]; {ANY_SIZE}: any size, as for a tuck box (kraftstokk-box-NAME.pdf).",
        ),
    ] = None,
    as_json: Annotated[bool, json_option("Print the report as JSON for machines.")] = False,
    max_time: Annotated[
        float,
        typer.Option(
            "--max-time",
            metavar="S",
            parser=seconds("--max-time", 3600.0),
            help="Seconds the check may take before it stops (a file too complex to check).",
        ),
    ] = PREFLIGHT_SECONDS,
) -> None:
    """Check a PDF (ours or anyone's) against a printer's rules, as a print shop would.

    Checks page boxes (and the card size: the preset's layout, or --layout), colour
    spaces, total ink, black text in four inks, fonts, text and line sizes, image
    resolution, transparency, the PDF/X keys, text in the safe area and, on sheets, the
    marks' distance from the paper's edge and the bleed past the outer cuts; prints a
    table. Exit 0: it passes; 1: it fails, each failure named (page, object, value,
    limit); 2: the file cannot be read, is encrypted, or needs more work than preflight
    does on one file (2 000 000 content operators, each form counted every time it is
    drawn; 200 000 form and image draws; 500 000 painted objects; --max-time seconds).

    Without --preset, the file says which preset: a PDF/X file by its version and output
    intent (PDF/X-1a:2003 for FOGRA39: offset), another by the name render gave it
    (kraftstokk-a4.pdf: home-a4; kraftstokk-box-NAME.pdf: NAME, any card size); the
    first line says which and why.

    Example:

    \b
        kraftstokk preflight output/kraftstokk-a4.pdf
        kraftstokk preflight output/kraftstokk-drivethrucards.pdf --preset drivethrucards
        kraftstokk preflight output/kraftstokk-a4.pdf --preset home-a4 --json
        kraftstokk preflight output/kraftstokk-printshop.pdf --layout bridge
        kraftstokk preflight output/kraftstokk-box-offset.pdf --layout any
    """
    from kraftstokk.design.layout import load_layout
    from kraftstokk.design.presets import load_preset
    from kraftstokk.render.preflight import WorkBudget
    from kraftstokk.render.preflight import preflight as check

    box = False
    why = "--preset"
    if preset is None:
        from kraftstokk.render.preflight.detect import detect_preset

        found = detect_preset(pdf)
        preset, why, box = found.preset, found.why, found.box
    chosen = load_preset(preset)
    layout_name = layout or (ANY_SIZE if box else chosen.layout)
    card = load_layout(layout_name) if layout_name and layout_name != ANY_SIZE else None
    trim = (card.width, card.height) if card is not None else None
    report = check(pdf, chosen, trim_mm=trim, budget=WorkBudget(max_seconds=max_time))
    if as_json:
        document = {**report.to_json(), "preset_from": why}
        typer.echo(json.dumps(document, indent=2, ensure_ascii=False))
    else:
        typer.echo(f"preset {chosen.name} ({why})")
        for line in report.lines():
            typer.echo(line)
    if not report.passed:
        raise typer.Exit(1)
