"""``kraftstokk serve`` speed, measured from outside: the server is its own process.

Each part starts ``kraftstokk serve`` (the real command, on a free 127.0.0.1 port, with
its key and card cache in a temporary folder) and drives it from this process, so the
clients never share the server's interpreter (they do share the machine's cores: each
load line says how much of a core the clients and the server used).

1. Latency (``--workers 1``, ``KRAFTSTOKK_SERVER_TIMING=1``, the only way the server
   says its time): whole games of each game; every answer's ``Server-Timing`` (the
   person's move, every computer move up to the person's next decision, the JSON).
   Target: p99 <= 10 ms.
2. Load (``--workers 2``): 50 games at once by 50 clients for 30 s over loopback, each
   request on a kept connection; a process that does not know a game gets the save with
   the move, as the page does. Two lines:

   - *paced*: each table waits :data:`THINK_SECONDS` (uniform, seeded per table) between
     an answer and its next move. The page shows every computer move for 0.7 s at its
     normal pace (``STEP_MS`` in ``static/app.js``), and these tables seat 5 or 6, so a
     round between two of the person's moves holds 4 or 5 computer moves: 2.8 s or more
     on screen before the person even starts to think. 0.5-1.5 s (1 s on average) is
     well below that: each table asks about three times as often as a person playing
     at the normal pace. Target: client p99 <= 100 ms, no error, with the machine at a
     load of 4 runnable tasks on two cores: busy processes make up what the machine's
     own load lacks (:class:`MachineLoad`), and the line reports the run queue's mean.
   - *saturated*: no think time, each answer sends the next move at once. A closed loop:
     by Little's law its wait is about 50 / throughput whatever the server does, so it
     is no player's wait; it is the server's capacity (requests/s, CPU per request),
     kept to show a regression in the server's cost. Target: no error, and at most
     :data:`TARGET_CPU_MS` of server CPU per request (half of what main c735429 took:
     CPU time grows with the machine's load, so compare on idle cores, or alternate
     with a copy of that commit).
3. Protocol: the CPU per request of ``serve``'s HTTP/1.1 layer (uvicorn's httptools
   protocol with the connection limits of ``web/protocol.py``) and of its h11 fallback,
   in this process with no network and no app work: a figure the machine's other load
   hardly moves, unlike the load lines.
4. First cards (when a ``chromium`` is on the PATH): a fresh server (empty cache), the
   page opened and Start pressed; the time until every card image of the table is drawn.
   Target: <= 1 s.
5. Resume: the CPU time of continuing a Kraftidioten game of some 150 actions against
   three expert bots from its save (``POST /api/games/resume`` less HTTP: the save read,
   the game rebuilt, the answer made and encoded, in this process): the save holds every
   action, so no bot is asked. Beside it the same
   game from a version-1 save (the person's moves only: the bots play again, searches
   and all, as every resume did before), and the same resume against heuristic bots.
   Target: <= 100 ms (it was 14.6 s).
6. Start: the CPU ``serve --workers 2`` takes to start, in all its processes, until every
   worker is ready and quiet (the card images in the cache). The workers are forked from
   the parent once it has made the app (``web/workers.py``). Target: <= 0.8 s.

The person's moves are random legal ones; the computer plays ``heuristic``, the default
strength, with the largest tables each game allows at the start page.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import os
import random
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import httpx
from _common import default_deck

from kraftstokk.games.view import ClaimChoice
from kraftstokk.web import launch
from kraftstokk.web.app import TIMING_SETTING as TIMING

TARGET_P99_MS = 10.0
TARGET_LOAD_P99_MS = 100.0
#: Server CPU per request on the saturated line: half of main c735429's 0.89 ms (issue 37,
#: item 2; measured alternating with a copy of that commit, load average 7-8).
BEFORE_CPU_MS = 0.89
TARGET_CPU_MS = BEFORE_CPU_MS / 2
TARGET_FIRST_CARDS_S = 1.0
GAMES_PER_KIND = 12
LOAD_GAMES = 50
LOAD_SECONDS = 30.0
LOAD_WORKERS = 2
THINK_SECONDS = (0.5, 1.5)  # between an answer and the next move (see the docstring)
TARGET_MACHINE_LOAD = 4.0  # runnable tasks on the machine while the paced line runs
SETUPS = (("idiot", 4), ("kraftidioten", 5), ("stromkrig", 5))


@dataclass(frozen=True)
class ServerProcess:
    base: str  # its URL, http://127.0.0.1:<port>
    pid: int


@contextlib.contextmanager
def serving(folder: Path, *options: str, timing: bool = False) -> Iterator[ServerProcess]:
    """``kraftstokk serve`` in its own process until it answers; stopped with Ctrl-C."""
    folder.mkdir(parents=True, exist_ok=True)
    deck = folder / "deck.json"
    if not deck.exists():
        deck.write_text(default_deck().model_dump_json(), encoding="utf-8")
    env = {TIMING: "1" if timing else ""}
    server, port = launch.serve_process(
        deck, folder, "--allow-seed", *options, env=env, stdout=subprocess.DEVNULL
    )
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
        yield ServerProcess(base, server.pid)
    finally:
        server.send_signal(signal.SIGINT)
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


LANG = "nb"  # the page's language (the default deck's): the log is told in it


def choose(
    snapshot: dict[str, Any], cards: dict[str, Any], rng: random.Random, after: int | None = None
) -> dict[str, Any]:
    """A random legal request, as the page sends it: the log lines after ``after`` (the
    last one the page has; None: after the latest of ``snapshot``) in its language. A
    Kraftidioten claim names the card's own plant."""
    moves = snapshot["moves"]
    if after is None:
        after = last_line(snapshot)
    body: dict[str, Any] = {"turn": snapshot["turn"], "log_after": after, "lang": LANG}
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


def last_line(snapshot: dict[str, Any], before: int = 0) -> int:
    """The number of the last log line the page has after this answer."""
    return max((line["n"] for line in snapshot["log"]), default=before)


def server_ms(response: httpx.Response) -> float:
    timing = response.headers["server-timing"]
    return float(timing.split("dur=")[1])


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1)))]


def latency(folder: Path) -> None:
    with (
        serving(folder, timing=True) as server,
        httpx.Client(base_url=server.base, headers={"Origin": server.base}, timeout=30) as client,
    ):
        cards = {c["id"]: c for c in client.get("/api/setup").json()["cards"]}
        rng = random.Random(2026)
        every: list[float] = []
        for game, opponents in SETUPS:
            times: list[float] = []
            for number in range(GAMES_PER_KIND):
                body = {
                    "game": game,
                    "opponents": opponents,
                    "bots": "heuristic",
                    "seed": number,
                    "lang": LANG,
                }
                response = client.post("/api/games", json=body)
                snapshot = response.json()
                times.append(server_ms(response))
                seen = last_line(snapshot)
                while snapshot["over"] is None:
                    move = choose(snapshot, cards, rng, seen)
                    response = client.post(f"/api/games/{snapshot['id']}/moves", json=move)
                    response.raise_for_status()
                    snapshot = response.json()
                    seen = last_line(snapshot, seen)
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


@dataclass
class Tally:
    """What the clients of one load run saw."""

    requests: int = 0
    games: int = 0
    resumed: int = 0
    errors: list[str] = field(default_factory=list)
    waits_ms: list[float] = field(default_factory=list)
    starts_ms: list[float] = field(default_factory=list)  # the new games' waits alone


async def _player(
    client: httpx.AsyncClient,
    index: int,
    stop: float,
    cards: dict[str, Any],
    tally: Tally,
    think: tuple[float, float] | None,
) -> None:
    """One person at one table: a game after another until ``stop``; ``think`` seconds
    (uniform, seeded by the table) pass between an answer and the next move."""
    rng = random.Random(index)
    try:
        await _play(client, index, stop, cards, tally, rng, think)
    except httpx.TransportError as exc:  # the server closed or reset the connection
        tally.errors.append(f"{type(exc).__name__} {exc}"[:100])


async def _play(
    client: httpx.AsyncClient,
    index: int,
    stop: float,
    cards: dict[str, Any],
    tally: Tally,
    rng: random.Random,
    think: tuple[float, float] | None,
) -> None:
    game, opponents = SETUPS[index % len(SETUPS)]

    async def pause() -> None:
        if think is not None:
            await asyncio.sleep(rng.uniform(*think))

    if think is not None:  # the tables open over the first pause, not all at one instant
        await asyncio.sleep(rng.uniform(0, think[1]))
    while time.monotonic() < stop:
        body = {
            "game": game,
            "opponents": opponents,
            "bots": "heuristic",
            "seed": index,
            "lang": LANG,
        }
        began = time.perf_counter()
        response = await client.post("/api/games", json=body)
        tally.waits_ms.append((time.perf_counter() - began) * 1000)
        tally.starts_ms.append(tally.waits_ms[-1])
        tally.requests += 1
        if response.status_code != 201:
            tally.errors.append(f"{response.status_code} {response.text[:100]}")
            return
        snapshot = response.json()
        seen = last_line(snapshot)
        while snapshot["over"] is None and time.monotonic() < stop:
            await pause()
            move = choose(snapshot, cards, rng, seen)
            began = time.perf_counter()
            response = await client.post(f"/api/games/{snapshot['id']}/moves", json=move)
            if response.status_code in (404, 409):  # another process: save and move
                tally.resumed += 1
                response = await client.post(
                    "/api/games/resume", json={"save": snapshot["save"], "then": move}
                )
            tally.waits_ms.append((time.perf_counter() - began) * 1000)
            tally.requests += 1
            if response.status_code != 200:
                tally.errors.append(f"{response.status_code} {response.text[:100]}")
                return
            snapshot = response.json()
            seen = last_line(snapshot, seen)
        tally.games += snapshot["over"] is not None
        await pause()  # the result read, "play again"


def tree_cpu_seconds(pid: int) -> float | None:
    """CPU seconds (user + system) used so far by process ``pid`` and all its descendants
    (``serve``'s supervisor and its workers); None where ``/proc`` cannot tell (not Linux)."""
    tick = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
    parents: dict[int, int] = {}
    used: dict[int, float] = {}
    try:
        entries = os.listdir("/proc")
    except OSError:
        return None
    for entry in entries:
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:  # gone meanwhile, or not ours to read
            continue
        fields = stat[stat.rindex(")") + 2 :].split()  # after "pid (name) "
        parents[int(entry)] = int(fields[1])
        used[int(entry)] = (int(fields[11]) + int(fields[12])) / tick
    if pid not in used:
        return None
    total = 0.0
    for process, seconds in used.items():
        chain = process
        while chain != pid and chain in parents and parents[chain] > 1:
            chain = parents[chain]
        if chain == pid:
            total += seconds
    return total


def runnable_tasks() -> int | None:
    """Tasks running or waiting for a core now (``procs_running`` of ``/proc/stat``, less
    the one reading it): what the load average averages. None where it cannot tell."""
    try:
        for line in Path("/proc/stat").read_text().splitlines():
            if line.startswith("procs_running "):
                return int(line.split()[1]) - 1
    except OSError:
        pass
    return None


class MachineLoad:
    """The machine at a load of about ``target`` runnable tasks while a line is measured:
    busy processes (a loop in Python each, the benchmark's children) make up what the
    machine's own load lacks, judged by sampling the run queue for 2 s before the run
    (the server and the clients add about half a task of their own); the queue is
    sampled every 0.1 s during the run, and its mean is what the line reports."""

    def __init__(self, target: float) -> None:
        self.target = target
        self.burners: list[subprocess.Popen[bytes]] = []
        self.samples: list[int] = []
        self._stop = threading.Event()
        self._sampler = threading.Thread(target=self._sample, daemon=True)

    def __enter__(self) -> MachineLoad:
        seen = []
        for _ in range(20):
            found = runnable_tasks()
            if found is None:
                return self
            seen.append(found)
            time.sleep(0.1)
        wanted = max(0, round(self.target - statistics.mean(seen) - 0.5))
        busy = [sys.executable, "-c", "while True: pass"]
        self.burners = [subprocess.Popen(busy) for _ in range(wanted)]
        self._sampler.start()
        return self

    def _sample(self) -> None:
        while not self._stop.wait(0.1):
            found = runnable_tasks()
            if found is not None:
                self.samples.append(found)

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        for burner in self.burners:
            burner.kill()
            burner.wait()

    def describe(self) -> str:
        if not self.samples:
            return "the run queue not sampled (no /proc/stat)"
        return (
            f"machine load: {statistics.mean(self.samples):.1f} runnable tasks on average "
            f"during the run (target {self.target:g}; {len(self.burners)} busy processes "
            f"added by the benchmark) on {os.cpu_count()} cores"
        )


def load(folder: Path, think: tuple[float, float] | None, machine: float | None = None) -> None:
    """50 tables at once on ``--workers 2`` for LOAD_SECONDS; one line of figures.

    ``think`` (seconds, low and high) paces every table; None is the saturated case.
    ``machine``: the run queue to hold the machine at meanwhile (:class:`MachineLoad`).
    """
    options = ("--workers", str(LOAD_WORKERS), "--max-games", str(LOAD_GAMES * 2))
    with serving(folder, *options) as server, MachineLoad(machine or 0) as busy:
        base = server.base
        cards = {c["id"]: c for c in httpx.get(f"{base}/api/setup").json()["cards"]}
        tally = Tally()

        async def run() -> tuple[float, float, float | None]:
            """The tables played; the seconds, the clients' CPU and the server's CPU."""
            async with contextlib.AsyncExitStack() as stack:
                # Made before the clock starts: each client's setup (its TLS context) is
                # tens of ms of this process's CPU, which would hold up the first answers.
                clients = [
                    await stack.enter_async_context(
                        httpx.AsyncClient(base_url=base, timeout=30, headers={"Origin": base})
                    )
                    for _ in range(LOAD_GAMES)
                ]
                gc.collect()  # this process's own collector pauses are no player's wait:
                gc.freeze()  # what it made to start is out of its sight while it measures
                server_before = tree_cpu_seconds(server.pid)
                client_before = time.process_time()
                began = time.perf_counter()
                stop = time.monotonic() + LOAD_SECONDS
                await asyncio.gather(
                    *(
                        _player(client, i, stop, cards, tally, think)
                        for i, client in enumerate(clients)
                    )
                )
                elapsed = time.perf_counter() - began
                client_cpu = time.process_time() - client_before
                server_after = tree_cpu_seconds(server.pid)
                gc.unfreeze()
            if server_before is None or server_after is None:
                return elapsed, client_cpu, None
            return elapsed, client_cpu, server_after - server_before

        elapsed, client_cpu, server_cpu = asyncio.run(run())
    load_average = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    waits = tally.waits_ms or [0.0]
    p99 = percentile(waits, 99)
    starts = tally.starts_ms or [0.0]
    if think is None:
        case = "saturated (no think time: each answer sends the next move at once)"
    else:
        case = f"paced (think {think[0]:g}-{think[1]:g} s between an answer and the next move)"
    if server_cpu is None:
        spent = "server CPU not measured (no /proc)"
    else:
        spent = (
            f"server {server_cpu / elapsed * 100:.0f}% of one core, "
            f"{server_cpu / max(tally.requests, 1) * 1000:.2f} ms CPU per request"
        )
    figures = (
        f"{tally.requests} requests ({tally.requests / elapsed:.0f}/s), {tally.games} games "
        f"finished, {tally.resumed} moves resumed on another process, {len(tally.errors)} "
        f"errors; client wait p50 {statistics.median(waits):.1f} ms, p99 {p99:.1f} ms, "
        f"max {max(waits):.1f} ms (new games: p99 {percentile(starts, 99):.1f} ms); "
        f"clients {client_cpu / elapsed * 100:.0f}% of one core, "
        f"{spent}; load average {load_average:.2f}"
    )
    if machine:
        figures += f"; {busy.describe()}"
    if think is None:  # a throughput figure: its wait is ~ LOAD_GAMES / throughput
        per_request = None if server_cpu is None else server_cpu / max(tally.requests, 1) * 1000
        cheap = per_request is None or per_request <= TARGET_CPU_MS  # None: no /proc
        verdict = "ok" if not tally.errors and cheap else f"FAILED: {tally.errors[:3] or 'dear'}"
        print(
            f"web load, {case}: {LOAD_GAMES} games, --workers {LOAD_WORKERS}: {figures} "
            f"(target: server CPU <= {TARGET_CPU_MS:.3f} ms per request, half of "
            f"{BEFORE_CPU_MS} ms before; no error) {verdict}"
        )
        return
    fine = not tally.errors and p99 <= TARGET_LOAD_P99_MS
    verdict = "ok" if fine else f"FAILED: {tally.errors[:3] or 'too slow'}"
    print(
        f"web load, {case}: {LOAD_GAMES} games at once, --workers {LOAD_WORKERS}: {figures} "
        f"(target p99 <= {TARGET_LOAD_P99_MS:.0f} ms, no error) {verdict}"
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
    with serving(folder) as server, sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=chromium, headless=True, args=["--no-sandbox", "--disable-gpu"]
        )
        page = browser.new_page(viewport={"width": 390, "height": 844}, bypass_csp=True)
        page.goto(server.base)
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


#: A move as the page sends it, and an answer of a move's size: the HTTP/1.1 layer alone.
MOVE_REQUEST = (
    b"POST /api/games/abcdefghijklmnopqrstuv/moves HTTP/1.1\r\nHost: 127.0.0.1:8000\r\n"
    b"Accept: */*\r\nAccept-Encoding: gzip, deflate\r\nConnection: keep-alive\r\n"
    b"Origin: http://127.0.0.1:8000\r\nContent-Type: application/json\r\n"
    b"Content-Length: 44\r\n\r\n" + b'{"turn": 12, "log_after": 100000, "move": 3}'
)
PROTOCOL_REQUESTS = 5_000


class _Loopback(asyncio.Transport):
    """A connection that takes every answer and drops it (the protocol's cost alone)."""

    def __init__(self) -> None:
        super().__init__()
        self.closing = False

    def write(self, data: Any) -> None:
        pass

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        ends = {"peername": ("127.0.0.1", 50000), "sockname": ("127.0.0.1", 8000)}
        return ends.get(name, default)

    def is_closing(self) -> bool:
        return self.closing

    def close(self) -> None:
        self.closing = True

    def pause_reading(self) -> None:
        pass

    def resume_reading(self) -> None:
        pass


def protocol() -> None:
    """CPU per request of ``serve``'s HTTP/1.1 protocol (httptools) and of its h11 fallback,
    in this process, a move's request in and a 10 kB answer out, on a kept connection."""
    from uvicorn.config import Config
    from uvicorn.server import ServerState

    from kraftstokk.web.protocol import GuardedH11Protocol, GuardedProtocol

    answer = json.dumps({"view": "x" * 9000, "moves": list(range(300))}).encode()

    async def app(scope: Any, receive: Any, send: Any) -> None:
        while (await receive()).get("more_body"):
            pass
        length = str(len(answer)).encode()
        headers = [(b"content-type", b"application/json"), (b"content-length", length)]
        await send({"type": "http.response.start", "status": 200, "headers": headers})
        await send({"type": "http.response.body", "body": answer})

    async def cost(kind: type[Any]) -> float:
        config = Config(app, log_level="warning", access_log=False)
        config.load()
        connection = kind(config=config, server_state=ServerState(), app_state={})
        connection.connection_made(_Loopback())
        for number in range(200 + PROTOCOL_REQUESTS):
            if number == 200:  # warmed up
                began = time.process_time()
            connection.data_received(MOVE_REQUEST)
            while not connection.waiting_for_request:
                await asyncio.sleep(0)
        return (time.process_time() - began) / PROTOCOL_REQUESTS * 1e6

    async def run() -> dict[str, list[float]]:
        kinds = {"served": GuardedProtocol, "h11": GuardedH11Protocol}
        costs: dict[str, list[float]] = {name: [] for name in kinds}
        for _ in range(3):  # alternated, so the machine's load falls on both alike
            for name, kind in kinds.items():
                costs[name].append(await cost(kind))
        return costs

    costs = asyncio.run(run())
    print(
        f"web protocol ({GuardedProtocol.__name__}): {min(costs['served']):.0f} µs CPU per "
        f"request (h11 fallback: {min(costs['h11']):.0f} µs), best of 3 x "
        f"{PROTOCOL_REQUESTS} requests"
    )


RESUME_ACTIONS = 150
TARGET_RESUME_MS = 100.0
RESUME_RUNS = 7


def resume() -> None:
    """CPU time of resuming a long Kraftidioten game against experts from its save."""
    from kraftstokk.web import catalogue
    from kraftstokk.web.saves import read_web_save
    from kraftstokk.web.seal import SaveKey
    from kraftstokk.web.sessions import GameStore, NewGame

    store = GameStore(default_deck(), SaveKey.generate())
    setup = {card["id"]: card for card in catalogue.cards(store)}
    figures: dict[str, list[float]] = {}
    for bots in ("expert", "heuristic"):
        rng = random.Random(7)
        session = store.create(NewGame("kraftidioten", 3, bots, (), seed=11))
        snapshot = store.snapshot(session, 10**8)
        while snapshot["over"] is None and len(session.actions) < RESUME_ACTIONS:
            request = choose(snapshot, setup, rng)
            claim = request.get("claim")
            choice = None if claim is None else ClaimChoice(**claim)
            store.move(session, request["turn"], request.get("move"), choice)
            snapshot = store.snapshot(session, 10**8)
        times = []
        for _ in range(RESUME_RUNS):
            began = time.process_time()
            save = read_web_save(snapshot["save"], store.key, store.digest)
            json.dumps(store.snapshot(store.resume(save), 0))  # the whole answer
            times.append((time.process_time() - began) * 1000)
        figures[bots] = times
        if bots == "expert":
            actions = len(session.actions)
            person = store.rebuild(save)
            old = replace(save, actions=(), prefix=0, redeals=(), moves=_persons(person, save))
            began = time.process_time()
            store.rebuild(old)
            before_ms = (time.process_time() - began) * 1000
    expert, heuristic = figures["expert"], figures["heuristic"]
    median = statistics.median(expert)
    verdict = "ok" if median <= TARGET_RESUME_MS else "TOO SLOW"
    print(
        f"web resume, Kraftidioten for 4 against three experts, {actions} actions: "
        f"{median:.1f} ms CPU (median of {RESUME_RUNS}, {min(expert):.1f}-{max(expert):.1f}; "
        f"target <= {TARGET_RESUME_MS:.0f} ms) {verdict}; against heuristic bots "
        f"{statistics.median(heuristic):.1f} ms; the same game from a version-1 save (the "
        f"bots play again, as before): {before_ms / 1000:.2f} s CPU"
    )


def _persons(session: Any, save: Any) -> tuple[tuple[int, ...], ...]:
    """The person's own actions of a rebuilt game: what a version-1 save held."""
    from kraftstokk.games.runner import replay

    state = replay(session.game, save.seed, ())
    mine = []
    for action in session.actions:
        if state.current_player() == session.seat:
            mine.append(action)
        state.apply(action)
    return tuple(mine)


START_WORKERS = 2
START_RUNS = 3
TARGET_START_CPU_S = 0.8


def start(folder: Path) -> None:
    """CPU of ``serve --workers 2`` to start, in all its processes: from the command to
    every worker ready and the processes quiet (no CPU used for 4 s in a row); the card
    images already in the cache, as at every start but the first."""
    options = ("--workers", str(START_WORKERS))
    with serving(folder, *options):
        pass  # the card cache filled
    used = []
    for _ in range(START_RUNS):
        with serving(folder, *options) as server:
            last = tree_cpu_seconds(server.pid)
            if last is None:
                print("web start: not measured (no /proc)")
                return
            quiet = 0
            while quiet < 4:
                time.sleep(1.0)
                now = tree_cpu_seconds(server.pid) or last
                quiet = quiet + 1 if now - last < 0.005 else 0
                last = now
            used.append(last)
    median = statistics.median(used)
    verdict = "ok" if median <= TARGET_START_CPU_S else "TOO SLOW"
    print(
        f"web start, serve --workers {START_WORKERS}: {median:.2f} s CPU in all its processes "
        f"(median of {START_RUNS}, {min(used):.2f}-{max(used):.2f}; target <= "
        f"{TARGET_START_CPU_S} s) {verdict}"
    )


PARTS = ("first_cards", "latency", "protocol", "paced", "saturated", "resume", "start")


def main(parts: Sequence[str] = PARTS) -> None:
    """Every part, or the ones named (``python benchmarks/bench_web.py paced saturated``)."""
    unknown = sorted(set(parts) - set(PARTS))
    if unknown:
        raise SystemExit(f"bench_web: no part {unknown[0]!r} (parts: {', '.join(PARTS)})")
    with tempfile.TemporaryDirectory(prefix="bench-web-") as temporary:
        folder = Path(temporary)
        if "first_cards" in parts:
            first_cards(folder / "fresh")  # an empty cache: drawn before the server listens
        if "latency" in parts:
            latency(folder)
        if "protocol" in parts:
            protocol()
        if "paced" in parts:
            load(folder, THINK_SECONDS, machine=TARGET_MACHINE_LOAD)
        if "saturated" in parts:
            load(folder, None)
        if "resume" in parts:
            resume()
        if "start" in parts:
            start(folder / "start")


if __name__ == "__main__":
    main(sys.argv[1:] or PARTS)
