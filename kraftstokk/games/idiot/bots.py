"""Idiot bots beyond random-legal: greedy, heuristic and expert. They see only their seat's
observation (the greedy bot only the legal actions)."""

from __future__ import annotations

import functools
import random
from collections.abc import Sequence
from typing import Any

from kraftstokk.games.core import Action, BotFactory, Game
from kraftstokk.games.idiot.actions import (
    CHANCE,
    END_RUN,
    FACE_DOWN,
    PASS,
    PLAY,
    READY,
    SNEAK,
    SWAP,
    TAKE,
)
from kraftstokk.games.idiot.determinize import determinize
from kraftstokk.games.idiot.observation import IdiotObservation
from kraftstokk.games.idiot.rules import IdiotRules, burns_on_top
from kraftstokk.games.idiot.state import IdiotGame
from kraftstokk.games.random_bot import random_bot
from kraftstokk.games.search import ExpertSpec, SearchCost, expert_factory

# Ordering keys: lower is preferred. A play's key is its card cost times 16 minus its
# length, so among plays of one rank the one laying most cards wins.
_FACE_DOWN_KEY = 1000
_END_RUN_KEY = 2000
_CHANCE_KEY = 3000
_TAKE_KEY = 4000
_OTHER_KEY = 5000
#: The keep cost of a card that resets (a 2) and of one that burns (a 10): above every
#: rank, so they are kept for when nothing else can be laid; a cost from ``SPECIAL_COST``
#: marks a card kept back.
SPECIAL_COST = 15
_RESET_COST = SPECIAL_COST
_BURN_COST = SPECIAL_COST + 1


def _idiot(game: Game) -> IdiotGame:
    if not isinstance(game, IdiotGame):
        raise ValueError(f"an idiot bot cannot play {game.name}")
    return game


@functools.lru_cache(maxsize=16)
def keep_costs(game: IdiotGame) -> tuple[int, ...]:
    """What each card is worth keeping: its rank, with the 2 and the 10 dearest.

    One tuple per game, shared by all its bots (the native core knows a seating by it).
    """
    return tuple(
        _BURN_COST if burns else _RESET_COST if resets else rank
        for rank, burns, resets in zip(game.ranks, game.burns, game.resets, strict=True)
    )


class GreedyBot:
    """The cheapest legal play (lowest rank, as many cards as it has); the pile only if forced.

    Swaps nothing; continues a run while it can; takes a chance before the pile. It
    decides from the legal actions alone, so the engine builds no observation for it.
    """

    reads_observation = False

    def __init__(self, costs: tuple[int, ...]) -> None:
        self._costs = costs

    @classmethod
    def from_settings(cls, game: Game, settings: dict[str, Any]) -> GreedyBot:
        if settings:
            raise ValueError(f"greedy takes no settings, got {', '.join(settings)}")
        return cls(keep_costs(_idiot(game)))

    def act(
        self, observation: IdiotObservation | None, legal: Sequence[Action], rng: random.Random
    ) -> Action:
        costs = self._costs
        # Plays come ordered by rank, then by count: the first ordinary rank is the
        # cheapest, and its last action lays the most cards.
        cheapest: Action | None = None
        cheapest_cost = 0
        for action in legal:
            if action[0] == PLAY:
                cost = costs[action[1]]
                if cost < SPECIAL_COST:
                    if cheapest is None:
                        cheapest, cheapest_cost = action, cost
                    elif cost == cheapest_cost:
                        cheapest = action
                    else:
                        break
        if cheapest is not None:
            return cheapest
        best = legal[0]
        best_key = 1 << 30
        for action in legal:
            kind = action[0]
            if kind == PLAY:
                key = costs[action[1]] * 16 - len(action)
            elif kind == SNEAK:
                key = costs[action[1]] * 16 + 8 - len(action)
            elif kind == READY:
                return action
            elif kind == FACE_DOWN:
                key = _FACE_DOWN_KEY + action[1]
            elif kind == END_RUN:
                key = _END_RUN_KEY
            elif kind == CHANCE:
                key = _CHANCE_KEY
            elif kind == TAKE:
                key = _TAKE_KEY
            else:
                key = _OTHER_KEY
            if key < best_key:
                best, best_key = action, key
        return best


class HeuristicBot:
    """Plays like a careful person.

    * Swap phase: moves its best cards (10, 2, then aces down) to the face-up row.
    * Completes a burn by one rank on top (ID-8) when it can: another turn.
    * Otherwise lays its lowest ordinary rank, all copies; slips 3s under the pile.
    * Keeps 2s and 10s for when it is stuck: then a 10 if the pile has at least
      ``burn_pile`` cards (default 4), else a 2, else the 10.
    * Stops a run before giving away high cards while the stock lasts.
    * With nothing to lay: a chance while the stock lasts, else the pile.
    """

    def __init__(self, game: IdiotGame, burn_pile: int) -> None:
        self._costs = keep_costs(game)
        self._ranks = game.ranks
        self._burns = game.burns
        self._resets = game.resets
        self._rules: IdiotRules = game.parameters
        self._burn_pile = burn_pile

    @classmethod
    def from_settings(cls, game: Game, settings: dict[str, Any]) -> HeuristicBot:
        options = dict(settings)
        burn_pile = options.pop("burn_pile", 4)
        if options:
            raise ValueError(f"heuristic takes only burn_pile, got {', '.join(options)}")
        if not isinstance(burn_pile, int) or burn_pile < 0:
            raise ValueError(f"burn_pile must be a whole number >= 0, not {burn_pile!r}")
        return cls(_idiot(game), burn_pile)

    def act(
        self, observation: IdiotObservation, legal: Sequence[Action], rng: random.Random
    ) -> Action:
        obs = observation
        first = legal[0][0]
        if first in (SWAP, READY):
            return self._swap(legal)
        ranks = self._ranks
        costs = self._costs
        plays = [a for a in legal if a[0] == PLAY]
        if plays:
            pile = obs.pile
            if pile:
                top = pile[-1]
                for action in plays:
                    # Completes a burn (ID-8) without spending 2s.
                    if (
                        ranks[action[1]] == ranks[top]
                        and not self._resets[top]
                        and burns_on_top((*pile, *action[1:]), ranks, self._rules)
                    ):
                        return action
            ordinary = [a for a in plays if costs[a[1]] < SPECIAL_COST]
            if ordinary:
                best = min(ordinary, key=lambda a: costs[a[1]] * 16 - len(a))
                if obs.run_rank and costs[best[1]] >= 12 and obs.stock_count:
                    return (END_RUN,)
                return best
        sneaks = [a for a in legal if a[0] == SNEAK]
        if sneaks:
            return max(sneaks, key=len)
        if plays:
            tens = [a for a in plays if self._burns[a[1]]]
            twos = [a for a in plays if self._resets[a[1]]]
            if tens and (obs.pile_size >= self._burn_pile or not twos):
                return tens[0]
            if twos:
                return twos[0]
        for kind in (FACE_DOWN, END_RUN, CHANCE, TAKE, PASS):
            for action in legal:
                if action[0] == kind:
                    return action
        return legal[0]

    def _swap(self, legal: Sequence[Action]) -> Action:
        costs = self._costs
        best: Action = (READY,)
        gain = 0
        for action in legal:
            if action[0] == SWAP:
                diff = costs[action[1]] - costs[action[2]]
                if diff > gain:
                    best, gain = action, diff
        return best


def _worth_searching(observation: IdiotObservation, legal: Sequence[Action]) -> list[Action]:
    """Per rank one card or all of them; one face-down slot (the seat knows none of them)."""
    ranks = observation.ranks
    most: dict[tuple[int, int], Action] = {}
    moves: list[Action] = []
    face_down = False
    for action in legal:
        kind = action[0]
        if kind in (PLAY, SNEAK):
            key = (kind, ranks[action[1]])
            if key not in most:
                moves.append(action)
            most[key] = action
        elif kind == FACE_DOWN:
            if not face_down:
                moves.append(action)
            face_down = True
        else:
            moves.append(action)
    return moves + [a for a in most.values() if a not in moves]


#: Searches every play-phase decision with heuristic playouts to the end (the swap is the
#: heuristic's). Not to a horizon: scored by the cards held after 40 actions, the expert
#: was the Idiot in 30.0 % of 200 bench games, against 26.7 % of 120 played out. What it
#: samples matters more than how many playouts: with the cards seen going into a hand
#: kept there (``determinize``), 10.5 % of 400 games at 396 playouts, against 22 % at
#: 1,000 playouts without. 36 playouts per ms: 2,000 playouts took 55 ms (CPU median).
EXPERT = ExpertSpec(
    determinize=determinize,
    policy=HeuristicBot.from_settings,
    playouts_per_ms=36.0,
    # bench_expert.py --fit, on the machine playouts_per_ms was measured on
    cost=SearchCost(round_us=39.0, playout_us=5.69, action_us=0.142),
    candidates=_worth_searching,
)

BOTS: dict[str, BotFactory] = {
    "random": random_bot,
    "greedy": GreedyBot.from_settings,
    "heuristic": HeuristicBot.from_settings,
    "expert": expert_factory(EXPERT),
}
