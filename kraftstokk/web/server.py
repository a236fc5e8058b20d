"""Run the app with uvicorn: the library behind ``kraftstokk serve``.

With ``workers`` above 1 the parent makes the app once and forks that many processes on
one socket from it (``workers.py``, Linux); elsewhere uvicorn's supervisor runs them, each
building the app from the settings the parent leaves in the environment
(:func:`worker_app`). Every process seals with the same key (the user's data folder) and
reads the card images from the disk cache the parent filled, so any process can serve
any move: one that does not know a game answers 404, and the page sends its save with
the move (``POST /api/games/resume`` with ``then``), which any process can answer.
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import webbrowser
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from kraftstokk.errors import KraftstokkError

LOOPBACK = ("127.0.0.1", "localhost", "::1")
GRACE_SECONDS = 3  # on Ctrl-C, answers still being made get this long to finish
MAX_WORKERS = 32  # processes; more than any machine this serves one household from needs
MAX_GAMES = 5_000  # open games per process; one of ten seats holds about 150 kB
WORKER_SETTINGS = "KRAFTSTOKK_SERVE_WORKER"  # the parent's settings for its worker processes


def load_playable_deck(path: Path) -> Any:
    """The deck at ``path`` (deck.json or deck.csv); refused unless it passes ``validate``."""
    from kraftstokk.deck.io import load_deck
    from kraftstokk.deck.validate import require_valid

    deck = load_deck(path)
    require_valid(deck, str(path))
    return deck


def exposure_warning(host: str) -> str | None:
    if host in LOOPBACK:
        return None
    return (
        f"warning: serving on {host}: anyone who can reach this machine can open the page "
        "and start games (there are no accounts); use 127.0.0.1 to keep it on this machine"
    )


def _check_free(host: str, port: int) -> None:
    """Fail in one line when the address cannot be listened on (uvicorn would log and exit)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    try:
        with socket.socket(family, socket.SOCK_STREAM) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind((host, port))
    except OSError as exc:
        raise KraftstokkError(f"{host}:{port}: cannot listen: {exc.strerror or exc}") from None


def serve(
    deck_path: Path,
    host: str,
    port: int,
    *,
    open_browser: bool,
    workers: int = 1,
    max_games: int = 200,
    public_urls: Sequence[str] = (),
    allow_seed: bool = False,
    echo: Callable[[str], Any] = print,
) -> None:
    """Serve until Ctrl-C (or SIGTERM): the first one stops it, also mid-request.

    ``workers`` processes share the port; each keeps at most ``max_games`` open games.
    ``public_urls`` are the addresses a reverse proxy publishes the page at (their names
    pass the Host and Origin checks); ``allow_seed`` honours a new game's ``seed``.
    """
    import uvicorn

    from kraftstokk.web import folders
    from kraftstokk.web.app import create_app
    from kraftstokk.web.cards import CardImages
    from kraftstokk.web.guard import HostPolicy
    from kraftstokk.web.protocol import GuardedProtocol
    from kraftstokk.web.seal import SaveKey
    from kraftstokk.web.workers import can_fork, prepared, run_forked

    if not 0 < port < 65536:
        raise KraftstokkError(f"--port {port}: not a port number (1-65535)")
    if not 1 <= workers <= MAX_WORKERS:
        raise KraftstokkError(f"--workers {workers}: choose 1 to {MAX_WORKERS} processes")
    if not 1 <= max_games <= MAX_GAMES:
        raise KraftstokkError(f"--max-games {max_games}: choose 1 to {MAX_GAMES:,} games")
    hosts = HostPolicy(host, port, public_urls)
    deck = load_playable_deck(deck_path)
    _check_free(host, port)
    warning = exposure_warning(host)
    if warning:
        echo(warning)
    key = SaveKey.in_folder(folders.data_dir())
    images = CardImages(deck, folders.cache_dir())
    if not images.on_disk:
        echo("kraftstokk serve: drawing the card images (once for this deck) ...")
    images.prepare()
    shown = f"[{host}]" if ":" in host else host
    url = f"http://{shown}:{port}/"
    processes = f", {workers} processes" if workers > 1 else ""
    public = f" (published at {', '.join(hosts.origins)})" if hosts.origins else ""
    echo(
        f"kraftstokk serve: {deck.title} {deck.edition} at {url}{public}{processes} (Ctrl-C stops)"
    )
    if open_browser:
        webbrowser.open(url)
    common: dict[str, Any] = {
        "host": host,
        "port": port,
        "http": GuardedProtocol,
        "loop": "auto",  # uvloop where it is installed (pyproject.toml: not on Windows)
        "log_level": "warning",
        "access_log": False,
        "timeout_keep_alive": 5,
        "timeout_graceful_shutdown": GRACE_SECONDS,
    }
    if workers == 1 or can_fork():
        app = create_app(
            deck,
            key=key,
            cache=folders.cache_dir(),
            hosts=hosts,
            max_games=max_games,
            freeze_startup=True,
            allow_seed=allow_seed,
        )
        config = uvicorn.Config(quiet_forced_exit(app), **common)
        if workers == 1:
            # uvicorn stops on the first signal, then raises it again once it is done.
            with contextlib.suppress(KeyboardInterrupt):
                uvicorn.Server(config).run()
        else:
            prepared(app)  # once, here: the workers are forked from this state
            run_forked(config, workers)
    else:  # no fork here: uvicorn starts each worker afresh
        from uvicorn.supervisors import Multiprocess

        deck_file = str(deck_path.resolve())
        settings = {
            "deck": deck_file,
            "host": host,
            "port": port,
            "max_games": max_games,
            "public_urls": list(public_urls),
            "allow_seed": allow_seed,
        }
        os.environ[WORKER_SETTINGS] = json.dumps(settings)
        config = uvicorn.Config(f"{__name__}:worker_app", factory=True, workers=workers, **common)
        with contextlib.suppress(KeyboardInterrupt):
            Multiprocess(config, sockets=[config.bind_socket()]).run()
    echo("kraftstokk serve: stopped")


def worker_app() -> Any:
    """The app of one worker process, from the settings its parent left (``serve``)."""
    from kraftstokk.web import folders
    from kraftstokk.web.app import create_app
    from kraftstokk.web.guard import HostPolicy
    from kraftstokk.web.seal import SaveKey

    settings = json.loads(os.environ[WORKER_SETTINGS])
    deck = load_playable_deck(Path(settings["deck"]))
    app = create_app(
        deck,
        key=SaveKey.in_folder(folders.data_dir()),
        cache=folders.cache_dir(),
        hosts=HostPolicy(settings["host"], settings["port"], settings["public_urls"]),
        max_games=settings["max_games"],
        freeze_startup=True,
        allow_seed=settings["allow_seed"],
    )
    return quiet_forced_exit(app)


def quiet_forced_exit(app: Any) -> Any:
    """``app``, minus the traceback a second Ctrl-C prints (it cancels the app's lifespan).

    The first Ctrl-C stops the server cleanly; a second one skips the wait and cancels
    what runs, which Starlette reports as a failed shutdown with the whole traceback.
    """

    async def wrapped(scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "lifespan":
            await app(scope, receive, send)
            return

        async def quiet(message: Any) -> None:
            failed = message["type"] == "lifespan.shutdown.failed"
            if failed and "CancelledError" in message.get("message", ""):
                message = {"type": message["type"], "message": ""}
            await send(message)

        await app(scope, receive, quiet)

    return wrapped
