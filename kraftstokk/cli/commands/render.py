"""``kraftstokk render``: print-ready card sheets, the print-shop file and PNG previews."""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from kraftstokk.cli.app import app, handle_errors
from kraftstokk.cli.options import DEFAULT_DECK, DEFAULT_OUT, DeckArgument, out_option


class PaperChoice(StrEnum):
    a4 = "a4"
    letter = "letter"


class DuplexChoice(StrEnum):
    long = "long"
    short = "short"


class OnlyChoice(StrEnum):
    sheets = "sheets"
    printshop = "printshop"
    png = "png"


class OrderChoice(StrEnum):
    alternate = "alternate"
    backs_last = "backs-last"


@app.command()
@handle_errors
def render(
    deck: DeckArgument = DEFAULT_DECK,
    out: Annotated[Path, out_option("Folder for the PDFs and png/.")] = DEFAULT_OUT,
    paper: Annotated[
        PaperChoice | None,
        typer.Option("--paper", help="Sheet paper size [default: the deck's style, else a4]."),
    ] = None,
    bleed: Annotated[
        float, typer.Option("--bleed", help="Bleed in mm: print-shop pages and sheet edges.")
    ] = 3.0,
    duplex: Annotated[
        DuplexChoice,
        typer.Option("--duplex", help="Which edge the printer flips the sheets on."),
    ] = DuplexChoice.long,
    only: Annotated[
        OnlyChoice | None, typer.Option("--only", help="Write one output only.")
    ] = None,
    printshop_order: Annotated[
        OrderChoice,
        typer.Option("--printshop-order", help="Backs after each front, or all at the end."),
    ] = OrderChoice.alternate,
) -> None:
    """Render a valid deck to print-ready files; an invalid deck is refused (exit 1).

    Writes kraftstokk-a4.pdf (or -letter): 3 x 3 cards per page, fronts and mirrored
    backs on alternate pages for duplex printing, then a duplex test sheet; print at
    actual size. kraftstokk-printshop.pdf: one card per page with bleed, TrimBox and
    BleedBox set. png/: one 300 dpi PNG per card, the back and a contact sheet.

    Example:

    \b
        kraftstokk render output/deck.json --out output
        kraftstokk render output/deck.json --paper letter --duplex short --only sheets
    """
    from kraftstokk.deck.io import load_deck
    from kraftstokk.deck.validate import require_valid
    from kraftstokk.render.outputs import OUTPUTS, RenderOptions, render_deck

    loaded = load_deck(deck)
    require_valid(loaded, str(deck))
    style_paper = loaded.style().get("paper")
    chosen_paper = paper.value if paper else style_paper if style_paper == "letter" else "a4"
    options = RenderOptions(
        paper=chosen_paper,
        duplex="short" if duplex is DuplexChoice.short else "long",
        bleed=bleed,
        printshop_order="backs-last" if printshop_order is OrderChoice.backs_last else "alternate",
        only=OUTPUTS if only is None else (only.value,),
    )
    result = render_deck(loaded, out, options)
    for path in result.files:
        if path.suffix == ".pdf":
            typer.echo(f"wrote {path}")
    if result.png_count:
        typer.echo(f"wrote {result.png_count} PNGs in {out / 'png'}")
