"""Shared by the web app's tests: a client on the synthetic deck and whole games by API."""

from __future__ import annotations

import contextlib
import functools
import json
import random
import subprocess
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from starlette.testclient import TestClient

from kraftstokk.games.replay import make_replay
from kraftstokk.models import Deck
from kraftstokk.web import launch
from kraftstokk.web.app import create_app
from kraftstokk.web.record import unpack
from kraftstokk.web.seal import SaveKey

#: The address the test client plays the browser at, and the page's origin there.
BASE = "http://127.0.0.1:8000"
#: A fixed key: sealed saves are the same bytes run after run.
TEST_KEY = SaveKey(bytes(range(32)))


@functools.lru_cache(maxsize=16)
def page_setup(url: str) -> dict[str, Any]:
    """What the page at ``url`` starts from (games, cards, words), whichever table is
    behind it: ``serve``'s ``api/setup``, or the static edition's ``setup.json`` (in the
    folder its page names)."""
    import re

    import httpx

    served = httpx.get(f"{url}api/setup")
    if served.status_code == 200:
        found: dict[str, Any] = served.json()
        return found
    page = httpx.get(url).text
    folder = re.search(r'src="([^"]*)app\.js"', page)
    assert folder is not None, f"{url}: neither api/setup nor a static page"
    found = httpx.get(f"{url}{folder.group(1)}setup.json").json()
    return found


def client_for(deck: Deck, **options: Any) -> TestClient:
    """A client sending what the page sends (its Origin) to an app with the test key."""
    if "store" not in options:
        options.setdefault("key", TEST_KEY)
    options.setdefault("allow_seed", True)  # the tests deal from their seeds
    app = create_app(deck, **options)
    redeals = random.Random(20261205)
    app.state.store.fresh_seed = lambda: redeals.getrandbits(63)  # resumes deal alike each run
    return TestClient(
        app,
        base_url=BASE,
        headers={"Origin": BASE},
        raise_server_exceptions=True,
    )


def new_game(client: TestClient, game: str, opponents: int, seed: int, **extra: Any) -> Any:
    body = {"game": game, "opponents": opponents, "bots": "greedy", "seed": seed, **extra}
    response = client.post("/api/games", json=body)
    assert response.status_code == 201, response.text
    return response.json()


def next_request(
    snapshot: dict[str, Any], cards: dict[str, Any], rng: random.Random
) -> dict[str, Any]:
    """A random legal request for the person: a listed move or a claim (true or a lie)."""
    moves = snapshot["moves"]
    claim = moves["claim"]
    body: dict[str, Any] = {"turn": snapshot["turn"]}
    if claim and (not moves["list"] or rng.random() < 0.75):
        card = claim["fixed_card"] or rng.choice(claim["cards"])
        category = rng.choice(claim["categories"])
        choice = claim_body({"card": card, "category": category}, snapshot, cards, rng)
        if choice is not None:
            return {**body, "claim": choice}
    return {**body, "move": rng.choice(moves["list"])["i"]}


def claim_body(
    claim: dict[str, Any], snapshot: dict[str, Any], cards: dict[str, Any], rng: random.Random
) -> dict[str, Any] | None:
    """A claim request: the card's own plant, or (a lie) another plant that beats the floor."""
    card = claim["card"]
    category = claim["category"]
    floor = snapshot["moves"]["claim"]["floor"]
    options = [
        c
        for c in cards.values()
        if not c["joker"] and (floor is None or c["values"][category] >= floor)
    ]
    own = cards[card]
    if rng.random() < 0.5 and (floor is None or own["values"][category] >= floor):
        plant = own
    elif options:
        plant = rng.choice(options)
    else:
        return None
    return {"card": card, "category": category, "plant_id": plant["plant_id"]}


def sealed_content(save: dict[str, Any]) -> dict[str, Any]:
    """What a page's save holds (opened with the test key): its fields and ``actions``,
    every action of the game unpacked from its record."""
    head, _, record = TEST_KEY.open(save["sealed"]).partition(b"\0")
    content: dict[str, Any] = json.loads(head)
    content["actions"] = [list(a) for a in unpack(record, content["room"])]
    return content


def cards_of(client: TestClient) -> dict[str, Any]:
    return {card["id"]: card for card in client.get("/api/setup").json()["cards"]}


def play_through(
    client: TestClient,
    game: str,
    opponents: int,
    seed: int,
    stop_at: int | None = None,
    *,
    start: dict[str, Any] | None = None,
) -> list[dict[str, Any]]:
    """The answers of a game the person plays with random legal requests.

    Each request is drawn from a stream seeded by ``seed`` and the move counter, so a
    game resumed from its save (``start``: the answer to the resume) goes on with the
    requests the first game made.
    """
    cards = cards_of(client)
    snapshots = [start or new_game(client, game, opponents, seed)]
    while snapshots[-1]["over"] is None:
        current = snapshots[-1]
        if stop_at is not None and current["turn"] >= stop_at:
            break
        rng = random.Random(seed * 100_003 + current["turn"])
        response = client.post(
            f"/api/games/{current['id']}/moves", json=next_request(current, cards, rng)
        )
        assert response.status_code == 200, response.text
        snapshots.append(response.json())
    return snapshots


def plain_log(client: TestClient, game_id: str) -> dict[str, Any]:
    """The game so far as ``kraftstokk play --save`` would write it (from the server)."""
    store = client.app.state.store  # type: ignore[attr-defined]
    session = store.get(game_id)
    log = make_replay(store.deck, session.game, session.seat_names, session.seed, session.actions)
    data: dict[str, Any] = log.model_dump(mode="json")
    return data


@contextlib.contextmanager
def running_server(app: Any, http: Any = None) -> Iterator[str]:
    """Serve ``app`` with uvicorn on a free 127.0.0.1 port in a thread; yields its URL.

    ``http`` is the protocol class (``serve``'s guarded one by default).
    """
    import uvicorn

    from kraftstokk.web.protocol import guarded_protocol

    port = launch.free_port()
    config = uvicorn.Config(
        app,
        host="127.0.0.1",
        port=port,
        log_level="warning",
        http=http or guarded_protocol(),
        timeout_graceful_shutdown=3,
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 60
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the test server did not start")
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}/"
    finally:
        server.should_exit = True
        thread.join(timeout=20)


def serve_process(deck: Deck, folder: Path, *options: str) -> tuple[subprocess.Popen[str], int]:
    """``kraftstokk serve`` of ``deck`` in its own process on a free port (its key and card
    cache under ``folder``), its output piped as text; returns the process and the port."""
    path = folder / "deck.json"
    path.write_text(deck.model_dump_json(), encoding="utf-8")
    return launch.serve_process(
        path, folder, *options, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )
