"""Games in progress on the server: one session per browser game, bounded and evictable.

A session is a :class:`~kraftstokk.web.table.Table` (the engine's state, the bots, the
actions so far and what the person is told: the play itself, shared with the static
edition's in-page table) kept under a random id. The browser keeps the same game as a
sealed save (``saves.py``), so the server may forget a game at any time — when it has
been idle too long, when too many games are open, or on a restart — and the browser
brings it back by sending its save (:meth:`GameStore.resume`). The save holds every
action taken, the bots' too: the server deals again from the seed and applies them,
asking no bot anything, so a resume costs the same with expert bots as with random ones.
Then it deals the cards no seat has seen again from fresh randomness
(``State.redeal_unseen``) and gives the bots fresh random streams: whoever peeks at a card
and goes back to an earlier save finds the stock dealt anew and the bots deciding anew,
so rolling back gains nothing. The save records where that happened (``redeals``), so the
actions taken after it replay in the world it dealt.

Game ids are 128-bit random tokens: one browser cannot guess another's game. Everything
here runs on worker threads (never on the server's event loop): the store and each
session have a lock.
"""

from __future__ import annotations

import secrets
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from kraftstokk import locales
from kraftstokk.errors import GameError, KraftstokkError, RequestRefused
from kraftstokk.games.core import DEFAULT_ACTION_CAP, DeckTable, Game
from kraftstokk.games.registry import game_class, get_spec, make_game
from kraftstokk.games.replay import make_replay
from kraftstokk.games.view import ClaimChoice, refusal
from kraftstokk.models import Deck
from kraftstokk.web import saves, views
from kraftstokk.web.quota import is_heavy
from kraftstokk.web.saves import PERSON, SEED_LIMIT, GameSave, deck_digest
from kraftstokk.web.seal import SaveKey, Sealer
from kraftstokk.web.table import NewGame, StaleMove, Table, bot_streams, checked_setup

MAX_RULE_SETS = 64  # games (rules) kept made, by game, players, variants and action cap

Json = dict[str, Any]


class UnknownGame(RequestRefused):
    """No game with this id (never made, deleted, or evicted: continue from the save)."""

    status = 404


class NotOver(RequestRefused):
    status = 409


@dataclass(kw_only=True)
class Session(Table):
    """A table kept by the server: its id (a 128-bit random token) and its save's id."""

    id: str
    save_id: str
    touched: float = 0.0
    lock: threading.Lock = field(default_factory=threading.Lock)
    head: tuple[int, bytes] | None = None  # (redeals, the sealed save's fields then)
    sealer: Sealer | None = None  # seals this game's save as it grows (made when first asked)


__all__ = ["GameStore", "NewGame", "Session", "StaleMove", "UnknownGame"]


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
        languages = locales.languages()
        self.language = deck.language() if deck.language() in languages else languages[0]
        self.warmed = False  # warm_up done (a worker forked after it need not again)
        #: Where a resume's redeal comes from: fresh randomness (a test sets a seeded one).
        self.fresh_seed: Callable[[], int] = lambda: secrets.randbelow(SEED_LIMIT)

    def __len__(self) -> int:
        return len(self._sessions)

    # -- lifecycle ---------------------------------------------------------------------

    def create(self, setup: NewGame) -> Session:
        players, variants = checked_setup(setup)
        try:
            game = self._game(setup.game, players, variants)
        except KraftstokkError as exc:
            raise RequestRefused(f"variants: {exc.message}") from None
        seed = setup.seed if setup.seed is not None else secrets.randbelow(SEED_LIMIT)
        session = self._dealt(
            game, self._new_save(game, (PERSON, *[setup.bots] * setup.opponents), seed)
        )
        session.begin()
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
        if self.warmed:
            return
        for name in views.games():
            cls = game_class(name)
            bot = get_spec(name).default_bot
            for players in range(cls.min_players, cls.max_players + 1):
                game = self._game(name, players, ())
                session = self._dealt(
                    game, self._new_save(game, (PERSON, *[bot] * (players - 1)), players)
                )
                session.begin()
                self.snapshot(session, 0)
        self.warmed = True

    def resume(self, save: GameSave) -> Session:
        """A game again from the browser's save, its unseen cards dealt anew; refused with
        a reason, never half-made."""
        session = self.rebuild(save, fresh=True)
        if not session.state.is_terminal():
            session.redeal(self.fresh_seed())
        session.begin()
        self._keep(session)
        return session

    def rebuild(self, save: GameSave, *, fresh: bool = False) -> Session:
        """The game a save holds, as it stood when saved (not kept). ``fresh``: a redeal
        recorded where the save ends is left out, since the resume deals again there."""
        try:
            game = self._game(save.game, save.players, save.variants, save.action_cap)
        except KraftstokkError as exc:
            raise RequestRefused(f"save: {exc.message}") from None
        session = self._dealt(game, save)
        redeals = list(save.redeals)
        if fresh and redeals and redeals[-1][0] == len(save.actions):
            redeals.pop()
        try:
            session.replay(save.actions, redeals=redeals)
            if save.moves is not None:  # version 1: the bots play again from the seed
                session.rngs = bot_streams(save.seed, game.num_players, len(save.actions))
                session.advance(deque(save.moves))
        except GameError as exc:
            raise refusal("refusals.old_rules", RequestRefused, reason=exc.message) from None
        return session

    def _dealt(self, game: Game, save: GameSave) -> Session:
        """A session of ``save``'s game just dealt: no action yet."""
        return Session.deal(
            game,
            save.bots,
            save.seed,
            self.plant_ids,
            prefix=save.prefix,
            language=self.language,
            id=secrets.token_urlsafe(16),
            save_id=save.save_id,
            touched=self.clock(),
        )

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

    @staticmethod
    def cheap(session: Session) -> bool:
        """Whether a move of ``session`` costs so little that a thread would cost more:
        no bot searches, and the person is still in the game (once out, the bots play
        on to the end in one answer)."""
        return not is_heavy(session.seat_names) and session.seat not in session.state.result().order

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
            session.move(turn, index, claim)

    # -- what the browser gets ---------------------------------------------------------

    def web_save(self, session: Session) -> Json:
        """The page's save of the game: its sealed actions and what the start page shows."""
        game = session.game
        if session.head is None or session.head[0] != len(session.redeals):
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
            session.head = (len(session.redeals), saves.sealed_head(save, session.record))
        sealer = session.sealer
        if sealer is None or sealer.key is not self.key:
            sealer = session.sealer = Sealer(self.key)
        return {
            "format": saves.WEB_FORMAT,
            "version": saves.WEB_VERSION,
            "id": session.save_id,
            "game": game.name,
            "players": game.num_players,
            "turn": session.turn,
            "finished": session.state.is_terminal(),
            "sealed": saves.seal(sealer, session.head[1], session.record),
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
        in ``lang`` (default: the deck's language)."""
        with session.lock:
            answer = session.answer(since_log, lang)
            return {"id": session.id, **answer, "save": self.web_save(session)}
