"""Strømkrig's native core (``_fastcore.c``): when it may play, and the tables it plays by.

The core plays whole games natively when every seat's bot is exactly this game's
:class:`~kraftstokk.games.stromkrig.bots.GreedyBot` or the framework's
:class:`~kraftstokk.games.random_bot.RandomBot`; any other bot (the heuristic one), a
subclass of the game, or a table the core cannot take gives ``None`` and the Python
engine plays. The pure-Python engine is the reference: the core plays exactly its games,
action for action (``tests/test_games_stromkrig_fastcore.py``).

Every rule the core reads comes from the Python :class:`StromkrigGame` (its per-card
tables, built from ``rules.py``, so each variant of ``SPEC.variants`` is in the tables
already) and the greedy bot's costs from ``bots.py``; nothing is decided here or in C a
second time. The C configuration is made once per game and bot line-up and cached: a
simulation plays many games with one ``Game``.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from types import ModuleType
from typing import Any

from kraftstokk.games import native
from kraftstokk.games.core import Bot, Game
from kraftstokk.games.fastcore import NativeCore
from kraftstokk.games.random_bot import RandomBot
from kraftstokk.games.stromkrig.actions import StromkrigAction, StromkrigPhase
from kraftstokk.games.stromkrig.bots import GreedyBot, _special_costs
from kraftstokk.games.stromkrig.spec import SPEC
from kraftstokk.games.stromkrig.state import StromkrigGame

#: The variants the core plays: every one, since each only changes the game's tables.
SUPPORTED_VARIANTS: frozenset[str] = SPEC.variant_names


@functools.lru_cache(maxsize=1)
def core_module() -> ModuleType | None:
    """The built ``_fastcore`` module, or None (not built, stale, or pure Python wanted)."""
    module = native.load_core(SPEC.name)
    return module if _agrees(module) else None


def _agrees(module: ModuleType | None) -> bool:
    """Whether the module was built with this package's action kinds and phases."""
    if module is None:
        return False
    kinds = tuple(int(kind) for kind in StromkrigAction)
    phases = tuple(int(phase) for phase in StromkrigPhase)
    return bool(kinds == module.KINDS and phases == module.PHASES)


def _finite(values: Sequence[float]) -> bool:
    # The core compares figures as C doubles; Python's min() and tuple order treat NaN
    # differently, so a table with NaN stays with the Python engine.
    return not any(math.isnan(value) for value in values)


@functools.lru_cache(maxsize=64)
def _configured(
    game: StromkrigGame, seats: tuple[int, ...]
) -> tuple[Any, tuple[float, ...]] | None:
    """The C core for ``game`` with these seat kinds, and the greedy costs it was given."""
    module = core_module()
    if module is None:
        return None
    costs = _special_costs(game)
    if not (_finite(costs) and all(_finite(row) for row in game.war_figure)):
        return None
    core = module.Core(
        num_players=game.num_players,
        dealer=game.dealer,
        action_cap=game.action_cap,
        bots=seats,
        hand_order=game.hand_order,
        run_next=game.run_next,
        beats=[[int(flag) for flag in row] for row in game.beats],
        may_lay=[[int(flag) for flag in row] for row in game.may_lay],
        war_starts=[[int(bool(reasons)) for reasons in row] for row in game.war_reasons],
        beats_nothing=[int(flag) for flag in game.beats_nothing],
        special_uses=game.special_uses,
        open_uses=game.open_uses,
        war_figure=game.war_figure,
        costs=costs,
    )
    return core, costs


def native_core(game: Game, bots: Sequence[Bot]) -> NativeCore | None:
    """The native core for this game and these bots, or None when Python must play."""
    if type(game) is not StromkrigGame or len(bots) != game.num_players:
        return None
    if not game.variants <= SUPPORTED_VARIANTS:
        return None
    module = core_module()
    if module is None:
        return None
    seats: list[int] = []
    for bot in bots:
        if type(bot) is RandomBot:
            seats.append(module.BOT_RANDOM)
        elif type(bot) is GreedyBot and bot.game is game:
            seats.append(module.BOT_GREEDY)
        else:
            return None
    configured = _configured(game, tuple(seats))
    if configured is None:
        return None
    core, costs = configured
    for bot in bots:
        if type(bot) is GreedyBot and bot.cost is not costs and bot.cost != costs:
            return None
    result: NativeCore = core
    return result
