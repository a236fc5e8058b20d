"""Deciding between two decks (or configurations) played on the same seeds.

Game ``i`` starts from the same seed with either deck, so every metric is compared game
by game: each metric is a ratio of two per-game figures (a per-game mean, a share of
finished games, a rate of two counters, a sample's mean), and the difference B − A is
estimated with the variance of the paired per-game differences
(:func:`kraftstokk.sim.stream.paired_ratio`), the game as the unit. Each difference gets
a two-sided p-value; Holm's step-down correction over every metric compared (in a sweep:
over every metric of every comparison) decides which differences hold, so that testing
25 metrics does not find one by chance. Games whose every figure is the same with both
decks (Idiot reads only suits and values) are counted: when all are, the decks play the
same games and there is nothing to estimate.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from statistics import NormalDist
from typing import Any

from kraftstokk.sim.metrics import ratios_for
from kraftstokk.sim.stats import Z95, holm
from kraftstokk.sim.stream import (
    ACTIONS,
    FINISHED,
    GAMES,
    ROUNDS,
    SECONDS,
    SETTLED_EARLY,
    SETTLED_SHARE,
    SHARE_SCALE,
    UNFINISHED,
    PairStats,
    RunStats,
    counter,
    lost,
    paired_ratio,
    play_column,
    sample_count,
    sample_sum,
    won,
)

NORMAL = NormalDist()
#: The correction for testing many metrics, as the reports name it.
CORRECTION = "Holm"
METHOD = "paired by seed"


@dataclass(frozen=True)
class Metric:
    """A metric as a ratio of two per-game columns; ``kind``: per_game, rate or mean."""

    name: str
    numerator: str
    denominator: str
    kind: str
    #: The unit it is shown in, as a multiple of the ratio (seconds to minutes: 1/60).
    scale: float = 1.0


#: The playability metrics (sim/playability.py) compared game by game: the minutes at a
#: table in seconds, the shares and means of page 1.
PLAY_METRICS: tuple[Metric, ...] = (
    Metric("minutes_at_a_table_mean", SECONDS, FINISHED, "mean", 1 / 60),
    Metric("decision_share", play_column("choices"), ACTIONS, "rate"),
    Metric("branching_mean", play_column("options"), play_column("choices"), "mean"),
    Metric("lead_changes_mean", play_column("lead_changes"), FINISHED, "mean"),
    Metric("comeback_rate", play_column("comeback"), FINISHED, "rate"),
    Metric("settled_share_mean", SETTLED_SHARE, FINISHED, "rate", 1 / SHARE_SCALE),
    Metric("settled_early_rate", SETTLED_EARLY, FINISHED, "rate"),
)


def comparable_metrics(a: RunStats, b: RunStats) -> list[Metric]:
    """Every metric both runs can be compared on, in the report's order."""
    found = [
        Metric("actions_per_game", ACTIONS, GAMES, "per_game"),
        Metric("rounds_per_game", ROUNDS, GAMES, "per_game"),
        Metric("unfinished_rate", UNFINISHED, GAMES, "rate"),
        *PLAY_METRICS,
    ]
    counters_a, counters_b = set(a.counter_names()), set(b.counter_names())
    for name in sorted(counters_a | counters_b):
        found.append(Metric(f"{name}_per_game", counter(name), GAMES, "per_game"))
    if a.players == b.players:
        for label, column in (("win_rate", won), ("loser_rate", lost)):
            for seat in range(a.players):
                found.append(Metric(f"{label}_seat_{seat + 1}", column(seat), FINISHED, "rate"))
    for ratio in ratios_for(sorted(counters_a & counters_b)):
        found.append(
            Metric(ratio.name, counter(ratio.numerator), counter(ratio.denominator), "rate")
        )
    for name in sorted(set(a.sample_names()) & set(b.sample_names())):
        found.append(Metric(f"{name}_mean", sample_sum(name), sample_count(name), "mean"))
    return found


@dataclass(frozen=True)
class Difference:
    """One metric on A and on B, B − A with its 95 % interval and its two-sided p-value.

    ``significant``: the difference holds after the correction over the whole family of
    metrics compared; ``effect``: the difference in units of the metric's game-to-game
    spread (to tell which of several differences is the largest).
    """

    metric: str
    kind: str
    a: float
    b: float
    difference: float
    ci95: tuple[float, float]
    p_value: float
    effect: float
    significant: bool = False
    method: str = METHOD

    @property
    def is_rate(self) -> bool:
        return self.kind == "rate"

    @property
    def relative(self) -> float | None:
        """B − A as a share of A (None when A is zero)."""
        return self.difference / abs(self.a) if self.a else None

    def as_dict(self) -> dict[str, Any]:
        return {
            "metric": self.metric,
            "a": round(self.a, 6),
            "b": round(self.b, 6),
            "difference": round(self.difference, 6),
            "ci95": [round(self.ci95[0], 6), round(self.ci95[1], 6)],
            "p_value": round(self.p_value, 8),
            "significant": self.significant,
            "method": self.method,
        }


def _p_value(difference: float, variance: float) -> float:
    if variance <= 0:
        return 1.0 if difference == 0 else 0.0
    return 2 * (1 - NORMAL.cdf(abs(difference) / math.sqrt(variance)))


def differences(a: RunStats, b: RunStats, pair: PairStats) -> list[Difference]:
    """Every comparable metric, B − A game by game, not yet corrected (see :func:`corrected`)."""
    found = []
    games = pair.games
    for metric in comparable_metrics(a, b):
        estimate = paired_ratio(a, b, pair, metric.numerator, metric.denominator)
        if estimate is None:
            continue
        scale = metric.scale
        half = Z95 * math.sqrt(estimate.variance)
        spread = math.sqrt(games * (estimate.a.variance + estimate.b.variance) / 2)
        size = abs(estimate.difference)
        effect = size / spread if spread > 0 else (math.inf if size else 0.0)
        found.append(
            Difference(
                metric.name,
                metric.kind,
                scale * estimate.a.value,
                scale * estimate.b.value,
                scale * estimate.difference,
                (scale * (estimate.difference - half), scale * (estimate.difference + half)),
                _p_value(estimate.difference, estimate.variance),
                effect,
            )
        )
    return found


def corrected(
    families: Sequence[Sequence[Difference]], confidence: float
) -> list[list[Difference]]:
    """The differences with ``significant`` set by Holm's correction over all of them."""
    flat = [item for family in families for item in family]
    keep = iter(holm([item.p_value for item in flat], confidence))
    return [[replace(item, significant=next(keep)) for item in family] for family in families]


@dataclass(frozen=True)
class Comparison:
    """Two runs on the same seeds: their differences, corrected as one family."""

    games: int
    identical: int  # games whose every figure was the same with both
    differences: list[Difference]
    confidence: float
    family: int  # how many metrics the correction covered (in a sweep: all of them)
    correction: str = CORRECTION

    @property
    def same_games(self) -> bool:
        """Every game gave the same figures with both: the decks play the same games."""
        return self.games > 0 and self.identical == self.games

    @property
    def significant(self) -> list[Difference]:
        return [item for item in self.differences if item.significant]


def compare_runs(a: RunStats, b: RunStats, pair: PairStats, confidence: float = 0.95) -> Comparison:
    """Run B against run A, every metric corrected as one family."""
    (found,) = corrected([differences(a, b, pair)], confidence)
    return Comparison(pair.games, pair.identical, found, confidence, len(found))


def comparison_document(
    summary_a: dict[str, Any], summary_b: dict[str, Any], comparison: Comparison, verdict: str
) -> dict[str, Any]:
    """The ``sim-<game>-compare.json`` content."""
    return {
        "game": summary_a["game"],
        "players": summary_a["players"],
        "bots": summary_a["bots"],
        "seed": summary_a["seed"],
        "games": comparison.games,
        "interrupted": bool(summary_a["interrupted"] or summary_b["interrupted"]),
        "deck_a": summary_a["deck"],
        "deck_b": summary_b["deck"],
        "difference": "b - a",
        "verdict": verdict,
        "identical_games": comparison.identical,
        "same_games": comparison.same_games,
        "confidence": comparison.confidence,
        "correction": comparison.correction,
        "metrics_compared": comparison.family,
        "metrics": [item.as_dict() for item in comparison.differences],
    }


def _figure(value: float) -> str:
    return f"{value:.4f}" if abs(value) < 10 else f"{value:.2f}"


def format_table(comparison: Comparison, label_a: str, label_b: str) -> str:
    """A plain-text table, one metric a line; ``*`` marks differences that hold after the
    correction."""
    header = ("metric", label_a, label_b, "B - A", "95% CI", "p", "")
    lines = [
        (
            item.metric,
            _figure(item.a),
            _figure(item.b),
            f"{item.difference:+z.4f}",
            f"[{item.ci95[0]:+z.4f}, {item.ci95[1]:+z.4f}]",
            f"{item.p_value:.4f}" if item.p_value >= 0.0001 else "<0.0001",
            "*" if item.significant else "",
        )
        for item in comparison.differences
    ]
    widths = [max(len(row[col]) for row in [header, *lines]) for col in range(len(header))]
    out = []
    for row in [header, *lines]:
        cells = [row[0].ljust(widths[0])]
        cells += [row[col].rjust(widths[col]) for col in range(1, 6)]
        cells.append(row[6])
        out.append("  ".join(cells).rstrip())
    out.append(
        f"* holds after {comparison.correction}'s correction for the {comparison.family} metrics "
        f"compared ({100 * (1 - comparison.confidence):g} % chance of any false alarm); "
        "paired by seed, game i against game i"
    )
    return "\n".join(out)
