"""Idiot's native core (``_fastcore.c``): the glue between it and the Python game and bots.

:func:`native_core` hands the C module the :class:`IdiotGame` itself, from which it reads
everything it plays by: the rule parameters (``game.parameters``, so every variant, which
only sets parameters, is played with no list of variants here) and the per-card tables
made from ``rules.py``; and each greedy or heuristic seat's keep costs from its
:class:`GreedyBot` or :class:`HeuristicBot` (with the heuristic bot's ``burn_pile``).
The action kinds, phases and counters are compiled into the core from ``ks_game.h``
(``games/cheader.py``). The configuration is built once per game and seating and cached,
since a simulation plays many games with one ``Game``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from kraftstokk.games import native
from kraftstokk.games.core import Bot, Game
from kraftstokk.games.fastcore import NativeCore
from kraftstokk.games.idiot.bots import SPECIAL_COST, GreedyBot, HeuristicBot
from kraftstokk.games.idiot.state import IdiotGame
from kraftstokk.games.random_bot import RandomBot

#: The attributes of :class:`IdiotGame` the core reads by name when it is made
#: (``IdiotCore(game=...)``): the game's size, its rule parameters and its per-card tables
#: (``CARD_TABLES`` in ``_fastcore.c``).
GAME_FIELDS: Final = (
    "num_players",
    "action_cap",
    "parameters",
    "ranks",
    "reach",
    "burns",
    "resets",
    "need_after",
    "may_finish",
    "may_sneak",
    "counts_for_start",
    "run_next",
    "sort_key",
    "plant_cards",
)
#: The fields of :class:`IdiotState` the core reads by name to play on from a position
#: (``core.playout``; ``load_position`` in ``_fastcore.c``): a field renamed in ``state.py``
#: is renamed here and there. ``tests/test_games_core_fields.py`` checks this list
#: against the state and against what the core reads.
STATE_FIELDS: Final = (
    "_hands",
    "_up",
    "_down",
    "_stock",
    "_pile",
    "_need",
    "_run",
    "_phase",
    "_player",
    "_actions",
    "_turns",
    "_over",
    "_loser",
    "_order",
)
#: The keep costs the C core accepts (it computes ``cost * 16`` in 64-bit integers).
COST_LIMIT: Final = 1 << 40
_CACHE_SIZE: Final = 16
#: A seat as the core plays it: the keep costs of a greedy or heuristic bot (None for the
#: random bot) and a heuristic bot's burn_pile (None for the others).
Seat = tuple[tuple[int, ...] | None, int | None]
#: id(game) -> its cores, one (game, seats, core) per seating; the game and the costs are
#: kept so that the ids stay theirs while the entry lives.
_cores: dict[int, list[tuple[IdiotGame, tuple[Seat, ...], NativeCore]]] = {}
_module: Any = None
_loaded = False


def module() -> Any:
    """The C module, or None: not built, older than its source, or the engine is forced
    to pure Python (``native.load_core``)."""
    global _module, _loaded
    if not _loaded:
        _module, _loaded = native.load_core("idiot"), True
    return _module


def _seat_of(bot: Bot, game: IdiotGame) -> Seat | None:
    """How the core plays ``bot``, or None when it cannot (another bot, or a heuristic bot
    made for another game: it decides from that game's ranks and rules)."""
    if type(bot) is GreedyBot:
        return (bot._costs, None)
    if type(bot) is HeuristicBot and isinstance(bot, HeuristicBot):
        rules = bot._rules
        made_here = bot._ranks is game.ranks and (
            rules is game.parameters or rules == game.parameters
        )
        return (bot._costs, bot._burn_pile) if made_here and bot._burn_pile < 1 << 62 else None
    if type(bot) is RandomBot:
        return (None, None)
    return None


def _seating(game: IdiotGame, bots: Sequence[Bot]) -> tuple[Seat, ...] | None:
    seats = []
    for bot in bots:
        seat = _seat_of(bot, game)
        if seat is None:
            return None
        seats.append(seat)
    return tuple(seats)


def _seated(game: IdiotGame, seats: tuple[Seat, ...], bots: Sequence[Bot]) -> bool:
    """Whether ``bots`` are the seating a core was built for (the very same cost tuples)."""
    if len(seats) != len(bots):
        return False
    for (costs, burn_pile), bot in zip(seats, bots, strict=True):
        kind = type(bot)
        if kind is GreedyBot and isinstance(bot, GreedyBot):  # the common seats first
            if burn_pile is not None or bot._costs is not costs:
                return False
        elif kind is RandomBot:
            if costs is not None:
                return False
        else:
            seat = _seat_of(bot, game)
            if seat is None or seat[0] is not costs or seat[1] != burn_pile:
                return False
    return True


def _costs_fit(costs: tuple[int, ...], size: int) -> bool:
    return (
        type(costs) is tuple
        and len(costs) == size
        and all(type(c) is int and -COST_LIMIT <= c <= COST_LIMIT for c in costs)
    )


def _build(game: IdiotGame, seats: tuple[Seat, ...]) -> NativeCore | None:
    size = game.table.size
    if not all(costs is None or _costs_fit(costs, size) for costs, _ in seats):
        return None  # the Python bot plays such costs; the core's arithmetic may not
    core: NativeCore = module().IdiotCore(
        game=game,
        seat_costs=[costs for costs, _ in seats],
        special_cost=SPECIAL_COST,
        burn_piles=[burn_pile for _, burn_pile in seats],
    )
    return core


def native_core(game: Game, bots: Sequence[Bot]) -> NativeCore | None:
    """The native core that plays ``game`` with ``bots`` exactly as ``play_game`` does,
    or None: the module is not built, a bot is not the greedy, heuristic or random bot, or
    the game is not a plain :class:`IdiotGame`."""
    entries = _cores.get(id(game))
    if entries is not None:  # a simulation asks for the same game and seating each game
        for known, seats, core in entries:
            if known is game and _seated(known, seats, bots):
                return core
    return _new_core(game, bots)


def _new_core(game: Game, bots: Sequence[Bot]) -> NativeCore | None:
    if type(game) is not IdiotGame or module() is None:
        return None
    if len(bots) != game.num_players:
        return None
    if game.action_cap >= 1 << 63:
        return None
    seats = _seating(game, bots)
    if seats is None:
        return None
    built = _build(game, seats)
    if built is None:
        return None
    entries = _cores.get(id(game))
    if entries is None:
        if len(_cores) >= _CACHE_SIZE:
            _cores.pop(next(iter(_cores)))
        entries = _cores[id(game)] = []
    if len(entries) >= _CACHE_SIZE:
        entries.pop(0)
    entries.append((game, seats, built))
    return built
