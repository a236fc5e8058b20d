"""Native cores: a game's whole bot loop in C, for the seats whose bots have one.

A game package may hold ``_fastcore.c`` (built by ``make engine`` into the extension
module ``kraftstokk.games.<game>._fastcore``) and ``fast.py``, whose
``native_core(game, bots)`` returns a :class:`NativeCore` when the core can play that
game with those bots (the greedy and random bots, the variants it knows), else None.
:func:`runner.play_game` then plays through the core; everything else (other bots, play
sessions, the web app, replays) uses the Python engine.

The Python engine stays the reference and the readable source of the rules: a core
takes exactly the Python engine's actions, random draws included (``_csrc/ks_random.h``
reproduces ``random.Random``), and counts exactly what the Python events count.
``tests/test_games_fastcore.py`` plays tens of thousands of seeded games through both
and requires them identical.
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from kraftstokk.games.core import Action, Bot, Game, State

#: What a core's ``play`` returns: (actions, finished, order, loser, rounds, counters,
#: samples, cards_played, loser_cards, playability, branching), each exactly as the
#: Python engine has it (the last two: ``Stats.playability`` and ``Stats.branching``).
NativeRun = tuple[
    list["Action"],
    bool,
    list[int],
    "int | None",
    int,
    dict[str, int],
    dict[str, list[int]],
    list[int],
    list[int],
    list[int],
    bytes,
]

#: What a core's ``play_chunk(series, start, stop)`` returns for games ``start`` to ``stop -
#: 1`` of a series (game i played as ``play(derive_seed(series, i))`` plays it), with no
#: Python object per game (``_csrc/ks_chunk.h``): (rows, counter names, counters seen,
#: sample names, samples, cards played, losers' cards, branching). ``rows``: per game,
#: native int64s (:data:`ROW_FIXED`, then the figures of play in ``playability.FIGURES``'s
#: order, then each counter's value in the order of ``counter names``, 0 where the game
#: did not count it, then per name of ``sample names`` the count and the sum of the
#: values the game took); ``counters seen``: a byte per counter, 1 when a game of the
#: chunk counted it; ``samples``: per sample name any game took, the histogram of the
#: values (value -> how often); the cards played and the losers' cards of the finished
#: games (per card, int64s) and the decisions with a real choice by their count of
#: distinct moves ((moves, decisions) int64 pairs, rising), over the chunk.
NativeChunk = tuple[
    bytes, tuple[str, ...], bytes, tuple[str, ...], dict[str, dict[int, int]], bytes, bytes, bytes
]
#: The first columns of a chunk's row: its result (winner and loser -1 where none).
ROW_FIXED: tuple[str, ...] = ("finished", "actions", "rounds", "winner", "loser")

#: Seeds a core takes: ``random.Random`` seeds a larger or negative one differently.
MAX_SEED = 2**64 - 1


class NativeCore(Protocol):
    """One game's rules and bots, set up natively once, playing a game per seed."""

    def play(self, seed: int) -> NativeRun:
        """The game ``play_game(game, bots, seed)`` plays, as a :data:`NativeRun`."""
        ...

    def play_chunk(self, series: int, start: int, stop: int) -> NativeChunk:
        """Games ``start`` to ``stop - 1`` of the series ``series``, game i the one
        ``play(derive_seed(series, i))`` plays, as a :data:`NativeChunk`."""
        ...

    def deal(self, seed: int) -> dict[str, list[int]]:
        """``game.new_initial_state(random.Random(seed)).card_locations()``."""
        ...

    def playout(
        self, state: State, seed: int, record: bool, first: Action | None = None
    ) -> tuple[bool, list[int], int | None, int, int, list[Action] | None, list[int]]:
        """``playouts.python_playout(state, bots, seed, first=first)`` played natively:
        (finished, order, loser, actions, rounds) of its result, the actions played when
        ``record`` (else None) and each seat's count of cards held at the end; a
        ValueError for a position the core cannot read or a ``first`` it cannot apply."""
        ...


CoreFinder = Callable[["Game", Sequence["Bot"]], "NativeCore | None"]

_finders: dict[type, CoreFinder | None] = {}


def finder_for(game: Game) -> CoreFinder | None:
    """The ``native_core`` function of the game's package, or None when it has none."""
    kind = type(game)
    if kind not in _finders:
        package = kind.__module__.rpartition(".")[0]
        module_name = f"{package}.fast"
        found: CoreFinder | None = None
        if package and importlib.util.find_spec(module_name) is not None:
            found = importlib.import_module(module_name).native_core
        _finders[kind] = found
    return _finders[kind]


def native_core(game: Game, bots: Sequence[Bot]) -> NativeCore | None:
    """The core that plays ``game`` with ``bots``, or None (the Python engine plays)."""
    kind = type(game)
    finder = _finders[kind] if kind in _finders else finder_for(game)
    return finder(game, bots) if finder is not None else None
