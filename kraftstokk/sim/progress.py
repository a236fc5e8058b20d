"""A one-line progress bar on stderr, drawn only when stderr is a terminal."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import TextIO

WIDTH = 30
MIN_INTERVAL = 0.1  # seconds between redraws


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
        filled = WIDTH * done // total if total else WIDTH
        bar = "#" * filled + "-" * (WIDTH - filled)
        elapsed = now - self.started
        self.stream.write(f"\r{self.label} [{bar}] {done}/{total} {self.unit} {elapsed:5.1f} s")
        self.stream.flush()
        self.drawn = True

    def close(self) -> None:
        if self.drawn:
            self.stream.write("\n")
            self.stream.flush()
            self.drawn = False
