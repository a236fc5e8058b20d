"""The expert bot's search: determinized Monte Carlo over the legal actions of one decision.

Each playout samples a whole position consistent with what the seat has seen (the game's
``determinize``: the hidden cards dealt where the seat's observation leaves them open,
weighted by what it has seen), applies one candidate action, plays the game out with fast
policies (the heuristic bots, on the game's native core where it has one, to a horizon
where the game says so) and scores the end for the deciding seat by the game's objective
(``GameSpec.objective``). Every candidate is played from the same sampled positions with
the same luck, and the best mean score wins when it clearly beats the playout policy's
own choice (see :class:`ExpertBot`). The bot
gets the observation and the legal actions only, like every other bot, so it cannot see
a hidden card.

The budget is a number of playouts, so a seeded game is the same game on any machine;
``ms`` converts a per-decision time budget into playouts by the game's measured playout
rate on one core (``ExpertSpec.playouts_per_ms``, measured by ``make bench``), and a
decision with a time budget also counts what its search costs (``ExpertSpec.cost``: per
sampled position, playout and action played, measured by ``bench_expert.py --fit``) and
stops within the budget: a count too, not a clock.
"""

from __future__ import annotations

import functools
import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from kraftstokk.games.core import Action, BotFactory, Game, State
from kraftstokk.games.fastcore import native_core
from kraftstokk.games.playouts import Playout, playout
from kraftstokk.games.registry import get_spec

#: The per-decision time budget of the browser's hardest level and of ``expert`` unsaid.
DEFAULT_MS = 50
#: How many standard errors of the paired differences a candidate must lead the
#: incumbent by to replace it.
LEAD_IN_ERRORS = 2.0
#: The share of its time budget a decision plans to spend at most (by its SearchCost):
#: a decision takes its planned time give or take what else the machine does, and its
#: 99th percentile must stay within 10 % of the budget.
PLANNED_SHARE = 0.9
#: What a playout stopped unfinished scores at most (a win scores 1).
UNFINISHED_WEIGHT = 0.9
MAX_PLAYOUTS = 100_000
MAX_MS = 60_000

#: Builds a position consistent with the seat's observation (and the legal actions, which
#: tell the phase's own details such as the category being lied in), or None where the
#: search does not apply (the fallback policy decides).
Determinizer = Callable[[Game, Any, Sequence[Action], random.Random], "State | None"]
#: The legal actions worth searching (the others are never chosen).
Candidates = Callable[[Any, Sequence[Action]], Sequence[Action]]


@dataclass(frozen=True)
class SearchCost:
    """What a decision's search costs on one core, in CPU microseconds, from
    ``bench_expert.py --fit`` (a least-squares fit over measured decisions): per round (a
    sampled position), per playout, and per action a playout plays. A decision given a
    time budget counts its cost by these, from what it played, so that it stops within
    the budget whatever its position (a deterministic count: the same seed and budget give
    the same choice on any machine)."""

    round_us: float
    playout_us: float
    action_us: float


@dataclass(frozen=True)
class ExpertSpec:
    """What one game's expert searches with: its rules of thumb, not its search."""

    determinize: Determinizer
    policy: BotFactory  # the playout policy for every seat, and the fallback
    #: Playouts per CPU millisecond on one core, from ``make bench`` (bench_expert.py's
    #: median decision time), so that ``ms`` stays within its budget.
    playouts_per_ms: float
    candidates: Candidates | None = None
    #: Playouts stop after this many actions and are scored by the cards held (None:
    #: played to the end). A long game's playouts cost more than its decisions gain.
    horizon: int | None = None
    #: The search's costs, which keep a decision with a time budget within it (None: the
    #: playouts alone count).
    cost: SearchCost | None = None


@dataclass
class Searched:
    """What a decision's search played: rounds (sampled positions), playouts, and the
    actions of its playouts."""

    rounds: int = 0
    playouts: int = 0
    actions: int = 0

    def add(self, playouts: int, actions: int) -> None:
        """A round of ``playouts`` playouts, which played ``actions`` actions."""
        self.rounds += 1
        self.playouts += playouts
        self.actions += actions

    def cost(self, cost: SearchCost) -> float:
        """Its CPU microseconds by ``cost``."""
        return (
            self.rounds * cost.round_us
            + self.playouts * cost.playout_us
            + self.actions * cost.action_us
        )


def placement_score(end: Playout, seat: int, *, loser_matters: bool) -> float:
    """A playout's end scored for ``seat``: not the loser, or first out, weighs most.

    The place in the finishing order breaks ties between moves that win (or avoid
    losing) equally often. A game stopped early (the horizon, the action cap) is scored
    on the same scale from the cards held: ``seat``'s place is predicted from how many of
    the seats still playing hold fewer cards, its chance of the main aim from how many
    hold more (none, for a first place already taken), both times ``UNFINISHED_WEIGHT``:
    a lead at the horizon is worth less than the end it points to. A seat that can no
    longer win thus gains nothing by keeping a lead unfinished instead of finishing.
    """
    result = end.result
    seats = len(end.held)
    if not result.finished and seat not in result.order:
        mine = end.held[seat]
        ahead = before = 0.0
        others = 0
        for other in range(seats):
            if other != seat and other not in result.order:
                theirs = end.held[other]
                ahead += 1.0 if theirs > mine else 0.5 if theirs == mine else 0.0
                before += 1.0 if theirs < mine else 0.5 if theirs == mine else 0.0
                others += 1
        share = ahead / others if others else 0.5
        chance = share if loser_matters or not result.order else 0.0
        place = len(result.order) + before
        return UNFINISHED_WEIGHT * _score(chance, place, seats)
    order = [*result.order, *([result.loser] if result.loser is not None else [])]
    place = order.index(seat) if seat in order else seats - 1  # out early, or the loser
    main = float(result.loser != seat) if loser_matters else float(place == 0)
    return _score(main, place, seats)


def _score(main: float, place: float, seats: int) -> float:
    """The main aim's worth (or its chance) and the place's, 0 first .. seats - 1 last."""
    return 0.95 * main + 0.05 * (seats - 1 - place) / (seats - 1)


class ExpertBot:
    """Chooses by determinized playouts; ``playouts`` per decision with two moves or more.

    The playouts come in rounds: each round samples one position and one playout stream,
    and plays every candidate from it (common random numbers, so two candidates are
    compared on the same deals and the same luck). The playout policy's own choice is
    the incumbent: another candidate replaces it only when its mean score is higher by
    more than ``LEAD_IN_ERRORS`` standard errors of the paired differences (a lucky
    streak of one of several candidates is common; a blunder of the policy stands out).
    At least two rounds are played, however many candidates there are. With a time
    budget (``budget_ms``) and the game's :class:`SearchCost`, the rounds also stop before
    the cost counted so far, and a round more, would pass ``PLANNED_SHARE`` of it: a
    position whose playouts are long, or with few candidates (many rounds, a sampled
    position each), is searched with fewer playouts than ``playouts``.
    """

    def __init__(
        self, game: Game, spec: ExpertSpec, playouts: int, budget_ms: float | None = None
    ) -> None:
        # Positions are set up in the game with the horizon for its action cap.
        self._game = game if spec.horizon is None else horizon_game(game, spec.horizon)
        self._spec = spec
        self._playouts = playouts
        self._loser_matters = get_spec(game.name).objective == "not_loser"
        self._fallback = spec.policy(game, {})
        # Made for the game the playouts are played in, which the cores check; the core
        # that plays them is made now, not in the first decision's time.
        self._policies = [spec.policy(self._game, {}) for _ in range(game.num_players)]
        native_core(self._game, self._policies)
        #: What the last decision's search played (none yet).
        self.searched = Searched()
        self._planned_us = (
            None if budget_ms is None or spec.cost is None else budget_ms * 1000 * PLANNED_SHARE
        )

    @property
    def playouts(self) -> int:
        return self._playouts

    def act(self, observation: Any, legal: Sequence[Action], rng: random.Random) -> Action:
        spec = self._spec
        # One stream per decision, drawn from the seat's own: the same seed and budget
        # give the same choice.
        stream = random.Random(rng.getrandbits(64))
        incumbent = self._fallback.act(observation, legal, stream)
        moves = list(spec.candidates(observation, legal)) if spec.candidates else list(legal)
        if incumbent not in moves:
            moves.append(incumbent)
        if len(moves) == 1:
            return incumbent
        game = self._game
        seat = observation.seat
        rounds = max(2, self._playouts // len(moves))
        scores: list[list[float]] = [[] for _ in moves]
        planned = self._planned_us
        spent = 0.0  # the cost counted so far (SearchCost), in µs
        before = -1  # the actions played before the position
        searched = Searched()
        for number in range(rounds):
            if planned is not None and number >= 2 and spent * (number + 1) > planned * number:
                break  # a round more (as costly as the mean so far) would pass the plan
            position = spec.determinize(game, observation, legal, stream)
            if position is None:
                return incumbent
            if before < 0:
                before = position.result().actions
            luck = stream.getrandbits(64)
            played = 0
            for arm, move in enumerate(moves):
                # On the native core where one serves the policies, else in Python, with
                # the same result: a seeded expert decides the same compiled and pure.
                end = playout(position, self._policies, luck, first=move)
                played += end.result.actions - before
                scores[arm].append(placement_score(end, seat, loser_matters=self._loser_matters))
            searched.add(len(moves), played)
            if spec.cost is not None:
                spent = searched.cost(spec.cost)
        self.searched = searched
        return moves[_choice(scores, moves.index(incumbent))]


@functools.lru_cache(maxsize=16)
def horizon_game(game: Game, horizon: int) -> Game:
    """``game``'s rules with ``horizon`` for the action cap (made once: some cost ms)."""
    return type(game)(game.table, game.num_players, sorted(game.variants), horizon)


def _choice(scores: list[list[float]], incumbent: int) -> int:
    """The candidate whose paired lead over the incumbent is largest and clearly above 0."""
    base = scores[incumbent]
    rounds = len(base)
    best = incumbent
    best_lead = 0.0
    for arm, arm_scores in enumerate(scores):
        if arm == incumbent:
            continue
        diffs = [a - b for a, b in zip(arm_scores, base, strict=True)]
        lead = sum(diffs) / rounds
        if lead <= best_lead:
            continue
        spread = sum((d - lead) ** 2 for d in diffs) / (rounds - 1)
        if lead > LEAD_IN_ERRORS * math.sqrt(spread / rounds):
            best, best_lead = arm, lead
    return best


def playouts_for(settings: dict[str, Any], spec: ExpertSpec) -> int:
    """The playouts per decision from ``playouts=N`` or ``ms=M`` (default 50 ms)."""
    options = dict(settings)
    playouts = options.pop("playouts", None)
    ms = options.pop("ms", None)
    if options:
        raise ValueError(f"expert takes only playouts or ms, got {', '.join(sorted(options))}")
    if playouts is not None and ms is not None:
        raise ValueError("expert takes playouts or ms, not both")
    if playouts is not None:
        if not isinstance(playouts, int) or not 1 <= playouts <= MAX_PLAYOUTS:
            raise ValueError(f"playouts must be a whole number 1-{MAX_PLAYOUTS}, not {playouts!r}")
        return playouts
    budget = DEFAULT_MS if ms is None else ms
    if not isinstance(budget, int | float) or not 1 <= budget <= MAX_MS:
        raise ValueError(f"ms must be a number 1-{MAX_MS}, not {budget!r}")
    return max(1, int(budget * spec.playouts_per_ms))


def budget_for(settings: dict[str, Any]) -> float | None:
    """The time budget in ms of a decision: ``ms=M``, else DEFAULT_MS; None with
    ``playouts=N`` (that many playouts, whatever they cost)."""
    if "playouts" in settings:
        return None
    ms = settings.get("ms")
    return float(DEFAULT_MS if ms is None else ms)


def expert_factory(spec: ExpertSpec) -> BotFactory:
    """The ``expert`` entry of a game's ``BOTS``: settings ``playouts=N`` or ``ms=M``."""

    def make(game: Game, settings: dict[str, Any]) -> ExpertBot:
        return ExpertBot(game, spec, playouts_for(settings, spec), budget_for(settings))

    return make
