"""The progress display of the long commands, on stderr.

On a terminal: rich's bars, redrawn in place, each with its count, rate and time left.
On a pipe or a file: plain lines at a bounded rate (a log shows the command is alive
without filling up). The library reports progress through plain callbacks
(``progress(done, total)``, or a factory ``progress(label)`` returning one); this module
turns them into bars.

What a bar shows can come from files (a deck's title, a configuration's label): it is
written with its control characters escaped (:func:`kraftstokk.terminal.printable`), so
only the display's own escape sequences reach the terminal.
"""

from __future__ import annotations

import os
import shutil
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, TextIO

from kraftstokk.cli.voice import VOICE
from kraftstokk.progress import PERMILLE, format_duration
from kraftstokk.terminal import guard, printable, unguarded

if TYPE_CHECKING:
    from rich.progress import Progress, TaskID

    from kraftstokk.sim.progress import SweepStatus

#: Redraws per second on a terminal, at most (no thread redraws: the display moves
#: when the work reports, so worker processes can still be forked).
REDRAWS_PER_SECOND = 10
#: Seconds between two plain lines of one bar on a pipe or a file (with --verbose).
PLAIN_INTERVAL = 10.0
VERBOSE_INTERVAL = 1.0
#: Configurations of a sweep shown with a bar of their own at once.
MAX_RUNNING_BARS = 4

Clock = Callable[[], float]


def wants_bars(stream: TextIO) -> bool:
    """Whether ``stream`` is a terminal that can redraw (not TERM=dumb)."""
    isatty = getattr(unguarded(stream), "isatty", None)
    if isatty is None or not isatty():
        return False
    return os.environ.get("TERM", "") not in ("dumb", "unknown")


def amount(value: float) -> str:
    """``12,000``: a count people read at a glance."""
    return f"{value:,.0f}"


def rate(per_second: float | None, unit: str) -> str:
    """``2,210 games/s``, ``3.4 pages/s``; empty before there is one (or for a share)."""
    if not per_second or unit == PERMILLE:
        return ""
    shown = f"{per_second:,.0f}" if per_second >= 10 else f"{per_second:.1f}"
    return f"{shown} {unit}/s"


def count(done: float, total: float | None, unit: str, pad: bool = True) -> str:
    """``4,000/20,000 games``, or ``4,000 games`` while the total is unknown; a job in
    thousandths (:data:`~kraftstokk.progress.PERMILLE`) as a percentage."""
    if unit == PERMILLE:
        return f"{done / 10:.0f} %"
    if total is None:
        return f"{amount(done)} {unit}"
    whole = amount(total)
    width = len(whole) if pad else 0  # padded, a bar keeps its width as the count grows
    return f"{amount(done):>{width}}/{whole} {unit}"


@dataclass
class _PlainBar:
    """A bar on a pipe: its last line's time."""

    label: str
    unit: str
    started: float
    last_line: float
    done: float = 0
    total: float | None = None


class Display:
    """Progress bars on ``stream`` (stderr by default) while the ``with`` block runs.

    ``terminal`` forces bars (True) or plain lines (False); ``quiet`` shows nothing (by
    default: the command's ``--quiet``).
    """

    def __init__(
        self,
        stream: TextIO | None = None,
        *,
        terminal: bool | None = None,
        quiet: bool | None = None,
        clock: Clock = time.monotonic,
        interval: float | None = None,
    ) -> None:
        self.stream = stream if stream is not None else sys.stderr
        self.terminal = wants_bars(self.stream) if terminal is None else terminal
        self.quiet = VOICE.quiet if quiet is None else quiet  # --quiet: no progress
        self.clock = clock
        if interval is None:  # --verbose: a line a second on a pipe
            interval = VERBOSE_INTERVAL if VOICE.verbose else PLAIN_INTERVAL
        self.interval = interval
        self._rich: Progress | None = None
        self._last_redraw = -1.0
        self._new_bar = False  # a bar was added: its first figures are drawn at once
        self._plain: dict[int, _PlainBar] = {}
        self._next_id = 0

    # The block --------------------------------------------------------------------

    def __enter__(self) -> Display:
        if self.terminal and not self.quiet:
            self._rich = _rich_progress(self.stream, self.clock)
            self._rich.start()
            # rich now prints what is written to stderr above the bars; the guard goes
            # round that again, so a file's control characters stay escaped.
            sys.stderr = guard(sys.stderr, "standard error")
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        if self._rich is not None:
            self._rich.refresh()
            self._rich.stop()  # gives stderr back as it was
            self._rich = None

    # Bars -------------------------------------------------------------------------

    def bar(self, label: str, unit: str, total: float | None = None) -> Bar:
        """A new bar; call it as ``bar(done, total)``."""
        label = printable(label)
        if self._rich is not None:
            task = self._rich.add_task(label, total=total, unit=unit, start=True)
            self._new_bar = True
            return Bar(self, int(task), unit)
        self._next_id += 1
        now = self.clock()
        self._plain[self._next_id] = _PlainBar(label, unit, now, now, total=total)
        return Bar(self, self._next_id, unit)

    def factory(self, unit: str, prefix: str = "", keep: bool = True) -> BarFactory:
        """The library's ``progress(label, unit)``: a new bar per label, counted in the
        library's unit or else ``unit``; ``keep=False``: each new bar takes the place of
        the one before (steps of one job)."""
        return BarFactory(self, unit, prefix, keep)

    def update(
        self,
        bar_id: int,
        done: float,
        total: float | None,
        eta: float | None = None,
        label: str | None = None,
    ) -> None:
        if self.quiet:
            return
        if label is not None:
            label = printable(label)
        if self._rich is not None:
            task = _task_id(bar_id)
            self._rich.update(task, completed=done, total=total, eta=eta)
            if label is not None:
                self._rich.update(task, description=label)
            self._redraw(final=total is not None and done >= total)
            return
        plain = self._plain.get(bar_id)
        if plain is None:
            return
        plain.done, plain.total = done, total
        if label is not None:
            plain.label = label
        now = self.clock()
        if now - plain.last_line >= self.interval:
            plain.last_line = now
            self.say(_plain_line(plain, now))

    def remove(self, bar_id: int) -> None:
        if self._rich is not None:
            self._rich.remove_task(_task_id(bar_id))
            self._redraw(final=True)
        self._plain.pop(bar_id, None)

    def say(self, line: str) -> None:
        """One line, above the bars on a terminal (control characters escaped)."""
        if self.quiet:
            return
        if self._rich is not None:
            from rich.text import Text

            self._rich.console.print(Text(printable(line)), soft_wrap=True)
            return
        self.stream.write(printable(line) + "\n")
        self.stream.flush()

    def redraw(self) -> None:
        """Draw the bars as they are now (an update within a tenth of a second of the last
        redraw waits for the next one)."""
        self._redraw(final=True)

    def _redraw(self, final: bool = False) -> None:
        if self._rich is None:
            return
        now = self.clock()
        if final or self._new_bar or now - self._last_redraw >= 1 / REDRAWS_PER_SECOND:
            self._last_redraw, self._new_bar = now, False
            self._rich.refresh()


@dataclass
class Bar:
    """One bar of a :class:`Display`: ``bar(done, total)`` moves it."""

    display: Display
    bar_id: int
    unit: str
    closed: bool = field(default=False)

    def __call__(
        self,
        done: float,
        total: float | None = None,
        *,
        eta: float | None = None,
        label: str | None = None,
    ) -> None:
        """``eta``: the seconds left when the work knows better than the rate (a sweep
        counts stored chunks as done); ``label``: a new label."""
        if not self.closed:
            self.display.update(self.bar_id, done, total, eta, label)

    def remove(self) -> None:
        """Take the bar off the screen (a finished part of a larger job)."""
        if not self.closed:
            self.closed = True
            self.display.remove(self.bar_id)


@dataclass
class BarFactory:
    """See :meth:`Display.factory`."""

    display: Display
    unit: str
    prefix: str = ""
    keep: bool = True
    made: list[Bar] = field(default_factory=list)

    def __call__(self, label: str, unit: str | None = None) -> Bar:
        if self.made and not self.keep:
            self.made.pop().remove()
        self.made.append(self.display.bar(f"{self.prefix}{label}", unit or self.unit))
        return self.made[-1]


def _task_id(bar_id: int) -> TaskID:
    from rich.progress import TaskID

    return TaskID(bar_id)


def _plain_line(bar: _PlainBar, now: float) -> str:
    elapsed = now - bar.started
    parts = [count(bar.done, bar.total, bar.unit, pad=False)]
    per_second = bar.done / elapsed if elapsed > 0 else None
    if shown := rate(per_second, bar.unit):
        parts.append(shown)
    if bar.total is not None and bar.done >= bar.total:
        parts.append(f"done in {format_duration(elapsed)}")
    elif bar.total and per_second:
        parts.append(f"ETA {format_duration((bar.total - bar.done) / per_second)}")
    return f"{bar.label}: {', '.join(parts)}"


# rich's columns -------------------------------------------------------------------


def _rich_progress(stream: TextIO, clock: Clock) -> Progress:
    """A rich Progress drawing on ``stream`` (below the guard: its own escapes pass)."""
    from rich.console import Console
    from rich.progress import BarColumn, Progress, ProgressColumn, Task, TextColumn
    from rich.table import Column
    from rich.text import Text

    class Counted(ProgressColumn):
        def render(self, task: Task) -> Text:
            return Text(count(task.completed, task.total, task.fields["unit"]), "green")

    class Rate(ProgressColumn):
        def render(self, task: Task) -> Text:
            if task.finished:  # the average over the whole bar
                elapsed = task.finished_time
                per_second = task.completed / elapsed if elapsed else None
            elif (task.elapsed or 0.0) < 1:
                per_second = None  # a rate over less than a second is noise
            else:
                per_second = task.speed  # rich's, over the last half minute
            return Text(rate(per_second, task.fields["unit"]), "cyan")

    class TimeLeft(ProgressColumn):
        max_refresh = 0.5

        def render(self, task: Task) -> Text:
            if task.finished:
                return Text(f"in {format_duration(task.finished_time or 0.0)}", "yellow")
            left = task.fields.get("eta")
            left = task.time_remaining if left is None else left
            shown = format_duration(left) if left is not None else "-"
            return Text(f"ETA {shown}", "yellow")

    target = unguarded(stream)
    # Two columns short of the terminal: the "^C" a terminal echoes must not wrap the last
    # line, or the redraw after Ctrl-C leaves a copy of the bars behind.
    columns = _columns(target)
    console = Console(
        file=target,
        force_terminal=True,  # the Display decided: a terminal, or a test that says so
        highlight=False,
        markup=False,
        width=max(40, columns - 2),
    )
    return Progress(
        TextColumn(
            "{task.description}",
            markup=False,
            table_column=Column(no_wrap=True, overflow="ellipsis", max_width=44),
        ),
        BarColumn(bar_width=None, table_column=Column(ratio=1, min_width=10)),
        Counted(table_column=Column(no_wrap=True, justify="right")),
        Rate(table_column=Column(no_wrap=True, justify="right")),
        TimeLeft(table_column=Column(no_wrap=True, min_width=13)),
        console=console,
        auto_refresh=False,
        redirect_stdout=False,
        redirect_stderr=True,
        get_time=clock,
        expand=True,
    )


def _columns(stream: TextIO) -> int:
    """The width of the terminal ``stream`` writes to (COLUMNS wins, as for any tool)."""
    try:
        width = os.get_terminal_size(stream.fileno()).columns
    except (AttributeError, OSError, ValueError):
        width = 80
    return shutil.get_terminal_size((width, 24)).columns if "COLUMNS" in os.environ else width


# The sweep --------------------------------------------------------------------------


class SweepDisplay:
    """The sweep's ``progress(status)``: one bar overall and one per configuration in
    play on a terminal; elsewhere a line per finished configuration, as a log wants."""

    def __init__(self, display: Display) -> None:
        self.display = display
        self.overall: Bar | None = None
        self.running: dict[str, Bar] = {}

    def announce(self, text: str) -> None:
        """A line said once, terminal or not (the plan and its estimate)."""
        self.display.say(f"sweep: {text}")

    def __call__(self, status: SweepStatus) -> None:
        display = self.display
        if not display.terminal or display.quiet:
            if status.finished and not display.quiet:
                eta = format_duration(status.eta) if status.eta is not None else "-"
                display.say(
                    f"sweep: {status.finished} done ({status.finished_games:,} games, "
                    f"{status.finished_seconds:.1f} s of play); "
                    f"{status.configurations_done}/{status.configurations_total} "
                    f"configurations, {status.chunks_done}/{status.chunks_total} chunks, "
                    f"ETA {eta}"
                )
            return
        overall = (
            f"sweep: {status.configurations_done}/{status.configurations_total} configurations"
        )
        if self.overall is None:
            self.overall = display.bar(overall, "chunks", status.chunks_total)
        shown = dict(status.running[:MAX_RUNNING_BARS])
        for label in [label for label in self.running if label not in shown]:
            self.running.pop(label).remove()
        for label, (done, total) in shown.items():
            if label not in self.running:
                self.running[label] = display.bar(f"  {label}", "chunks", total)
            self.running[label](done, total)
        self.overall(status.chunks_done, status.chunks_total, eta=status.eta, label=overall)
        display.redraw()  # a status comes a chunk at a time: show each whole

    def close(self) -> None:
        for bar in self.running.values():
            bar.remove()
        self.running.clear()
