"""A run's figures as sums that merge: what the parent keeps instead of a row per game.

Each chunk of games becomes a matrix with a row per game and a column per figure (the
game itself, finished, unfinished, actions, rounds, each seat's win and loss, the cards
laid and the figures of play, each counter, each sample's count and sum), and that
matrix is reduced at once to :class:`RunStats`: its moment matrix (the sum over the
games of every product of two figures, the game column making the plain sums and the
game count), the games where each figure is above zero, histograms of the lengths, the
minutes at a table, the samples and the distinct moves of the decisions
(:mod:`kraftstokk.sim.histogram`), card totals and the first unfinished games. Every one
of them adds up, exactly (integers, never floats), so the figures of a run do not depend
on how its games were chunked, which process played them or in what order they merged,
and the parent's work per chunk does not grow with the chunk.

:class:`PairStats` does the same for two decks (or configurations) played on the same
seeds: the products of each figure of one with each figure of the other, game *i*
against game *i*, and how many games gave exactly the same figures. From these sums every
interval of the report follows (:func:`ratio`, :func:`paired_ratio`): any metric is a
ratio of two per-game figures (a per-game mean divides by the game column), estimated
with the game as the unit.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np

from kraftstokk.games.fastcore import ROW_FIXED, NativeChunk
from kraftstokk.games.playability import FIGURES
from kraftstokk.sim.histogram import Histogram, distinct_counts

if TYPE_CHECKING:
    from kraftstokk.sim.tally import Tally


class TimeModel(Protocol):
    """How long a game takes at a table (``sim/pace.py``'s :class:`Pace`): per column of
    a run, the milliseconds one of it adds to a game's time, for ``game``."""

    def weights(self, columns: Sequence[str], game: str) -> np.ndarray: ...


#: Columns every run has, in this order.
GAMES = "games"
FINISHED = "finished"
UNFINISHED = "unfinished"
ACTIONS = "actions"
ROUNDS = "rounds"
BASE_COLUMNS: tuple[str, ...] = (GAMES, FINISHED, UNFINISHED, ACTIONS, ROUNDS)
_PLAY = "play:"


def play_column(figure: str) -> str:
    """The column of a figure of play (``games/playability.py``: ``choices``, ...)."""
    return _PLAY + figure


#: The cards laid in a game (every card played, on the pile, beside it or in a war).
CARDS_LAID = play_column("cards_laid")
#: The figures of play that describe a game's result: kept for finished games only (0
#: in an unfinished game's row), as the seat rates are.
DRAMA: tuple[str, ...] = ("lead_changes", "comeback")
#: Per finished game: how far into it (in parts of SHARE_SCALE of the way to the action
#: that decided it, ``settled / decided``) the lead was taken for good; the two figures
#: themselves are not columns.
SETTLED_SHARE = play_column("settled_share")
SHARE_SCALE = 10_000
_SHARE_OF = ("settled", "decided")
#: Per finished game: 1 when the lead was taken for good in the first EARLY_SHARE of the
#: way to the deciding action (the result as good as fixed from the start).
SETTLED_EARLY = play_column("settled_early")
EARLY_SHARE = SHARE_SCALE // 10
#: Per finished game: its minutes at a table, in whole seconds (a run's TimeModel).
SECONDS = play_column("seconds")
#: The figures of play a run's sums keep, in the order of FIGURES.
PLAY_FIGURES: tuple[str, ...] = tuple(f for f in FIGURES if f not in _SHARE_OF)
PLAY_COLUMNS: tuple[str, ...] = (
    *(play_column(f) for f in PLAY_FIGURES),
    SETTLED_SHARE,
    SETTLED_EARLY,
    SECONDS,
)
#: The lengths kept as histograms, of finished and of unfinished games apart.
LENGTHS: tuple[str, ...] = (ACTIONS, ROUNDS)
#: Histograms of finished games only: their seconds at a table, and how far into each the
#: lead was taken for good (in parts of SHARE_SCALE).
FINISHED_HISTOGRAMS: tuple[str, ...] = (SECONDS, SETTLED_SHARE)
#: How many unfinished games a run names (the first ones, to replay them).
LISTED_UNFINISHED = 20

_COUNTER = "counter:"
_SAMPLE_COUNT = "sample_count:"
_SAMPLE_SUM = "sample_sum:"
#: Float sums of integer products are exact while they stay below 2 ** 53.
_FLOAT_EXACT = 1 << 53
_INT_SAFE = 1 << 62
#: Multiply-adds below which OpenBLAS multiplies on one thread.
_BLAS_ONE_THREAD = 200_000


def won(seat: int) -> str:
    """The column of seat ``seat`` (0-based) winning a finished game."""
    return f"won:{seat + 1}"


def lost(seat: int) -> str:
    """The column of seat ``seat`` (0-based) being the loser of a finished game."""
    return f"lost:{seat + 1}"


def counter(name: str) -> str:
    return _COUNTER + name


def sample_count(name: str) -> str:
    return _SAMPLE_COUNT + name


def sample_sum(name: str) -> str:
    return _SAMPLE_SUM + name


def layout(players: int, counters: Iterable[str], samples: Iterable[str]) -> tuple[str, ...]:
    """The columns of a run, in their one order (counters and samples by name)."""
    return (
        *BASE_COLUMNS,
        *(won(seat) for seat in range(players)),
        *(lost(seat) for seat in range(players)),
        *PLAY_COLUMNS,
        *(counter(name) for name in sorted(set(counters))),
        *(part for name in sorted(set(samples)) for part in (sample_count(name), sample_sum(name))),
    )


def names_in(columns: Iterable[str]) -> tuple[list[str], list[str]]:
    """The counter and sample names of a layout."""
    counters = [c.removeprefix(_COUNTER) for c in columns if c.startswith(_COUNTER)]
    samples = [c.removeprefix(_SAMPLE_COUNT) for c in columns if c.startswith(_SAMPLE_COUNT)]
    return counters, samples


def _union(players: int, *layouts: Sequence[str]) -> tuple[str, ...]:
    counters: set[str] = set()
    samples: set[str] = set()
    for columns in layouts:
        found_counters, found_samples = names_in(columns)
        counters.update(found_counters)
        samples.update(found_samples)
    return layout(players, counters, samples)


def _magnitude(values: np.ndarray) -> int:
    """The largest absolute value of an integer array (at least 1), without a copy of it."""
    return max(int(values.max(initial=0)), -int(values.min(initial=0)), 1)


def gram(left: np.ndarray, right: np.ndarray) -> np.ndarray:
    """``left.T @ right`` of two integer matrices, exactly.

    BLAS multiplies floats fast, and exactly while every partial sum stays below 2 ** 53
    (a chunk of 500 games with figures in the thousands is far below); beyond that int64,
    and Python integers past what int64 holds.
    """
    rows = left.shape[0]
    if rows == 0:
        return np.zeros((left.shape[1], right.shape[1]), dtype=np.int64)
    same = left is right  # a chunk's moments: its matrix with itself, read and converted once
    peak_left = _magnitude(left)
    peak = peak_left * (peak_left if same else _magnitude(right))
    if rows * peak < _FLOAT_EXACT:
        floats_left = left.astype(np.float64)
        floats_right = floats_left if same else right.astype(np.float64)
        # OpenBLAS runs a product of more than about 262,144 multiply-adds on several
        # threads, which would take cores from the other workers: a block of rows at a time.
        step = max(1, _BLAS_ONE_THREAD // max(1, left.shape[1] * right.shape[1]))
        product = np.zeros((left.shape[1], right.shape[1]), dtype=np.float64)
        for start in range(0, rows, step):
            product += floats_left[start : start + step].T @ floats_right[start : start + step]
        return product.astype(np.int64)
    if rows * peak < _INT_SAFE:
        return np.asarray(left.T @ right, dtype=np.int64)
    return np.asarray(left.T.astype(object) @ right.astype(object), dtype=object)


def _add(mine: np.ndarray, theirs: np.ndarray) -> np.ndarray:
    """The sum of two integer arrays, in Python integers once int64 could overflow."""
    if mine.dtype == object or theirs.dtype == object:
        return np.asarray(mine.astype(object) + theirs.astype(object), dtype=object)
    top = int(np.abs(mine).max(initial=0)) + int(np.abs(theirs).max(initial=0))
    if top >= _INT_SAFE:
        return np.asarray(mine.astype(object) + theirs.astype(object), dtype=object)
    return np.asarray(mine + theirs)


def _widened(values: np.ndarray, columns: Sequence[str], union: Sequence[str]) -> np.ndarray:
    """A square moment matrix (or a vector) over ``columns`` placed in ``union``'s order."""
    if tuple(columns) == tuple(union):
        return values
    where = [union.index(name) for name in columns]
    if values.ndim == 1:
        wide = np.zeros(len(union), dtype=values.dtype)
        wide[where] = values
        return wide
    wide = np.zeros((len(union), len(union)), dtype=values.dtype)
    wide[np.ix_(where, where)] = values
    return wide


@dataclass(frozen=True)
class GameMatrix:
    """A chunk's games as rows and their figures as ``columns`` (int64)."""

    columns: tuple[str, ...]
    values: np.ndarray
    index: np.ndarray  # per row: the game's index in the series

    @property
    def games(self) -> int:
        return int(self.values.shape[0])

    def column(self, name: str) -> np.ndarray:
        return self.values[:, self.columns.index(name)]

    def aligned(self, union: Sequence[str]) -> np.ndarray:
        """The values with the columns of ``union`` (zero where this chunk has none)."""
        if tuple(union) == self.columns:
            return self.values
        wide = np.zeros((self.games, len(union)), dtype=np.int64)
        wide[:, [union.index(name) for name in self.columns]] = self.values
        return wide


def _ints(column: Any) -> np.ndarray:
    return np.frombuffer(column, dtype=np.int64) if len(column) else np.zeros(0, dtype=np.int64)


def _matrix(
    players: int,
    counters: Iterable[str],
    samples: Iterable[str],
    finished: np.ndarray,
    results: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray],
    play: np.ndarray,
) -> tuple[tuple[str, ...], dict[str, int], np.ndarray]:
    """A chunk's columns, each column's place, and its games' values but the counters',
    the samples' and the seconds at a table: from each game's ``finished``, its actions,
    rounds, winner and loser (-1: none), and its figures of play (``FIGURES`` a row)."""
    actions, rounds, winner, loser = results
    games = len(finished)
    columns = layout(players, counters, samples)
    position = {name: at for at, name in enumerate(columns)}
    values = np.zeros((games, len(columns)), dtype=np.int64)
    values[:, 0] = 1
    values[:, 1] = finished
    values[:, 2] = 1 - finished
    values[:, 3] = actions
    values[:, 4] = rounds
    done = finished == 1
    for seats, first in ((winner, position[won(0)]), (loser, position[lost(0)])):
        counted = done & (seats >= 0) & (seats < players)
        values[np.nonzero(counted)[0], first + seats[counted]] = 1
    if games:
        for figure in PLAY_FIGURES:
            values[:, position[play_column(figure)]] = play[:, FIGURES.index(figure)]
        for figure in DRAMA:
            values[:, position[play_column(figure)]] *= finished
        settled, decided = (play[:, FIGURES.index(figure)] for figure in _SHARE_OF)
        reached = done & (decided > 0)
        shares = np.zeros(games, dtype=np.int64)
        shares[reached] = settled[reached] * SHARE_SCALE // decided[reached]
        values[:, position[SETTLED_SHARE]] = shares
        values[:, position[SETTLED_EARLY]] = reached & (shares <= EARLY_SHARE)
    return columns, position, values


def _timed(
    matrix: GameMatrix, finished: np.ndarray, pace: TimeModel | None, game: str
) -> GameMatrix:
    """``matrix`` with each finished game's seconds at a table by ``pace`` (if any)."""
    if pace is not None and matrix.games:
        seconds = matrix.values @ pace.weights(matrix.columns, game) // 1000
        matrix.values[:, matrix.columns.index(SECONDS)] = seconds * finished
    return matrix


def game_matrix(
    tally: Tally, players: int, pace: TimeModel | None = None, game: str = ""
) -> GameMatrix:
    """The games of a chunk's tally as one matrix (vectorized: no loop over the games);
    with a ``pace``, each finished game's seconds at a table (``game``'s time model)."""
    raw = tally.columns()
    games = len(raw.index)
    finished = _ints(raw.finished)
    counter_keys = _ints(raw.counter_keys)
    sample_keys = _ints(raw.sample_keys)
    counters_present = [raw.counter_names[k] for k in distinct_counts(counter_keys)[0]]
    samples_present = [raw.sample_names[k] for k in distinct_counts(sample_keys)[0]]
    columns, position, values = _matrix(
        players,
        counters_present,
        samples_present,
        finished,
        (_ints(raw.actions), _ints(raw.rounds), _ints(raw.winner), _ints(raw.loser)),
        _ints(raw.play).reshape(games, len(FIGURES)),
    )
    if len(counter_keys):
        rows = np.repeat(np.arange(games), _ints(raw.counter_lengths))
        where = np.array([position.get(counter(name), -1) for name in raw.counter_names])
        values[rows, where[counter_keys]] = _ints(raw.counter_values)
    if len(sample_keys):
        rows = np.repeat(np.arange(games), _ints(raw.sample_lengths))
        counts = np.array([position.get(sample_count(name), -1) for name in raw.sample_names])
        values[rows, counts[sample_keys]] = _ints(raw.sample_counts)
        values[rows, counts[sample_keys] + 1] = _ints(raw.sample_sums)
    return _timed(GameMatrix(columns, values, _ints(raw.index)), finished, pace, game)


@dataclass(frozen=True)
class ChunkTotals:
    """What a chunk adds up besides its games' rows: per card how often it was played and
    how often a finished game's loser was left with it, per sample name the histogram of
    its values, and the decisions with a real choice by their count of distinct moves."""

    num_cards: int
    samples: dict[str, dict[int, int]]
    cards_played: list[int]
    loser_cards: list[int]
    branching: Histogram

    @classmethod
    def of_tally(cls, tally: Tally) -> ChunkTotals:
        return cls(
            tally.num_cards,
            tally.samples,
            list(tally.cards_played),
            list(tally.loser_cards),
            branching_histogram(tally),
        )


def _per_card(column: bytes, num_cards: int) -> list[int]:
    """A core's per-card int64s as a deck of ``num_cards`` counts them (as Tally.add)."""
    counts: list[int] = _ints(column)[:num_cards].tolist()
    return counts + [0] * (num_cards - len(counts))


def core_chunk(
    chunk: NativeChunk,
    players: int,
    num_cards: int,
    start: int,
    pace: TimeModel | None = None,
    game: str = "",
) -> tuple[GameMatrix, ChunkTotals]:
    """A native core's chunk (``games/fastcore.py``'s ``NativeChunk``) of the games from
    ``start`` on: the same matrix and totals as the tally of the same games would give
    (:func:`game_matrix`, :meth:`ChunkTotals.of_tally`), with no loop over the games."""
    rows, counter_names, seen, sample_names, samples, played, left, branching = chunk
    play_at = len(ROW_FIXED)
    counters_at = play_at + len(FIGURES)
    samples_at = counters_at + len(counter_names)
    values = _ints(rows).reshape(-1, samples_at + 2 * len(sample_names))
    games = values.shape[0]
    counters_present = [name for name, flag in zip(counter_names, seen, strict=True) if flag]
    finished = values[:, 0]
    columns, position, matrix = _matrix(
        players,
        counters_present,
        list(samples),
        finished,
        (values[:, 1], values[:, 2], values[:, 3], values[:, 4]),
        values[:, play_at:counters_at],
    )
    for at, name in enumerate(counter_names):
        if seen[at]:
            matrix[:, position[counter(name)]] = values[:, counters_at + at]
    for at, name in enumerate(sample_names):
        if name in samples:
            where = position[sample_count(name)]
            matrix[:, where : where + 2] = values[:, samples_at + 2 * at : samples_at + 2 * at + 2]
    pairs = _ints(branching)
    totals = ChunkTotals(
        num_cards,
        {name: dict(histogram) for name, histogram in samples.items()},
        _per_card(played, num_cards),
        _per_card(left, num_cards),
        Histogram.of_counts(dict(zip(pairs[0::2].tolist(), pairs[1::2].tolist(), strict=True))),
    )
    index = np.arange(start, start + games, dtype=np.int64)
    return _timed(GameMatrix(columns, matrix, index), finished, pace, game), totals


def _length_histograms(matrix: GameMatrix) -> dict[str, Histogram]:
    done = matrix.column(FINISHED) == 1
    every = bool(done.all())
    found = {}
    for name in LENGTHS:
        values = matrix.column(name)
        found[f"{name}:finished"] = Histogram.of_values(values if every else values[done])
        found[f"{name}:unfinished"] = Histogram.of_values(values[:0] if every else values[~done])
    for name in FINISHED_HISTOGRAMS:
        values = matrix.column(name)
        found[f"{name}:finished"] = Histogram.of_values(values if every else values[done])
        found[f"{name}:unfinished"] = Histogram()
    return found


def branching_histogram(tally: Tally) -> Histogram:
    """How many decisions with a real choice had each count of distinct moves, over the
    chunk's games (their (moves, decisions) pairs added up at once)."""
    pairs = _ints(tally.columns().branching)
    if not len(pairs):
        return Histogram()
    totals = np.bincount(pairs[0::2], weights=pairs[1::2]).astype(np.int64)
    present = np.flatnonzero(totals)
    return Histogram.of_counts(dict(zip(present.tolist(), totals[present].tolist(), strict=True)))


class RunStats:
    """The mergeable sums of a run's games (see the module's docstring)."""

    def __init__(self, num_cards: int, players: int) -> None:
        self.num_cards = num_cards
        self.players = players
        self.columns: tuple[str, ...] = layout(players, (), ())
        self.moments: np.ndarray = np.zeros((len(self.columns),) * 2, dtype=np.int64)
        self.positive: np.ndarray = np.zeros(len(self.columns), dtype=np.int64)
        self.lengths: dict[str, Histogram] = {
            f"{name}:{state}": Histogram()
            for name in (*LENGTHS, *FINISHED_HISTOGRAMS)
            for state in ("finished", "unfinished")
        }
        self.samples: dict[str, Histogram] = {}
        #: Per count of distinct moves, the decisions with a real choice that had it.
        self.branching = Histogram()
        self.cards_played: list[int] = [0] * num_cards
        self.loser_cards: list[int] = [0] * num_cards
        self.unfinished_games: list[int] = []

    @classmethod
    def of_tally(
        cls, tally: Tally, players: int, pace: TimeModel | None = None, game: str = ""
    ) -> RunStats:
        """The sums of a chunk's tally (with ``pace``: its minutes at a table too)."""
        return cls.of_matrix(game_matrix(tally, players, pace, game), tally, players)

    @classmethod
    def of_matrix(cls, matrix: GameMatrix, tally: Tally, players: int) -> RunStats:
        """The sums of a chunk: its game matrix, and the totals its tally keeps."""
        return cls.of_chunk(matrix, ChunkTotals.of_tally(tally), players)

    @classmethod
    def of_chunk(cls, matrix: GameMatrix, totals: ChunkTotals, players: int) -> RunStats:
        """The sums of a chunk: its game matrix and its totals."""
        stats = cls(totals.num_cards, players)
        stats.columns = matrix.columns
        stats.moments = gram(matrix.values, matrix.values)
        stats.positive = (matrix.values > 0).sum(axis=0).astype(np.int64)
        stats.lengths = _length_histograms(matrix)
        stats.branching = totals.branching
        stats.samples = {name: Histogram.of_counts(h) for name, h in totals.samples.items()}
        stats.cards_played = list(totals.cards_played)
        stats.loser_cards = list(totals.loser_cards)
        unfinished = matrix.index[matrix.column(FINISHED) == 0]
        stats.unfinished_games = unfinished[:LISTED_UNFINISHED].tolist()
        return stats

    # ------------------------------------------------------------------------- reading

    @property
    def games(self) -> int:
        return int(self.moments[0, 0])

    @property
    def finished(self) -> int:
        return self.total(FINISHED)

    def _at(self, name: str) -> int | None:
        try:
            return self.columns.index(name)
        except ValueError:
            return None

    def total(self, name: str) -> int:
        """The sum of column ``name`` over the games (0 for a column the run lacks)."""
        return self.product(GAMES, name)

    def product(self, first: str, second: str) -> int:
        """The sum over the games of column ``first`` times column ``second``."""
        i, j = self._at(first), self._at(second)
        return 0 if i is None or j is None else int(self.moments[i, j])

    def positive_games(self, name: str) -> int:
        """In how many games column ``name`` was above zero."""
        at = self._at(name)
        return 0 if at is None else int(self.positive[at])

    def counter_names(self) -> list[str]:
        """The counters any of the games kept, by name."""
        return names_in(self.columns)[0]

    def sample_names(self) -> list[str]:
        return names_in(self.columns)[1]

    def length(self, name: str, finished: bool | None = None) -> Histogram:
        """The histogram of ``actions`` or ``rounds``: of finished games, unfinished ones,
        or (None) all."""
        if finished is not None:
            return self.lengths[f"{name}:{'finished' if finished else 'unfinished'}"]
        whole = self.lengths[f"{name}:finished"].copy()
        whole.merge(self.lengths[f"{name}:unfinished"])
        return whole

    # ------------------------------------------------------------------------- merging

    def merge(self, other: RunStats) -> None:
        """Add the games of ``other`` (of the same deck size and player count)."""
        if (other.num_cards, other.players) != (self.num_cards, self.players):
            raise ValueError("sums of runs with other decks or player counts cannot be merged")
        if other.columns == self.columns:
            self.moments = _add(self.moments, other.moments)
            self.positive = _add(self.positive, other.positive)
        else:
            union = _union(self.players, self.columns, other.columns)
            self.moments = _add(
                _widened(self.moments, self.columns, union),
                _widened(other.moments, other.columns, union),
            )
            self.positive = _add(
                _widened(self.positive, self.columns, union),
                _widened(other.positive, other.columns, union),
            )
            self.columns = union
        for name, histogram in other.lengths.items():
            self.lengths[name].merge(histogram)
        self.branching.merge(other.branching)
        for name, histogram in other.samples.items():
            if name in self.samples:
                self.samples[name].merge(histogram)
            else:
                self.samples[name] = histogram.copy()
        self.cards_played = [
            a + b for a, b in zip(self.cards_played, other.cards_played, strict=True)
        ]
        self.loser_cards = [a + b for a, b in zip(self.loser_cards, other.loser_cards, strict=True)]
        if other.unfinished_games:  # the first ones, whichever order the chunks merge in
            both = sorted(set(self.unfinished_games) | set(other.unfinished_games))
            self.unfinished_games = both[:LISTED_UNFINISHED]

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, RunStats):
            return NotImplemented
        return (
            self.num_cards == other.num_cards
            and self.players == other.players
            and self.columns == other.columns
            and bool(np.array_equal(self.moments, other.moments))
            and bool(np.array_equal(self.positive, other.positive))
            and self.lengths == other.lengths
            and self.samples == other.samples
            and self.branching == other.branching
            and self.cards_played == other.cards_played
            and self.loser_cards == other.loser_cards
            and self.unfinished_games == other.unfinished_games
        )

    __hash__ = None  # type: ignore[assignment]  # mutable, compared by content

    def __repr__(self) -> str:
        return f"RunStats(games={self.games}, columns={len(self.columns)})"


class PairStats:
    """Sums over the games two runs played on the same seeds, game i against game i."""

    def __init__(self, players_a: int, players_b: int) -> None:
        self.players_a, self.players_b = players_a, players_b
        self.columns_a = layout(players_a, (), ())
        self.columns_b = layout(players_b, (), ())
        self.cross: np.ndarray = np.zeros((len(self.columns_a), len(self.columns_b)), np.int64)
        self.identical = 0  # games whose every figure was the same in both runs

    @classmethod
    def of_matrices(cls, a: GameMatrix, b: GameMatrix, players_a: int, players_b: int) -> PairStats:
        if not np.array_equal(a.index, b.index):
            raise ValueError("paired runs must hold the same games")
        pair = cls(players_a, players_b)
        pair.columns_a, pair.columns_b = a.columns, b.columns
        pair.cross = gram(a.values, b.values)
        if a.columns == b.columns:
            same = a.values == b.values
        else:
            union = _union(max(players_a, players_b), a.columns, b.columns)
            same = a.aligned(union) == b.aligned(union)
        pair.identical = int(same.all(axis=1).sum())
        return pair

    @property
    def games(self) -> int:
        return self.product(GAMES, GAMES)

    def product(self, first: str, second: str) -> int:
        """The sum over the games of run A's ``first`` times run B's ``second``."""
        try:
            i, j = self.columns_a.index(first), self.columns_b.index(second)
        except ValueError:
            return 0
        return int(self.cross[i, j])

    def merge(self, other: PairStats) -> None:
        if (other.players_a, other.players_b) != (self.players_a, self.players_b):
            raise ValueError("pairs of other player counts cannot be merged")
        if (other.columns_a, other.columns_b) == (self.columns_a, self.columns_b):
            self.cross = _add(self.cross, other.cross)
        else:
            union_a = _union(self.players_a, self.columns_a, other.columns_a)
            union_b = _union(self.players_b, self.columns_b, other.columns_b)
            self.cross = _add(
                self._placed(self.cross, self.columns_a, self.columns_b, union_a, union_b),
                self._placed(other.cross, other.columns_a, other.columns_b, union_a, union_b),
            )
            self.columns_a, self.columns_b = union_a, union_b
        self.identical += other.identical

    @staticmethod
    def _placed(
        cross: np.ndarray,
        columns_a: Sequence[str],
        columns_b: Sequence[str],
        union_a: Sequence[str],
        union_b: Sequence[str],
    ) -> np.ndarray:
        wide = np.zeros((len(union_a), len(union_b)), dtype=cross.dtype)
        rows = [union_a.index(name) for name in columns_a]
        cols = [union_b.index(name) for name in columns_b]
        wide[np.ix_(rows, cols)] = cross
        return wide

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, PairStats):
            return NotImplemented
        return (self.columns_a, self.columns_b, self.identical) == (
            other.columns_a,
            other.columns_b,
            other.identical,
        ) and bool(np.array_equal(self.cross, other.cross))

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"PairStats(games={self.games}, identical={self.identical})"


# ---------------------------------------------------------------------------- estimates


@dataclass(frozen=True)
class Estimate:
    """A ratio of two per-game figures over a run, and its variance (game as the unit)."""

    value: float
    variance: float


def _spread(stats: RunStats, numerator: str, denominator: str) -> tuple[int, int, int]:
    """S and N, the sums of numerator and denominator, and the sum over the games of
    (N s_i - S n_i)^2: integers, exact (the game i's share of the spread around S / N,
    times N)."""
    top, bottom = stats.total(numerator), stats.total(denominator)
    spread = (
        bottom * bottom * stats.product(numerator, numerator)
        - 2 * bottom * top * stats.product(numerator, denominator)
        + top * top * stats.product(denominator, denominator)
    )
    return top, bottom, spread


def ratio(stats: RunStats, numerator: str, denominator: str = GAMES) -> Estimate | None:
    """``sum numerator / sum denominator`` with its variance; None when the denominator
    never counted.

    The events of one game are not independent (one long game has many wars), so the
    variance is the ratio estimator's, sum (s_i - R n_i)^2 / (g (g - 1) nbar^2) over the
    g games; with the game column as denominator it is the plain variance of a mean. With
    u_i = (s_i - R n_i) / nbar = g (N s_i - S n_i) / N^2 it is computed in integers and
    divided once.
    """
    games = stats.games
    if games == 0:
        return None
    top, bottom, spread = _spread(stats, numerator, denominator)
    if bottom == 0:
        return None
    variance = games * spread / ((games - 1) * bottom**4) if games > 1 else 0.0
    return Estimate(top / bottom, max(variance, 0.0))


@dataclass(frozen=True)
class PairedEstimate:
    """Run B minus run A on the same games, with the variance of the paired difference."""

    a: Estimate
    b: Estimate
    difference: float
    variance: float


def paired_ratio(
    a: RunStats,
    b: RunStats,
    pair: PairStats,
    numerator: str,
    denominator: str = GAMES,
) -> PairedEstimate | None:
    """``ratio(b) - ratio(a)`` over the games both played, game i against game i.

    Each game contributes u_i = (s_i - R n_i) / nbar on either side, and the variance of
    the difference is sum (u_i^B - u_i^A)^2 / (g (g - 1)): with a per-game mean, exactly
    the paired t interval's. In integers: with w_i = N s_i - S n_i on each side, u_i =
    g w_i / N^2, and sum w^A w^B comes from the pair's cross-products. None when either
    side's denominator never counted.
    """
    games = pair.games
    single_a, single_b = ratio(a, numerator, denominator), ratio(b, numerator, denominator)
    if games == 0 or single_a is None or single_b is None:
        return None
    if a.games != games or b.games != games:
        raise ValueError("paired sums over other games than the runs'")
    top_a, bottom_a, spread_a = _spread(a, numerator, denominator)
    top_b, bottom_b, spread_b = _spread(b, numerator, denominator)
    cross = (
        bottom_a * bottom_b * pair.product(numerator, numerator)
        - bottom_a * top_b * pair.product(numerator, denominator)
        - top_a * bottom_b * pair.product(denominator, numerator)
        + top_a * top_b * pair.product(denominator, denominator)
    )
    power_a, power_b = bottom_a**2, bottom_b**2
    spread = spread_b * power_a * power_a - 2 * cross * power_a * power_b + spread_a * power_b**2
    variance = games * spread / ((games - 1) * power_a**2 * power_b**2) if games > 1 else 0.0
    difference = (top_b * bottom_a - top_a * bottom_b) / (bottom_a * bottom_b)
    return PairedEstimate(single_a, single_b, difference, max(variance, 0.0))
