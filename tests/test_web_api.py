"""The web app's API: every endpoint, bad input as 4xx JSON, saves, eviction, secrecy."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kraftstokk.games.replay import ReplayLog, load_replay, replay_log
from kraftstokk.models import Deck
from kraftstokk.web.sessions import GameStore
from tests.conftest import synthetic_deck
from tests.web_helpers import client_for, new_game, next_request, response_text_without_save


@pytest.fixture
def client(deck: Deck) -> Any:
    with client_for(deck) as test_client:
        yield test_client


def cards_of(client: Any) -> dict[str, Any]:
    return {card["id"]: card for card in client.get("/api/setup").json()["cards"]}


def test_page_is_self_contained(client: Any) -> None:
    response = client.get("/")
    assert response.status_code == 200
    html = response.text
    assert '<script src="/static/app.js"' in html
    assert "default-src 'self'" in response.headers["content-security-policy"]
    assert "http://" not in html and "https://" not in html  # nothing from the network
    for asset in ("/static/app.js", "/static/app.css"):
        body = client.get(asset).text
        assert "http://" not in body and "https://" not in body, asset


def test_setup_lists_games_cards_and_texts(client: Any) -> None:
    data = client.get("/api/setup").json()
    ranges = {g["name"]: g["opponents"] for g in data["games"]}
    assert ranges == {"idiot": [1, 4], "kraftidioten": [1, 9], "stromkrig": [1, 5]}
    assert all(set(g["bots"]) >= {"random", "greedy", "heuristic"} for g in data["games"])
    assert len(data["cards"]) == 55
    assert set(data["texts"]) == {"nb", "en"}
    idiot = next(g for g in data["games"] if g["name"] == "idiot")
    for language in ("nb", "en"):
        described = data["texts"][language]["variants"]["idiot"]
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


def test_rules_panel_per_language(client: Any) -> None:
    nb = client.get("/api/rules/nb").json()
    en = client.get("/api/rules/en").json()
    assert set(nb) == set(en) == {"idiot", "kraftidioten", "stromkrig"}
    assert any(b["type"] == "heading" for b in nb["idiot"])
    assert nb["idiot"] != en["idiot"]
    bad = client.get("/api/rules/de")
    assert bad.status_code == 400 and "de" in bad.json()["error"]


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
    empty = client.post("/api/games", content=b"")
    assert empty.status_code == 400 and "empty" in empty.json()["error"]
    broken = client.post(
        "/api/games", content=b"{nope", headers={"content-type": "application/json"}
    )
    assert broken.status_code == 400 and "not JSON" in broken.json()["error"]
    listed = client.post("/api/games", json=[1, 2])
    assert listed.status_code == 400
    huge = client.post("/api/games", content=b"x" * (600 * 1024))
    assert huge.status_code == 413 and "kB" in huge.json()["error"]


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


def save_from(snapshots: list[dict[str, Any]]) -> dict[str, Any]:
    """The save the page keeps: the header of the first answer plus every new action."""
    save = {**snapshots[0]["save"], "actions": [], "result": None}
    for snapshot in snapshots:
        save["actions"].extend(snapshot["new_actions"])
        if snapshot["result_record"]:
            save["result"] = snapshot["result_record"]
    return save


def play_through(
    client: Any, game: str, opponents: int, seed: int, stop_at: int | None = None
) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    cards = cards_of(client)
    snapshots = [new_game(client, game, opponents, seed)]
    while snapshots[-1]["over"] is None:
        current = snapshots[-1]
        if stop_at is not None and current["turn"] >= stop_at:
            break
        response = client.post(
            f"/api/games/{current['id']}/moves", json=next_request(current, cards, rng)
        )
        assert response.status_code == 200, response.text
        snapshots.append(response.json())
    return snapshots


def test_save_is_a_replay_log_that_play_can_load(client: Any, tmp_path: Path) -> None:
    snapshots = play_through(client, "idiot", 2, seed=21)
    save = save_from(snapshots)
    log = ReplayLog.model_validate(save)
    assert log.bots == ["person", "greedy", "greedy"]
    path = tmp_path / "save.json"
    path.write_text(json.dumps(save), encoding="utf-8")
    state = replay_log(load_replay(path))
    assert state.is_terminal()
    assert state.result().order == snapshots[-1]["over"]["order"]


def test_resume_continues_the_same_game(client: Any) -> None:
    snapshots = play_through(client, "stromkrig", 3, seed=8, stop_at=30)
    save = save_from(snapshots)
    last = snapshots[-1]
    client.delete(f"/api/games/{last['id']}")  # as if evicted or the server restarted
    resumed = client.post("/api/games/resume", json={"save": save})
    assert resumed.status_code == 200, resumed.text
    data = resumed.json()
    assert data["id"] != last["id"]
    assert data["turn"] == last["turn"] and data["new_actions"] == []
    assert data["save"]["actions"] == save["actions"]
    assert data["view"] == last["view"]
    assert data["moves"] == last["moves"]


def test_resume_refuses_foreign_or_broken_saves(client: Any) -> None:
    snapshots = play_through(client, "idiot", 1, seed=4, stop_at=12)
    save = save_from(snapshots)
    other_deck = synthetic_deck(seed=99).model_dump(mode="json")
    cases = [
        ({**save, "deck": other_deck}, "another deck"),
        ({**save, "format": "chess"}, "not a replay log"),
        ({**save, "version": 7}, "version"),
        ({**save, "actions": [[99, 99]]}, "does not replay"),
        ({**save, "bots": ["greedy", "greedy"]}, "person"),
        ({**save, "rules": {**save["rules"], "players": 9}}, "save"),
    ]
    for broken, words in cases:
        response = client.post("/api/games/resume", json={"save": broken})
        assert response.status_code == 400, (words, response.text)
        assert words in response.json()["error"], response.json()
    assert client.post("/api/games/resume", json={"nosave": 1}).status_code == 400


def test_memory_is_bounded_and_idle_games_are_evicted(deck: Deck) -> None:
    now = [1000.0]
    store = GameStore(deck, max_games=2, idle_seconds=60, clock=lambda: now[0])
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


# ------------------------------------------------------------------ hidden information


def _public_now(state: Any, seat: int) -> set[int]:
    """Cards the whole table sees at this moment (face up, shown, burned in the open)."""
    places = state.card_locations()
    name = state.game.name
    public: set[int] = set()
    if name == "idiot":
        for place, cards in places.items():
            if place in ("pile", "burned") or place.startswith("face_up:"):
                public.update(cards)
    elif name == "stromkrig":
        for place in ("pile", "beside", "war", "burned", "chance"):
            public.update(places.get(place, []))
    else:
        observation = state.observation(seat)
        public.update(card for card, _ in observation.shown)
        # KI-4b: a card drawn from the stock is laid under its own name, so it is known.
        public.update(claim.plant for claim in observation.claims if claim.from_stock)
    return public


def _laid_face_up(state: Any, action: list[int]) -> set[int]:
    """Cards an action lays face up for all to see (they may leave the table at once)."""
    from kraftstokk.web.views import idiot_rules as idiot
    from kraftstokk.web.views import sk_rules as stromkrig

    name = state.game.name
    kind = action[0]
    if name == "idiot" and kind in (idiot.PLAY, idiot.SNEAK):
        return set(action[1:])
    laying = (stromkrig.LAY, stromkrig.RUN, stromkrig.BURN, stromkrig.RESET)
    if name == "stromkrig" and kind in (*laying, stromkrig.INVISIBLE, stromkrig.WAR_LAY):
        return set(action[1:])
    return set()


def _unseen_places(state: Any) -> set[int]:
    places = state.card_locations()
    cards = set(places.get("stock", []))
    for place, held in places.items():
        if place.startswith("face_down:"):
            cards.update(held)
    return cards


def _turns_a_card(state: Any, action: list[int]) -> bool:
    """A chance draw (Idiot, Strømkrig) or a face-down card (Idiot): turned for all to see."""
    from kraftstokk.web.views import idiot_rules as idiot
    from kraftstokk.web.views import sk_rules as stromkrig

    name = state.game.name
    if name == "idiot":
        return action[0] in (idiot.CHANCE, idiot.FACE_DOWN)
    return name == "stromkrig" and action[0] == stromkrig.CHANCE


def _forbidden_now(state: Any, seat: int, seen: set[int]) -> set[int]:
    """Cards ``seat`` cannot know now: the stock, face-down cards, unseen cards of others."""
    places = state.card_locations()
    forbidden: set[int] = set(places.get("stock", []))
    for place, cards in places.items():
        if place.startswith("face_down:"):
            forbidden.update(cards)
        if place.startswith("hand:") and place != f"hand:{seat}":
            forbidden.update(c for c in cards if c not in seen)
    if state.game.name == "kraftidioten":
        forbidden.update(c for c in places.get("pile", []) if c not in seen)
        forbidden.update(c for c in places.get("burned", []) if c not in seen)
    return forbidden


def _mentions(text: str, ids: list[str], cards: set[int]) -> list[str]:
    return [ids[c] for c in cards if f'"{ids[c]}"' in text]


SUIT_WORDS = {
    "spar": ("spar", "spades"),
    "hjerter": ("hjerter", "hearts"),
    "kløver": ("kløver", "clubs"),
    "ruter": ("ruter", "diamonds"),
}
VALUE_WORDS = {
    1: ("ess", "ace"),
    11: ("knekt", "jack"),
    12: ("dame", "queen"),
    13: ("konge", "king"),
}


def _named(text: str, table: Any, cards: set[int]) -> list[str]:
    """Cards a sentence names as a card is named ('Tonstad (spar 7)', '(spades king)')."""
    from kraftstokk.models import SUITS

    found = []
    for card in cards:
        if table.joker[card]:
            continue
        value = table.value[card]
        values = (str(value), *VALUE_WORDS.get(value, ()))
        for suit in SUIT_WORDS[SUITS[table.suit[card]]]:
            if any(f"{table.names[card]} ({suit} {v})" in text for v in values):
                found.append(table.ids[card])
                break
    return found


@pytest.mark.parametrize(
    ("game", "opponents", "seed"),
    [
        ("idiot", 1, 1),
        ("idiot", 4, 2),
        ("kraftidioten", 1, 3),
        ("kraftidioten", 4, 4),
        ("stromkrig", 1, 5),
        ("stromkrig", 5, 6),
    ],
)
def test_no_response_reveals_hidden_cards(
    client: Any, game: str, opponents: int, seed: int
) -> None:
    """Walk whole games; at every answer check the view, the moves and the log lines.

    The test keeps its own copy of the game (replaying the actions each answer brings) and
    notes every card the person could have seen so far: a card named anywhere must be
    public, the person's own, or seen before; the stock, face-down cards and unseen
    cards in other hands never appear.
    """
    import random as stdlib_random

    store: GameStore = client.app.state.store
    ids = list(store.table.ids)
    rng = stdlib_random.Random(seed)
    cards = cards_of(client)
    snapshot = new_game(client, game, opponents, seed)
    session = store.get(snapshot["id"])
    from kraftstokk.games.registry import make_game

    mirror = make_game(game, store.table, opponents + 1).new_initial_state(
        stdlib_random.Random(session.seed)
    )
    seat = snapshot["seat"]
    seen: set[int] = set(mirror.card_locations()[f"hand:{seat}"]) | _public_now(mirror, seat)
    answers = checked = 0
    while True:
        for action in snapshot["new_actions"]:
            seen |= _laid_face_up(mirror, action)
            hidden_before = _unseen_places(mirror)
            mirror.apply(tuple(action))
            if _turns_a_card(mirror, action):  # the table sees the turned card
                seen |= hidden_before - _unseen_places(mirror)
            seen |= set(mirror.card_locations()[f"hand:{seat}"]) | _public_now(mirror, seat)
        assert snapshot["turn"] == len(session.actions)
        text = response_text_without_save(snapshot)
        view_text = json.dumps([snapshot["view"], snapshot["moves"]], ensure_ascii=False)
        forbidden = _forbidden_now(mirror, seat, seen)
        leaked = _mentions(view_text, ids, forbidden)
        assert not leaked, f"answer {answers} shows hidden cards {leaked}"
        if forbidden:  # the check can fail: a hidden card named in the text is found
            probe = sorted(forbidden)[0]
            assert _mentions(view_text + f'"{ids[probe]}"', ids, forbidden) == [ids[probe]]
            checked += 1
        log_text = json.dumps(snapshot["log"], ensure_ascii=False)
        never_seen = set(range(len(ids))) - seen
        assert not _mentions(log_text, ids, never_seen), f"answer {answers}: log reveals a card"
        told = _named(log_text, store.table, never_seen)
        assert not told, f"answer {answers}: the log names unseen cards {told}"
        if never_seen:
            probe = sorted(never_seen)[0]
            assert (
                _named(store.table.describe(probe), store.table, {probe})
                or store.table.joker[probe]
            )
        assert "stock_order" not in text and '"stock": [' not in text
        answers += 1
        if snapshot["over"] is not None:
            break
        response = client.post(
            f"/api/games/{snapshot['id']}/moves", json=next_request(snapshot, cards, rng)
        )
        assert response.status_code == 200, response.text
        snapshot = response.json()
    assert answers > 3 and checked > 3
    assert mirror.is_terminal()


# ------------------------------------------------------------------ never a 500

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=30),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4)
    ),
    max_leaves=12,
)
bodies = st.dictionaries(
    st.sampled_from(["turn", "move", "claim", "log_after", "game", "opponents", "bots", "save"]),
    json_values,
    max_size=5,
)


@settings(max_examples=150, deadline=None, derandomize=True)
@given(body=bodies, path=st.sampled_from(["moves", "new", "resume"]))
def test_any_json_gets_an_answer_never_a_fault(body: dict[str, Any], path: str) -> None:
    client = _FUZZ["client"]
    game_id = _FUZZ["game"]
    url = {
        "moves": f"/api/games/{game_id}/moves",
        "new": "/api/games",
        "resume": "/api/games/resume",
    }[path]
    response = client.post(url, json=body)
    assert response.status_code < 500, response.text
    if response.status_code >= 400:
        assert set(response.json()) == {"error"}


_FUZZ: dict[str, Any] = {}


@pytest.fixture(autouse=True, scope="module")
def _fuzz_client() -> Any:
    with client_for(synthetic_deck()) as fuzz_client:
        _FUZZ["client"] = fuzz_client
        _FUZZ["game"] = new_game(fuzz_client, "kraftidioten", 2, seed=1)["id"]
        yield


@pytest.mark.parametrize(
    "raw", [b'{"turn": NaN, "move": 0}', b'{"turn": Infinity}', b'{"turn": 1e999}']
)
def test_non_numbers_in_json_are_refused(client: Any, raw: bytes) -> None:
    game = new_game(client, "idiot", 1, seed=2)
    response = client.post(
        f"/api/games/{game['id']}/moves", content=raw, headers={"content-type": "application/json"}
    )
    assert response.status_code == 400, response.text


@pytest.mark.parametrize("game", ["idiot", "kraftidioten", "stromkrig"])
def test_a_first_edition_save_is_upgraded_or_refused(client: Any, game: str) -> None:
    """A version-1 save (action kinds 0, 1, ...) continues in today's kinds, or is refused."""
    from kraftstokk.games import registry

    if not hasattr(registry, "get_spec"):
        pytest.skip("the engine's first edition writes version-1 logs only")
    get_spec = registry.get_spec

    snapshots = play_through(client, game, 1, seed=6, stop_at=10)
    save = save_from(snapshots)
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
        upgraded = response.json()["save"]
        assert upgraded["version"] == save["version"]
        assert upgraded["actions"] == save["actions"]
