"""``kraftstokk export-web``: the three games as a static, offline web site."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from kraftstokk.cli.app import app, fail, handle_errors, writes_into
from kraftstokk.cli.options import DECK_HELP, DEFAULT_DECK


def _target(arguments: dict[str, Any]) -> Path | None:
    paths = arguments["paths"] or []
    return paths[-1] if 1 <= len(paths) <= 2 else None


@app.command("export-web")
@handle_errors
@writes_into(_target)
def export_web(
    paths: Annotated[
        list[Path],
        typer.Argument(
            metavar="[DECK] DEPLOY-DIR",
            help=f"{DECK_HELP} [default: {DEFAULT_DECK}] DEPLOY-DIR: the folder to write "
            "(new, empty, or an earlier export, which is replaced whole).",
            show_default=False,
        ),
    ],
    pyodide: Annotated[
        Path | None,
        typer.Option(
            "--pyodide",
            metavar="DIR",
            help="Pyodide's npm package folder [default: $KRAFTSTOKK_PYODIDE, else "
            ".venv/npm/node_modules/pyodide, where make pyodide installs it].",
        ),
    ] = None,
) -> None:
    """Write the games as static files any web host serves as they are.

    The folder holds the page, the deck's card faces, the rules, and the game engine,
    which runs in the player's browser (Python on Pyodide, copied in: no CDN, no server
    code, no secret). After the first visit the game plays offline. Publish the folder
    as it is: a plain `python -m http.server`, GitHub Pages or an S3 bucket serve it.
    One person plays against the computer on their own device: the computer's cards are
    within reach of the browser's developer tools (docs/publish.md).

    Example:

    \b
        kraftstokk export-web site/
        kraftstokk export-web output/deck.json site/
        python -m http.server --directory site --bind 127.0.0.1 8000
    """
    if not 1 <= len(paths) <= 2:
        raise fail(f"export-web takes [DECK] DEPLOY-DIR, not {len(paths)} arguments")
    deck_path, folder = (DEFAULT_DECK, paths[0]) if len(paths) == 1 else (paths[0], paths[1])
    from kraftstokk.web import folders
    from kraftstokk.web.export import export_web as export
    from kraftstokk.web.server import load_playable_deck

    deck = load_playable_deck(deck_path)
    done = export(
        deck,
        folder,
        runtime=pyodide,
        cache=folders.cache_dir(),
        progress=lambda line: typer.echo(f"kraftstokk export-web: {line}"),
    )
    typer.echo(
        f"kraftstokk export-web: {deck.title} {deck.edition} into {done.folder}/: "
        f"{done.files} files, {done.size / 1e6:.1f} MB (version {done.version}); "
        f"try it: python -m http.server --directory {done.folder} --bind 127.0.0.1 8000"
    )
