"""``kraftstokk serve`` speed: a move's round trip in server time, and 50 games at once.

1. Latency: whole games of each game through the app in this process; every answer's
   ``Server-Timing`` (the app's own time: the person's move, every computer move up to
   the person's next decision, and the JSON) is collected. Target: p99 <= 30 ms.
2. Load: the app on uvicorn on 127.0.0.1, 50 games played at once by 50 clients for
   30 seconds over loopback. Target: no error.

The person's moves are random legal ones; the computer plays ``heuristic``, the default
strength, with the largest tables each game allows at the start page.
"""

from __future__ import annotations

import asyncio
import random
import socket
import statistics
import threading
import time
from typing import Any

import httpx
from _common import default_deck

from kraftstokk.web.app import create_app
from kraftstokk.web.protocol import guarded_protocol
from kraftstokk.web.seal import SaveKey

TARGET_P99_MS = 30.0
GAMES_PER_KIND = 12
LOAD_GAMES = 50
LOAD_SECONDS = 30.0
SETUPS = (("idiot", 4), ("kraftidioten", 5), ("stromkrig", 5))


def choose(snapshot: dict[str, Any], cards: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """A random legal request; a Kraftidioten claim names the card's own plant."""
    moves = snapshot["moves"]
    body: dict[str, Any] = {"turn": snapshot["turn"], "log_after": 10**8}
    claim = moves["claim"]
    if claim and (not moves["list"] or rng.random() < 0.7):
        card = claim["fixed_card"] or rng.choice(claim["cards"])
        category = snapshot["view"]["category"] or rng.choice(claim["categories"])
        own = cards[card]
        floor = claim["floor"]
        if not own["joker"] and (floor is None or own["values"][category] >= floor):
            choice = {"card": card, "category": category, "plant_id": own["plant_id"]}
            return {**body, "claim": choice}
    return {**body, "move": rng.choice(moves["list"])["i"]}


def server_ms(response: httpx.Response) -> float:
    timing = response.headers["server-timing"]
    return float(timing.split("dur=")[1])


def latency() -> None:
    from starlette.testclient import TestClient

    base = "http://127.0.0.1:8000"  # the page's origin, as the guard wants it
    app = create_app(default_deck(), key=SaveKey.generate())
    client = TestClient(app, base_url=base, headers={"Origin": base})
    cards = {c["id"]: c for c in client.get("/api/setup").json()["cards"]}
    rng = random.Random(2026)
    every: list[float] = []
    for game, opponents in SETUPS:
        times: list[float] = []
        for number in range(GAMES_PER_KIND):
            body = {"game": game, "opponents": opponents, "bots": "heuristic", "seed": number}
            response = client.post("/api/games", json=body)
            snapshot = response.json()
            times.append(server_ms(response))
            while snapshot["over"] is None:
                response = client.post(
                    f"/api/games/{snapshot['id']}/moves", json=choose(snapshot, cards, rng)
                )
                response.raise_for_status()
                snapshot = response.json()
                times.append(server_ms(response))
        every += times
        print(
            f"web round trip {game} ({opponents + 1} seats): p50 {percentile(times, 50):.2f} ms, "
            f"p99 {percentile(times, 99):.2f} ms, max {max(times):.2f} ms "
            f"over {len(times)} moves of {GAMES_PER_KIND} games"
        )
    p99 = percentile(every, 99)
    verdict = "ok" if p99 <= TARGET_P99_MS else "TOO SLOW"
    print(
        f"web round trip, all games: p99 {p99:.2f} ms (target <= {TARGET_P99_MS:.0f} ms) {verdict}"
    )


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1)))]


async def _player(
    base: str, index: int, stop: float, cards: dict[str, Any], tally: dict[str, Any]
) -> None:
    rng = random.Random(index)
    game, opponents = SETUPS[index % len(SETUPS)]
    async with httpx.AsyncClient(base_url=base, timeout=30, headers={"Origin": base}) as client:
        while time.monotonic() < stop:
            body = {"game": game, "opponents": opponents, "bots": "heuristic", "seed": index}
            response = await client.post("/api/games", json=body)
            if response.status_code != 201:
                tally["errors"].append(f"{response.status_code} {response.text[:100]}")
                return
            snapshot = response.json()
            tally["requests"] += 1
            while snapshot["over"] is None and time.monotonic() < stop:
                began = time.perf_counter()
                response = await client.post(
                    f"/api/games/{snapshot['id']}/moves", json=choose(snapshot, cards, rng)
                )
                tally["client_ms"].append((time.perf_counter() - began) * 1000)
                tally["requests"] += 1
                if response.status_code != 200:
                    tally["errors"].append(f"{response.status_code} {response.text[:100]}")
                    return
                snapshot = response.json()
            tally["games"] += snapshot["over"] is not None


def load() -> None:
    import uvicorn

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    app = create_app(default_deck(), max_games=LOAD_GAMES * 2, key=SaveKey.generate())
    config = uvicorn.Config(
        app, host="127.0.0.1", port=port, log_level="warning", http=guarded_protocol()
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.05)
    base = f"http://127.0.0.1:{port}"
    cards = {c["id"]: c for c in httpx.get(f"{base}/api/setup").json()["cards"]}
    tally: dict[str, Any] = {"requests": 0, "games": 0, "errors": [], "client_ms": []}

    async def run() -> None:
        stop = time.monotonic() + LOAD_SECONDS
        await asyncio.gather(*(_player(base, i, stop, cards, tally) for i in range(LOAD_GAMES)))

    began = time.perf_counter()
    asyncio.run(run())
    elapsed = time.perf_counter() - began
    server.should_exit = True
    thread.join(timeout=10)
    waits = tally["client_ms"] or [0.0]
    verdict = "ok" if not tally["errors"] else f"ERRORS: {tally['errors'][:3]}"
    print(
        f"web load: {LOAD_GAMES} games at once for {elapsed:.0f} s over loopback: "
        f"{tally['requests']} requests ({tally['requests'] / elapsed:.0f}/s), "
        f"{tally['games']} games finished, {len(tally['errors'])} errors, "
        f"client wait median {statistics.median(waits):.1f} ms, "
        f"p99 {percentile(waits, 99):.1f} ms (target: no error) {verdict}"
    )


def main() -> None:
    latency()
    load()


if __name__ == "__main__":
    main()
