"""Games in progress on the server: one session per browser game, bounded and evictable.

A session holds the engine state, the bots and the actions so far. The browser keeps the
same game as a replay log (the file ``kraftstokk play --save`` writes), so the server may
forget a game at any time — when it has been idle too long, when too many games are open,
or on a restart — and the browser brings it back by sending its log (:meth:`resume`).
Game ids are 128-bit random tokens: one browser cannot guess another's game.
"""

from __future__ import annotations

import random
import secrets
import time
from collections import OrderedDict, deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from kraftstokk.errors import GameError, KraftstokkError, RequestRefused
from kraftstokk.games import replay as replay_logs
from kraftstokk.games.core import (
    DEFAULT_ACTION_CAP,
    Action,
    Bot,
    DeckTable,
    Game,
    State,
    derive_seed,
)
from kraftstokk.games.registry import bot_kinds, game_class, make_bots, make_game
from kraftstokk.games.replay import ReplayLog, make_replay
from kraftstokk.models import Deck
from kraftstokk.web import views
from kraftstokk.web.views import ClaimChoice, MoveRefused

PERSON = "person"  # the seat name ``kraftstokk play`` writes for the person
MAX_RULE_SETS = 64  # games (rules) kept made, by game, players, variants and action cap
LOG_LINES = 60  # log lines a session keeps for the browser
GAMES = ("idiot", "kraftidioten", "stromkrig")

Json = dict[str, Any]


class UnknownGame(RequestRefused):
    """No game with this id (never made, deleted, or evicted: continue from the save)."""

    status = 404


class StaleMove(RequestRefused):
    status = 409


@dataclass
class Session:
    id: str
    game: Game
    state: State
    seat: int
    seat_names: list[str]
    bots: list[Bot | None]
    rngs: list[random.Random]
    seed: int
    actions: list[Action] = field(default_factory=list)
    log: deque[Json] = field(default_factory=lambda: deque(maxlen=LOG_LINES))
    touched: float = 0.0
    log_count: int = 0  # log lines made so far (the browser asks for lines after one)
    tellers: dict[str, Any] | None = None  # the engine's narrators (nb, en) for the seat

    @property
    def turn(self) -> int:
        return len(self.actions)


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
        *,
        max_games: int = 200,
        idle_seconds: float = 1800.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.deck = deck
        self.table = DeckTable.from_deck(deck)
        self.plant_ids: tuple[str, ...] = tuple(card.plant_id or card.id for card in deck.cards)
        self.deck_json: Json = deck.model_dump(mode="json")
        self.max_games = max_games
        self.idle_seconds = idle_seconds
        self.clock = clock
        self._sessions: OrderedDict[str, Session] = OrderedDict()
        self._games: dict[tuple[str, int, tuple[str, ...], int], Game] = {}

    def __len__(self) -> int:
        return len(self._sessions)

    # -- lifecycle ---------------------------------------------------------------------

    def create(self, setup: NewGame) -> Session:
        if setup.game not in GAMES:
            raise RequestRefused(
                f"game: unknown game {setup.game!r} (idiot, kraftidioten, stromkrig)"
            )
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
        seed = setup.seed if setup.seed is not None else secrets.randbelow(2**31)
        names = [PERSON] + [setup.bots] * setup.opponents
        state = game.new_initial_state(random.Random(seed))
        session = self._open(game, state, 0, names, seed, resumed_at=0)
        self._advance(session)
        return session

    def resume(self, log: ReplayLog) -> Session:
        """A game again from the browser's save; refused with a reason, never half-made.

        A version-1 log (the engine's first edition) is read in today's action kinds, or
        refused when its game's rules have changed since.
        """
        upgrade = getattr(replay_logs, "upgrade", None)  # the second edition's
        if upgrade is not None:
            try:
                log = upgrade(log, "save")
            except GameError as exc:
                raise RequestRefused(exc.message) from None
        if log.deck != self.deck_json:
            title = log.deck.get("title"), log.deck.get("edition")
            raise RequestRefused(
                f"save: made with another deck ({title[0]} {title[1]}) than this server's "
                f"({self.deck.title} {self.deck.edition}); start a new game"
            )
        rules = log.rules
        if rules.game not in GAMES:
            raise RequestRefused(f"save: unknown game {rules.game!r}")
        if log.bots.count(PERSON) != 1 or len(log.bots) != rules.players:
            raise RequestRefused(
                f"save: needs one {PERSON!r} seat among {rules.players} seats, "
                f"found bots {log.bots}"
            )
        try:
            game = self._game(rules.game, rules.players, rules.variants, rules.action_cap)
        except KraftstokkError as exc:
            raise RequestRefused(f"save: {exc.message}") from None
        seat = log.bots.index(PERSON)
        state = game.new_initial_state(random.Random(log.seed))
        session = self._open(game, state, seat, list(log.bots), log.seed, len(log.actions))
        tail = len(log.actions) - LOG_LINES
        try:
            for number, raw in enumerate(log.actions, start=1):
                action = tuple(raw)
                if state.is_terminal():
                    raise GameError(f"action {number} comes after the game ended")
                if action not in state.legal_actions():
                    raise GameError(f"action {number} {list(action)} is not legal here")
                if number > tail:
                    self._apply(session, action)
                else:
                    state.apply(action)
                    session.actions.append(action)
        except GameError as exc:
            self._sessions.pop(session.id, None)
            raise RequestRefused(
                f"save: does not replay with these rules ({exc.message}); "
                "it may be from an older version"
            ) from None
        self._advance(session)
        return session

    def _game(
        self, name: str, players: int, variants: Sequence[str], cap: int = DEFAULT_ACTION_CAP
    ) -> Game:
        """A game's rules are immutable and some cost a few ms to set up: make each once."""
        key = (name, players, tuple(sorted(set(variants))), cap)
        game = self._games.get(key)
        if game is None:
            game = make_game(name, self.table, players, list(key[2]), cap)
            if len(self._games) >= MAX_RULE_SETS:
                self._games.pop(next(iter(self._games)))
            self._games[key] = game
        return game

    def get(self, game_id: str) -> Session:
        self._evict_idle()
        session = self._sessions.get(game_id)
        if session is None:
            raise UnknownGame(f"no game {game_id[:12]!r} on this server: continue from the save")
        session.touched = self.clock()
        self._sessions.move_to_end(game_id)
        return session

    def delete(self, game_id: str) -> None:
        if self._sessions.pop(game_id, None) is None:
            raise UnknownGame(f"no game {game_id[:12]!r} on this server")

    def _open(
        self, game: Game, state: State, seat: int, names: list[str], seed: int, resumed_at: int
    ) -> Session:
        stand_in = ",".join("random" if name == PERSON else name for name in names)
        try:
            made = make_bots(game, stand_in)
        except KraftstokkError as exc:
            raise RequestRefused(f"bots: {exc.message}") from None
        bots: list[Bot | None] = [
            None if name == PERSON else bot for name, bot in zip(names, made, strict=True)
        ]
        rngs = [
            random.Random(derive_seed(seed, s + 1, resumed_at)) for s in range(game.num_players)
        ]
        self._evict_idle()
        while len(self._sessions) >= self.max_games:
            self._sessions.popitem(last=False)
        session = Session(
            id=secrets.token_urlsafe(16),
            game=game,
            state=state,
            seat=seat,
            seat_names=names,
            bots=bots,
            rngs=rngs,
            seed=seed,
            touched=self.clock(),
            tellers=views.narrators(state, seat),
        )
        self._sessions[session.id] = session
        return session

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
        state = session.state
        if turn != session.turn:
            raise StaleMove(
                f"turn: the game is at move {session.turn}, this move was made at {turn}; "
                "reload the game"
            )
        if state.is_terminal():
            raise MoveRefused("the game is over")
        if state.current_player() != session.seat:
            raise StaleMove("it is not your turn")
        if (index is None) == (claim is None):
            raise MoveRefused("send either move (a number from the list) or claim")
        if claim is not None:
            steps = views.claim_actions(state, session.seat, claim, self.plant_ids)
        else:
            assert index is not None
            listed = views.moves(state, session.seat)["list"]
            if not 0 <= index < len(state.legal_actions()) or all(m["i"] != index for m in listed):
                raise MoveRefused(f"move: {index} is not one of your moves now")
            steps = [tuple(state.legal_actions()[index])]
        for step in steps:
            self._apply(session, step)
        self._advance(session)

    def _advance(self, session: Session) -> None:
        """Let the bots play until the person decides or the game ends."""
        state = session.state
        while not state.is_terminal():
            seat = state.current_player()
            bot = session.bots[seat]
            if bot is None:
                return
            legal = state.legal_actions()
            action = bot.act(state.observation(seat), legal, session.rngs[seat])
            self._apply(session, tuple(action))

    def _apply(self, session: Session, action: Action) -> None:
        pending = views.before_move(session.state, action, session.seat)
        session.state.apply(action)
        session.actions.append(action)
        for line in views.after_move(session.state, pending, session.tellers):
            session.log_count += 1
            line["n"] = session.log_count
            session.log.append(line)

    # -- what the browser gets ---------------------------------------------------------

    def save_header(self, session: Session) -> Json:
        """The replay log without its actions (the browser appends those)."""
        log = make_replay(self.deck, session.game, session.seat_names, session.seed, [])
        data = log.model_dump(mode="json")
        data.pop("actions")
        data.pop("result")
        return data

    def result_record(self, session: Session) -> Json | None:
        if not session.state.is_terminal():
            return None
        log = make_replay(self.deck, session.game, [], session.seed, [], session.state.result())
        assert log.result is not None
        return log.result.model_dump(mode="json")

    def snapshot(self, session: Session, since_turn: int, since_log: int) -> Json:
        state = session.state
        since_turn = min(max(since_turn, 0), session.turn)
        return {
            "id": session.id,
            "game": session.game.name,
            "seat": session.seat,
            "players": session.game.num_players,
            "bots": session.seat_names,
            "variants": sorted(session.game.variants),
            "turn": session.turn,
            "new_actions": [list(a) for a in session.actions[since_turn:]],
            "view": views.table_view(state, session.seat, self.plant_ids),
            "moves": views.moves(state, session.seat),
            "log": [line for line in session.log if line["n"] > since_log],
            "over": views.result_view(state),
            "result_record": self.result_record(session),
        }


def action_lists(actions: Sequence[Action]) -> list[list[int]]:
    return [list(action) for action in actions]
