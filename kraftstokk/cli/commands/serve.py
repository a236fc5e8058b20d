"""``kraftstokk serve``: play the three games in a browser against the computer."""

from __future__ import annotations

from typing import Annotated

import typer

from kraftstokk.cli.app import app, handle_errors
from kraftstokk.cli.options import DEFAULT_DECK, DeckArgument, count

#: The bounds web.server checks too (kept here so that the help loads no web module).
MAX_SERVE_WORKERS = 32
MAX_OPEN_GAMES = 5_000


@app.command()
@handle_errors
def serve(
    deck: DeckArgument = DEFAULT_DECK,
    host: Annotated[
        str, typer.Option("--host", help="Address to listen on (127.0.0.1: this machine only).")
    ] = "127.0.0.1",
    port: Annotated[
        int,
        typer.Option(
            "--port", metavar="N", parser=count("--port", 1, 65535), help="Port to listen on."
        ),
    ] = 8000,
    open_browser: Annotated[
        bool, typer.Option("--open", help="Open the page in the default browser.")
    ] = False,
    workers: Annotated[
        int,
        typer.Option(
            "--workers",
            metavar="N",
            parser=count("--workers", 1, MAX_SERVE_WORKERS),
            help="Processes serving the page (1-32); any of them can serve any game.",
        ),
    ] = 1,
    max_games: Annotated[
        int,
        typer.Option(
            "--max-games",
            metavar="N",
            parser=count("--max-games", 1, MAX_OPEN_GAMES),
            help="Open games kept per process; the oldest one is forgotten past it "
            "(its page continues it from its save).",
        ),
    ] = 200,
    public_url: Annotated[
        list[str] | None,
        typer.Option(
            "--public-url",
            help="An address a TLS reverse proxy publishes the page at "
            "(https://cards.example.org); its name passes the Host and Origin checks. "
            "Repeat it for more names.",
        ),
    ] = None,
    allow_seed: Annotated[
        bool,
        typer.Option(
            "--allow-seed",
            help="Deal a new game from the seed its request names (tests, bug reports); "
            "without it every deal is the server's own.",
        ),
    ] = False,
) -> None:
    """Start a local web server: Idiot, Kraftidioten and Strømkrig against the computer.

    Open the printed address in a browser. If the player wishes, each game is kept in
    that browser (localStorage), sealed with a key in the user's data folder so that the
    cards stay hidden; reloading continues it, and a finished game downloads as the log
    `kraftstokk play --load` reads. Only that page can drive the server (Host and Origin
    are checked). Ctrl-C stops it.

    Example:

    \b
        kraftstokk serve output/deck.json --open
        kraftstokk serve output/deck.csv --port 8080
        kraftstokk serve --workers 2 --max-games 500
        kraftstokk serve --workers 2 --public-url https://cards.example.org
    """
    from kraftstokk.cli import engine_note
    from kraftstokk.games.packages import package_names
    from kraftstokk.web.server import serve as run

    engine_note.say(package_names())
    run(
        deck,
        host,
        port,
        open_browser=open_browser,
        workers=workers,
        max_games=max_games,
        public_urls=public_url or (),
        allow_seed=allow_seed,
        echo=typer.echo,
    )
