"""The static edition's budgets (issue 39.1), measured in Chromium on an export of the deck.

1. Bundle: the folder's bytes on disk (target at most 16 MB), and gzip'd (what a host that
   compresses, GitHub Pages say, sends).
2. Start to table: from opening the address to the table on screen after Start (Idiot,
   three heuristic opponents, Start clicked as soon as the start page shows), cold (a
   fresh browser profile) over a line throttled to 20 Mbit/s with 20 ms a request (target
   at most 5 s), both as http.server sends the files (no compression: the folder's
   runtime is packed, ``export.PACKED``) and gzip'd; then from the cache (the service
   worker's, the second visit, target at most 3 s), and a visit after that (Chromium then
   has the wasm module's compiled code). The worker's own steps are printed beside: the
   runtime's loader here, Python up, engine imported (ms since the worker began).
3. A move against heuristic bots, view and narration included, over whole games of Idiot
   for 5, Kraftidioten for 6, Strømkrig for 4 (``RUNS`` times, each in a fresh browser
   profile, the moves of all runs together; each run's p99 beside, the third-slowest of
   its 211 moves): the page's own time (target p99 at most
   16 ms, a frame): the request to the worker, the engine's answer (every bot move up to
   the person's next decision, told), and the page drawing it with its layout. The
   answer's save is sealed after the answer is sent and follows in a message of its own
   (the page draws meanwhile): the time from the request to the sealed save is printed
   beside.
   Beside it the round trip as Chromium schedules it, and the part of it the answer waits
   for the frame after the click: Chromium runs none of a page's tasks after a click or a
   key until it has drawn the next frame (DeferRendererTasksAfterInput, on by default), so
   a worker's answer to a click waits up to a frame whatever the page does (an empty
   worker's echo is measured beside as the floor).
4. An expert decision in the page: Pyodide in a worker, the page's own budget (its playout
   rate measured at start, ``inpage.EXPERT_MS``), each decision of an expert against three
   heuristic bots timed (target p99 at most 300 ms); the playouts per decision found.
5. Strength at that budget: the expert with the page's playouts, and with
   ``REFERENCE_PLAYOUTS`` (what a page on an idle machine gives it), one against three
   heuristic bots as ``bench_expert.py`` measures the server's (the same games, natively: a
   seeded expert decides the same with the same playouts anywhere), beside the server's
   hardest level's playouts.

Medians and ranges of ``RUNS`` runs. Wall times in the browser, so the machine's load
(printed) slows them; beside them the CPU seconds of the browser and of the engine's
thread (the Web Worker: the start's critical path), which other work on a shared machine
does not inflate.

    .venv/bin/python benchmarks/bench_static.py [--runs 3] [--games 60] [--only starts moves]
"""

from __future__ import annotations

import argparse
import contextlib
import gzip
import http.server
import json
import os
import shutil
import socketserver
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Iterator, Sequence
from functools import partial
from pathlib import Path
from typing import Any, ClassVar

from _common import default_deck

from kraftstokk.web.export import export_web

RUNS = 3
LINE_BYTES_PER_S = 20_000_000 / 8  # 20 Mbit/s
LATENCY_S = 0.020  # per request, as a throttled browser profile adds
COMPRESSIBLE = (".html", ".js", ".mjs", ".css", ".json", ".wasm", ".webmanifest")
START_TARGET_S, CACHED_TARGET_S = 5.0, 3.0
MOVE_TARGET_MS, EXPERT_TARGET_MS = 16.0, 300.0
BUDGET_BYTES = 16_000_000  # the bundle budget on disk: 16 MB
#: Whole games for the move round trips (the issue's tables).
TABLES = (("idiot", 4), ("kraftidioten", 5), ("stromkrig", 3))
#: Expert games per game in the page (each decision timed), and for the strength.
PAGE_GAMES = 3
STRENGTH_GAMES = {"idiot": 200, "kraftidioten": 150, "stromkrig": 100}
#: The expert's budget in a page on an idle machine (the issue's spike: about 100 playouts
#: fit in 300 ms; this page gives it 150 ms): its strength is measured there too.
REFERENCE_PLAYOUTS = (100,)
HERE = Path(__file__).resolve().parent
PARTS = ("starts", "moves", "experts", "strength")

INSTANT = "localStorage.setItem('kraftstokk.table', JSON.stringify({speed: 'instant'}))"
RECORD = """
// [operation, round trip, the page's own time, waited for a frame, drawing], in ms
window.timings = [];
window.requests = [];
window.saves = [];  // a move's save, sealed after its answer: ms from the request to it
const clock = () => performance.timeOrigin + performance.now();
let drawing = null;  // the answer the page is drawing: [operation, sent, took, arrived]
// The page has drawn an answer when it marks the turn on <body> (the end of renderTable),
// its layout done (forced here, at once, rather than in the next frame).
new MutationObserver(() => {
  if (!drawing) return;
  const [op, sent, took, arrived] = drawing;
  drawing = null;
  void document.body.offsetHeight;
  const drawn = clock();
  const own = took[1] - sent + (drawn - arrived);
  window.timings.push([op, arrived - sent, own, arrived - took[1], drawn - arrived]);
}).observe(document, { attributes: true, attributeFilter: ["data-turn"], subtree: true });
const NativeWorker = window.Worker;
window.Worker = class extends NativeWorker {
  constructor(...args) {
    super(...args);
    const sent = new Map();
    this.sent = sent;
    this.addEventListener("message", (event) => {
      const at = sent.get(event.data.id);
      if (event.data.id === 0) window.started = event.data.body.started;
      if (at && event.data.status === undefined) window.saves.push(clock() - at[0]);
      if (at && event.data.took) drawing = [at[1], at[0], event.data.took, clock()];
    });
  }
  postMessage(message) {
    if (message.op !== "start") window.requests.push(message);
    this.sent.set(message.id, [clock(), message.op]);
    return super.postMessage(message);
  }
};
"""

#: A worker that only answers, and a button that asks it: what a click's answer from any
#: worker waits in this browser before the page may run it (Chromium defers every task
#: after a click or a key until the next frame is drawn: DeferRendererTasksAfterInput).
ECHO_PAGE = """<!doctype html><title>echo</title><button id="ask">ask</button><script>
const worker = new Worker(URL.createObjectURL(new Blob(["onmessage = () => postMessage(0)"])));
window.echoes = [];
let sent = 0;
worker.onmessage = () => window.echoes.push(performance.now() - sent);
document.getElementById("ask").onclick = () => { sent = performance.now(); worker.postMessage(0); };
</script>"""

#: The expert's decisions in Pyodide, as the page makes its budget: run by a worker of the
#: bench page with the folder's runtime and engine.
EXPERT_IN_PAGE = """
import json, random, time
from kraftstokk.games import registry
from kraftstokk.games.runner import play_game
from kraftstokk.games.search import ExpertBot
from kraftstokk.web.inpage import PageTable
clock = time.process_time if CPU else time.perf_counter  # CPU: in CPython, by CPU time
table = PageTable(json.loads(deck_text), clock=clock)
found = {}
for name in ("idiot", "kraftidioten", "stromkrig"):
    game = registry.make_game(name, table.table, 4)
    playouts = table.expert_playouts(game)
    times = []
    for number in range(GAMES):
        bots = registry.make_bots(game, "heuristic")
        expert = registry.make_bots(game, f"expert:playouts={playouts}")[0]
        class Timed:
            def act(self, observation, legal, rng, expert=expert):
                began = clock()
                action = expert.act(observation, legal, rng)
                if len(legal) > 1:
                    times.append((clock() - began) * 1000)
                return action
        bots[number % 4] = Timed()
        play_game(game, bots, 1000 + number, native=False)
    found[name] = {"playouts": playouts, "times": times}
json.dumps(found)
"""

BENCH_WORKER = """
self.onmessage = async ({ data }) => {
  const { loadRuntime } = await import(data.app + "runtime.js");
  const py = await loadRuntime(data.runtime, { env: { KRAFTSTOKK_PURE_PYTHON: "1" } });
  const engine = await (await fetch(data.engine)).arrayBuffer();
  py.unpackArchive(engine, "zip", { extractDir: "/engine" });
  py.runPython("import sys; sys.path.insert(0, '/engine')");
  py.globals.set("deck_text", await (await fetch(data.deck)).text());
  py.globals.set("GAMES", data.games);
  py.globals.set("CPU", false);
  self.postMessage(py.runPython(data.code));
};
"""


class Line:
    """One shared line: at most ``rate`` bytes a second for every connection together."""

    def __init__(self, rate: float) -> None:
        self.rate = rate
        self.lock = threading.Lock()
        self.free_at = time.monotonic()

    def send(self, out: Any, data: bytes) -> None:
        for start in range(0, len(data), 16_384):
            chunk = data[start : start + 16_384]
            with self.lock:
                now = time.monotonic()
                self.free_at = max(self.free_at, now) + len(chunk) / self.rate
                wait = self.free_at - now
            if wait > 0:
                time.sleep(wait)
            out.write(chunk)


class Handler(http.server.SimpleHTTPRequestHandler):
    line: Line | None = None
    compress = False
    zipped: ClassVar[dict[str, bytes]] = {}

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def do_GET(self) -> None:
        time.sleep(LATENCY_S)
        path = Path(self.translate_path(self.path))
        if not path.is_file():
            super().do_GET()
            return
        data = path.read_bytes()
        headers = {"Content-Type": self.guess_type(str(path)), "Cache-Control": "no-cache"}
        if (
            self.compress
            and path.suffix in COMPRESSIBLE
            and "gzip" in self.headers.get("Accept-Encoding", "")
        ):
            key = str(path)
            if key not in self.zipped:
                self.zipped[key] = gzip.compress(data, 6)
            data = self.zipped[key]
            headers["Content-Encoding"] = "gzip"
        self.send_response(200)
        for name, value in headers.items():
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        try:
            if self.line is None:
                self.wfile.write(data)
            else:
                self.line.send(self.wfile, data)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the page went away (a run ends as soon as its table shows)


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True


@contextlib.contextmanager
def serving(folder: Path, *, throttle: bool, compress: bool) -> Iterator[str]:
    handler = type(
        "Throttled",
        (Handler,),
        {"line": Line(LINE_BYTES_PER_S) if throttle else None, "compress": compress, "zipped": {}},
    )
    server = Server(("127.0.0.1", 0), partial(handler, directory=str(folder)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


def spread(values: Sequence[float], unit: str, digits: int = 2) -> str:
    return (
        f"median {statistics.median(values):.{digits}f} {unit} "
        f"(range {min(values):.{digits}f}-{max(values):.{digits}f}, {len(values)} runs)"
    )


def percentile(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def bundle(folder: Path) -> None:
    files = [p for p in folder.rglob("*") if p.is_file()]
    size = sum(p.stat().st_size for p in files)
    zipped = sum(
        len(gzip.compress(p.read_bytes(), 6)) if p.suffix in COMPRESSIBLE else p.stat().st_size
        for p in files
    )
    verdict = "met" if size <= BUDGET_BYTES else "NOT met"
    print(
        f"static bundle: {size / 1e6:.2f} MB on disk in {len(files)} files, {zipped / 1e6:.1f} MB "
        f"sent gzip'd (target at most {BUDGET_BYTES / 1e6:.1f} MB on disk: {verdict})",
        flush=True,
    )


def _descendants(root: int) -> list[int]:
    parents = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            with contextlib.suppress(OSError):
                stat = Path(f"/proc/{entry}/stat").read_text()
                parents[int(entry)] = int(stat[stat.rindex(")") + 2 :].split()[1])
    found = []
    for pid in parents:
        chain = pid
        while chain in parents and chain != root and parents[chain] > 1:
            chain = parents[chain]
        if chain == root and pid != root:
            found.append(pid)
    return found


def engine_threads() -> dict[tuple[int, str], float]:
    """CPU seconds so far of each of the browser's Web Worker threads (the engine's:
    Pyodide starting, the engine importing, the games played): the start's critical path,
    which the machine's other work slows down in wall time but not in CPU."""
    tick = os.sysconf("SC_CLK_TCK")
    found: dict[tuple[int, str], float] = {}
    for pid in _descendants(os.getpid()):
        with contextlib.suppress(OSError):
            for thread in os.listdir(f"/proc/{pid}/task"):
                with contextlib.suppress(OSError):
                    if (
                        Path(f"/proc/{pid}/task/{thread}/comm")
                        .read_text()
                        .startswith("DedicatedWorker")
                    ):
                        stat = Path(f"/proc/{pid}/task/{thread}/stat").read_text()
                        fields = stat[stat.rindex(")") + 2 :].split()
                        found[pid, thread] = (int(fields[11]) + int(fields[12])) / tick
    return found


def engine_cpu_since(before: dict[tuple[int, str], float]) -> float:
    """The worker threads' CPU since ``before`` (threads ended meanwhile not counted)."""
    return sum(cpu - before.get(thread, 0.0) for thread, cpu in engine_threads().items())


def browser_cpu() -> float:
    """CPU seconds so far of the browser's processes (this process's children, less this
    process: the throttled server's threads)."""
    from bench_web import tree_cpu_seconds

    return (tree_cpu_seconds(os.getpid()) or 0.0) - time.process_time()


def to_table(page: Any, url: str) -> tuple[float, float, float, dict[str, float]]:
    """Open ``url``, Start as soon as the page lets one: seconds to the table, the
    browser's and the engine thread's CPU seconds meanwhile, and the worker's own steps
    (ms since it began)."""
    cpu, engine = browser_cpu(), engine_threads()
    page.goto(f"{url}?seed=7")
    page.wait_for_selector("#start:not([hidden])", timeout=180_000)
    page.uncheck("#keep-save")  # nothing kept: a later visit is asked nothing either
    page.click("#setup button[type=submit]")
    page.wait_for_selector("#table:not([hidden])", timeout=180_000)
    shown = page.evaluate("performance.now()") / 1000
    steps = page.evaluate("window.started || {}")
    return shown, browser_cpu() - cpu, engine_cpu_since(engine), steps


def starts(browser: Any, folder: Path, runs: int) -> None:
    """Cold and cached starts, as http.server sends the files and gzip'd."""
    import tests.test_web_static as page_tests

    for compress in (False, True):
        how = "gzip'd" if compress else "as http.server sends it"
        cold, cached, steps, cold_cpu, cached_cpu = [], [], [], [], []
        cold_engine, cached_engine, later = [], [], []
        with serving(folder, throttle=True, compress=compress) as url:
            for _ in range(runs):
                context = browser.new_context(bypass_csp=True)
                context.add_init_script(RECORD)
                context.add_init_script(INSTANT)
                page = context.new_page()
                seconds, cpu, engine, worker = to_table(page, url)
                cold.append(seconds)
                cold_cpu.append(cpu)
                cold_engine.append(engine)
                steps.append(worker)
                page_tests.wait_kept(page, folder)
                page.close()
                page = context.new_page()
                seconds, cpu, engine, _ = to_table(page, url)
                cached.append(seconds)
                cached_cpu.append(cpu)
                cached_engine.append(engine)
                page.close()
                later.append(to_table(context.new_page(), url)[0])
                context.close()
        step_text = ", ".join(
            f"{name} {statistics.median(s[name] for s in steps) / 1000:.2f} s"
            for name in ("fetched", "python", "engine")
            if all(name in s for s in steps)
        )
        print(
            f"static start to table, cold at 20 Mbit/s, {how}: {spread(cold, 's')} "
            f"(target at most {START_TARGET_S:g} s: "
            f"{'met' if statistics.median(cold) <= START_TARGET_S else 'NOT met'}); "
            f"CPU meanwhile: the browser {spread(cold_cpu, 's')}, the engine's thread "
            f"{spread(cold_engine, 's')}; the worker's steps: {step_text}",
            flush=True,
        )
        print(
            f"static start to table from the cache ({how} the first time): "
            f"{spread(cached, 's')} (target at most {CACHED_TARGET_S:g} s: "
            f"{'met' if statistics.median(cached) <= CACHED_TARGET_S else 'NOT met'}); "
            f"CPU meanwhile: the browser {spread(cached_cpu, 's')}, the engine's thread "
            f"{spread(cached_engine, 's')}; a visit after that (the wasm module's compiled "
            f"code kept by the browser): {spread(later, 's')}",
            flush=True,
        )


def echo_after_click(browser: Any, folder: Path, clicks: int = 60) -> str:
    """How long an empty worker's answer to a click takes to reach the page (p50, p99)."""
    (folder / "bench-echo.html").write_text(ECHO_PAGE, encoding="utf-8")
    with serving(folder, throttle=False, compress=False) as url:
        page = browser.new_context().new_page()
        page.goto(f"{url}bench-echo.html")
        for _ in range(clicks):
            page.click("#ask")
            page.wait_for_timeout(40)
        echoes: list[float] = page.evaluate("window.echoes")
        page.context.close()
    return f"p50 {percentile(echoes, 0.5):.1f} ms, p99 {percentile(echoes, 0.99):.1f} ms"


def moves(browser: Any, folder: Path, runs: int = 1) -> None:
    """The three whole games ``runs`` times, each run in a fresh browser profile (as one run
    always was): the figures of all their moves together, and each run's p99 beside."""
    import tests.test_web_static as page_tests

    timings: list[list[Any]] = []
    requests: list[dict[str, Any]] = []
    saves: list[float] = []
    engine = 0.0
    run_p99: list[float] = []
    with serving(folder, throttle=False, compress=False) as url:
        for run in range(runs):
            context = browser.new_context(bypass_csp=True)
            context.add_init_script(RECORD)
            context.add_init_script(INSTANT)
            page = context.new_page()
            page.set_default_timeout(180_000)
            page.goto(url)
            found: list[list[Any]] = []
            for number, (game, opponents) in enumerate(TABLES):
                if number:
                    found.extend(page.evaluate("window.timings"))
                    if not run:  # the same requests each run: replayed once
                        requests.extend(page.evaluate("window.requests"))
                    saves.extend(page.evaluate("window.saves"))
                page.goto(f"{url}?seed={80 + number}")
                page.wait_for_selector("#start:not([hidden])")
                page.check(f"input[name=game][value={game}]")
                page.select_option("#opponents", str(opponents))
                page.select_option("#strength", "heuristic")
                page.click("#setup button[type=submit]")
                page.wait_for_selector("#table:not([hidden])")
                before = engine_threads()
                for _ in range(1500):
                    if page.locator("#over").is_visible():
                        break
                    page_tests.play_sensibly(page)
                engine += engine_cpu_since(before)
            found.extend(page.evaluate("window.timings"))
            if not run:
                requests.extend(page.evaluate("window.requests"))
            saves.extend(page.evaluate("window.saves"))
            context.close()
            timings.extend(found)
            run_p99.append(percentile([row[2] for row in found if row[0] == "move"], 0.99))
    moved = [row for row in timings if row[0] == "move"]
    own, drawn = [row[2] for row in moved], [row[4] for row in moved]
    print(
        f"static move against heuristic bots, the page's own time (the request to the worker, "
        f"the engine's answer with view and narration, and the page drawing it, layout "
        f"included): p50 {percentile(own, 0.5):.1f} ms, p99 {percentile(own, 0.99):.1f} ms, "
        f"max {max(own):.1f} ms over {len(own)} moves of {len(TABLES) * runs} whole games "
        f"({runs} runs; each run's p99: {spread(run_p99, 'ms', 1)}) (target p99 "
        f"at most {MOVE_TARGET_MS:g} ms: "
        f"{'met' if percentile(own, 0.99) <= MOVE_TARGET_MS else 'NOT met'}); of it the page "
        f"drawing the answer: p50 {percentile(drawn, 0.5):.1f} ms, p99 "
        f"{percentile(drawn, 0.99):.1f} ms; the engine's thread's CPU, all requests: "
        f"{engine * 1000 / max(len(own), 1):.1f} ms a move; the save, sealed after the answer "
        f"was sent, in the page {percentile(saves, 0.5):.1f} ms (p50) and "
        f"{percentile(saves, 0.99):.1f} ms (p99) after the request ({len(saves)} saves)",
        flush=True,
    )
    trip, waited = [row[1] for row in moved], [row[3] for row in moved]
    print(
        f"static move, the round trip as Chromium schedules it (from the click's request to "
        f"the answer's message in the page): p50 {percentile(trip, 0.5):.1f} ms, p99 "
        f"{percentile(trip, 0.99):.1f} ms, max {max(trip):.1f} ms; of it the answer waiting "
        f"for the frame after the click (Chromium defers a page's tasks after a click or a key "
        f"until it has drawn the next frame, DeferRendererTasksAfterInput): p50 "
        f"{percentile(waited, 0.5):.1f} ms, p99 {percentile(waited, 0.99):.1f} ms; an empty "
        f"worker's answer to a click waits the same here: {echo_after_click(browser, folder)}",
        flush=True,
    )
    cpu = replayed_cpu(folder, requests)
    print(
        f"static move against heuristic bots, the same requests in pure CPython (CPU of the "
        f"engine's answer): p50 {percentile(cpu, 0.5):.2f} ms, p99 {percentile(cpu, 0.99):.2f} "
        f"ms, max {max(cpu):.2f} ms over {len(cpu)} moves (Pyodide's Python takes 1.25-1.7 "
        f"times as long, the issue's spike)",
        flush=True,
    )


#: The page's requests played again through the in-page table in pure CPython, each
#: move's CPU time taken (a figure the machine's load does not inflate).
REPLAY = """
import json, sys, time
from kraftstokk.web.inpage import open_table
folder, requests = sys.argv[1], json.load(open(sys.argv[2]))
table = open_table(open(folder + "/deck.json").read())  # as the worker opens it (warmed)
current, times = None, []  # one game at a time: each move is of the last one begun
for request in requests:
    body = dict(request["body"] or {})
    if "id" in body:
        body["id"] = current
    began = time.process_time()
    answer = json.loads(table.call(request["op"], json.dumps(body)))
    spent = (time.process_time() - began) * 1000
    assert answer["status"] < 400, answer
    if request["op"] == "move":
        times.append(spent)
    else:
        current = answer["body"]["id"]
print(json.dumps(times))
"""


def replayed_cpu(folder: Path, requests: list[dict[str, Any]]) -> list[float]:
    import subprocess

    app = next(folder.glob("app-*"))
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as file:
        json.dump(requests, file)
    try:
        run = subprocess.run(
            [sys.executable, "-c", REPLAY, str(app), file.name],
            capture_output=True,
            text=True,
            check=True,
            env={**os.environ, "KRAFTSTOKK_PURE_PYTHON": "1"},
        )
    finally:
        os.unlink(file.name)
    times: list[float] = json.loads(run.stdout)
    return times


def experts(browser: Any, folder: Path, games: int) -> dict[str, int]:
    (folder / "bench-worker.js").write_text(BENCH_WORKER, encoding="utf-8")
    (folder / "bench.html").write_text("<!doctype html><title>bench</title>", encoding="utf-8")
    app = next(folder.glob("app-*"))
    runtime = next(folder.glob("pyodide-*"))
    with serving(folder, throttle=False, compress=False) as url:
        page = browser.new_context().new_page()
        page.goto(f"{url}bench.html")
        found = json.loads(
            page.evaluate(
                """(data) => new Promise((resolve) => {
                  const worker = new Worker("bench-worker.js", { type: "module" });
                  worker.onmessage = (event) => resolve(event.data);
                  worker.postMessage(data);
                })""",
                {
                    "runtime": f"{url}{runtime.name}/",
                    "app": f"{url}{app.name}/",
                    "engine": f"{url}{app.name}/engine.zip",
                    "deck": f"{url}{app.name}/deck.json",
                    "games": games,
                    "code": EXPERT_IN_PAGE,
                },
            )
        )
    playouts = {}
    for name, figures in found.items():
        playouts[name] = figures["playouts"]
        decisions(f"static {name} expert decision in the page", figures, games, "wall")
    # The same in pure CPython by CPU time: the budget measured and the decisions timed by
    # a clock the machine's other work does not run.
    import subprocess

    code = f"deck_text = open({str(app / 'deck.json')!r}).read()\nGAMES = {games}\nCPU = True\n"
    run = subprocess.run(
        [
            sys.executable,
            "-c",
            code + EXPERT_IN_PAGE.replace("json.dumps(found)", "print(json.dumps(found))"),
        ],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "KRAFTSTOKK_PURE_PYTHON": "1"},
    )
    for name, figures in json.loads(run.stdout).items():
        decisions(
            f"static {name} expert decision, the page's code in pure CPython", figures, games, "CPU"
        )
    return playouts


def decisions(what: str, figures: dict[str, Any], games: int, clock: str) -> None:
    times = figures["times"]
    p99 = percentile(times, 0.99)
    print(
        f"{what} ({figures['playouts']} playouts, measured there at start; {clock} time): "
        f"p50 {percentile(times, 0.5):.0f} ms, p99 {p99:.0f} ms, max {max(times):.0f} ms over "
        f"{len(times)} decisions of {games} games (target p99 at most {EXPERT_TARGET_MS:g} ms: "
        f"{'met' if p99 <= EXPERT_TARGET_MS else 'NOT met'})",
        flush=True,
    )


def strength(playouts: dict[str, int], games: int | None, reference: Sequence[int]) -> None:
    """The expert's strength at the playouts the page measured here, and at ``reference``
    budgets (what a page on an idle machine gives it: the issue's spike measured about 100
    at 300 ms)."""
    import bench_expert

    from kraftstokk.games import registry
    from kraftstokk.games.core import DeckTable
    from kraftstokk.games.search import DEFAULT_MS, ExpertBot
    from kraftstokk.sim.stats import wilson

    table = DeckTable.from_deck(default_deck())
    budgets = [(name, count) for name, count in playouts.items()]
    budgets += [(name, count) for name in playouts for count in reference]
    for name, count in budgets:
        wanted = games or STRENGTH_GAMES[name]
        figures = bench_expert.measure(name, table, wanted, 0, bot=f"expert:playouts={count}")
        rate = figures["hits"] / figures["games"]
        low, high = wilson(figures["hits"], figures["games"])
        what, target, _ = bench_expert.TARGETS[name]
        hardest = registry.make_bots(registry.make_game(name, table, 4), "expert")[0]
        assert isinstance(hardest, ExpertBot)
        print(
            f"static {name} expert at the page's {count} playouts {what}: {rate:.1%} "
            f"[{low:.1%}, {high:.1%}] of {figures['games']} games against three heuristic bots "
            f"(bench_expert's target {target:.0%}; the server's hardest level plays "
            f"{hardest.playouts} playouts, ms={DEFAULT_MS})",
            flush=True,
        )


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=RUNS)
    parser.add_argument("--games", type=int, help="strength games per game")
    parser.add_argument("--page-games", type=int, default=PAGE_GAMES)
    parser.add_argument("--only", choices=PARTS, nargs="+", default=list(PARTS))
    parser.add_argument(
        "--playouts",
        type=int,
        nargs="*",
        default=list(REFERENCE_PLAYOUTS),
        help="strength also at these budgets",
    )
    args = parser.parse_args([] if argv is None else argv)
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    print(f"static: load average {' '.join(f'{x:.1f}' for x in os.getloadavg())}", flush=True)
    sys.path[:0] = [str(HERE), str(HERE.parent)]
    with tempfile.TemporaryDirectory() as temporary:
        folder = Path(temporary) / "site"
        export_web(default_deck(), folder)
        bundle(folder)
        try:
            from playwright.sync_api import sync_playwright
        except ImportError:
            chromium = None
        if chromium is None:
            print("static browser figures: skipped (no chromium or no playwright)")
            return
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path=chromium, headless=True, args=["--no-sandbox", "--disable-gpu"]
            )
            if "starts" in args.only:
                starts(browser, folder, args.runs)
            if "moves" in args.only:
                moves(browser, folder, args.runs)
            if "experts" in args.only or "strength" in args.only:
                playouts = experts(browser, folder, args.page_games)
            browser.close()
    if "strength" in args.only:
        strength(playouts, args.games, args.playouts)
    print(f"static: load average {' '.join(f'{x:.1f}' for x in os.getloadavg())}", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
