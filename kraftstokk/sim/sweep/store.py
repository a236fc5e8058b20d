"""Completed chunks on disk, so that a sweep run again computes only what is missing.

One JSON file per chunk: ``<store>/<configuration key>/<start>-<stop>.json`` holding the
chunk's :class:`~kraftstokk.sim.metrics.Tally`. The key already stands for the deck's
cards, the game, players, bots, variants, action cap and seed; the file name is the
range of game indices. Files are written atomically, so an interrupted write leaves no
half chunk; a file that does not read back as a tally of its range is ignored (and
played again).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from kraftstokk.atomic import write_text
from kraftstokk.sim.metrics import GameRow, Tally

FORMAT = 1


def tally_to_json(tally: Tally) -> dict[str, Any]:
    return {
        "format": FORMAT,
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
            ]
            for row in tally.rows
        ],
        "samples": {
            name: {str(value): count for value, count in sorted(histogram.items())}
            for name, histogram in tally.samples.items()
        },
        "cards_played": tally.cards_played,
        "loser_cards": tally.loser_cards,
    }


def tally_from_json(data: dict[str, Any]) -> Tally:
    if data.get("format") != FORMAT:
        raise ValueError(f"chunk format {data.get('format')!r}, expected {FORMAT}")
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
        )
        for index, finished, actions, rounds, winner, loser, counters, samples in data["rows"]
    ]
    return Tally(
        num_cards=int(data["num_cards"]),
        rows=rows,
        samples={
            str(name): {int(v): int(c) for v, c in histogram.items()}
            for name, histogram in data["samples"].items()
        },
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
        except (OSError, ValueError, KeyError, TypeError):
            return None
        indices = [row.index for row in tally.rows]
        return tally if indices == list(range(start, stop)) else None

    def save(self, key: str, start: int, stop: int, tally: Tally) -> None:
        path = self.path(key, start, stop)
        path.parent.mkdir(parents=True, exist_ok=True)
        write_text(path, json.dumps(tally_to_json(tally), separators=(",", ":")))
