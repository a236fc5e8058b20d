"""The static edition in Chromium: ``export-web``'s folder served by Python's http.server.

The engine runs in the page's Web Worker on Pyodide. Whole games of Idiot for 5,
Kraftidioten for 6 and Strømkrig for 4 are played to the end at 390 x 844 (touch) and
1280 x 800, then again with the server gone and the browser offline after a reload; an
update of the folder is picked up on the next visit; the page's tests of ``serve``
(``test_web_browser.py``) run against this table too; and what the worker hands the page
is what the engine answers in CPython for the same requests, the save sealed.

Skipped, with the reason, without a ``chromium`` on the PATH or Playwright; without npm
(which installs Pyodide: ``make pyodide``) the export cannot be made.
"""

# The browser fixtures are test_web_browser.py's, imported (one Chromium for this module).
# ruff: noqa: F811

from __future__ import annotations

import base64
import contextlib
import json
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

import tests.test_web_browser as served
from kraftstokk.web.export import export_web
from kraftstokk.web.inpage import PageTable
from tests.conftest import synthetic_deck
from tests.test_web_browser import (  # noqa: F401  (fixtures: one browser for the module)
    CHROMIUM,
    DESKTOP,
    PHONE,
    SIZES,
    chromium,
    open_browser,
    shots,
)
from tests.test_web_export import runtime_or_fail

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no chromium on the PATH")

#: The tables the issue names: each game at the size it is played at, opponents.
GAMES = (("idiot", 4), ("kraftidioten", 5), ("stromkrig", 3))
#: Records, in the page, every message between it and the engine's worker.
RECORD_WORKER = """
window.fromWorker = [];
window.toWorker = [];
const NativeWorker = window.Worker;
window.Worker = class extends NativeWorker {
  constructor(...args) {
    super(...args);
    this.addEventListener("message", (event) => window.fromWorker.push(JSON.stringify(event.data)));
  }
  postMessage(message) {
    window.toWorker.push(JSON.stringify(message));
    return super.postMessage(message);
  }
};
"""


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@contextlib.contextmanager
def http_server(folder: Path) -> Iterator[tuple[str, Callable[[], None]]]:
    """``python -m http.server`` on 127.0.0.1 serving ``folder``: its URL, and a function
    that stops it (the network gone)."""
    port = _free_port()
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "http.server",
            "--bind",
            "127.0.0.1",
            "--directory",
            str(folder),
            str(port),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )

    def stop() -> None:
        if process.poll() is None:
            process.terminate()
            process.wait(timeout=10)

    deadline = time.monotonic() + 30
    while True:
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 0.2):
            break
        assert time.monotonic() < deadline and process.poll() is None, "http.server did not start"
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}/", stop
    finally:
        stop()


#: How long a page may take to start the engine (Pyodide's start, seconds on a busy
#: machine) before a step waiting for the table fails.
START_MS = 120_000


@pytest.fixture
def static_browser(open_browser: Any) -> Callable[..., Any]:
    """``open_browser`` whose pages wait for the engine's start as long as it takes."""

    def make(*args: Any, **options: Any) -> Any:
        browser = open_browser(*args, **options)
        browser.context.set_default_timeout(START_MS)
        return browser

    return make


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    runtime_or_fail()
    folder = tmp_path_factory.mktemp("static") / "site"
    export_web(synthetic_deck(), folder, cache=tmp_path_factory.mktemp("cards"))
    return folder


@pytest.fixture(scope="module")
def site_url(site: Path) -> Iterator[str]:
    with http_server(site) as (url, _):
        yield url


def wait_kept(page: Any, folder: Path) -> str:
    """Until the service worker of the folder's current export is the active one and its
    cache holds every file the export lists (the page itself as "./"); its version."""
    marker = json.loads((folder / "kraftstokk-export.json").read_text(encoding="utf-8"))
    kept = len(marker["files"]) - 2  # all but sw.js and the marker; index.html is "./"
    name = f"kraftstokk-{marker['version']}"
    deadline = time.monotonic() + START_MS / 1000
    while not page.evaluate(  # evaluate awaits the promise (wait_for_function would not)
        """async ([name, kept]) => {
          const controller = navigator.serviceWorker.controller;
          if (!controller || !(await caches.keys()).includes(name)) return false;
          const version = await new Promise((resolve) => {
            const channel = new MessageChannel();
            channel.port1.onmessage = (event) => resolve(event.data);
            controller.postMessage("version", [channel.port2]);
          });
          const files = await (await caches.open(name)).keys();
          return `kraftstokk-${version}` === name && files.length === kept;
        }""",
        [name, kept],
    ):
        assert time.monotonic() < deadline, f"{name} was not kept in time: {kept_state(page)}"
        time.sleep(0.25)
    version: str = marker["version"]
    return version


def wait_installed(page: Any, folder: Path) -> None:
    """Until the service worker of the folder's current export is installed (waiting for
    the old version's pages to go, or active) with every file the export lists kept."""
    marker = json.loads((folder / "kraftstokk-export.json").read_text(encoding="utf-8"))
    kept = len(marker["files"]) - 2  # all but sw.js and the marker; index.html is "./"
    deadline = time.monotonic() + START_MS / 1000
    while not page.evaluate(
        """async ([version, kept]) => {
          const registration = await navigator.serviceWorker.getRegistration();
          const name = `kraftstokk-${version}`;
          if (!registration || !(await caches.keys()).includes(name)) return false;
          if ((await (await caches.open(name)).keys()).length !== kept) return false;
          const said = (worker) => new Promise((resolve) => {
            const channel = new MessageChannel();
            channel.port1.onmessage = (event) => resolve(event.data);
            worker.postMessage("version", [channel.port2]);
          });
          for (const worker of [registration.waiting, registration.active]) {
            const ready = worker && worker.state !== "installing";
            if (ready && (await said(worker)) === version) return true;
          }
          return false;
        }""",
        [marker["version"], kept],
    ):
        assert time.monotonic() < deadline, f"{marker['version']} not installed: {kept_state(page)}"
        time.sleep(0.2)


def kept_state(page: Any) -> Any:
    """What the browser has of the service worker and its caches (a failure's message)."""
    return page.evaluate(
        """async () => {
          const registration = await navigator.serviceWorker.getRegistration();
          const state = (worker) => worker && `${worker.scriptURL} ${worker.state}`;
          const found = {
            controller: state(navigator.serviceWorker.controller),
            installing: state(registration?.installing),
            waiting: state(registration?.waiting),
            active: state(registration?.active),
            caches: {},
          };
          for (const name of await caches.keys()) {
            found.caches[name] = (await (await caches.open(name)).keys()).length;
          }
          return found;
        }"""
    )


def start_game(page: Any, url: str, game: str, opponents: int, seed: int) -> None:
    served.start(page, url, game, opponents, seed)
    page.wait_for_function("document.body.dataset.turn !== undefined")


def play_sensibly(page: Any) -> None:
    """One move of a person who plays to finish: lets every claim stand (the switch), claims
    with the first card whose own figure beats the last claim (else lies with the deck's
    highest plant), and otherwise takes the first listed move."""
    over = page.locator("#over")
    # "Always let stand" may be answering a question (or ending the game) on its own.
    page.locator("#moves button.move").or_(over).first.wait_for(state="visible")
    if over.is_visible():
        return
    switch = page.locator("#let-stand-box")
    if switch.is_visible() and not page.locator("#auto-let-stand").is_checked():
        asked = page.locator("#moves button[data-kind=let_stand]").count() > 0
        before = served.turn(page)
        switch.click()  # answers the question at once when one is asked
        if asked:
            served.wait_turn_after(page, before)
            return
    if page.locator("#moves button[data-kind=claim]").count() == 0:
        served.click_a_move(page, prefer_card=False)
        return
    before = served.turn(page)
    page.click("#moves button[data-kind=claim]")
    page.wait_for_selector("#claim:not([hidden])")
    options = page.locator("#claim-card option")
    if page.locator("#claim-card").is_enabled():
        for value in [options.nth(i).get_attribute("value") for i in range(options.count())]:
            page.select_option("#claim-card", value)
            if page.evaluate("document.getElementById('claim').dataset.below") == "false":
                break
        else:
            page.select_option("#claim-card", options.first.get_attribute("value"))
    served.submit_claim(page)
    served.wait_turn_after(page, before)


def play_games(page: Any, url: str, shots: Path, size: str, when: str) -> list[str]:
    """The three games to the end, each at its table size; the order and loser told."""
    told = []
    for number, (game, opponents) in enumerate(GAMES):
        start_game(page, url, game, opponents, seed=60 + number)
        if number == 0:
            page.screenshot(path=shots / f"static-{size}-{when}-{game}-table.png")
        for _ in range(served.MAX_CLICKS):
            if page.locator("#over").is_visible():
                break
            play_sensibly(page)
        page.screenshot(path=shots / f"static-{size}-{when}-{game}-over.png")
        over = page.locator("#over").inner_text()
        assert page.locator("#over ol li").count() >= 1, f"{game}: {over}"
        told.append(over)
        page.click("#btn-start")
        page.wait_for_selector("#start:not([hidden])")
    return told


def check_rules(page: Any, shots: Path, size: str) -> None:
    """The rules panel from the folder's rules-<language>.json, in two languages."""
    for language, heading in (("en", "Start the game"), ("nb", "Start spillet")):
        page.select_option("#lang", language)
        assert page.locator("#setup button[type=submit]").inner_text() == heading
        page.click("#btn-rules")
        page.wait_for_selector("#rules-body h3, #rules-body h4")
        page.screenshot(path=shots / f"static-{size}-rules-{language}.png")
        page.click("#btn-rules-close")


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_whole_games_then_again_offline_after_a_reload(
    static_browser: Any, site: Path, shots: Path, size: str
) -> None:
    """Idiot for 5, Kraftidioten for 6 and Strømkrig for 4 to the end; then the server
    stops and the browser goes offline, the page is reloaded, and all three are played to
    the end again from what the browser kept."""
    with http_server(site) as (url, stop):
        browser = static_browser(SIZES[size])
        page = browser.page
        page.goto(url)
        page.wait_for_selector("#start:not([hidden])")
        page.screenshot(path=shots / f"static-{size}-start.png", full_page=True)
        check_rules(page, shots, size)
        online = play_games(page, url, shots, size, "online")
        wait_kept(page, site)
        stop()
        browser.context.set_offline(True)
        page.reload()
        page.wait_for_selector("#start:not([hidden])")
        offline = play_games(page, url, shots, size, "offline")
        assert len(online) == len(offline) == 3
        saves = page.evaluate(
            "Object.keys(localStorage).filter(k => k.startsWith('kraftstokk.save.'))"
        )
        assert sorted(saves) == [
            "kraftstokk.save.idiot",
            "kraftstokk.save.kraftidioten",
            "kraftstokk.save.stromkrig",
        ]


def test_an_update_of_the_folder_is_picked_up_on_the_next_visit(
    static_browser: Any, tmp_path: Path
) -> None:
    """A new export into the folder (another edition of the deck): the open page goes on
    with what it has; once the browser has fetched the update in the background, the next
    visit shows the new edition."""
    folder = tmp_path / "site"
    cache = tmp_path / "cards"
    first = synthetic_deck()
    export_web(first, folder, cache=cache)
    with http_server(folder) as (url, _):
        browser = static_browser(DESKTOP)
        page = browser.page
        page.goto(url)
        page.wait_for_selector("#start:not([hidden])")
        start_game(page, url, "idiot", 1, seed=3)  # the engine starts, then the service worker
        version = wait_kept(page, folder)
        export_web(first.model_copy(update={"edition": "2027"}), folder, cache=cache)
        page.reload()  # this visit still plays the old edition; the update installs meanwhile
        wait_installed(page, folder)
        # The next visit: this tab leaves the page and comes back (the new version may wait
        # for the old one's last page to go, as a browser lets it).
        browser.expected.append("Access is denied for this document")  # the table's init
        page.goto("about:blank")  # script on about:blank (no storage there)
        page.goto(url)
        assert wait_kept(page, folder) != version
        page.reload()
        # This tab's game was of the old edition's deck: the new one says so, and starts anew.
        page.wait_for_selector("#start:not([hidden])")
        assert "annen kortstokk enn denne sidens" in page.locator("#start-message").inner_text()
        page.click("#saved-list li[data-game=idiot] [data-action=delete]")  # it is listed
        setup = page.evaluate(
            "fetch(document.querySelector('script[type=module]').src.replace('app.js', "
            "'setup.json')).then((r) => r.json()).then((s) => s.deck.edition)"
        )
        assert setup == "2027"
        start_game(page, url, "idiot", 1, seed=4)  # the new version plays
        names = page.evaluate("caches.keys()")
        assert len(names) == 2  # the new version's files, and the old one's until the next


@contextlib.contextmanager
def gzip_encoding_host(folder: Path) -> Iterator[str]:
    """A host that announces every ``.gz`` file as gzip-encoded (Apache's ``AddEncoding
    gzip .gz`` does), so that the browser unpacks it before the page sees it."""
    import http.server
    import threading
    from functools import partial

    class Handler(http.server.SimpleHTTPRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:
            pass

        def end_headers(self) -> None:
            if self.path.split("?")[0].endswith(".gz"):
                self.send_header("Content-Encoding", "gzip")
            super().end_headers()

    server = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), partial(Handler, directory=str(folder))
    )
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


def test_a_host_sending_the_packed_runtime_gzip_encoded_plays_and_keeps_it_unpacked(
    static_browser: Any, site: Path
) -> None:
    """The runtime's big files lie gzip'd in the folder; a host that sends them with
    ``Content-Encoding: gzip`` has the browser unpack them already, and the page takes
    them as they come: the game starts and plays, and the service worker keeps them
    unpacked under their own names (a wasm module and a script, not gzip)."""
    with gzip_encoding_host(site) as url:
        page = static_browser(DESKTOP).page
        start_game(page, url, "idiot", 1, seed=5)
        before = served.turn(page)
        served.click_a_move(page)
        served.wait_turn_after(page, before)
        wait_kept(page, site)
        runtime = next(site.glob("pyodide-*")).name
        heads = page.evaluate(
            """async (runtime) => {
              const head = async (name) => {
                const kept = await caches.match(`${runtime}/${name}`);
                return kept && Array.from(new Uint8Array(await kept.arrayBuffer()).slice(0, 4));
              };
              return [await head("pyodide.asm.wasm"), await head("pyodide.asm.mjs")];
            }""",
            runtime,
        )
    assert heads[0] == [0, 0x61, 0x73, 0x6D]  # "\0asm"
    assert heads[1] is not None and heads[1][:2] != [0x1F, 0x8B]


# -- the page's own tests, against the static edition's table ----------------------------

#: ``test_web_browser.py``'s tests of what goes through the table (a whole game and its
#: replay log, a resume after a reload, a save downloaded and uploaded, claims, lies and a
#: challenge, a refusal in the page's language, two tabs with two workers sharing one
#: key), with their arguments: each runs here against the worker. The page's own logic
#: (layout, focus, keys, dialogs) is the same file for both tables and is tested there
#: once. "browser", "url", "shots" and "tmp" stand for this test's own.
SHARED: dict[str, tuple[Any, ...]] = {
    "test_idiot_to_the_end_by_clicking": ("browser", "url", "shots", 1, "phone"),
    "test_reload_continues_then_delete": ("browser", "url", "shots"),
    "test_upload_a_save_and_refuse_a_broken_one": ("browser", "url", "tmp"),
    "test_kraftidioten_lies_and_a_challenge": ("browser", "url", "shots"),
    "test_two_tabs_keep_two_games_through_reloads": ("browser", "url", "shots"),
    "test_a_refusal_is_told_in_the_pages_language": ("browser", "url"),
}


@pytest.mark.parametrize("name", sorted(SHARED))
def test_the_pages_tests_pass_on_the_static_table(
    static_browser: Any, site_url: str, shots: Path, tmp_path: Path, name: str
) -> None:
    ours = {"browser": static_browser, "url": site_url, "shots": shots, "tmp": tmp_path}
    getattr(served, name)(*(ours.get(a, a) if isinstance(a, str) else a for a in SHARED[name]))


# -- what the page receives ------------------------------------------------------------


def test_the_page_gets_from_the_worker_what_the_engine_answers_and_a_sealed_save(
    static_browser: Any, site_url: str, site: Path
) -> None:
    """Every message the worker sends the page during a Kraftidioten game against crafty
    bots is, byte for byte but the ids, what the engine answers in CPython to the same
    requests (whose answers ``test_web_inpage.py`` checks for hidden cards), with the save
    sealed: its text is no readable JSON and holds no action or seed; a move's save comes
    in a message of its own, right after its answer (which carries the save's open fields
    only); localStorage holds the last sealed save only."""
    browser = static_browser(DESKTOP)
    browser.context.add_init_script(RECORD_WORKER)
    page = browser.page
    page.goto(f"{site_url}?seed=33")
    page.wait_for_selector("#start:not([hidden])")
    page.check("input[name=game][value=kraftidioten]")
    page.select_option("#opponents", "3")
    page.select_option("#strength", "heuristic")
    page.click("#setup button[type=submit]")
    page.wait_for_selector("#table:not([hidden])")
    for _ in range(12):
        if page.locator("#over").is_visible():
            break
        served.click_a_move(page, prefer_card=False)
    sent = [json.loads(m) for m in page.evaluate("window.toWorker")]
    got = [json.loads(m) for m in page.evaluate("window.fromWorker")]
    assert sent[0]["op"] == "start" and got[0]["id"] == 0 and got[0]["status"] == 200
    deck = json.loads(next(site.glob("app-*/deck.json")).read_text(encoding="utf-8"))
    engine = PageTable(deck)
    ids: dict[str, str] = {}
    answers = {m["id"]: m for m in got[1:] if "status" in m}
    assert len(answers) == len(sent) - 1 >= 10
    for number, message in enumerate(got[1:], 1):
        if "status" in message:
            continue
        # A move's sealed save, right after its answer, which said it would follow.
        answer = got[number - 1]
        assert set(message) == {"id", "save"} and answer["id"] == message["id"], message
        assert answer["sealing"] and "sealed" not in answer["body"]["save"]
        assert {**answer["body"]["save"], "sealed": ""} == {**message["save"], "sealed": ""}
        answer["body"]["save"] = message["save"]
    for request in sent[1:]:
        answer = answers[request["id"]]
        assert answer.pop("sealing", False) == (request["op"] == "move"), request
        body = dict(request["body"])
        if "id" in body:
            body["id"] = ids[body["id"]]
        status, expected = _call(engine, request["op"], body)
        assert answer["status"] == status
        ids[answer["body"]["id"]] = expected["id"]
        sealed = answer["body"]["save"].pop("sealed")
        content = expected["save"].pop("content")
        for save in (answer["body"]["save"], expected["save"]):  # a random id each
            assert isinstance(save.pop("id"), str)
        assert {**answer["body"], "id": None} == {**expected, "id": None}
        raw = base64.urlsafe_b64decode(sealed + "=" * (-len(sealed) % 4))
        assert b"actions" not in raw and b"seed" not in raw and len(raw) > len(content) // 2
        assert "content" not in json.dumps(answer)
    stored = page.evaluate("JSON.stringify({...localStorage})")
    assert '"actions"' not in stored and "seed" not in stored
    for card in deck["cards"]:
        assert f'"{card["id"]}"' not in stored


def _call(engine: PageTable, op: str, body: Any) -> tuple[int, Any]:
    answer = json.loads(engine.call(op, json.dumps(body)))
    return answer["status"], answer["body"]


def test_every_computer_level_plays_in_the_page(static_browser: Any, site_url: str) -> None:
    """Random, greedy, heuristic and the expert (with the budget the page measured for
    it) all play Strømkrig for 4 here; the expert's line says what the page gives it."""
    page = static_browser(PHONE).page
    page.goto(f"{site_url}?seed=9")
    page.wait_for_selector("#start:not([hidden])")
    levels = page.evaluate("[...document.querySelectorAll('#strength option')].map((o) => o.value)")
    assert levels == ["random", "greedy", "heuristic", "expert"]
    for number, level in enumerate(levels):
        if number:
            page.click("#btn-menu")
            page.wait_for_selector("#start:not([hidden])")
        page.check("input[name=game][value=stromkrig]")
        page.select_option("#opponents", "3")
        page.select_option("#strength", level)
        if level == "expert":
            assert "0,3 s" in page.locator("#strength-help").inner_text()
        page.click("#setup button[type=submit]")
        if number:
            page.click("#btn-replace")  # the game of the level before, unfinished
        page.wait_for_selector("#table:not([hidden])")
        page.wait_for_function("document.body.dataset.turn !== undefined")
        for _ in range(3):  # the expert thinks up to 0.3 s a decision: no 10 s limit here
            if page.locator("#over").is_visible():
                break
            before = served.turn(page)
            page.locator("#moves button.move").first.click()
            page.wait_for_function(f"Number(document.body.dataset.turn) !== {before}")
        assert served.turn(page) >= 1 or page.locator("#over").is_visible()
