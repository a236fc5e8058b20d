"""A scripted HTTP server on 127.0.0.1 for the fetch tests: no mocking of requests.

Each path answers with a list of :class:`Reply` (the last one repeats). A reply can drip
its bytes slowly, send a gzip body that inflates far beyond its size, redirect, or reset
the connection halfway. ``server`` is the pytest fixture (registered in conftest.py).
"""

from __future__ import annotations

import contextlib
import gzip
import socket
import struct
import threading
import time
import zlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

FIXTURES = Path(__file__).parent / "fixtures" / "sources"
PLANTS_JSON = (FIXTURES / "nve-plants.json").read_bytes()


@dataclass
class Reply:
    status: int = 200
    body: bytes = PLANTS_JSON
    headers: dict[str, str] = field(default_factory=dict)
    #: Seconds before the status line is sent.
    delay: float = 0.0
    #: Send the body (and with ``drip_headers`` the headers too) in pieces of ``drip_bytes``,
    #: one every ``drip`` seconds, until done or the client goes away.
    drip: float = 0.0
    drip_bytes: int = 1
    drip_headers: bool = False
    #: Send ``body`` gzip-compressed with ``Content-Encoding: gzip``.
    gzip: bool = False
    #: Answer 302 with this Location instead of the body.
    redirect: str | None = None
    #: Reset the connection (TCP RST) after this many body bytes.
    reset_after: int | None = None
    #: Send no Content-Length (the body ends when the connection closes).
    no_length: bool = False


def gzip_bomb(inflated_size: int) -> bytes:
    """A gzip stream of zeros that inflates to ``inflated_size`` bytes (about 1000:1)."""
    compressor = zlib.compressobj(9, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
    block = b"\0" * (1 << 20)
    parts = []
    left = inflated_size
    while left > 0:
        piece = block if left >= len(block) else block[:left]
        parts.append(compressor.compress(piece))
        left -= len(piece)
    parts.append(compressor.flush())
    return b"".join(parts)


class LoopbackServer:
    """Serves a scripted list of replies per path; the last reply repeats."""

    def __init__(self) -> None:
        self.script: dict[str, list[Reply]] = {}
        self.requests: list[str] = []
        self.stopping = threading.Event()
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_GET(self) -> None:
                server.requests.append(self.path)
                replies = server.script.get(self.path) or [Reply(404, b"not found")]
                reply = replies.pop(0) if len(replies) > 1 else replies[0]
                with contextlib.suppress(OSError):  # the client gave up (timeout tests)
                    server.answer(self, reply)

            def log_message(self, format: str, *args: object) -> None:
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.httpd.block_on_close = False
        self.thread = threading.Thread(
            target=self.httpd.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True
        )

    def answer(self, handler: BaseHTTPRequestHandler, reply: Reply) -> None:
        if reply.delay:
            time.sleep(reply.delay)
        body = gzip.compress(reply.body, mtime=0) if reply.gzip else reply.body
        status = 302 if reply.redirect else reply.status
        lines = [f"HTTP/1.1 {status} {handler.responses.get(status, ('',))[0]}"]
        lines.append("Content-Type: application/json; charset=utf-8")
        if reply.redirect:
            lines.append(f"Location: {reply.redirect}")
            body = b""
        if reply.gzip:
            lines.append("Content-Encoding: gzip")
        if not reply.no_length:
            lines.append(f"Content-Length: {len(body)}")
        lines.append("Connection: close")
        lines.extend(f"{name}: {value}" for name, value in reply.headers.items())
        head = ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")
        out = handler.wfile
        if reply.drip and reply.drip_headers:
            self._drip(out, head, reply)
        else:
            out.write(head)
        if reply.reset_after is not None:
            out.write(body[: reply.reset_after])
            out.flush()
            # Linger 0: closing the connection (when the handler ends) sends an RST.
            sock = handler.connection
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            handler.close_connection = True
            return
        if reply.drip:
            self._drip(out, body, reply)
        else:
            out.write(body)
        out.flush()
        handler.close_connection = True

    def _drip(self, out: object, data: bytes, reply: Reply) -> None:
        for start in range(0, len(data), reply.drip_bytes):
            if self.stopping.is_set():
                return
            out.write(data[start : start + reply.drip_bytes])  # type: ignore[attr-defined]
            out.flush()  # type: ignore[attr-defined]
            time.sleep(reply.drip)

    def url(self, path: str) -> str:
        host, port = self.httpd.server_address[:2]
        return f"http://{host!s}:{port}{path}"

    def serve(self, path: str, *replies: Reply) -> str:
        self.script[path] = list(replies)
        return self.url(path)


@pytest.fixture
def server() -> Iterator[LoopbackServer]:
    loopback = LoopbackServer()
    loopback.thread.start()
    yield loopback
    loopback.stopping.set()
    loopback.httpd.shutdown()
    loopback.httpd.server_close()
