"""Game engine: Idiot, Kraftidioten and Strømkrig (RULES.md), with bots.

The public API (``games/README.md`` describes a game package):

* :class:`Game` (the rules, immutable) and :class:`State` (one position:
  ``current_player``, ``legal_actions``, ``apply``, ``is_terminal``, ``result``,
  ``clone``, ``observation``, ``events``), made by name with :func:`make_game`;
* :func:`from_position` to set up a position by hand;
* :func:`play_game` (one game with one bot per seat, :func:`make_bots`) and
  :func:`replay`; replay logs in :mod:`kraftstokk.games.replay`;
* :class:`Narrator`, which tells an :class:`Event` or an observation in nb or en;
* :func:`specs`, every game's :class:`GameSpec`.
"""

from kraftstokk.games.native import use_current_build

use_current_build()  # before any engine module loads: a stale build must not be used

from kraftstokk.games.core import Game, GameRecord, State, play_game, replay  # noqa: E402
from kraftstokk.games.events import Event, Narrator  # noqa: E402
from kraftstokk.games.registry import (  # noqa: E402
    from_position,
    make_bots,
    make_game,
    specs,
)
from kraftstokk.games.spec import GameSpec  # noqa: E402

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
