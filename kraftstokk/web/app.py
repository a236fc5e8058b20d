"""The ASGI app of ``kraftstokk serve``: one page, a small JSON API, card images.

Routes:

- ``GET /`` the page (Jinja2 template; JS and CSS from ``/static``, nothing from the net)
- ``GET /api/setup`` games, bots, variants, the deck's cards and plant names, UI texts
- ``GET /api/rules/{lang}`` the booklet's chapter per game
- ``POST /api/games`` a new game; ``POST /api/games/resume`` a game again from its save
- ``GET /api/games/{id}`` the view; ``POST /api/games/{id}/moves`` a move;
  ``DELETE /api/games/{id}``
- ``GET /cards/{card}.webp`` a card face (``back.webp`` the back)

Every refusal is a 4xx JSON ``{"error": "..."}`` naming the field and the reason; an
unexpected fault is a 500 with a one-line message and never a traceback.
"""

from __future__ import annotations

import json
import logging
import time
from pathlib import Path
from typing import Any, Literal

from jinja2 import Environment, FileSystemLoader, select_autoescape
from pydantic import BaseModel, ConfigDict, Field, ValidationError
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from kraftstokk.errors import KraftstokkError, RequestRefused
from kraftstokk.games.replay import FORMAT, ReplayLog
from kraftstokk.models import Deck
from kraftstokk.web.cards import CardImages
from kraftstokk.web.catalogue import setup_payload
from kraftstokk.web.rules import rules_panel
from kraftstokk.web.sessions import GameStore, NewGame
from kraftstokk.web.views import ClaimChoice

HERE = Path(__file__).resolve().parent
MAX_BODY = 512 * 1024  # a save of a long game with its deck is about 100 kB
log = logging.getLogger("kraftstokk.web")
#: The page loads nothing but this server's own files (no CDN, no inline script).
PAGE_HEADERS = {
    "Cache-Control": "no-store",
    "Content-Security-Policy": (
        "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
        "object-src 'none'; base-uri 'none'; frame-ancestors 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}


class TooLarge(RequestRefused):
    status = 413


class NewGameRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    game: Literal["idiot", "kraftidioten", "stromkrig"]
    opponents: int = Field(ge=1, le=9)
    bots: str = Field(default="heuristic", max_length=40)
    variants: list[str] = Field(default_factory=list, max_length=8)
    seed: int | None = Field(default=None, ge=0, lt=2**63)


class ClaimRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    card: str = Field(max_length=40)
    category: str = Field(max_length=10)
    plant_id: str = Field(max_length=80)
    figure: float | None = None


class MoveRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    turn: int = Field(ge=0)
    move: int | None = Field(default=None, ge=0)
    claim: ClaimRequest | None = None
    log_after: int = Field(default=0, ge=0)


class ResumeRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    save: dict[str, Any]


class BodyLimit:
    """Refuse a request body over ``limit`` bytes before it is read into memory."""

    def __init__(self, app: ASGIApp, limit: int = MAX_BODY) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = dict(scope.get("headers") or [])
        declared = headers.get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.limit):
            await _refuse_large(self.limit, scope, receive, send)
            return
        seen = 0

        async def limited() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.limit:
                    raise TooLarge(f"request body: over {self.limit // 1024} kB")
            return message

        await self.app(scope, limited, send)


class ServerTiming:
    """Add ``Server-Timing: app;dur=<ms>``: the server's own time for each answer.

    The latency benchmark reads it, and so can a browser's developer tools; it is the
    time from the request reaching the app to the response headers, network excluded.
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        began = time.perf_counter()

        async def timed(message: Message) -> None:
            if message["type"] == "http.response.start":
                took = (time.perf_counter() - began) * 1000
                headers = list(message.get("headers", []))
                headers.append((b"server-timing", f"app;dur={took:.3f}".encode()))
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, timed)


async def _refuse_large(limit: int, scope: Scope, receive: Receive, send: Send) -> None:
    response = JSONResponse({"error": f"request body: over {limit // 1024} kB"}, status_code=413)
    await response(scope, receive, send)


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


async def _body(request: Request, model: type[BaseModel]) -> Any:
    raw = await request.body()
    if not raw:
        raise RequestRefused("request body: empty (send JSON)")
    try:
        data = json.loads(raw)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise RequestRefused(f"request body: not JSON ({exc})") from None
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise RequestRefused(_first_error(exc)) from None


def _first_error(exc: ValidationError) -> str:
    first = exc.errors()[0]
    where = ".".join(str(part) for part in first["loc"]) or "body"
    return f"{where}: {first['msg']}"


def create_app(
    deck: Deck,
    *,
    max_games: int = 200,
    idle_seconds: float = 1800.0,
    store: GameStore | None = None,
) -> Starlette:
    """The app for ``deck`` (already validated by the caller)."""
    if store is None:
        store = GameStore(deck, max_games=max_games, idle_seconds=idle_seconds)
    images = CardImages(deck)
    templates = Environment(
        loader=FileSystemLoader(HERE / "templates"),
        autoescape=select_autoescape(["html"]),
    )
    page = templates.get_template("index.html")

    async def index(request: Request) -> Response:
        html = page.render(title=deck.title, edition=deck.edition)
        return HTMLResponse(html, headers=PAGE_HEADERS)

    async def setup(request: Request) -> Response:
        return JSONResponse(setup_payload(store))

    async def rules(request: Request) -> Response:
        lang = request.path_params["lang"]
        if lang not in ("nb", "en"):
            raise RequestRefused(f"language: {lang!r} is not nb or en")
        return JSONResponse(rules_panel(deck, lang))

    async def new_game(request: Request) -> Response:
        body: NewGameRequest = await _body(request, NewGameRequest)
        setup_ = NewGame(body.game, body.opponents, body.bots, tuple(body.variants), body.seed)
        session = store.create(setup_)
        return JSONResponse(
            {**store.snapshot(session, 0, 0), "save": store.save_header(session)}, status_code=201
        )

    async def resume(request: Request) -> Response:
        body: ResumeRequest = await _body(request, ResumeRequest)
        raw = body.save
        if raw.get("format") != FORMAT:
            raise RequestRefused(f'save: not a replay log (no "format": "{FORMAT}")')
        try:
            replay = ReplayLog.model_validate(raw)
        except ValidationError as exc:
            raise RequestRefused(f"save: {_first_error(exc)}") from None
        session = store.resume(replay)
        # The whole save as this server would write it (an older log comes back upgraded).
        save = {**store.save_header(session), "actions": [list(a) for a in session.actions]}
        save["result"] = store.result_record(session)
        return JSONResponse({**store.snapshot(session, session.turn, 0), "save": save})

    async def show(request: Request) -> Response:
        session = store.get(request.path_params["game_id"])
        since = _int_param(request, "since", 0)
        return JSONResponse(store.snapshot(session, since, _int_param(request, "log_after", 0)))

    async def move(request: Request) -> Response:
        session = store.get(request.path_params["game_id"])
        body: MoveRequest = await _body(request, MoveRequest)
        claim = None
        if body.claim is not None:
            c = body.claim
            claim = ClaimChoice(c.card, c.category, c.plant_id, c.figure)
        before = session.turn
        store.move(session, body.turn, body.move, claim)
        return JSONResponse(store.snapshot(session, before, body.log_after))

    async def delete(request: Request) -> Response:
        store.delete(request.path_params["game_id"])
        return Response(status_code=204)

    async def card(request: Request) -> Response:
        data = images.image(request.path_params["name"])
        if data is None:
            raise RequestRefused(f"no card {request.path_params['name']!r} in this deck")
        etag = f'"{images.etag}"'
        if request.headers.get("if-none-match") == etag:
            return Response(status_code=304)
        return Response(
            data,
            media_type="image/webp",
            headers={"Cache-Control": "public, max-age=86400", "ETag": etag},
        )

    async def refused(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, RequestRefused)
        status = 404 if request.url.path.startswith("/cards/") else exc.status
        return _error(status, exc.message)

    async def engine_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, KraftstokkError)
        return _error(422, exc.message)

    async def http_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, HTTPException)
        return _error(exc.status_code, str(exc.detail))

    async def fault(request: Request, exc: Exception) -> Response:
        log.exception("unexpected error on %s %s", request.method, request.url.path)
        return _error(500, "internal error: the server could not answer this request")

    routes = [
        Route("/", index),
        Route("/api/setup", setup),
        Route("/api/rules/{lang}", rules),
        Route("/api/games", new_game, methods=["POST"]),
        Route("/api/games/resume", resume, methods=["POST"]),
        Route("/api/games/{game_id}", show, methods=["GET"]),
        Route("/api/games/{game_id}", delete, methods=["DELETE"]),
        Route("/api/games/{game_id}/moves", move, methods=["POST"]),
        Route("/cards/{name}.webp", card),
        Mount("/static", StaticFiles(directory=HERE / "static"), name="static"),
    ]
    app = Starlette(
        routes=routes,
        middleware=[Middleware(ServerTiming), Middleware(BodyLimit)],
        exception_handlers={
            RequestRefused: refused,
            KraftstokkError: engine_error,
            HTTPException: http_error,
            Exception: fault,
        },
    )
    app.state.store = store
    return app


def _int_param(request: Request, name: str, default: int) -> int:
    raw = request.query_params.get(name)
    if raw is None:
        return default
    if not raw.isdigit() or len(raw) > 9:
        raise RequestRefused(f"{name}: {raw[:20]!r} is not a whole number")
    return int(raw)
