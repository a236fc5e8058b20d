"""What a series of games says about a deck: tallies per game and the metrics over them.

A :class:`Tally` collects plain integers from played games (one :class:`GameRow` per game,
in game-index order, plus card and sample totals). A game's counters are its events
counted (``games/events.py``: each event's ``count``), so what the report says happened
is what ``play`` and a replay tell. Tallies of consecutive chunks merge,
so a parallel run gives the same tally as a serial one. :func:`summarize` turns a tally
into the ``sim-<game>.json`` dictionary; it reads counters generically, so a game that
does not keep a counter simply lacks the metrics built on it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from kraftstokk.games.core import GameRecord, Stats, derive_seed
from kraftstokk.sim.stats import describe, ratio_interval, wilson

#: Keys of the metrics that depend on the machine, not on the games.
TIMING_KEYS: tuple[str, ...] = ("games_per_second", "elapsed_seconds", "workers")

#: How many unfinished games the summary names (index and seed, to replay them).
MAX_LISTED_UNFINISHED = 20

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


@dataclass(frozen=True)
class GameRow:
    """The per-game figures kept for every game (enough for paired deck comparisons)."""

    index: int
    finished: bool
    actions: int
    rounds: int
    winner: int  # -1 when nobody went out
    loser: int  # -1 when unfinished
    counters: dict[str, int]
    samples: dict[str, tuple[int, int]] = field(default_factory=dict)  # name -> (count, sum)


@dataclass
class Tally:
    """Integer totals over a run of consecutive games; mergeable in game-index order."""

    num_cards: int
    rows: list[GameRow] = field(default_factory=list)
    samples: dict[str, dict[int, int]] = field(default_factory=dict)  # name -> histogram
    cards_played: list[int] = field(default_factory=list)
    loser_cards: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not self.cards_played:
            self.cards_played = [0] * self.num_cards
        if not self.loser_cards:
            self.loser_cards = [0] * self.num_cards

    @property
    def games(self) -> int:
        return len(self.rows)

    def add(self, index: int, record: GameRecord) -> None:
        """Count one played game: its result and its events."""
        result = record.result
        stats = count_events(record)
        self.rows.append(
            GameRow(
                index=index,
                finished=result.finished,
                actions=result.actions,
                rounds=result.rounds,
                winner=result.order[0] if result.order else -1,
                loser=result.loser if result.finished and result.loser is not None else -1,
                counters=dict(stats.counters),
                samples={
                    name: (len(values), sum(values)) for name, values in stats.samples.items()
                },
            )
        )
        for name, values in stats.samples.items():
            histogram = self.samples.setdefault(name, {})
            for value in values:
                histogram[value] = histogram.get(value, 0) + 1
        played = self.cards_played
        for card, times in enumerate(stats.cards_played[: self.num_cards]):
            played[card] += times
        if result.finished:
            for card in record.loser_cards:
                if 0 <= card < self.num_cards:
                    self.loser_cards[card] += 1

    def merge(self, other: Tally) -> None:
        """Append the games of ``other``, which must come right after these."""
        if other.num_cards != self.num_cards:
            raise ValueError("tallies of different decks cannot be merged")
        if self.rows and other.rows and other.rows[0].index != self.rows[-1].index + 1:
            raise ValueError(
                f"tally for games from {other.rows[0].index} does not follow "
                f"game {self.rows[-1].index}"
            )
        self.rows.extend(other.rows)
        for name, histogram in other.samples.items():
            mine = self.samples.setdefault(name, {})
            for value, count in histogram.items():
                mine[value] = mine.get(value, 0) + count
        for card in range(self.num_cards):
            self.cards_played[card] += other.cards_played[card]
            self.loser_cards[card] += other.loser_cards[card]

    def counter_names(self) -> list[str]:
        names: set[str] = set()
        for row in self.rows:
            names.update(row.counters)
        return sorted(names)

    def counter_totals(self) -> dict[str, int]:
        return {
            name: sum(row.counters.get(name, 0) for row in self.rows)
            for name in self.counter_names()
        }


def count_events(record: GameRecord) -> Stats:
    """The counters of a played game: its events counted.

    ``play_game`` counts them once (``State.final_stats``: each event's ``count``), in
    the compiled engine.
    """
    return record.stats


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


def _ratio_interval(tally: Tally, ratio: Ratio) -> list[float]:
    pairs = [
        (row.counters.get(ratio.denominator, 0), row.counters.get(ratio.numerator, 0))
        for row in tally.rows
    ]
    low, high = ratio_interval(pairs)
    return [_round(low), _round(high)]


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


def length_histogram(values: list[int], bins: int = 20) -> dict[str, Any]:
    """Counts of ``values`` in equal bins up to the 99th percentile, the rest as overflow.

    Bin ``i`` is ``[start + i*w, start + (i+1)*w)``; values from ``start + len(counts)*w``
    on are counted in ``overflow``, so a few very long games do not squash the chart.
    """
    if not values:
        return {"start": 0, "bin_width": 1, "counts": [], "overflow": 0}
    ordered = sorted(values)
    high = ordered[max(0, math.ceil(0.99 * len(ordered)) - 1)]
    width = _nice_width(high - ordered[0], bins)
    start = ordered[0] // width * width
    counts = [0] * ((high - start) // width + 1)
    overflow = 0
    for value in ordered:
        slot = (value - start) // width
        if slot < len(counts):
            counts[slot] += 1
        else:
            overflow += 1
    return {"start": start, "bin_width": width, "counts": counts, "overflow": overflow}


def seat_rates(tally: Tally, players: int, field_name: str) -> tuple[list[int], int]:
    """How many finished games each seat won (``winner``) or lost (``loser``)."""
    counts = [0] * players
    finished = 0
    for row in tally.rows:
        if not row.finished:
            continue
        finished += 1
        seat = getattr(row, field_name)
        if 0 <= seat < players:
            counts[seat] += 1
    return counts, finished


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


def summarize(
    tally: Tally, info: RunInfo, *, elapsed: float, workers: int, interrupted: bool = False
) -> dict[str, Any]:
    """The ``sim-<game>.json`` content (DESIGN.md "File contracts")."""
    games = tally.games
    finished = sum(1 for row in tally.rows if row.finished)
    totals = tally.counter_totals()
    per_game = {name: _round(total / games) if games else 0.0 for name, total in totals.items()}
    wins, _ = seat_rates(tally, info.players, "winner")
    losses, _ = seat_rates(tally, info.players, "loser")

    rates: dict[str, dict[str, Any]] = {}
    for ratio in ratios_for(list(totals)):
        hits, trials = totals[ratio.numerator], totals[ratio.denominator]
        rates[ratio.name] = {
            "numerator": ratio.numerator,
            "denominator": ratio.denominator,
            "successes": hits,
            "trials": trials,
            "rate": _round(hits / trials) if trials else None,
            "ci95": _ratio_interval(tally, ratio) if trials else None,
            "meaning": ratio.meaning,
        }

    samples: dict[str, dict[str, Any]] = {}
    for name in sorted(tally.samples):
        histogram = tally.samples[name]
        values = [value for value in sorted(histogram) for _ in range(histogram[value])]
        samples[name] = {
            "count": len(values),
            **_rounded(describe(values)),
            "histogram": {str(value): histogram[value] for value in sorted(histogram)},
        }

    with_loser = sum(1 for row in tally.rows if row.finished and row.loser >= 0)
    cards: dict[str, dict[str, Any]] = {}
    in_play = range(len(info.card_ids)) if info.cards_in_play is None else info.cards_in_play
    for index in in_play:
        card_id = info.card_ids[index]
        played = tally.cards_played[index]
        left = tally.loser_cards[index]
        cards[card_id] = {
            "name": info.card_names[index],
            "played": played,
            "played_per_game": _round(played / games) if games else 0.0,
            "left_with_loser": left,
            "left_with_loser_rate": _round(left / with_loser) if with_loser else 0.0,
        }

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
            {"index": row.index, "seed": derive_seed(info.seed, row.index)}
            for row in tally.rows
            if not row.finished
        ][:MAX_LISTED_UNFINISHED],
        "games_per_second": round(games / elapsed, 1) if elapsed > 0 else 0.0,
        "elapsed_seconds": round(elapsed, 3),
        "workers": workers,
        "actions": _rounded(describe([row.actions for row in tally.rows])),
        "rounds": _rounded(describe([row.rounds for row in tally.rows])),
        "actions_histogram": length_histogram([row.actions for row in tally.rows if row.finished]),
        "rounds_histogram": length_histogram([row.rounds for row in tally.rows if row.finished]),
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
    from kraftstokk.games.registry import specs

    spec = specs().get(game)
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
