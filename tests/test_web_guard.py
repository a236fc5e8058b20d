"""Only the page itself can drive the server; slow or greedy clients cannot stall it.

Requests a foreign page could send (a form, a ``text/plain`` beacon, a script on another
origin or port, a DNS-rebound name) are refused before any route runs; every answer
carries the security headers; bodies and headers have deadlines; idle sockets never lock
the player out; and one Ctrl-C stops ``kraftstokk serve`` even while a client is still
sending.
"""

from __future__ import annotations

import asyncio
import json
import signal
import socket
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from starlette.testclient import TestClient

from kraftstokk.errors import KraftstokkError
from kraftstokk.models import Deck
from kraftstokk.web.app import create_app
from kraftstokk.web.guard import SECURITY_HEADERS, HostPolicy, public_origin
from kraftstokk.web.protocol import GuardedH11Protocol, GuardedProtocol, guarded_protocol
from kraftstokk.web.quota import ClientQuota
from tests.web_helpers import BASE, TEST_KEY, client_for, new_game, running_server, serve_process

GAME = {"game": "idiot", "opponents": 1, "bots": "greedy", "seed": 1}


@pytest.fixture
def client(deck: Deck) -> Any:
    with client_for(deck) as test_client:
        yield test_client


def _refused(response: Any, status: int, words: str) -> None:
    assert response.status_code == status, response.text
    assert set(response.json()) == {"error"}
    assert words in response.json()["error"], response.json()


@pytest.mark.parametrize(
    ("kind", "body"),
    [
        ("text/plain", json.dumps(GAME)),
        ("application/x-www-form-urlencoded", "game=idiot&opponents=1"),
        ("multipart/form-data; boundary=x", "--x--"),
        (None, json.dumps(GAME)),
    ],
)
def test_only_json_is_taken(client: Any, kind: str | None, body: str) -> None:
    headers = {} if kind is None else {"Content-Type": kind}
    response = client.post("/api/games", content=body.encode(), headers=headers)
    _refused(response, 415, "Content-Type")
    ok = client.post("/api/games", json=GAME)
    assert ok.status_code == 201


@pytest.mark.parametrize(
    "origin",
    [
        "http://127.0.0.1:9000",  # another port of this machine
        "http://evil.example",
        "https://127.0.0.1:8000",
        "null",  # a sandboxed frame or a file
        "http://127.0.0.1:8000.evil.example",
    ],
)
def test_a_foreign_origin_is_refused(client: Any, origin: str) -> None:
    game = new_game(client, "idiot", 1, seed=2)
    headers = {"Origin": origin}
    _refused(client.post("/api/games", json=GAME, headers=headers), 403, "Origin")
    url = f"/api/games/{game['id']}"
    _refused(client.get(url, headers=headers), 403, "Origin")
    _refused(client.delete(url, headers=headers), 403, "Origin")
    body = {"turn": game["turn"], "move": 0}
    _refused(client.post(f"{url}/moves", json=body, headers=headers), 403, "Origin")
    assert client.get(url).status_code == 200  # the game was not touched


def test_a_change_needs_the_pages_origin(deck: Deck) -> None:
    with client_for(deck) as client:
        game = new_game(client, "idiot", 1, seed=3)
        del client.headers["Origin"]
        _refused(client.post("/api/games", json=GAME), 403, "Origin: missing")
        _refused(client.delete(f"/api/games/{game['id']}"), 403, "Origin: missing")
        assert client.get("/api/setup").status_code == 200  # reading needs no Origin
        cross = client.get("/api/setup", headers={"Sec-Fetch-Site": "cross-site"})
        _refused(cross, 403, "Sec-Fetch-Site")


@pytest.mark.parametrize(
    "host",
    ["evil.example:8000", "127.0.0.1.nip.io:8000", "localhost.evil:8000", "", "[::1"],
)
def test_a_foreign_host_is_refused(client: Any, host: str) -> None:
    """A page whose own name resolves to 127.0.0.1 (DNS rebinding) cannot use the API."""
    response = client.get("/api/setup", headers={"Host": host, "Origin": f"http://{host}"})
    _refused(response, 400, "Host")


def test_host_policy() -> None:
    loopback = HostPolicy("127.0.0.1", 8000)
    assert loopback.allows("127.0.0.1:8000") and loopback.allows("localhost:8000")
    assert loopback.allows("[::1]:8000") and loopback.allows("LOCALHOST:8000")
    assert not loopback.allows("127.0.0.1:8001") and not loopback.allows("127.0.0.1")
    assert not loopback.allows("192.168.1.9:8000") and not loopback.allows("evil:8000")
    everywhere = HostPolicy("0.0.0.0", 80)
    assert everywhere.allows("192.168.1.9") and everywhere.allows("192.168.1.9:80")
    assert everywhere.allows("[fe80::1]") and everywhere.allows("localhost")
    assert not everywhere.allows("mypc.lan") and not everywhere.allows("192.168.1.9:8000")
    named = HostPolicy("10.0.0.5", 8080)
    assert named.allows("10.0.0.5:8080") and not named.allows("10.0.0.6:8080")
    for broken in ("", ":", "a:b", "1.2.3.4:99999", "[zz]:80", "x:-1"):
        assert not everywhere.allows(broken), broken


PUBLIC = "https://cards.example.org"


def test_a_public_url_passes_host_and_origin_behind_a_proxy(deck: Deck) -> None:
    """``serve --public-url``: a TLS proxy passes the public name as Host (or its own
    loopback request's); the page's origin is the public URL's, and only that one."""
    hosts = HostPolicy("127.0.0.1", 8000, [PUBLIC, "https://kort.blåbær.no:8443/"])
    with client_for(deck, hosts=hosts) as client:
        for host in ("cards.example.org", "cards.example.org:443", "127.0.0.1:8000"):
            headers = {"Host": host, "Origin": PUBLIC}
            assert client.get("/api/setup", headers=headers).status_code == 200, host
            made = client.post("/api/games", json=GAME, headers=headers)
            assert made.status_code == 201, made.text
        punycode = {
            "Host": "kort.xn--blbr-roah.no:8443",
            "Origin": "https://kort.xn--blbr-roah.no:8443",
        }
        assert client.post("/api/games", json=GAME, headers=punycode).status_code == 201
        cases = [
            ({"Host": "cards.example.org", "Origin": "http://cards.example.org"}, 403, "Origin"),
            ({"Host": "cards.example.org", "Origin": "https://evil.example"}, 403, "Origin"),
            ({"Host": "cards.example.org:8443", "Origin": PUBLIC}, 400, "Host"),
            ({"Host": "evil.example", "Origin": PUBLIC}, 400, "Host"),
        ]
        for headers, status, words in cases:
            _refused(client.post("/api/games", json=GAME, headers=headers), status, words)
    assert "cards.example.org" in hosts.describe()


@pytest.mark.parametrize(
    ("url", "words"),
    [
        ("cards.example.org", "give the page's address"),
        ("ftp://cards.example.org", "give the page's address"),
        ("https://me:secret@cards.example.org", "user name"),
        ("https://cards.example.org/kraftstokk/", "root of its name"),
        ("https://cards.example.org/?x=1", "root of its name"),
        ("https://cards.example.org:99999", "not a URL"),
    ],
)
def test_a_public_url_that_names_no_page_is_refused(url: str, words: str) -> None:
    with pytest.raises(KraftstokkError) as caught:
        public_origin(url)
    assert words in caught.value.message and "--public-url" in caught.value.message


def test_games_against_experts_are_counted_per_client(deck: Deck) -> None:
    """New games and resumes against expert bots cost searches: each client has a bucket
    of them (a 429 in the page's language when empty); other games and clients go on."""
    now = [0.0]
    quota = ClientQuota(burst=2, refill_seconds=10, clock=lambda: now[0])
    expert = {**GAME, "game": "kraftidioten", "bots": "expert"}
    app = create_app(deck, key=TEST_KEY, allow_seed=True, quota=quota)
    near = TestClient(app, base_url=BASE, headers={"Origin": BASE}, client=("10.0.0.1", 5000))
    far = TestClient(app, base_url=BASE, headers={"Origin": BASE}, client=("10.0.0.2", 5000))
    with near, far:
        first = near.post("/api/games", json=expert)
        assert first.status_code == 201, first.text
        resumed = near.post("/api/games/resume", json={"save": first.json()["save"]})
        assert resumed.status_code == 200
        refused = near.post("/api/games/resume", json={"save": first.json()["save"]})
        assert refused.status_code == 429 and refused.headers["retry-after"] == "10"
        said = refused.json()["said"]
        assert set(said) == {"en", "nb", "nn"} and "10 s" in said["en"] and "vent" in said["nb"]
        assert near.post("/api/games", json=expert).status_code == 429
        assert near.post("/api/games", json=GAME).status_code == 201  # greedy bots: free
        assert far.post("/api/games", json=expert).status_code == 201  # another client
        now[0] += 10
        assert near.post("/api/games", json=expert).status_code == 201
        assert near.post("/api/games", json=expert).status_code == 429


def test_two_host_headers_are_refused(deck: Deck) -> None:
    app = create_app(deck, key=TEST_KEY)
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    scope = _scope("GET", "/api/setup", [(b"host", b"127.0.0.1:8000"), (b"host", b"evil.example")])
    asyncio.run(app(scope, receive, send))
    assert sent[0]["status"] == 400
    assert b"2 times" in sent[1]["body"]


def _scope(method: str, path: str, headers: list[tuple[bytes, bytes]]) -> dict[str, Any]:
    """An ASGI request as a server hands it over (for what a client library cannot send)."""
    return {
        "type": "http",
        "method": method,
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "headers": headers,
        "scheme": "http",
        "server": ("127.0.0.1", 8000),
        "client": ("127.0.0.1", 5000),
        "root_path": "",
        "http_version": "1.1",
        "asgi": {"version": "3.0"},
    }


def _requests(client: Any) -> list[Any]:
    game = new_game(client, "kraftidioten", 2, seed=4)
    url = f"/api/games/{game['id']}"
    return [
        client.get("/"),
        client.get("/api/setup"),
        client.get("/api/rules/nb"),
        client.get("/static/app.js"),
        client.get("/static/app.css"),
        client.get("/cards/spar-1.webp"),
        client.get("/cards/nope.webp"),
        client.get("/nowhere"),
        client.put("/api/games", json={}),
        client.get(url),
        client.post(f"{url}/moves", json={"turn": game["turn"], "move": 99}),
        client.post(
            "/api/games", content=b"x" * 600_000, headers={"content-type": "application/json"}
        ),
        client.post("/api/games", content=b"{}", headers={"content-type": "text/plain"}),
        client.get("/api/setup", headers={"Host": "evil.example"}),
        client.get("/api/setup", headers={"Origin": "http://evil.example"}),
        client.delete(url),
    ]


def test_every_answer_carries_the_security_headers(client: Any) -> None:
    for response in _requests(client):
        where = f"{response.request.method} {response.request.url.path} {response.status_code}"
        for name, value in SECURITY_HEADERS:
            assert response.headers.get(name.decode()) == value.decode(), where
        cache = response.headers["cache-control"]
        if response.request.url.path.startswith("/api/"):
            assert cache == "no-store", where
        assert "frame-ancestors 'none'" in response.headers["content-security-policy"]


def test_a_body_too_slow_gets_408_and_the_connection_closes(deck: Deck) -> None:
    app = create_app(deck, key=TEST_KEY, body_seconds=0.2)
    sent: list[dict[str, Any]] = []
    parts = [{"type": "http.request", "body": b'{"game":', "more_body": True}]

    async def receive() -> dict[str, Any]:
        if parts:
            return parts.pop()
        await asyncio.sleep(3600)  # the rest never comes
        raise AssertionError("unreachable")

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    headers = [
        (b"host", b"127.0.0.1:8000"),
        (b"origin", BASE.encode()),
        (b"content-type", b"application/json"),
    ]
    scope = _scope("POST", "/api/games", headers)
    asyncio.run(asyncio.wait_for(app(scope, receive, send), 30))
    assert sent[0]["status"] == 408
    assert (b"connection", b"close") in sent[0]["headers"]
    assert b"within 0.2 s" in sent[1]["body"]


# ------------------------------------------------------------------ real sockets


@pytest.fixture(scope="module", params=[GuardedProtocol, GuardedH11Protocol], ids=["served", "h11"])
def strict_server(request: pytest.FixtureRequest) -> Any:
    """The limits on uvicorn's protocol that ``serve`` uses (httptools) and on its fallback."""
    from tests.conftest import synthetic_deck

    app = create_app(synthetic_deck(), key=TEST_KEY)
    protocol = guarded_protocol(header_seconds=0.5, max_connections=8, base=request.param)
    with running_server(app, protocol) as url:
        yield url


def test_serve_parses_http_with_httptools() -> None:
    assert GuardedProtocol.__name__ == "GuardedHttpToolsProtocol"


def _address(url: str) -> tuple[str, int]:
    host, port = url.removeprefix("http://").rstrip("/").split(":")
    return host, int(port)


def _read_all(sock: socket.socket, limit: float = 20.0) -> bytes:
    sock.settimeout(limit)
    chunks = []
    while True:
        try:
            chunk = sock.recv(4096)
        except (ConnectionResetError, TimeoutError):
            break
        if not chunk:
            break
        chunks.append(chunk)
    return b"".join(chunks)


@pytest.mark.parametrize("sent", [b"", b"GET /api/setup HTTP/1.1\r\nHost: 127.0.0.1"])
def test_slow_headers_get_408_and_are_closed(strict_server: str, sent: bytes) -> None:
    with socket.create_connection(_address(strict_server)) as sock:
        sock.sendall(sent)
        answer = _read_all(sock)  # returns when the server closes (20 s at most)
    assert answer.startswith(b"HTTP/1.1 408"), answer
    assert b"not sent within 0.5 s" in answer


def test_idle_sockets_never_lock_the_player_out(strict_server: str) -> None:
    idle = [socket.create_connection(_address(strict_server)) for _ in range(30)]
    try:
        for _ in range(3):
            response = httpx.get(f"{strict_server}api/setup", timeout=20)
            assert response.status_code == 200
    finally:
        for sock in idle:
            sock.close()


@pytest.mark.parametrize("presses", [1, 2])
def test_ctrl_c_stops_serve_at_once_while_a_client_sends_slowly(
    deck: Deck, tmp_path: Path, presses: int
) -> None:
    """One Ctrl-C stops it cleanly; a second one (impatience) stops it as quietly."""
    serving, port = serve_process(deck, tmp_path)
    try:
        assert serving.stdout is not None
        lines = []
        for line in serving.stdout:
            lines.append(line)
            if "Ctrl-C stops" in line:
                break
        assert any(f"127.0.0.1:{port}" in line for line in lines), lines
        _wait_listening(port)
        slow = socket.create_connection(("127.0.0.1", port))
        head = (
            f"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
            f"Origin: http://127.0.0.1:{port}\r\nContent-Type: application/json\r\n"
            "Content-Length: 1000\r\n\r\n{"
        )
        slow.sendall(head.encode())
        idle = socket.create_connection(("127.0.0.1", port))
        time.sleep(0.3)  # the request has reached the app, which waits for the body
        serving.send_signal(signal.SIGINT)
        if presses == 2:
            time.sleep(0.1)
            if serving.poll() is None:
                serving.send_signal(signal.SIGINT)
        rest, _ = serving.communicate(timeout=60)
        slow.close()
        idle.close()
    finally:
        if serving.poll() is None:
            serving.kill()
            serving.wait()
    assert serving.returncode == 0, rest
    assert "stopped" in rest and "Traceback" not in rest, rest


def _wait_listening(port: int) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return
        except OSError:
            time.sleep(0.1)
    raise AssertionError(f"nothing listens on {port}")
