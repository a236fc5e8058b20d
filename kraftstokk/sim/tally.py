"""A chunk's games as plain integers: what a worker fills as it plays, what a sweep stores.

A :class:`Tally` collects plain integers from the games of one chunk (columns of
per-game figures, read back as one :class:`GameRow` per game in game-index order, plus
card and sample totals). A game's counters are its events counted (``games/events.py``:
each event's ``count``), so what the report says happened is what ``play`` and a replay
tell. The chunk is then reduced to sums (:class:`~kraftstokk.sim.stream.RunStats`), and
those to the metrics (``sim/metrics.py``).
"""

from __future__ import annotations

from array import array
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from operator import add
from typing import Any

from kraftstokk.games.playability import FIGURES
from kraftstokk.games.runner import GameRecord


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
    #: The figures of play (``games/playability.py``'s ``FIGURES``, in that order).
    play: tuple[int, ...] = (0,) * len(FIGURES)
    #: The decisions with a real choice by their count of distinct moves: (distinct
    #: moves, decisions) pairs, flat and rising (``playability.Meter.branching``).
    branching: tuple[int, ...] = ()


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
    play: array[int]  # len(FIGURES) per game, in order
    branching_lengths: array[int]  # per game: how many numbers of pairs it has
    branching: array[int]  # per game: (distinct moves, decisions) pairs, flat


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
    "_play",
    "_branching_lengths",
    "_branching",
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
        self._play = _ints()  # per game: its figures of play, len(FIGURES) of them
        self._branching_lengths = _ints()
        self._branching = _ints()
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
        stats = record.stats  # its events counted once, by play_game (State.final_stats)
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
        play = stats.playability
        if len(play) != len(FIGURES):
            raise ValueError(f"a game's figures of play are {len(FIGURES)} numbers, not {play}")
        self._play.extend(play)
        branching = stats.branching
        self._branching_lengths.append(len(branching) >> 3)  # 8 bytes a number
        self._branching.frombytes(branching)
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
        if len(row.play) != len(FIGURES):
            raise ValueError(f"a game's figures of play are {len(FIGURES)} numbers")
        self._play.extend(row.play)
        self._branching_lengths.append(len(row.branching))
        self._branching.extend(row.branching)
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
        play, width = self._play, len(FIGURES)
        branching = self._branching
        rows = []
        at = sample_at = branching_at = 0
        for game, (length, sample_length, branching_length) in enumerate(
            zip(self._counter_lengths, self._sample_lengths, self._branching_lengths, strict=True)
        ):
            end, sample_end = at + length, sample_at + sample_length
            branching_end = branching_at + branching_length
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
                    play=tuple(play[game * width : (game + 1) * width]),
                    branching=tuple(branching[branching_at:branching_end]),
                )
            )
            at, sample_at, branching_at = end, sample_end, branching_end
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
            play=self._play,
            branching_lengths=self._branching_lengths,
            branching=self._branching,
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
