"""What a sweep reports as it goes (:class:`SweepStatus`), with durations in words and the
time left at the rate so far; the CLI draws them (:mod:`kraftstokk.cli.progress`)."""

from __future__ import annotations

from dataclasses import dataclass

from kraftstokk.progress import format_duration, remaining

__all__ = ["SweepStatus", "format_duration", "remaining"]


@dataclass(frozen=True)
class SweepStatus:
    """Where a sweep is: chunks, games and configurations done of all, and what it plays."""

    chunks_done: int
    chunks_total: int
    configurations_done: int
    configurations_total: int
    eta: float | None  # seconds left, None before the first chunk of this run
    playing: str = ""  # the configuration whose chunks are in flight
    finished: str = ""  # a configuration that just completed ("#5 deck · idiot · ...")
    finished_games: int = 0
    finished_seconds: float = 0.0  # of play, in the workers
    #: The configurations begun and not complete, in order: (label, chunks done, of).
    running: tuple[tuple[str, tuple[int, int]], ...] = ()
