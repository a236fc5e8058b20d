"""How many CPU-heavy requests one client may make: a bucket per client address.

A new game or a resume against expert bots costs the server tens of milliseconds of
search for each of the bots' decisions before the person's first move; anyone who can
reach the page can ask for them, so each client (its address, as the reverse proxy gave
it: ``X-Forwarded-For`` from a trusted proxy, which uvicorn reads) has a bucket of
:attr:`ClientQuota.burst` such requests that fills again at one every
:attr:`ClientQuota.refill_seconds`. An empty bucket is a 429 told in the page's language
(``web.toml``'s ``refusals.busy``), with the seconds to wait. Cheap requests (moves, the
other bots) are not counted. At most :data:`MAX_CLIENTS` buckets are kept (the longest
untouched go first), so the table cannot grow without bound.
"""

from __future__ import annotations

import math
import threading
import time
from collections import OrderedDict
from collections.abc import Callable

from kraftstokk.errors import RequestRefused
from kraftstokk.games.view import refusal

#: Bots whose decisions are searches: a game with one of them is a heavy request.
HEAVY_BOTS = frozenset({"expert"})
BURST = 20
REFILL_SECONDS = 3.0  # one more heavy request every 3 s: 20 a minute, held up
MAX_CLIENTS = 10_000


class TooManyRequests(RequestRefused):
    status = 429
    retry_after = 1  # seconds (the answer's Retry-After)


class ClientQuota:
    """Heavy requests per client: ``burst`` at once, then one every ``refill_seconds``."""

    def __init__(
        self,
        burst: int = BURST,
        refill_seconds: float = REFILL_SECONDS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.burst = burst
        self.refill_seconds = refill_seconds
        self.clock = clock
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()  # tokens, when
        self._lock = threading.Lock()

    def take(self, client: str) -> None:
        """Count one heavy request of ``client``; TooManyRequests when its bucket is empty."""
        now = self.clock()
        with self._lock:
            tokens, then = self._buckets.pop(client, (float(self.burst), now))
            tokens = min(self.burst, tokens + (now - then) / self.refill_seconds)
            if tokens < 1:
                self._buckets[client] = (tokens, now)
                wait = math.ceil((1 - tokens) * self.refill_seconds)
                refused = refusal("refusals.busy", TooManyRequests, seconds=str(wait))
                refused.retry_after = wait  # type: ignore[attr-defined]
                raise refused
            self._buckets[client] = (tokens - 1, now)
            while len(self._buckets) > MAX_CLIENTS:
                self._buckets.popitem(last=False)


def is_heavy(bots: tuple[str, ...] | list[str] | str) -> bool:
    """Whether a game with these bots (one kind, or each seat's) searches for its moves."""
    kinds = {bots} if isinstance(bots, str) else set(bots)
    return not kinds.isdisjoint(HEAVY_BOTS)
