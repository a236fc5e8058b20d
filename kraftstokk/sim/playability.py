"""The playability metrics of a run: each defined here once, with its formula.

A run's sums (:class:`~kraftstokk.sim.stream.RunStats`) hold, per game, the figures the
engines count as they play (``games/playability.py``): decisions with a real choice and
their distinct moves, lead changes, comebacks, when the lead was taken for good, and a
game's seconds at a table by the run's time model (``sim/pace.py``). :data:`METRICS`
names every metric, the question of page 1 it answers and its formula (the same words
are in ``docs/metrics.md``, beside Ludii's metric of the same name);
:func:`measure` computes them all, each with its 95 % interval, the game as the unit:
a share or mean of per-game figures is a ratio estimate over the games
(:func:`~kraftstokk.sim.stream.ratio`), a share of games a Wilson interval.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from kraftstokk.sim.stats import Z95, wilson
from kraftstokk.sim.stream import (
    ACTIONS,
    FINISHED,
    GAMES,
    ROUNDS,
    SECONDS,
    SETTLED_EARLY,
    SETTLED_SHARE,
    SHARE_SCALE,
    RunStats,
    lost,
    play_column,
    ratio,
    won,
)

#: The six questions of page 1, in their order.
QUESTIONS: tuple[str, ...] = ("fair", "duration", "choice", "skill", "drama", "broken")


@dataclass(frozen=True)
class Metric:
    """One metric: its key in ``sim-<game>.json``'s ``playability``, the question it
    answers, and how it is computed."""

    name: str
    question: str
    formula: str


METRICS: tuple[Metric, ...] = (
    Metric(
        "seat_gap",
        "fair",
        "max over seats of r_s minus min over seats of r_s, where r_s = finished games seat "
        "s won (went out first) / finished games; in Idiot, played not to be the loser, "
        "r_s = finished games seat s was the Idiot / finished games",
    ),
    Metric(
        "minutes",
        "duration",
        "per finished game: (deal + card x cards laid + choice x decisions with a choice on "
        "one's own turn + forced x forced moves on one's own turn + answer x answers out of "
        "turn + pickup x piles picked up + challenge x challenges) / 60, the paces in seconds "
        "(sim/pace.toml); mean, median and 90th percentile over finished games",
    ),
    Metric("actions", "duration", "actions of a finished game: median and 90th percentile"),
    Metric("rounds", "duration", "rounds of a finished game (turns / players, rounded up)"),
    Metric(
        "turns_per_person",
        "duration",
        "actions of a finished game / players: the times each person is to act",
    ),
    Metric(
        "decision_share",
        "choice",
        "decisions with at least two distinct moves / all decisions, over all games; moves "
        "that lead to the same position as far as the player can tell count once",
    ),
    Metric(
        "branching",
        "choice",
        "distinct moves of the decisions with a choice / those decisions (mean); and the "
        "90th percentile of their distinct moves",
    ),
    Metric(
        "skill_edge",
        "skill",
        "(expert's rate in its seat - 1/players) / (1/players), the expert playing one seat "
        "against heuristic bots; the rate is the win rate, in Idiot 1 - the Idiot rate "
        "(sim/skill.py)",
    ),
    Metric(
        "settled",
        "drama",
        "per finished game: the round end after which the lead never changed (in actions) / "
        "the action that decided the result (the winner went out; in Idiot the last "
        "action); mean",
    ),
    Metric(
        "lead_changes",
        "drama",
        "times the lead passed from one seat to another at a round end / finished games; the "
        "leader is the seat alone on top of the game's progress measure (fewest cards still "
        "to get rid of; in Idiot the seat with the most, heading for last place) when every "
        "seat still in has had its turn",
    ),
    Metric(
        "comebacks",
        "drama",
        "finished games whose winner was strictly behind the leader at a round end (in "
        "Idiot: whose Idiot was ahead of the seat then last at a round end) / finished games",
    ),
    Metric("unfinished_share", "broken", "games stopped by the action cap / games"),
    Metric(
        "settled_early",
        "broken",
        "finished games whose lead was taken for good within the first tenth of the way to "
        "the deciding action / finished games: decided by the deal",
    ),
)


def _round(value: float) -> float:
    return round(value, 6)


def estimate(
    stats: RunStats, numerator: str, denominator: str, scale: float = 1.0
) -> dict[str, Any]:
    """``sum numerator / sum denominator`` (times ``scale``) with its 95 % interval."""
    found = ratio(stats, numerator, denominator)
    if found is None:
        return {"value": None, "ci95": None}
    half = Z95 * math.sqrt(found.variance)
    return {
        "value": _round(scale * found.value),
        "ci95": [_round(scale * (found.value - half)), _round(scale * (found.value + half))],
    }


def _share(hits: int, trials: int) -> dict[str, Any]:
    low, high = wilson(hits, trials)
    return {
        "value": _round(hits / trials) if trials else None,
        "ci95": [_round(low), _round(high)] if trials else None,
        "hits": hits,
        "of": trials,
    }


def seat_gap(stats: RunStats, loser_stake: bool) -> dict[str, Any]:
    """The largest gap between two seats' shares of the game's goal (see METRICS), with
    the interval of the difference of those two seats' shares (multinomial)."""
    finished = stats.finished
    seats = range(stats.players)
    hits = [stats.total(lost(s) if loser_stake else won(s)) for s in seats]
    rates = [h / finished if finished else 0.0 for h in hits]
    top = max(seats, key=lambda s: (rates[s], -s))
    bottom = min(seats, key=lambda s: (rates[s], s))
    gap = rates[top] - rates[bottom]
    if finished:
        spread = (rates[top] + rates[bottom] - gap * gap) / finished
        half = Z95 * math.sqrt(max(spread, 0.0))
        interval = [_round(max(0.0, gap - half)), _round(min(1.0, gap + half))]
    else:
        interval = [0.0, 1.0]
    return {
        "measure": "loser_rate" if loser_stake else "win_rate",
        "value": _round(gap),
        "ci95": interval,
        "rates": [_round(r) for r in rates],
        "highest_seat": top + 1,
        "lowest_seat": bottom + 1,
        "fair_share": _round(1 / stats.players),
        "finished": finished,
    }


def _spread(histogram: Any, scale: float = 1.0) -> dict[str, float] | None:
    if not histogram.count:
        return None
    return {
        "median": _round(scale * histogram.describe()["median"]),
        "p90": _round(scale * histogram.quantile(0.9)),
    }


def duration(stats: RunStats, timed: bool) -> dict[str, Any]:
    """Actions, rounds, turns per person and minutes at a table of finished games."""
    actions = stats.length(ACTIONS, finished=True)
    found: dict[str, Any] = {
        "actions": _spread(actions),
        "rounds": _spread(stats.length(ROUNDS, finished=True)),
        "turns_per_person": _spread(actions, 1 / stats.players),
        "minutes": None,
    }
    seconds = stats.length(SECONDS, finished=True)
    if timed and seconds.count and stats.total(SECONDS):
        minutes = estimate(stats, SECONDS, FINISHED, 1 / 60)
        minutes.update(_spread(seconds, 1 / 60) or {})
        found["minutes"] = minutes
    return found


def choice(stats: RunStats) -> dict[str, Any]:
    """Decision share and branching factor (see METRICS)."""
    choices = play_column("choices")
    share = estimate(stats, choices, ACTIONS)
    branching = estimate(stats, play_column("options"), choices)
    found = {
        "decision_share": share,
        "branching": branching,
        "decisions": stats.total(ACTIONS),
        "choices": stats.total(choices),
        "answers_share": estimate(stats, play_column("answers"), ACTIONS),
    }
    if stats.branching.count:
        branching["p90"] = _round(stats.branching.quantile(0.9))
        branching["most"] = stats.branching.maximum
        found["histogram"] = {
            str(moves): count for moves, count in sorted(stats.branching.buckets.items())
        }
    return found


def drama(stats: RunStats) -> dict[str, Any]:
    """Lead changes, comebacks and how far into a game the lead is taken for good."""
    return {
        "lead_changes": estimate(stats, play_column("lead_changes"), FINISHED),
        "comebacks": _share(stats.total(play_column("comeback")), stats.finished),
        "settled": estimate(stats, SETTLED_SHARE, FINISHED, 1 / SHARE_SCALE),
    }


def completion(stats: RunStats) -> dict[str, Any]:
    """Games stopped by the action cap, and games as good as decided by the deal."""
    games, finished = stats.games, stats.finished
    return {
        "unfinished": _share(games - finished, games),
        "settled_early": _share(stats.total(SETTLED_EARLY), finished),
    }


def measure(stats: RunStats, *, loser_stake: bool, timed: bool = True) -> dict[str, Any]:
    """Every metric of :data:`METRICS` the run's sums give (the skill edge comes from
    ``simulate --skill``'s own games and is added by the caller)."""
    return {
        "games": stats.games,
        "finished": stats.finished,
        "fair": seat_gap(stats, loser_stake),
        "duration": duration(stats, timed),
        "choice": choice(stats),
        "drama": drama(stats),
        "broken": completion(stats),
        "cards_laid_per_game": estimate(stats, play_column("cards_laid"), GAMES),
    }


def skill_edge(gradient: dict[str, Any]) -> dict[str, Any] | None:
    """The skill edge of a skill gradient (``SkillGradient.as_dict``): how far the expert
    gets from the fair share, as a share of it, with the interval its rate's Wilson
    interval gives; None when no game finished."""
    levels = gradient.get("levels") or []
    if not levels or not levels[0]["finished"]:
        return None
    best = levels[0]
    fair = float(gradient["fair_share"])
    low, high = best["ci95"]
    loser = gradient.get("measure") == "loser_rate"
    ends = sorted(((fair - r) / fair if loser else (r - fair) / fair) for r in (low, high))
    value = ((fair - best["rate"]) if loser else (best["rate"] - fair)) / fair
    return {
        "value": _round(value),
        "ci95": [_round(ends[0]), _round(ends[1])],
        "rate": best["rate"],
        "rate_ci95": best["ci95"],
        "games": best["finished"],
        "level": best["level"],
        "fair_share": fair,
        "measure": gradient.get("measure"),
        "others": {item["level"]: item["rate"] for item in levels[1:] if item["finished"]},
    }
