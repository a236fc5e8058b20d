"""Kraftidioten bots: random-legal, greedy, heuristic and expert. They read only an observation."""

from __future__ import annotations

import random
from bisect import bisect_left
from collections.abc import Sequence
from typing import Any

from kraftstokk.games.core import Action, BotFactory, Game
from kraftstokk.games.kraftidioten.actions import (
    CHALLENGE_ACTION,
    DRAW_ACTION,
    JOKER,
    LAY,
    LIE,
    PASS_ACTION,
    PHASE_CHALLENGE,
    PHASE_CLAIM,
    TAKE_ACTION,
)
from kraftstokk.games.kraftidioten.determinize import determinize
from kraftstokk.games.kraftidioten.observation import (
    KraftidiotenObservation,
    KraftidiotenTurnView,
)
from kraftstokk.games.kraftidioten.rules import (
    BURNED,
    NO_CATEGORY,
    joker_costs,
    lowest_figure_lie,
    reaches,
)
from kraftstokk.games.kraftidioten.state import KraftidiotenGame
from kraftstokk.games.random_bot import random_bot
from kraftstokk.games.search import ExpertSpec, SearchCost, expert_factory

_INFINITY = float("inf")


def _game(game: Game) -> KraftidiotenGame:
    if not isinstance(game, KraftidiotenGame):
        raise ValueError(f"a kraftidioten bot cannot play {game.name}")
    return game


def _weakest_opening(
    hand: Sequence[int], joker: Sequence[bool], nr: Sequence[Sequence[int]], category: int
) -> Action | None:
    """A new pile in ``category``: the card that ranks lowest there (highest nr.)."""
    ranks = nr[category]
    best = -1
    best_nr = -1
    for card in hand:
        if not joker[card] and ranks[card] > best_nr:
            best_nr = ranks[card]
            best = card
    return (LAY, best, category, best) if best >= 0 else None


class GreedyBot:
    """The cheapest truthful claim; a joker, then the stock, before taking the pile.

    Never challenges and never lies (taking the pile is always possible instead). It
    decides a turn from its hand and the claim to beat alone, so the engine hands it
    only that part of its observation (``turn_view``) and no legal list.
    """

    #: Answers every claim with PASS without looking (the engine may record it at once).
    always_passes = True
    #: Chooses a turn from the observation alone (the engine may skip the legal list)...
    needs_legal = False
    #: ...and from its hand, category, floor and stock count only (``turn_view``).
    reads_turn_view = True

    def __init__(self, game: KraftidiotenGame) -> None:
        table = game.table
        self._joker = table.joker
        self._nr = table.nr
        self._rules = game.parameters
        # The game's tables: a plant's printed figure per category (jokers -inf, so they
        # never qualify) and its truthful lay action, so a turn allocates nothing.
        self._plant_figures = game.plant_figures
        self._truthful = game.truth_actions

    @classmethod
    def from_settings(cls, game: Game, settings: dict[str, Any]) -> GreedyBot:
        if settings:
            raise ValueError(f"greedy takes no settings, got {', '.join(settings)}")
        return cls(_game(game))

    def act(
        self,
        observation: KraftidiotenObservation | KraftidiotenTurnView,
        legal: Sequence[Action],
        rng: random.Random,
    ) -> Action:
        if legal and legal[-1] == PASS_ACTION:  # asked to challenge (cheaper than the phase)
            return PASS_ACTION
        joker = self._joker
        hand = observation.hand
        category = observation.category
        if category == NO_CATEGORY:  # the category is a coin toss, the card the cheapest
            # int(random() * 3): a fair third each, cheaper than randrange(3).
            category = int(rng.random() * 3)
            ranks = self._nr[category]
            weakest = -1
            weakest_nr = -1
            for card in hand:
                if not joker[card] and ranks[card] > weakest_nr:
                    weakest_nr = ranks[card]
                    weakest = card
            if weakest >= 0:
                return self._truthful[category][weakest]
            return (JOKER, min(hand))
        floor = observation.floor
        assert floor is not None
        figures = self._plant_figures[category]
        best = -1
        best_figure = _INFINITY
        for card in hand:
            figure = figures[card]
            if reaches(figure, floor) and figure < best_figure:
                best = card
                best_figure = figure
        if best >= 0:
            return self._truthful[category][best]
        if not joker_costs(len(hand), self._rules):  # KI-7: a joker only while it costs nothing
            lowest_joker = -1
            for card in hand:
                if joker[card] and (lowest_joker < 0 or card < lowest_joker):
                    lowest_joker = card
            if lowest_joker >= 0:
                return (JOKER, lowest_joker)
        return DRAW_ACTION if observation.stock_count else TAKE_ACTION


class HeuristicBot:
    """Truthful when it can, a plausible lie when stuck, challenges what it can refute.

    ``knowledge`` (0..1) is how well it knows the plants: the chance that it notices a
    suspicious claim (a plant already claimed on the pile, or last seen going to another
    player) or a claim whose figure is not the one the named plant's card prints (an
    open lie, KI-4c), and that, when lying, it names the least conspicuous plant (the
    lowest figure that beats the claim) with that plant's figure; otherwise it lies
    clumsily, by figure: its own card's plant with the lowest whole figure that beats the
    claim. ``top3_challenge`` is the chance that it challenges a top-3 burn claim (or a
    last card) it cannot refute; ``bluff`` the chance that it lies rather than draws from
    the stock when stuck.
    """

    def __init__(
        self,
        game: KraftidiotenGame,
        knowledge: float = 0.8,
        top3_challenge: float = 0.3,
        bluff: float = 0.7,
    ) -> None:
        for name, value in (
            ("knowledge", knowledge),
            ("top3_challenge", top3_challenge),
            ("bluff", bluff),
        ):
            if not 0.0 <= value <= 1.0:
                raise ValueError(f"{name} must be between 0 and 1, not {value}")
        table = game.table
        self.knowledge = knowledge
        self.top3_challenge = top3_challenge
        self.bluff = bluff
        self._joker = table.joker
        self._rules = game.parameters
        self._figures = game.claim_figures
        self._nr = table.nr
        self._top3 = game.top3
        self._sorted_figures = game.sorted_figures
        self._by_figure = game.by_figure

    @classmethod
    def from_settings(cls, game: Game, settings: dict[str, Any]) -> HeuristicBot:
        known = {"knowledge", "top3_challenge", "bluff"}
        unknown = sorted(set(settings) - known)
        if unknown:
            raise ValueError(f"heuristic has no setting {', '.join(unknown)} (has {known})")
        values = {key: float(value) for key, value in settings.items()}
        return cls(_game(game), **values)

    def act(
        self, observation: KraftidiotenObservation, legal: Sequence[Action], rng: random.Random
    ) -> Action:
        phase = observation.phase
        if phase == PHASE_CHALLENGE:
            return self._judge(observation, rng)
        if phase == PHASE_CLAIM:
            card = observation.lie_card
            category = observation.category
            if category == NO_CATEGORY:
                category = legal[0][2]
            floor = observation.floor
            low = -1.0 if floor is None else floor
            candidates = self._plausible_claims(observation, category, low, card)
            if candidates and rng.random() < self.knowledge:
                return (LAY, card, category, candidates[0])
            return self._figure_lie(card, category, low)
        return self._turn(observation, rng)

    def _figure_lie(self, card: int, category: int, floor: float) -> Action:
        """The card's own plant with the lowest whole figure that beats ``floor``."""
        return (LAY, card, category, card, lowest_figure_lie(floor, self._figures[category][card]))

    # ----------------------------------------------------------------- challenges

    def _judge(self, observation: KraftidiotenObservation, rng: random.Random) -> Action:
        claim = observation.last_claim
        assert claim is not None
        if claim.from_stock:  # KI-4b: drawn cards are claimed truthfully by rule
            return PASS_ACTION
        plant = claim.plant
        if plant in observation.hand:
            return CHALLENGE_ACTION
        wrong_figure = claim.figure != self._figures[observation.category][plant]
        if wrong_figure and rng.random() < self.knowledge:
            return CHALLENGE_ACTION  # not the figure the plant's card prints: a lie
        if plant in observation.own_cards_on_pile_set:
            return CHALLENGE_ACTION
        suspicious = False
        for earlier in observation.claims[:-1]:
            if earlier.plant == plant:
                if earlier.from_stock:  # that one was true, so this one is not
                    return CHALLENGE_ACTION
                suspicious = True
        suspicious = suspicious or self._seen_elsewhere(observation, plant, claim.seat)
        if suspicious and rng.random() < self.knowledge:
            return CHALLENGE_ACTION
        last_card = observation.hand_count(claim.seat) == 0
        if (observation.claim_is_top3 or last_card) and rng.random() < self.top3_challenge:
            return CHALLENGE_ACTION
        return PASS_ACTION

    def _opening_category(self, plants: Sequence[int]) -> int:
        """The category in which the rest of the hand is strongest (lowest nr. sum)."""
        nr = self._nr
        return min((0, 1, 2), key=lambda c: sum(nr[c][card] for card in plants))

    @staticmethod
    def _seen_elsewhere(observation: KraftidiotenObservation, plant: int, seat: int) -> bool:
        """The plant was last shown going to a player other than ``seat``."""
        holder = observation.where_shown(plant)
        return holder is not None and holder not in (seat, BURNED)

    # ----------------------------------------------------------------- turns

    def _turn(self, observation: KraftidiotenObservation, rng: random.Random) -> Action:
        joker = self._joker
        hand = observation.hand
        plants = [card for card in hand if not joker[card]]
        jokers = [card for card in hand if joker[card]]
        category = observation.category
        if category == NO_CATEGORY:
            opening = _weakest_opening(plants, joker, self._nr, self._opening_category(plants))
            if opening is not None:
                return opening
            return (JOKER, min(jokers))
        floor = observation.floor
        assert floor is not None
        figures = self._figures[category]
        truthful = [card for card in plants if reaches(figures[card], floor)]
        if truthful:
            top = [card for card in truthful if self._top3[category][card]]
            if top and observation.pile_count >= 4:  # a true top-3 claim burns a big pile
                card = min(top, key=figures.__getitem__)
            else:
                card = min(truthful, key=figures.__getitem__)
            return (LAY, card, category, card)
        pile = observation.pile_count
        if jokers and not joker_costs(len(hand), self._rules) and pile >= 2:
            return (JOKER, min(jokers))
        if pile <= 1 or not plants:
            return DRAW_ACTION if observation.stock_count else TAKE_ACTION
        if observation.stock_count and rng.random() >= self.bluff:
            return DRAW_ACTION
        weakest = min(plants, key=figures.__getitem__)
        if not self._plausible_claims(observation, category, floor, weakest):
            return DRAW_ACTION if observation.stock_count else TAKE_ACTION
        return (LIE, weakest, category)

    def _plausible_claims(
        self,
        observation: KraftidiotenObservation,
        category: int,
        floor: float,
        card: int,
    ) -> list[int]:
        """Plants that beat ``floor`` and that no one can know to be elsewhere, lowest first."""
        ruled_out = set(observation.hand)
        ruled_out.add(card)
        ruled_out.update(claim.plant for claim in observation.claims)
        ruled_out.update(observation.shown_cards)
        start = bisect_left(self._sorted_figures[category], floor)
        return [p for p in self._by_figure[category][start:] if p not in ruled_out]


#: Of the many false claims a lie may make, the lowest plausible ones this many are searched.
EXPERT_CLAIMS = 3


def _worth_searching(observation: KraftidiotenObservation, legal: Sequence[Action]) -> list[Action]:
    """Every move of a turn but lies on a new pile; of a lie's claims the lowest plausible
    ones and the lie by figure that names the card's own plant (the rest only claim more,
    for nothing)."""
    if observation.phase == PHASE_CLAIM:
        ruled_out = set(observation.hand) | observation.shown_cards
        ruled_out.update(claim.plant for claim in observation.claims)
        plausible: list[Action] = [a for a in legal if len(a) == 4 and a[3] not in ruled_out]
        by_figure: list[Action] = [a for a in legal if len(a) == 5 and a[3] == a[1]]
        return plausible[:EXPERT_CLAIMS] + by_figure
    if observation.category == NO_CATEGORY:
        return [a for a in legal if a[0] != LIE]
    return list(legal)


EXPERT = ExpertSpec(
    determinize=determinize,
    policy=HeuristicBot.from_settings,
    playouts_per_ms=30.0,
    # bench_expert.py --fit, on the machine playouts_per_ms was measured on
    cost=SearchCost(round_us=21.7, playout_us=13.9, action_us=0.0356),
    candidates=_worth_searching,
    horizon=100,
)

BOTS: dict[str, BotFactory] = {
    "random": random_bot,
    "greedy": GreedyBot.from_settings,
    "heuristic": HeuristicBot.from_settings,
    "expert": expert_factory(EXPERT),
}
