"""``kraftstokk booklet``: the rules booklet (A5 PDF), optionally imposed on A4 for stapling."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from kraftstokk.cli.app import app, fail, handle_errors, writes_into
from kraftstokk.cli.options import (
    DEFAULT_DECK,
    DEFAULT_OUT,
    DeckArgument,
    language_option,
    out_option,
)


@app.command()
@handle_errors
@writes_into(lambda a: a["out"])
def booklet(
    deck: DeckArgument = DEFAULT_DECK,
    out: Annotated[Path, out_option("Folder for the PDF files.")] = DEFAULT_OUT,
    lang: Annotated[
        str | None,
        language_option(
            "The booklet's language: {languages} (every folder of kraftstokk/locales is one). "
            "Default: the deck spec's [style] language (nb for a deck without one)."
        ),
    ] = None,
    imposed: Annotated[
        bool,
        typer.Option(
            "--imposed",
            help="Also write an A4 file imposed for saddle-stitch (print duplex, flip on "
            "the short edge, fold, staple).",
        ),
    ] = False,
    printshop: Annotated[
        bool,
        typer.Option(
            "--printshop",
            help="Also write the booklet for a print shop: CMYK PDF/X-1a, A5 pages with "
            "3 mm bleed, TrimBox and BleedBox (OUT/regler-printshop.pdf or "
            "OUT/rules-en-printshop.pdf).",
        ),
    ] = False,
) -> None:
    """Write the rules booklet of the deck's games for a deck.

    A5 pages with a table of contents, the deck's special cards drawn small, a worked
    example per game with the deck's own cards, and a table of all 55 cards. Writes
    OUT/regler.pdf (nb) or OUT/rules-en.pdf (en); with --imposed also
    OUT/regler-a4-hefte.pdf or OUT/rules-en-a4-booklet.pdf (the names the language's
    locale files give). An unknown --lang is refused naming the languages there are
    (exit 2); an invalid deck is refused (exit 1, problems listed).

    Example:

    \b
        kraftstokk booklet output/deck.json
        kraftstokk booklet output/deck.json --lang en --imposed --out print/
    """
    from kraftstokk.deck.io import load_deck, require_print_details
    from kraftstokk.deck.validate import require_valid
    from kraftstokk.render.booklet import write_booklet
    from kraftstokk.render.locale import available_languages, load_locale

    languages = available_languages()
    if lang is not None and lang not in languages:
        raise fail(f"--lang {lang}: unknown language (available: {', '.join(languages)})")
    if lang is not None:
        load_locale(lang)  # a malformed locale file is reported before the deck is read
    loaded = load_deck(deck)
    require_print_details(loaded, deck)
    require_valid(loaded, str(deck))
    if lang is None:
        lang = loaded.language()
        if lang not in languages:
            raise fail(
                f"{deck}: the spec's [style] language {lang!r} is no language here "
                f"(available: {', '.join(languages)}); give --lang"
            )
    from kraftstokk.cli.progress import Display

    with Display() as display:
        files = write_booklet(
            loaded, out, lang, imposed=imposed, printshop=printshop, progress=display.factory("")
        )
    for path in files:
        typer.echo(f"wrote {path}")
