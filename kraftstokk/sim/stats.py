"""Small statistics for the simulation: summaries, Wilson intervals, differences.

Everything here is pure and deterministic; inputs are counts or integer samples, so the
same games give the same figures whatever order the worker processes finished in.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

#: Two-sided 95 % normal quantile.
Z95 = 1.959963984540054

Interval = tuple[float, float]


def describe(values: Sequence[int]) -> dict[str, float]:
    """Mean, median, 95th percentile (nearest rank) and maximum; zeros when empty."""
    if not values:
        return {"mean": 0.0, "median": 0.0, "p95": 0.0, "max": 0.0}
    ordered = sorted(values)
    n = len(ordered)
    middle = n // 2
    median = ordered[middle] if n % 2 else (ordered[middle - 1] + ordered[middle]) / 2
    p95 = ordered[max(0, math.ceil(0.95 * n) - 1)]
    return {
        "mean": sum(ordered) / n,
        "median": float(median),
        "p95": float(p95),
        "max": float(ordered[-1]),
    }


def wilson(successes: int, trials: int, z: float = Z95) -> Interval:
    """Wilson score interval for a proportion; (0, 1) when there are no trials."""
    if trials <= 0:
        return (0.0, 1.0)
    k = min(max(successes, 0), trials)
    p = k / trials
    z2 = z * z
    centre = (p + z2 / (2 * trials)) / (1 + z2 / trials)
    half = z * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / (1 + z2 / trials)
    return (max(0.0, centre - half), min(1.0, centre + half))


def proportion_difference(
    successes_a: int, trials_a: int, successes_b: int, trials_b: int
) -> tuple[float, Interval]:
    """Difference of two independent proportions (b - a), Newcombe's hybrid score interval."""
    p_a = successes_a / trials_a if trials_a else 0.0
    p_b = successes_b / trials_b if trials_b else 0.0
    lo_a, hi_a = wilson(successes_a, trials_a)
    lo_b, hi_b = wilson(successes_b, trials_b)
    diff = p_b - p_a
    lower = diff - math.sqrt((p_b - lo_b) ** 2 + (hi_a - p_a) ** 2)
    upper = diff + math.sqrt((hi_b - p_b) ** 2 + (p_a - lo_a) ** 2)
    return diff, (lower, upper)


def paired_difference(a: Sequence[float], b: Sequence[float]) -> tuple[float, Interval]:
    """Mean of the per-game differences (b - a) with a normal 95 % interval.

    Both decks play the same seeds, so pairing game i with game i removes the variation
    the seed causes on both sides and leaves the deck's effect.
    """
    if len(a) != len(b):
        raise ValueError(f"paired samples differ in length: {len(a)} and {len(b)}")
    n = len(a)
    if n == 0:
        return 0.0, (0.0, 0.0)
    diffs = [y - x for x, y in zip(a, b, strict=True)]
    mean = sum(diffs) / n
    if n == 1:
        return mean, (mean, mean)
    variance = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    half = Z95 * math.sqrt(variance / n)
    return mean, (mean - half, mean + half)


def ratio_estimate(pairs: Sequence[tuple[int, int]]) -> tuple[float, float]:
    """Total over total and its variance with the game as the unit (ratio estimator).

    ``pairs`` holds per game (n_i, s_i): the events (or samples) and their total. Events
    of one game are not independent (one long game has many wars), so the variance is
    sum (s_i - R n_i)^2 / (g (g - 1) nbar^2) over the g games, not the events' own.
    """
    games = len(pairs)
    count = sum(n for n, _ in pairs)
    if count == 0:
        return 0.0, 0.0
    mean = sum(total for _, total in pairs) / count
    if games < 2:
        return mean, 0.0
    per_game = count / games
    spread = sum((total - mean * n) ** 2 for n, total in pairs)
    return mean, spread / (games * (games - 1) * per_game**2)


def ratio_interval(
    pairs: Sequence[tuple[int, int]], low: float = 0.0, high: float = 1.0
) -> Interval:
    """95 % normal interval of :func:`ratio_estimate`, clipped to ``[low, high]``."""
    mean, variance = ratio_estimate(pairs)
    half = Z95 * math.sqrt(variance)
    return (max(low, mean - half), min(high, mean + half))
