"""``kraftstokk serve``: play the three games in a browser against the computer."""

from __future__ import annotations

from typing import Annotated

import typer

from kraftstokk.cli.app import app, handle_errors
from kraftstokk.cli.options import DEFAULT_DECK, DeckArgument


@app.command()
@handle_errors
def serve(
    deck: DeckArgument = DEFAULT_DECK,
    host: Annotated[
        str, typer.Option("--host", help="Address to listen on (127.0.0.1: this machine only).")
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", help="Port to listen on.")] = 8000,
    open_browser: Annotated[
        bool, typer.Option("--open", help="Open the page in the default browser.")
    ] = False,
) -> None:
    """Start a local web server: Idiot, Kraftidioten and Strømkrig against the computer.

    Open the printed address in a browser. The game is saved in that browser
    (localStorage) as the replay log `kraftstokk play --save` writes; reloading continues
    it, and the page can download it for `kraftstokk play --load`.

    Example:

    \b
        kraftstokk serve output/deck.json --open
        kraftstokk serve output/deck.csv --port 8080
    """
    from kraftstokk.web.server import serve as run

    run(deck, host, port, open_browser=open_browser, echo=typer.echo)
