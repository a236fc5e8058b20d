"""Games in progress on the server: one session per browser game, bounded and evictable.

A session holds the engine state, the bots and every action so far. The browser keeps
the same game as a sealed save (``saves.py``), so the server may forget a game at any
time — when it has been idle too long, when too many games are open, or on a restart —
and the browser brings it back by sending its save (:meth:`GameStore.resume`). The save
holds every action taken, the bots' too: the server deals again from the seed and
applies them, asking no bot anything, so a resume costs the same with expert bots as with
random ones. Then it deals the cards no seat has seen again from fresh randomness
(``State.redeal_unseen``) and gives the bots fresh random streams: whoever peeks at a card
and goes back to an earlier save finds the stock dealt anew and the bots deciding anew,
so rolling back gains nothing. The save records where that happened (``redeals``), so the
actions taken after it replay in the world it dealt.

The log's lines are told to the person's seat when an answer sends them, in the one
language the page asks for (the engine's events are kept until then); a line's number
counts every event since the deal, so a page that asks for the lines after its last one
gets the same lines from any process.

Game ids are 128-bit random tokens: one browser cannot guess another's game. Everything
here runs on worker threads (never on the server's event loop): the store and each
session have a lock.
"""

from __future__ import annotations

import random
import secrets
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from kraftstokk import locales
from kraftstokk.errors import GameError, KraftstokkError, RequestRefused, clip
from kraftstokk.games.core import (
    DEFAULT_ACTION_CAP,
    Action,
    Bot,
    DeckTable,
    Game,
    Redeal,
    State,
    derive_seed,
)
from kraftstokk.games.events import Event
from kraftstokk.games.narration import Narrator
from kraftstokk.games.registry import bot_kinds, game_class, make_bots, make_game
from kraftstokk.games.replay import make_replay
from kraftstokk.games.view import ClaimChoice, MoveRefused, refusal
from kraftstokk.models import Deck
from kraftstokk.web import saves, views
from kraftstokk.web.record import ActionRecord, has_hidden_actions, is_hidden
from kraftstokk.web.saves import PERSON, SEED_LIMIT, GameSave, deck_digest
from kraftstokk.web.seal import SaveKey

MAX_RULE_SETS = 64  # games (rules) kept made, by game, players, variants and action cap
LOG_LINES = 60  # log lines a session keeps for the browser

Json = dict[str, Any]


class UnknownGame(RequestRefused):
    """No game with this id (never made, deleted, or evicted: continue from the save)."""

    status = 404


class StaleMove(RequestRefused):
    status = 409


class NotOver(RequestRefused):
    status = 409


@dataclass
class LogLine:
    """One event of the game, told to the person's seat when an answer sends it."""

    n: int  # events since the deal (the page asks for the lines after its last one)
    event: Event
    step: Json | None = None  # the person's view after this line's action (live play)
    told: dict[str, str] = field(default_factory=dict)  # by language, once told


@dataclass
class Session:
    id: str
    save_id: str
    game: Game
    state: State
    seat: int
    seat_names: list[str]
    bots: list[Bot | None]
    rngs: list[random.Random]
    seed: int
    record: ActionRecord
    prefix: int = 0  # actions that came in a replay log, before this server's bots
    actions: list[Action] = field(default_factory=list)  # every seat's: never sent mid-game
    mine: int = 0  # the person's own actions after the prefix
    redeals: list[Redeal] = field(default_factory=list)
    log: deque[LogLine] = field(default_factory=lambda: deque(maxlen=LOG_LINES))
    log_count: int = 0  # events since the deal
    tellers: dict[str, Narrator] = field(default_factory=dict)  # by language, made when asked
    touched: float = 0.0
    live: bool = False  # played now (not a save played again): its lines carry their step
    view: tuple[int, Json] | None = None  # (actions, the person's view then): built once
    listed: tuple[int, Json] | None = None  # (actions, the person's moves then)
    lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def turn(self) -> int:
        """The person's move counter: every action they sent or brought, all known to
        them (their own lie is two); never a bot's, whose lies would show in it."""
        return self.prefix + self.mine


@dataclass(frozen=True)
class NewGame:
    game: str
    opponents: int
    bots: str
    variants: tuple[str, ...] = ()
    seed: int | None = None


class GameStore:
    """Sessions by id; idle ones are evicted, and at most ``max_games`` are kept."""

    def __init__(
        self,
        deck: Deck,
        key: SaveKey,
        *,
        max_games: int = 200,
        idle_seconds: float = 1800.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.deck = deck
        self.key = key
        self.table = DeckTable.from_deck(deck)
        self.plant_ids: tuple[str, ...] = tuple(card.plant_id or card.id for card in deck.cards)
        self.deck_json: Json = deck.model_dump(mode="json")
        self.digest = deck_digest(self.deck_json)
        self.max_games = max_games
        self.idle_seconds = idle_seconds
        self.clock = clock
        self._sessions: OrderedDict[str, Session] = OrderedDict()
        self._games: dict[tuple[str, int, tuple[str, ...], int], Game] = {}
        self._lock = threading.Lock()
        #: The log's language when an answer names none: the deck's, if the page speaks it.
        self.language = (
            deck.language() if deck.language() in locales.languages() else locales.languages()[0]
        )

    def __len__(self) -> int:
        return len(self._sessions)

    # -- lifecycle ---------------------------------------------------------------------

    def create(self, setup: NewGame) -> Session:
        offered = views.games()
        if setup.game not in offered:
            shown = clip(setup.game, 40)
            raise RequestRefused(f"game: unknown game {shown!r} ({', '.join(offered)})")
        cls = game_class(setup.game)
        low, high = cls.min_players - 1, cls.max_players - 1
        if not low <= setup.opponents <= high:
            raise RequestRefused(
                f"opponents: {setup.game} is played against {low}-{high} computer opponents, "
                f"not {setup.opponents}"
            )
        kinds = bot_kinds(setup.game)
        if setup.bots not in kinds:
            raise RequestRefused(f"bots: no bot {setup.bots!r} (choose from {', '.join(kinds)})")
        try:
            game = self._game(setup.game, setup.opponents + 1, setup.variants)
        except KraftstokkError as exc:
            raise RequestRefused(f"variants: {exc.message}") from None
        seed = setup.seed if setup.seed is not None else secrets.randbelow(SEED_LIMIT)
        session = self._started(
            game, self._new_save(game, (PERSON, *[setup.bots] * setup.opponents), seed)
        )
        session.live = True
        self._advance(session)
        self._keep(session)
        return session

    def _new_save(self, game: Game, bots: tuple[str, ...], seed: int) -> GameSave:
        return GameSave(
            save_id=saves.new_save_id(),
            deck=self.digest,
            game=game.name,
            players=game.num_players,
            variants=tuple(sorted(game.variants)),
            action_cap=game.action_cap,
            bots=bots,
            seed=seed,
        )

    def warm_up(self) -> None:
        """Make the rules of every game at every table size, and one game of each (not kept),
        so that the first players of a fresh process do not wait while the first of them
        reads the languages and sets the rules up (tens of ms each, and on the engine's
        threads at once several would do the same work)."""
        for name in views.games():
            cls = game_class(name)
            bot = "heuristic" if "heuristic" in bot_kinds(name) else bot_kinds(name)[0]
            for players in range(cls.min_players, cls.max_players + 1):
                game = self._game(name, players, ())
                session = self._started(
                    game, self._new_save(game, (PERSON, *[bot] * (players - 1)), players)
                )
                self._advance(session)
                self.snapshot(session, 0)

    def resume(self, save: GameSave) -> Session:
        """A game again from the browser's save, its unseen cards dealt anew; refused with
        a reason, never half-made."""
        session = self.rebuild(save, fresh=True)
        if not session.state.is_terminal():
            self._redeal(session, secrets.randbelow(SEED_LIMIT))
        session.live = True
        self._advance(session)
        self._keep(session)
        return session

    def rebuild(self, save: GameSave, *, fresh: bool = False) -> Session:
        """The game a save holds, as it stood when saved (not kept). ``fresh``: a redeal
        recorded where the save ends is left out, since the resume deals again there."""
        try:
            game = self._game(save.game, save.players, save.variants, save.action_cap)
        except KraftstokkError as exc:
            raise RequestRefused(f"save: {exc.message}") from None
        session = self._started(game, save)
        redeals = deque(save.redeals)
        if fresh and redeals and redeals[-1][0] == len(save.actions):
            redeals.pop()
        try:
            self._replay(session, save.actions, redeals)
            if save.moves is not None:  # version 1: the bots play again from the seed
                session.rngs = _bot_rngs(save.seed, game.num_players, len(save.actions))
                self._advance(session, deque(save.moves))
        except GameError as exc:
            raise refusal("refusals.old_rules", RequestRefused, reason=exc.message) from None
        return session

    def _started(self, game: Game, save: GameSave) -> Session:
        """A session of ``save``'s game just dealt: no action yet."""
        state = game.new_initial_state(random.Random(save.seed))
        stand_in = ",".join("random" if name == PERSON else name for name in save.bots)
        try:
            made = make_bots(game, stand_in)
        except KraftstokkError as exc:
            raise RequestRefused(f"bots: {exc.message}") from None
        session = Session(
            id=secrets.token_urlsafe(16),
            save_id=save.save_id,
            game=game,
            state=state,
            seat=save.seat,
            seat_names=list(save.bots),
            bots=[
                None if name == PERSON else bot for name, bot in zip(save.bots, made, strict=True)
            ],
            rngs=_bot_rngs(save.seed, game.num_players, 0),
            seed=save.seed,
            record=ActionRecord(has_hidden_actions(state)),
            prefix=save.prefix,
            touched=self.clock(),
        )
        self._tell_later(session)  # what the deal itself made happen
        return session

    def _replay(self, session: Session, actions: Sequence[Action], redeals: deque[Redeal]) -> None:
        """Apply recorded actions, dealing again where the save says; no bot is asked."""
        state = session.state
        for number, action in enumerate(actions, start=1):
            while redeals and redeals[0][0] == number - 1:
                self._redeal(session, redeals.popleft()[1])
            _check_legal(state, action, f"action {number}")
            self._apply(session, action)
        while redeals:
            self._redeal(session, redeals.popleft()[1])

    def _redeal(self, session: Session, seed: int) -> None:
        """Deal the cards no seat has seen again from ``seed``; the bots draw from it too."""
        session.state.redeal_unseen(random.Random(seed))
        session.rngs = _bot_rngs(seed, session.game.num_players, 1)
        session.redeals.append((len(session.actions), seed))
        session.view = session.listed = None

    def _game(
        self, name: str, players: int, variants: Sequence[str], cap: int = DEFAULT_ACTION_CAP
    ) -> Game:
        """A game's rules are immutable and some cost a few ms to set up: make each once."""
        key = (name, players, tuple(sorted(set(variants))), cap)
        with self._lock:
            game = self._games.get(key)
        if game is None:  # made outside the lock: two threads may both make it, once
            game = make_game(name, self.table, players, list(key[2]), cap)
            with self._lock:
                if len(self._games) >= MAX_RULE_SETS:
                    self._games.pop(next(iter(self._games)))
                self._games[key] = game
        return game

    def get(self, game_id: str) -> Session:
        with self._lock:
            self._evict_idle()
            session = self._sessions.get(game_id)
            if session is None:
                raise UnknownGame(
                    f"no game {game_id[:12]!r} on this server: continue from the save"
                )
            session.touched = self.clock()
            self._sessions.move_to_end(game_id)
            return session

    def delete(self, game_id: str) -> None:
        with self._lock:
            if self._sessions.pop(game_id, None) is None:
                raise UnknownGame(f"no game {game_id[:12]!r} on this server")

    def _keep(self, session: Session) -> None:
        with self._lock:
            self._evict_idle()
            while len(self._sessions) >= self.max_games:
                self._sessions.popitem(last=False)
            session.touched = self.clock()
            self._sessions[session.id] = session

    def _evict_idle(self) -> None:
        limit = self.clock() - self.idle_seconds
        while self._sessions:
            oldest = next(iter(self._sessions.values()))
            if oldest.touched >= limit:
                break
            self._sessions.popitem(last=False)

    # -- play --------------------------------------------------------------------------

    def move(
        self, session: Session, turn: int, index: int | None, claim: ClaimChoice | None
    ) -> None:
        """The person's move (a listed move by index, or a claim), then the bots' moves."""
        with session.lock:
            state = session.state
            if turn != session.turn:
                raise refusal("refusals.stale", StaleMove, turn=session.turn, sent=turn)
            if state.is_terminal():
                raise refusal("refusals.over")
            if state.current_player() != session.seat:
                raise refusal("refusals.not_your_turn", StaleMove)
            if (index is None) == (claim is None):
                raise MoveRefused("send either move (a number from the list) or claim")
            if claim is not None:
                steps = views.claim_actions(state, session.seat, claim, self.plant_ids)
            else:
                assert index is not None
                legal = state.legal_actions()
                listed = self._moves(session)["list"]
                if not 0 <= index < len(legal) or all(m["i"] != index for m in listed):
                    raise refusal("refusals.not_listed", move=index)
                steps = [tuple(legal[index])]
            for step in steps:
                self._apply(session, step)
            self._advance(session)

    def _advance(self, session: Session, pending: deque[Action] | None = None) -> None:
        """Let the bots play until the person decides (taking ``pending`` moves first: a
        version-1 save's, the person's moves among the bots' played again)."""
        state = session.state
        while not state.is_terminal():
            seat = state.current_player()
            bot = session.bots[seat]
            if bot is None:
                if not pending:
                    return
                action = pending.popleft()
                _check_legal(state, action, f"your move {session.mine + 1}")
                self._apply(session, action)
                continue
            action = tuple(
                bot.act(state.observation(seat), state.legal_actions(), session.rngs[seat])
            )
            self._apply(session, action)
        if pending:
            raise GameError(f"{len(pending)} of your moves come after the game ended")

    def _apply(self, session: Session, action: Action) -> None:
        state = session.state
        mine = state.current_player() == session.seat
        hidden = is_hidden(state, action)
        state.apply(action)
        session.actions.append(action)
        session.record.add(action, hidden)
        if mine and len(session.actions) > session.prefix:
            session.mine += 1
        session.view = session.listed = None
        self._tell_later(session)

    def _tell_later(self, session: Session) -> None:
        """Keep the events of the last action for the log, told when an answer sends them."""
        state = session.state
        if not state.events:
            return
        for event in state.events:
            session.log_count += 1
            session.log.append(LogLine(session.log_count, event))
        if session.live:
            # The table as the person sees it after this action: the page shows the
            # computer's moves one at a time from these (the pile, the panels, the counts).
            view = self._view(session)
            session.log[-1].step = {key: view[key] for key in views.STEP_KEYS}
        # The events are done with once kept: the session keeps its last lines, and the
        # engine's list would grow with the game (most of a long session's memory).
        state.events.clear()

    def _view(self, session: Session) -> Json:
        """The person's view now, built once per position."""
        count = len(session.actions)
        if session.view is None or session.view[0] != count:
            session.view = (count, views.table_view(session.state, session.seat, self.plant_ids))
        return session.view[1]

    def _moves(self, session: Session) -> Json:
        """The person's moves now, listed once per position."""
        count = len(session.actions)
        if session.listed is None or session.listed[0] != count:
            session.listed = (count, views.moves(session.state, session.seat))
        return session.listed[1]

    # -- what the browser gets ---------------------------------------------------------

    def web_save(self, session: Session) -> Json:
        """The page's save of the game: its sealed actions and what the start page shows."""
        game = session.game
        save = GameSave(
            save_id=session.save_id,
            deck=self.digest,
            game=game.name,
            players=game.num_players,
            variants=tuple(sorted(game.variants)),
            action_cap=game.action_cap,
            bots=tuple(session.seat_names),
            seed=session.seed,
            prefix=session.prefix,
            redeals=tuple(session.redeals),
        )
        return {
            "format": saves.WEB_FORMAT,
            "version": saves.WEB_VERSION,
            "id": session.save_id,
            "game": game.name,
            "players": game.num_players,
            "turn": session.turn,
            "finished": session.state.is_terminal(),
            "sealed": saves.seal(self.key, save, session.record),
        }

    def replay_log(self, session: Session) -> Json:
        """The finished game as ``kraftstokk play --load`` reads it (seed and every action)."""
        state = session.state
        if not state.is_terminal():
            raise refusal("refusals.not_over", NotOver)
        log = make_replay(
            self.deck,
            session.game,
            session.seat_names,
            session.seed,
            session.actions,
            state.result(),
            session.redeals,
        )
        return log.model_dump(mode="json")

    def snapshot(self, session: Session, since_log: int, lang: str | None = None) -> Json:
        """One answer: the seat's view, its moves, the log lines after ``since_log`` told
        in ``lang`` (default: the first language)."""
        with session.lock:
            state = session.state
            return {
                "id": session.id,
                "game": session.game.name,
                "seat": session.seat,
                "players": session.game.num_players,
                "bots": session.seat_names,
                "variants": sorted(session.game.variants),
                "turn": session.turn,
                "view": self._view(session),
                "moves": self._moves(session),
                "log": self._lines(session, since_log, lang or self.language),
                "over": views.result_view(state),
                "save": self.web_save(session),
            }

    def _lines(self, session: Session, since_log: int, lang: str) -> list[Json]:
        teller = session.tellers.get(lang)
        if teller is None:
            teller = session.tellers[lang] = views.narrator(session.game, session.seat, lang)
        lines = []
        for line in session.log:
            if line.n <= since_log:
                continue
            text = line.told.get(lang)
            if text is None:
                text = line.told[lang] = teller.tell(line.event)
            told = views.log_line(line.n, line.event, lang, text)
            if line.step is not None:
                told["step"] = line.step
            lines.append(told)
        return lines


def _bot_rngs(seed: int, players: int, stream: int) -> list[random.Random]:
    """Each seat's generator for its bot: from the game's seed (``stream`` 0; a version-1
    save's from the length of its prefix), or from a redeal's (1)."""
    return [random.Random(derive_seed(seed, seat + 1, stream)) for seat in range(players)]


def _check_legal(state: State, action: Action, what: str) -> None:
    if state.is_terminal():
        raise GameError(f"{what} comes after the game ended")
    if not state.is_legal(action):
        raise GameError(f"{what} {list(action)} is not legal here")
