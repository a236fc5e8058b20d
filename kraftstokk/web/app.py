"""The ASGI app of ``kraftstokk serve``: one page, a small JSON API, card images.

Routes:

- ``GET /`` the page (Jinja2 template; JS and CSS from ``/static``, nothing from the net)
- ``GET /api/setup`` games, bots, variants, the deck's cards and plant names, UI texts
- ``GET /api/rules/{lang}`` the booklet's chapter per game
- ``POST /api/games`` a new game; ``POST /api/games/resume`` a game again from its save
  (``then``: and a move in it, for a process that did not know the game)
- ``GET /api/games/{id}`` the view; ``POST /api/games/{id}/moves`` a move;
  ``DELETE /api/games/{id}``; each answer's log is told in the language the request
  names (``lang``; default the deck's)
- ``POST /api/replay`` a finished game's save as the replay log ``play --load`` reads
- ``GET /cards/{card}.webp`` a card face (``back.webp`` the back)
- ``GET /static/app.js``, ``/static/table.js``, ``/static/app.css``

An answer about a game is the person's seat's view, its moves, the log lines told to it
and the sealed save: never the engine's actions. Every refusal is a 4xx JSON
``{"error": "..."}`` naming the field and the reason; an unexpected fault is a 500 with a
one-line message and never a traceback. The engine works on worker threads, so the event
loop goes on serving others, but for a move or a new game against bots that do not search
(a fraction of a millisecond: handing it to a thread and back cost more, :func:`engine`);
``guard.py`` checks every request before it gets here. Answers are encoded once, by orjson.
"""

from __future__ import annotations

import contextlib
import gc
import hashlib
import json
import logging
import math
import os
import re
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any, TypeVar

import anyio
import orjson
from jinja2 import Environment, FileSystemLoader, select_autoescape
from pydantic import BaseModel, ConfigDict, Field, ValidationError
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import ClientDisconnect, Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Route
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from kraftstokk.errors import KraftstokkError, RequestRefused, clip
from kraftstokk.games import registry
from kraftstokk.games.replay import FORMAT as REPLAY_FORMAT
from kraftstokk.games.view import ClaimChoice, refusal
from kraftstokk.models import Deck
from kraftstokk.plain import first_problem
from kraftstokk.web import folders
from kraftstokk.web.cards import CardImages
from kraftstokk.web.catalogue import languages, setup_payload
from kraftstokk.web.guard import (
    BODY_SECONDS,
    CLOSING,
    MAX_BODY,
    Guard,
    HostPolicy,
    refusal_body,
)
from kraftstokk.web.quota import ClientQuota, TooManyRequests, is_heavy
from kraftstokk.web.rules import rules_panel
from kraftstokk.web.saves import WEB_FORMAT, GameSave, read_replay_log, read_web_save
from kraftstokk.web.seal import SaveKey
from kraftstokk.web.sessions import GameStore, NewGame

HERE = Path(__file__).resolve().parent
STATIC_TYPES = {
    "app.js": "text/javascript; charset=utf-8",
    "table.js": "text/javascript; charset=utf-8",
    "app.css": "text/css; charset=utf-8",
}
TIMING_SETTING = "KRAFTSTOKK_SERVER_TIMING"  # "1": every answer says its server time
ENGINE_THREADS = 4  # requests playing the engine at once; the others wait their turn
#: The cycle collector's thresholds in ``serve``'s processes: an answer makes some 2,000
#: short-lived objects (views, log lines, JSON), freed by their counts, and at Python's
#: (700, 10, 10) the collector ran several times per answer and often through every open
#: game: 8 % of the CPU of served games in a profile, 2 % at these.
GC_THRESHOLDS = (10_000, 50, 100)
MAX_FIGURE = 1e9  # a claim's figure: more than any plant could have
MAX_OPPONENTS = 99  # more than any game seats; each game's own range is checked by the store
log = logging.getLogger("kraftstokk.web")
T = TypeVar("T")


class NewGameRequest(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)  # JSON types only: "7" is no 7

    game: str = Field(max_length=40)  # a game of the server (checked against the registry)
    opponents: int = Field(ge=1, le=MAX_OPPONENTS)
    bots: str = Field(default="", max_length=40)  # "": the game's default bot
    variants: list[str] = Field(default_factory=list, max_length=8)
    seed: int | None = Field(default=None, ge=0, lt=2**63)
    lang: str | None = Field(default=None, max_length=10)  # the log's language


class ClaimRequest(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)  # JSON types only: "7" is no 7

    card: str = Field(max_length=40)
    category: str = Field(max_length=10)
    plant_id: str = Field(max_length=80)
    figure: float | None = Field(default=None, ge=0, le=MAX_FIGURE, allow_inf_nan=False)


class MoveRequest(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)  # JSON types only: "7" is no 7

    turn: int = Field(ge=0, le=10**6)
    move: int | None = Field(default=None, ge=0, le=10**6)
    claim: ClaimRequest | None = None
    log_after: int = Field(default=0, ge=0, le=10**9)
    lang: str | None = Field(default=None, max_length=10)  # the log's language


class SaveRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    save: dict[str, Any]


class ResumeRequest(SaveRequest):
    """A save to continue; ``then``: a move to make at once (a process that did not know
    the game gets both in one request, so it need not be the one that answers next)."""

    then: MoveRequest | None = None
    lang: str | None = Field(default=None, max_length=10)  # the log's language


class ServerTiming:
    """Add ``Server-Timing: app;dur=<ms>``: the server's own time for each answer.

    Only when asked for (``KRAFTSTOKK_SERVER_TIMING=1``, which the latency benchmark
    sets): a move's time tells how long the engine thought, and a bot that lies or
    bluffs may think longer. It is the time from the request reaching the app to the
    response headers, network excluded.
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        began = anyio.current_time()

        async def timed(message: Message) -> None:
            if message["type"] == "http.response.start":
                took = (anyio.current_time() - began) * 1000
                headers = list(message.get("headers", []))
                headers.append((b"server-timing", f"app;dur={took:.3f}".encode()))
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, timed)


def _error(status: int, message: str, said: dict[str, str] | None = None) -> Response:
    """A refusal: ``error`` in English, and ``said`` per language when a person may meet it."""
    headers = {"Connection": "close"} if status in CLOSING else None
    body = refusal_body(message, said)
    return Response(body, status_code=status, headers=headers, media_type="application/json")


def _not_a_number(name: str) -> Any:
    raise ValueError(f"{name} is not a number JSON allows")


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"{clip(text, 20)} is too large a number")
    return value


def _bounded_int(text: str) -> int:
    if len(text.lstrip("-")) > 20:
        raise ValueError(f"a number of {len(text)} digits is too long")
    return int(text)


#: A run of digits orjson would read as a float (past 64 bits), not refuse as too long.
_LONG_NUMBER = re.compile(rb"\d{19}")


def parse_json(raw: bytes) -> Any:
    """A request body as JSON; RequestRefused for anything else (NaN, huge, too deep).

    orjson reads it when it can (a tenth of the standard library's time); what it refuses
    (a lone surrogate's escape is still JSON), or a number it would turn into a float, is
    read by the standard library, whose refusals say what is wrong."""
    if not raw:
        raise RequestRefused("request body: empty (send JSON)")
    if _LONG_NUMBER.search(raw) is None:
        with contextlib.suppress(orjson.JSONDecodeError):
            return orjson.loads(raw)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise RequestRefused("request body: not UTF-8 text") from None
    try:
        return json.loads(
            text, parse_constant=_not_a_number, parse_float=_finite, parse_int=_bounded_int
        )
    except RecursionError:
        raise RequestRefused("request body: nested too deeply") from None
    except ValueError as exc:  # json.JSONDecodeError is one
        raise RequestRefused(f"request body: not JSON ({clip(str(exc), 120)})") from None


async def _body(request: Request, model: type[BaseModel]) -> Any:
    try:
        raw = await request.body()
    except ClientDisconnect:
        raise RequestRefused("request body: the client went away") from None
    data = parse_json(raw)
    try:
        return model.model_validate(data)
    except RecursionError:
        raise RequestRefused("request body: nested too deeply") from None
    except ValidationError as exc:
        raise RequestRefused(clip(first_problem(exc, "body"), 300)) from None


def _load_games() -> None:
    """Import every game's engine, bots, view and narration here, once, before requests
    run on the engine's threads: two threads importing a compiled game module at once
    can find it half made (``module ... has no attribute 'GAME'``, a 500 seen under load)."""
    for spec in registry.specs().values():
        spec.game_class()
        spec.bot_factories()
        for kind in ("view", "narration"):
            spec.module(kind)


def create_app(
    deck: Deck,
    *,
    max_games: int = 200,
    idle_seconds: float = 1800.0,
    store: GameStore | None = None,
    key: SaveKey | None = None,
    cache: Path | None = None,
    hosts: HostPolicy | None = None,
    body_seconds: float = BODY_SECONDS,
    server_timing: bool | None = None,
    freeze_startup: bool = False,
    allow_seed: bool = False,
    quota: ClientQuota | None = None,
) -> Starlette:
    """The app for ``deck`` (already validated by the caller).

    ``key`` seals the saves (default: the one in the user's data folder), ``cache`` keeps
    the card images between runs (default: none), ``hosts`` names this server (default:
    loopback names on any port); ``body_seconds`` bounds the time a request body takes;
    ``server_timing`` adds each answer's server time (default: ``KRAFTSTOKK_SERVER_TIMING``);
    ``freeze_startup`` (``serve``'s processes) takes what the process made to start (the
    modules, the deck, the languages, the rules) out of the cycle collector's sight once
    it has warmed up: a full collection scanned those 90,000 objects every time, a pause
    of some 30 ms for every request in flight, the tail of the load benchmark; and runs
    the collector less often (:data:`GC_THRESHOLDS`);
    ``allow_seed`` honours a new game's ``seed`` (tests, bug reports: ``serve
    --allow-seed``), else every deal is the server's own; ``quota`` counts each client's
    new games and resumes against expert bots (default: ``quota.BURST`` at once).
    """
    if server_timing is None:
        server_timing = os.environ.get(TIMING_SETTING) == "1"
    _load_games()
    if store is None:
        store = GameStore(
            deck,
            key or SaveKey.in_folder(folders.data_dir()),
            max_games=max_games,
            idle_seconds=idle_seconds,
        )
    images = CardImages(deck, cache)
    templates = Environment(
        loader=FileSystemLoader(HERE / "templates"),
        autoescape=select_autoescape(["html"]),
    )
    page = templates.get_template("index.html")
    static = {name: (HERE / "static" / name).read_bytes() for name in STATIC_TYPES}
    static_tags = {
        name: f'"{hashlib.sha256(data).hexdigest()[:16]}"' for name, data in static.items()
    }
    limiter = anyio.CapacityLimiter(ENGINE_THREADS)
    setup_bytes = JsonAnswer.encode(setup_payload(store))  # the same for every page
    heavy = quota or ClientQuota()

    async def engine(work: Callable[..., T], *args: Any, cheap: bool = False) -> T:
        """``work(*args)`` on a worker thread, so the event loop goes on serving others; or
        at once when ``cheap``: a move against bots that do not search costs less than
        handing it to a thread and back (a fraction of a millisecond)."""
        if cheap:
            return work(*args)
        return await anyio.to_thread.run_sync(work, *args, limiter=limiter)

    def answer(session: Any, since_log: int, lang: str | None, status: int = 200) -> Response:
        snapshot = store.snapshot(session, since_log, _language(lang))
        return JsonAnswer(snapshot, status_code=status)

    def read_save(raw: dict[str, Any]) -> GameSave:
        kind = raw.get("format")
        if kind == WEB_FORMAT:
            return read_web_save(raw, store.key, store.digest)
        if kind == REPLAY_FORMAT:
            return read_replay_log(raw, store.deck_json, store.digest)
        raise refusal("refusals.not_a_save", RequestRefused, web=WEB_FORMAT, replay=REPLAY_FORMAT)

    # The page speaks the deck's language first (its spec's [style] language), if there is one.
    first = deck.language() if deck.language() in languages() else languages()[0]

    async def index(request: Request) -> Response:
        html = page.render(title=deck.title, edition=deck.edition, language=first)
        return HTMLResponse(html, headers={"Cache-Control": "no-store"})

    async def setup(request: Request) -> Response:
        return Response(setup_bytes, media_type="application/json")

    async def rules(request: Request) -> Response:
        lang = request.path_params["lang"]
        if lang not in languages():
            raise RequestRefused(
                f"language: {clip(lang, 20)!r} is not one of {', '.join(languages())}"
            )
        return JsonAnswer(await engine(rules_panel, deck, lang))

    async def new_game(request: Request) -> Response:
        body: NewGameRequest = await _body(request, NewGameRequest)
        seed = body.seed if allow_seed else None  # else a seed would let a player pick the deal
        setup_ = NewGame(body.game, body.opponents, body.bots, tuple(body.variants), seed)
        searching = is_heavy(setup_.bots)  # the game's default bot when none is named
        if searching:
            heavy.take(_client(request))

        def create() -> Response:
            return answer(store.create(setup_), 0, body.lang, status=201)

        return await engine(create, cheap=not searching)

    async def resume(request: Request) -> Response:
        body: ResumeRequest = await _body(request, ResumeRequest)
        then = body.then

        def play() -> Response:
            save = read_save(body.save)
            if is_heavy(save.bots):
                heavy.take(_client(request))
            session = store.resume(save)
            if then is None:
                return answer(session, 0, body.lang)
            store.move(session, then.turn, then.move, claim_choice(then))
            return answer(session, then.log_after, then.lang or body.lang)

        return await engine(play)

    async def replay(request: Request) -> Response:
        body: SaveRequest = await _body(request, SaveRequest)
        if body.save.get("format") != WEB_FORMAT:
            raise refusal("refusals.not_a_page_save", RequestRefused, web=WEB_FORMAT)
        log_ = await engine(lambda: store.replay_log(store.rebuild(read_save(body.save))))
        name = f"kraftstokk-{log_['rules']['game']}.json"
        return JsonAnswer(log_, headers={"Content-Disposition": f'attachment; filename="{name}"'})

    async def show(request: Request) -> Response:
        session = store.get(request.path_params["game_id"])
        since = _int_param(request, "log_after", 0)
        lang = request.query_params.get("lang")
        return await engine(answer, session, since, lang, cheap=store.cheap(session))

    async def move(request: Request) -> Response:
        body: MoveRequest = await _body(request, MoveRequest)
        session = store.get(request.path_params["game_id"])

        def play() -> Response:
            store.move(session, body.turn, body.move, claim_choice(body))
            return answer(session, body.log_after, body.lang)

        return await engine(play, cheap=store.cheap(session))

    async def delete(request: Request) -> Response:
        store.delete(request.path_params["game_id"])
        return Response(status_code=204)

    async def card(request: Request) -> Response:
        name = request.path_params["name"]
        if not images.ready:  # a server that did not prepare them: drawn off the loop
            await engine(images.prepare)
        data = images.image(name)
        if data is None:
            raise NotFound(f"no card {clip(name, 40)!r} in this deck")
        return _cached(request, data, "image/webp", f'"{images.etag}"', "private, max-age=86400")

    async def asset(request: Request) -> Response:
        name = request.path_params["name"]
        if name not in static:
            raise NotFound(f"no file {clip(name, 40)!r} here")
        return _cached(request, static[name], STATIC_TYPES[name], static_tags[name], "no-cache")

    async def refused(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, RequestRefused)
        answer = _error(exc.status, exc.message, exc.said)
        if isinstance(exc, TooManyRequests):
            answer.headers["Retry-After"] = str(exc.retry_after)
        return answer

    async def engine_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, KraftstokkError)
        return _error(422, exc.message)

    async def http_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, HTTPException)
        return _error(exc.status_code, str(exc.detail))

    async def fault(request: Request, exc: Exception) -> Response:
        log.exception("unexpected error on %s %s", request.method, request.url.path)
        return _error(500, "internal error: the server could not answer this request")

    def prepare() -> None:
        """What a fresh process makes before its first request (once: a worker forked
        from a prepared parent has it already, ``workers.py``)."""
        images.prepare()
        store.warm_up()

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        if not store.warmed:
            await engine(prepare)  # before the first request is served
            if freeze_startup:
                gc.collect()
                gc.freeze()
        if freeze_startup:  # also in a worker forked from a prepared parent
            gc.set_threshold(*GC_THRESHOLDS)
        yield

    routes = [  # the moves first: most requests are moves, and routes are tried in order
        Route("/api/games/{game_id}/moves", move, methods=["POST"]),
        Route("/", index),
        Route("/api/setup", setup),
        Route("/api/rules/{lang}", rules),
        Route("/api/games", new_game, methods=["POST"]),
        Route("/api/games/resume", resume, methods=["POST"]),
        Route("/api/games/{game_id}", show, methods=["GET"]),
        Route("/api/games/{game_id}", delete, methods=["DELETE"]),
        Route("/api/replay", replay, methods=["POST"]),
        Route("/cards/{name}.webp", card),
        Route("/static/{name}", asset),
    ]
    app = Starlette(
        routes=routes,
        middleware=[
            *([Middleware(ServerTiming)] if server_timing else []),
            Middleware(
                Guard, policy=hosts or HostPolicy(), body_limit=MAX_BODY, body_seconds=body_seconds
            ),
        ],
        exception_handlers={
            RequestRefused: refused,
            KraftstokkError: engine_error,
            HTTPException: http_error,
            Exception: fault,
        },
        lifespan=lifespan,
    )
    app.state.store = store
    app.state.images = images
    app.state.prepare = prepare
    return app


class JsonAnswer(Response):
    """A JSON answer encoded once, by orjson (some 20 times json's speed; an answer is
    the server's own data: no NaN, no lone surrogate, which orjson would refuse)."""

    media_type = "application/json"

    @staticmethod
    def encode(content: Any) -> bytes:
        return orjson.dumps(content, option=orjson.OPT_NON_STR_KEYS)

    def render(self, content: Any) -> bytes:
        return self.encode(content)


def claim_choice(body: MoveRequest) -> ClaimChoice | None:
    c = body.claim
    return None if c is None else ClaimChoice(c.card, c.category, c.plant_id, c.figure)


class NotFound(RequestRefused):
    status = 404


def _cached(request: Request, data: bytes, media_type: str, etag: str, cache: str) -> Response:
    """A file answer with its ETag; ``If-None-Match`` gets 304. Range requests get it whole."""
    headers = {"Cache-Control": cache, "ETag": etag}
    if request.headers.get("if-none-match") == etag:
        return Response(status_code=304, headers=headers)
    return Response(data, media_type=media_type, headers=headers)


def _client(request: Request) -> str:
    """Who asks: the client's address (behind a trusted proxy, the one it forwarded)."""
    return request.client.host if request.client else "unknown"


def _language(lang: str | None) -> str | None:
    """The log's language a request asks for (None: the deck's); refused when unknown."""
    if lang is not None and lang not in languages():
        raise RequestRefused(f"lang: {clip(lang, 10)!r} is not one of {', '.join(languages())}")
    return lang


def _int_param(request: Request, name: str, default: int) -> int:
    raw = request.query_params.get(name)
    if raw is None:
        return default
    if not raw.isdigit() or len(raw) > 9:
        raise RequestRefused(f"{name}: {raw[:20]!r} is not a whole number")
    return int(raw)
