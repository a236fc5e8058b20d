"""Find games and bots by name: every package ``kraftstokk/games/<name>/`` with a ``spec.py``.

A game package declares itself in ``spec.py`` (``SPEC``, a :class:`GameSpec`); the
registry finds it by that convention, so adding a game touches no other module. A game
defined elsewhere (a test's toy game) is added with :func:`register`. The spec names the
module with ``GAME`` (the Game subclass) and the bots module with ``BOTS``, a mapping
from bot kind (``random``, ``greedy``, ``heuristic``) to a factory ``(game, settings) ->
Bot``; the games do not import their bots, so the two compile without an import cycle.

A bot spec is a comma-separated list with one kind per seat, or a single kind for every
seat; a kind may carry settings: ``heuristic:knowledge=0.5``.
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Callable, Sequence
from typing import Any

from kraftstokk.errors import GameError, SimulationError
from kraftstokk.games.core import DEFAULT_ACTION_CAP, Bot, BotFactory, DeckTable, Game, State
from kraftstokk.games.packages import GAMES_DIR, SPEC_MODULE, package_names
from kraftstokk.games.spec import GameSpec

#: The folder of a game package's own texts (a game from elsewhere; see :func:`register`).
LOCALES = "locales"

#: Games added with :func:`register` (tests patch this mapping).
REGISTERED: dict[str, GameSpec] = {}


@functools.cache
def _discovered() -> dict[str, GameSpec]:
    return {package: _package_spec(package) for package in package_names()}


@functools.cache
def _package_spec(package: str) -> GameSpec:
    """The spec of game package ``package`` (one game's, without the others': a command
    that plays one game loads no other)."""
    module = importlib.import_module(f"{__package__}.{package}.{SPEC_MODULE}")
    spec: GameSpec = module.SPEC
    if spec.name != package:
        raise GameError(
            f"games/{package}/spec.py: the game is named {spec.name!r}, not {package!r}"
        )
    return spec


def specs() -> dict[str, GameSpec]:
    """Every game by name, in the order its spec gives it in the menus
    (``GameSpec.menu_place``, then the name)."""
    every = {**_discovered(), **REGISTERED}
    return {spec.name: spec for spec in sorted(every.values(), key=lambda spec: spec.menu_key)}


def game_names() -> list[str]:
    return list(specs())


def register(spec: GameSpec) -> None:
    """Add a game that lives outside ``kraftstokk/games`` (for example a test's).

    Its texts are the ``locales/<code>/*.toml`` of its package, when it has them (the
    built-in games' are in ``kraftstokk/locales``); a language it has no folder for
    borrows those of ``spec.borrows_words_of``, when the spec names one.
    """
    from importlib import resources  # (here: 3 ms that a run's start does without)

    from kraftstokk import locales

    REGISTERED[spec.name] = spec
    folder = resources.files(spec.package).joinpath(LOCALES)
    if folder.is_dir():
        locales.add_root(spec.name, folder, spec.borrows_words_of)
    else:
        locales.reset()  # what a booklet or a page is made of changed


def unregister(name: str) -> None:
    """Remove a game :func:`register` added (a test's, when it is done)."""
    from kraftstokk import locales

    REGISTERED.pop(name, None)
    locales.drop_root(name)


def get_spec(name: str) -> GameSpec:
    if name in REGISTERED:
        return REGISTERED[name]
    if name.isidentifier() and (GAMES_DIR / name / f"{SPEC_MODULE}.py").is_file():
        return _package_spec(name)
    try:
        return specs()[name]
    except KeyError:
        known = ", ".join(specs())
        raise SimulationError(f"unknown game {name!r} (choose from {known})") from None


def known_spec(name: str) -> GameSpec | None:
    """The spec of game ``name``, None for a game nobody knows: like ``specs().get(name)``,
    without loading every other game's spec (a few milliseconds at the end of a run)."""
    try:
        return get_spec(name)
    except SimulationError:
        return None


def game_class(name: str) -> type[Game]:
    return get_spec(name).game_class()


def bot_kinds(name: str) -> list[str]:
    return sorted(get_spec(name).bot_factories())


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


@functools.lru_cache(maxsize=16)
def _bot_factories(name: str) -> dict[str, BotFactory]:
    return get_spec(name).bot_factories()


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


def bot_maker(game: Game, spec: str) -> Callable[[], list[Bot]]:
    """A function making fresh bots as ``make_bots(game, spec)`` does, for game after game.

    The spec is read and checked (with the errors of :func:`make_bots`) once, here; each
    call then only runs the factories, as a series of games needs new bots per game.
    """
    make_bots(game, spec)
    factories = _bot_factories(game.name)
    plan = [(factories[kind], items) for kind, items in _parsed_spec(spec, game.num_players)]

    def make() -> list[Bot]:
        return [factory(game, dict(items)) for factory, items in plan]

    return make


def from_position(game: Game, **position: Any) -> State:
    """A position of ``game`` set up by hand, for a test or an outside tool.

    The keywords are those of the game's own ``from_position`` (its state module's), e.g.
    Idiot's ``hands``, ``face_up``, ``face_down``, ``stock``, ``pile``, ``player``.
    """
    module = importlib.import_module(get_spec(game.name).game_module)
    setup = getattr(module, "from_position", None)
    if setup is None:
        raise GameError(f"{game.name} cannot be set up from a position")
    state: State = setup(game, **position)
    return state
