"""The simulation's counters of one game: what its events add up to (``events.tally``).

Compiled with the games (``native.FRAMEWORK``): every event's ``count`` calls
:meth:`Stats.count`, a few hundred times a game.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Stats:
    """Counters of one game (names are the game's own, declared in its spec)."""

    counters: dict[str, int] = field(default_factory=dict)
    samples: dict[str, list[int]] = field(default_factory=dict)  # e.g. war sizes
    cards_played: list[int] = field(default_factory=list)  # per card index
    #: The game's choice and drama (``playability.FIGURES``, in that order).
    playability: list[int] = field(default_factory=list)
    #: The decisions with a real choice by their count of distinct moves: (distinct
    #: moves, decisions) pairs as the bytes of an ``array("q")`` (``Meter.branching``).
    branching: bytes = b""

    def count(self, name: str, amount: int = 1) -> None:
        counters = self.counters
        counters[name] = counters.get(name, 0) + amount

    def sample(self, name: str, value: int) -> None:
        self.samples.setdefault(name, []).append(value)

    def copy(self) -> Stats:
        return Stats(
            counters=dict(self.counters),
            samples={k: list(v) for k, v in self.samples.items()},
            cards_played=list(self.cards_played),
            playability=list(self.playability),
            branching=self.branching,
        )
