"""``kraftstokk booklet``: the rules booklet (A5 PDF), optionally imposed on A4 for stapling."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from kraftstokk.cli.app import app, fail, handle_errors
from kraftstokk.cli.options import DEFAULT_DECK, DEFAULT_OUT, DeckArgument, out_option


@app.command()
@handle_errors
def booklet(
    deck: DeckArgument = DEFAULT_DECK,
    out: Annotated[Path, out_option("Folder for the PDF files.")] = DEFAULT_OUT,
    lang: Annotated[
        str, typer.Option("--lang", "-l", help="nb (Norwegian bokmål) or en (English).")
    ] = "nb",
    imposed: Annotated[
        bool,
        typer.Option(
            "--imposed",
            help="Also write an A4 file imposed for saddle-stitch (print duplex, flip on "
            "the short edge, fold, staple).",
        ),
    ] = False,
) -> None:
    """Write the rules booklet of Idiot, Kraftidioten and Strømkrig for a deck.

    A5 pages with a table of contents, the deck's special cards drawn small, a worked
    example per game with the deck's own cards, and a table of all 55 cards. Writes
    OUT/regler.pdf (nb) or OUT/rules-en.pdf (en); with --imposed also
    OUT/regler-a4-hefte.pdf or OUT/rules-en-a4-booklet.pdf. An invalid deck is refused
    (exit 1, problems listed).

    Example:

    \b
        kraftstokk booklet output/deck.json
        kraftstokk booklet output/deck.json --lang en --imposed --out print/
    """
    from kraftstokk.deck.io import load_deck, require_print_details
    from kraftstokk.deck.validate import require_valid
    from kraftstokk.render.booklet import write_booklet
    from kraftstokk.render.booklet_text import LANGUAGES, Language

    if lang not in LANGUAGES:
        raise fail(f"--lang {lang}: unknown language (choose from {', '.join(LANGUAGES)})")
    loaded = load_deck(deck)
    require_print_details(loaded, deck)
    require_valid(loaded, str(deck))
    language: Language = "nb" if lang == "nb" else "en"
    for path in write_booklet(loaded, out, language, imposed=imposed):
        typer.echo(f"wrote {path}")
