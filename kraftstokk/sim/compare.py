"""Deciding between two decks: the same seeds on both, each metric's difference and its CI.

Per-game figures (length, counters, unfinished) are paired game by game, since game ``i``
starts from the same seed with either deck. Seat win and loser rates compare two
proportions. Rates over events (challenge success) and sample means (war sizes) are
ratios of two per-game totals; their intervals take the game, not the event, as the
unit, since the events of one game are not independent. A difference is *significant*
when its 95 % interval leaves out zero.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from kraftstokk.sim.metrics import GameRow, Tally, ratios_for, seat_rates
from kraftstokk.sim.stats import (
    Z95,
    Interval,
    paired_difference,
    proportion_difference,
    ratio_estimate,
)


@dataclass(frozen=True)
class Difference:
    """One metric on deck A and deck B, and B - A with its 95 % interval."""

    metric: str
    a: float
    b: float
    difference: float
    ci95: Interval
    method: str  # "paired", "proportions" or "ratio"

    @property
    def significant(self) -> bool:
        low, high = self.ci95
        return low > 0 or high < 0

    def as_dict(self) -> dict[str, Any]:
        return {
            "metric": self.metric,
            "a": round(self.a, 6),
            "b": round(self.b, 6),
            "difference": round(self.difference, 6),
            "ci95": [round(self.ci95[0], 6), round(self.ci95[1], 6)],
            "significant": self.significant,
            "method": self.method,
        }


def _paired(
    metric: str, rows_a: list[GameRow], rows_b: list[GameRow], get: Callable[[GameRow], float]
) -> Difference:
    values_a = [get(row) for row in rows_a]
    values_b = [get(row) for row in rows_b]
    n = len(values_a)
    diff, interval = paired_difference(values_a, values_b)
    mean_a = sum(values_a) / n if n else 0.0
    mean_b = sum(values_b) / n if n else 0.0
    return Difference(metric, mean_a, mean_b, diff, interval, "paired")


def _proportions(metric: str, hits_a: int, n_a: int, hits_b: int, n_b: int) -> Difference:
    diff, interval = proportion_difference(hits_a, n_a, hits_b, n_b)
    rate_a = hits_a / n_a if n_a else 0.0
    rate_b = hits_b / n_b if n_b else 0.0
    return Difference(metric, rate_a, rate_b, diff, interval, "proportions")


def _ratio_difference(
    metric: str, pairs_a: list[tuple[int, int]], pairs_b: list[tuple[int, int]]
) -> Difference:
    mean_a, var_a = ratio_estimate(pairs_a)
    mean_b, var_b = ratio_estimate(pairs_b)
    diff = mean_b - mean_a
    half = Z95 * math.sqrt(var_a + var_b)
    return Difference(metric, mean_a, mean_b, diff, (diff - half, diff + half), "ratio")


def _counter_pairs(rows: list[GameRow], numerator: str, denominator: str) -> list[tuple[int, int]]:
    return [(row.counters.get(denominator, 0), row.counters.get(numerator, 0)) for row in rows]


def _sample_pairs(rows: list[GameRow], name: str) -> list[tuple[int, int]]:
    return [row.samples.get(name, (0, 0)) for row in rows]


def _counter(name: str) -> Callable[[GameRow], float]:
    def get(row: GameRow) -> float:
        return row.counters.get(name, 0)

    return get


def compare_tallies(a: Tally, b: Tally, players: int) -> list[Difference]:
    """Every metric both runs have, deck B minus deck A, over the games both played."""
    common = min(a.games, b.games)
    rows_a, rows_b = a.rows[:common], b.rows[:common]
    found = [
        _paired("actions_per_game", rows_a, rows_b, lambda row: row.actions),
        _paired("rounds_per_game", rows_a, rows_b, lambda row: row.rounds),
        _paired("unfinished_rate", rows_a, rows_b, lambda row: 0 if row.finished else 1),
    ]
    trimmed_a = Tally(num_cards=a.num_cards, rows=rows_a)
    trimmed_b = Tally(num_cards=b.num_cards, rows=rows_b)
    names = sorted(set(trimmed_a.counter_names()) | set(trimmed_b.counter_names()))
    for name in names:
        found.append(_paired(f"{name}_per_game", rows_a, rows_b, _counter(name)))
    for field_name, label in (("winner", "win_rate"), ("loser", "loser_rate")):
        counts_a, finished_a = seat_rates(trimmed_a, players, field_name)
        counts_b, finished_b = seat_rates(trimmed_b, players, field_name)
        for seat in range(players):
            found.append(
                _proportions(
                    f"{label}_seat_{seat + 1}",
                    counts_a[seat],
                    finished_a,
                    counts_b[seat],
                    finished_b,
                )
            )
    both = sorted(set(trimmed_a.counter_names()) & set(trimmed_b.counter_names()))
    for ratio in ratios_for(both):
        found.append(
            _ratio_difference(
                ratio.name,
                _counter_pairs(rows_a, ratio.numerator, ratio.denominator),
                _counter_pairs(rows_b, ratio.numerator, ratio.denominator),
            )
        )
    samples_a = {name for row in rows_a for name in row.samples}
    samples_b = {name for row in rows_b for name in row.samples}
    for name in sorted(samples_a & samples_b):
        found.append(
            _ratio_difference(
                f"{name}_mean", _sample_pairs(rows_a, name), _sample_pairs(rows_b, name)
            )
        )
    return found


def comparison_document(
    summary_a: dict[str, Any], summary_b: dict[str, Any], differences: list[Difference]
) -> dict[str, Any]:
    """The ``sim-<game>-compare.json`` content."""
    return {
        "game": summary_a["game"],
        "players": summary_a["players"],
        "bots": summary_a["bots"],
        "seed": summary_a["seed"],
        "games": min(summary_a["games"], summary_b["games"]),
        "deck_a": summary_a["deck"],
        "deck_b": summary_b["deck"],
        "difference": "b - a",
        "metrics": [item.as_dict() for item in differences],
    }


def _figure(value: float) -> str:
    return f"{value:.4f}" if abs(value) < 10 else f"{value:.2f}"


def format_table(differences: list[Difference], label_a: str, label_b: str) -> str:
    """A plain-text table, one metric a line; ``*`` marks intervals that leave out zero."""
    header = ("metric", label_a, label_b, "B - A", "95% CI", "")
    lines = [
        (
            item.metric,
            _figure(item.a),
            _figure(item.b),
            f"{item.difference:+.4f}",
            f"[{item.ci95[0]:+.4f}, {item.ci95[1]:+.4f}]",
            "*" if item.significant else "",
        )
        for item in differences
    ]
    widths = [max(len(row[col]) for row in [header, *lines]) for col in range(len(header))]
    out = []
    for row in [header, *lines]:
        cells = [row[0].ljust(widths[0])]
        cells += [row[col].rjust(widths[col]) for col in range(1, 5)]
        cells.append(row[5])
        out.append("  ".join(cells).rstrip())
    out.append("* the 95% interval leaves out zero: the decks differ on this metric")
    return "\n".join(out)
