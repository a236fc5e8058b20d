"""A bounded HTTP GET: the timeout covers the whole answer, and the body has a size limit.

``requests`` applies its timeout to each socket operation, so a server that sends one
byte a second never times out, and it inflates a gzip body without a limit. Here a
watchdog shuts the connection down when an attempt's time is up (headers, redirects and
body included), the body is read raw and inflated here with a cap on the inflated size,
and the time over all attempts, waits included, has a cap of its own.
"""

from __future__ import annotations

import contextlib
import re
import socket
import threading
import time
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from email.utils import parsedate_to_datetime
from typing import Any

import requests
import urllib3
from requests.adapters import HTTPAdapter
from urllib3.connection import HTTPConnection, HTTPSConnection
from urllib3.connectionpool import HTTPConnectionPool, HTTPSConnectionPool

from kraftstokk.errors import FetchError
from kraftstokk.progress import ProgressFactory, step
from kraftstokk.textfile import MB, size_text

#: Largest body accepted, after decompression (NVE's whole register is about 2 MB).
MAX_BODY_BYTES = 16 * MB
#: Longest wait a ``Retry-After`` header may ask for.
MAX_RETRY_AFTER = 60.0
CHUNK = 64 * 1024
RETRY_STATUSES = frozenset({429, 500, 502, 503, 504})
USER_AGENT = "kraftstokk (Kraft-stokken card deck builder)"


@dataclass
class Answer:
    """A successful response: the final URL, every URL read on the way, and the body."""

    url: str
    urls: list[str]
    body: bytes
    links: dict[str, dict[str, str]] = field(default_factory=dict)


class _Watchdog:
    """Shuts down the connections of a session when the running attempt's time is up."""

    def __init__(self) -> None:
        self._sockets: list[socket.socket] = []
        self._lock = threading.Lock()
        self._timer: threading.Timer | None = None
        self.fired = False

    def register(self, sock: socket.socket | None) -> None:
        if sock is not None:
            with self._lock:
                self._sockets = [s for s in self._sockets if s.fileno() != -1]
                self._sockets.append(sock)

    def arm(self, seconds: float) -> None:
        self.disarm()
        self.fired = False
        self._timer = threading.Timer(max(seconds, 0.0), self._fire)
        self._timer.daemon = True
        self._timer.start()

    def disarm(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _fire(self) -> None:
        self.fired = True
        with self._lock:
            for sock in self._sockets:
                with contextlib.suppress(OSError):  # already closed
                    sock.shutdown(socket.SHUT_RDWR)


def _watched_session(watchdog: _Watchdog) -> requests.Session:
    """A session whose every new connection is known to ``watchdog``."""

    class WatchedHTTP(HTTPConnection):
        def connect(self) -> None:
            super().connect()
            watchdog.register(self.sock)

    class WatchedHTTPS(HTTPSConnection):
        def connect(self) -> None:
            super().connect()
            watchdog.register(self.sock)

    class HTTPPool(HTTPConnectionPool):
        ConnectionCls = WatchedHTTP

    class HTTPSPool(HTTPSConnectionPool):
        ConnectionCls = WatchedHTTPS

    adapter = HTTPAdapter()
    adapter.poolmanager.pool_classes_by_scheme = {"http": HTTPPool, "https": HTTPSPool}
    session = requests.Session()
    session.mount("http://", adapter)
    session.mount("https://", adapter)
    return session


def _short_reason(exc: BaseException) -> str:
    """The useful part of a connection error (``[Errno 111] Connection refused``)."""
    text = str(exc)
    match = re.search(r"\[Errno -?\d+\][^'\")]*", text)
    if match:
        return match.group(0).strip()
    if "IncompleteRead" in text:
        return "the answer was cut short"
    return type(exc).__name__


class _Inflater:
    """Content-Encoding undone with a cap on the inflated size."""

    def __init__(self, url: str, encoding: str, limit: int) -> None:
        self.url, self.limit, self.size = url, limit, 0
        self.parts: list[bytes] = []
        coding = encoding.strip().lower()
        if coding in ("", "identity"):
            self._decoder: Any = None
        elif coding in ("gzip", "x-gzip"):
            self._decoder = zlib.decompressobj(16 + zlib.MAX_WBITS)
        elif coding == "deflate":
            self._decoder = zlib.decompressobj(zlib.MAX_WBITS)
        else:
            raise FetchError(url, f"answer in an unsupported Content-Encoding {coding!r}")

    def _keep(self, piece: bytes) -> None:
        self.size += len(piece)
        if self.size > self.limit:
            raise FetchError(
                self.url, f"answer larger than {size_text(self.limit)} (after decompression)"
            )
        self.parts.append(piece)

    def feed(self, data: bytes) -> None:
        if self._decoder is None:
            self._keep(data)
            return
        try:
            while data:
                self._keep(self._decoder.decompress(data, self.limit - self.size + 1))
                data = self._decoder.unconsumed_tail
        except zlib.error as exc:
            raise FetchError(self.url, f"answer is not valid compressed data ({exc})") from None

    def body(self) -> bytes:
        if self._decoder is not None:
            self._keep(self._decoder.flush())
        return b"".join(self.parts)


def retry_after(response: requests.Response) -> float | None:
    """Seconds a 429/503 answer asks to wait (``Retry-After``: seconds or a date)."""
    value = response.headers.get("Retry-After", "").strip()
    if not value:
        return None
    if value.isdigit():
        return float(value)
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        return None
    if when.tzinfo is None:
        return None
    return max(0.0, when.timestamp() - time.time())


@dataclass
class Limits:
    """``timeout`` bounds each attempt whole; ``max_time`` every attempt and wait together."""

    timeout: float
    retries: int
    backoff: float
    max_time: float
    max_body: int = MAX_BODY_BYTES


class Fetcher:
    """GETs with retries, under one deadline; use as a context manager."""

    def __init__(
        self,
        limits: Limits,
        sleep: Callable[[float], None] = time.sleep,
        clock: Callable[[], float] = time.monotonic,
        progress: ProgressFactory | None = None,
    ) -> None:
        self.limits, self.sleep, self.clock = limits, sleep, clock
        self.progress = progress  # hears of each body read, in kB
        self.watchdog = _Watchdog()
        self.session = _watched_session(self.watchdog)
        self.deadline = clock() + limits.max_time

    def __enter__(self) -> Fetcher:
        return self

    def __exit__(self, *exc: object) -> None:
        self.watchdog.disarm()
        self.session.close()

    def _left(self) -> float:
        return self.deadline - self.clock()

    def _out_of_time(self, url: str, problem: str) -> FetchError:
        return FetchError(
            url, f"gave up after {self.limits.max_time:g} s in all (--max-time); last: {problem}"
        )

    def get(self, url: str) -> Answer:
        """GET ``url``; retry connection errors, timeouts, 429 and 5xx; fail at once on 4xx."""
        limits = self.limits
        attempts = limits.retries + 1
        problem = "no attempt made"
        asked: float | None = None  # the last answer's Retry-After
        for attempt in range(attempts):
            wait = limits.backoff * 2 ** (attempt - 1) if attempt else 0.0
            if asked is not None:
                if asked > MAX_RETRY_AFTER or asked > self._left():
                    raise FetchError(
                        url,
                        f"{problem}, and it asks to retry after {asked:.0f} s (Retry-After): "
                        f"longer than kraftstokk waits (at most {MAX_RETRY_AFTER:g} s, and "
                        "within --max-time)",
                    )
                wait = max(wait, asked)
            if wait > self._left():
                raise self._out_of_time(url, problem)
            if wait:
                self.sleep(wait)
            try:
                return self._attempt(url)
            except _Retry as retry:
                problem, asked = retry.problem, retry.wait
        tries = "attempt" if attempts == 1 else "attempts"
        raise FetchError(url, f"{problem} ({attempts} {tries})")

    def _attempt(self, url: str) -> Answer:
        limits = self.limits
        budget = min(limits.timeout, self._left())
        if budget <= 0:
            raise FetchError(url, f"gave up after {limits.max_time:g} s in all (--max-time)")
        timed_out = f"timed out after {budget:g} s"
        self.watchdog.arm(budget)
        try:
            try:
                response = self.session.get(
                    url,
                    timeout=(budget, budget),
                    stream=True,
                    headers={
                        "Accept": "application/json",
                        "Accept-Encoding": "gzip, deflate",
                        "User-Agent": USER_AGENT,
                    },
                )
            except requests.Timeout:
                raise _Retry(timed_out) from None
            except (requests.ConnectionError, requests.exceptions.ChunkedEncodingError) as exc:
                raise _Retry(timed_out if self.watchdog.fired else _connection(exc)) from None
            except requests.RequestException as exc:
                raise FetchError(url, f"cannot request: {_short_reason(exc)}") from None
            with response:
                status = response.status_code
                if status in RETRY_STATUSES:
                    kind = "server error" if status >= 500 else "too many requests:"
                    reason = f"{kind} HTTP {status} {response.reason or ''}".rstrip()
                    wait = retry_after(response) if status in (429, 503) else None
                    raise _Retry(reason, wait)
                if status >= 400:
                    raise FetchError(url, f"HTTP {status} {response.reason or ''}".rstrip())
                body = self._read_body(url, response, timed_out)
        finally:
            self.watchdog.disarm()
        urls = [r.url for r in response.history] + [response.url]
        return Answer(url=response.url, urls=urls, body=body, links=dict(response.links))

    def _read_body(self, url: str, response: requests.Response, timed_out: str) -> bytes:
        declared = response.headers.get("Content-Length", "")
        encoding = response.headers.get("Content-Encoding", "")
        if declared.isdigit() and not encoding and int(declared) > self.limits.max_body:
            raise FetchError(url, f"answer larger than {size_text(self.limits.max_body)}")
        inflater = _Inflater(url, encoding, self.limits.max_body)
        report = step(self.progress, url, "kB")
        total = int(declared) // 1000 if declared.isdigit() else None
        read = 0
        if report is not None:
            report(0, total)
        try:
            while True:
                if self.watchdog.fired:
                    raise _Retry(timed_out)
                data = response.raw.read(CHUNK, decode_content=False)
                if not data:
                    break
                inflater.feed(data)
                read += len(data)
                if report is not None:
                    report(read // 1000, total)
        except (urllib3.exceptions.HTTPError, OSError) as exc:
            raise _Retry(timed_out if self.watchdog.fired else _connection(exc)) from None
        if self.watchdog.fired:
            raise _Retry(timed_out)
        return inflater.body()


def _connection(exc: BaseException) -> str:
    return f"connection failed ({_short_reason(exc)})"


class _Retry(Exception):
    """An attempt failed in a way worth another (``wait``: what the server asked for)."""

    def __init__(self, problem: str, wait: float | None = None) -> None:
        super().__init__(problem)
        self.problem = problem
        self.wait = wait
