"""Find games and bots by name: ``idiot``, ``kraftidioten``, ``stromkrig``.

Each game module defines ``GAME`` (its :class:`~kraftstokk.games.core.Game` subclass); its
bots module (``idiot_bots``, ...) defines ``BOTS``, a mapping from bot kind (``random``,
``greedy``, ``heuristic``) to a factory ``(game, settings) -> Bot``. The games do not import
their bots, so the two can be compiled and loaded without an import cycle.

A bot spec is a comma-separated list with one kind per seat, or a single kind for every
seat; a kind may carry settings: ``heuristic:knowledge=0.5``.
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Sequence
from typing import Any

from kraftstokk.errors import SimulationError
from kraftstokk.games.core import DEFAULT_ACTION_CAP, Bot, BotFactory, DeckTable, Game

GAME_MODULES: dict[str, str] = {
    "idiot": "kraftstokk.games.idiot",
    "kraftidioten": "kraftstokk.games.kraftidioten",
    "stromkrig": "kraftstokk.games.stromkrig",
}
BOT_MODULES: dict[str, str] = {name: f"{module}_bots" for name, module in GAME_MODULES.items()}


def _module(name: str) -> Any:
    try:
        return importlib.import_module(GAME_MODULES[name])
    except KeyError:
        known = ", ".join(GAME_MODULES)
        raise SimulationError(f"unknown game {name!r} (choose from {known})") from None


def _bot_factories(name: str) -> dict[str, BotFactory]:
    factories: dict[str, BotFactory] = importlib.import_module(BOT_MODULES[name]).BOTS
    return factories


def game_class(name: str) -> type[Game]:
    cls: type[Game] = _module(name).GAME
    return cls


def bot_kinds(name: str) -> list[str]:
    _module(name)  # an unknown game gets the message listing the games
    return sorted(_bot_factories(name))


def make_game(
    name: str,
    table: DeckTable,
    players: int,
    variants: Sequence[str] = (),
    action_cap: int = DEFAULT_ACTION_CAP,
) -> Game:
    return game_class(name)(table, players, variants, action_cap)


def _parse_setting(kind: str, item: str) -> tuple[str, Any]:
    key, sep, raw = item.partition("=")
    if not sep or not key:
        raise SimulationError(f"bot {kind}: setting {item!r} is not key=value")
    for convert in (int, float):
        try:
            return key, convert(raw)
        except ValueError:
            continue
    return key, raw


def parse_bot_spec(spec: str, players: int) -> list[tuple[str, dict[str, Any]]]:
    """``'heuristic,greedy'`` -> one (kind, settings) per seat."""
    parts = [part.strip() for part in spec.split(",") if part.strip()]
    if not parts:
        raise SimulationError("--bots is empty")
    if len(parts) == 1:
        parts = parts * players
    if len(parts) != players:
        raise SimulationError(f"--bots names {len(parts)} bots for {players} players")
    seats = []
    for part in parts:
        kind, *settings = part.split(":")
        seats.append((kind, dict(_parse_setting(kind, s) for s in settings)))
    return seats


@functools.lru_cache(maxsize=64)
def _parsed_spec(spec: str, players: int) -> tuple[tuple[str, tuple[tuple[str, Any], ...]], ...]:
    # A simulation makes bots from one spec for every game: parse it once.
    return tuple(
        (kind, tuple(settings.items())) for kind, settings in parse_bot_spec(spec, players)
    )


def make_bots(game: Game, spec: str) -> list[Bot]:
    factories = _bot_factories(game.name)
    bots = []
    for kind, items in _parsed_spec(spec, game.num_players):
        settings = dict(items)
        if kind not in factories:
            known = ", ".join(sorted(factories))
            raise SimulationError(f"{game.name} has no bot {kind!r} (choose from {known})")
        try:
            bots.append(factories[kind](game, settings))
        except (TypeError, ValueError) as exc:
            raise SimulationError(f"bot {kind}: {exc}") from None
    return bots
