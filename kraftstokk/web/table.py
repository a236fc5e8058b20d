"""One game at a table: the engine's state, the bots, and what the person is told.

Both tables of the web app play through this module: ``kraftstokk serve`` (its sessions,
``sessions.py``) and the static edition's Web Worker (``inpage.py``, on Pyodide in the
page), so a move is made, the bots answer and the seat's view is told in one place. It
imports no pydantic and nothing of the server: what it needs of the deck is the engine's
:class:`~kraftstokk.games.core.DeckTable` and the plants' ids.

An answer (:meth:`Table.answer`) is the person's seat's view, its legal moves, the log
lines told to that seat in the language the page asks for (each computer move's last
line with its ``step``: the seat's view after it, for the page to show the moves one at a
time) and the result; never the engine's actions (a bot's lie is an action naming the
card it lays face down). The view and the moves are built once per position.
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

from kraftstokk import locales
from kraftstokk.errors import GameError, KraftstokkError, RequestRefused, clip
from kraftstokk.games.core import Action, Bot, Game, Redeal, State, derive_seed
from kraftstokk.games.events import Event
from kraftstokk.games.narration import Narrator
from kraftstokk.games.registry import bot_kinds, game_class, make_bots, specs
from kraftstokk.games.view import ClaimChoice, MoveRefused, refusal
from kraftstokk.web import views
from kraftstokk.web.record import ActionRecord, is_hidden
from kraftstokk.web.turning import Shifts, cards_left

PERSON: Final = "person"  # the seat name ``kraftstokk play`` writes for the person
LOG_LINES: Final = 60  # log lines a table keeps for the page
#: The page's save of a game (its shown fields and the table's sealed content).
WEB_FORMAT: Final = "kraftstokk-web-save"
WEB_VERSION: Final = 2  # 2: the sealed content holds every action
SEED_LIMIT: Final = 2**63  # seeds are 0 <= seed < 2**63: too many to try one by one
REDEAL_STREAM: Final = 1  # the bots' streams of a redeal's own (fresh) seed

Json = dict[str, Any]
T = TypeVar("T", bound="Table")


class StaleMove(RequestRefused):
    status = 409


@dataclass(frozen=True)
class NewGame:
    """What the start page asks for: a game, how many computer opponents, their kind."""

    game: str
    opponents: int
    bots: str = ""  # "": the game's default bot (``GameSpec.default_bot``)
    variants: tuple[str, ...] = ()
    seed: int | None = None

    def __post_init__(self) -> None:
        spec = specs().get(self.game)  # an unknown game is refused by checked_setup
        if not self.bots and spec is not None:
            object.__setattr__(self, "bots", spec.default_bot)  # frozen: set once, here


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


@dataclass
class LogLine:
    """One event of the game, told to the person's seat when an answer sends it."""

    n: int  # events since the deal (the page asks for the lines after its last one)
    event: Event
    step: Json | None = None  # the person's view after this line's action (live play)
    told: dict[str, str] = field(default_factory=dict)  # by language, once told


@dataclass(kw_only=True)
class Table:
    """A game in play: the person at ``seat``, bots elsewhere (``seat_names`` names them).

    ``bot_settings`` are what each bot kind is made with (``{"expert": "playouts=90"}``:
    the page's budget); the seats keep their plain names. ``prefix`` counts the actions
    that came from elsewhere (a replay log) before the bots of this table played.
    ``record`` packs every action for a save (``record.py``); ``redeals`` are where the
    unseen cards were dealt again (:meth:`redeal`).

    The log keeps the engine's events and tells each to the person's seat when an answer
    sends it, in the language that answer asks for (once per line and language): a line's
    number counts every event since the deal, so a page that asks for the lines after its
    last one gets the same lines from a table that replayed the game.
    """

    game: Game
    state: State
    seat: int
    seat_names: list[str]
    bots: list[Bot | None]
    rngs: list[random.Random]
    seed: int
    plant_ids: Sequence[str]
    record: ActionRecord
    language: str = ""  # the log's language when an answer names none ("": the first)
    prefix: int = 0
    actions: list[Action] = field(default_factory=list)  # every seat's: never sent mid-game
    mine: int = 0  # the person's own actions after the prefix
    redeals: list[Redeal] = field(default_factory=list)
    log: deque[LogLine] = field(default_factory=lambda: deque(maxlen=LOG_LINES))
    log_count: int = 0  # events since the deal
    tellers: dict[str, Narrator] = field(default_factory=dict)  # by language, when first asked
    live: bool = False  # played now (not a save played again): its lines carry their step
    view: tuple[int, Json] | None = None  # (actions, the person's view then): built once
    listed: tuple[int, Json] | None = None  # (actions, the person's moves then)
    shifts: Shifts = field(init=False)  # the turning points so far (deal() makes it)

    @property
    def turn(self) -> int:
        """The person's move counter: every action they sent or brought, all known to
        them (their own lie is two); never a bot's, whose lies would show in it."""
        return self.prefix + self.mine

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
        table = cls(
            game=game,
            state=state,
            seat=seat,
            seat_names=list(seat_names),
            bots=[
                None if name == PERSON else bot for name, bot in zip(seat_names, made, strict=True)
            ],
            rngs=bot_streams(seed, game.num_players, streams),
            seed=seed,
            plant_ids=plant_ids,
            record=ActionRecord(views.hidden_room(state)),
            prefix=prefix,
            **more,
        )
        table.shifts = Shifts(state, seat, plant_ids)
        table._keep_events()  # what the deal itself made happen
        return table

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
            listed = self.moves()["list"]
            if not 0 <= index < len(legal) or all(m["i"] != index for m in listed):
                raise refusal("refusals.not_listed", move=index)
            steps = [tuple(legal[index])]
        for step in steps:
            self.apply(step)
        self.advance(deque())

    def replay(
        self, actions: Sequence[Action], what: str = "action", redeals: Sequence[Redeal] = ()
    ) -> None:
        """Apply ``actions`` of every seat as they were played (a save's), asking no bot,
        dealing the unseen cards again where ``redeals`` say. GameError names an illegal
        action."""
        pending = deque(redeals)
        start = len(self.actions)
        for number, action in enumerate(actions, start=1):
            while pending and pending[0][0] == start + number - 1:
                self.redeal(pending.popleft()[1])
            check_legal(self.state, action, f"{what} {number}")
            self.apply(action)
        while pending:
            self.redeal(pending.popleft()[1])

    def redeal(self, seed: int) -> None:
        """Deal the cards no seat has seen again from ``seed`` (``State.redeal_unseen``);
        the bots draw from new streams of it too. Recorded for the save."""
        self.state.redeal_unseen(random.Random(seed))
        self.rngs = bot_streams(seed, self.game.num_players, REDEAL_STREAM)
        self.redeals.append((len(self.actions), seed))
        self.view = self.listed = None

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
                check_legal(state, action, f"your move {self.mine + 1}")
                self.apply(action)
                continue
            action = tuple(bot.act(state.observation(seat), state.legal_actions(), self.rngs[seat]))
            self.apply(action)
        if pending:
            raise GameError(f"{len(pending)} of your moves come after the game ended")

    def apply(self, action: Action) -> None:
        state = self.state
        mine = state.current_player() == self.seat
        hidden = is_hidden(state, action)
        state.apply(action)
        self.actions.append(action)
        self.record.add(action, hidden)
        self.shifts.add(state, len(self.actions) - 1)
        if mine and len(self.actions) > self.prefix:
            self.mine += 1
        self.view = self.listed = None
        self._keep_events()

    def _keep_events(self) -> None:
        """Keep the events of the last action for the log, told when an answer sends them."""
        state = self.state
        if not state.events:
            return
        for event in state.events:
            self.log_count += 1
            self.log.append(LogLine(self.log_count, event))
        if self.live:
            # The table as the person sees it after this action: the page shows the
            # computer's moves one at a time from these (the pile, the panels, the counts).
            # Where the person decides next (or the game is over) the answer sends the
            # whole view: it is made once, for both; else only the step's part.
            if state.is_terminal() or self.bots[state.current_player()] is None:
                view = self.table_view()
                self.log[-1].step = {key: view[key] for key in views.STEP_KEYS}
            else:
                self.log[-1].step = views.step_view(state, self.seat, self.plant_ids)
        # Kept in the log, the events are done with: the engine's list would grow with
        # the game (most of a long game's memory).
        state.events.clear()

    # -- what the page gets ------------------------------------------------------------

    def table_view(self) -> Json:
        """The person's view now, built once per position."""
        count = len(self.actions)
        if self.view is None or self.view[0] != count:
            self.view = (count, views.table_view(self.state, self.seat, self.plant_ids))
        return self.view[1]

    def moves(self) -> Json:
        """The person's moves now, listed once per position."""
        count = len(self.actions)
        if self.listed is None or self.listed[0] != count:
            self.listed = (count, views.moves(self.state, self.seat))
        return self.listed[1]

    def answer(self, since_log: int, lang: str | None = None) -> Json:
        """The seat's view, its moves, the log lines after ``since_log`` told in ``lang``
        (default: the table's ``language``), the result."""
        told = lang or self.language or locales.languages()[0]
        return {
            "game": self.game.name,
            "seat": self.seat,
            "players": self.game.num_players,
            "bots": self.seat_names,
            "variants": sorted(self.game.variants),
            "turn": self.turn,
            "view": self.table_view(),
            "moves": self.moves(),
            "log": self.lines(since_log, told),
            "over": self.result(told),
        }

    def result(self, lang: str) -> Json | None:
        """How the game ended (None while it goes on): the order, the loser, each seat's
        cards left and the turning points (``turning.py``) told in ``lang``."""
        result = views.result_view(self.state)
        if result is None:
            return None
        turning = self.shifts.found()
        teller = self.teller(lang)
        result["left"] = cards_left(self.table_view())
        result["turning"] = [
            [
                {"seat": event.seat, "kind": type(event).__name__, "text": teller.tell(event)}
                for event in events
            ]
            for events in turning
        ]
        return result

    def teller(self, lang: str) -> Narrator:
        """The narrator of the person's seat in ``lang`` (made when first asked)."""
        teller = self.tellers.get(lang)
        if teller is None:
            teller = self.tellers[lang] = views.narrator(self.game, self.seat, lang)
        return teller

    def lines(self, since_log: int, lang: str) -> list[Json]:
        """The log lines after ``since_log``, told in ``lang``."""
        teller = self.teller(lang)
        told = []
        for line in self.log:
            if line.n <= since_log:
                continue
            text = line.told.get(lang)
            if text is None:
                text = line.told[lang] = teller.tell(line.event)
            entry = views.log_line(line.n, line.event, lang, text)
            if line.step is not None:
                entry["step"] = line.step
            told.append(entry)
        return told


def bot_streams(seed: int, players: int, stream: int) -> list[random.Random]:
    """Each seat's generator for its bot: stream ``stream`` of ``seed`` (0 for a new game,
    a version-1 save's prefix length, :data:`REDEAL_STREAM` after a redeal)."""
    return [random.Random(derive_seed(seed, seat + 1, stream)) for seat in range(players)]


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
