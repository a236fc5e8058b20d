"""Bots for Strømkrig: random-legal, greedy, heuristic and expert; they see only observations.

* ``random``: a uniformly random legal action.
* ``greedy``: the cheapest legal play: the ordinary card of lowest production that may be
  laid; when it cannot lay an ordinary card, the cheapest special card (invisible, reset,
  burn), then a sjanse, and it takes the pile only when nothing else is legal. It never
  joins a war; as challenger it names a category at random (deterministic bots otherwise
  repeat the same cycle of moves for ever once the stock is empty), and in a war it lays
  its card with the highest figure.
* ``heuristic``: plays runs, keeps its 2s, burns and invisible cards for when it is stuck
  (and burns a large pile rather than spend a top card on it), avoids starting wars it
  cannot expect to win, joins a war when its hand is strong in every category, names the
  category it is strongest in, and in a war lays the cheapest card that is not lowest.
  Settings: ``join_nr`` (12), ``war_nr`` (20), ``explore`` (0.05: the share of turns on
  which it lays a random ordinary card or run, which breaks endless repeating cycles).
* ``expert``: searches each turn by determinized playouts of the heuristic
  (``games/search.py``), to go out first; in a war it plays as the heuristic does.
  Settings: ``playouts`` or ``ms`` (the time budget per decision, default 50).
"""

from __future__ import annotations

import functools
import random
from collections.abc import Sequence
from typing import Any

from kraftstokk.games.core import Action, Bot, BotFactory, Game
from kraftstokk.games.random_bot import random_bot
from kraftstokk.games.search import ExpertSpec, SearchCost, expert_factory
from kraftstokk.games.stromkrig.actions import (
    ASK,
    BURN,
    CHANCE,
    INVISIBLE,
    JOIN,
    LAY,
    NAME,
    NAMING,
    RESET,
    RUN,
    STAY_OUT,
    TAKE,
    WAR,
)
from kraftstokk.games.stromkrig.determinize import determinize
from kraftstokk.games.stromkrig.observation import StromkrigObservation
from kraftstokk.games.stromkrig.state import StromkrigGame

_STUCK_ORDER = (INVISIBLE, RESET, BURN)


def _as_stromkrig(game: Game) -> StromkrigGame:
    if not isinstance(game, StromkrigGame):
        raise ValueError(f"a stromkrig bot cannot play {game.name}")
    return game


def _best_category(game: StromkrigGame, hand: Sequence[int]) -> int:
    """The category in which the hand's best card ranks highest (lowest nr.)."""
    nr = game.table.nr
    joker = game.table.joker
    best_category, best_nr = 1, 10**6
    for category in (1, 0, 2):
        ranks = [nr[category][card] for card in hand if not joker[card]]
        if ranks and min(ranks) < best_nr:
            best_category, best_nr = category, min(ranks)
    return best_category


# Made once per game, so that making bots for every game stays cheap. Not a weak-key
# cache: mypyc's compiled game classes do not clear weak references when they die.
@functools.lru_cache(maxsize=16)
def _special_costs(game: StromkrigGame) -> tuple[float, ...]:
    """Per card, its production; a joker costs most."""
    joker = game.table.joker
    costs = tuple(float("inf") if joker[c] else game.production[c] for c in range(game.table.size))
    return costs


class GreedyBot:
    """The cheapest legal play; takes the pile only when forced; never joins a war.

    On a regular turn it decides from the legal list alone (``reads_observation``); in a
    war it reads the category from the observation.
    """

    reads_observation = False

    def __init__(self, game: StromkrigGame) -> None:
        self.game = game
        # Special plays cost their production; jokers are the dearest burn.
        self.cost = _special_costs(game)

    def act(self, observation: Any, legal: Sequence[Action], rng: random.Random) -> Action:
        # The kind of the first legal action tells the phase; the engine lists ordinary
        # lays first, lowest production first.
        first = legal[0]
        kind = first[0]
        if kind == LAY:
            return first
        if kind < JOIN:  # a turn, or the use of a sjanse card
            return self._turn(legal)
        if kind == JOIN:
            return (STAY_OUT,)
        game = self.game
        if kind == NAME:
            return (NAME, rng.randrange(3))
        # A war card: the highest figure (the first of equals, as max() gives).
        figure = game.war_figure[observation.war_category]
        best = legal[0]
        best_figure = figure[best[1]]
        for action in legal:
            value = figure[action[1]]
            if value > best_figure:
                best, best_figure = action, value
        return best

    def _turn(self, legal: Sequence[Action]) -> Action:
        cost = self.cost
        special: Action | None = None
        special_cost = (float("inf"), 0)
        fallback: Action | None = None
        for action in legal:
            kind = action[0]
            if kind in (INVISIBLE, RESET, BURN):
                value = (cost[action[1]], -kind)  # same card: invisible, reset, then burn
                if special is None or value < special_cost:
                    special, special_cost = action, value
            elif kind == CHANCE or (kind == TAKE and fallback is None):
                fallback = action
        if special is not None:
            return special
        if fallback is not None:
            return fallback
        return legal[0]


class HeuristicBot:
    """Runs first, specials kept for when stuck, wars only when its hand is strong."""

    def __init__(
        self, game: StromkrigGame, join_nr: int = 12, war_nr: int = 20, explore: float = 0.05
    ) -> None:
        if not 0.0 <= explore <= 1.0:
            raise ValueError(f"explore must be between 0 and 1, not {explore}")
        self.game = game
        self.join_nr = join_nr  # join when the best card is within this nr. in every category
        self.war_nr = war_nr  # start a war only with a card this good left in some category
        # Deterministic players at an empty stock can repeat the same cycle of moves for
        # ever; now and then a random ordinary lay breaks the cycle, as a person would.
        self.explore = explore

    def act(
        self, observation: StromkrigObservation, legal: Sequence[Action], rng: random.Random
    ) -> Action:
        phase = observation.phase
        if phase == ASK:
            return (JOIN,) if self._strong(observation.hand) else (STAY_OUT,)
        if phase == NAMING:
            return (NAME, _best_category(self.game, observation.hand))
        if phase == WAR:
            return self._war_card(observation, legal)
        if self.explore and rng.random() < self.explore:
            plays = [action for action in legal if action[0] in (LAY, RUN)]
            if plays:
                return plays[rng.randrange(len(plays))]
        return self._turn(observation, legal)

    def _strong(self, hand: Sequence[int]) -> bool:
        nr = self.game.table.nr
        joker = self.game.table.joker
        plants = [card for card in hand if not joker[card]]
        if not plants:
            return False
        return all(min(nr[k][card] for card in plants) <= self.join_nr for k in range(3))

    def _war_card(self, observation: StromkrigObservation, legal: Sequence[Action]) -> Action:
        figure = self.game.war_figure[observation.war_category]
        cards = sorted((action[1] for action in legal), key=lambda card: figure[card])
        laid = observation.war_laid
        if not laid:
            return (legal[0][0], cards[-1])
        lowest = min(figure[card] for _, card in laid)
        for card in cards:
            if figure[card] > lowest:
                return (legal[0][0], card)
        return (legal[0][0], cards[0])

    def _good_for_war(self, hand: Sequence[int], spent: Sequence[int]) -> bool:
        nr = self.game.table.nr
        joker = self.game.table.joker
        rest = [card for card in hand if card not in spent and not joker[card]]
        return any(min(nr[k][card] for card in rest) <= self.war_nr for k in range(3) if rest)

    def _turn(self, observation: StromkrigObservation, legal: Sequence[Action]) -> Action:
        game = self.game
        production = game.production
        lays: list[Action] = []
        runs: list[Action] = []
        specials: dict[int, list[Action]] = {INVISIBLE: [], RESET: [], BURN: []}
        can_take = can_chance = False
        for action in legal:
            kind = action[0]
            if kind == LAY:
                lays.append(action)
            elif kind == RUN:
                runs.append(action)
            elif kind in specials:
                specials[kind].append(action)
            elif kind == TAKE:
                can_take = True
            elif kind == CHANCE:
                can_chance = True
        # Wars we would probably lose are not worth starting (SK-6: the first card laid
        # against the top card, when that card is another player's).
        safe = runs + lays
        top = observation.top
        if top >= 0 and observation.top_owner not in (observation.seat, -1):
            starts_war = game.war_reasons[top]
            hand = observation.hand
            safe = [
                action
                for action in safe
                if not starts_war[action[1]] or self._good_for_war(hand, action[1:])
            ]
        safe_runs = [action for action in safe if action[0] == RUN]
        if safe_runs:
            return max(safe_runs, key=lambda a: (len(a), -production[a[1]]))
        # Keep special cards for when stuck: prefer plain cards that are no specials. The
        # engine lists ordinary lays lowest production first.
        plain = [a for a in safe if not self._special(a[1])] or safe
        if plain:
            cheapest = plain[0]
            top_card = game.gwh_nr[cheapest[1]] <= 8
            if specials[BURN] and top_card and observation.pile_size >= 5:
                return self._cheapest(specials[BURN])
            return cheapest
        if observation.chance_card >= 0:  # choosing the use of a sjanse card
            for kind in (INVISIBLE, RESET, BURN):
                if specials[kind]:
                    return specials[kind][0]
            return legal[0]
        # Stuck: an invisible card costs nothing, a 2 passes the problem on, a burn
        # clears the pile (worth it only when there is a pile to speak of).
        if specials[INVISIBLE]:
            return self._cheapest(specials[INVISIBLE])
        if specials[RESET]:
            return self._cheapest(specials[RESET])
        if specials[BURN] and (observation.pile_size >= 3 or not can_chance):
            return self._cheapest(specials[BURN])
        if can_chance:
            return (CHANCE,)
        if specials[BURN]:
            return self._cheapest(specials[BURN])
        if lays:
            return lays[0]
        if can_take:
            return (TAKE,)
        return legal[0]

    def _special(self, card: int) -> bool:
        game = self.game
        return game.burner[card] or game.resetter[card] or game.invisible[card]

    def _cheapest(self, actions: list[Action]) -> Action:
        cost = self.game.production
        joker = self.game.table.joker
        return min(actions, key=lambda a: (joker[a[1]], cost[a[1]]))


def _greedy_bot(game: Game, settings: dict[str, Any]) -> Bot:
    if settings:
        raise ValueError(f"greedy takes no settings, got {', '.join(sorted(settings))}")
    return GreedyBot(_as_stromkrig(game))


def _heuristic_bot(game: Game, settings: dict[str, Any]) -> Bot:
    unknown = sorted(set(settings) - {"join_nr", "war_nr", "explore"})
    if unknown:
        known = "join_nr, war_nr, explore"
        raise ValueError(f"heuristic has no setting {', '.join(unknown)} ({known})")
    return HeuristicBot(
        _as_stromkrig(game),
        join_nr=int(settings.get("join_nr", 12)),
        war_nr=int(settings.get("war_nr", 20)),
        explore=float(settings.get("explore", 0.05)),
    )


EXPERT = ExpertSpec(
    determinize=determinize,
    policy=_heuristic_bot,
    playouts_per_ms=36.0,
    # bench_expert.py --fit, on the machine playouts_per_ms was measured on
    cost=SearchCost(round_us=17.0, playout_us=6.29, action_us=0.425),
    horizon=40,
)

BOTS: dict[str, BotFactory] = {
    "random": random_bot,
    "greedy": _greedy_bot,
    "heuristic": _heuristic_bot,
    "expert": expert_factory(EXPERT),
}
