"""The web app in a real Chromium (Playwright driving the system's ``chromium``).

Skipped with the reason when no Chromium is on the PATH or Playwright is missing. One
browser serves the module; each test opens fresh contexts (their own storage), phones
with touch. Screenshots of every screen at phone (390 x 844) and desktop (1280 x 800)
size go to ``$KRAFTSTOKK_SCREENSHOTS`` or the test's temporary folder. Any console error
or uncaught page error fails the test. The computer's moves are shown at the "instant"
pace unless a test asks for another (the table tests at the end play with them on).
"""

from __future__ import annotations

import json
import os
import random
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import synthetic_deck
from tests.web_helpers import TEST_KEY, page_setup, running_server, sealed_content

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
playwright_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no chromium on the PATH")

FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
SIZES = {"phone": PHONE, "desktop": DESKTOP}
MAX_CLICKS = 1500


@pytest.fixture(scope="module")
def served_app() -> Any:
    from kraftstokk.web.app import create_app

    app = create_app(synthetic_deck(), key=TEST_KEY, allow_seed=True)
    redeals = random.Random(5)
    app.state.store.fresh_seed = lambda: redeals.getrandbits(63)  # a reload deals alike each run
    return app


@pytest.fixture
def app_store(served_app: Any) -> Any:
    return served_app.state.store


@pytest.fixture(scope="module")
def server_url(served_app: Any) -> Iterator[str]:
    with running_server(served_app) as url:
        yield url


@pytest.fixture(scope="module")
def shots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    chosen = os.environ.get("KRAFTSTOKK_SCREENSHOTS")
    folder = Path(chosen) if chosen else tmp_path_factory.mktemp("web-screens")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


class Browser:
    """One fresh context (a profile of its own) with a page that fails the test on
    console errors; a phone size gets touch. ``speed`` is the pace of the computer's moves."""

    def __init__(
        self, chromium: Any, size: dict[str, int], speed: str = "instant", **options: Any
    ) -> None:
        self.context = chromium.new_context(
            viewport=size,
            has_touch=size["width"] < 900,
            accept_downloads=True,
            bypass_csp=True,  # Playwright evaluates its waits as strings; the page never does
            **options,
        )
        if speed:  # "": the page's own choice (the system's reduced motion)
            table = json.dumps({"speed": speed})
            self.context.add_init_script(
                f"if (!localStorage.getItem('kraftstokk.table')) "
                f"localStorage.setItem('kraftstokk.table', {json.dumps(table)})"
            )
        self.errors: list[str] = []
        #: Console lines a test expects (Chromium logs every 4xx answer as an error).
        self.expected: list[str] = []
        self.page = self.tab()

    def tab(self) -> Any:
        """Another tab of this browser profile (its own sessionStorage), errors recorded."""
        page = self.context.new_page()
        page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: self.errors.append(str(e)))
        return page

    def close(self) -> None:
        self.context.close()


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    """One Chromium for the module (each test opens its own contexts in it)."""
    with playwright_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=FLAGS)
        yield browser
        browser.close()


@pytest.fixture
def open_browser(chromium: Any) -> Iterator[Any]:
    opened: list[Browser] = []

    def make(size: dict[str, int] = DESKTOP, speed: str = "instant", **options: Any) -> Browser:
        browser = Browser(chromium, size, speed, **options)
        opened.append(browser)
        return browser

    yield make
    errors = [e for b in opened for e in b.errors if not any(x in e for x in b.expected)]
    for browser in opened:
        browser.close()
    assert not errors, f"console errors: {errors}"


def turn(page: Any) -> int:
    return int(page.evaluate("document.body.dataset.turn || '-1'"))


def wait_turn_after(page: Any, before: int) -> None:
    page.wait_for_function(f"Number(document.body.dataset.turn) !== {before}", timeout=10000)


def start(page: Any, url: str, game: str, opponents: int, seed: int) -> None:
    page.goto(f"{url}?seed={seed}")
    page.wait_for_selector("#start:not([hidden])")
    page.check(f"input[name=game][value={game}]")
    page.select_option("#opponents", str(opponents))
    page.select_option("#strength", "greedy")
    page.click("#setup button[type=submit]")
    page.wait_for_selector("#table:not([hidden])")
    page.wait_for_function("document.body.dataset.turn !== undefined")


def click_a_move(
    page: Any, *, keyboard: bool = False, prefer_card: bool = True, skip: bool = False
) -> bool:
    """Make one move as a person would: a playable card, a swap, or a move button.

    ``skip``: while the computer's moves are shown, tap the pile (the end shows at once).
    Says whether the computer's moves were being shown."""
    before = turn(page)
    phase = page.evaluate("document.body.dataset.phase")
    if phase == "swap":
        page.click("#moves button[data-kind=ready]")
    elif keyboard:
        page.keyboard.press("1")
    else:
        cards = page.locator("#hand button.card.playable, #my-table button.card.playable")
        if prefer_card and cards.count() and page.locator("#claim").is_hidden():
            cards.first.click()
            # The card is played at once, or opens the claim form, or narrows the moves.
            page.wait_for_function(
                f"Number(document.body.dataset.turn) !== {before} || "
                "document.body.dataset.selected || !document.getElementById('claim').hidden"
                " || document.body.dataset.animating"
            )
            if page.locator("#claim").is_visible():
                submit_claim(page)
            elif turn(page) == before and not page.evaluate("!!document.body.dataset.animating"):
                page.locator("#moves button.move").first.click()
        else:
            first = page.locator("#moves button.move").first
            first.click()
            if page.locator("#claim").is_visible():
                submit_claim(page)
    shown = False
    if skip:
        page.wait_for_function(
            f"document.body.dataset.animating || Number(document.body.dataset.turn) !== {before}"
        )
        shown = bool(page.evaluate("!!document.body.dataset.animating"))
        if shown:
            page.locator("#pile").click()
    wait_turn_after(page, before)
    return shown


def submit_claim(page: Any) -> None:
    """Send the claim form; a card whose own figure is below the last claim names the
    deck's highest plant of the category instead (a lie, but one the rules take)."""
    if page.evaluate("document.getElementById('claim').dataset.below === 'true'"):
        category = page.locator("#claim-category").input_value()
        plants = [c for c in cards_of(page.url.split("?")[0]) if not c["joker"]]
        page.fill("#claim-plant", max(plants, key=lambda c: c["values"][category])["name"])
    page.click("#claim button[type=submit]")


def play_to_end(page: Any, *, keyboard: bool = False, skip: bool = False) -> int:
    clicks = 0
    while page.locator("#over").is_hidden():
        assert clicks < MAX_CLICKS, "the game did not end"
        click_a_move(page, keyboard=keyboard, skip=skip)
        clicks += 1
    return clicks


@pytest.mark.parametrize(("opponents", "size"), [(1, "phone"), (4, "desktop")])
def test_idiot_to_the_end_by_clicking(
    open_browser: Any, server_url: str, shots: Path, opponents: int, size: str
) -> None:
    page = open_browser(SIZES[size], speed="normal").page  # the computer's moves shown
    page.goto(server_url)
    page.wait_for_selector("#start:not([hidden])")
    page.screenshot(path=shots / f"{size}-start.png", full_page=True)
    start(page, server_url, "idiot", opponents, seed=opponents + 40)
    page.screenshot(path=shots / f"{size}-idiot-swap.png", full_page=True)
    # Swap one card by clicking: a hand card, then a face-up card.
    page.locator("#hand button.card").first.click()
    before = turn(page)
    page.locator("#my-table button.card").first.click()
    wait_turn_after(page, before)
    click_a_move(page)  # done swapping
    page.screenshot(path=shots / f"{size}-idiot-{opponents + 1}-play.png", full_page=True)
    play_to_end(page, skip=True)
    page.screenshot(path=shots / f"{size}-idiot-{opponents + 1}-over.png", full_page=True)
    over = page.locator("#over").inner_text()
    assert "Spiller" in over and ("Idioten" in over)
    save = page.evaluate("JSON.parse(localStorage.getItem('kraftstokk.save.idiot'))")
    assert save["finished"] is True and save["players"] == opponents + 1
    with page.expect_download() as download:
        page.click("#btn-download-log")
    log = json.loads(Path(download.value.path()).read_text(encoding="utf-8"))
    assert log["format"] == "kraftstokk-replay" and log["result"]["finished"] is True
    assert log["bots"][0] == "person" and len(log["bots"]) == opponents + 1
    page.click("#btn-start")  # a finished game is not offered for continuing
    page.wait_for_selector("#saved-list li[data-game=idiot][data-finished=true]")
    assert page.locator("#saved-list li[data-game=idiot] [data-action=continue]").count() == 0


def test_idiot_by_keyboard_on_a_phone(open_browser: Any, server_url: str) -> None:
    page = open_browser(PHONE).page
    start(page, server_url, "idiot", 2, seed=7)
    page.keyboard.press("1")  # the first listed move: done swapping (no swap chosen)
    page.wait_for_function("document.body.dataset.phase !== 'swap'")
    focused = page.evaluate("document.activeElement.className")
    assert "move" in focused  # the first move has the focus, visible for Enter
    before = turn(page)
    page.keyboard.press("Enter")
    wait_turn_after(page, before)
    play_to_end(page, keyboard=True)


def test_reload_continues_then_delete(open_browser: Any, server_url: str, shots: Path) -> None:
    page = open_browser(DESKTOP).page
    start(page, server_url, "idiot", 2, seed=11)
    for _ in range(6):
        click_a_move(page)
    at = turn(page)
    hand = page.locator("#hand").inner_text()
    page.reload()
    page.wait_for_selector("#table:not([hidden])")
    page.wait_for_function(f"Number(document.body.dataset.turn) === {at}")
    assert page.locator("#hand").inner_text() == hand
    click_a_move(page)
    page.click("#btn-menu")
    page.wait_for_selector("#saved:not([hidden])")
    page.screenshot(path=shots / "desktop-saved-game.png", full_page=True)
    entry = "#saved-list li[data-game=idiot]"
    with page.expect_download() as download:
        page.click(f"{entry} [data-action=download]")
    saved = json.loads(Path(download.value.path()).read_text(encoding="utf-8"))
    assert saved["format"] == "kraftstokk-web-save" and "tab" not in saved  # still sealed
    page.click(f"{entry} [data-action=delete]")
    page.wait_for_selector("#saved[hidden]", state="attached")
    assert page.evaluate("localStorage.getItem('kraftstokk.save.idiot')") is None
    page.reload()
    page.wait_for_selector("#start:not([hidden])")
    assert page.locator("#saved").is_hidden()


def test_a_restarted_server_loses_no_game(
    open_browser: Any, server_url: str, app_store: Any
) -> None:
    browser = open_browser(DESKTOP)
    browser.expected.append("the server responded with a status of 404")
    page = browser.page
    start(page, server_url, "kraftidioten", 2, seed=13)
    for _ in range(4):
        click_a_move(page, prefer_card=False)
    at = turn(page)
    app_store._sessions.clear()  # what a restart (or eviction) leaves: no game on the server
    click_a_move(page, prefer_card=False)  # the page sends its save, then the move again
    assert turn(page) > at
    assert len(app_store) == 1


def test_upload_a_save_and_refuse_a_broken_one(
    open_browser: Any, server_url: str, tmp_path: Path
) -> None:
    page = open_browser(DESKTOP).page
    start(page, server_url, "stromkrig", 2, seed=3)
    for _ in range(3):
        click_a_move(page)
    save = page.evaluate("localStorage.getItem('kraftstokk.save.stromkrig')")
    at = turn(page)
    good = tmp_path / "good.json"
    good.write_text(save, encoding="utf-8")
    broken = tmp_path / "broken.json"
    broken.write_text(save.replace('"kraftstokk-web-save"', '"something-else"'), encoding="utf-8")
    page.evaluate("localStorage.clear()")
    page.reload()
    page.wait_for_selector("#start:not([hidden])")
    page.set_input_files("#upload", str(broken))
    page.wait_for_function("document.getElementById('start-message').textContent.length > 0")
    assert "broken.json" in page.locator("#start-message").inner_text()
    page.set_input_files("#upload", str(good))
    page.wait_for_selector("#table:not([hidden])")
    page.wait_for_function(f"Number(document.body.dataset.turn) === {at}")


def test_language_switch_and_rules(open_browser: Any, server_url: str, shots: Path) -> None:
    for size, viewport in SIZES.items():
        browser = open_browser(viewport)
        page = browser.page
        page.goto(server_url)
        page.wait_for_selector("#start:not([hidden])")
        assert page.locator("#setup button[type=submit]").inner_text() == "Start spillet"
        page.select_option("#lang", "en")
        assert page.locator("#setup button[type=submit]").inner_text() == "Start the game"
        assert page.evaluate("document.documentElement.lang") == "en"
        page.screenshot(path=shots / f"{size}-start-en.png", full_page=True)
        page.click("#btn-rules")
        page.wait_for_selector("#rules-body h3, #rules-body h4")
        page.screenshot(path=shots / f"{size}-rules-en.png")
        # The booklet's quick reference first, with its steps and table; the lie example's
        # two unturned claims drawn as the deck's back.
        page.click("#rules-tabs [data-game=kraftidioten]")
        quick = page.locator("#rules-body > :first-child")
        assert quick.get_attribute("class") == "quick"
        assert quick.locator("ol.steps li").count() >= 3
        assert quick.locator("table.rule-table tbody tr").count() >= 2
        backs = page.locator("#rules-body .example .rule-cards .card.back")
        assert backs.count() == 2 and "not turned" in backs.first.get_attribute("aria-label")
        backs.first.scroll_into_view_if_needed()
        page.screenshot(path=shots / f"{size}-rules-kraftidioten-en.png")
        page.click("#btn-rules-close")
        page.reload()
        page.wait_for_selector("#start:not([hidden])")
        assert page.locator("#setup button[type=submit]").inner_text() == "Start the game"
        page.select_option("#lang", "nb")
        page.click("#btn-rules")
        page.wait_for_selector("#rules-body h3, #rules-body h4")
        page.screenshot(path=shots / f"{size}-rules-nb.png")
        page.click("#btn-rules-close")


def cards_of(server_url: str) -> list[dict[str, Any]]:

    cards: list[dict[str, Any]] = page_setup(server_url)["cards"]
    return cards


def _until(page: Any, condition: str, limit: int = 400) -> None:
    """Play the first listed move until ``condition`` (JS) holds at the person's turn."""
    for _ in range(limit):
        if page.evaluate(condition):
            return
        assert page.locator("#over").is_hidden(), "the game ended first"
        click_a_move(page, prefer_card=False)
    raise AssertionError(f"never reached: {condition}")


def test_kraftidioten_lies_and_a_challenge(open_browser: Any, server_url: str, shots: Path) -> None:
    for size, viewport in SIZES.items():
        page = open_browser(viewport).page
        start(page, server_url, "kraftidioten", 2, seed=5)
        page.screenshot(path=shots / f"{size}-kraftidioten-turn.png", full_page=True)
        # A lie by figure: the card's own plant, with a whole figure not its own (KI-4c).
        _until(page, "!!document.querySelector('#moves button[data-kind=claim]')")
        page.click("#moves button[data-kind=claim]")
        page.wait_for_selector("#claim:not([hidden])")
        printed = float(page.locator("#claim-amount").input_value().replace(",", "."))
        stated = int(printed) + 1000
        page.fill("#claim-amount", str(stated))
        assert "bløff" in page.locator("#claim-figure").inner_text()
        page.screenshot(path=shots / f"{size}-kraftidioten-claim-figure.png", full_page=True)
        before = turn(page)
        page.click("#claim button[type=submit]")
        wait_turn_after(page, before)
        told = page.locator("#log li.mine[data-kind=Claimed]").first.inner_text()
        said = f"{stated:,}".replace(",", " ")
        assert "løgn" in told and said in told.replace("\u00a0", " ")
        # A lie by name: another plant of the deck, typed into the type-ahead.
        _until(page, "!!document.querySelector('#moves button[data-kind=claim]')")
        page.click("#moves button[data-kind=claim]")
        page.wait_for_selector("#claim:not([hidden])")
        own = page.locator("#claim-plant").input_value()
        category = page.locator("#claim-category").input_value()
        plants = [c for c in cards_of(server_url) if not c["joker"] and c["name"] != own]
        lie = max(plants, key=lambda c: c["values"][category])["name"]  # beats any claim
        page.fill("#claim-plant", lie[:3])
        page.fill("#claim-plant", lie)
        page.fill("#claim-amount", "99999")  # high enough to beat any claim
        page.screenshot(path=shots / f"{size}-kraftidioten-claim.png", full_page=True)
        before = turn(page)
        page.click("#claim button[type=submit]")
        wait_turn_after(page, before)
        assert lie in page.locator("#log").inner_text()
        # A challenge of the computer's claim.
        _until(page, "!!document.querySelector('#moves button[data-kind=challenge]')")
        page.screenshot(path=shots / f"{size}-kraftidioten-challenge.png", full_page=True)
        before = turn(page)
        page.click("#moves button[data-kind=challenge]")
        wait_turn_after(page, before)
        assert page.locator("#log li[data-kind=Challenged]").count() >= 1


def test_stromkrig_war(open_browser: Any, server_url: str, shots: Path) -> None:
    for size, viewport in SIZES.items():
        page = open_browser(viewport).page
        start(page, server_url, "stromkrig", 3, seed=9)
        page.screenshot(path=shots / f"{size}-stromkrig-turn.png", full_page=True)
        _until(page, "!!document.querySelector('#extra .war')")
        page.screenshot(path=shots / f"{size}-stromkrig-war.png", full_page=True)
        for _ in range(40):
            kinds = page.evaluate(
                "[...document.querySelectorAll('#moves button.move')].map(b => b.dataset.kind)"
            )
            if not page.locator("#extra .war").count():
                break
            if "join" in kinds or "stay_out" in kinds:
                before = turn(page)
                page.click("#moves button[data-kind=join]")
                wait_turn_after(page, before)
            else:
                click_a_move(page, prefer_card=False)
        assert page.locator("#log li[data-kind=WarStarted]").count() >= 1
        assert page.locator("#log li[data-kind=WarLost]").count() >= 1


def _saves(page: Any) -> dict[str, Any]:
    return page.evaluate(
        "Object.fromEntries(Object.keys(localStorage).filter(k => k.startsWith('kraftstokk.save.'))"
        ".map(k => [k.slice(16), JSON.parse(localStorage.getItem(k))]))"
    )


def _game_shown(page: Any) -> str:
    return page.evaluate("document.body.dataset.game")


def test_two_tabs_keep_two_games_through_reloads(
    open_browser: Any, server_url: str, shots: Path
) -> None:
    browser = open_browser(DESKTOP)
    first = browser.page
    second = browser.tab()
    start(first, server_url, "idiot", 2, seed=21)
    start(second, server_url, "stromkrig", 2, seed=22)
    for _ in range(4):
        click_a_move(first)
        click_a_move(second)
    at = {"idiot": turn(first), "stromkrig": turn(second)}
    saves = _saves(first)
    assert set(saves) == {"idiot", "stromkrig"}
    assert saves["idiot"]["turn"] == at["idiot"] and saves["stromkrig"]["turn"] == at["stromkrig"]
    for page, game in ((first, "idiot"), (second, "stromkrig")):
        page.reload()
        page.wait_for_selector("#table:not([hidden])")
        page.wait_for_function(f"Number(document.body.dataset.turn) === {at[game]}")
        assert _game_shown(page) == game
    click_a_move(first)
    click_a_move(second)
    assert _game_shown(first) == "idiot" and _game_shown(second) == "stromkrig"
    saves = _saves(second)
    assert saves["idiot"]["turn"] == turn(first) and saves["stromkrig"]["turn"] == turn(second)
    third = browser.tab()  # a new tab starts at the start page, both offered
    third.goto(server_url)
    third.wait_for_selector("#saved:not([hidden])")
    listed = third.locator("#saved-list li [data-action=continue]")
    assert listed.count() == 2
    third.screenshot(path=shots / "desktop-two-saved-games.png", full_page=True)


def test_a_new_game_asks_before_replacing_an_unfinished_one(
    open_browser: Any, server_url: str, shots: Path
) -> None:
    browser = open_browser(PHONE)
    page = browser.page
    start(page, server_url, "kraftidioten", 2, seed=23)
    for _ in range(3):
        click_a_move(page, prefer_card=False)
    kept = _saves(page)["kraftidioten"]
    page.click("#btn-menu")
    page.wait_for_selector("#start:not([hidden])")
    page.check("input[name=game][value=kraftidioten]")
    page.click("#setup button[type=submit]")
    page.wait_for_selector("#confirm-dialog[open]")
    assert "Kraftidioten" in page.locator("#confirm-text").inner_text()
    page.screenshot(path=shots / "phone-replace-confirm.png")
    page.click("#btn-keep")
    page.wait_for_selector("#confirm-dialog:not([open])", state="attached")
    assert page.locator("#start").is_visible()
    assert _saves(page)["kraftidioten"] == kept  # kept as it was
    # Another tab plays on the old game while this one replaces it.
    other = browser.tab()
    other.goto(server_url)
    other.wait_for_selector("#saved-list li[data-game=kraftidioten] [data-action=continue]")
    other.click("#saved-list li[data-game=kraftidioten] [data-action=continue]")
    other.wait_for_selector("#table:not([hidden])")
    page.click("#setup button[type=submit]")
    page.wait_for_selector("#confirm-dialog[open]")
    page.click("#btn-replace")
    page.wait_for_selector("#table:not([hidden])")
    fresh = _saves(page)["kraftidioten"]
    assert fresh["id"] != kept["id"] and fresh["turn"] == turn(page)
    other.wait_for_function(  # told at once (the storage event)
        "document.getElementById('highlight').textContent.includes('lagres ikke her')"
    )
    click_a_move(other, prefer_card=False)  # the old game's tab must not overwrite it
    assert _saves(other)["kraftidioten"]["id"] == fresh["id"]


def test_keeping_the_game_is_optional(open_browser: Any, server_url: str) -> None:
    page = open_browser(DESKTOP).page
    page.goto(f"{server_url}?seed=24")
    page.wait_for_selector("#start:not([hidden])")
    page.uncheck("#keep-save")
    page.check("input[name=game][value=idiot]")
    page.click("#setup button[type=submit]")
    page.wait_for_selector("#table:not([hidden])")
    click_a_move(page)
    click_a_move(page)
    assert _saves(page) == {}
    page.reload()
    page.wait_for_selector("#start:not([hidden])")
    assert page.locator("#keep-save").is_checked() is False  # the choice is remembered
    assert page.locator("#saved").is_hidden()


def test_the_browser_holds_no_card_during_a_game(
    open_browser: Any, server_url: str, app_store: Any
) -> None:
    """Every byte of localStorage and sessionStorage, after every move of a Kraftidioten
    game against crafty bots: no card by id, name, figure or in an action; the sealed
    save (opened with the test key) holds every action, the bots' too."""
    page = open_browser(DESKTOP).page
    page.goto(f"{server_url}?seed=25")
    page.wait_for_selector("#start:not([hidden])")
    page.check("input[name=game][value=kraftidioten]")
    page.select_option("#opponents", "3")
    page.select_option("#strength", "heuristic")
    page.click("#setup button[type=submit]")
    page.wait_for_selector("#table:not([hidden])")
    table = app_store.table
    names = [f'"{card_id}"' for card_id in table.ids]
    figures = [
        table.figure_text(k, c) for c in range(table.size) if not table.joker[c] for k in range(3)
    ]
    checked = 0
    while page.locator("#over").is_hidden() and checked < 40:
        held = page.evaluate("JSON.stringify([{...localStorage}, {...sessionStorage}])")
        save = _saves(page)["kraftidioten"]
        opened = held.replace(save["sealed"], "")
        assert not [n for n in names if n in opened]
        assert not [name for name in table.names if name and f"{name} (" in opened]
        assert not [f for f in figures if f in opened]
        assert "seed" not in opened and "actions" not in opened and "moves" not in opened
        session = next(s for s in app_store._sessions.values() if s.save_id == save["id"])
        assert sealed_content(save)["actions"] == [list(a) for a in session.actions]
        click_a_move(page, prefer_card=False)
        checked += 1
    assert checked > 10
    assert len(session.actions) > session.turn + 10  # the bots' moves are in the save too


# ---------------------------------------------------------------- every size

#: The sizes every button is checked at (a laptop, a small laptop, two small phones, the
#: common phone), width x height.
LAYOUTS = {"1280x800": 1280, "1366x768": 1366, "375x667": 375, "360x640": 360, "390x844": 390}
#: Buttons that are not the element at their own centre once scrolled into view (something
#: lies over them: the bar of moves, a caption), as "label: what covers it".
COVERED = """(selector) => [...document.querySelectorAll(selector)]
  .filter((button) => button.getClientRects().length)
  .map((button) => {
    button.scrollIntoView({ block: 'nearest', inline: 'nearest' });
    const box = button.getBoundingClientRect();
    const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
    const name = (button.textContent || button.dataset.card).trim().slice(0, 40);
    return button.contains(hit) ? null : `${name}: ${hit?.tagName}.${hit?.className}`;
  })
  .filter(Boolean)"""
#: Card captions wider than their card, or sticking out of it.
OVERFLOWING = """() => [...document.querySelectorAll('.card .fig')]
  .filter((fig) => fig.getClientRects().length)
  .filter((fig) => {
    const card = fig.closest('.card').getBoundingClientRect();
    const box = fig.getBoundingClientRect();
    const wider = fig.scrollWidth > fig.clientWidth + 1;
    return wider || box.left < card.left - 1 || box.right > card.right + 1;
  })
  .map((fig) => fig.textContent)"""


def _size(name: str) -> dict[str, int]:
    width, height = (int(n) for n in name.split("x"))
    return {"width": width, "height": height}


@pytest.mark.parametrize("size", LAYOUTS)
def test_every_button_is_itself_and_the_claim_is_sent_from_the_first_screen(
    open_browser: Any, server_url: str, shots: Path, size: str
) -> None:
    """Kraftidioten's claim form: its send button on the first screen, with nothing over
    it; every button of the table (moves, form, hand) is the element at its own centre
    once scrolled to (the hand reachable above the bar); no caption overflows its card;
    Strømkrig's moves take under a third of the screen, each with a key of its own;
    Start on the first screen of the start page."""
    page = open_browser(_size(size)).page
    page.goto(server_url)
    page.wait_for_selector("#start:not([hidden])")
    start_button = page.locator("#setup button[type=submit]").bounding_box()
    assert start_button and start_button["y"] + start_button["height"] <= _size(size)["height"]
    assert not page.evaluate(COVERED, "#setup button[type=submit]"), "Start is covered"
    start(page, server_url, "kraftidioten", 5, seed=LAYOUTS[size])
    _until(page, "!!document.querySelector('#moves button[data-kind=claim]')")
    assert not page.evaluate(OVERFLOWING), f"{size}: captions overflow their cards"
    page.click("#moves button[data-kind=claim]")
    page.wait_for_selector("#claim:not([hidden])")
    page.evaluate("window.scrollTo(0, 0)")
    send = page.locator("#claim button[type=submit]").bounding_box()
    assert send and send["y"] >= 0 and send["y"] + send["height"] <= _size(size)["height"], size
    page.screenshot(path=shots / f"{size}-claim.png")
    assert not page.evaluate(COVERED, "#claim button[type=submit]"), f"{size}: the send button"
    covered = page.evaluate(COVERED, "#moves button, #claim button, #hand button.card")
    assert not covered, f"{size}: {covered}"
    page = open_browser(_size(size)).page
    start(page, server_url, "stromkrig", 4, seed=LAYOUTS[size] + 1)
    _until(page, "document.querySelectorAll('#moves button.move').length >= 4")
    assert not page.evaluate(OVERFLOWING), f"{size}: captions overflow their cards"
    assert not page.evaluate(COVERED, "#moves button, #hand button.card")
    keys = page.locator("#moves button.move kbd").all_inner_texts()
    assert len(keys) == page.locator("#moves button.move").count() == len(set(keys))
    bar = page.locator("#moves").bounding_box()  # two rows on a phone (they scroll sideways)
    assert bar and bar["height"] <= 0.3 * _size(size)["height"], f"{size}: moves {bar['height']} px"
    before = turn(page)
    page.keyboard.press(keys[-1])  # the last move too has its key
    wait_turn_after(page, before)


@pytest.mark.parametrize("size", ["1366x768", "360x640"])
def test_a_crowd_of_moves_never_covers_the_hand(
    open_browser: Any, server_url: str, shots: Path, size: str
) -> None:
    """Strømkrig for two, played until the person has ten moves or more (a long hand's
    runs): the bar stays under a third of the screen, and every card of the hand and every
    move is the element at its own centre once scrolled to (at 1280 x 800 the bar once
    grew over the whole hand)."""
    page = open_browser(_size(size)).page
    crowded = "document.querySelectorAll('#moves button.move').length >= 10"
    for seed in range(11, 16):
        start(page, server_url, "stromkrig", 1, seed=seed)
        while page.locator("#over").is_hidden() and not page.evaluate(crowded):
            click_a_move(page, prefer_card=False)
        if page.evaluate(crowded):
            break
        page.evaluate("localStorage.clear()")  # the next game starts without asking
    assert page.evaluate(crowded), "no game of five came to ten moves"
    page.screenshot(path=shots / f"{size}-stromkrig-crowded.png")
    bar = page.locator("#actions").bounding_box()
    assert bar and bar["height"] <= 0.3 * _size(size)["height"], f"{size}: bar {bar}"
    covered = page.evaluate(COVERED, "#hand button.card, #moves button")
    assert not covered, f"{size}: {covered}"


# ---------------------------------------------------------------- the table on a phone

#: Phone widths the table must fit without panning sideways (height: a phone of that width).
PHONES = {360: 780, 390: 844, 430: 932}
AXE_SCRIPT = Path(
    os.environ.get("KRAFTSTOKK_AXE")
    or Path(__file__).resolve().parents[1] / ".venv/npm/node_modules/axe-core/axe.min.js"
)
#: Every control a finger uses, as a CSS selector: checkboxes and radios by their label.
TARGETS = (
    "button, select, summary, input[type=file], label.choice, label.variant, label.keep, "
    "label.switch"
)
SMALL_TARGETS = f"""() => [...document.querySelectorAll({json.dumps(TARGETS)})]
  .filter((node) => node.getClientRects().length && getComputedStyle(node).visibility !== 'hidden')
  .map((node) => [node, node.getBoundingClientRect()])
  .filter(([node, box]) => box.height < 44 || box.width < 44)
  .map(([node, box]) => `${{node.tagName}}#${{node.id}}.${{node.className}} `
    + `${{Math.round(box.width)}}x${{Math.round(box.height)}}`)"""


def largest_tables(server_url: str) -> dict[str, int]:
    """Each game of the server at its largest seat count (opponents)."""

    games = page_setup(server_url)["games"]
    return {game["name"]: game["opponents"][1] for game in games}


def check_phone_screen(page: Any, where: str) -> None:
    """No sideways scroll, no control under 44 px (at the person's turn: moves on screen)."""
    wide, width = page.evaluate("[document.scrollingElement.scrollWidth, innerWidth]")
    assert wide <= width, f"{where}: the page is {wide} px wide on a {width} px screen"
    small = page.evaluate(SMALL_TARGETS)
    assert not small, f"{where}: touch targets under 44 px: {small}"


def check_one_screen(page: Any, where: str) -> None:
    """The pile at the top, the first row of the hand and the moves on one screen."""
    page.evaluate("window.scrollTo(0, 0)")
    boxes = page.evaluate(
        """() => {
          const box = (q) => document.querySelector(q)?.getBoundingClientRect().toJSON();
          return {screen: innerHeight, pile: box('#pile'), hand: box('#hand .card'),
                  bar: box('#actions'), move: box('#moves button')};
        }"""
    )
    assert boxes["pile"]["bottom"] <= boxes["bar"]["top"], f"{where}: the pile is under the moves"
    assert boxes["hand"]["top"] < boxes["bar"]["top"], f"{where}: the hand is below the screen"
    if boxes["move"]:
        assert boxes["move"]["top"] >= 0 and boxes["move"]["bottom"] <= boxes["screen"], where


@pytest.mark.parametrize("width", sorted(PHONES))
def test_every_screen_fits_a_phone(
    open_browser: Any, server_url: str, shots: Path, width: int
) -> None:
    """At 360, 390 and 430 px: every game at its largest table, the start page, the rules,
    the claim form: no sideways scroll, touch targets of 44 px, pile, hand and moves on
    one screen (the moves in a bar stuck to the bottom)."""
    browser = open_browser({"width": width, "height": PHONES[width]})
    page = browser.page
    page.goto(server_url)
    page.wait_for_selector("#start:not([hidden])")
    check_phone_screen(page, "start page")
    page.click("#btn-rules")
    page.wait_for_selector("#rules-body h3, #rules-body h4")
    check_phone_screen(page, "rules")
    page.click("#btn-rules-close")
    for game, opponents in largest_tables(server_url).items():
        page = browser.tab()
        start(page, server_url, game, opponents, seed=width + 3)
        for move in range(3):
            check_phone_screen(page, f"{game}, {opponents + 1} seats, move {move}")
            check_one_screen(page, f"{game}, {opponents + 1} seats, move {move}")
            click_a_move(page, prefer_card=False)
        page.evaluate("window.scrollTo(0, 0)")
        page.screenshot(path=shots / f"phone{width}-{game}-{opponents + 1}.png")
        if page.locator("#moves button[data-kind=claim]").count():
            page.click("#moves button[data-kind=claim]")
            page.wait_for_selector("#claim:not([hidden])")
            check_phone_screen(page, f"{game}: the claim form")
            page.screenshot(path=shots / f"phone{width}-{game}-claim.png")
        page.close()


def test_a_group_is_built_by_tapping_its_cards(
    open_browser: Any, server_url: str, shots: Path
) -> None:
    """Every card of a group is tappable (not only the first); tapping its cards one after
    the other builds it, and the last tap plays it; the log tells every card laid."""
    page = open_browser(PHONE).page
    start(page, server_url, "idiot", 1, seed=42)
    group = "document.querySelector('#moves button[data-cards*=\" \"]')"
    _until(page, f"!!{group}", limit=200)
    cards = page.evaluate(f"{group}.dataset.cards").split()
    for card in cards:  # each one a button, not a picture
        assert page.locator(f'#me button.card.playable[data-card="{card}"]').count() == 1
    before = turn(page)
    for tapped, card in enumerate(cards, start=1):
        page.locator(f'#me button.card[data-card="{card}"]').tap()
        if tapped < len(cards):
            page.wait_for_function(f"document.body.dataset.selected.includes({card!r})")
            assert turn(page) == before, "played before the group was complete"
            listed = page.evaluate(
                "[...document.querySelectorAll('#moves button.move')].map(b => b.dataset.cards)"
            )
            assert listed and all(card in (held or "") for held in listed), listed
            if tapped == 1:
                page.screenshot(path=shots / "phone-idiot-group.png")
    wait_turn_after(page, before)
    names = {c["id"]: c["name"] for c in cards_of(server_url)}
    told = page.locator("#log li.mine").first.inner_text()
    assert all(names[card] in told for card in cards), told


def test_the_challenge_is_asked_where_the_eye_is_and_can_always_let_stand(
    open_browser: Any, server_url: str, shots: Path
) -> None:
    page = open_browser(PHONE).page
    start(page, server_url, "kraftidioten", 9, seed=31)
    _until(page, "!!document.querySelector('#moves button[data-kind=challenge]')")
    boxes = page.evaluate(
        """() => ['#status', '#moves button[data-kind=challenge]',
                  '#moves button[data-kind=let_stand]']
             .map((q) => document.querySelector(q).getBoundingClientRect().toJSON())"""
    )
    for box in boxes:  # the question and both answers on screen, wherever the page is
        assert box["top"] >= 0 and box["bottom"] <= PHONE["height"], boxes
    assert "?" in page.locator("#status").inner_text()
    page.screenshot(path=shots / "phone-kraftidioten-10-challenge.png")
    before = turn(page)
    page.locator("#let-stand-box").tap()  # "always let stand": this question too
    wait_turn_after(page, before)
    over = page.locator("#over")
    for _ in range(15):
        # The person's next move, or the game's end (it may end while a question is
        # answered for them, with no move left to show).
        page.locator("#moves button.move").or_(over).first.wait_for(state="visible")
        assert page.locator("#moves button[data-kind=challenge]").count() == 0
        if over.is_visible():
            break
        click_a_move(page, prefer_card=False)
    stood = int(page.evaluate("document.body.dataset.letStood || '0'"))
    assert stood >= 2  # asked again, and let stand again without a tap
    page.reload()  # the choice is this browser's
    page.wait_for_selector("#table:not([hidden]), #start:not([hidden])")
    assert page.evaluate("document.getElementById('auto-let-stand').checked")


#: Records, while the computer's moves are shown, each seat that lights up and each card
#: that flies (a MutationObserver: no timing).
RECORD_STEPS = """() => {
  window.steps = {acting: [], flying: 0, burns: 0};
  new MutationObserver((changes) => {
    for (const change of changes) {
      for (const node of change.addedNodes) if (node.classList?.contains('flying')) steps.flying++;
      const target = change.target;
      if (change.type === 'attributes' && target.classList?.contains('acting')) {
        const seat = Number(target.dataset.seat);
        if (steps.acting[steps.acting.length - 1] !== seat) steps.acting.push(seat);
      }
      const burning = target.id === 'pile' && target.classList.contains('burning');
      if (change.type === 'attributes' && burning) steps.burns++;
    }
  }).observe(document.body,
             {subtree: true, childList: true, attributes: true, attributeFilter: ['class']});
}"""


def _last_line(page: Any) -> int:
    return int(page.evaluate("document.querySelector('#log li')?.dataset.n ?? '0'"))


def _computer_seats_after(page: Any, line: int) -> list[int]:
    """The seats of the computer's log lines after line number ``line``, in order."""
    lines = page.evaluate(
        "[...document.querySelectorAll('#log li')].reverse()"
        ".map(li => [Number(li.dataset.n), Number(li.dataset.seat), li.classList.contains('mine')])"
    )
    order: list[int] = []
    for number, seat, mine in lines:
        if number > line and seat >= 0 and not mine and (not order or order[-1] != seat):
            order.append(seat)
    return order


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_the_computer_plays_one_move_at_a_time(
    open_browser: Any, server_url: str, shots: Path, size: str
) -> None:
    """At the normal pace each computer move is shown in turn: its seat lights up and its
    card flies to the pile (or a burn clears it), in the order the log tells them."""
    page = open_browser(SIZES[size], speed="normal").page
    start(page, server_url, "idiot", 4, seed=44)
    assert page.locator("#speed").input_value() == "normal"
    click_a_move(page)  # done swapping: the others swap and play
    shown = 0
    for _ in range(4):
        page.evaluate(RECORD_STEPS)
        logged = _last_line(page)
        before = turn(page)
        page.locator("#moves button.move").first.click()
        page.wait_for_function(
            f"document.body.dataset.animating || Number(document.body.dataset.turn) !== {before}"
        )
        if page.evaluate("!!document.body.dataset.animating") and not shown:
            page.wait_for_selector(".opponent.acting")
            page.screenshot(path=shots / f"{size}-idiot-computer-move.png")
        wait_turn_after(page, before)
        steps = page.evaluate("window.steps")
        assert steps["acting"] == _computer_seats_after(page, logged)
        if len(steps["acting"]) >= 2:
            assert steps["flying"] + steps["burns"] >= 1
            shown += 1
        if shown >= 2 or page.locator("#over").is_visible():
            break
    assert shown >= 2


def test_reduced_motion_shows_the_end_at_once(open_browser: Any, server_url: str) -> None:
    """With the system's reduced motion the pace starts at "instant"; chosen slower, the
    moves come one at a time without a flying card."""
    page = open_browser(DESKTOP, speed="", reduced_motion="reduce").page
    start(page, server_url, "idiot", 3, seed=45)
    assert page.locator("#speed").input_value() == "instant"
    page.evaluate(RECORD_STEPS)
    click_a_move(page)
    click_a_move(page)
    assert page.evaluate("window.steps") == {"acting": [], "flying": 0, "burns": 0}
    page.select_option("#speed", "normal")
    page.evaluate(RECORD_STEPS)
    before = turn(page)
    page.locator("#moves button.move").first.click()
    wait_turn_after(page, before)
    steps = page.evaluate("window.steps")
    assert len(steps["acting"]) >= 1 and steps["flying"] == 0


def test_focus_goes_to_the_table_and_stays_in_the_game_over_dialog(
    open_browser: Any, server_url: str
) -> None:
    page = open_browser(DESKTOP).page
    start(page, server_url, "idiot", 1, seed=41)
    assert page.evaluate("document.getElementById('table').contains(document.activeElement)")
    play_to_end(page)
    page.wait_for_function("document.activeElement.id === 'btn-again'")
    inside = "document.getElementById('over').contains(document.activeElement)"
    for key in ("Tab", "Tab", "Tab", "Shift+Tab", "Shift+Tab", "Shift+Tab", "Escape"):
        page.keyboard.press(key)
        assert page.evaluate(inside), f"the focus left the dialog after {key}"
    assert page.locator("#over").is_visible()
    # The end says more than the order: each seat's cards left and what decided it.
    over = page.locator("#over").inner_text()
    assert "kort igjen: 0" in over and page.locator("#over .turning li").count() >= 1, over
    first = page.evaluate("JSON.parse(sessionStorage.getItem('kraftstokk.tab')).id")
    page.locator("#btn-again").focus()
    page.keyboard.press("Enter")  # play again with the same seats: no start page between
    page.wait_for_selector("#over", state="hidden")
    page.wait_for_function(f"JSON.parse(sessionStorage.getItem('kraftstokk.tab')).id !== {first!r}")
    assert page.evaluate("document.body.dataset.game") == "idiot"
    assert page.locator("#opponents-row .opponent").count() == 1


def test_cards_are_on_screen_at_once_on_a_fresh_server(open_browser: Any) -> None:
    """A fresh server: the page fetches every card face as soon as it knows the deck, so
    the first table shows faces, never white blanks."""
    from kraftstokk.web.app import create_app

    with running_server(create_app(synthetic_deck(seed=3), key=TEST_KEY, allow_seed=True)) as url:
        page = open_browser(PHONE).page
        asked: list[str] = []
        page.on("request", lambda r: asked.append(r.url) if "/cards/" in r.url else None)
        page.goto(url)
        page.wait_for_selector("#start:not([hidden])")
        page.wait_for_function("performance.getEntriesByType('resource').length > 50")
        assert len(set(asked)) == 56  # 55 faces and the back, before any game starts
        start(page, url, "stromkrig", 2, seed=1)
        page.wait_for_function(
            "[...document.querySelectorAll('#table img')]"
            ".every(img => img.complete && img.naturalWidth > 0)"
        )


def test_no_serious_accessibility_problem_on_any_screen(open_browser: Any, server_url: str) -> None:
    """axe-core (npm, installed by ``make axe``) on every screen at both sizes: no serious
    or critical violation."""
    if not AXE_SCRIPT.is_file():
        pytest.skip(f"no axe-core at {AXE_SCRIPT} (make axe installs it; it needs npm)")
    found: list[str] = []

    def audit(page: Any, where: str) -> None:
        if not page.evaluate("typeof axe !== 'undefined'"):
            page.add_script_tag(path=str(AXE_SCRIPT))
        violations = page.evaluate(
            """() => axe.run(document, {resultTypes: ['violations']}).then((r) => r.violations
                 .filter((v) => v.impact === 'serious' || v.impact === 'critical')
                 .map((v) => `${v.id}: `
                   + v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')))"""
        )
        found.extend(f"{where}: {v}" for v in violations)

    for size, viewport in SIZES.items():
        browser = open_browser(viewport)
        page = browser.page
        page.goto(server_url)
        page.wait_for_selector("#start:not([hidden])")
        audit(page, f"{size} start")
        page.click("#btn-rules")
        page.wait_for_selector("#rules-body h3, #rules-body h4")
        audit(page, f"{size} rules")
        page.click("#btn-rules-close")
        for game, opponents in (("kraftidioten", 3), ("stromkrig", 4), ("idiot", 1)):
            page = browser.tab()
            start(page, server_url, game, opponents, seed=50)
            click_a_move(page, prefer_card=False)
            audit(page, f"{size} {game}")
            if page.locator("#moves button[data-kind=claim]").count():
                page.click("#moves button[data-kind=claim]")
                page.wait_for_selector("#claim:not([hidden])")
                audit(page, f"{size} {game} claim")
        play_to_end(page)
        audit(page, f"{size} game over")
        page.click("#btn-start")
        page.wait_for_selector("#start:not([hidden])")
        page.check("input[name=game][value=kraftidioten]")
        page.click("#setup button[type=submit]")
        page.wait_for_selector("#confirm-dialog[open]")
        audit(page, f"{size} replace?")
        page.click("#btn-keep")
    assert not found, "\n".join(found)


@pytest.mark.parametrize(("game", "seed"), [("kraftidioten", 9), ("stromkrig", 3)])
@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_whole_games_with_the_computer_shown(
    open_browser: Any, server_url: str, shots: Path, size: str, game: str, seed: int
) -> None:
    """The power-plant games to the end with the computer's moves shown at the normal pace,
    each run cut short by a tap (the Idiot is played to the end above); the over dialog
    names the order, and the save is finished."""
    page = open_browser(SIZES[size], speed="normal").page
    start(page, server_url, game, 1, seed=seed)
    shown = moves = 0
    while page.locator("#over").is_hidden():
        assert moves < MAX_CLICKS, "the game did not end"
        shown += click_a_move(page, prefer_card=False, skip=True)
        moves += 1
    page.screenshot(path=shots / f"{size}-{game}-over.png")
    assert shown >= moves // 3  # the computer moved in most answers, shown each time
    assert page.locator("#over ol li").count() >= 1 and page.locator("#over .loser").count() == 1
    assert _saves(page)[game]["finished"] is True


def test_a_refusal_is_told_in_the_pages_language(open_browser: Any, server_url: str) -> None:
    """A claim the server refuses (a figure not the plant's that is not whole): told in the
    page's words, in each language the page is switched to."""
    browser = open_browser(PHONE)
    browser.expected.append("status of 422")
    page = browser.page
    start(page, server_url, "kraftidioten", 2, seed=5)
    _until(page, "!!document.querySelector('#moves button[data-kind=claim]')")
    told = {"nb": "er et helt tall", "en": "is a whole number", "nn": "er eit heilt tal"}
    for lang, words in told.items():
        page.select_option("#lang", lang)
        if page.locator("#claim").is_hidden():  # refused, the form stays: its words change
            page.click("#moves button[data-kind=claim]")
        page.wait_for_selector("#claim:not([hidden])")
        page.fill("#claim-amount", "1,5")
        page.click("#claim button[type=submit]")
        page.wait_for_selector("#error:not([hidden])")
        assert words in page.locator("#error").inner_text()
        page.evaluate("document.getElementById('error').hidden = true")
