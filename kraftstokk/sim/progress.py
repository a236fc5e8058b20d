"""What a long run reports as it goes: durations in words, the time left at the rate so far,
and a sweep's status. The CLI draws them (:mod:`kraftstokk.cli.progress`)."""

from __future__ import annotations

from dataclasses import dataclass


def format_duration(seconds: float) -> str:
    """``8 s``, ``4 min 10 s``, ``3 h 20 min``, ``2 days 4 h``."""
    whole = max(0, round(seconds))
    if whole < 60:
        return f"{seconds:.1f} s" if seconds < 10 else f"{whole} s"
    minutes, secs = divmod(whole, 60)
    if minutes < 60:
        return f"{minutes} min {secs} s" if secs else f"{minutes} min"
    hours, minutes = divmod(minutes, 60)
    if hours < 48:
        return f"{hours} h {minutes} min" if minutes else f"{hours} h"
    days, hours = divmod(hours, 24)
    return f"{days} days {hours} h" if hours else f"{days} days"


def remaining(done: float, total: float, elapsed: float) -> float | None:
    """Seconds left at the rate so far (None before anything is done)."""
    if done <= 0 or elapsed <= 0:
        return None
    return elapsed * max(0.0, total - done) / done


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
