"""Playouts: a position played on to the end by given bots, at core speed where it can be.

A search bot (an expert's determinized rollouts) plays many games on from positions of
its own making: :func:`playout` takes a state of the Python engine (a real one or a
determinized copy with the hidden cards sampled), a bot per seat and a seed, and plays
it to the end (or the game's action cap). Where the game's native core serves those bots
(``games/fastcore.py``: the greedy and random bots), the core reads the position from the
state's fields and plays it; otherwise the Python engine does (:func:`python_playout`),
with the same result either way:

* the state is not changed (the Python engine plays on a clone);
* the game's chance events from the position on draw from ``random.Random(seed)``, and
  seat ``s``'s bot from ``LazyRandom(derive_seed(seed, s + 1))``, as ``play_game`` seeds
  a new game;
* the :class:`~kraftstokk.games.core.Result` counts the actions and rounds of the whole
  game, those before the position included, as ``state.result()`` does;
* ``held`` counts each seat's ``state.remaining_cards(seat)`` where the playout stopped
  (what a search scores a playout by when the action cap stopped it unfinished).

``tests/test_games_playouts.py`` takes positions early, midway and late in seeded games of
every seat count and requires the cores to play exactly the Python engine's actions.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from kraftstokk.errors import GameError
from kraftstokk.games.core import Action, Bot, LazyRandom, Result, State, derive_seed
from kraftstokk.games.fastcore import MAX_SEED, native_core


@dataclass(frozen=True, slots=True)
class Playout:
    """How a position played on ended, and (when recorded) the actions played from it."""

    result: Result
    actions: list[Action] | None
    #: Each seat's count of the cards it still holds at the end (``remaining_cards``).
    held: list[int]


def playout(
    state: State,
    bots: Sequence[Bot],
    seed: int,
    *,
    record: bool = False,
    native: bool = True,
    first: Action | None = None,
) -> Playout:
    """``state`` played on to the end by ``bots`` (one per seat) from ``seed``.

    The native core plays it when one serves these bots (unless ``native`` is False);
    ``record`` asks for the list of actions played (a rollout needs only the result).
    ``first``: a legal action of ``state`` applied (as ``state.apply`` does, to a copy,
    its chance events drawing from ``random.Random(seed)`` too) before the bots play on,
    and not among the recorded actions: a search's candidate move, played without a
    copy of the state where the core applies it itself.
    """
    game = state.game
    if len(bots) != game.num_players:
        raise GameError(f"{game.name} with {game.num_players} players needs as many bots")
    if native and 0 <= seed <= MAX_SEED:
        core = native_core(game, bots)
        if core is not None:
            try:
                finished, order, loser, actions, rounds, played, held = core.playout(
                    state, seed, record, first
                )
            except ValueError as error:  # the core's reading of a position it cannot play
                raise GameError(f"{game.name}: cannot play this position on: {error}") from None
            return Playout(Result(finished, order, loser, actions, rounds), played, held)
    return python_playout(state, bots, seed, record=record, first=first)


def python_playout(
    state: State,
    bots: Sequence[Bot],
    seed: int,
    *,
    record: bool = False,
    first: Action | None = None,
) -> Playout:
    """:func:`playout` by the Python engine: the reference the cores are checked against."""
    position = state.clone()
    position.reseed(random.Random(seed))
    if first is not None:
        position.apply(first)
    bot_rngs = [LazyRandom(derive_seed(seed, seat + 1)) for seat in range(len(bots))]
    actions: list[Action] = []
    position.play_out(bots, bot_rngs, actions)
    held = [len(position.remaining_cards(seat)) for seat in range(len(bots))]
    return Playout(position.result(), actions if record else None, held)
