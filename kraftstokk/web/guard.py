"""What stands between the network and the app: only the page itself drives the server.

:class:`Guard` is the outermost ASGI layer. Before a request reaches a route it checks:

- ``Host`` names this server (:class:`HostPolicy`): a page on another site that points
  its own name at 127.0.0.1 (DNS rebinding) is refused;
- ``Origin`` is this server's own (``http://`` + the Host) on every request that carries
  one, and is present on every request that changes something (POST, DELETE): a form or
  script on any other page — another site, another port of this machine, a file — is
  refused, as is ``Sec-Fetch-Site: cross-site``;
- a POST says ``Content-Type: application/json`` (a form or a ``text/plain`` beacon, the
  requests a foreign page may send without asking, are refused: 415);
- the body is at most :data:`MAX_BODY` bytes and arrives within :data:`BODY_SECONDS`
  (413 and 408, and the connection is closed).

Every answer — the page, the API, files, refusals — carries the security headers
(:data:`SECURITY_HEADERS`) and a ``Cache-Control`` (``no-store`` unless the route chose).
A refusal is ``{"error": "..."}`` naming the header and the reason.
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
import re
from collections.abc import Iterable, Sequence
from typing import Any
from urllib.parse import urlsplit

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from kraftstokk.errors import KraftstokkError, RequestRefused, clip

MAX_BODY = 512 * 1024  # a save of a whole game is some tens of kB
BODY_SECONDS = 15.0  # for the whole body of one request
LOOPBACK_NAMES = ("127.0.0.1", "localhost", "[::1]")
WILDCARDS = ("0.0.0.0", "::", "")
UNSAFE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
_SURROGATE = re.compile("[\ud800-\udfff]")

#: The page loads nothing but this server's own files (no CDN, no inline script), may
#: not be framed, and tells no other site where it came from.
SECURITY_HEADERS: tuple[tuple[bytes, bytes], ...] = (
    (
        b"content-security-policy",
        b"default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
        b"connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
        b"frame-ancestors 'none'",
    ),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
    (b"cross-origin-opener-policy", b"same-origin"),
    (b"cross-origin-resource-policy", b"same-origin"),
)


class BodyTooLarge(RequestRefused):
    status = 413


class BodyTooSlow(RequestRefused):
    status = 408


class HostPolicy:
    """The ``Host`` headers that name this server: its address, loopback names, its port,
    and the names of its public URLs.

    Served on a loopback address (the default), the names are 127.0.0.1, localhost and
    [::1]; on one other address, that address too; on every address (0.0.0.0, ::), any IP
    address and localhost — never another name, which could be anyone's (DNS rebinding).
    ``port`` None (a test's app) takes any port. ``public`` are the URLs the page is
    published at behind a reverse proxy (``serve --public-url``): each one's name (with
    its port, or none for the scheme's own) passes the Host check, and its origin the
    Origin check.
    """

    def __init__(
        self, host: str = "127.0.0.1", port: int | None = None, public: Sequence[str] = ()
    ) -> None:
        self.port = port
        self.any_address = host in WILDCARDS
        name = f"[{host}]" if ":" in host else host
        self.names = frozenset(LOOPBACK_NAMES) | ({name.lower()} if not self.any_address else set())
        self.origins = tuple(dict.fromkeys(public_origin(url) for url in public))
        self.public_hosts = frozenset(host for origin in self.origins for host in _hosts(origin))

    def allows(self, host: str) -> bool:
        if host.lower() in self.public_hosts:
            return True
        name, port = _split_host(host.lower())
        if name is None:
            return False
        if self.port is not None and port != self.port:
            return False
        if name in self.names:
            return True
        return self.any_address and _is_address(name)

    def allows_origin(self, origin: str, host: str) -> bool:
        """Whether a request with this ``Host`` may come from a page at ``origin``: a public
        URL's page, or the page of this address (``http://`` + Host) when Host is not a
        public name (a proxy may pass its own request's Host on, or this machine's)."""
        shown, host = origin.lower(), host.lower()
        if shown in self.origins:
            return True
        return host not in self.public_hosts and shown == f"http://{host}"

    def describe(self) -> str:
        port = f":{self.port}" if self.port is not None else ""
        names = sorted(self.names) + (["any IP address"] if self.any_address else [])
        return ", ".join([f"{name}{port}" for name in names] + sorted(self.public_hosts))

    def describe_origins(self, host: str) -> str:
        own = [] if host.lower() in self.public_hosts else [f"http://{host}"]
        return " or ".join([*own, *self.origins])


def public_origin(url: str) -> str:
    """The origin a browser sends for a page at ``url`` (``https://cards.example.org``);
    KraftstokkError naming the URL and the reason when no page can be served at it."""
    try:
        parts = urlsplit(url.strip())
        port = parts.port
    except ValueError as exc:
        raise KraftstokkError(f"--public-url {clip(url, 80)!r}: not a URL ({exc})") from None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise KraftstokkError(
            f"--public-url {clip(url, 80)!r}: give the page's address, "
            "such as https://cards.example.org"
        )
    if parts.username is not None or parts.password is not None:
        raise KraftstokkError(f"--public-url {clip(url, 80)!r}: a URL with a user name or password")
    if parts.path not in ("", "/") or parts.query or parts.fragment:
        raise KraftstokkError(
            f"--public-url {clip(url, 80)!r}: the page is served at the root of its name "
            "(no path, query or fragment)"
        )
    try:
        name = parts.hostname.encode("idna").decode("ascii")
    except UnicodeError:
        raise KraftstokkError(f"--public-url {clip(url, 80)!r}: not a host name") from None
    if ":" in name:
        name = f"[{name}]"
    default = 443 if parts.scheme == "https" else 80
    shown = name if port in (None, default) else f"{name}:{port}"
    return f"{parts.scheme}://{shown.lower()}"


def _hosts(origin: str) -> tuple[str, ...]:
    """The Host headers of a request for a page at ``origin`` (with or without the port)."""
    scheme, _, host = origin.partition("://")
    if host.rpartition(":")[2].isdigit() and not host.endswith("]"):
        return (host,)
    return (host, f"{host}:{443 if scheme == 'https' else 80}")


def _split_host(host: str) -> tuple[str | None, int]:
    """``("127.0.0.1", 8000)`` of ``127.0.0.1:8000``; the port is 80 when none is given."""
    if host.startswith("["):
        end = host.find("]")
        if end < 0:
            return None, 0
        name, rest = host[: end + 1], host[end + 1 :]
        if not _is_address(name):
            return None, 0
    else:
        name, _, port_text = host.partition(":")
        rest = f":{port_text}" if port_text or host.endswith(":") else ""
    if not rest:
        return name or None, 80
    port_text = rest[1:] if rest.startswith(":") else "x"
    if not port_text.isdigit() or len(port_text) > 5 or not 0 < int(port_text) < 65536:
        return None, 0
    return name or None, int(port_text)


def _is_address(name: str) -> bool:
    try:
        ipaddress.ip_address(name.strip("[]"))
    except ValueError:
        return False
    return True


def with_security_headers(headers: Iterable[tuple[bytes, bytes]]) -> list[tuple[bytes, bytes]]:
    listed = list(headers)
    present = {name.lower() for name, _ in listed}
    for name, value in SECURITY_HEADERS:
        if name not in present:
            listed.append((name, value))
    if b"cache-control" not in present:
        listed.append((b"cache-control", b"no-store"))
    return listed


class Guard:
    """The checks above, around ``app``."""

    def __init__(
        self,
        app: ASGIApp,
        policy: HostPolicy,
        body_limit: int = MAX_BODY,
        body_seconds: float = BODY_SECONDS,
    ) -> None:
        self.app = app
        self.policy = policy
        self.body_limit = body_limit
        self.body_seconds = body_seconds

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def secured(message: Message) -> None:
            if message["type"] == "http.response.start":
                message = {**message, "headers": with_security_headers(message.get("headers", []))}
            await send(message)

        try:
            self._check(scope)
        except RequestRefused as exc:
            await refuse(exc, secured)
            return
        await self.app(scope, self._limited(receive), secured)

    def _check(self, scope: Scope) -> None:
        headers: dict[bytes, list[bytes]] = {}
        for name, value in scope.get("headers") or []:
            headers.setdefault(name.lower(), []).append(value)
        host = _single(headers, b"host")
        if host is None or not self.policy.allows(host):
            shown = "missing" if host is None else repr(clip(host, 60))
            raise RequestRefused(f"Host: {shown} is not this server ({self.policy.describe()})")
        method = scope["method"]
        origin = _single(headers, b"origin")
        if origin is not None and not self.policy.allows_origin(origin, host):
            shown = self.policy.describe_origins(host)
            raise Forbidden(f"Origin: {clip(origin, 60)!r} is not this server's page ({shown})")
        if method in UNSAFE_METHODS and origin is None:
            shown = self.policy.describe_origins(host)
            raise Forbidden(f"Origin: missing; only this server's page ({shown}) may send {method}")
        site = _single(headers, b"sec-fetch-site")
        if site is not None and site.lower() in ("cross-site", "same-site"):
            raise Forbidden(f"Sec-Fetch-Site: {clip(site, 20)}: only this server's page may ask")
        if method in UNSAFE_METHODS and method != "DELETE":
            kind = _single(headers, b"content-type")
            if kind is None or kind.split(";")[0].strip().lower() != "application/json":
                shown = "missing" if kind is None else repr(clip(kind, 60))
                raise UnsupportedType(f"Content-Type: {shown}; send application/json")
        declared = _single(headers, b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.body_limit):
            raise BodyTooLarge(f"request body: over {self.body_limit // 1024} kB")

    def _limited(self, receive: Receive) -> Receive:
        seen = 0
        deadline: float | None = None

        async def limited() -> Message:
            nonlocal seen, deadline
            loop = asyncio.get_running_loop()
            if deadline is None:
                deadline = loop.time() + self.body_seconds
            try:
                # A deadline on this task (asyncio.wait_for would make a task per read).
                async with asyncio.timeout_at(max(deadline, loop.time() + 0.001)):
                    message = await receive()
            except TimeoutError:
                raise BodyTooSlow(
                    f"request body: not sent within {self.body_seconds:g} s"
                ) from None
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.body_limit:
                    raise BodyTooLarge(f"request body: over {self.body_limit // 1024} kB")
            return message

        return limited


class Forbidden(RequestRefused):
    status = 403


class UnsupportedType(RequestRefused):
    status = 415


#: Refusals after which the rest of the request is not read: the connection closes.
CLOSING = (BodyTooLarge.status, BodyTooSlow.status)


def _single(headers: dict[bytes, list[bytes]], name: bytes) -> str | None:
    """A header's value; a header sent twice is refused (two Hosts are two servers)."""
    values = headers.get(name)
    if values is None:
        return None
    if len(values) > 1:
        raise RequestRefused(f"{name.decode()}: sent {len(values)} times")
    return values[0].decode("latin-1")


def refusal_body(message: str, said: dict[str, str] | None = None) -> bytes:
    """A refusal's JSON: ``{"error": message}`` and ``said`` per language when given.

    It cannot fail on what the client sent: a message that quotes the request may hold a
    lone surrogate (``"\\udc80"`` is valid JSON, its character no UTF-8 text), which is
    written as U+FFFD.
    """
    body: dict[str, Any] = {"error": _writable(message)}
    if said:
        body["said"] = {code: _writable(text) for code, text in said.items()}
    return json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode()


def _writable(text: str) -> str:
    return _SURROGATE.sub("\ufffd", text)


async def refuse(exc: RequestRefused, send: Send) -> None:
    """Answer ``exc`` as ``{"error": ...}`` with its status (before the app ran)."""
    body = refusal_body(exc.message)
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode()),
    ]
    if exc.status in CLOSING:
        headers.append((b"connection", b"close"))
    await send({"type": "http.response.start", "status": exc.status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
