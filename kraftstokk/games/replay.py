"""Replay logs: a played game as JSON that replays to the same position and result.

A log holds everything a replay needs, so it stands alone: the deck (the content of
``deck.json``), the rules (game, players, variants, action cap), the bot of each seat
(for the record; a replay does not ask the bots again), the seed and the actions, and
optionally the result the game had. Replaying applies the actions to a fresh game
seeded alike; every chance event comes from that seed, so the positions are the same.
A game the browser resumed from a save had its unseen cards dealt again there
(``State.redeal_unseen``): its log lists each such point and seed under ``redeals``
(left out when there is none).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SerializationInfo,
    SerializerFunctionWrapHandler,
    ValidationError,
    model_serializer,
)

from kraftstokk.atomic import write_text
from kraftstokk.bounds import Range
from kraftstokk.errors import GameError, InputFileError, KraftstokkError
from kraftstokk.games.core import Action, DeckTable, Game, Redeal, Result, State
from kraftstokk.games.replay_data import FORMAT, VERSION, replay_data, replay_text, result_data
from kraftstokk.games.runner import replay
from kraftstokk.limits import MAX_ACTION_CAP, REPLAY_SEED_RANGE, SEED_RANGE
from kraftstokk.models import Deck
from kraftstokk.plain import first_problem

__all__ = [
    "FORMAT",
    "VERSION",
    "ReplayLog",
    "load_replay",
    "make_replay",
    "replay_log",
    "save_replay",
    "upgrade",
]

#: A log names a few variants and bots; the game checks each by name.
MAX_NAMES = 64
MAX_NAME = 64


class ReplayRules(BaseModel):
    model_config = ConfigDict(extra="forbid")

    game: Annotated[str, Field(max_length=MAX_NAME)]
    players: Annotated[int, Range(1, MAX_NAMES, "players")]
    variants: list[Annotated[str, Field(max_length=MAX_NAME)]] = Field(
        default_factory=list, max_length=MAX_NAMES
    )
    #: The bound of ``simulate --action-cap``: a log may not ask for a longer game.
    action_cap: Annotated[int, Range(1, MAX_ACTION_CAP, "actions")]


class ReplayResult(BaseModel):
    model_config = ConfigDict(extra="forbid")

    finished: bool
    order: list[int]
    loser: int | None
    actions: int
    rounds: int


class ReplayLog(BaseModel):
    """One game: ``{"format", "version", "deck", "rules", "bots", "seed", "actions"}``."""

    model_config = ConfigDict(extra="forbid")

    format: Literal["kraftstokk-replay"] = FORMAT
    version: Literal[1, 2] = VERSION
    deck: dict[str, Any]
    rules: ReplayRules
    bots: list[Annotated[str, Field(max_length=MAX_NAME)]] = Field(max_length=MAX_NAMES)
    seed: Annotated[int, Range(*REPLAY_SEED_RANGE, "")]
    actions: list[list[int]] = Field(max_length=MAX_ACTION_CAP)
    result: ReplayResult | None = None
    #: [after this many actions, seed]: where the unseen cards were dealt again.
    redeals: list[
        tuple[
            Annotated[int, Range(0, MAX_ACTION_CAP, "actions")],
            Annotated[int, Range(*SEED_RANGE, "")],
        ]
    ] = Field(default_factory=list, max_length=MAX_ACTION_CAP)

    @model_serializer(mode="wrap")
    def _without_no_redeals(
        self, handler: SerializerFunctionWrapHandler, info: SerializationInfo
    ) -> dict[str, Any]:
        data: dict[str, Any] = handler(self)
        if not self.redeals:
            data.pop("redeals", None)  # a log as every log was before redeals
        return data


def make_replay(
    deck: Deck,
    game: Game,
    bots: Sequence[str],
    seed: int,
    actions: Sequence[Action],
    result: Result | None = None,
    redeals: Sequence[Redeal] = (),
) -> ReplayLog:
    """A log of a game played (or begun) with ``game`` on ``deck``."""
    data = replay_data(deck.model_dump(mode="json"), game, bots, seed, actions, result, redeals)
    return ReplayLog.model_validate(data)


def save_replay(path: str | Path, log: ReplayLog) -> None:
    """Write ``log`` atomically (as :func:`replay_text` lays it out)."""
    write_text(path, replay_text(log.model_dump(mode="json")))


def load_replay(path: str | Path) -> ReplayLog:
    """Read a log; a missing, malformed or foreign file raises GameError naming it."""
    from kraftstokk.textfile import parse_json_text, read_utf8_text

    path = Path(path)
    if not path.exists() and not path.is_symlink():
        raise GameError(f"{path}: no such replay file")
    try:
        raw = parse_json_text(path, read_utf8_text(path, "replay file"), "replay log")
    except InputFileError as exc:
        raise GameError(exc.message) from None
    if not isinstance(raw, dict) or raw.get("format") != FORMAT:
        raise GameError(f'{path}: not a replay log (no "format": "{FORMAT}")')
    try:
        log = ReplayLog.model_validate(raw)
    except ValidationError as exc:
        raise GameError(f"{path}: not a replay log: {first_problem(exc)}") from None
    return upgrade(log, str(path))


def upgrade(log: ReplayLog, source: str = "replay log") -> ReplayLog:
    """A version-1 log in today's action kinds, or GameError when its game cannot read it."""
    if log.version == VERSION:
        return log
    from kraftstokk.games.registry import specs

    spec = specs().get(log.rules.game)
    if spec is None:
        raise GameError(f"{source}: a replay of {log.rules.game!r}, a game this version lacks")
    kinds = spec.v1_action_kinds
    if kinds is None:
        why = f" ({spec.v1_refusal})" if spec.v1_refusal else ""
        raise GameError(
            f"{source}: a version-1 replay of {spec.name}, whose rules have changed since"
            f"{why}; it cannot be replayed"
        )
    actions = []
    for number, action in enumerate(log.actions, start=1):
        if not action or action[0] not in kinds:
            raise GameError(f"{source}: action {number} {action} is no {spec.name} action")
        actions.append([kinds[action[0]], *action[1:]])
    return log.model_copy(update={"version": VERSION, "actions": actions})


def log_deck(log: ReplayLog, source: str = "replay log") -> Deck:
    """The log's deck, checked as ``validate`` checks a deck file (exit 1 with problems)."""
    from kraftstokk.deck.validate import require_valid

    try:
        deck = Deck.model_validate(log.deck)
    except ValidationError as exc:
        raise GameError(f"{source}: deck: {first_problem(exc)}") from None
    require_valid(deck, f"{source}: its deck")
    return deck


def check_result(log: ReplayLog, state: State, source: str = "replay log") -> None:
    """Raise GameError when the log records a result the replay does not reach."""
    if log.result is None:
        return
    if not state.is_terminal():
        raise GameError(
            f"{source}: the log records a result ({_summary(log.result)}), "
            f"but its actions replay to an unfinished game"
        )
    got = _result_model(state.result())
    if got != log.result:
        raise GameError(
            f"{source}: replays to a different result "
            f"({_summary(got)}; the log says {_summary(log.result)})"
        )


def game_from_log(log: ReplayLog, source: str = "replay log") -> Game:
    """The game (deck and rules) the log was played with."""
    from kraftstokk.games.registry import make_game

    table = DeckTable.from_deck(log_deck(log, source))
    rules = log.rules
    try:
        return make_game(rules.game, table, rules.players, rules.variants, rules.action_cap)
    except KraftstokkError as exc:
        raise GameError(f"{source}: {exc.message}") from None


def replay_log(log: ReplayLog | str | Path, *, debug: bool = False) -> State:
    """Replay a log (or the file it is in) to its last position.

    Raises GameError naming the file and the reason when an action is illegal, or when
    the log records a result and the replay ends differently.
    """
    if isinstance(log, ReplayLog):
        source = "replay log"
    else:
        source = str(log)
        log = load_replay(log)
    game = game_from_log(log, source)
    try:
        state = replay(game, log.seed, log.actions, debug=debug, redeals=log.redeals)
    except GameError as exc:
        raise GameError(f"{source}: {exc.message}") from None
    check_result(log, state, source)
    return state


def _result_model(result: Result) -> ReplayResult:
    return ReplayResult.model_validate(result_data(result))


def _summary(result: ReplayResult) -> str:
    state = "finished" if result.finished else "unfinished"
    return (
        f"{state}, order {result.order}, loser {result.loser}, "
        f"{result.actions} actions, {result.rounds} rounds"
    )
