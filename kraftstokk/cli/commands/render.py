"""``kraftstokk render``: card sheets, the print-shop file, PNG previews and the tuck box."""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from kraftstokk.cli.app import app, handle_errors
from kraftstokk.cli.options import DEFAULT_DECK, DEFAULT_OUT, DeckArgument, number, out_option


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
    box = "box"


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
        float,
        typer.Option(
            "--bleed",
            metavar="MM",
            parser=number("--bleed", float, 0.0, 10.0, unit="mm"),  # render.outputs.MAX_BLEED
            help="Bleed in mm: print-shop pages and sheet edges.",
        ),
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
    layout: Annotated[
        str | None,
        typer.Option(
            "--layout",
            help="Card layout (size and design) [default: the deck's [style] layout, else poker].",
        ),
    ] = None,
    list_layouts: Annotated[
        bool, typer.Option("--list-layouts", help="List the card layouts and exit.")
    ] = False,
    box_cards: Annotated[
        int, typer.Option("--box-cards", help="Tuck box: how many cards it holds.")
    ] = 55,
    card_thickness: Annotated[
        float, typer.Option("--card-thickness", help="Tuck box: one card's thickness in mm.")
    ] = 0.3,
) -> None:
    """Render a valid deck to print-ready files; an invalid deck is refused (exit 1).

    Writes kraftstokk-a4.pdf (or -letter): as many cards per page as fit with full bleed
    (poker: 3 x 3 on A4, 2 x 4 turned on Letter), fronts and mirrored backs on alternate
    pages for duplex printing, then a duplex test sheet; print at actual size.
    kraftstokk-printshop.pdf: one card per page with bleed, TrimBox and BleedBox set.
    png/: one 300 dpi PNG per card, the back and a contact sheet.
    With --only box: kraftstokk-box.pdf, a tuck-box dieline for the deck (not written
    otherwise). Cards are drawn in the layout --layout names, else the deck's.

    Example:

    \b
        kraftstokk render output/deck.json --out output
        kraftstokk render output/deck.json --paper letter --duplex short --only sheets
        kraftstokk render output/deck.json --layout bridge --only box --card-thickness 0.32
        kraftstokk render --list-layouts
    """
    from kraftstokk.render.layout import layout_name_of, layout_names, load_layout

    if list_layouts:
        for name in layout_names():
            typer.echo(f"{name:<14} {load_layout(name).description}")
        return
    from kraftstokk.deck.io import load_deck, require_print_details
    from kraftstokk.deck.validate import require_valid
    from kraftstokk.render.box import BoxOptions
    from kraftstokk.render.outputs import DEFAULT_OUTPUTS, RenderOptions, render_deck

    loaded = load_deck(deck)
    require_print_details(loaded, deck)
    chosen = load_layout(layout) if layout else None  # an unknown --layout: exit 2
    require_valid(loaded, str(deck), chosen)  # an unknown [style] layout: a deck problem
    card_layout = chosen or load_layout(layout_name_of(loaded.style()))
    style_paper = loaded.style().get("paper")
    chosen_paper = paper.value if paper else style_paper if style_paper == "letter" else "a4"
    options = RenderOptions(
        paper=chosen_paper,
        duplex="short" if duplex is DuplexChoice.short else "long",
        bleed=bleed,
        printshop_order="backs-last" if printshop_order is OrderChoice.backs_last else "alternate",
        only=DEFAULT_OUTPUTS if only is None else (only.value,),
        layout=card_layout.name,
        box=BoxOptions(cards=box_cards, thickness=card_thickness, paper=chosen_paper),
    )
    result = render_deck(loaded, out, options)
    for path in result.files:
        if path.suffix == ".pdf":
            typer.echo(f"wrote {path}")
    if result.png_count:
        typer.echo(f"wrote {result.png_count} PNGs in {out / 'png'}")
