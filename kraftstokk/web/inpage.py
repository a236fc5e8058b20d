"""The static edition's table: the engine in the page, behind the same interface as ``serve``.

``kraftstokk export-web`` bundles this module with the game packages; the page's module
Web Worker (``static/worker.js``) runs it on Pyodide and hands it each request of the
page's table interface (``static/table.js``) as ``(operation, JSON)``; the answer is
``{"status", "body"}``, the body what ``serve`` would answer: the person's seat's view,
its moves, the log lines told to that seat and the save. Everything it imports runs
without pydantic (there is none in the browser): the play is :mod:`kraftstokk.web.table`'s,
the deck the plain JSON of ``deck.json`` (:meth:`DeckTable.from_json`).

The save: its content is every action of the game with the seed, in the open here; the
worker seals it with a key this browser keeps before the page sees it, so the page holds
only what the person's seat may know, as with ``serve``. It is the player's own game on
the player's own device: the key, and the bots' cards, are within the player's reach.

The expert's budget: ``ms=`` counts the native core's playouts, some 30 times what pure
Python manages here, so the page measures its own playout rate for each game and table
size when the first expert game of it starts (:func:`expert_playouts`) and gives the
expert as many playouts as fit in :data:`EXPERT_MS`.
"""

from __future__ import annotations

import functools
import importlib
import json
import random
import secrets
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Any, Final

from kraftstokk import locales
from kraftstokk.errors import GameError, KraftstokkError, RequestRefused, clip
from kraftstokk.games.core import DEFAULT_ACTION_CAP, Action, DeckTable, Game
from kraftstokk.games.playouts import playout
from kraftstokk.games.registry import bot_kinds, game_class, get_spec, make_game, specs
from kraftstokk.games.replay_data import FORMAT as REPLAY_FORMAT
from kraftstokk.games.replay_data import VERSION as REPLAY_VERSION
from kraftstokk.games.replay_data import replay_data
from kraftstokk.games.search import ExpertSpec, horizon_game
from kraftstokk.games.view import ClaimChoice, refusal
from kraftstokk.web import views
from kraftstokk.web.table import (
    PERSON,
    SEED_LIMIT,
    WEB_FORMAT,
    WEB_VERSION,
    NewGame,
    Table,
    checked_setup,
    deck_digest,
    new_save_id,
)

#: What the worker's sealed save holds (never seen by the page in the open).
CONTENT_FORMAT: Final = "kraftstokk-page-game"
CONTENT_VERSION: Final = 1
#: Games one page keeps (a tab plays one; a resume or an upload makes another).
MAX_GAMES: Final = 8
#: The expert's thinking time per decision in the page, as measured playouts: a decision
#: of the expert then stays under 300 ms (``make bench`` measures its p99 in Chromium).
EXPERT_MS: Final = 150.0
#: Time spent measuring a game's playout rate (once per game and table size).
CALIBRATION_MS: Final = 60.0
MIN_PLAYOUTS: Final = 8
#: The locale parts the engine reads in the page (``export-web`` carries only these).
ENGINE_PARTS: Final = ("words", "events", "web")
MAX_FIGURE: Final = 1e9
MAX_ACTIONS_NUMBER: Final = 2**31

Json = dict[str, Any]


class NotFound(RequestRefused):
    status = 404


class NotOver(RequestRefused):
    status = 409


class PageTable:
    """The games of one page, on ``deck`` (``deck.json``'s content, validated at export)."""

    def __init__(self, deck: Json, clock: Callable[[], float] = time.perf_counter) -> None:
        self.deck = deck
        self.table = DeckTable.from_json(deck)
        self.plant_ids = tuple(
            str(card.get("plant_id") or card.get("id")) for card in deck["cards"]
        )
        self.digest = deck_digest(deck)
        self.language = _deck_language(deck)
        self.clock = clock
        self.playing: OrderedDict[str, Table] = OrderedDict()
        self.saves: dict[str, tuple[str, int]] = {}  # game id -> its save's id and prefix
        self.budgets: dict[tuple[str, int], int] = {}  # (game, players) -> expert playouts

    # -- the interface -----------------------------------------------------------------

    def call(self, operation: str, body: str) -> str:
        """One request of the page as JSON; the answer ``{"status", "body"}`` as JSON."""
        try:
            request = json.loads(body) if body else {}
            handler = OPERATIONS.get(operation)
            if handler is None:
                raise NotFound(f"no operation {clip(operation, 20)!r}")
            if not isinstance(request, dict):
                raise RequestRefused("request body: not a JSON object")
            status, answer = handler(self, request)
        except RequestRefused as exc:
            status, answer = exc.status, {"error": exc.message}
            if exc.said:
                answer["said"] = exc.said
        except KraftstokkError as exc:
            status, answer = 422, {"error": exc.message}
        except (ValueError, RecursionError) as exc:
            status, answer = 400, {"error": f"request body: {clip(str(exc), 200)}"}
        return json.dumps({"status": status, "body": answer}, ensure_ascii=False)

    def new_game(self, request: Json) -> tuple[int, Json]:
        setup = NewGame(
            game=_text(request, "game", 40),
            opponents=_whole(request, "opponents", 0, 99),
            bots=_text(request, "bots", 40, ""),
            variants=tuple(_texts(request, "variants", 8)),
            seed=_whole(request, "seed", 0, SEED_LIMIT - 1, None),
        )
        players, variants = checked_setup(setup)
        try:
            game = self._game(setup.game, players, variants, DEFAULT_ACTION_CAP)
        except KraftstokkError as exc:
            raise RequestRefused(f"variants: {exc.message}") from None
        seed = setup.seed if setup.seed is not None else secrets.randbelow(SEED_LIMIT)
        table = self._deal(game, (PERSON, *[setup.bots] * setup.opponents), seed)
        table.begin()
        return 201, self._answer(self._keep(table, new_save_id(), 0), 0, _lang(request))

    def move(self, request: Json) -> tuple[int, Json]:
        game_id = _text(request, "id", 40)
        table = self.playing.get(game_id)
        if table is None:
            raise NotFound(f"no game {game_id[:12]!r} in this page: continue from the save")
        self._move(table, request)
        return 200, self._answer(game_id, _whole(request, "log_after", 0, 10**9, 0), _lang(request))

    def resume(self, request: Json) -> tuple[int, Json]:
        save = request.get("save")
        if not isinstance(save, dict):
            raise RequestRefused("save: missing (send the save to continue)")
        then = request.get("then")
        if then is not None and not isinstance(then, dict):
            raise RequestRefused("then: not a move")
        table, save_id, prefix = self._rebuild(save)
        game_id = self._keep(table, save_id, prefix)
        if then is None:
            return 200, self._answer(game_id, 0, _lang(request))
        self._move(table, then)
        since = _whole(then, "log_after", 0, 10**9, 0)
        return 200, self._answer(game_id, since, _lang(then) or _lang(request))

    def forget(self, request: Json) -> tuple[int, Json | None]:
        game_id = _text(request, "id", 40)
        if self.playing.pop(game_id, None) is None:
            raise NotFound(f"no game {game_id[:12]!r} in this page")
        self.saves.pop(game_id, None)
        return 204, None

    def replay_log(self, request: Json) -> tuple[int, Json]:
        save = request.get("save")
        if not isinstance(save, dict) or save.get("format") != WEB_FORMAT:
            raise refusal("refusals.not_a_page_save", RequestRefused, web=WEB_FORMAT)
        table, _, _ = self._rebuild(save)
        if not table.state.is_terminal():
            raise refusal("refusals.not_over", NotOver)
        log = replay_data(
            self.deck,
            table.game,
            table.seat_names,
            table.seed,
            table.actions,
            table.state.result(),
        )
        return 200, log

    # -- games -------------------------------------------------------------------------

    @functools.lru_cache(maxsize=64)  # noqa: B019 - one PageTable lives as long as the page
    def _game(self, name: str, players: int, variants: tuple[str, ...], cap: int) -> Game:
        """A game's rules are immutable and some cost a few ms to set up: made once."""
        return make_game(name, self.table, players, list(variants), cap)

    def _deal(
        self, game: Game, seats: tuple[str, ...], seed: int, prefix: int = 0, resumed: int = 0
    ) -> Table:
        settings = {}
        if "expert" in seats:
            settings["expert"] = f"playouts={self.expert_playouts(game)}"
        # The game's words load when a move is first said (a simulation says none): here,
        # with the deal, or the person's first move would wait for their import from
        # source (4-5 ms of Pyodide's time, in the answer of a frame's budget).
        get_spec(game.name).module("narration")
        return Table.deal(
            game,
            seats,
            seed,
            self.plant_ids,
            prefix=prefix,
            resumed_at=resumed,
            bot_settings=settings,
            language=self.language,
        )

    def _keep(self, table: Table, save_id: str, prefix: int) -> str:
        game_id = secrets.token_urlsafe(16)
        while len(self.playing) >= MAX_GAMES:
            oldest, _ = self.playing.popitem(last=False)
            self.saves.pop(oldest, None)
        self.playing[game_id] = table
        self.saves[game_id] = (save_id, prefix)
        return game_id

    def _move(self, table: Table, request: Json) -> None:
        turn = _whole(request, "turn", 0, 10**6)
        index = _whole(request, "move", 0, 10**6, None)
        claim = request.get("claim")
        if claim is not None and not isinstance(claim, dict):
            raise RequestRefused("claim: not an object")
        choice = None
        if claim is not None:
            figure = claim.get("figure")
            if figure is not None and (
                isinstance(figure, bool)
                or not isinstance(figure, int | float)
                or not 0 <= figure <= MAX_FIGURE
            ):
                raise RequestRefused(f"claim.figure: {clip(repr(figure), 30)} is not a figure")
            choice = ClaimChoice(
                _text(claim, "card", 40),
                _text(claim, "category", 10),
                _text(claim, "plant_id", 80),
                None if figure is None else float(figure),
            )
        table.move(turn, index, choice)

    def _answer(self, game_id: str, since_log: int, lang: str | None) -> Json:
        table = self.playing[game_id]
        save_id, prefix = self.saves[game_id]
        finished = table.state.is_terminal()
        content = {
            "format": CONTENT_FORMAT,
            "version": CONTENT_VERSION,
            "id": save_id,
            "deck": self.digest,
            "game": table.game.name,
            "players": table.game.num_players,
            "variants": sorted(table.game.variants),
            "action_cap": table.game.action_cap,
            "bots": table.seat_names,
            "seed": table.seed,
            "prefix": prefix,
            "actions": [list(action) for action in table.actions],
        }
        save = {
            "format": WEB_FORMAT,
            "version": WEB_VERSION,
            "id": save_id,
            "game": table.game.name,
            "players": table.game.num_players,
            "turn": table.turn,
            "finished": finished,
            # Sealed by the worker before the page gets it (worker.js).
            "content": json.dumps(content, separators=(",", ":")),
        }
        return {"id": game_id, **table.answer(since_log, lang), "save": save}

    def _rebuild(self, save: Json) -> tuple[Table, str, int]:
        """The game a save holds (a page save's content, or a replay log), played again
        up to the person's next decision without asking a bot; refused with the reason."""
        if save.get("format") == REPLAY_FORMAT:
            content = self._from_replay_log(save)
        elif save.get("format") == WEB_FORMAT:
            text = save.get("content")
            if not isinstance(text, str):  # the worker could not open it with its key
                raise refusal("refusals.sealed_here", RequestRefused)
            content = json.loads(text)
        else:
            raise refusal(
                "refusals.not_a_save", RequestRefused, web=WEB_FORMAT, replay=REPLAY_FORMAT
            )
        return self._replayed(content)

    def _replayed(self, content: Json) -> tuple[Table, str, int]:
        if content.get("format") != CONTENT_FORMAT or content.get("version") != CONTENT_VERSION:
            raise RequestRefused("save: not a game of this page's version; start a new game")
        if content.get("deck") != self.digest:
            raise refusal("refusals.other_deck_here", RequestRefused)
        name = _text(content, "game", 40)
        if name not in views.games():
            raise RequestRefused(f"save: unknown game {clip(name, 40)!r}")
        cls = game_class(name)
        players = _whole(content, "players", cls.min_players, cls.max_players)
        variants = tuple(sorted(set(_texts(content, "variants", 16))))
        cap = _whole(content, "action_cap", 1, DEFAULT_ACTION_CAP)
        seats = tuple(_texts(content, "bots", players))
        kinds = set(bot_kinds(name))
        if (
            len(seats) != players
            or seats.count(PERSON) != 1
            or any(s != PERSON and s not in kinds for s in seats)
        ):
            raise RequestRefused(f"save: seats {clip(', '.join(seats), 120)} do not fit {name}")
        seed = _whole(content, "seed", 0, SEED_LIMIT - 1)
        actions = _actions(content.get("actions"), cap)
        prefix = _whole(content, "prefix", 0, len(actions), 0)
        try:
            game = self._game(name, players, variants, cap)
        except KraftstokkError as exc:
            raise RequestRefused(f"save: {exc.message}") from None
        table = self._deal(game, seats, seed, prefix=prefix, resumed=len(actions))
        try:
            for number, action in enumerate(actions[:prefix], start=1):
                if table.state.is_terminal() or not table.state.is_legal(action):
                    raise GameError(f"action {number} {list(action)} is not legal here")
                table.apply(action)
            table.replay(actions[prefix:], "action")
            table.begin()
        except GameError as exc:
            raise refusal("refusals.old_rules", RequestRefused, reason=exc.message) from None
        return table, _text(content, "id", 40), prefix

    def _from_replay_log(self, log: Json) -> Json:
        """A replay log (``kraftstokk play --save``, a finished game's download) as the
        content of a save whose actions are all its prefix (the log holds its seed openly:
        whoever has the file knows the deal already)."""
        if log.get("version") != REPLAY_VERSION:
            raise RequestRefused(
                f"save: a replay log of version {clip(repr(log.get('version')), 20)}; "
                f"this page reads version {REPLAY_VERSION}"
            )
        if log.get("deck") != self.deck:
            deck = log.get("deck")
            title = deck.get("title") if isinstance(deck, dict) else None
            edition = deck.get("edition") if isinstance(deck, dict) else None
            raise refusal(
                "refusals.other_deck_named_here",
                RequestRefused,
                title=clip(str(title), 60),
                edition=clip(str(edition), 20),
            )
        rules = log.get("rules")
        if not isinstance(rules, dict):
            raise RequestRefused("save: rules: missing")
        actions = log.get("actions")
        return {
            "format": CONTENT_FORMAT,
            "version": CONTENT_VERSION,
            "id": new_save_id(),
            "deck": self.digest,
            "game": rules.get("game"),
            "players": rules.get("players"),
            "variants": rules.get("variants", []),
            "action_cap": rules.get("action_cap"),
            "bots": log.get("bots"),
            "seed": log.get("seed"),
            "prefix": len(actions) if isinstance(actions, list) else 0,
            "actions": actions,
        }

    # -- the expert's budget -----------------------------------------------------------

    def expert_playouts(self, game: Game) -> int:
        """The expert's playouts per decision for ``game`` in this page: its playout rate,
        measured here once per game and table size, times :data:`EXPERT_MS`."""
        key = (game.name, game.num_players)
        if key not in self.budgets:
            rate = measured_rate(game, expert_spec(game.name), self.clock)
            self.budgets[key] = max(MIN_PLAYOUTS, int(rate * EXPERT_MS))
        return self.budgets[key]


def expert_spec(name: str) -> ExpertSpec:
    """The game's expert, as its bots module declares it (``EXPERT``)."""
    spec: ExpertSpec = importlib.import_module(get_spec(name).bots_module).EXPERT
    return spec


def measured_rate(game: Game, spec: ExpertSpec, clock: Callable[[], float]) -> float:
    """Playouts per ms of the expert's search in ``game`` here: its policy playing on from
    the start of deals (the longest playouts: a game's early decisions cost the most),
    timed for :data:`CALIBRATION_MS`."""
    played = game if spec.horizon is None else horizon_game(game, spec.horizon)
    policies = [spec.policy(played, {}) for _ in range(played.num_players)]
    count = 0
    began = clock()
    elapsed = 0.0
    while elapsed < CALIBRATION_MS / 1000 or count < 2:
        position = played.new_initial_state(random.Random(count))
        playout(position, policies, count)
        count += 1
        elapsed = clock() - began
    return count / max(elapsed * 1000, 1e-3)


# -- reading what the page sends (no pydantic here: each field by hand) --------------------


def _text(data: Json, key: str, limit: int, default: str | None = None) -> str:
    value = data.get(key, default)
    if not isinstance(value, str):
        raise RequestRefused(f"{key}: missing, or not text")
    if len(value) > limit:
        raise RequestRefused(f"{key}: longer than {limit} characters")
    return value


def _deck_language(deck: Json) -> str:
    """The log's language when a request names none: the deck's (``[style] language``,
    as ``Deck.language`` reads it), if the page speaks it, as ``serve`` does."""
    spec = deck.get("spec")
    style = spec.get("style") if isinstance(spec, dict) else None
    language = style.get("language") if isinstance(style, dict) else None
    languages = locales.languages()
    chosen = language if isinstance(language, str) and language else "nb"
    return chosen if chosen in languages else languages[0]


def _lang(data: Json) -> str | None:
    """The language the log is told in (``lang``; None: the first language)."""
    lang = data.get("lang")
    if lang is not None and lang not in locales.languages():
        raise RequestRefused(
            f"lang: {clip(repr(lang), 12)} is not one of {', '.join(locales.languages())}"
        )
    return lang if isinstance(lang, str) else None


def _texts(data: Json, key: str, most: int) -> list[str]:
    value = data.get(key, [])
    if not isinstance(value, list) or len(value) > most:
        raise RequestRefused(f"{key}: not a list of at most {most} names")
    if not all(isinstance(item, str) and len(item) <= 40 for item in value):
        raise RequestRefused(f"{key}: a name is not text of at most 40 characters")
    return value


_MISSING: Any = object()


def _whole(data: Json, key: str, low: int, high: int, default: Any = _MISSING) -> Any:
    value = data.get(key, default)
    if value is None and default is None:
        return None
    if value is _MISSING or isinstance(value, bool) or not isinstance(value, int):
        raise RequestRefused(f"{key}: missing, or not a whole number")
    if not low <= value <= high:
        raise RequestRefused(f"{key}: {value} is not between {low} and {high}")
    return value


def _actions(value: Any, cap: int) -> list[Action]:
    if not isinstance(value, list) or len(value) > cap:
        raise RequestRefused(f"save: actions: not a list of at most {cap} actions")
    actions = []
    for number, action in enumerate(value, start=1):
        if (
            not isinstance(action, list)
            or not 1 <= len(action) <= 16
            or not all(
                isinstance(part, int)
                and not isinstance(part, bool)
                and -MAX_ACTIONS_NUMBER < part < MAX_ACTIONS_NUMBER
                for part in action
            )
        ):
            raise RequestRefused(f"save: action {number}: {clip(repr(action), 60)} is no action")
        actions.append(tuple(action))
    return actions


OPERATIONS: dict[str, Callable[[PageTable, Json], tuple[int, Any]]] = {
    "new": PageTable.new_game,
    "move": PageTable.move,
    "resume": PageTable.resume,
    "forget": PageTable.forget,
    "replay": PageTable.replay_log,
}


def open_table(deck_text: str) -> PageTable:
    """The page's table for the deck in ``deck.json``'s text (the worker calls this once),
    with what the games read when first used read now (:func:`warm`)."""
    table = PageTable(json.loads(deck_text))
    warm()
    return table


def warm() -> None:
    """Import every game's modules and read the texts the games tell with, as the engine
    starts: otherwise the person's first move read them (the events' texts of every
    language, checked against each other: some 25 ms of Pyodide's time, twice a frame),
    and a game's first answer its game's modules. The start pays a little for it (the
    texts a new game reads anyway, the registry's imports too)."""
    specs()
    for part in ENGINE_PARTS:
        locales.load(locales.languages()[0]).part(part)


__all__ = ["EXPERT_MS", "PageTable", "open_table"]
