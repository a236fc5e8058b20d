"""Strømkrig's native core (``_fastcore.c``): when it may play, and the tables it plays by.

The core plays whole games natively when every seat's bot is exactly this game's
:class:`~kraftstokk.games.stromkrig.bots.GreedyBot` or
:class:`~kraftstokk.games.stromkrig.bots.HeuristicBot` (with its settings) or the
framework's :class:`~kraftstokk.games.random_bot.RandomBot`; any other bot, a subclass
of the game, or a table the core cannot take gives ``None`` and the Python engine plays.
The pure-Python engine is the reference: the core plays exactly its games, action for
action (``tests/test_games_stromkrig_fastcore.py``, ``tests/test_games_fastcore.py``).

Every rule the core reads comes from the Python :class:`StromkrigGame` (its rule
parameters and its per-card tables, built from ``rules.py``, so each variant of
``SPEC.variants`` is in them already), the greedy bot's costs and each heuristic seat's
settings from ``bots.py``; nothing is decided here or in C a second time. The action
kinds, phases and counters are compiled into the core from ``ks_game.h``
(``games/cheader.py``). The C configuration is made once per game and bot line-up and
cached: a simulation plays many games with one ``Game``.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from types import ModuleType
from typing import Final

from kraftstokk.games import native
from kraftstokk.games.core import Bot, Game
from kraftstokk.games.fastcore import NativeCore
from kraftstokk.games.random_bot import RandomBot
from kraftstokk.games.stromkrig.bots import GreedyBot, HeuristicBot, _special_costs
from kraftstokk.games.stromkrig.spec import SPEC
from kraftstokk.games.stromkrig.state import StromkrigGame

#: The fields of :class:`StromkrigState` the core reads by name to play on from a position
#: (``core.playout``; ``load_position`` in ``_fastcore.c``): a field renamed in ``state.py``
#: is renamed here and there. ``tests/test_games_core_fields.py`` checks this list
#: against the state and against what the core reads.
STATE_FIELDS: Final = (
    "hands",
    "stock",
    "pile",
    "beside",
    "burned",
    "war_cards",
    "top",
    "top_owner",
    "chance_card",
    "current",
    "phase",
    "actions",
    "turns",
    "challenger",
    "war_category",
    "out",
    "order",
    "war_players",
    "ask_queue",
    "round_players",
    "round_laid",
)
#: A heuristic seat's settings in the core: (join_nr, war_nr, explore).
Settings = tuple[int, int, float]
#: A seat as the core plays it: the greedy or random bot's code, or the heuristic bot's
#: code with its settings (plain ints for the common seats: a simulation asks every game).
Seat = int | tuple[int, Settings]
#: Settings the core holds in C longs; the Python bot plays any beyond.
_NR_LIMIT: Final = 2**31 - 1


@functools.lru_cache(maxsize=1)
def core_module() -> ModuleType | None:
    """The built ``_fastcore`` module, or None (not built, stale, or pure Python wanted)."""
    return native.load_core(SPEC.name)


def _finite(values: Sequence[float]) -> bool:
    # The core compares figures as C doubles; Python's min() and tuple order treat NaN
    # differently, so a table with NaN stays with the Python engine.
    return not any(math.isnan(value) for value in values)


class _GameCores:
    """One game's tables for the core, and its cores by seat kinds (made when first asked)."""

    def __init__(self, module: ModuleType, game: StromkrigGame) -> None:
        self.module = module
        self.game = game
        self.costs = _special_costs(game)
        self.cores: dict[tuple[Seat, ...], NativeCore] = {}

    def core(self, seats: tuple[Seat, ...]) -> NativeCore:
        core = self.cores.get(seats)
        if core is None:
            game = self.game
            table = game.table
            core = self.cores[seats] = self.module.Core(
                num_players=game.num_players,
                dealer=game.dealer,
                action_cap=game.action_cap,
                parameters=game.parameters,
                bots=[seat if isinstance(seat, int) else seat[0] for seat in seats],
                hand_order=game.hand_order,
                run_next=game.run_next,
                beats=[[int(flag) for flag in row] for row in game.beats],
                may_lay=[[int(flag) for flag in row] for row in game.may_lay],
                war_starts=[[int(bool(reasons)) for reasons in row] for row in game.war_reasons],
                beats_nothing=[int(flag) for flag in game.beats_nothing],
                special_uses=game.special_uses,
                open_uses=game.open_uses,
                war_figure=game.war_figure,
                costs=self.costs,
                heuristics=[None if isinstance(seat, int) else seat[1] for seat in seats],
                production=game.production,
                gwh_nr=game.gwh_nr,
                nr=table.nr,
                joker=[int(flag) for flag in table.joker],
                special=[
                    int(game.burner[c] or game.resetter[c] or game.invisible[c])
                    for c in range(table.size)
                ],
            )
        return core


@functools.lru_cache(maxsize=16)
def _game_cores(game: StromkrigGame) -> _GameCores | None:
    """The cores of a game the core can play, or None (NaN figures, not built)."""
    module = core_module()
    if module is None:
        return None
    cores = _GameCores(module, game)
    if not (_finite(cores.costs) and all(_finite(row) for row in game.war_figure)):
        return None
    return cores


def native_core(game: Game, bots: Sequence[Bot]) -> NativeCore | None:
    """The native core for this game and these bots, or None when Python must play."""
    if type(game) is not StromkrigGame:
        return None
    cores = _game_cores(game)
    if cores is None or len(bots) != game.num_players:
        return None
    costs = cores.costs
    seats: list[Seat] = []
    for bot in bots:
        if type(bot) is GreedyBot:
            if bot.game is not game or (bot.cost is not costs and bot.cost != costs):
                return None
            seats.append(cores.module.BOT_GREEDY)
        elif type(bot) is HeuristicBot:
            settings = _heuristic_settings(bot, game)
            if settings is None:
                return None
            seats.append((cores.module.BOT_HEURISTIC, settings))
        elif type(bot) is RandomBot:
            seats.append(cores.module.BOT_RANDOM)
        else:
            return None
    return cores.core(tuple(seats))


def _heuristic_settings(bot: HeuristicBot, game: StromkrigGame) -> Settings | None:
    """A heuristic seat's (join_nr, war_nr, explore) for the core, or None when the
    Python bot must play it (made for another game, or settings beyond the core's ints)."""
    join_nr, war_nr, explore = bot.join_nr, bot.war_nr, bot.explore
    if bot.game is not game or not all(abs(nr) <= _NR_LIMIT for nr in (join_nr, war_nr)):
        return None
    return (join_nr, war_nr, explore)
