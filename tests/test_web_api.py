"""The web app's API: every endpoint, bad input as 4xx JSON, saves, eviction, secrecy."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from kraftstokk.design.blocks import CardRow, Example
from kraftstokk.games import registry
from kraftstokk.games.replay import ReplayLog, load_replay, replay_log
from kraftstokk.locales import languages
from kraftstokk.models import Deck
from kraftstokk.render.booklet_content import game_chapters
from kraftstokk.web import views
from kraftstokk.web.seal import SaveKey
from kraftstokk.web.sessions import GameStore
from tests.conftest import synthetic_deck
from tests.web_helpers import (
    TEST_KEY,
    client_for,
    new_game,
    plain_log,
    play_through,
    sealed_content,
)


@pytest.fixture
def client(deck: Deck) -> Any:
    with client_for(deck) as test_client:
        yield test_client


def test_page_is_self_contained(client: Any) -> None:
    response = client.get("/")
    assert response.status_code == 200
    html = response.text
    assert '<script src="static/app.js"' in html  # relative: the app works wherever it is mounted
    assert "default-src 'self'" in response.headers["content-security-policy"]
    assert "http://" not in html and "https://" not in html  # nothing from the network
    for asset in ("/static/app.js", "/static/table.js", "/static/app.css"):
        body = client.get(asset).text
        assert "http://" not in body and "https://" not in body, asset


@pytest.mark.inventory
def test_setup_lists_games_cards_and_texts(client: Any) -> None:
    data = client.get("/api/setup").json()
    assert [g["name"] for g in data["games"]] == views.games()  # the menus' order
    ranges = {g["name"]: g["opponents"] for g in data["games"]}
    assert {"idiot": [1, 4], "kraftidioten": [1, 9], "stromkrig": [1, 5]}.items() <= ranges.items()
    for game in data["games"]:
        spec = registry.get_spec(game["name"])
        assert ranges[spec.name] == [spec.min_players - 1, spec.max_players - 1]
        assert set(game["bots"]) == set(spec.bots) and game["default_bot"] == spec.default_bot
    assert len(data["cards"]) == 55
    assert set(data["texts"]) == set(languages())
    idiot = next(g for g in data["games"] if g["name"] == "idiot")
    for language in languages():  # the page words each variant in every language
        described = data["texts"][language]["games"]["idiot"]["variants"]
        assert set(described) == set(idiot["variants"])


def test_card_images(client: Any) -> None:
    response = client.get("/cards/spar-1.webp")
    assert response.status_code == 200
    assert response.headers["content-type"] == "image/webp"
    assert response.content[:4] == b"RIFF" and response.content[8:12] == b"WEBP"
    assert client.get("/cards/back.webp").status_code == 200
    again = client.get("/cards/spar-1.webp", headers={"If-None-Match": response.headers["etag"]})
    assert again.status_code == 304
    missing = client.get("/cards/spar-99.webp")
    assert missing.status_code == 404
    assert "spar-99" in missing.json()["error"]


@pytest.mark.inventory
def test_rules_panel_per_language(client: Any) -> None:
    nb = client.get("/api/rules/nb").json()
    en = client.get("/api/rules/en").json()
    chaptered = [name for name in views.games() if registry.get_spec(name).module("chapter")]
    assert list(nb) == list(en) == chaptered and {"idiot", "stromkrig"} <= set(chaptered)
    assert any(b["type"] == "heading" for b in nb["idiot"])
    assert nb["idiot"] != en["idiot"]
    bad = client.get("/api/rules/de")
    assert bad.status_code == 400 and "de" in bad.json()["error"]


def test_rules_panel_has_every_block_of_the_booklet(client: Any, deck: Deck) -> None:
    """Each chapter block by block, the quick reference with its steps and table included;
    the lie example's cards that lie face down in the booklet are sent as no card."""
    for language in languages():
        panel = client.get(f"/api/rules/{language}").json()
        for game, chapter in game_chapters(deck, language).items():
            kinds = [block["type"] for block in panel[game]]
            assert len(kinds) == len(chapter.blocks), (language, game)
            quick = next(b for b in panel[game] if b["type"] == "quick")
            bodies = [section["body"]["type"] for section in quick["sections"]]
            assert {"para", "steps", "table"} <= set(bodies), (language, game)
            table = next(s["body"] for s in quick["sections"] if s["body"]["type"] == "table")
            assert table["rows"] and all(len(r) == len(table["headings"]) for r in table["rows"])
            rows = [part for b in chapter.blocks if isinstance(b, Example) for part in b.body]
            sent = [part for b in panel[game] if b["type"] == "example" for part in b["body"]]
            for row, shown in zip(rows, sent, strict=True):
                if isinstance(row, CardRow):
                    assert shown["cards"] == [
                        None if i in row.face_down else card.id for i, card in enumerate(row.cards)
                    ]
        lie = [
            b
            for b in panel["kraftidioten"]
            if b["type"] == "example"
            for part in b["body"]
            if part["type"] == "cards" and None in part["cards"]
        ]
        assert len(lie) == 1, language  # the lie example: two claims nobody turned


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"game": "poker", "opponents": 1}, "game"),
        ({"game": "idiot", "opponents": 5}, "1-4"),
        ({"game": "stromkrig", "opponents": 6}, "1-5"),
        ({"game": "idiot", "opponents": 0}, "opponents"),
        ({"game": "idiot", "opponents": 2, "bots": "genius"}, "genius"),
        ({"game": "idiot", "opponents": 2, "variants": ["jokers"]}, "jokers"),
        ({"game": "idiot", "opponents": 2, "colour": "red"}, "colour"),
        ({"game": "idiot", "opponents": "two"}, "opponents"),
    ],
)
def test_new_game_refusals(client: Any, body: dict[str, Any], words: str) -> None:
    response = client.post("/api/games", json=body)
    assert response.status_code == 400, response.text
    assert words in response.json()["error"]


def test_bodies_that_are_not_json_or_too_large(client: Any) -> None:
    as_json = {"content-type": "application/json"}
    empty = client.post("/api/games", content=b"", headers=as_json)
    assert empty.status_code == 400 and "empty" in empty.json()["error"]
    broken = client.post("/api/games", content=b"{nope", headers=as_json)
    assert broken.status_code == 400 and "not JSON" in broken.json()["error"]
    listed = client.post("/api/games", json=[1, 2])
    assert listed.status_code == 400
    huge = client.post("/api/games", content=b"x" * (600 * 1024), headers=as_json)
    assert huge.status_code == 413 and "kB" in huge.json()["error"]
    assert huge.headers["connection"] == "close"


def test_unknown_game_ids_and_delete(client: Any) -> None:
    for method, path in (
        ("GET", "/api/games/nope"),
        ("DELETE", "/api/games/nope"),
        ("POST", "/api/games/nope/moves"),
    ):
        response = client.request(method, path, json={"turn": 0, "move": 0})
        assert response.status_code == 404, (method, path)
        assert "no game" in response.json()["error"]
    game = new_game(client, "idiot", 1, seed=3)
    assert len(game["id"]) >= 20  # 128 random bits, URL-safe
    assert client.delete(f"/api/games/{game['id']}").status_code == 204
    assert client.get(f"/api/games/{game['id']}").status_code == 404


def test_stale_and_illegal_moves(client: Any) -> None:
    game = new_game(client, "idiot", 2, seed=5)
    url = f"/api/games/{game['id']}/moves"
    stale = client.post(url, json={"turn": game["turn"] + 3, "move": 0})
    assert stale.status_code == 409 and "turn" in stale.json()["error"]
    illegal = client.post(url, json={"turn": game["turn"], "move": 999})
    assert illegal.status_code == 422 and "999" in illegal.json()["error"]
    neither = client.post(url, json={"turn": game["turn"]})
    assert neither.status_code == 422
    claim = client.post(
        url,
        json={
            "turn": game["turn"],
            "claim": {"card": "spar-1", "category": "gwh", "plant_id": "x"},
        },
    )
    assert claim.status_code == 422 and "claims" in claim.json()["error"]
    negative = client.post(url, json={"turn": -1, "move": 0})
    assert negative.status_code == 400 and "turn" in negative.json()["error"]
    ok = client.post(url, json={"turn": game["turn"], "move": game["moves"]["list"][0]["i"]})
    assert ok.status_code == 200 and ok.json()["turn"] > game["turn"]


def test_bad_claims_are_refused_with_the_reason(client: Any) -> None:
    game = new_game(client, "kraftidioten", 2, seed=11)
    while game["moves"]["claim"] is None:  # play until the person may lay a card
        game = client.post(
            f"/api/games/{game['id']}/moves",
            json={"turn": game["turn"], "move": game["moves"]["list"][0]["i"]},
        ).json()
    url = f"/api/games/{game['id']}/moves"
    card = game["moves"]["claim"]["cards"][0]
    category = game["moves"]["claim"]["categories"][0]
    cases = [
        ({"card": "spar-99", "category": category, "plant_id": "N100"}, "spar-99"),
        ({"card": card, "category": "colour", "plant_id": "N100"}, "colour"),
        ({"card": card, "category": category, "plant_id": "N999"}, "N999"),
    ]
    for claim, words in cases:
        response = client.post(url, json={"turn": game["turn"], "claim": claim})
        assert response.status_code == 422, response.text
        assert words in response.json()["error"]


def test_a_finished_game_downloads_as_a_replay_log_play_can_load(
    client: Any, tmp_path: Path
) -> None:
    snapshots = play_through(client, "idiot", 2, seed=21)
    save = snapshots[-1]["save"]
    assert save["finished"] is True and save["format"] == "kraftstokk-web-save"
    response = client.post("/api/replay", json={"save": save})
    assert response.status_code == 200, response.text
    assert "attachment" in response.headers["content-disposition"]
    log = ReplayLog.model_validate(response.json())
    assert log.bots == ["person", "greedy", "greedy"]
    assert log.result is not None and log.result.finished
    path = tmp_path / "save.json"
    path.write_text(response.text, encoding="utf-8")
    state = replay_log(load_replay(path))
    assert state.is_terminal()
    assert state.result().order == snapshots[-1]["over"]["order"]


def test_an_unfinished_game_stays_sealed(client: Any) -> None:
    snapshots = play_through(client, "kraftidioten", 2, seed=3, stop_at=6)
    response = client.post("/api/replay", json={"save": snapshots[-1]["save"]})
    assert response.status_code == 409 and "not over" in response.json()["error"]


def test_every_answer_carries_the_save_and_never_the_actions(client: Any) -> None:
    snapshots = play_through(client, "stromkrig", 2, seed=4, stop_at=12)
    ids = {s["save"]["id"] for s in snapshots}
    assert len(ids) == 1  # one game, one save, whatever the server's session id
    for snapshot in snapshots:
        assert "new_actions" not in snapshot and "actions" not in json.dumps(snapshot)
        save = snapshot["save"]
        assert set(save) == {
            "format",
            "version",
            "id",
            "game",
            "players",
            "turn",
            "finished",
            "sealed",
        }
        assert save["turn"] == snapshot["turn"] and save["game"] == "stromkrig"
    turns = [s["turn"] for s in snapshots]
    assert turns == sorted(turns) and turns[0] == 0 < turns[-1]


def test_resume_continues_the_same_game(client: Any) -> None:
    """The save holds every action: the table is as it was, and only the cards no seat
    has seen are dealt again (a redeal where the save ended)."""
    snapshots = play_through(client, "stromkrig", 3, seed=8, stop_at=30)
    last = snapshots[-1]
    client.delete(f"/api/games/{last['id']}")  # as if evicted or the server restarted
    lang = next(iter(last["log"][-1]["text"]))  # the deck's language: no request named one
    resumed = client.post("/api/games/resume", json={"save": last["save"], "lang": lang})
    assert resumed.status_code == 200, resumed.text
    data = resumed.json()
    assert data["id"] != last["id"]
    assert data["turn"] == last["turn"] and data["view"] == last["view"]
    assert data["moves"] == last["moves"]
    before, after = sealed_content(last["save"]), sealed_content(data["save"])
    assert after["actions"] == before["actions"] and before["redeals"] == []
    assert [int(at, 16) for at, _ in after["redeals"]] == [len(before["actions"])]
    assert {k: v for k, v in data["save"].items() if k != "sealed"} == {
        k: v for k, v in last["save"].items() if k != "sealed"
    }
    assert [line["text"] for line in data["log"]][-5:] == [line["text"] for line in last["log"]][
        -5:
    ]


def test_a_resumed_game_keeps_what_was_seen_and_deals_the_unseen_anew(client: Any) -> None:
    """Peeking and rolling back gains nothing: each resume of one save deals the stock
    anew, the seats' cards and the table stay, and the game plays on to an end that its
    downloaded log (with the redeals) replays to."""
    cut = play_through(client, "kraftidioten", 3, seed=12, stop_at=5)
    store: GameStore = client.app.state.store
    stocks = []
    for _ in range(4):
        resumed = client.post("/api/games/resume", json={"save": cut[-1]["save"]}).json()
        assert resumed["view"] == cut[-1]["view"] and resumed["moves"] == cut[-1]["moves"]
        state = store.get(resumed["id"]).state
        places = state.card_locations()
        stocks.append(places.pop("stock"))
        first = store.get(cut[-1]["id"]).state.card_locations()
        assert places == {place: cards for place, cards in first.items() if place != "stock"}
    assert len({tuple(stock) for stock in stocks}) == 4 and len({frozenset(s) for s in stocks}) == 1
    rest = play_through(client, "kraftidioten", 3, seed=12, start=resumed)
    assert rest[-1]["over"] is not None
    log = client.post("/api/replay", json={"save": rest[-1]["save"]}).json()
    assert len(log["redeals"]) == 1
    assert replay_log(ReplayLog.model_validate(log)).result().order == rest[-1]["over"]["order"]


def test_resume_refuses_foreign_or_broken_saves(deck: Deck, client: Any) -> None:
    snapshots = play_through(client, "idiot", 1, seed=4, stop_at=12)
    save = snapshots[-1]["save"]
    sealed = save["sealed"]
    flipped = sealed[:40] + ("A" if sealed[40] != "A" else "B") + sealed[41:]
    with client_for(deck, key=SaveKey(bytes(32))) as other_server:
        foreign = other_server.post("/api/games/resume", json={"save": save})
    assert foreign.status_code == 400 and "another server" in foreign.json()["error"]
    cases = [
        ({**save, "sealed": flipped}, "changed"),
        ({**save, "sealed": "not base64!"}, "base64"),
        ({**save, "format": "chess"}, "format"),
        ({**save, "version": 7}, "version"),
        ({**save, "extra": 1}, "extra"),
    ]
    for broken, words in cases:
        response = client.post("/api/games/resume", json={"save": broken})
        assert response.status_code == 400, (words, response.text)
        assert words in response.json()["error"], response.json()
    assert client.post("/api/games/resume", json={"nosave": 1}).status_code == 400


def test_a_long_save_is_sealed_in_pieces_bound_to_each_other(client: Any) -> None:
    """A save longer than one piece is sealed piece by piece as the game grows (each whole
    piece once), gives the same text as sealing it whole, and resumes; a piece changed,
    left out, moved, or taken from another game's save is refused like a changed bit."""
    answers = play_through(client, "stromkrig", 4, seed=3)
    pieces_seen = [a["save"]["sealed"].count(".") for a in answers]
    assert pieces_seen[0] == 0 and pieces_seen[-1] >= 1  # one piece at first, more later
    for answer in answers[:: max(1, len(answers) // 8)] + answers[-1:]:
        sealed = answer["save"]["sealed"]
        assert TEST_KEY.seal(TEST_KEY.open(sealed)) == sealed
    save = answers[-1]["save"]
    assert client.post("/api/games/resume", json={"save": save}).status_code == 200
    pieces = save["sealed"].split(".")
    other = play_through(client, "stromkrig", 4, seed=4)[-1]["save"]["sealed"].split(".")
    flipped = pieces[0][:10] + ("A" if pieces[0][10] != "A" else "B") + pieces[0][11:]
    broken = [
        [flipped, *pieces[1:]],  # a bit changed in a whole piece
        pieces[1:],  # the first piece left out
        pieces[:-1],  # cut short: a whole piece is no last one
        [pieces[1], pieces[0], *pieces[2:]],  # two pieces swapped
        [other[0], *pieces[1:]],  # another game's first piece
        [*pieces[:-1], other[-1]],  # another game's last piece
    ]
    for parts in broken:
        response = client.post(
            "/api/games/resume", json={"save": {**save, "sealed": ".".join(parts)}}
        )
        assert response.status_code == 400, response.text
        assert "changed" in response.json()["error"], response.json()


def test_resume_refuses_broken_replay_logs(client: Any) -> None:
    snapshots = play_through(client, "idiot", 1, seed=4, stop_at=12)
    log = plain_log(client, snapshots[-1]["id"])
    other_deck = synthetic_deck(seed=99).model_dump(mode="json")
    cases = [
        ({**log, "deck": other_deck}, "another deck"),
        ({**log, "version": 7}, "version"),
        ({**log, "actions": [[99, 99]]}, "does not replay"),
        ({**log, "bots": ["greedy", "greedy"]}, "person"),
        ({**log, "rules": {**log["rules"], "players": 9}}, "players"),
    ]
    for broken, words in cases:
        response = client.post("/api/games/resume", json={"save": broken})
        assert response.status_code == 400, (words, response.text)
        assert words in response.json()["error"], response.json()
    good = client.post("/api/games/resume", json={"save": log})
    assert good.status_code == 200, good.text
    assert good.json()["view"] == snapshots[-1]["view"]


def test_memory_is_bounded_and_idle_games_are_evicted(deck: Deck) -> None:
    now = [1000.0]
    store = GameStore(deck, TEST_KEY, max_games=2, idle_seconds=60, clock=lambda: now[0])
    with client_for(deck, store=store) as client:
        first = new_game(client, "idiot", 1, seed=1)
        second = new_game(client, "idiot", 1, seed=2)
        third = new_game(client, "idiot", 1, seed=3)
        assert len(store) == 2
        assert client.get(f"/api/games/{first['id']}").status_code == 404
        assert client.get(f"/api/games/{second['id']}").status_code == 200
        now[0] += 61
        gone = client.get(f"/api/games/{third['id']}")
        assert gone.status_code == 404 and "save" in gone.json()["error"]
        assert len(store) == 0


@pytest.mark.parametrize("game", ["idiot", "kraftidioten", "stromkrig"])
def test_a_first_edition_save_is_upgraded_or_refused(client: Any, game: str) -> None:
    """A version-1 save (action kinds 0, 1, ...) continues in today's kinds, or is refused."""
    from kraftstokk.games.registry import get_spec

    snapshots = play_through(client, game, 1, seed=6, stop_at=10)
    save = plain_log(client, snapshots[-1]["id"])
    spec = get_spec(game)
    old = {new: old for old, new in (spec.v1_action_kinds or {}).items()}
    if not old:  # the rules changed: no first-edition kinds to write such a save with
        kinds = sorted({action[0] for action in save["actions"]})
        old = {kind: index for index, kind in enumerate(kinds)}
    first_edition = {
        **save,
        "version": 1,
        "actions": [[old[a[0]], *a[1:]] for a in save["actions"]],
    }
    response = client.post("/api/games/resume", json={"save": first_edition})
    if spec.v1_action_kinds is None:
        assert response.status_code == 400
        assert "version-1" in response.json()["error"]
    else:
        assert response.status_code == 200, response.text
        assert response.json()["view"] == snapshots[-1]["view"]
        assert plain_log(client, response.json()["id"])["actions"] == save["actions"]


def test_server_timing_only_when_the_benchmark_asks(deck: Deck, monkeypatch: Any) -> None:
    """A move's server time tells how long the engine thought (a lie may take longer)."""
    monkeypatch.delenv("KRAFTSTOKK_SERVER_TIMING", raising=False)
    with client_for(deck) as plain:
        snapshot = new_game(plain, "kraftidioten", 3, seed=4)
        moved = plain.post(
            f"/api/games/{snapshot['id']}/moves",
            json={"turn": snapshot["turn"], "move": snapshot["moves"]["list"][0]["i"]}
            if snapshot["moves"]["list"]
            else {"turn": 0, "move": 0},
        )
        for response in (plain.get("/"), plain.get("/api/setup"), moved):
            assert "server-timing" not in response.headers
    monkeypatch.setenv("KRAFTSTOKK_SERVER_TIMING", "1")
    with client_for(deck) as timed:
        timing = timed.get("/api/setup").headers["server-timing"]
        assert timing.startswith("app;dur=") and float(timing.split("=")[1]) >= 0


def _move_anywhere(clients: list[Any], snapshot: dict[str, Any], body: dict[str, Any], pick: int):
    """A move as the page makes it when processes share the port: sent to any of them; one
    that does not know the game (404) or holds an older copy (409) gets the save with it."""
    client = clients[pick]
    response = client.post(f"/api/games/{snapshot['id']}/moves", json=body)
    if response.status_code in (404, 409):
        response = client.post("/api/games/resume", json={"save": snapshot["save"], "then": body})
    assert response.status_code == 200, response.text
    return response.json()


def test_any_process_can_serve_any_move(deck: Deck) -> None:
    """Two apps with one key (two worker processes): a game whose moves go to either one
    goes on move by move to its end, and its log replays to that end (each process that
    took the game over dealt its unseen cards anew, and the log says where)."""
    import random

    from tests.web_helpers import cards_of, next_request

    with client_for(deck) as first, client_for(deck) as second:
        cards = cards_of(first)
        spread = [new_game(first, "stromkrig", 3, seed=17)]
        picks = random.Random(5)
        while spread[-1]["over"] is None:
            body = next_request(spread[-1], cards, random.Random(spread[-1]["turn"]))
            spread.append(_move_anywhere([first, second], spread[-1], body, picks.randrange(2)))
            assert spread[-1]["turn"] == spread[-2]["turn"] + 1
            assert spread[-1]["save"]["id"] == spread[0]["save"]["id"]
        assert len(first.app.state.store) + len(second.app.state.store) > 2  # resumed
        log = first.post("/api/replay", json={"save": spread[-1]["save"]}).json()
    assert len(log["redeals"]) > 1
    assert replay_log(ReplayLog.model_validate(log)).result().order == spread[-1]["over"]["order"]


def test_the_computers_lines_carry_the_table_after_each_move(client: Any) -> None:
    """The page shows the computer's moves one at a time from each line's step: the seat's
    own view after that move (the last one is the table the answer shows)."""
    snapshots = play_through(client, "idiot", 4, seed=9, stop_at=8)
    stepped = 0
    for snapshot in snapshots[1:]:
        steps = [line["step"] for line in snapshot["log"] if "step" in line]
        stepped += len(steps)
        if steps and snapshot["over"] is None:
            assert steps[-1] == {key: snapshot["view"][key] for key in steps[-1]}
            assert set(steps[-1]) == {"current", "pile", "counts", "notes", "panels", "players"}
    assert stepped > 10
    resumed = client.post("/api/games/resume", json={"save": snapshots[-1]["save"]}).json()
    assert not [line for line in resumed["log"] if "step" in line]  # a replay shows no steps
