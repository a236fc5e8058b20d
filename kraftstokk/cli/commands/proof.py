"""``kraftstokk proof``: a PDF of each face to reprint, before and after, side by side."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from kraftstokk.cli.app import app, handle_errors, writes_into
from kraftstokk.cli.options import DEFAULT_OUT, out_option

PROOF_NAME = "proof.pdf"


@app.command()
@handle_errors
@writes_into(lambda a: a["out"])
def proof(
    old: Annotated[
        Path,
        typer.Argument(metavar="OLD", help="The deck printed before (deck.json, .csv, .xlsx)."),
    ],
    new: Annotated[
        Path,
        typer.Argument(metavar="NEW", help="The deck to print (deck.json, .csv, .xlsx)."),
    ],
    out: Annotated[Path, out_option(f"Folder for {PROOF_NAME}.")] = DEFAULT_OUT,
) -> None:
    """Write OUT/proof.pdf: what a reprint from OLD to NEW will print, for the eye.

    Page 1 is the reprint verdict (the one diff, repair and render --only-changed give);
    then each face to reprint, and the back when it changes, one per page: before on the
    left, after on the right, the same size, every area that prints differently marked in
    red on both. Check it before the print files go to the print shop.

    Example:

    \b
        kraftstokk proof print-2025/deck.json print-2026/deck.json --out print-2026
    """
    from kraftstokk.atomic import write_bytes
    from kraftstokk.deck.io import load_deck, require_as_printed
    from kraftstokk.deck.reprint import deck_verdict, printed_layout
    from kraftstokk.deck.validate import require_figures_in_range
    from kraftstokk.render.proof import proof_pdf

    before, after = load_deck(old), load_deck(new)
    for path, deck in ((old, before), (new, after)):
        require_figures_in_range(deck, str(path))
    require_as_printed(old, before)
    verdict = deck_verdict(old, before, after)
    pdf = proof_pdf(before, after, verdict, (str(old), str(new)), printed_layout(old, before))
    target = out / PROOF_NAME
    write_bytes(target, pdf)
    typer.echo(verdict.summary)
    typer.echo(f"wrote {target}")
