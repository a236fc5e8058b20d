"""Saves and requests cannot hurt the server.

Every field of a save is bounded before anything is played; the engine runs on worker
threads (a long replay never holds up another player's request); the card images are
made before the first request and kept on disk by digest; and no request whatever —
deep nesting, NaN in a claim, a NUL in a path, ranges — gets a 500: property-based fuzz
of every route checks that each answer is a 2xx/3xx or a 4xx ``{"error": ...}``.
"""

from __future__ import annotations

import json
import random
import threading
import urllib.parse
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kraftstokk import locales
from kraftstokk.games.core import DEFAULT_ACTION_CAP
from kraftstokk.models import Deck
from kraftstokk.web import cards
from kraftstokk.web.guard import SECURITY_HEADERS
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


@pytest.fixture(scope="module")
def client() -> Any:
    with client_for(synthetic_deck()) as test_client:
        yield test_client


@pytest.fixture(scope="module")
def log(client: Any) -> dict[str, Any]:
    """A replay log of a game under way (what ``play --save`` writes)."""
    snapshots = play_through(client, "kraftidioten", 2, seed=7, stop_at=8)
    return plain_log(client, snapshots[-1]["id"])


def _resume(client: Any, save: dict[str, Any]) -> Any:
    return client.post("/api/games/resume", json={"save": save})


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"rules": {"action_cap": 10**18}}, "rules.action_cap: 1e+18 actions is outside"),
        ({"rules": {"action_cap": DEFAULT_ACTION_CAP + 1}}, "action cap"),
        ({"rules": {"action_cap": 0}}, "rules.action_cap: 0 actions is outside"),
        ({"rules": {"players": 11}}, "players"),
        ({"rules": {"players": 1}}, "players"),
        ({"rules": {"game": "poker"}}, "unknown game"),
        ({"rules": {"variants": ["jokers"]}}, "variants"),
        ({"bots": ["person", "person", "greedy"]}, "one 'person'"),
        ({"bots": ["person", "greedy"]}, "seats"),
        ({"bots": ["person", "greedy", "genius"]}, "genius"),
        ({"seed": -1}, "seed"),
        ({"seed": 2**63}, "seed"),
        ({"actions": [[200, *range(20)]]}, "action 1"),
        ({"actions": [[2**40]]}, "action 1"),
        ({"actions": [[]]}, "action 1"),
        ({"redeals": [[100_000, 5]]}, "dealt again"),
        ({"redeals": [[2, 5], [1, 5]]}, "dealt again"),
        ({"redeals": [[2, 5], [2, 6]]}, "dealt again"),
        ({"redeals": [[1, -5]]}, "dealt again"),
    ],
)
def test_every_field_of_a_save_is_bounded(
    client: Any, log: dict[str, Any], change: dict[str, Any], words: str
) -> None:
    broken = {**log, **change}
    if "rules" in change:
        broken["rules"] = {**log["rules"], **change["rules"]}
    response = _resume(client, broken)
    assert response.status_code == 400, response.text
    assert words in response.json()["error"]


@pytest.mark.inventory
@pytest.mark.parametrize(
    ("change", "english", "bokmal"),
    [
        (
            {"rules": {"players": 11}},
            "is for 2-10 players, not 11",
            "er for 2–10 spillere, ikke 11",
        ),
        ({"rules": {"action_cap": DEFAULT_ACTION_CAP + 1}}, "action cap", "grensen på"),
        (
            {"bots": ["person", "greedy", "genius"]},
            "no kraftidioten bot 'genius'",
            "robot 'genius'",
        ),
        ({"actions": [[]]}, "action 1 is no action", "handling 1 er ingen handling"),
    ],
)
def test_a_saves_bounds_are_told_in_every_language(
    client: Any, log: dict[str, Any], change: dict[str, Any], english: str, bokmal: str
) -> None:
    """A hand-edited upload is refused in the page's words, not English alone."""
    broken = {**log, **change}
    if "rules" in change:
        broken["rules"] = {**log["rules"], **change["rules"]}
    answer = _resume(client, broken).json()
    assert english in answer["error"] and english in answer["said"]["en"]
    assert bokmal in answer["said"]["nb"]
    assert set(answer["said"]) == set(locales.languages()) and all(answer["said"].values())
    assert len({answer["said"][code] for code in ("en", "nb", "nn")}) == 3  # each its own


def _sealed_as(save: dict[str, Any], record: bytes | None = None, **change: Any) -> dict[str, Any]:
    """The save with its sealed content changed (sealed again with the server's key: a
    content only a bug could write)."""
    head, _, packed = TEST_KEY.open(save["sealed"]).partition(b"\0")
    content = json.dumps({**json.loads(head), **change}).encode()
    return {
        **save,
        "sealed": TEST_KEY.seal(content + b"\0" + (packed if record is None else record)),
    }


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"prefix": "000000ff"}, "more than its"),
        ({"redeals": [["000000ff", "0" * 16]]}, "dealt again"),
        ({"redeals": [["00000001", "0" * 15]]}, "redeals"),
        ({"record": bytes([2, 0])}, "record"),
        ({"record": bytes([1, 200])}, "record: ends inside"),
        ({"v": 3}, "sealed content"),
    ],
)
def test_a_sealed_content_out_of_bounds_is_refused(
    client: Any, change: dict[str, Any], words: str
) -> None:
    game = play_through(client, "kraftidioten", 2, seed=8, stop_at=3)[-1]
    response = _resume(client, _sealed_as(game["save"], **change))
    assert response.status_code == 400, response.text
    assert words in response.json()["error"]


def test_a_version_1_save_plays_its_bots_again_and_goes_on_as_version_2(client: Any) -> None:
    """The first sealed saves held the person's moves only: the bots play again from the
    seed (as they did the first time), and the game is saved with every action since."""
    from kraftstokk.games.registry import make_game

    store = client.app.state.store
    played = play_through(client, "kraftidioten", 3, seed=9, stop_at=6)[-1]
    session = store.get(played["id"])
    mirror = make_game("kraftidioten", store.table, 4).new_initial_state(random.Random(9))
    moves = []
    for action in session.actions:
        if mirror.current_player() == session.seat:
            moves.append(list(action))
        mirror.apply(action)
    content = json.loads(TEST_KEY.open(played["save"]["sealed"]).partition(b"\0")[0])
    first = {k: content[k] for k in ("id", "deck", "game", "players", "variants", "action_cap")}
    first |= {"bots": content["bots"], "seed": content["seed"], "prefix": [], "moves": moves}
    old = {**played["save"], "version": 1, "sealed": TEST_KEY.seal(json.dumps(first).encode())}
    resumed = _resume(client, old)
    assert resumed.status_code == 200, resumed.text
    again = resumed.json()
    assert again["view"] == played["view"] and again["turn"] == played["turn"]
    assert again["save"]["version"] == 2
    assert store.get(again["id"]).actions == session.actions


def test_more_actions_than_the_cap_are_refused(client: Any, log: dict[str, Any]) -> None:
    capped = {**log, "rules": {**log["rules"], "action_cap": 5}}
    response = _resume(client, capped)
    assert response.status_code == 400 and "more than its cap" in response.json()["error"]
    longest = {**log, "actions": log["actions"] * 700}  # 5600 actions: over the default cap
    assert len(json.dumps({"save": longest})) < 512 * 1024
    response = _resume(client, longest)
    assert response.status_code == 400 and "cap" in response.json()["error"]


def test_a_sealed_save_cannot_give_the_person_a_bots_seat(client: Any) -> None:
    """The seats are sealed with the seed: moving 'person' means changing the sealed text."""
    game = new_game(client, "idiot", 2, seed=8)
    save = game["save"]
    content = sealed_content(save)
    assert content["bots"] == ["person", "greedy", "greedy"]
    from kraftstokk.web.seal import SaveKey

    other = SaveKey(bytes(32))  # a key that is not the server's: as good as any guess
    moved = {**content, "bots": ["greedy", "person", "greedy"]}
    forged = {**save, "sealed": other.seal(json.dumps(moved).encode())}
    response = _resume(client, forged)
    assert response.status_code == 400 and "cannot be opened" in response.json()["error"]
    shown = {**save, "players": 9, "game": "stromkrig", "turn": 40}  # shown fields only
    resumed = _resume(client, shown)
    assert resumed.status_code == 200 and resumed.json()["seat"] == 0
    assert resumed.json()["game"] == "idiot" and resumed.json()["turn"] == 0


def test_new_games_take_a_seed_in_range_only(client: Any) -> None:
    for seed in (-1, 2**63, 1.5, "7"):
        body = {"game": "idiot", "opponents": 1, "seed": seed}
        response = client.post("/api/games", json=body)
        assert response.status_code == 400, (seed, response.text)
    store = client.app.state.store
    ids = [client.post("/api/games", json={"game": "idiot", "opponents": 1}).json()["id"]]
    ids.append(client.post("/api/games", json={"game": "idiot", "opponents": 1}).json()["id"])
    seeds = [store.get(game_id).seed for game_id in ids]
    assert seeds[0] != seeds[1] and all(0 <= seed < 2**63 for seed in seeds)


def test_a_seed_is_honoured_only_when_the_server_allows_it(deck: Deck) -> None:
    """Without ``serve --allow-seed`` a request's seed is not the deal: a player who could
    name one could pick a deal they have seen before."""
    body = {"game": "kraftidioten", "opponents": 2, "seed": 77}
    with client_for(deck, allow_seed=False) as server:
        deals = [server.post("/api/games", json=body).json()["view"]["hand"] for _ in range(4)]
        store = server.app.state.store
        seeds = {s.seed for s in store._sessions.values()}
    assert len(seeds) == 4 and 77 not in seeds and len({tuple(d) for d in deals}) > 1
    with client_for(deck, allow_seed=True) as tests:
        seeded = [tests.post("/api/games", json=body).json()["view"]["hand"] for _ in range(2)]
    assert seeded[0] == seeded[1]


@pytest.mark.parametrize("field", ["game", "bots", "variants"])
def test_a_lone_surrogate_is_refused_not_a_fault(client: Any, field: str) -> None:
    """A JSON escape may name half of a UTF-16 pair (valid JSON, no UTF-8 text): the
    refusal that quotes it is still written, with U+FFFD in its place."""
    value = '["\\udc80"]' if field == "variants" else '"\\ud800x"'
    fields = {"game": '"kraftidioten"', "opponents": "2", field: value}
    raw = "{" + ",".join(f'"{k}": {v}' for k, v in fields.items()) + "}"
    response = client.post(
        "/api/games", content=raw.encode(), headers={"Content-Type": "application/json"}
    )
    assert response.status_code == 400, response.text
    assert field in response.json()["error"] and "\ufffd" in response.json()["error"]


class _Recording(GameStore):
    """A store noting the thread each piece of engine work ran on."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.threads: list[str] = []  # where each replay ran
        self.moved: list[tuple[str, str]] = []  # the bots and where each move ran
        self.release = threading.Event()
        self.hold = False

    def rebuild(self, save: Any, **options: Any) -> Any:
        self.threads.append(threading.current_thread().name)
        if self.hold:
            assert self.release.wait(60), "never released"
        return super().rebuild(save, **options)

    def move(self, *args: Any) -> None:
        self.moved.append((args[0].seat_names[1], threading.current_thread().name))
        super().move(*args)


def test_replays_and_searching_bots_run_off_the_event_loop(deck: Deck) -> None:
    """A resume and a move against experts run on worker threads (the loop serves others
    meanwhile); a move against bots that do not search is made at once, on the loop."""
    store = _Recording(deck, TEST_KEY)
    with client_for(deck, store=store) as client:
        loop_thread = client.portal.call(lambda: threading.current_thread().name)
        snapshots = play_through(client, "stromkrig", 2, seed=5, stop_at=4)
        expert = new_game(client, "stromkrig", 1, seed=5, bots="expert")
        move = {"turn": expert["turn"], "move": expert["moves"]["list"][0]["i"]}
        assert client.post(f"/api/games/{expert['id']}/moves", json=move).status_code == 200
        store.hold = True
        done: list[Any] = []
        waiting = threading.Thread(
            target=lambda: done.append(_resume(client, snapshots[-1]["save"]))
        )
        waiting.start()
        try:
            # While a replay is held on its worker thread, others are answered.
            assert client.get("/api/setup").status_code == 200
            assert client.get(f"/api/games/{snapshots[-1]['id']}").status_code == 200
            assert not done
        finally:
            store.release.set()
            waiting.join(60)
        assert done and done[0].status_code == 200
    assert store.threads and loop_thread not in store.threads
    assert all("worker" in name.lower() for name in store.threads), store.threads
    threads = {
        bots: {name for kind, name in store.moved if kind == bots} for bots, _ in store.moved
    }
    assert threads["greedy"] == {loop_thread} and loop_thread not in threads["expert"]


def test_card_images_are_made_before_the_first_request_and_kept_on_disk(
    deck: Deck, tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(cards, "_made", {})
    with client_for(deck, cache=tmp_path) as client:
        images = client.app.state.images
        assert images.ready  # the lifespan made them: no request waits, the loop never draws
        first = client.get("/cards/spar-1.webp").content
    assert list((tmp_path / "cards").glob("*.zip"))
    monkeypatch.setattr(cards, "_made", {})

    def no_drawing(deck: Deck) -> dict[str, bytes]:
        raise AssertionError("drawn again although the cache holds them")

    monkeypatch.setattr(cards, "render_images", no_drawing)
    with client_for(deck, cache=tmp_path) as client:
        assert client.get("/cards/spar-1.webp").content == first


# ------------------------------------------------------------------ never a 500


def _raw_post(client: Any, url: str, raw: bytes) -> Any:
    return client.post(url, content=raw, headers={"content-type": "application/json"})


@pytest.mark.parametrize(
    "raw",
    [
        b"[" * 100_000 + b"]" * 100_000,
        b'{"save": ' + b"[" * 5000 + b"]" * 5000 + b"}",
        b'{"turn": 0, "claim": {"card": "spar-1", "category": "gwh", "plant_id": "N1", '
        b'"figure": NaN}}',
        b'{"turn": 0, "claim": {"card": "spar-1", "category": "gwh", "plant_id": "N1", '
        b'"figure": Infinity}}',
        b'{"turn": 0, "claim": {"card": "spar-1", "category": "gwh", "plant_id": "N1", '
        b'"figure": 1e999}}',
        b'{"turn": -Infinity}',
        b'{"turn": ' + b"9" * 5000 + b"}",
        b'{"turn": 0, "move": 0, "log_after": 1e308}',
        b"\xff\xfe{}",
        b'{"turn": 0, "claim": {"card": "spar-1", "category": "gwh", "plant_id": "N1", '
        b'"figure": -5}}',
    ],
)
def test_malformed_bodies_get_400(client: Any, raw: bytes) -> None:
    game = new_game(client, "kraftidioten", 1, seed=9)
    for url in (f"/api/games/{game['id']}/moves", "/api/games", "/api/games/resume"):
        response = _raw_post(client, url, raw)
        assert response.status_code in (400, 422), (url, response.text)
        assert set(response.json()) == {"error"}


@pytest.mark.parametrize(
    "path",
    [
        "/static/app.js%00.png",
        "/static/..%2Fapp.py",
        "/static/%2e%2e/app.py",
        "/static/",
        "/cards/%00.webp",
        "/cards/..%2F..%2Fetc%2Fpasswd.webp",
        "/api/games/%00",
        "/api/rules/%ff",
    ],
)
def test_odd_paths_get_404_json(client: Any, path: str) -> None:
    response = client.get(path)
    assert 400 <= response.status_code < 500, (path, response.text)
    assert set(response.json()) == {"error"}


@pytest.mark.parametrize("path", ["/static/app.js", "/cards/spar-1.webp", "/static/app.css"])
@pytest.mark.parametrize("ranges", ["bytes=0-10,20-30", "bytes=0-0,-1", "bytes=x", "bytes=5-"])
def test_range_requests_get_the_whole_file(client: Any, path: str, ranges: str) -> None:
    whole = client.get(path)
    response = client.get(path, headers={"Range": ranges})
    assert response.status_code == 200 and response.content == whole.content
    assert int(response.headers["content-length"]) == len(whole.content)


METHODS = ["GET", "POST", "DELETE", "PUT", "PATCH", "HEAD", "OPTIONS"]
SEGMENTS = st.one_of(
    st.sampled_from(["", "%00", "..", "%2e%2e", "app.js%00.png", "nope", "resume", "moves"]),
    st.text(alphabet=st.characters(codec="utf-8"), max_size=12).map(
        lambda text: urllib.parse.quote(text, safe="")
    ),
)
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
FIELDS = ["turn", "move", "claim", "log_after", "game", "opponents", "bots", "save", "seed"]
bodies = st.one_of(
    st.dictionaries(st.sampled_from(FIELDS), json_values, max_size=5).map(json.dumps),
    json_values.map(json.dumps),
    st.sampled_from(["NaN", '{"turn": NaN}', '{"save": {"format": "kraftstokk-web-save"}}']),
    st.binary(max_size=40).map(lambda b: b.decode("latin-1")),
)
HEADERS = st.fixed_dictionaries(
    {},
    optional={
        "content-type": st.sampled_from(
            ["application/json", "text/plain", "application/json; charset=utf-8", "x/y"]
        ),
        "origin": st.sampled_from(["http://127.0.0.1:8000", "http://evil.example", "null"]),
        "range": st.sampled_from(["bytes=0-1,3-4", "bytes=-5", "bytes=a-b"]),
        "if-none-match": st.sampled_from(['"x"', "*"]),
        "sec-fetch-site": st.sampled_from(["same-origin", "cross-site", "none"]),
    },
)


@st.composite
def requests(draw: Any) -> tuple[str, str, dict[str, str], str | None]:
    game_id = _FUZZ["game"]
    route = draw(
        st.sampled_from(
            [
                "/",
                "/api/setup",
                "/api/rules/{x}",
                "/api/games",
                "/api/games/resume",
                "/api/games/{id}",
                "/api/games/{id}/moves",
                "/api/games/{x}/moves",
                "/api/replay",
                "/cards/{x}.webp",
                "/cards/spar-1.webp",
                "/static/{x}",
                "/{x}",
            ]
        )
    )
    path = route.replace("{id}", game_id).replace("{x}", draw(SEGMENTS))
    query = draw(st.sampled_from(["", "?log_after=3", "?log_after=-1", "?log_after=99999999999"]))
    body = draw(st.none() | bodies)
    return draw(st.sampled_from(METHODS)), path + query, draw(HEADERS), body


_FUZZ: dict[str, Any] = {}


@pytest.fixture(scope="module", autouse=True)
def _fuzz_game(client: Any) -> None:
    _FUZZ["client"] = client
    _FUZZ["game"] = new_game(client, "kraftidioten", 2, seed=1)["id"]


@settings(
    max_examples=400,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(request=requests())
def test_no_request_to_any_route_gets_a_fault(
    request: tuple[str, str, dict[str, str], str | None],
) -> None:
    method, path, headers, body = request
    client = _FUZZ["client"]
    content = None if body is None else body.encode("utf-8", "surrogatepass")
    response = client.request(method, path, headers=headers, content=content)
    assert response.status_code < 500, (method, path, response.text)
    for name, value in SECURITY_HEADERS:
        assert response.headers.get(name.decode()) == value.decode()
    if response.status_code >= 400 and method != "HEAD":
        assert set(response.json()) == {"error"}, response.text
