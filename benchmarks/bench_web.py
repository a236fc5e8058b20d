"""``kraftstokk serve`` speed, measured from outside: the server is its own process.

Each part starts ``kraftstokk serve`` (the real command, on a free 127.0.0.1 port, with
its key and card cache in a temporary folder) and drives it from this process, so the
clients never share the server's interpreter.

1. Latency (``--workers 1``, ``KRAFTSTOKK_SERVER_TIMING=1``, the only way the server
   says its time): whole games of each game; every answer's ``Server-Timing`` (the
   person's move, every computer move up to the person's next decision, the JSON).
   Target: p99 <= 10 ms.
2. Load (``--workers 2``): 50 games at once by 50 clients for 30 s over loopback, each
   request on a kept connection; a process that does not know a game gets the save with
   the move, as the page does. Target: client p99 <= 100 ms, no error.
3. First cards (when a ``chromium`` is on the PATH): a fresh server (empty cache), the
   page opened and Start pressed; the time until every card image of the table is drawn.
   Target: <= 1 s.

The person's moves are random legal ones; the computer plays ``heuristic``, the default
strength, with the largest tables each game allows at the start page.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
from _common import default_deck

TARGET_P99_MS = 10.0
TARGET_LOAD_P99_MS = 100.0
TARGET_FIRST_CARDS_S = 1.0
GAMES_PER_KIND = 12
LOAD_GAMES = 50
LOAD_SECONDS = 30.0
LOAD_WORKERS = 2
SETUPS = (("idiot", 4), ("kraftidioten", 5), ("stromkrig", 5))


@contextlib.contextmanager
def serving(folder: Path, *options: str, timing: bool = False) -> Iterator[str]:
    """``kraftstokk serve`` in its own process; yields its URL, stops it with Ctrl-C."""
    folder.mkdir(parents=True, exist_ok=True)
    deck = folder / "deck.json"
    if not deck.exists():
        deck.write_text(default_deck().model_dump_json(), encoding="utf-8")
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    env = {
        **os.environ,
        "KRAFTSTOKK_DATA_DIR": str(folder / "data"),
        "KRAFTSTOKK_CACHE_DIR": str(folder / "cache"),
    }
    env.pop("KRAFTSTOKK_SERVER_TIMING", None)
    if timing:
        env["KRAFTSTOKK_SERVER_TIMING"] = "1"
    command = [sys.executable, "-c", "from kraftstokk.cli import main; main()", "serve"]
    command += [str(deck), "--port", str(port), *options]
    server = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                if httpx.get(f"{base}/api/setup", timeout=5).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if time.monotonic() > deadline or server.poll() is not None:
                raise RuntimeError(f"kraftstokk serve {' '.join(options)} did not start")
            time.sleep(0.1)
        yield base
    finally:
        server.send_signal(signal.SIGINT)
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


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


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1)))]


def latency(folder: Path) -> None:
    with (
        serving(folder, timing=True) as base,
        httpx.Client(base_url=base, headers={"Origin": base}, timeout=30) as client,
    ):
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
                f"web round trip {game} ({opponents + 1} seats): "
                f"p50 {percentile(times, 50):.2f} ms, p99 {percentile(times, 99):.2f} ms, "
                f"max {max(times):.2f} ms over {len(times)} moves of {GAMES_PER_KIND} games"
            )
    p99 = percentile(every, 99)
    verdict = "ok" if p99 <= TARGET_P99_MS else "TOO SLOW"
    print(
        f"web round trip, all games: p99 {p99:.2f} ms (target <= {TARGET_P99_MS:.0f} ms) {verdict}"
    )


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
                move = choose(snapshot, cards, rng)
                began = time.perf_counter()
                response = await client.post(f"/api/games/{snapshot['id']}/moves", json=move)
                if response.status_code in (404, 409):  # another process: save and move
                    tally["resumed"] += 1
                    response = await client.post(
                        "/api/games/resume", json={"save": snapshot["save"], "then": move}
                    )
                tally["client_ms"].append((time.perf_counter() - began) * 1000)
                tally["requests"] += 1
                if response.status_code != 200:
                    tally["errors"].append(f"{response.status_code} {response.text[:100]}")
                    return
                snapshot = response.json()
            tally["games"] += snapshot["over"] is not None


def load(folder: Path) -> None:
    options = ("--workers", str(LOAD_WORKERS), "--max-games", str(LOAD_GAMES * 2))
    with serving(folder, *options) as base:
        cards = {c["id"]: c for c in httpx.get(f"{base}/api/setup").json()["cards"]}
        tally: dict[str, Any] = {
            "requests": 0,
            "games": 0,
            "resumed": 0,
            "errors": [],
            "client_ms": [],
        }

        async def run() -> None:
            stop = time.monotonic() + LOAD_SECONDS
            players = (_player(base, i, stop, cards, tally) for i in range(LOAD_GAMES))
            await asyncio.gather(*players)

        began = time.perf_counter()
        asyncio.run(run())
        elapsed = time.perf_counter() - began
    waits = tally["client_ms"] or [0.0]
    p99 = percentile(waits, 99)
    fine = not tally["errors"] and p99 <= TARGET_LOAD_P99_MS
    verdict = "ok" if fine else f"FAILED: {tally['errors'][:3] or 'too slow'}"
    print(
        f"web load: {LOAD_GAMES} games at once for {elapsed:.0f} s, --workers {LOAD_WORKERS}: "
        f"{tally['requests']} requests ({tally['requests'] / elapsed:.0f}/s), "
        f"{tally['games']} games finished, {tally['resumed']} moves resumed on another "
        f"process, {len(tally['errors'])} errors, client wait median "
        f"{statistics.median(waits):.1f} ms, p99 {p99:.1f} ms "
        f"(target <= {TARGET_LOAD_P99_MS:.0f} ms, no error) {verdict}"
    )


def first_cards(folder: Path) -> None:
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        chromium = None
    if chromium is None:
        print("web first cards: skipped (no chromium or no playwright)")
        return
    with serving(folder) as base, sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=chromium, headless=True, args=["--no-sandbox", "--disable-gpu"]
        )
        page = browser.new_page(viewport={"width": 390, "height": 844}, bypass_csp=True)
        page.goto(base)
        page.wait_for_selector("#start:not([hidden])")
        page.check("input[name=game][value=stromkrig]")
        began = time.perf_counter()
        page.click("#setup button[type=submit]")
        page.wait_for_selector("#table:not([hidden])")
        page.wait_for_function(
            "[...document.querySelectorAll('#table img')].length > 0 && "
            "[...document.querySelectorAll('#table img')]"
            ".every((img) => img.complete && img.naturalWidth > 0)",
            polling=10,
        )
        took = time.perf_counter() - began
        browser.close()
    verdict = "ok" if took <= TARGET_FIRST_CARDS_S else "TOO SLOW"
    print(
        f"web first cards: every card image of the first table drawn {took:.2f} s after "
        f"Start on a fresh server (target <= {TARGET_FIRST_CARDS_S:.0f} s) {verdict}"
    )


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="bench-web-") as temporary:
        folder = Path(temporary)
        first_cards(folder / "fresh")  # an empty cache: drawn before the server listens
        latency(folder)
        load(folder)


if __name__ == "__main__":
    main()
