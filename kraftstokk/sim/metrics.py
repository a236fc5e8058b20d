"""What a series of games says about a deck: the metrics of a run.

A run's games are tallied chunk by chunk (:class:`~kraftstokk.sim.tally.Tally`) and
reduced to sums (:class:`~kraftstokk.sim.stream.RunStats`), which is all the parent keeps;
:func:`summarize` turns those into the ``sim-<game>.json`` dictionary. It reads counters
generically, so a game that does not keep a counter simply lacks the metrics built on it.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from kraftstokk.games.core import derive_seed
from kraftstokk.sim.histogram import Histogram
from kraftstokk.sim.stats import Z95, wilson
from kraftstokk.sim.stream import ACTIONS, ROUNDS, RunStats, counter, lost, ratio, won

#: Keys of the metrics that depend on the machine, not on the games.
TIMING_KEYS: tuple[str, ...] = ("games_per_second", "elapsed_seconds", "workers")

#: Counters every game keeps, reported at the top level as ``<name>_per_game``.
COMMON_COUNTERS: tuple[str, ...] = ("pile_pickups", "burns")


@dataclass(frozen=True)
class Ratio:
    """A success (or failure) rate: ``numerator`` events out of ``denominator`` events."""

    name: str
    numerator: str
    denominator: str
    meaning: str


#: Rates whose counters do not follow the ``<base>_<outcome>`` naming pattern.
EXTRA_RATIOS: tuple[Ratio, ...] = (
    Ratio("lie_caught_rate", "challenges_upheld", "lies", "share of lies exposed by a challenge"),
    Ratio("top3_burn_rate", "top3_burns", "top3_claims", "share of top-3 claims that burned"),
    Ratio("face_down_fail_rate", "face_down_fails", "face_down_plays", "blind plays that failed"),
)


def ratios_for(counter_names: list[str]) -> list[Ratio]:
    """Every rate the counters allow: ``<base>_<outcome>`` over ``<base>``, plus extras."""
    present = set(counter_names)
    found = [
        Ratio(f"{name}_rate", name, base, f"{name.replace('_', ' ')} per {base.replace('_', ' ')}")
        for name in sorted(present)
        for base in sorted(present)
        if name.startswith(base + "_")
    ]
    found.extend(r for r in EXTRA_RATIOS if {r.numerator, r.denominator} <= present)
    return found


def _round(value: float) -> float:
    return round(value, 6)


def _rounded(values: dict[str, float]) -> dict[str, float]:
    return {key: _round(value) for key, value in values.items()}


def rate_interval(stats: RunStats, numerator: str, denominator: str) -> list[float]:
    """The 95 % interval of a rate of two counters, the game as the unit, within 0..1."""
    found = ratio(stats, counter(numerator), counter(denominator))
    if found is None:
        return [0.0, 1.0]
    half = Z95 * math.sqrt(found.variance)
    return [_round(max(0.0, found.value - half)), _round(min(1.0, found.value + half))]


def _interval(successes: int, trials: int) -> list[float]:
    low, high = wilson(successes, trials)
    return [_round(low), _round(high)]


def _nice_width(span: int, bins: int) -> int:
    """The smallest of 1, 2, 5, 10, 20, 50, ... that covers ``span`` in ``bins`` bins."""
    width = 1
    while True:
        for step in (1, 2, 5):
            if step * width * bins > span:
                return step * width
        width *= 10


def length_histogram(values: Histogram | Iterable[int], bins: int = 20) -> dict[str, Any]:
    """Counts of ``values`` in equal bins up to the 99th percentile, the rest as overflow.

    Bin ``i`` is ``[start + i*w, start + (i+1)*w)``; values from ``start + len(counts)*w``
    on are counted in ``overflow``, so a few very long games do not squash the chart.
    ``values`` is a :class:`~kraftstokk.sim.histogram.Histogram` (a value past its exact
    range counts in the bin of its bucket's middle) or the values themselves.
    """
    histogram = values if isinstance(values, Histogram) else Histogram.of_counts(Counter(values))
    if not histogram.count or histogram.minimum is None:
        return {"start": 0, "bin_width": 1, "counts": [], "overflow": 0}
    high = int(histogram.quantile(0.99))
    lowest = histogram.minimum
    width = _nice_width(high - lowest, bins)
    start = lowest // width * width
    counts = [0] * ((high - start) // width + 1)
    overflow = 0
    for value, times in histogram.items():
        slot = (int(value) - start) // width
        if slot < len(counts):
            counts[slot] += times
        else:
            overflow += times
    return {"start": start, "bin_width": width, "counts": counts, "overflow": overflow}


@dataclass(frozen=True)
class RunInfo:
    """What was simulated: the settings that go into the JSON next to the figures."""

    game: str
    players: int
    bots: list[str]
    seed: int
    games_requested: int
    variants: list[str]
    action_cap: int
    deck_path: str
    deck_title: str
    deck_edition: str
    card_ids: tuple[str, ...]
    card_names: tuple[str, ...]
    cards_in_play: tuple[int, ...] | None = None  # None: every card of the table


def seat_counts(stats: RunStats) -> tuple[list[int], list[int]]:
    """How many finished games each seat won (went out first) and lost."""
    seats = range(stats.players)
    return [stats.total(won(s)) for s in seats], [stats.total(lost(s)) for s in seats]


def summarize(
    stats: RunStats, info: RunInfo, *, elapsed: float, workers: int, interrupted: bool = False
) -> dict[str, Any]:
    """The ``sim-<game>.json`` content (DESIGN.md "File contracts")."""
    games = stats.games
    finished = stats.finished
    totals = {name: stats.total(counter(name)) for name in stats.counter_names()}
    per_game = {name: _round(total / games) if games else 0.0 for name, total in totals.items()}
    wins, losses = seat_counts(stats)

    rates: dict[str, dict[str, Any]] = {}
    for found in ratios_for(list(totals)):
        hits, trials = totals[found.numerator], totals[found.denominator]
        rates[found.name] = {
            "numerator": found.numerator,
            "denominator": found.denominator,
            "successes": hits,
            "trials": trials,
            "rate": _round(hits / trials) if trials else None,
            "ci95": rate_interval(stats, found.numerator, found.denominator) if trials else None,
            "meaning": found.meaning,
        }

    samples: dict[str, dict[str, Any]] = {}
    for name in sorted(stats.samples):
        histogram = stats.samples[name]
        samples[name] = {
            "count": histogram.count,
            **_rounded(histogram.describe()),
            "histogram": {str(low): histogram.buckets[low] for low in sorted(histogram.buckets)},
        }

    with_loser = sum(losses)
    cards: dict[str, dict[str, Any]] = {}
    in_play = range(len(info.card_ids)) if info.cards_in_play is None else info.cards_in_play
    for index in in_play:
        card_id = info.card_ids[index]
        played = stats.cards_played[index]
        left = stats.loser_cards[index]
        cards[card_id] = {
            "name": info.card_names[index],
            "played": played,
            "played_per_game": _round(played / games) if games else 0.0,
            "left_with_loser": left,
            "left_with_loser_rate": _round(left / with_loser) if with_loser else 0.0,
        }

    actions, rounds = stats.length(ACTIONS), stats.length(ROUNDS)
    summary: dict[str, Any] = {
        "game": info.game,
        "deck": {"path": info.deck_path, "title": info.deck_title, "edition": info.deck_edition},
        "players": info.players,
        "bots": list(info.bots),
        "variants": list(info.variants),
        "action_cap": info.action_cap,
        "seed": info.seed,
        "games": games,
        "games_requested": info.games_requested,
        "interrupted": interrupted,
        "finished": finished,
        "unfinished": games - finished,
        "unfinished_rate": _round((games - finished) / games) if games else 0.0,
        "unfinished_ci95": _interval(games - finished, games),
        "unfinished_games": [
            {"index": index, "seed": derive_seed(info.seed, index)}
            for index in stats.unfinished_games
        ],
        "games_per_second": round(games / elapsed, 1) if elapsed > 0 else 0.0,
        "elapsed_seconds": round(elapsed, 3),
        "workers": workers,
        "actions": _rounded(actions.describe()),
        "rounds": _rounded(rounds.describe()),
        "quantiles_exact": actions.exact and rounds.exact,
        "actions_histogram": length_histogram(stats.length(ACTIONS, finished=True)),
        "rounds_histogram": length_histogram(stats.length(ROUNDS, finished=True)),
        "win_rate_by_seat": [_round(w / finished) if finished else 0.0 for w in wins],
        "win_rate_ci95_by_seat": [_interval(w, finished) for w in wins],
        "wins_by_seat": wins,
        "loser_rate_by_seat": [_round(loss / finished) if finished else 0.0 for loss in losses],
        "loser_rate_ci95_by_seat": [_interval(loss, finished) for loss in losses],
        "losses_by_seat": losses,
    }
    for name in COMMON_COUNTERS:
        summary[f"{name}_per_game"] = per_game.get(name, 0.0)
    summary["counters"] = {
        name: {"total": totals[name], "per_game": per_game[name]} for name in totals
    }
    summary["rates"] = rates
    summary["samples"] = samples
    summary["highlights"] = highlights(info.game, per_game, rates, samples)
    summary["cards"] = cards
    return summary


def highlights(
    game: str,
    per_game: dict[str, float],
    rates: dict[str, dict[str, Any]],
    samples: dict[str, dict[str, Any]],
) -> dict[str, float]:
    """The game's named figures (its spec's ``highlights``) that the run produced."""
    from kraftstokk.games.registry import known_spec

    spec = known_spec(game)
    found: dict[str, float] = {}
    for key in spec.highlights if spec is not None else ():
        if key.endswith("_per_game") and key.removesuffix("_per_game") in per_game:
            found[key] = per_game[key.removesuffix("_per_game")]
        elif key in rates and rates[key]["rate"] is not None:
            found[key] = rates[key]["rate"]
        elif key.endswith("_mean") and key.removesuffix("_mean") in samples:
            found[key] = samples[key.removesuffix("_mean")]["mean"]
    return found


def strip_timing(summary: dict[str, Any]) -> dict[str, Any]:
    """The summary without the machine-dependent keys, for comparing two runs."""
    return {key: value for key, value in summary.items() if key not in TIMING_KEYS}
