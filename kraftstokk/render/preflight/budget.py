"""How much work preflight does on one file before it gives up, and says so in one line.

A PDF is a program: a form may draw another form ten times, which draws another ten
times, so a 3 kB file can ask for 10^11 draws. Each form is read once (see
:mod:`content`), but what it paints is counted every time it is drawn, and the whole
file must fit in these budgets: content operators (a form's counted once per draw),
form and image draws (repeats counted), painted objects kept for the checks (they hold
the memory), content bytes decoded, and the time.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

from kraftstokk.bounds import shown
from kraftstokk.errors import KraftstokkError
from kraftstokk.limits import PREFLIGHT_SECONDS
from kraftstokk.textfile import MB, size_text

#: The deck's own largest file (the 110-page print-shop deck: 86 763 operators as drawn,
#: 480 draws, 3 656 painted objects) uses under a twentieth of each.
MAX_OPERATORS = 2_000_000
MAX_DRAWS = 200_000
MAX_MARKS = 500_000
MAX_CONTENT_BYTES = 128 * MB
MAX_PAGES = 10_000
MAX_SECONDS = PREFLIGHT_SECONDS
#: The clock is read once per this many operators.
CLOCK_EVERY = 4096


class BudgetExceeded(KraftstokkError):
    """The file needs more work than the budget allows (the caller names the file)."""


@dataclass
class WorkBudget:
    """Limits and what has been spent so far; ``clock`` is injectable for tests."""

    max_operators: int = MAX_OPERATORS
    max_draws: int = MAX_DRAWS
    max_marks: int = MAX_MARKS
    max_content_bytes: int = MAX_CONTENT_BYTES
    max_pages: int = MAX_PAGES
    max_seconds: float = MAX_SECONDS
    clock: Callable[[], float] = time.monotonic
    operators: int = 0
    draws: int = 0
    marks: int = 0
    content_bytes: int = 0
    operators_read: int = 0
    _started: float | None = field(default=None, repr=False)

    def start(self) -> None:
        self._started = self.clock()

    def read(self, count: int) -> None:
        """``count`` more operators interpreted (each form once); the clock is read here,
        so callers report every :data:`CLOCK_EVERY` operators."""
        self.operators_read += count
        self.check_time()
        if self.operators_read > self.max_operators:
            raise BudgetExceeded(
                f"more than {shown(self.max_operators)} content operators to check"
            )

    def painted(self, count: int) -> None:
        """A drawing being read holds ``count`` painted objects."""
        if count > self.max_marks:
            raise BudgetExceeded(f"more than {shown(self.max_marks)} painted objects to check")

    def check_time(self) -> None:
        if self._started is None:
            self.start()
            return
        spent = self.clock() - self._started
        if spent > self.max_seconds:
            raise BudgetExceeded(
                f"preflight stopped after {self.max_seconds:g} s (raise it with --max-time)"
            )

    def pages(self, count: int) -> None:
        if count > self.max_pages:
            raise BudgetExceeded(
                f"{shown(count)} pages; preflight checks at most {shown(self.max_pages)}"
            )

    def decoded(self, size: int) -> None:
        self.content_bytes += size
        if self.content_bytes > self.max_content_bytes:
            limit = size_text(self.max_content_bytes)
            raise BudgetExceeded(f"more than {limit} of page content to read")

    def spend(self, operators: int, draws: int, marks: int) -> None:
        """The work of one page as drawn (every form counted each time it is drawn)."""
        self.operators += operators
        self.draws += draws
        self.marks += marks
        if self.draws > self.max_draws:
            raise BudgetExceeded(
                f"more than {shown(self.max_draws)} form and image draws "
                f"({shown(self.draws)}: forms drawn inside forms multiply)"
            )
        if self.operators > self.max_operators:
            raise BudgetExceeded(
                f"more than {shown(self.max_operators)} content operators to check "
                f"({shown(self.operators)} as drawn: a form counts each time it is drawn)"
            )
        if self.marks > self.max_marks:
            raise BudgetExceeded(
                f"more than {shown(self.max_marks)} painted objects to check "
                f"({shown(self.marks)} as drawn)"
            )
