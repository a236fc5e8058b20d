"""The README's screenshots of ``kraftstokk serve``: docs/serve-*.png.

Run ``.venv/bin/python scripts/readme_screenshots.py [FOLDER]`` (default ``docs/``; needs
Debian's ``chromium`` and Playwright, the dev extras). It serves the deck of
``sources/deck.toml`` in its own process (a temporary key and card cache), opens the page
in Chromium, the computer's moves shown at once, in the deck's language, and takes three
shots, two at 390 x 844 with touch and one at 1280 x 800:

- ``serve-phone-idiot.png``: Idiot for two, the first card of a pair tapped (a group is
  built by tapping its cards);
- ``serve-phone-kraftidioten.png``: Kraftidioten for ten, a computer's claim asked about
  (the question and its answers in the bar at the bottom);
- ``serve-idiot-desktop.png``: Idiot for five in play, the log beside the table, your
  turn with three moves or more.

The games are seeded (the first seed from 1 up that reaches the scene), so a run after a
change to the page shows the same tables.
"""

from __future__ import annotations

import json
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
DOCS = REPO / "docs"
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
FLAGS = ["--no-sandbox", "--disable-gpu"]
SEEDS = range(1, 41)
MOVES = 60  # moves tried in one game before the next seed


def main(arguments: list[str]) -> int:
    from playwright.sync_api import sync_playwright

    from kraftstokk.deck.build import build_from_spec_file
    from kraftstokk.web import launch

    out = Path(arguments[0]) if arguments else DOCS
    out.mkdir(parents=True, exist_ok=True)
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        print("readme_screenshots: no chromium on the PATH (apt-get install chromium)")
        return 1
    with tempfile.TemporaryDirectory(prefix="readme-shots-") as temporary:
        folder = Path(temporary)
        deck = folder / "deck.json"
        deck.write_text(
            build_from_spec_file(REPO / "sources" / "deck.toml").deck.model_dump_json(),
            encoding="utf-8",
        )
        server, port = launch.serve_process(deck, folder, "--allow-seed", stdout=subprocess.DEVNULL)
        try:
            url = f"http://127.0.0.1:{port}/"
            _wait_for(url, server)
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(
                    executable_path=chromium, headless=True, args=FLAGS
                )
                _shoot(browser, url, "idiot", 1, _idiot_group, out / "serve-phone-idiot.png")
                _shoot(
                    browser,
                    url,
                    "kraftidioten",
                    9,
                    _kraftidioten_question,
                    out / "serve-phone-kraftidioten.png",
                )
                _shoot(
                    browser,
                    url,
                    "idiot",
                    4,
                    _idiot_in_play,
                    out / "serve-idiot-desktop.png",
                    size=DESKTOP,
                )
                browser.close()
        finally:
            server.send_signal(signal.SIGINT)
            server.wait(timeout=30)
    return 0


def _wait_for(url: str, server: subprocess.Popen[Any]) -> None:
    import httpx

    deadline = time.monotonic() + 120
    while True:
        try:
            if httpx.get(f"{url}api/setup", timeout=5).status_code == 200:
                return
        except httpx.TransportError:
            pass
        if time.monotonic() > deadline or server.poll() is not None:
            raise SystemExit("readme_screenshots: kraftstokk serve did not start")
        time.sleep(0.2)


def _shoot(
    browser: Any,
    url: str,
    game: str,
    opponents: int,
    scene: Any,
    path: Path,
    size: dict[str, int] = PHONE,
) -> None:
    """The first seeded game that reaches ``scene`` (a function of the page: True once
    the page shows it), shot at ``size`` (a phone's with touch)."""
    for seed in SEEDS:
        context = browser.new_context(viewport=size, has_touch=size == PHONE, bypass_csp=True)
        table = json.dumps({"speed": "instant"})
        context.add_init_script(f"localStorage.setItem('kraftstokk.table', {json.dumps(table)})")
        page = context.new_page()
        try:
            _start(page, url, game, opponents, seed)
            for _ in range(MOVES):
                if page.locator("#over").is_visible():
                    break
                if scene(page):
                    _images_drawn(page)
                    page.evaluate("window.scrollTo(0, 0)")  # a tapped card scrolls into view
                    page.screenshot(path=path)
                    print(f"readme_screenshots: {path} ({game}, seed {seed})")
                    return
                if not _a_move(page):
                    break
        finally:
            context.close()
    raise SystemExit(f"readme_screenshots: no seed of {SEEDS} reached the {game} scene")


def _start(page: Any, url: str, game: str, opponents: int, seed: int) -> None:
    page.goto(f"{url}?seed={seed}")
    page.wait_for_selector("#start:not([hidden])")
    page.check(f"input[name=game][value={game}]")
    page.select_option("#opponents", str(opponents))
    page.click("#setup button[type=submit]")
    page.wait_for_selector("#table:not([hidden])")
    page.wait_for_function("document.body.dataset.turn !== undefined")


def _a_move(page: Any) -> bool:
    """The first move listed (a swap phase: done swapping), or a claim as the form first
    offers it; False when there is none to make (a claim the form says is too low)."""
    before = page.evaluate("document.body.dataset.turn")
    move = page.locator("#moves button.move:not([data-kind=claim])").first
    if move.count():
        move.click()
    else:
        page.locator("#moves button[data-kind=claim]").first.click()
        page.wait_for_selector("#claim:not([hidden])")
        if page.evaluate("document.getElementById('claim').dataset.below === 'true'"):
            return False
        page.click("#claim button[type=submit]")
    page.wait_for_function(f"document.body.dataset.turn !== {json.dumps(before)}")
    return True


def _idiot_group(page: Any) -> bool:
    """A move of two or more cards is listed: tap its first card in the hand."""
    group = page.locator("#moves button.move[data-cards*=' ']").first
    if not group.count() or page.evaluate("document.body.dataset.phase") == "swap":
        return False
    first = group.get_attribute("data-cards").split()[0]
    card = page.locator(f"#hand button[data-card='{first}']")
    if not card.count():
        return False
    card.tap()
    page.wait_for_function("Boolean(document.body.dataset.selected)")
    return True


def _idiot_in_play(page: Any) -> bool:
    """Play well under way (a dozen lines in the log) and three moves or more to choose."""
    if page.evaluate("document.body.dataset.phase") == "swap":
        return False
    moves = page.locator("#moves button.move").count()
    return bool(moves >= 3 and page.locator("#log li").count() >= 12)


def _kraftidioten_question(page: Any) -> bool:
    """A computer's claim is asked about: challenge or let it stand."""
    return bool(page.locator("#moves button[data-kind=let_stand]").count())


def _images_drawn(page: Any) -> None:
    page.wait_for_function(
        "[...document.querySelectorAll('#table img')]"
        ".every((img) => img.complete && img.naturalWidth > 0)"
    )


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
