"""Game engine: one package per game (RULES.md), with bots.

The public API (``games/README.md`` describes a game package):

* :class:`Game` (the rules, immutable) and :class:`State` (one position:
  ``current_player``, ``legal_actions``, ``apply``, ``is_terminal``, ``result``,
  ``clone``, ``observation``, ``events``), made by name with :func:`make_game`;
* :func:`from_position` to set up a position by hand;
* :func:`play_game` (one game with one bot per seat, :func:`make_bots`) and
  :func:`replay`; replay logs in :mod:`kraftstokk.games.replay`;
* :class:`Narrator`, which tells an :class:`Event`, a move or a view in any language;
* :func:`specs`, every game's :class:`GameSpec`.

The names load with their modules on first use, so that a game's pure ``rules`` module
(which the deck's flags read) can be imported without the engine.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING

from kraftstokk.games.native import use_current_build

use_current_build()  # before any engine module loads: a stale build must not be used

if TYPE_CHECKING:
    from kraftstokk.games.core import Game, State
    from kraftstokk.games.events import Event
    from kraftstokk.games.narration import Narrator
    from kraftstokk.games.registry import from_position, make_bots, make_game, specs
    from kraftstokk.games.runner import GameRecord, play_game, replay
    from kraftstokk.games.spec import GameSpec

_HOME = {
    "Event": "events",
    "Game": "core",
    "GameRecord": "runner",
    "GameSpec": "spec",
    "Narrator": "narration",
    "State": "core",
    "from_position": "registry",
    "make_bots": "registry",
    "make_game": "registry",
    "play_game": "runner",
    "replay": "runner",
    "specs": "registry",
}

__all__ = [
    "Event",
    "Game",
    "GameRecord",
    "GameSpec",
    "Narrator",
    "State",
    "from_position",
    "make_bots",
    "make_game",
    "play_game",
    "replay",
    "specs",
]


def __getattr__(name: str) -> object:
    home = _HOME.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(f"{__name__}.{home}"), name)
    globals()[name] = value
    return value
