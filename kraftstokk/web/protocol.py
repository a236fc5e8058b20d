"""HTTP connections that a slow or greedy client cannot pile up (uvicorn's HTTP/1.1).

uvicorn waits for a request's headers without a limit, and keeps every socket it
accepts. :func:`guarded_protocol` makes its HTTP/1.1 protocol stricter:

- the headers of a request must be complete within ``header_seconds`` of the connection
  opening (or of the previous answer on a kept-alive connection); else 408 and close;
- at most ``max_connections`` are open: a new one beyond that closes the oldest one that
  has no request in progress (an idle socket, or one still dripping its headers), or is
  itself closed when every one is busy — so idle sockets never lock the player out;
- on shutdown (the first Ctrl-C) a connection still sending its request body is closed
  at once instead of being waited for.

The protocol is uvicorn's ``httptools`` one (the parser in C) when httptools is
installed, as ``pyproject.toml`` asks, else its pure-Python ``h11`` one: under load,
h11 took a fifth of a busy worker's time (the engine's moves a quarter). The limits are
the same on both. The body's own deadline is the app's (``guard.BODY_SECONDS``).
"""

from __future__ import annotations

import asyncio
import json
from typing import TYPE_CHECKING, Any

from uvicorn.protocols.http.h11_impl import H11Protocol

try:
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
except ImportError:  # no httptools: h11 alone
    HttpToolsProtocol = None  # type: ignore[assignment,misc]

HEADER_SECONDS = 10.0
MAX_CONNECTIONS = 64

if TYPE_CHECKING:
    _Base = H11Protocol  # what the limits need of either protocol (both have it)
else:
    _Base = object


class _Limits(_Base):
    """The limits, for either of uvicorn's HTTP/1.1 protocols (a base before it)."""

    header_seconds: float = HEADER_SECONDS
    max_connections: int = MAX_CONNECTIONS

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._header_timer: asyncio.TimerHandle | None = None
        self.opened = 0.0

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self.opened = self.loop.time()
        if len(self.connections) > self.max_connections and not self._make_room():
            self.transport.close()
            return
        self._arm_header_timer()

    def _make_room(self) -> bool:
        """Close the oldest connection without a request in progress; False if none."""
        idle = [
            c
            for c in self.connections
            if c is not self and isinstance(c, _Limits) and c.waiting_for_request
        ]
        if not idle:
            return False
        oldest = min(idle, key=lambda c: c.opened)
        oldest.transport.close()
        self.connections.discard(oldest)
        return True

    @property
    def waiting_for_request(self) -> bool:
        return self.cycle is None or self.cycle.response_complete

    def _headers_in(self) -> None:
        """A request's headers are complete: the header deadline is met."""
        self._cancel_header_timer()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing() and self.waiting_for_request:
            self._arm_header_timer()  # the next request on this connection, if any

    def connection_lost(self, exc: Exception | None) -> None:
        self._cancel_header_timer()
        super().connection_lost(exc)

    def shutdown(self) -> None:
        if self.cycle is not None and not self.cycle.response_complete and self.cycle.more_body:
            self.transport.close()  # still sending its body: the app sees a disconnect
            return
        super().shutdown()

    def _arm_header_timer(self) -> None:
        self._cancel_header_timer()
        self._header_timer = self.loop.call_later(self.header_seconds, self._headers_too_slow)

    def _cancel_header_timer(self) -> None:
        if self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None

    def _headers_too_slow(self) -> None:
        self._header_timer = None
        if not self.waiting_for_request or self.transport.is_closing():
            return
        body = json.dumps(
            {"error": f"request headers: not sent within {self.header_seconds:g} s"}
        ).encode()
        head = (
            "HTTP/1.1 408 Request Timeout\r\ncontent-type: application/json\r\n"
            f"content-length: {len(body)}\r\nconnection: close\r\n\r\n"
        ).encode()
        self.transport.write(head + body)
        self.transport.close()


class GuardedH11Protocol(_Limits, H11Protocol):
    def handle_events(self) -> None:
        before = self.cycle
        super().handle_events()
        if self.cycle is not before:  # a request's headers are in
            self._headers_in()


if HttpToolsProtocol is not None:

    class GuardedHttpToolsProtocol(_Limits, HttpToolsProtocol):  # type: ignore[misc]
        def on_headers_complete(self) -> None:
            super().on_headers_complete()
            self._headers_in()

    GuardedProtocol: type[_Limits] = GuardedHttpToolsProtocol
else:
    GuardedProtocol = GuardedH11Protocol


def guarded_protocol(
    header_seconds: float = HEADER_SECONDS,
    max_connections: int = MAX_CONNECTIONS,
    base: type[_Limits] | None = None,
) -> type[_Limits]:
    """The protocol class with these limits (uvicorn takes a class for ``http``);
    ``base``: :class:`GuardedH11Protocol` or the httptools one (default: the one served)."""
    return type(
        "GuardedProtocol",
        (base or GuardedProtocol,),
        {"header_seconds": header_seconds, "max_connections": max_connections},
    )
