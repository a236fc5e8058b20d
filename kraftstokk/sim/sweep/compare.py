"""Between configurations: the differences that are significant, paired by seed.

Two configurations are compared when they play the same game and differ in exactly one
parameter (deck, players, bots or variants): then the difference is that parameter's.
Game *i* of both starts from the same derived seed, so per-game figures are paired game
by game (:func:`kraftstokk.sim.compare.compare_tallies`); seat rates are left to the
seat findings. Every difference gets a p-value, and Holm's correction over all of the
sweep's comparisons decides which stay significant at the sweep's confidence.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any

from kraftstokk.sim.compare import compare_tallies
from kraftstokk.sim.findings import CheckedDifference, Finding, holm, pct, texts, with_p_value
from kraftstokk.sim.sweep.grid import PARAMETERS
from kraftstokk.sim.sweep.run import ConfigurationRun

METHODS = {"paired": "paired by seed", "ratio": "totals over games, game as unit"}
SEAT_PREFIXES = ("win_rate_seat_", "loser_rate_seat_")


@dataclass(frozen=True)
class PairDifference:
    a: ConfigurationRun
    b: ConfigurationRun
    parameter: str
    test: CheckedDifference
    significant: bool

    def as_dict(self) -> dict[str, Any]:
        item = self.test.difference
        return {
            "configuration_a": self.a.configuration.number,
            "configuration_b": self.b.configuration.number,
            "parameter": self.parameter,
            "a_value": self.a.configuration.value(self.parameter),
            "b_value": self.b.configuration.value(self.parameter),
            **item.as_dict(),
            "p_value": round(self.test.p_value, 8),
            "significant": self.significant,
        }


def _differing(a: ConfigurationRun, b: ConfigurationRun) -> list[str]:
    return [p for p in PARAMETERS if a.configuration.value(p) != b.configuration.value(p)]


def pair_differences(runs: list[ConfigurationRun], confidence: float) -> list[PairDifference]:
    """Every compared metric of every pair of neighbouring configurations."""
    found: list[tuple[ConfigurationRun, ConfigurationRun, str, CheckedDifference]] = []
    for a, b in itertools.combinations(runs, 2):
        differing = _differing(a, b)
        if len(differing) != 1 or differing[0] == "game":
            continue
        players = a.configuration.settings.players
        same_seats = players == b.configuration.settings.players
        for difference in compare_tallies(a.tally, b.tally, players if same_seats else 0):
            if difference.metric.startswith(SEAT_PREFIXES):
                continue
            found.append((a, b, differing[0], with_p_value(difference)))
    keep = holm([item[3].p_value for item in found], confidence)
    return [
        PairDifference(a, b, parameter, test, significant)
        for (a, b, parameter, test), significant in zip(found, keep, strict=True)
    ]


def _label(run: ConfigurationRun, parameter: str) -> str:
    return f"#{run.configuration.number} ({parameter} {run.configuration.value(parameter)})"


def _context(pair: PairDifference, varied: list[str]) -> str:
    """What the two configurations share among the swept parameters: ', both deck-head'."""
    shared = [f"{p} {pair.a.configuration.value(p)}" for p in varied if p != pair.parameter]
    return f" (with {', '.join(shared)} in both)" if shared else ""


def difference_finding(
    pair: PairDifference, significant: int = 1, pairs: int = 1, varied: list[str] | None = None
) -> Finding:
    """The words for one significant difference (the largest of ``significant`` alike)."""
    item = pair.test.difference
    metric = item.metric.replace("_", " ")
    is_rate = item.metric.endswith("_rate")
    low, high = item.ci95
    if is_rate:
        a, b = pct(item.a), pct(item.b)
        change = f"{100 * item.difference:+.1f} percentage points"
        low_text, high_text = f"{100 * low:+.1f}", f"{100 * high:+.1f} points"
    else:
        a, b = f"{item.a:.2f}", f"{item.b:.2f}"
        if item.a:
            change = f"{100 * item.difference / item.a:+.1f} %"
            low_text = f"{100 * low / item.a:+.1f} %"
            high_text = f"{100 * high / item.a:+.1f} %"
        else:
            change = f"{item.difference:+.2f}"
            low_text, high_text = f"{low:+.2f}", f"{high:+.2f}"
    a_label, b_label = _label(pair.a, pair.parameter), _label(pair.b, pair.parameter)
    lower = a_label if item.a < item.b else b_label
    entry = texts()["difference"]
    words = {
        "metric": metric,
        "a_label": a_label,
        "b_label": b_label,
        "direction": "is higher" if item.difference > 0 else "is lower",
        "a": a,
        "b": b,
        "change": change,
        "low": low_text,
        "high": high_text,
        "method": METHODS.get(item.method, item.method),
        "context": _context(pair, varied or []),
        "significant": significant,
        "pairs": pairs,
        "parameter": pair.parameter,
        "lower_or_higher": "lower",
        "choice": lower,
    }
    return Finding(
        "difference",
        entry["title"],
        entry["says"].format(**words),
        entry["advice"].format(**words),
        {**pair.as_dict(), "significant_pairs": significant, "pairs": pairs},
    )


def relative_size(pair: PairDifference) -> float:
    item = pair.test.difference
    if item.metric.endswith("_rate"):
        return abs(item.difference)
    return abs(item.difference) / abs(item.a) if item.a else abs(item.difference)
