"""``kraftstokk render``: card sheets, the print-shop file, PNG previews and the tuck box."""

from __future__ import annotations

import dataclasses
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from kraftstokk.cli.app import app, fail, handle_errors, writes_into
from kraftstokk.cli.options import (
    DEFAULT_DECK,
    DEFAULT_OUT,
    DeckArgument,
    count,
    number,
    out_option,
)

if TYPE_CHECKING:
    from kraftstokk.render.printshop import PrintshopOrder


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
    tabletop = "tabletop"


class OrderChoice(StrEnum):
    alternate = "alternate"
    backs_first = "backs-first"
    backs_last = "backs-last"


ORDERS: dict[OrderChoice, PrintshopOrder] = {
    OrderChoice.alternate: "alternate",
    OrderChoice.backs_first: "backs-first",
    OrderChoice.backs_last: "backs-last",
}


def refuse_bad_files(kind: str, good: int, bad: list[str]) -> None:
    """After a listing: each file that could not be used, then one error line (exit 2)."""
    if not bad:
        return
    if len(bad) == 1:
        raise fail(bad[0])
    for line in bad:
        typer.echo(f"  {line}", err=True)
    raise fail(f"{len(bad)} {kind} files cannot be used (listed above); {good} listed")


@app.command()
@handle_errors
@writes_into(lambda a: None if a["list_presets"] or a["list_layouts"] else a["out"])
def render(
    deck: DeckArgument = DEFAULT_DECK,
    out: Annotated[Path, out_option("Folder for the PDFs and png/.")] = DEFAULT_OUT,
    paper: Annotated[
        PaperChoice | None,
        typer.Option("--paper", help="Sheet paper size [default: the deck's style, else a4]."),
    ] = None,
    preset: Annotated[
        str | None,
        typer.Option(
            "--preset",
            metavar="NAME",
            help="Printer preset [default: the deck's [print] preset, else home sheets "
            "and the offset print-shop file].",
        ),
    ] = None,
    list_presets: Annotated[
        bool, typer.Option("--list-presets", help="List the printer presets and exit.")
    ] = False,
    bleed: Annotated[
        float | None,
        typer.Option(
            "--bleed",
            metavar="MM",
            parser=number("--bleed", float, 0.0, 10.0, unit="mm"),  # render.outputs.MAX_BLEED
            help="Bleed in mm [default: the preset's, 3 mm on sheets].",
        ),
    ] = None,
    duplex: Annotated[
        DuplexChoice,
        typer.Option("--duplex", help="Which edge the printer flips the sheets on."),
    ] = DuplexChoice.long,
    only: Annotated[
        OnlyChoice | None, typer.Option("--only", help="Write one output only.")
    ] = None,
    printshop_order: Annotated[
        OrderChoice | None,
        typer.Option(
            "--printshop-order",
            help="Print-shop pages: each back after its front, before it, or all at the end "
            "[default: the preset's].",
        ),
    ] = None,
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
    tabletop_url: Annotated[
        str | None,
        typer.Option(
            "--tabletop-url",
            metavar="URL",
            help="With --only tabletop: where the tabletop folder will be on the web, so the "
            "Tabletop Simulator deck names its images there [default: the files here, file://].",
        ),
    ] = None,
    box_cards: Annotated[
        int,
        typer.Option(
            "--box-cards",
            metavar="N",
            parser=count("--box-cards", 1, 200),  # render.box's bounds
            help="Tuck box: how many cards it holds.",
        ),
    ] = 55,
    card_thickness: Annotated[
        float | None,
        typer.Option(
            "--card-thickness",
            metavar="MM",
            parser=number("--card-thickness", float, 0.1, 1.0, unit="mm"),
            help="Tuck box: one card's thickness in mm [default: the layout's, 0.32 mm].",
        ),
    ] = None,
    only_changed: Annotated[
        Path | None,
        typer.Option(
            "--only-changed",
            metavar="OLD",
            help="Reprint from the deck OLD (the one printed before): only the faces that "
            "print differently (each with its back), and the back image only when it "
            "changed, as kraftstokk-a4-reprint.pdf, kraftstokk-printshop-reprint.pdf and "
            "png-reprint/, with reprint.txt saying which and why (kraftstokk diff's verdict).",
        ),
    ] = None,
) -> None:
    """Render a valid deck to print-ready files; an invalid deck is refused (exit 1).

    Writes kraftstokk-a4.pdf (or -letter): as many cards per page as fit with full bleed
    (poker: 3 x 3 on A4, 2 x 4 turned on Letter), fronts and mirrored backs on alternate
    pages for duplex printing, then a duplex test sheet; print at actual size.
    kraftstokk-printshop.pdf: one card per page for an offset printer (CMYK PDF/X-1a,
    3 mm bleed, crop marks, TrimBox and BleedBox). png/: one 300 dpi PNG per card, the
    back and a contact sheet, and each with bleed (NN-card-bleed.png) for upload.
    --preset NAME makes that printer's file instead (kraftstokk-NAME.pdf, or its sheets).
    With --only box: the tuck box (not written otherwise): kraftstokk-box.pdf to print at
    home and cut out, and for the print-shop preset (offset, or --preset)
    kraftstokk-box-NAME.pdf (CMYK PDF/X, die lines in the spot colours CutContour and
    Crease) with kraftstokk-box-NAME-dieline.pdf (the die lines alone, for the box
    maker). With --only tabletop (not written otherwise): tabletop/, the deck for
    Tabletop Simulator (a 10 x 7 face sheet, the back, a saved object naming every card)
    and one image per card with a manifest for Tabletopia or Screentop; its README.txt
    says how to load it. Cards are drawn in the layout --layout names, else the deck's.
    With --only-changed OLD: the same files of only the cards to reprint (-reprint in
    their names, so the whole deck's files stay), plus reprint.txt.

    Example:

    \b
        kraftstokk render output/deck.json --out output
        kraftstokk render output/deck.json --paper letter --duplex short --only sheets
        kraftstokk render output/deck.json --layout bridge --only box --card-thickness 0.32
        kraftstokk render output/deck.json --only tabletop
        kraftstokk render output/deck.json --preset drivethrucards
        kraftstokk render print-2026/deck.json --only-changed print-2025/deck.json
        kraftstokk render --list-layouts
        kraftstokk render --list-presets
    """
    from kraftstokk.design.layout import layout_listing, load_layout
    from kraftstokk.design.presets import load_preset, preset_listing, preset_of_deck

    if list_presets:
        presets, bad = preset_listing()
        for known in presets:
            typer.echo(known.line())
        refuse_bad_files("preset", len(presets), bad)
        return
    if list_layouts:
        layouts, bad = layout_listing()
        for card in layouts:
            typer.echo(f"{card.name:<14} {card.description}")
        refuse_bad_files("layout", len(layouts), bad)
        return
    from kraftstokk.deck.io import load_deck, require_as_printed, require_print_details
    from kraftstokk.deck.validate import require_valid
    from kraftstokk.errors import RenderError
    from kraftstokk.render.box import BoxOptions
    from kraftstokk.render.outputs import (
        BOX_IS_NO_CARD,
        TABLETOP_IS_WHOLE,
        RenderOptions,
        render_deck,
    )

    loaded = load_deck(deck)
    require_print_details(loaded, deck)
    preset_name = preset or preset_of_deck(loaded)
    chosen_preset = load_preset(preset_name) if preset_name else None  # unknown: exit 2
    preset_layout = chosen_preset.layout if chosen_preset else None
    chosen = load_layout(layout or preset_layout) if layout or preset_layout else None
    require_valid(loaded, str(deck), chosen)  # an unknown [style] layout: a deck problem
    style_paper = loaded.style().get("paper")
    chosen_paper = paper.value if paper else style_paper if style_paper == "letter" else "a4"
    options = RenderOptions(
        paper=chosen_paper,
        duplex="short" if duplex is DuplexChoice.short else "long",
        bleed=bleed,
        printshop_order=None if printshop_order is None else ORDERS[printshop_order],
        only=None if only is None else (only.value,),
        layout=layout or preset_layout,
        preset=preset,
        box=BoxOptions(cards=box_cards, thickness=card_thickness, paper=chosen_paper),
        tabletop_url=tabletop_url,
    )
    if only_changed is not None:
        if only is OnlyChoice.box:
            raise RenderError(BOX_IS_NO_CARD)
        if only is OnlyChoice.tabletop:
            raise RenderError(TABLETOP_IS_WHOLE)
        from kraftstokk.deck.validate import require_figures_in_range
        from kraftstokk.render.reprint import nothing_to_reprint, plan_reprint

        old = load_deck(only_changed)
        require_figures_in_range(old, str(only_changed))
        require_as_printed(only_changed, old)
        reprint, verdict = plan_reprint(only_changed, old, loaded, options)
        typer.echo(verdict.summary)
        if not reprint.faces and not reprint.back:
            removed = nothing_to_reprint(out)
            gone = ", ".join(map(str, removed))
            typer.echo(
                "nothing written: every face and the back print as in "
                + str(only_changed)
                + (f"; removed the earlier reprint's {gone}" if removed else "")
            )
            return
        options = dataclasses.replace(options, reprint=reprint)
    from kraftstokk.cli.progress import Display

    with Display() as display:
        result = render_deck(loaded, out, options, display.factory("pages"))
    folder = out / "tabletop"
    tabletop = [path for path in result.files if folder in path.parents]
    for path in result.files:
        if path.suffix in (".pdf", ".txt") and path not in tabletop:
            typer.echo(f"wrote {path}")
    pngs = [path for path in result.files if path.suffix == ".png" and path not in tabletop]
    if pngs:
        typer.echo(f"wrote {len(pngs)} PNGs in {pngs[0].parent}")
    if tabletop:
        typer.echo(
            f"wrote {len(tabletop)} files in {folder} (its README.txt says how to load them)"
        )
    if result.stale:
        one = len(result.stale) == 1
        typer.echo(
            f"warning: {', '.join(map(str, result.stale))} {'was' if one else 'were'} "
            f"rendered from another deck (build {result.stale_build}), not from {deck}: "
            f"render again without --only, or remove {'it' if one else 'them'} before the "
            "folder goes to print"
        )
