"""Games in progress on the server: one session per browser game, bounded and evictable.

A session holds the engine state, the bots and the actions so far. The browser keeps the
same game as a sealed save (``saves.py``), so the server may forget a game at any time —
when it has been idle too long, when too many games are open, or on a restart — and the
browser brings it back by sending its save (:meth:`GameStore.resume`): the server deals
again from the seed, applies the person's moves where the person played and lets the
bots play again where they played, which gives the same game, since a bot decides from
its seat's observation and its own seeded random stream.

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

from kraftstokk.errors import GameError, KraftstokkError, RequestRefused, clip
from kraftstokk.games.core import (
    DEFAULT_ACTION_CAP,
    Action,
    Bot,
    DeckTable,
    Game,
    State,
    derive_seed,
)
from kraftstokk.games.narration import Narrator
from kraftstokk.games.registry import bot_kinds, game_class, make_bots, make_game
from kraftstokk.games.replay import make_replay
from kraftstokk.games.view import ClaimChoice, MoveRefused, refusal
from kraftstokk.models import Deck
from kraftstokk.web import saves, views
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
    tellers: dict[str, Narrator]
    prefix: int = 0  # actions that came in a replay log, before this server's bots
    actions: list[Action] = field(default_factory=list)  # every seat's: never sent mid-game
    moves: list[Action] = field(default_factory=list)  # the person's, after the prefix
    log: deque[Json] = field(default_factory=lambda: deque(maxlen=LOG_LINES))
    log_count: int = 0  # log lines made so far (the browser asks for lines after one)
    touched: float = 0.0
    live: bool = False  # played now (not a save played again): log lines carry their step
    lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def turn(self) -> int:
        """The person's move counter (see :attr:`GameSave.turn`): public to them."""
        return self.prefix + len(self.moves)


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
        save = GameSave(
            save_id=saves.new_save_id(),
            deck=self.digest,
            game=game.name,
            players=game.num_players,
            variants=tuple(sorted(game.variants)),
            action_cap=game.action_cap,
            bots=(PERSON, *[setup.bots] * setup.opponents),
            seed=seed,
        )
        session = self._replayed(game, save)
        self._keep(session)
        return session

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
                save = GameSave(
                    save_id=saves.new_save_id(),
                    deck=self.digest,
                    game=game.name,
                    players=players,
                    variants=(),
                    action_cap=game.action_cap,
                    bots=(PERSON, *[bot] * (players - 1)),
                    seed=players,
                )
                self.snapshot(self._replayed(game, save), 0)

    def resume(self, save: GameSave) -> Session:
        """A game again from the browser's save; refused with a reason, never half-made."""
        session = self.rebuild(save)
        self._keep(session)
        return session

    def rebuild(self, save: GameSave) -> Session:
        """The game a save holds, played again up to the person's next decision (not kept)."""
        try:
            game = self._game(save.game, save.players, save.variants, save.action_cap)
        except KraftstokkError as exc:
            raise RequestRefused(f"save: {exc.message}") from None
        try:
            return self._replayed(game, save)
        except GameError as exc:
            raise refusal("refusals.old_rules", RequestRefused, reason=exc.message) from None

    def _replayed(self, game: Game, save: GameSave) -> Session:
        state = game.new_initial_state(random.Random(save.seed))
        seat = save.seat
        stand_in = ",".join("random" if name == PERSON else name for name in save.bots)
        try:
            made = make_bots(game, stand_in)
        except KraftstokkError as exc:
            raise RequestRefused(f"bots: {exc.message}") from None
        resumed_at = len(save.prefix)
        session = Session(
            id=secrets.token_urlsafe(16),
            save_id=save.save_id,
            game=game,
            state=state,
            seat=seat,
            seat_names=list(save.bots),
            bots=[
                None if name == PERSON else bot for name, bot in zip(save.bots, made, strict=True)
            ],
            rngs=[
                random.Random(derive_seed(save.seed, s + 1, resumed_at))
                for s in range(game.num_players)
            ],
            seed=save.seed,
            tellers=views.narrators(state, seat),
            prefix=resumed_at,
            touched=self.clock(),
        )
        for number, action in enumerate(save.prefix, start=1):
            _check_legal(state, action, f"action {number}")
            self._apply(session, action)
        self._advance(session, deque(save.moves))
        session.live = True
        return session

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
                listed = views.moves(state, session.seat)["list"]
                if not 0 <= index < len(legal) or all(m["i"] != index for m in listed):
                    raise refusal("refusals.not_listed", move=index)
                steps = [tuple(legal[index])]
            for step in steps:
                self._apply(session, step)
                session.moves.append(step)
            self._advance(session, deque())

    def _advance(self, session: Session, pending: deque[Action]) -> None:
        """Let the bots play until the person decides (taking ``pending`` moves first)."""
        state = session.state
        while not state.is_terminal():
            seat = state.current_player()
            bot = session.bots[seat]
            if bot is None:
                if not pending:
                    return
                action = pending.popleft()
                _check_legal(state, action, f"your move {len(session.moves) + 1}")
                self._apply(session, action)
                session.moves.append(action)
                continue
            action = tuple(
                bot.act(state.observation(seat), state.legal_actions(), session.rngs[seat])
            )
            self._apply(session, action)
        if pending:
            raise GameError(f"{len(pending)} of your moves come after the game ended")

    def _apply(self, session: Session, action: Action) -> None:
        state = session.state
        state.apply(action)
        session.actions.append(action)
        lines = views.event_lines(state.events, session.tellers)
        if lines and session.live:
            # The table as the person sees it after this action: the page shows the
            # computer's moves one at a time from these (the pile, the panels, the counts).
            lines[-1]["step"] = views.step_view(state, session.seat, self.plant_ids)
        for line in lines:
            session.log_count += 1
            line["n"] = session.log_count
            session.log.append(line)
        # Told once, the events are done with: the session keeps its lines, and the
        # engine's list would grow with the game (most of a long session's memory).
        state.events.clear()

    # -- what the browser gets ---------------------------------------------------------

    def web_save(self, session: Session) -> Json:
        """The page's save of the game: its sealed moves and what the start page shows."""
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
            prefix=tuple(session.actions[: session.prefix]),
            moves=tuple(session.moves),
        )
        return {
            "format": saves.WEB_FORMAT,
            "version": saves.WEB_VERSION,
            "id": session.save_id,
            "game": game.name,
            "players": game.num_players,
            "turn": session.turn,
            "finished": session.state.is_terminal(),
            "sealed": saves.seal(self.key, save),
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
        )
        return log.model_dump(mode="json")

    def snapshot(self, session: Session, since_log: int) -> Json:
        """One answer: the seat's view, its moves, the log lines after ``since_log``."""
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
                "view": views.table_view(state, session.seat, self.plant_ids),
                "moves": views.moves(state, session.seat),
                "log": [line for line in session.log if line["n"] > since_log],
                "over": views.result_view(state),
                "save": self.web_save(session),
            }


def _check_legal(state: State, action: Action, what: str) -> None:
    if state.is_terminal():
        raise GameError(f"{what} comes after the game ended")
    if not state.is_legal(action):
        raise GameError(f"{what} {list(action)} is not legal here")
