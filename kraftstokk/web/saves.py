"""The browser's save of a game, and the bounds every save is held to.

The page keeps one *web save* per game (``{"format": "kraftstokk-web-save", ...}``): a few
fields it shows on the start page (game, players, move, finished) and ``sealed``, the
only part the server reads. Sealed inside (``seal.py``) is what resumes the game: the
rules, the seats, the seed, every action taken (the bots' too, packed by ``record.py`` so
that the sealed text's length tells nothing the person does not know: its fields as JSON,
a NUL, the packed actions) and where the
unseen cards were dealt again (``redeals``). A resume replays the actions and asks no bot
anything, so it costs the same with expert bots as with random ones.

A version-1 save (before this one) holds the person's own moves only: the server plays
the bots again from the seed, as it did the first time, and saves it as version 2.

A replay log (``kraftstokk play --save``, or a finished game downloaded) is read as well:
it holds its seed openly, so whoever has the file knows the deal already; its actions
are the start of the game (``prefix``) and the server's bots play on from there.

Every save, sealed or not, is checked against the same bounds before anything is played:
a game this server has, its player range, known variants, bots of that game and exactly
one person, an action cap no higher than the engine's default, a seed in range, and at
most that many actions of bounded length.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Annotated, Any, Final, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from kraftstokk import locales
from kraftstokk.errors import GameError, RequestRefused, clip
from kraftstokk.games.core import DEFAULT_ACTION_CAP, Action, Redeal
from kraftstokk.games.registry import bot_kinds, game_class
from kraftstokk.games.replay import ReplayLog, upgrade
from kraftstokk.games.view import refusal
from kraftstokk.plain import first_problem
from kraftstokk.web import views
from kraftstokk.web.record import ActionRecord, unpack
from kraftstokk.web.seal import SaveKey, Sealer
from kraftstokk.web.table import (
    PERSON,
    SEED_LIMIT,
    WEB_FORMAT,
    WEB_VERSION,
    deck_digest,
    new_save_id,
)

__all__ = [
    "PERSON",
    "SEED_LIMIT",
    "WEB_FORMAT",
    "WEB_VERSION",
    "GameSave",
    "check_bounds",
    "deck_digest",
    "new_save_id",
    "read_replay_log",
    "read_web_save",
    "seal",
    "sealed_head",
]

MAX_ACTION_LENGTH: Final = 16  # numbers in one action (its kind and what it names)
MAX_ACTION_NUMBER: Final = 2**31  # |any number in an action| is below this
MAX_SEALED: Final = 400_000  # characters of sealed text (the body limit is 512 kB)
BOUNDS: Final = "refusals.bounds"  # web.toml's words for the bounds a save is held to


class WebSave(BaseModel):
    """The save as the page stores it; only ``sealed`` counts, the rest is for showing."""

    model_config = ConfigDict(extra="forbid")

    format: Literal["kraftstokk-web-save"]
    version: Literal[1, 2]
    id: str = Field(max_length=40)
    game: str = Field(max_length=40)
    players: int = Field(ge=0, le=99)
    turn: int = Field(ge=0, le=10 * DEFAULT_ACTION_CAP)
    finished: bool
    sealed: str = Field(max_length=MAX_SEALED)


class _SealedV1(BaseModel):
    """What a version-1 sealed text holds: the person's moves only."""

    model_config = ConfigDict(extra="forbid")

    id: str = Field(max_length=40)
    deck: str = Field(max_length=64)
    game: str = Field(max_length=40)
    players: int
    variants: list[str] = Field(max_length=16)
    action_cap: int
    bots: list[str] = Field(max_length=16)
    seed: str = Field(pattern=r"^[0-9a-f]{16}$")
    prefix: list[list[int]]
    moves: list[list[int]]


HEX8 = r"^[0-9a-f]{8}$"
HEX16 = r"^[0-9a-f]{16}$"


class _Sealed(BaseModel):
    """What the sealed text holds (written by this module only, checked all the same).

    Every number that may tell something hidden has a fixed width: the seed, the point of
    each redeal (it counts the hidden actions too), the actions (``record.py``).
    """

    model_config = ConfigDict(extra="forbid")

    v: Literal[2]
    id: str = Field(max_length=40)
    deck: str = Field(max_length=64)
    game: str = Field(max_length=40)
    players: int
    variants: list[str] = Field(max_length=16)
    action_cap: int
    bots: list[str] = Field(max_length=16)
    seed: str = Field(pattern=HEX16)
    prefix: str = Field(pattern=HEX8)
    redeals: list[tuple[Annotated[str, Field(pattern=HEX8)], Annotated[str, Field(pattern=HEX16)]]]
    room: list[int] | None = Field(max_length=64)  # where the record has hidden slots


@dataclass(frozen=True)
class GameSave:
    """What resumes a game: its rules and seats, the seed, the actions the server replays.

    ``actions`` are every seat's, in order; the first ``prefix`` of them came in a replay
    log (each counts as one of the person's moves: they are all public to the person).
    ``redeals`` are where the unseen cards were dealt again (after ``at`` actions, from a
    seed). A version-1 save has ``moves``: the person's own moves after the prefix, the
    bots' to be played again from the seed (``actions`` is then the prefix alone).
    """

    save_id: str
    deck: str  # the deck's digest (the server's deck must be this one)
    game: str
    players: int
    variants: tuple[str, ...]
    action_cap: int
    bots: tuple[str, ...]  # one PERSON, the bot kinds elsewhere
    seed: int
    actions: tuple[Action, ...] = ()
    prefix: int = 0
    redeals: tuple[Redeal, ...] = ()
    moves: tuple[Action, ...] | None = None  # a version-1 save's

    @property
    def seat(self) -> int:
        return self.bots.index(PERSON)


def seal(sealer: Sealer, head: bytes, record: ActionRecord) -> str:
    """The save sealed: its fields (:func:`sealed_head`), a NUL, and the actions as
    ``record`` packed them (``record.py``). ``sealer`` is the game's own: it seals only
    what was added since it last sealed (``seal.py``)."""
    return sealer.seal(head + b"\0" + record.data())


def sealed_head(save: GameSave, record: ActionRecord) -> bytes:
    """The fields of a sealed save (all but the actions): the same all game long, but for
    a redeal."""
    content = {
        "v": 2,
        "id": save.save_id,
        "deck": save.deck,
        "game": save.game,
        "players": save.players,
        "variants": list(save.variants),
        "action_cap": save.action_cap,
        "bots": list(save.bots),
        "seed": f"{save.seed:016x}",  # fixed width: the length of the text tells nothing
        "prefix": f"{save.prefix:08x}",
        "redeals": [[f"{at:08x}", f"{seed:016x}"] for at, seed in save.redeals],
        "room": None if record.room is None else sorted(record.room),
    }
    return json.dumps(content, separators=(",", ":")).encode()


def read_web_save(raw: dict[str, Any], key: SaveKey, deck: str) -> GameSave:
    """The game in a page's save; refused with the reason (changed, other deck, bounds)."""
    try:
        web = WebSave.model_validate(raw)
    except ValidationError as exc:
        raise RequestRefused(f"save: {clip(first_problem(exc), 300)}") from None
    opened = key.open(web.sealed)
    try:
        save = _version_2(opened) if web.version == 2 else _version_1(opened)
    except ValidationError as exc:  # sealed by this key yet malformed: a bug, said plainly
        raise RequestRefused(f"save: sealed content: {clip(first_problem(exc), 300)}") from None
    except GameError as exc:
        raise RequestRefused(f"save: sealed content: {clip(str(exc), 300)}") from None
    check_bounds(save)
    if save.deck != deck:
        raise refusal("refusals.other_deck", RequestRefused)
    return save


def _version_2(opened: bytes) -> GameSave:
    head, _, record = opened.partition(b"\0")
    content = _Sealed.model_validate_json(head)
    return GameSave(
        save_id=content.id,
        deck=content.deck,
        game=content.game,
        players=content.players,
        variants=tuple(content.variants),
        action_cap=content.action_cap,
        bots=tuple(content.bots),
        seed=int(content.seed, 16),
        actions=tuple(unpack(record, content.room)),
        prefix=int(content.prefix, 16),
        redeals=tuple((int(at, 16), int(seed, 16)) for at, seed in content.redeals),
    )


def _version_1(opened: bytes) -> GameSave:
    content = _SealedV1.model_validate_json(opened)
    return GameSave(
        save_id=content.id,
        deck=content.deck,
        game=content.game,
        players=content.players,
        variants=tuple(content.variants),
        action_cap=content.action_cap,
        bots=tuple(content.bots),
        seed=int(content.seed, 16),
        actions=tuple(tuple(a) for a in content.prefix),
        prefix=len(content.prefix),
        moves=tuple(tuple(a) for a in content.moves),
    )


def read_replay_log(raw: dict[str, Any], deck_json: dict[str, Any], deck: str) -> GameSave:
    """A replay log (``play --save``, a finished game's download) as a game to go on with."""
    try:
        log = ReplayLog.model_validate(raw)
    except ValidationError as exc:
        raise RequestRefused(f"save: {clip(first_problem(exc), 300)}") from None
    try:
        log = upgrade(log, "save")
    except GameError as exc:
        raise RequestRefused(exc.message) from None
    rules = log.rules
    save = GameSave(
        save_id=new_save_id(),
        deck=deck,
        game=rules.game,
        players=rules.players,
        variants=tuple(rules.variants),
        action_cap=rules.action_cap,
        bots=tuple(log.bots),
        seed=log.seed,
        actions=tuple(tuple(a) for a in log.actions),
        prefix=len(log.actions),
        redeals=tuple(log.redeals),
    )
    check_bounds(save)
    if log.deck != deck_json:
        title = log.deck.get("title"), log.deck.get("edition")
        raise refusal(
            "refusals.other_deck_named",
            RequestRefused,
            title=clip(str(title[0]), 60),
            edition=clip(str(title[1]), 20),
        )
    return save


def check_bounds(save: GameSave) -> None:
    """Refuse a save that no game of this server could have written (RequestRefused, its
    reason in every language the page speaks: a hand-edited upload meets these)."""
    if save.game not in views.games():
        raise _bound("unknown_game", game=repr(clip(save.game, 40)))
    cls = game_class(save.game)
    if not cls.min_players <= save.players <= cls.max_players:
        raise _bound(
            "players",
            game=save.game,
            low=str(cls.min_players),
            high=str(cls.max_players),
            players=str(save.players),
        )
    unknown = sorted(set(save.variants) - cls.allowed_variants)
    if unknown or len(set(save.variants)) != len(save.variants):
        allowed = ", ".join(sorted(cls.allowed_variants))
        shown: Any = allowed or (lambda code: locales.text(code, "web", f"{BOUNDS}.no_variants"))
        if unknown:
            raise _bound("variants", variants=clip(", ".join(unknown), 80), allowed=shown)
        raise _bound("variants_repeated", allowed=shown)
    if not 1 <= save.action_cap <= DEFAULT_ACTION_CAP:
        raise _bound("action_cap", cap=str(save.action_cap), most=str(DEFAULT_ACTION_CAP))
    _check_seats(save)
    if not 0 <= save.seed < SEED_LIMIT:
        raise _bound("seed", seed=str(save.seed))
    actions = len(save.actions) + len(save.moves or ())
    if actions > save.action_cap:
        raise _bound("actions", actions=str(actions), cap=str(save.action_cap))
    if not 0 <= save.prefix <= len(save.actions):
        raise _bound("prefix", prefix=str(save.prefix), actions=str(len(save.actions)))
    points = [at for at, _ in save.redeals]
    if points != sorted(set(points)) or any(not 0 <= at <= len(save.actions) for at in points):
        raise _bound("redeals", actions=str(len(save.actions)))
    if any(not 0 <= seed < SEED_LIMIT for _, seed in save.redeals):
        raise _bound("redeals", actions=str(len(save.actions)))
    _check_actions(save.actions)
    _check_actions(save.moves or ())


def _bound(key: str, **values: object) -> RequestRefused:
    return refusal(f"{BOUNDS}.{key}", RequestRefused, **values)


def _check_seats(save: GameSave) -> None:
    if len(save.bots) != save.players or save.bots.count(PERSON) != 1:
        shown = clip(", ".join(save.bots), 120)
        raise _bound("seats", person=repr(PERSON), players=str(save.players), bots=shown)
    kinds = set(bot_kinds(save.game))
    strangers = sorted({bot for bot in save.bots if bot != PERSON and bot not in kinds})
    if strangers:
        raise _bound(
            "bot",
            game=save.game,
            bot=repr(clip(strangers[0], 40)),
            kinds=", ".join(sorted(kinds)),
        )


def _check_actions(actions: Sequence[Action]) -> None:
    for number, action in enumerate(actions, start=1):
        if not 1 <= len(action) <= MAX_ACTION_LENGTH or any(
            not -MAX_ACTION_NUMBER < part < MAX_ACTION_NUMBER for part in action
        ):
            raise _bound("action", number=str(number), action=clip(str(list(action)), 60))
