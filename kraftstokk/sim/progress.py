"""Progress on stderr: a redrawn line on a terminal; for a sweep, also a line per finished
configuration when stderr is a file or a pipe (a log shows it is alive)."""

from __future__ import annotations

import shutil
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TextIO

WIDTH = 30
MIN_INTERVAL = 0.1  # seconds between redraws
CLEAR_TO_END = "\x1b[K"


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


def _bar(done: int, total: int) -> str:
    filled = WIDTH * done // total if total else WIDTH
    return "#" * filled + "-" * (WIDTH - filled)


class ProgressBar:
    """Callable as the runner's ``progress(done, total)``; ``close()`` ends the line."""

    def __init__(
        self,
        label: str,
        stream: TextIO | None = None,
        force: bool = False,
        clock: Callable[[], float] = time.perf_counter,
        unit: str = "games",
    ) -> None:
        self.label = label
        self.unit = unit
        self.stream = stream if stream is not None else sys.stderr
        self.enabled = force or self.stream.isatty()
        self.clock = clock
        self.started = clock()
        self.last_draw = -MIN_INTERVAL
        self.drawn = False

    def __call__(self, done: int, total: int) -> None:
        if not self.enabled:
            return
        now = self.clock()
        if done < total and now - self.last_draw < MIN_INTERVAL:
            return
        self.last_draw = now
        elapsed = now - self.started
        left = remaining(done, total, elapsed) if done < total else None
        eta = f", ETA {format_duration(left)}" if left is not None else ""
        self.stream.write(
            f"\r{self.label} [{_bar(done, total)}] {done}/{total} {self.unit} "
            f"{elapsed:5.1f} s{eta}{CLEAR_TO_END}"
        )
        self.stream.flush()
        self.drawn = True

    def close(self) -> None:
        if self.drawn:
            self.stream.write("\n")
            self.stream.flush()
            self.drawn = False


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


class SweepProgress:
    """The sweep's ``progress(status)``: on a terminal one redrawn line with the counts, the
    ETA and the configuration in play; otherwise a line per finished configuration."""

    def __init__(
        self,
        stream: TextIO | None = None,
        force_terminal: bool | None = None,
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        self.stream = stream if stream is not None else sys.stderr
        self.terminal = self.stream.isatty() if force_terminal is None else force_terminal
        self.clock = clock
        self.last_draw = -MIN_INTERVAL
        self.drawn = False

    def announce(self, text: str) -> None:
        """A line said once, terminal or not (the plan and its estimate)."""
        self._end_line()
        self.stream.write(f"sweep: {text}\n")
        self.stream.flush()

    def __call__(self, status: SweepStatus) -> None:
        eta = f"ETA {format_duration(status.eta)}" if status.eta is not None else "ETA -"
        counts = (
            f"{status.configurations_done}/{status.configurations_total} configurations, "
            f"{status.chunks_done}/{status.chunks_total} chunks"
        )
        if not self.terminal:
            if status.finished:
                self.stream.write(
                    f"sweep: {status.finished} done ({status.finished_games:,} games, "
                    f"{status.finished_seconds:.1f} s of play); {counts}, {eta}\n"
                )
                self.stream.flush()
            return
        now = self.clock()
        complete = status.chunks_done >= status.chunks_total
        if not complete and not status.finished and now - self.last_draw < MIN_INTERVAL:
            return
        self.last_draw = now
        playing = f" · {status.playing}" if status.playing and not complete else ""
        line = f"sweep [{_bar(status.chunks_done, status.chunks_total)}] {counts}, {eta}{playing}"
        width = shutil.get_terminal_size((100, 24)).columns - 1
        self.stream.write("\r" + line[:width] + CLEAR_TO_END)
        self.stream.flush()
        self.drawn = True

    def _end_line(self) -> None:
        if self.drawn:
            self.stream.write("\n")
            self.drawn = False

    def close(self) -> None:
        self._end_line()
        self.stream.flush()
