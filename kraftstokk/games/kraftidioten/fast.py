"""Kraftidioten's native core (``_fastcore.c``): greedy, heuristic and random seats.

:func:`native_core` hands the core a game's own tables once (the rule parameters, the
printed figures, the top-3 flags, the false claims and their figures, the action tuples,
and the greedy bot's ranks and figures, taken from a :class:`GreedyBot` of that game),
so no rule or policy data is written twice; the action kinds and counters are compiled
into the core from ``ks_game.h`` (``games/cheader.py``). It gives a core only when every
seat is exactly the greedy or the heuristic bot (made for this game; the heuristic one
with its settings) or the framework's random bot. The Python engine (``state.py``,
``bots.py``) stays the reference: the core plays the same games, every random draw
included (``tests/test_games_fastcore.py``, ``tests/test_games_kraftidioten_fastcore.py``).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any, Final

from kraftstokk.errors import GameError
from kraftstokk.games import native
from kraftstokk.games.core import Bot, Game
from kraftstokk.games.fastcore import NativeCore
from kraftstokk.games.kraftidioten.actions import (
    CHALLENGE_ACTION,
    DRAW_ACTION,
    PASS_ACTION,
    TAKE_ACTION,
)
from kraftstokk.games.kraftidioten.bots import GreedyBot, HeuristicBot
from kraftstokk.games.kraftidioten.rules import BURNED, NOT_SHOWN
from kraftstokk.games.kraftidioten.state import KraftidiotenGame
from kraftstokk.games.random_bot import RandomBot

#: The fields of :class:`KraftidiotenState` the core reads by name to play on from a position
#: (``core.playout``; ``ki_load_position`` in ``_fastcore.c``): a field renamed in ``state.py``
#: is renamed here and there. ``tests/test_games_core_fields.py`` checks this list
#: against the state and against what the core reads.
STATE_FIELDS: Final = (
    "hands",
    "stock",
    "pile",
    "burned",
    "category",
    "phase",
    "player",
    "layer",
    "layer_emptied",
    "top3_claim",
    "lie_card",
    "lie_category",
    "finished",
    "actions",
    "turns",
    "claims",
    "last_shown",
    "floor",
    "active",
    "out_order",
)
#: Action caps and stated figures beyond this are never reached; the core counts in int64.
_NATIVE_LIMIT: Final = 2**62
#: A heuristic seat's settings in the core: (knowledge, top3_challenge, bluff).
Settings = tuple[float, float, float]
#: A seat as the core plays it: the greedy or random bot's code, or the heuristic bot's
#: code with its settings (plain ints for the common seats: a simulation asks every game).
Seat = int | tuple[int, Settings]
#: Games whose tables were handed to the core, the most recent last.
_CACHE_SIZE: Final = 16


class _GameCore:
    """One game's tables in the core, the greedy bot they came from, and a core per
    seating (which seats are greedy, which random)."""

    def __init__(self, module: Any, game: KraftidiotenGame) -> None:
        reference = GreedyBot(game)
        self.game = game
        self.module = module
        self.greedy_figures = reference._plant_figures
        self.greedy_truthful = reference._truthful
        table = game.table
        #: What the core's ``Rules`` is made from (kept for tests of its checks).
        self.arguments: dict[str, Any] = dict(
            num_players=game.num_players,
            action_cap=min(game.action_cap, _NATIVE_LIMIT),
            parameters=game.parameters,
            max_claim_figure=min(game.max_claim_figure, _NATIVE_LIMIT),
            joker=table.joker,
            plants=game.plants,
            jokers=game.jokers,
            claim_figures=game.claim_figures,
            top3=game.top3,
            false_claims=game.false_claims,
            false_figures=game.false_figures,
            truth_actions=game.truth_actions,
            lie_actions=game.lie_actions,
            joker_actions=game.joker_actions,
            take_action=TAKE_ACTION,
            draw_action=DRAW_ACTION,
            challenge_action=CHALLENGE_ACTION,
            pass_action=PASS_ACTION,
            greedy_nr=reference._nr,
            greedy_figures=reference._plant_figures,
            greedy_truthful=reference._truthful,
            game_error=GameError,
            by_figure=game.by_figure,
            sorted_figures=game.sorted_figures,
            burned_mark=BURNED,
            not_shown=NOT_SHOWN,
        )
        self.rules = module.Rules(**self.arguments)
        self.cores: dict[tuple[Seat, ...], NativeCore] = {}
        self.greedy_code = int(module.GREEDY)
        self.random_code = int(module.RANDOM)
        self.heuristic_code = int(module.HEURISTIC)

    def core(self, bots: Sequence[Bot]) -> NativeCore | None:
        """The core for these seats, or None when a seat's bot is not one the core plays."""
        seating: list[Seat] = []
        for bot in bots:
            kind = type(bot)
            if kind is RandomBot:
                seating.append(self.random_code)
            elif kind is HeuristicBot and isinstance(bot, HeuristicBot) and self._made_for(bot):
                settings = (bot.knowledge, bot.top3_challenge, bot.bluff)
                seating.append((self.heuristic_code, settings))
            # A greedy bot made for another game would decide from that game's tables
            # (the table's ranks and jokers come with the game's own figures and actions).
            elif (
                type(bot) is GreedyBot
                and bot._plant_figures is self.greedy_figures
                and bot._truthful is self.greedy_truthful
            ):
                seating.append(self.greedy_code)
            else:
                return None
        key = tuple(seating)
        found = self.cores.get(key)
        if found is None:
            found = self.cores[key] = self.module.Core(
                rules=self.rules,
                seat_bots=[seat if isinstance(seat, int) else seat[0] for seat in key],
                heuristics=[None if isinstance(seat, int) else seat[1] for seat in key],
            )
        return found

    def _made_for(self, bot: HeuristicBot) -> bool:
        """Whether the heuristic bot decides from this game's own tables (as the core does)."""
        game = self.game
        return (
            bot._figures is game.claim_figures
            and bot._top3 is game.top3
            and bot._by_figure is game.by_figure
            and bot._sorted_figures is game.sorted_figures
            and bot._nr is game.table.nr
            and bot._joker is game.table.joker
            and (bot._rules is game.parameters or bot._rules == game.parameters)
        )


_games: dict[int, _GameCore] = {}


@functools.cache
def core_module() -> Any:
    """The built ``_fastcore`` module, or None (not built, stale, or pure Python wanted)."""
    return native.load_core("kraftidioten")


def _game_core(game: KraftidiotenGame) -> _GameCore | None:
    entry = _games.get(id(game))
    if entry is not None and entry.game is game:
        return entry
    module = core_module()
    if module is None or game.table.size > module.MAX_CARDS:
        return None  # the core's fixed arrays hold this many cards (a deck has 55)
    if game.parameters.joker_penalty > module.MAX_PENALTY:
        return None  # the core draws a penalty as Random.sample does for small ones only
    entry = _GameCore(module, game)
    _games.pop(id(game), None)
    if len(_games) >= _CACHE_SIZE:
        del _games[next(iter(_games))]
    _games[id(game)] = entry
    return entry


def native_core(game: Game, bots: Sequence[Bot]) -> NativeCore | None:
    """The core that plays ``game`` with ``bots`` exactly as the Python engine, or None."""
    if type(game) is not KraftidiotenGame or len(bots) != game.num_players:
        return None
    entry = _game_core(game)
    return entry.core(bots) if entry is not None else None
