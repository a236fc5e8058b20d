"""How a long library call says how far it is: plain callbacks the CLI draws as bars
(:mod:`kraftstokk.cli.progress`), so the library never writes to the terminal itself."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

#: ``progress(done, total)``: ``done`` of ``total`` units (games, pages, PNGs, bytes); the
#: total is None while it is unknown (a download without a length).
Progress = Callable[[int, int | None], None]


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


class ProgressFactory(Protocol):
    """``progress(label, unit)``: a new :data:`Progress` for one part of a job, named for
    people, counted in ``unit`` (plural: "pages"; None: the watcher's own)."""

    def __call__(self, label: str, unit: str | None = None) -> Progress: ...


def step(progress: ProgressFactory | None, label: str, unit: str) -> Progress | None:
    """The part ``label`` of a job, counted in ``unit`` (None when nobody watches)."""
    return progress(label, unit) if progress is not None else None


class Counter:
    """Counts the units of a job of known size as they are done, telling ``progress``."""

    def __init__(self, total: int, progress: Progress | None) -> None:
        self.total = total
        self.done = 0
        self.progress = progress
        if progress is not None:
            progress(0, total)

    def one(self) -> None:
        self.done += 1
        if self.progress is not None:
            self.progress(self.done, self.total)


#: The units of a :class:`Steps` job: thousandths of it, shown as a percentage.
PERMILLE = "‰"


class Steps:
    """A job in ``count`` steps of about equal length, each reported in parts of its own
    (a layout pass in blocks), told to ``progress`` in thousandths of the whole job. A
    step beyond ``count`` (a layout that needs another pass) makes the job longer."""

    def __init__(self, count: int, progress: Progress | None) -> None:
        self.count = max(1, count)
        self.finished = 0
        self.progress = progress
        self._size = 0  # parts of the reportlab build in progress
        self._tell(0.0)

    def part(self, done: int, total: int) -> None:
        """``done`` of ``total`` parts of the current step."""
        self._tell(min(1.0, done / total) if total > 0 else 0.0)

    def next(self) -> None:
        """The current step is done."""
        self.finished += 1
        self.count = max(self.count, self.finished)
        self._tell(0.0)

    def _tell(self, within: float) -> None:
        if self.progress is not None:
            whole = (self.finished + within) / self.count
            self.progress(min(1000, round(1000 * whole)), 1000)

    def reportlab(self, kind: str, value: int) -> None:
        """reportlab's ``setProgressCallBack``: each build of a document is a step."""
        if kind == "SIZE_EST":
            self._size = value
        elif kind == "PROGRESS":
            self.part(value, self._size)
        elif kind == "FINISHED":
            self.next()
