"""Completed chunks on disk, so that a sweep run again computes only what is missing.

One JSON file per chunk: ``<store>/<configuration key>/<start>-<stop>.json`` holding the
chunk's :class:`~kraftstokk.sim.tally.Tally`. The key already stands for the deck's
cards, the game, players, bots, variants, action cap and seed; the file name is the
range of game indices. Files are written atomically, so an interrupted write leaves no
half chunk; a file that does not read back as a tally of its range is ignored (and
played again).

Format 3 keeps the tally's integer columns as they are in memory (little-endian int64,
base64), the state a tally is pickled with between processes: writing it costs a copy,
where format 1 (one JSON row per game, still read) cost more than playing the games
at native-core speed. A tally whose layout this module does not know is written as
format 1. Format 2 (and format 1 rows of eight fields) lacked the figures of play: such
a chunk does not read back, so it is played again. Every document names the definition of
the figures of play it was counted with (``measure``): a chunk counted with another (1,
unnamed: the lead compared after every action, not at round ends) is played again.
"""

from __future__ import annotations

import base64
import json
import sys
from array import array
from pathlib import Path
from typing import Any

from kraftstokk.atomic import write_text
from kraftstokk.games.playability import FIGURES
from kraftstokk.sim.tally import GameRow, Tally

FORMAT = 3
ROWS_FORMAT = 1
#: The figures of play's definition (games/playability.py); 2: the lead at round ends.
MEASURE = 2

#: Per-game columns of a tally's state, by their name in the file.
_GAME_COLUMNS: dict[str, str] = {
    "index": "_index",
    "finished": "_finished",
    "actions": "_actions",
    "rounds": "_rounds",
    "winner": "_winner",
    "loser": "_loser",
    "counter_lengths": "_counter_lengths",
    "sample_lengths": "_sample_lengths",
    "branching_lengths": "_branching_lengths",
}
#: Columns with FIGURES entries per game, and with one entry per count of each game.
_PLAY_COLUMNS: dict[str, str] = {"play": "_play"}
_BRANCHING_COLUMNS: dict[str, str] = {"branching": "_branching"}
#: Columns with one entry per counter (per sample name) of each game.
_COUNTER_COLUMNS: dict[str, str] = {
    "counter_keys": "_counter_keys",
    "counter_values": "_counter_values",
}
_SAMPLE_COLUMNS: dict[str, str] = {
    "sample_keys": "_sample_keys",
    "sample_counts": "_sample_counts",
    "sample_sums": "_sample_sums",
}
_COLUMNS: dict[str, str] = {
    **_GAME_COLUMNS,
    **_COUNTER_COLUMNS,
    **_SAMPLE_COLUMNS,
    **_PLAY_COLUMNS,
    **_BRANCHING_COLUMNS,
}
#: Every entry of the state a tally pickles (Tally.__getstate__), and nothing else.
_LAYOUT: frozenset[str] = frozenset(
    {
        "num_cards",
        "_declared",
        *_COLUMNS.values(),
        "_counter_ids",
        "_sample_ids",
        "_pending_samples",
        "_pending_left",
        "_rows",
        "_parts",
        "_shared",
        "_histograms",
        "_cards_played",
        "_loser_cards",
    }
)


def _encode(column: array[int]) -> str:
    if sys.byteorder != "little":
        column = array("q", column)
        column.byteswap()
    return base64.b64encode(column.tobytes()).decode("ascii")


def _decode(text: str) -> array[int]:
    column = array("q")
    column.frombytes(base64.b64decode(text, validate=True))
    if sys.byteorder != "little":
        column.byteswap()
    return column


def tally_to_json(tally: Tally) -> dict[str, Any]:
    """The chunk file's document: format 2, or format 1 for a tally of unknown layout."""
    state = tally.__getstate__()  # columns joined, pending samples and cards counted
    if set(state) != _LAYOUT or state["_pending_samples"] or state["_pending_left"]:
        return rows_to_json(tally)
    return {
        "format": FORMAT,
        "measure": MEASURE,
        "num_cards": tally.num_cards,
        "declared": list(state["_declared"]),
        "counter_names": list(state["_counter_ids"]),
        "sample_names": list(state["_sample_ids"]),
        "columns": {name: _encode(state[attribute]) for name, attribute in _COLUMNS.items()},
        "samples": _histograms_to_json(tally.samples),
        "cards_played": tally.cards_played,
        "loser_cards": tally.loser_cards,
    }


def _histograms_to_json(samples: dict[str, dict[int, int]]) -> dict[str, dict[str, int]]:
    return {
        name: {str(value): count for value, count in sorted(histogram.items())}
        for name, histogram in samples.items()
    }


def _histograms_from_json(data: dict[str, Any]) -> dict[str, dict[int, int]]:
    return {
        str(name): {int(v): int(c) for v, c in histogram.items()}
        for name, histogram in data.items()
    }


def rows_to_json(tally: Tally) -> dict[str, Any]:
    """Format 1: one row per game."""
    return {
        "format": ROWS_FORMAT,
        "measure": MEASURE,
        "num_cards": tally.num_cards,
        "rows": [
            [
                row.index,
                row.finished,
                row.actions,
                row.rounds,
                row.winner,
                row.loser,
                row.counters,
                {name: list(pair) for name, pair in row.samples.items()},
                list(row.play),
                list(row.branching),
            ]
            for row in tally.rows
        ],
        "samples": _histograms_to_json(tally.samples),
        "cards_played": tally.cards_played,
        "loser_cards": tally.loser_cards,
    }


def tally_from_json(data: dict[str, Any]) -> Tally:
    """The tally of a chunk file's document; ValueError (or KeyError, TypeError) when it
    is not a whole tally."""
    if data.get("measure") != MEASURE:
        raise ValueError(f"figures of play counted as {data.get('measure')!r}, not {MEASURE}")
    if data.get("format") == ROWS_FORMAT:
        return _rows_from_json(data)
    if data.get("format") != FORMAT:
        raise ValueError(f"chunk format {data.get('format')!r}, expected {FORMAT}")
    num_cards = int(data["num_cards"])
    declared = tuple(str(name) for name in data["declared"])
    counter_names = [str(name) for name in data["counter_names"]]
    sample_names = [str(name) for name in data["sample_names"]]
    state = Tally(num_cards, names=declared).__getstate__()
    if set(state) != _LAYOUT:
        raise ValueError("a tally's layout this store does not know")
    if tuple(counter_names[: len(declared)]) != declared:
        raise ValueError("counter names do not start with the declared ones")
    if len(set(counter_names)) != len(counter_names) or len(set(sample_names)) != len(sample_names):
        raise ValueError("a counter or sample name twice")
    columns = {name: _decode(data["columns"][name]) for name in _COLUMNS}
    _check_columns(columns, len(counter_names), len(sample_names))
    cards_played = [int(v) for v in data["cards_played"]]
    loser_cards = [int(v) for v in data["loser_cards"]]
    if len(cards_played) != num_cards or len(loser_cards) != num_cards:
        raise ValueError("card totals of another deck size")
    names_type = type(state["_counter_ids"])  # numbers its names in the order given
    state.update({attribute: columns[name] for name, attribute in _COLUMNS.items()})
    state["_counter_ids"] = names_type((name, n) for n, name in enumerate(counter_names))
    state["_sample_ids"] = names_type((name, n) for n, name in enumerate(sample_names))
    state["_histograms"] = _histograms_from_json(data["samples"])
    state["_cards_played"] = cards_played
    state["_loser_cards"] = loser_cards
    tally = Tally.__new__(Tally)
    tally.__dict__.update(state)  # as unpickling a tally does
    return tally


def _check_columns(columns: dict[str, array[int]], counters: int, samples: int) -> None:
    games = len(columns["index"])
    if any(len(columns[name]) != games for name in _GAME_COLUMNS):
        raise ValueError("per-game columns of different lengths")
    for lengths, group, names in (
        ("counter_lengths", _COUNTER_COLUMNS, counters),
        ("sample_lengths", _SAMPLE_COLUMNS, samples),
    ):
        entries = sum(columns[lengths])
        if (games and min(columns[lengths]) < 0) or any(
            len(columns[name]) != entries for name in group
        ):
            raise ValueError(f"{lengths} do not match their columns")
        keys = columns[next(iter(group))]
        if keys and (min(keys) < 0 or max(keys) >= names):
            raise ValueError(f"{lengths}: a key without a name")
    if games and not set(columns["finished"]) <= {0, 1}:
        raise ValueError("finished is not 0 or 1")
    if len(columns["play"]) != games * len(FIGURES):
        raise ValueError("figures of play of another count per game")
    pairs = columns["branching_lengths"]
    if (games and min(pairs) < 0) or any(n % 2 for n in pairs):
        raise ValueError("branching_lengths are not counts of pairs")
    if len(columns["branching"]) != sum(pairs):
        raise ValueError("branching_lengths do not match their column")


def _rows_from_json(data: dict[str, Any]) -> Tally:
    rows = [
        GameRow(
            index=int(index),
            finished=bool(finished),
            actions=int(actions),
            rounds=int(rounds),
            winner=int(winner),
            loser=int(loser),
            counters={str(k): int(v) for k, v in counters.items()},
            samples={str(k): (int(v[0]), int(v[1])) for k, v in samples.items()},
            play=tuple(int(v) for v in play),
            branching=tuple(int(v) for v in branching),
        )
        for (
            index,
            finished,
            actions,
            rounds,
            winner,
            loser,
            counters,
            samples,
            play,
            branching,
        ) in data["rows"]
    ]
    return Tally(
        num_cards=int(data["num_cards"]),
        rows=rows,
        samples=_histograms_from_json(data["samples"]),
        cards_played=[int(v) for v in data["cards_played"]],
        loser_cards=[int(v) for v in data["loser_cards"]],
    )


class ChunkStore:
    """The folder of completed chunks of every configuration."""

    def __init__(self, root: Path) -> None:
        self.root = root

    def path(self, key: str, start: int, stop: int) -> Path:
        return self.root / key / f"{start}-{stop}.json"

    def load(self, key: str, start: int, stop: int) -> Tally | None:
        """The stored chunk, or None when it is missing or does not read back whole."""
        path = self.path(key, start, stop)
        try:
            tally = tally_from_json(json.loads(path.read_text(encoding="utf-8")))
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            return None
        return tally if tally.index == array("q", range(start, stop)) else None

    def save(self, key: str, start: int, stop: int, tally: Tally) -> None:
        path = self.path(key, start, stop)
        path.parent.mkdir(parents=True, exist_ok=True)
        write_text(path, json.dumps(tally_to_json(tally), separators=(",", ":")))
