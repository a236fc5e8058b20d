"""What a series of games says about a deck: a chunk's games, and the metrics of a run.

A :class:`Tally` collects plain integers from the games of one chunk (columns of
per-game figures, read back as one :class:`GameRow` per game in game-index order, plus
card and sample totals): what a worker fills as it plays, and what a sweep stores. A
game's counters are its events counted (``games/events.py``: each event's ``count``), so
what the report says happened is what ``play`` and a replay tell. The chunk is then
reduced to sums (:class:`~kraftstokk.sim.stream.RunStats`), which is all the parent keeps;
:func:`summarize` turns those into the ``sim-<game>.json`` dictionary. It reads counters
generically, so a game that does not keep a counter simply lacks the metrics built on it.
"""

from __future__ import annotations

import math
from array import array
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from operator import add
from typing import Any

from kraftstokk.games.core import Stats, derive_seed
from kraftstokk.games.runner import GameRecord
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


@dataclass(frozen=True)
class TallyColumns:
    """A tally's per-game columns: six with one entry per game, and per counter (sample)
    of each game its name's number in ``counter_names`` (``sample_names``) and value."""

    index: array[int]
    finished: array[int]
    actions: array[int]
    rounds: array[int]
    winner: array[int]
    loser: array[int]
    counter_lengths: array[int]
    counter_keys: array[int]
    counter_values: array[int]
    counter_names: tuple[str, ...]
    sample_lengths: array[int]
    sample_keys: array[int]
    sample_counts: array[int]
    sample_sums: array[int]
    sample_names: tuple[str, ...]


class _Names(dict[str, int]):
    """Names numbered in the order first seen: looking up a new name numbers it."""

    def __missing__(self, name: str) -> int:
        number = self[name] = len(self)
        return number


def _ints() -> array[int]:
    return array("q")


#: The per-game columns of a :class:`Tally` (besides the name numbers).
_COLUMNS: tuple[str, ...] = (
    "_index",
    "_finished",
    "_actions",
    "_rounds",
    "_winner",
    "_loser",
    "_counter_lengths",
    "_counter_values",
    "_sample_lengths",
    "_sample_counts",
    "_sample_sums",
)


def _renumbered(keys: array[int], theirs: Iterable[str], mine: _Names) -> array[int]:
    """``keys`` numbered by ``theirs`` (names in number order), numbered by ``mine``
    (which learns new names)."""
    numbers = [mine[name] for name in theirs]
    if numbers == list(range(len(numbers))):
        return keys
    return array("q", map(numbers.__getitem__, keys))


@dataclass(frozen=True)
class _Part:
    """A merged tally's columns, kept to be joined: its arrays, and its names in order."""

    columns: tuple[array[int], ...]  # in the order of _COLUMNS
    counter_keys: array[int]
    counter_names: tuple[str, ...]
    sample_keys: array[int]
    sample_names: tuple[str, ...]


class Tally:
    """Integer totals over a run of consecutive games; mergeable in game-index order.

    The per-game figures are columns of integers rather than an object per game, so
    that a worker adds a game with a few appends and a chunk's tally travels to the
    parent as a few byte strings. A game keeps its counters in its own order (the order
    its events counted them): their names as numbers, their values, and how many it has;
    :attr:`rows` gives the games back as :class:`GameRow` objects. ``names`` numbers
    the counter and sample names the game declares up front, so that the tallies of one
    run number them alike and merge without renumbering.
    """

    def __init__(
        self,
        num_cards: int,
        rows: Iterable[GameRow] = (),
        samples: dict[str, dict[int, int]] | None = None,
        cards_played: list[int] | None = None,
        loser_cards: list[int] | None = None,
        names: Iterable[str] = (),
    ) -> None:
        self.num_cards = num_cards
        self._declared = tuple(names)
        self._clear()
        self._histograms: dict[str, dict[int, int]] = dict(samples) if samples else {}
        self._cards_played = list(cards_played) if cards_played else [0] * num_cards
        self._loser_cards = list(loser_cards) if loser_cards else [0] * num_cards
        # The losers' cards of the games added, counted only when read (in one C-level
        # pass instead of a Python loop per game).
        self._pending_left = _ints()
        for row in rows:
            self.add_row(row)

    def _clear(self) -> None:
        self._index = _ints()
        self._finished = _ints()
        self._actions = _ints()
        self._rounds = _ints()
        self._winner = _ints()
        self._loser = _ints()
        self._counter_ids = _Names((name, n) for n, name in enumerate(self._declared))
        self._counter_lengths = _ints()  # per game: how many counters it has
        self._counter_keys = _ints()  # per counter of each game: its name's number
        self._counter_values = _ints()
        self._sample_ids = _Names()
        self._sample_lengths = _ints()  # per game: how many sample names it has
        self._sample_keys = _ints()
        self._sample_counts = _ints()  # per game and sample name: the values' count, sum
        self._sample_sums = _ints()
        self._pending_samples: dict[str, array[int]] = {}  # values not in the histograms
        self._rows: list[GameRow] | None = None
        self._parts: list[_Part] = []  # merged, their columns not yet joined to these
        self._shared = False  # True: a tally merged these arrays and holds them

    @property
    def index(self) -> array[int]:
        """Per game: its index in the series."""
        self._join_parts()
        return self._index

    @property
    def finished(self) -> array[int]:
        """Per game: 1 when it finished, 0 when the action cap stopped it."""
        self._join_parts()
        return self._finished

    @property
    def actions(self) -> array[int]:
        self._join_parts()
        return self._actions

    @property
    def rounds(self) -> array[int]:
        self._join_parts()
        return self._rounds

    @property
    def winner(self) -> array[int]:
        """Per game: the first seat out, -1 when nobody went out."""
        self._join_parts()
        return self._winner

    @property
    def loser(self) -> array[int]:
        """Per game: the last seat with cards, -1 when unfinished."""
        self._join_parts()
        return self._loser

    @property
    def games(self) -> int:
        return len(self._index) + sum(len(part.columns[0]) for part in self._parts)

    def add(self, index: int, record: GameRecord) -> None:
        """Count one played game: its result and its events."""
        self._join_parts()
        self._unshare()
        result = record.result
        stats = count_events(record)
        finished = result.finished
        self._index.append(index)
        self._finished.append(finished)
        self._actions.append(result.actions)
        self._rounds.append(result.rounds)
        order = result.order
        self._winner.append(order[0] if order else -1)
        loser = result.loser
        self._loser.append(loser if finished and loser is not None else -1)
        counters = stats.counters
        self._counter_lengths.append(len(counters))
        self._counter_keys.extend(map(self._counter_ids.__getitem__, counters))
        self._counter_values.extend(counters.values())
        samples = stats.samples
        self._sample_lengths.append(len(samples))
        if samples:
            self._sample_keys.extend(map(self._sample_ids.__getitem__, samples))
            pending = self._pending_samples
            for name, values in samples.items():
                self._sample_counts.append(len(values))
                self._sample_sums.append(sum(values))
                if name in pending:
                    pending[name].extend(values)
                else:
                    pending[name] = array("q", values)
        played = stats.cards_played
        if len(played) >= self.num_cards:
            self._cards_played = list(map(add, self._cards_played, played))
        else:
            for card, times in enumerate(played):
                self._cards_played[card] += times
        if finished:
            self._pending_left.extend(record.loser_cards)
        self._rows = None

    def add_row(self, row: GameRow) -> None:
        """Append a game as :attr:`rows` gives it (its cards and sample values apart)."""
        self._join_parts()
        self._unshare()
        self._index.append(row.index)
        self._finished.append(row.finished)
        self._actions.append(row.actions)
        self._rounds.append(row.rounds)
        self._winner.append(row.winner)
        self._loser.append(row.loser)
        self._counter_lengths.append(len(row.counters))
        self._counter_keys.extend(map(self._counter_ids.__getitem__, row.counters))
        self._counter_values.extend(row.counters.values())
        self._sample_lengths.append(len(row.samples))
        self._sample_keys.extend(map(self._sample_ids.__getitem__, row.samples))
        for count, total in row.samples.values():
            self._sample_counts.append(count)
            self._sample_sums.append(total)
        self._rows = None

    @property
    def rows(self) -> list[GameRow]:
        """One :class:`GameRow` per game, in game-index order (made when first read)."""
        if self._rows is None:
            self._rows = self._make_rows()
        return self._rows

    @rows.setter
    def rows(self, rows: Iterable[GameRow]) -> None:
        histograms, pending = self._histograms, self._pending_samples
        self._clear()
        self._histograms, self._pending_samples = histograms, pending
        for row in rows:
            self.add_row(row)

    def _make_rows(self) -> list[GameRow]:
        self._join_parts()
        counter_names = list(self._counter_ids)
        sample_names = list(self._sample_ids)
        keys, values = self._counter_keys, self._counter_values
        sample_keys, counts, sums = self._sample_keys, self._sample_counts, self._sample_sums
        rows = []
        at = sample_at = 0
        for game, (length, sample_length) in enumerate(
            zip(self._counter_lengths, self._sample_lengths, strict=True)
        ):
            end, sample_end = at + length, sample_at + sample_length
            rows.append(
                GameRow(
                    index=self._index[game],
                    finished=bool(self._finished[game]),
                    actions=self._actions[game],
                    rounds=self._rounds[game],
                    winner=self._winner[game],
                    loser=self._loser[game],
                    counters={counter_names[keys[k]]: values[k] for k in range(at, end)},
                    samples={
                        sample_names[sample_keys[k]]: (counts[k], sums[k])
                        for k in range(sample_at, sample_end)
                    },
                )
            )
            at, sample_at = end, sample_end
        return rows

    @property
    def samples(self) -> dict[str, dict[int, int]]:
        """Per sample name, how often each value occurred (value -> count)."""
        self._count_pending()
        return self._histograms

    @property
    def cards_played(self) -> list[int]:
        """Per card index, how often it was played over the games."""
        self._count_pending()
        return self._cards_played

    @property
    def loser_cards(self) -> list[int]:
        """Per card index, in how many finished games the loser was left with it."""
        self._count_pending()
        return self._loser_cards

    def _count_pending(self) -> None:
        for name, values in self._pending_samples.items():
            histogram = self._histograms.setdefault(name, {})
            for value, count in Counter(values).items():
                histogram[value] = histogram.get(value, 0) + count
        self._pending_samples = {}
        cards = self.num_cards
        if self._pending_left:
            left = self._loser_cards
            for card, count in Counter(self._pending_left).items():
                if 0 <= card < cards:
                    left[card] += count
            self._pending_left = _ints()

    def __getstate__(self) -> dict[str, Any]:
        self._join_parts()
        self._count_pending()  # the totals are smaller to send than what they count
        return {**self.__dict__, "_rows": None}

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Tally):
            return NotImplemented
        return (
            self.num_cards == other.num_cards
            and self.rows == other.rows
            and self.samples == other.samples
            and self.cards_played == other.cards_played
            and self.loser_cards == other.loser_cards
        )

    __hash__ = None  # type: ignore[assignment]  # mutable, compared by content

    def __repr__(self) -> str:
        return f"Tally(num_cards={self.num_cards}, games={self.games})"

    def merge(self, other: Tally) -> None:
        """Append the games of ``other``, which must come right after these.

        The columns are joined when next read, all merged tallies at once: extending
        them at every merge would copy them again and again as they grow.
        """
        if other.num_cards != self.num_cards:
            raise ValueError("tallies of different decks cannot be merged")
        other._join_parts()
        last, first = self._last_index(), other._first_index()
        if last is not None and first is not None and first != last + 1:
            raise ValueError(f"tally for games from {first} does not follow game {last}")
        if other.games:
            self._parts.append(
                _Part(
                    tuple(getattr(other, name) for name in _COLUMNS),
                    other._counter_keys,
                    tuple(other._counter_ids),
                    other._sample_keys,
                    tuple(other._sample_ids),
                )
            )
            other._shared = True  # its arrays are ours too now: it copies before adding
        histograms = self.samples
        for name, histogram in other.samples.items():
            mine = histograms.setdefault(name, {})
            for value, count in histogram.items():
                mine[value] = mine.get(value, 0) + count
        self._cards_played = list(map(add, self.cards_played, other.cards_played))
        self._loser_cards = list(map(add, self.loser_cards, other.loser_cards))
        self._rows = None

    def _first_index(self) -> int | None:
        if self._index:
            return self._index[0]
        return self._parts[0].columns[0][0] if self._parts else None

    def _last_index(self) -> int | None:
        if self._parts:
            return self._parts[-1].columns[0][-1]
        return self._index[-1] if self._index else None

    def _unshare(self) -> None:
        """Copy the arrays another tally merged (by reference) before changing them."""
        if self._shared:
            for name in (*_COLUMNS, "_counter_keys", "_sample_keys"):
                setattr(self, name, array("q", getattr(self, name)))
            self._shared = False

    def _join_parts(self) -> None:
        """Append the columns of the tallies merged since the last join, in one copy each."""
        if not self._parts:
            return
        parts, self._parts = self._parts, []
        columns = [
            [getattr(self, name), *(part.columns[number] for part in parts)]
            for number, name in enumerate(_COLUMNS)
        ]
        counter_keys = [self._counter_keys]
        sample_keys = [self._sample_keys]
        for part in parts:  # in order, so that new names are numbered as merged
            counter_keys.append(
                _renumbered(part.counter_keys, part.counter_names, self._counter_ids)
            )
            sample_keys.append(_renumbered(part.sample_keys, part.sample_names, self._sample_ids))
        for name, pieces in (
            *zip(_COLUMNS, columns, strict=True),
            ("_counter_keys", counter_keys),
            ("_sample_keys", sample_keys),
        ):
            joined = _ints()
            joined.frombytes(b"".join(piece.tobytes() for piece in pieces))
            setattr(self, name, joined)
        self._shared = False  # every array is new

    def columns(self) -> TallyColumns:
        """The per-game columns as they are (for reducing a chunk at once)."""
        self._join_parts()
        return TallyColumns(
            index=self._index,
            finished=self._finished,
            actions=self._actions,
            rounds=self._rounds,
            winner=self._winner,
            loser=self._loser,
            counter_lengths=self._counter_lengths,
            counter_keys=self._counter_keys,
            counter_values=self._counter_values,
            counter_names=tuple(self._counter_ids),
            sample_lengths=self._sample_lengths,
            sample_keys=self._sample_keys,
            sample_counts=self._sample_counts,
            sample_sums=self._sample_sums,
            sample_names=tuple(self._sample_ids),
        )

    def counter_names(self) -> list[str]:
        """The counters any of the games kept, by name."""
        self._join_parts()
        names = list(self._counter_ids)
        return sorted(names[key] for key in set(self._counter_keys))

    def counter_totals(self) -> dict[str, int]:
        self._join_parts()
        totals = [0] * len(self._counter_ids)
        for key, value in zip(self._counter_keys, self._counter_values, strict=True):
            totals[key] += value
        return {name: totals[self._counter_ids[name]] for name in self.counter_names()}


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
