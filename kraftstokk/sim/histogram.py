"""A histogram of integers that stays small: exact below 2,048, within 0.05 % above.

A run's lengths (actions, rounds) and samples (war sizes, run lengths) are counted as
they stream in, never kept game by game. Each value falls in a bucket: below
:data:`EXACT_BELOW` the bucket is the value itself, so every figure read from it
(median, 95th percentile, the charts' bins) is exact; above, a bucket keeps the value's
:data:`EXACT_BITS` leading bits (as HdrHistogram does), so it is at most 1/1,024 of its
lowest value wide and a figure read from it is within half a bucket, 1/2,048 of the
value, of the true one. Mean, count and maximum are always exact.

A bucket depends only on its value, so merging histograms in any order gives the same
histogram: a run's figures do not depend on how its games were cut into chunks.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator, Mapping

import numpy as np

#: Leading bits a bucket keeps; values below ``2 ** EXACT_BITS`` are counted exactly.
EXACT_BITS = 11
EXACT_BELOW = 1 << EXACT_BITS
#: The largest error of a figure read from the histogram, relative to the value.
RELATIVE_ERROR = 1 / EXACT_BELOW
#: Below this, a float's exponent is an integer's bit length exactly.
_FLOAT_BITS_EXACT = 1 << 52


def bucket_of(value: int) -> int:
    """The lowest value of the bucket ``value`` falls in (the value itself below 2,048;
    lengths and samples are never negative, and a negative value is kept exactly)."""
    if value < EXACT_BELOW:
        return value
    shift = value.bit_length() - EXACT_BITS
    return (value >> shift) << shift


def bucket_width(low: int) -> int:
    """How many integers the bucket starting at ``low`` holds."""
    if low < EXACT_BELOW:
        return 1
    return 1 << (low.bit_length() - EXACT_BITS)


def representative(low: int) -> float:
    """The value a figure read from the bucket takes: its middle (the value, when exact)."""
    return low + (bucket_width(low) - 1) / 2


#: Values spanning fewer than this are counted with a bincount instead of a sort.
_BINCOUNT_SPAN = 1 << 14


def distinct_counts(values: np.ndarray) -> tuple[list[int], list[int]]:
    """The distinct values of an int64 array, increasing, and how often each occurs
    (``np.unique`` without its hashing, several times slower on a chunk's few hundred)."""
    if not len(values):
        return [], []
    lowest = int(values.min())
    if int(values.max()) - lowest < _BINCOUNT_SPAN:
        counts = np.bincount(values - lowest)
        present = np.flatnonzero(counts)
        return (present + lowest).tolist(), counts[present].tolist()
    ordered = np.sort(values)
    starts = np.flatnonzero(np.diff(ordered, prepend=ordered[0] - 1))
    times = np.diff(starts, append=len(ordered))
    return ordered[starts].tolist(), times.tolist()


class Histogram:
    """Counts of integers by bucket, with their exact count, sum, minimum and maximum."""

    __slots__ = ("buckets", "count", "maximum", "minimum", "total")

    def __init__(self) -> None:
        self.buckets: dict[int, int] = {}
        self.count = 0
        self.total = 0
        self.minimum: int | None = None
        self.maximum: int | None = None

    @classmethod
    def of_counts(cls, counts: Mapping[int, int] | Iterable[tuple[int, int]]) -> Histogram:
        """A histogram of ``value -> how many times`` (exact values, not buckets)."""
        histogram = cls()
        histogram.add_counts(counts)
        return histogram

    @classmethod
    def of_values(cls, values: np.ndarray) -> Histogram:
        """A histogram of an int64 array's values, bucketed at once."""
        histogram = cls()
        if not len(values):
            return histogram
        lows = values
        if int(values.max()) >= EXACT_BELOW:
            if int(values.max()) >= _FLOAT_BITS_EXACT:  # past what frexp tells exactly
                return cls.of_counts(zip(*distinct_counts(values), strict=True))
            wide = values >= EXACT_BELOW
            shifts = np.frexp(values[wide].astype(np.float64))[1] - EXACT_BITS
            lows = values.copy()
            lows[wide] = (values[wide] >> shifts) << shifts
        distinct, times = distinct_counts(lows)
        histogram.buckets = dict(zip(distinct, times, strict=True))
        histogram.count = len(values)
        histogram.total = int(values.sum())
        histogram.minimum = int(values.min())
        histogram.maximum = int(values.max())
        return histogram

    def add_counts(self, counts: Mapping[int, int] | Iterable[tuple[int, int]]) -> None:
        pairs = counts.items() if isinstance(counts, Mapping) else counts
        buckets = self.buckets
        for value, times in pairs:
            if times <= 0:
                continue
            low = value if value < EXACT_BELOW else bucket_of(value)
            buckets[low] = buckets.get(low, 0) + times
            self.count += times
            self.total += value * times
            if self.minimum is None or value < self.minimum:
                self.minimum = value
            if self.maximum is None or value > self.maximum:
                self.maximum = value

    def merge(self, other: Histogram) -> None:
        buckets = self.buckets
        for low, times in other.buckets.items():
            buckets[low] = buckets.get(low, 0) + times
        self.count += other.count
        self.total += other.total
        if other.minimum is not None and (self.minimum is None or other.minimum < self.minimum):
            self.minimum = other.minimum
        if other.maximum is not None and (self.maximum is None or other.maximum > self.maximum):
            self.maximum = other.maximum

    def copy(self) -> Histogram:
        twin = Histogram()
        twin.merge(self)
        return twin

    @property
    def exact(self) -> bool:
        """Every bucket is one value wide: every figure read from it is exact."""
        return all(bucket_width(low) == 1 for low in self.buckets)

    def items(self) -> Iterator[tuple[float, int]]:
        """``(representative, count)`` by increasing value."""
        for low in sorted(self.buckets):
            yield representative(low), self.buckets[low]

    def ranked(self, rank: int) -> float:
        """The value at 0-based ``rank`` of the sorted values (its bucket's middle)."""
        if not 0 <= rank < self.count:
            raise IndexError(f"rank {rank} of {self.count} values")
        seen = 0
        for low in sorted(self.buckets):
            seen += self.buckets[low]
            if rank < seen:
                return representative(low)
        raise AssertionError("unreachable: the counts add up to count")

    def quantile(self, share: float) -> float:
        """The nearest-rank quantile: the smallest value with ``share`` of them at or below."""
        return self.ranked(max(0, math.ceil(share * self.count) - 1))

    def describe(self) -> dict[str, float]:
        """Mean, median, 95th percentile (nearest rank) and maximum; zeros when empty."""
        n = self.count
        if not n:
            return {"mean": 0.0, "median": 0.0, "p95": 0.0, "max": 0.0}
        middle = n // 2
        median = (
            self.ranked(middle) if n % 2 else (self.ranked(middle - 1) + self.ranked(middle)) / 2
        )
        return {
            "mean": self.total / n,
            "median": float(median),
            "p95": float(self.quantile(0.95)),
            "max": float(self.maximum if self.maximum is not None else 0),
        }

    def above(self, threshold: float) -> int:
        """How many values lie above ``threshold`` (by their buckets' middles)."""
        return sum(times for value, times in self.items() if value > threshold)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Histogram):
            return NotImplemented
        return (self.buckets, self.count, self.total, self.minimum, self.maximum) == (
            other.buckets,
            other.count,
            other.total,
            other.minimum,
            other.maximum,
        )

    __hash__ = None  # type: ignore[assignment]  # mutable, compared by content

    def __repr__(self) -> str:
        return f"Histogram(count={self.count}, buckets={len(self.buckets)})"

    def __getstate__(self) -> tuple[dict[int, int], int, int, int | None, int | None]:
        return (self.buckets, self.count, self.total, self.minimum, self.maximum)

    def __setstate__(self, state: tuple[dict[int, int], int, int, int | None, int | None]) -> None:
        self.buckets, self.count, self.total, self.minimum, self.maximum = state
