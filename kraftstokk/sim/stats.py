"""Small statistics for the simulation: Wilson intervals and Holm's correction.

Everything here is pure and deterministic; inputs are counts, so the same games give the
same figures whatever order the worker processes finished in. The estimates over games
(ratios, paired differences) are in :mod:`kraftstokk.sim.stream`, from the run's sums.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

#: Two-sided 95 % normal quantile.
Z95 = 1.959963984540054

Interval = tuple[float, float]


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


def holm(p_values: Sequence[float], confidence: float) -> list[bool]:
    """Holm's step-down: which of the tests stay significant over the whole family
    (the chance of any false alarm among them stays at most 1 - ``confidence``)."""
    alpha = 1 - confidence
    order = sorted(range(len(p_values)), key=lambda i: p_values[i])
    keep = [False] * len(p_values)
    for rank, index in enumerate(order):
        if p_values[index] > alpha / (len(p_values) - rank):
            break
        keep[index] = True
    return keep
