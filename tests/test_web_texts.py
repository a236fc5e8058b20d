"""Every word the web page shows is in every language's locale files.

The page (``web/static/app.js``, ``web/templates/index.html``) looks words up by key; the
games' views (``games/<game>/view.py``) send keys too (a count's label, a panel's, the
phase, a move's kind). This test reads every key the page's code names, plays every game
the server offers through the API to collect every key the views send, and looks each up
the way the page does (a game's own under ``games.<game>``, else ``ui`` or ``moves``) in
every language. A word missing in one language would show as its raw key ("phases.war").
"""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest

from kraftstokk import locales
from kraftstokk.games.registry import bot_kinds, get_spec
from kraftstokk.web import views
from kraftstokk.web.catalogue import texts
from tests.conftest import synthetic_deck
from tests.web_helpers import cards_of, client_for, next_request

#: Languages, games or fields from the inventories: tests/test_inventory.py runs these.
pytestmark = pytest.mark.inventory

WEB = Path(views.__file__).resolve().parent
SCRIPT = (WEB / "static" / "app.js").read_text(encoding="utf-8")
PAGE = (WEB / "templates" / "index.html").read_text(encoding="utf-8")

#: The page's own keys: t("ui.x"), t("moves.x"), data-t="ui.x".
STATIC = re.compile(r"""\bt\("((?:ui|moves)\.[a-z_]+)"|data-t="([a-z_.]+)\"""")
#: Keys of the game being played: gt("loser"), gt("moves.pair_pick").
GAME_WORDS = re.compile(r"""\bgt\("([a-z_.]+)\"""")


def lookup(table: dict[str, Any], key: str) -> Any:
    node: Any = table
    for part in key.split("."):
        node = node.get(part) if isinstance(node, dict) else None
    return node


def game_word(table: dict[str, Any], game: str, key: str) -> Any:
    """As the page's ``gt``: the game's own word, else the page's (moves: ``moves.<kind>``)."""
    own = lookup(table, f"games.{game}.{key}")
    if isinstance(own, str):
        return own
    return lookup(table, key if key.startswith("moves.") else f"ui.{key}")


def test_the_page_names_keys_the_test_can_read():
    static = {a or b for a, b in STATIC.findall(SCRIPT + PAGE)}
    assert {"ui.start", "ui.game_over", "moves.claim", "ui.claim_title"} <= static
    assert {"loser", "war", "moves.pair_pick"} <= set(GAME_WORDS.findall(SCRIPT))


@pytest.mark.parametrize("code", locales.languages())
def test_every_key_the_page_names_is_in_the_language(code: str):
    table = texts(code)
    missing = [
        key
        for a, b in STATIC.findall(SCRIPT + PAGE)
        if not isinstance(lookup(table, key := a or b), str)
    ]
    for game in views.games():
        spec = get_spec(game)
        for key in ("title", "blurb", "loser"):
            if not isinstance(game_word(table, game, key), str):
                missing.append(f"games.{game}.{key}")
        missing += [
            f"games.{game}.variants.{v}"
            for v in spec.variant_names
            if not isinstance(lookup(table, f"games.{game}.variants.{v}"), str)
        ]
        missing += [
            f"bots.{k}" for k in bot_kinds(game) if not isinstance(lookup(table, f"bots.{k}"), str)
        ]
    missing += [
        f"categories.{c}"
        for c in ("mw", "gwh", "head_m")
        if not isinstance(lookup(table, f"categories.{c}"), str)
    ]
    assert table["language"]["name"] and not missing, missing


def _keys_of(view: dict[str, Any], moves: dict[str, Any]) -> set[str]:
    """Every key an answer asks the page to look up in the game's words."""
    keys = {f"phases.{view['phase']}"} if view["phase"] != "over" else set()
    keys |= {item["label"] for item in view["counts"]}
    keys |= {note["text"] for note in view["notes"]}
    keys |= {row["label"] for row in view["rows"]}
    for panel in view["panels"]:
        keys |= {panel[k] for k in ("label", "text") if k in panel}
        if panel["type"] == "war":
            keys |= {"war", "war_in", "war_category"}
    if view["question"]:
        keys.add(view["question"]["text"])
    for move in moves["list"]:
        keys.add(f"moves.{move.get('label', move['kind'])}")
        if move.get("pair"):
            keys.add("moves.pair_pick")
    return keys


#: Games to play per game, with variants and seat counts that reach every kind of move.
PLAYS = {
    "idiot": [(3, ["sequences", "sneak_three", "no_finish_on_two"], s) for s in (1, 2, 3)]
    + [(1, ["two_same_player"], 4)],
    "kraftidioten": [(2, [], s) for s in (1, 2, 3)],
    "stromkrig": [(4, [], s) for s in range(1, 9)],
}


@pytest.fixture(scope="module")
def keys_sent() -> dict[str, set[str]]:
    """What the views send, per game, over whole games of every game the server offers."""
    found: dict[str, set[str]] = {}
    with client_for(synthetic_deck()) as client:
        cards = cards_of(client)
        for game in views.games():
            for opponents, variants, seed in PLAYS.get(game, [(1, [], 1)]):
                rng = random.Random(seed)
                body = {"game": game, "opponents": opponents, "bots": "random", "seed": seed}
                snapshot = client.post("/api/games", json={**body, "variants": variants}).json()
                for _ in range(400):
                    found.setdefault(game, set()).update(
                        _keys_of(snapshot["view"], snapshot["moves"])
                    )
                    if snapshot["over"] is not None:
                        break
                    request = next_request(snapshot, cards, rng)
                    snapshot = client.post(
                        f"/api/games/{snapshot['id']}/moves", json=request
                    ).json()
    return found


def test_the_games_send_the_keys_of_their_whole_table(keys_sent):
    assert {"moves.swap", "moves.play_many", "moves.pair_pick", "stacked", "reset_on"} <= keys_sent[
        "idiot"
    ]
    assert {"moves.sneak", "moves.end_run"} <= keys_sent["idiot"]
    assert {"challenge_q", "shown", "moves.let_stand", "phases.challenge"} <= keys_sent[
        "kraftidioten"
    ]
    assert {"war", "phases.war", "phases.name", "moves.war_lay", "beside"} <= keys_sent["stromkrig"]


@pytest.mark.parametrize("code", locales.languages())
def test_every_key_the_games_send_is_in_the_language(keys_sent, code: str):
    table = texts(code)
    missing = [
        f"{game}: {key}"
        for game, keys in keys_sent.items()
        for key in sorted(keys)
        if not isinstance(game_word(table, game, key), str)
    ]
    assert not missing, missing


def page_texts(table: dict[str, Any], path: str = "") -> list[tuple[str, str]]:
    """Every text of the page's words by its key, but a game's own (``[games.<name>]``)."""
    found = []
    for key, value in table.items():
        here = f"{path}{key}"
        if here == "games":
            continue
        if isinstance(value, dict):
            found += page_texts(value, f"{here}.")
        elif isinstance(value, str):
            found.append((here, value))
        elif isinstance(value, list):
            found += [
                (f"{here}[{n}]", item) for n, item in enumerate(value) if isinstance(item, str)
            ]
    return found


@pytest.mark.parametrize("code", locales.languages())
def test_the_page_names_no_game_but_in_its_own_words(code: str):
    """The page's intro (``ui.tagline``) lists the games from the registry, so a fourth game
    reaches it with no edit here: no other text of web.toml names a game."""
    titles = {get_spec(name).title(code) for name in views.games()}
    page = locales.load(code).part("web")
    named = [(key, title) for key, text in page_texts(page) for title in titles if title in text]
    assert not named
    assert "{games}" in page["ui"]["tagline"]
    assert re.search(r't\("ui\.tagline", \{ games: gameTitles\(\) \}\)', SCRIPT)
