"""One game at a table: the engine's state, the bots, and what the person is told.

Both tables of the web app play through this module: ``kraftstokk serve`` (its sessions,
``sessions.py``) and the static edition's Web Worker (``inpage.py``, on Pyodide in the
page), so a move is made, the bots answer and the seat's view is told in one place. It
imports no pydantic and nothing of the server: what it needs of the deck is the engine's
:class:`~kraftstokk.games.core.DeckTable` and the plants' ids.

An answer (:meth:`Table.answer`) is the person's seat's view, its legal moves, the log
lines told to that seat (each computer move's last line with its ``step``: the seat's
view after it, for the page to show the moves one at a time) and the result; never the
engine's actions (a bot's lie is an action naming the card it lays face down).
"""

from __future__ import annotations

import hashlib
import json
import random
import secrets
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Final, TypeVar

from kraftstokk.errors import GameError, KraftstokkError, RequestRefused, clip
from kraftstokk.games.core import Action, Bot, Game, State, derive_seed
from kraftstokk.games.narration import Narrator
from kraftstokk.games.registry import bot_kinds, game_class, make_bots
from kraftstokk.games.view import ClaimChoice, MoveRefused, refusal
from kraftstokk.web import views

PERSON: Final = "person"  # the seat name ``kraftstokk play`` writes for the person
LOG_LINES: Final = 60  # log lines a table keeps for the page
#: The page's save of a game (its shown fields and the table's sealed content).
WEB_FORMAT: Final = "kraftstokk-web-save"
WEB_VERSION: Final = 1
SEED_LIMIT: Final = 2**63  # seeds are 0 <= seed < 2**63: too many to try one by one

Json = dict[str, Any]
T = TypeVar("T", bound="Table")


class StaleMove(RequestRefused):
    status = 409


@dataclass(frozen=True)
class NewGame:
    """What the start page asks for: a game, how many computer opponents, their kind."""

    game: str
    opponents: int
    bots: str
    variants: tuple[str, ...] = ()
    seed: int | None = None


def checked_setup(setup: NewGame) -> tuple[int, tuple[str, ...]]:
    """The players and the sorted variants of a new game, or RequestRefused with the reason."""
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
    return setup.opponents + 1, tuple(sorted(set(setup.variants)))


@dataclass(kw_only=True)
class Table:
    """A game in play: the person at ``seat``, bots elsewhere (``seat_names`` names them).

    ``bot_settings`` are what each bot kind is made with (``{"expert": "playouts=90"}``:
    the page's budget); the seats keep their plain names. ``prefix`` counts the actions
    that came from elsewhere (a replay log) before the bots of this table played.
    """

    game: Game
    state: State
    seat: int
    seat_names: list[str]
    bots: list[Bot | None]
    rngs: list[random.Random]
    seed: int
    tellers: dict[str, Narrator]
    plant_ids: Sequence[str]
    prefix: int = 0
    actions: list[Action] = field(default_factory=list)  # every seat's: never sent mid-game
    moves: list[Action] = field(default_factory=list)  # the person's, after the prefix
    log: deque[Json] = field(default_factory=lambda: deque(maxlen=LOG_LINES))
    log_count: int = 0  # log lines made so far (the page asks for lines after one)
    live: bool = False  # played now (not a save played again): log lines carry their step

    @property
    def turn(self) -> int:
        """The person's move counter: every action they sent or brought (public to them)."""
        return self.prefix + len(self.moves)

    @classmethod
    def deal(
        cls: type[T],
        game: Game,
        seat_names: Sequence[str],
        seed: int,
        plant_ids: Sequence[str],
        *,
        prefix: int = 0,
        resumed_at: int | None = None,
        bot_settings: dict[str, str] | None = None,
        **more: Any,
    ) -> T:
        """``game`` dealt from ``seed``, the person at the seat named :data:`PERSON`
        (``more``: a subclass's own fields). Each bot draws from its own stream of the
        seed, a new one for a game resumed after ``resumed_at`` actions (default:
        ``prefix``)."""
        streams = prefix if resumed_at is None else resumed_at
        settings = bot_settings or {}
        state = game.new_initial_state(random.Random(seed))
        seat = list(seat_names).index(PERSON)
        stand_in = ",".join(
            "random" if name == PERSON else _with_settings(name, settings) for name in seat_names
        )
        try:
            made = make_bots(game, stand_in)
        except KraftstokkError as exc:
            raise RequestRefused(f"bots: {exc.message}") from None
        return cls(
            game=game,
            state=state,
            seat=seat,
            seat_names=list(seat_names),
            bots=[
                None if name == PERSON else bot for name, bot in zip(seat_names, made, strict=True)
            ],
            rngs=[
                random.Random(derive_seed(seed, s + 1, streams)) for s in range(game.num_players)
            ],
            seed=seed,
            tellers=views.narrators(state, seat),
            plant_ids=plant_ids,
            prefix=prefix,
            **more,
        )

    # -- play --------------------------------------------------------------------------

    def move(self, turn: int, index: int | None, claim: ClaimChoice | None) -> None:
        """The person's move (a listed move by index, or a claim), then the bots' moves."""
        state = self.state
        if turn != self.turn:
            raise refusal("refusals.stale", StaleMove, turn=self.turn, sent=turn)
        if state.is_terminal():
            raise refusal("refusals.over")
        if state.current_player() != self.seat:
            raise refusal("refusals.not_your_turn", StaleMove)
        if (index is None) == (claim is None):
            raise MoveRefused("send either move (a number from the list) or claim")
        if claim is not None:
            steps = views.claim_actions(state, self.seat, claim, self.plant_ids)
        else:
            assert index is not None
            legal = state.legal_actions()
            listed = views.moves(state, self.seat)["list"]
            if not 0 <= index < len(legal) or all(m["i"] != index for m in listed):
                raise refusal("refusals.not_listed", move=index)
            steps = [tuple(legal[index])]
        for step in steps:
            self.apply(step)
            self.moves.append(step)
        self.advance(deque())

    def replay(self, actions: Sequence[Action], what: str = "action") -> None:
        """Apply ``actions`` of every seat as they were played (a save's), asking no bot;
        the person's among them count as their moves. GameError names an illegal one."""
        for number, action in enumerate(actions, start=1):
            check_legal(self.state, action, f"{what} {number}")
            mine = self.state.current_player() == self.seat
            self.apply(action)
            if mine:
                self.moves.append(action)

    def begin(self, pending: Sequence[Action] = ()) -> None:
        """Let the bots play up to the person's decision (taking ``pending`` moves of the
        person first, a save's); from then on the log lines carry their steps."""
        self.advance(deque(pending))
        self.live = True

    def advance(self, pending: deque[Action]) -> None:
        """Let the bots play until the person decides (taking ``pending`` moves first)."""
        state = self.state
        while not state.is_terminal():
            seat = state.current_player()
            bot = self.bots[seat]
            if bot is None:
                if not pending:
                    return
                action = pending.popleft()
                check_legal(state, action, f"your move {len(self.moves) + 1}")
                self.apply(action)
                self.moves.append(action)
                continue
            action = tuple(bot.act(state.observation(seat), state.legal_actions(), self.rngs[seat]))
            self.apply(action)
        if pending:
            raise GameError(f"{len(pending)} of your moves come after the game ended")

    def apply(self, action: Action) -> None:
        state = self.state
        state.apply(action)
        self.actions.append(action)
        lines = views.event_lines(state.events, self.tellers)
        if lines and self.live:
            # The table as the person sees it after this action: the page shows the
            # computer's moves one at a time from these (the pile, the panels, the counts).
            lines[-1]["step"] = views.step_view(state, self.seat, self.plant_ids)
        for line in lines:
            self.log_count += 1
            line["n"] = self.log_count
            self.log.append(line)
        # Told once, the events are done with: the table keeps its lines, and the
        # engine's list would grow with the game (most of a long game's memory).
        state.events.clear()

    # -- what the page gets ------------------------------------------------------------

    def answer(self, since_log: int) -> Json:
        """The seat's view, its moves, the log lines after ``since_log``, the result."""
        state = self.state
        return {
            "game": self.game.name,
            "seat": self.seat,
            "players": self.game.num_players,
            "bots": self.seat_names,
            "variants": sorted(self.game.variants),
            "turn": self.turn,
            "view": views.table_view(state, self.seat, self.plant_ids),
            "moves": views.moves(state, self.seat),
            "log": [line for line in self.log if line["n"] > since_log],
            "over": views.result_view(state),
        }


def deck_digest(deck_json: dict[str, Any]) -> str:
    """A short digest of a deck's content: a save names its deck by it."""
    raw = json.dumps(deck_json, sort_keys=True, ensure_ascii=False).encode()
    return hashlib.sha256(raw).hexdigest()[:16]


def new_save_id() -> str:
    return secrets.token_urlsafe(16)


def _with_settings(kind: str, settings: dict[str, str]) -> str:
    return f"{kind}:{settings[kind]}" if settings.get(kind) else kind


def check_legal(state: State, action: Action, what: str) -> None:
    if state.is_terminal():
        raise GameError(f"{what} comes after the game ended")
    if not state.is_legal(action):
        raise GameError(f"{what} {list(action)} is not legal here")
