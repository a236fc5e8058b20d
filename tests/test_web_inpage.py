"""The static edition's table (``web/inpage.py``): the engine as the page's Web Worker runs
it, tested here in CPython with the same inputs (``test_web_static.py`` runs it in the
browser on Pyodide).

It answers as ``serve`` does (the same view, moves and log for the same seed and moves),
plays without pydantic, reads the deck from its plain JSON as the model does, keeps every
action in its save's content (the worker seals it), and refuses what it cannot use with a
4xx and a reason, never a traceback.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from kraftstokk import locales
from kraftstokk.games import search
from kraftstokk.games.core import DeckTable
from kraftstokk.models import Deck
from kraftstokk.web.inpage import PageTable, expert_spec, measured_rate
from tests.conftest import synthetic_deck
from tests.web_helpers import client_for, next_request

ROOT = Path(__file__).resolve().parent.parent


def call(table: PageTable, operation: str, body: Any) -> tuple[int, Any]:
    answer = json.loads(table.call(operation, json.dumps(body)))
    return answer["status"], answer["body"]


@pytest.fixture(scope="module")
def page_deck() -> Deck:
    return synthetic_deck()


@pytest.fixture(scope="module")
def page(page_deck: Deck) -> PageTable:
    return PageTable(page_deck.model_dump(mode="json"))


def cards(deck: Deck) -> dict[str, Any]:
    with client_for(deck) as client:
        return {card["id"]: card for card in client.get("/api/setup").json()["cards"]}


@pytest.mark.parametrize("seed", [3, 7, 11])
def test_the_deck_table_from_plain_json_is_the_models(seed: int) -> None:
    """What the page builds from ``deck.json``'s JSON is what the engine builds from the
    model, field for field (figures, printed figures, decimals, nr., suits, names)."""
    deck = synthetic_deck(seed)
    assert DeckTable.from_json(deck.model_dump(mode="json")) == DeckTable.from_deck(deck)
    # A deck whose figures print with a decimal (two plants 0.04 apart): both see it.
    data = deck.model_dump(mode="json")
    plants = [card for card in data["cards"] if not card["joker"]]
    plants[0]["mw"] = plants[1]["mw"] + 0.04
    edited = Deck.model_validate(data)
    assert DeckTable.from_json(data) == DeckTable.from_deck(edited)
    assert DeckTable.from_json(data).decimals[0] == 1


def test_a_deck_the_engine_cannot_read_is_named(page_deck: Deck) -> None:
    from kraftstokk.errors import GameError

    data = page_deck.model_dump(mode="json")
    data["cards"][4].pop("nr")
    with pytest.raises(GameError, match=f"card {data['cards'][4]['id']} lacks"):
        DeckTable.from_json(data)
    with pytest.raises(GameError, match="no list of cards"):
        DeckTable.from_json({"cards": "none"})


def test_the_play_path_loads_no_pydantic(page_deck: Deck, tmp_path: Path) -> None:
    """In a fresh interpreter where pydantic cannot be imported, the page's table plays a
    game of each kind to the end (an expert among the bots), never reads a locale part
    the page does not carry (booklet, cli), and imports no module in a move: what a game
    needs (its words too) loads with its deal, as an import from source in the page takes
    milliseconds of a move's frame."""
    deck = tmp_path / "deck.json"
    deck.write_text(page_deck.model_dump_json(), encoding="utf-8")
    run = subprocess.run(
        [sys.executable, "-c", _play_script(deck)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
        env={"PATH": "/usr/bin:/bin", "KRAFTSTOKK_PURE_PYTHON": "1"},
    )
    assert run.returncode == 0, run.stderr[-3000:]
    found = json.loads(run.stdout.splitlines()[-1])
    assert found["pydantic"] == []
    assert found["parts"] == ["events", "web", "words"]
    assert found["finished"] == ["idiot", "kraftidioten", "stromkrig"]
    assert found["imported_in_moves"] == []


def _play_script(deck: Path) -> str:
    return f"""
import json, random, sys
class NoPydantic:
    def find_spec(self, name, path=None, target=None):
        if name == "pydantic" or name.startswith(("pydantic.", "pydantic_core")):
            raise ImportError("pydantic is not in the page")
sys.meta_path.insert(0, NoPydantic())
from kraftstokk.locales import loader
read = set()
reader = loader._read
def counted(root, code, part):
    read.add(part)
    return reader(root, code, part)
loader._read = counted
from kraftstokk.web.inpage import open_table
text = open({str(deck)!r}, encoding="utf-8").read()
plants = {{c["id"]: c.get("plant_id") or c["id"] for c in json.loads(text)["cards"]}}
table = open_table(text)
finished = []
imported = set()
rng = random.Random(5)
for game, bots in (("idiot", "heuristic"), ("kraftidioten", "greedy"), ("stromkrig", "expert")):
    answer = json.loads(table.call("new", json.dumps(
        {{"game": game, "opponents": 2, "bots": bots, "seed": 4}})))
    assert answer["status"] == 201, answer
    body = answer["body"]
    dealt = set(sys.modules)
    while body["over"] is None:
        moves = body["moves"]
        request = {{"id": body["id"], "turn": body["turn"]}}
        if moves["list"] and (not moves["claim"] or rng.random() < 0.3):
            request["move"] = rng.choice(moves["list"])["i"]
        else:
            claim = moves["claim"]
            card = claim["fixed_card"] or rng.choice(claim["cards"])
            request["claim"] = {{"card": card, "category": rng.choice(claim["categories"]),
                                "plant_id": plants[card]}}
        answer = json.loads(table.call("move", json.dumps(request)))
        if answer["status"] == 422 and "claim" in request:  # under the last claim: take a move
            continue
        assert answer["status"] == 200, answer
        body = answer["body"]
    imported |= set(sys.modules) - dealt
    if body["over"]["finished"]:
        finished.append(game)
print(json.dumps({{"pydantic": sorted(m for m in sys.modules if "pydantic" in m),
                  "parts": sorted(read), "finished": finished,
                  "imported_in_moves": sorted(imported)}}))
"""


@pytest.mark.parametrize(("game", "opponents", "seed"), [("idiot", 3, 2), ("kraftidioten", 4, 5)])
def test_the_page_answers_as_the_server_does(
    page_deck: Deck, page: PageTable, game: str, opponents: int, seed: int
) -> None:
    """The same seed and the same requests: the same view, moves, log and result, answer
    for answer (the two tables play through one module); only the ids and the save's
    sealing differ."""
    known = cards(page_deck)
    rng = random.Random(seed)
    request = {"game": game, "opponents": opponents, "bots": "heuristic", "seed": seed}
    with client_for(page_deck) as client:
        served = client.post("/api/games", json=request).json()
        status, mine = call(page, "new", request)
        assert status == 201
        seen = 0
        for _ in range(30):
            strip = ("id", "save")
            assert {k: v for k, v in mine.items() if k not in strip} == {
                k: v for k, v in served.items() if k not in strip
            }
            assert set(mine["save"]) == {*served["save"]} - {"sealed"} | {"content"}
            assert {k: mine["save"][k] for k in ("turn", "finished", "players", "game")} == {
                k: served["save"][k] for k in ("turn", "finished", "players", "game")
            }
            if served["over"] is not None:
                break
            seen = max([line["n"] for line in served["log"]], default=seen)
            move = {**next_request(served, known, rng), "log_after": seen}
            served = client.post(f"/api/games/{served['id']}/moves", json=move).json()
            status, mine = call(page, "move", {**move, "id": mine["id"]})
            assert status == 200, mine


def test_a_save_resumes_the_same_game_without_the_bots(
    page_deck: Deck, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The save's content holds every action and the seed; a resume plays them again
    asking no bot (an expert's searches are not repeated) and lands on the same view."""
    table = PageTable(page_deck.model_dump(mode="json"))
    status, answer = call(
        table, "new", {"game": "stromkrig", "opponents": 2, "bots": "expert", "seed": 8}
    )
    assert status == 201
    budget = table.budgets[("stromkrig", 3)]
    for _ in range(4):
        move = {"id": answer["id"], "turn": answer["turn"], "move": answer["moves"]["list"][0]["i"]}
        status, answer = call(table, "move", move)
        assert status == 200
    content = json.loads(answer["save"]["content"])
    played = table.playing[answer["id"]]
    assert content["actions"] == [list(a) for a in played.actions] and content["seed"] == 8
    assert content["bots"] == ["person", "expert", "expert"]
    fresh = PageTable(page_deck.model_dump(mode="json"))
    fresh.budgets[("stromkrig", 3)] = budget
    searches: list[int] = []
    original = search.ExpertBot.act
    monkeypatch.setattr(
        search.ExpertBot, "act", lambda *a, **k: searches.append(1) or original(*a, **k)
    )
    status, resumed = call(fresh, "resume", {"save": answer["save"]})
    assert status == 200, resumed
    assert searches == []
    assert resumed["view"] == answer["view"] and resumed["turn"] == answer["turn"]
    assert resumed["moves"] == answer["moves"]
    then = {"turn": resumed["turn"], "move": resumed["moves"]["list"][0]["i"], "log_after": 0}
    status, moved = call(fresh, "resume", {"save": answer["save"], "then": then})
    assert status == 200 and moved["turn"] == resumed["turn"] + 1


@pytest.mark.parametrize(
    ("operation", "body", "status", "words"),
    [
        ("new", {"game": "chess", "opponents": 1}, 400, "unknown game 'chess'"),
        ("new", {"game": "idiot", "opponents": 7}, 400, "1-4 computer opponents, not 7"),
        ("new", {"game": "idiot", "opponents": "2"}, 400, "opponents: missing, or not a whole"),
        ("new", {"game": "idiot", "opponents": 1, "bots": "oracle"}, 400, "no bot 'oracle'"),
        ("new", {"game": "idiot", "opponents": 1, "variants": ["x"]}, 400, "variants:"),
        ("new", {"game": "idiot", "opponents": 1, "seed": -1}, 400, "seed: -1 is not between"),
        ("new", [], 400, "not a JSON object"),
        ("move", {"id": "nope", "turn": 0, "move": 0}, 404, "no game 'nope'"),
        ("forget", {"id": "nope"}, 404, "no game 'nope'"),
        ("launch", {}, 404, "no operation 'launch'"),
        ("resume", {"save": {"format": "other"}}, 400, "not a save"),
        ("resume", {}, 400, "save: missing"),
        ("replay", {"save": {"format": "kraftstokk-replay"}}, 400, "kraftstokk-web-save"),
    ],
)
def test_a_request_it_cannot_use_is_refused_with_the_reason(
    page: PageTable, operation: str, body: Any, status: int, words: str
) -> None:
    got, answer = call(page, operation, body)
    assert got == status and words in answer["error"], answer


@pytest.mark.inventory
def test_a_move_out_of_turn_or_off_the_list_is_refused_in_every_language(page: PageTable) -> None:
    _, answer = call(page, "new", {"game": "idiot", "opponents": 1, "bots": "greedy", "seed": 1})
    status, stale = call(page, "move", {"id": answer["id"], "turn": 5, "move": 0})
    assert status == 409 and set(stale["said"]) == set(locales.languages())
    status, unlisted = call(page, "move", {"id": answer["id"], "turn": 0, "move": 999})
    assert status == 422 and "999" in unlisted["error"]
    status, both = call(page, "move", {"id": answer["id"], "turn": 0})
    assert status == 422 and "either move" in both["error"]
    status, claim = call(
        page, "move", {"id": answer["id"], "turn": 0, "claim": {"card": "x", "figure": "big"}}
    )
    assert status == 400 and "claim.figure" in claim["error"]


def test_a_save_that_does_not_replay_or_is_of_another_deck_is_refused(
    page: PageTable, page_deck: Deck
) -> None:
    _, answer = call(page, "new", {"game": "idiot", "opponents": 2, "bots": "greedy", "seed": 3})
    save = answer["save"]
    content = json.loads(save["content"])
    bad = {**content, "actions": [[999, 1, 2]]}
    status, refused = call(page, "resume", {"save": {**save, "content": json.dumps(bad)}})
    assert status == 400 and "older version" in refused["error"]
    other = {**content, "deck": "0" * 16}
    status, refused = call(page, "resume", {"save": {**save, "content": json.dumps(other)}})
    assert status == 400 and "another deck than this page's" in refused["error"]
    seats = {**content, "bots": ["person", "person", "greedy"]}
    status, refused = call(page, "resume", {"save": {**save, "content": json.dumps(seats)}})
    assert status == 400 and "seats" in refused["error"]
    status, refused = call(page, "replay", {"save": save})
    assert status == 409 and "not over" in refused["error"]


def test_a_replay_log_continues_and_a_finished_game_downloads_as_one(
    page: PageTable, page_deck: Deck
) -> None:
    """A replay log (its actions the start of the game) continues here; a finished game's
    save gives the log ``kraftstokk play --load`` reads (checked by its pydantic model)."""
    from kraftstokk.games.replay import ReplayLog, replay_log

    _, answer = call(page, "new", {"game": "idiot", "opponents": 1, "bots": "greedy", "seed": 9})
    rng = random.Random(9)
    while answer["over"] is None:
        move = {"id": answer["id"], "turn": answer["turn"]}
        _, answer = call(page, "move", {**move, "move": rng.choice(answer["moves"]["list"])["i"]})
    assert answer["over"]["finished"]
    status, log = call(page, "replay", {"save": answer["save"]})
    assert status == 200
    state = replay_log(ReplayLog.model_validate(log))
    assert state.is_terminal() and log["result"]["order"] == answer["over"]["order"]
    half = {**log, "actions": log["actions"][:20], "result": None}
    status, resumed = call(page, "resume", {"save": half})
    assert status == 200 and resumed["turn"] >= 20 and resumed["over"] is None
    other = {**half, "deck": {**half["deck"], "title": "Another"}}
    status, refused = call(page, "resume", {"save": other})
    assert status == 400 and "Another" in refused["error"]


def test_the_experts_budget_is_measured_in_the_page(page_deck: Deck) -> None:
    """The expert gets as many playouts as this machine plays in the page's budget: a
    clock that says each playout takes 2 ms gives 150 / 2 = 75 playouts."""
    ticks = iter(range(10_000))

    def clock() -> float:
        return next(ticks) * 0.002  # every call 2 ms later: one playout per call

    table = PageTable(page_deck.model_dump(mode="json"), clock=clock)
    status, answer = call(table, "new", {"game": "idiot", "opponents": 1, "bots": "expert"})
    assert status == 201
    assert table.budgets == {("idiot", 2): 75}
    assert table.playing[answer["id"]].bots[1].playouts == 75  # type: ignore[union-attr]
    game = table.playing[answer["id"]].game
    real = measured_rate(game, expert_spec("idiot"), time.perf_counter)
    assert real > 0


@pytest.mark.parametrize(
    ("game", "opponents", "seed"), [("idiot", 3, 2), ("kraftidioten", 4, 5), ("stromkrig", 3, 6)]
)
def test_no_answer_of_the_page_table_reveals_a_hidden_card(
    page_deck: Deck, game: str, opponents: int, seed: int
) -> None:
    """``test_web_secrecy.py``'s walk over the in-page table's answers, as the page gets
    them from the worker (the save's content sealed there): every byte of every answer of
    a whole game against crafty bots is read for the cards the person cannot know then."""
    from kraftstokk.games.registry import make_game
    from tests import test_web_secrecy as secrecy

    engine = PageTable(page_deck.model_dump(mode="json"))
    known = cards(page_deck)
    rng = random.Random(seed)
    request = {"game": game, "opponents": opponents, "bots": "heuristic", "seed": seed}
    status, answer = call(engine, "new", request)
    assert status == 201
    played = engine.playing[answer["id"]]
    table = engine.table
    mirror = make_game(game, table, opponents + 1).new_initial_state(random.Random(seed))
    seat = answer["seat"]
    seen = set(mirror.card_locations()[f"hand:{seat}"]) | secrecy._public_now(mirror, seat)
    applied = answers = probed = 0
    while True:
        for action in played.actions[applied:]:
            seen |= secrecy._laid_face_up(mirror, action)
            hidden_before = secrecy._unseen_places(mirror)
            mirror.apply(action)
            if secrecy._turns_a_card(mirror, action):
                seen |= hidden_before - secrecy._unseen_places(mirror)
            seen |= set(mirror.card_locations()[f"hand:{seat}"]) | secrecy._public_now(mirror, seat)
        applied = len(played.actions)
        content = json.loads(answer["save"]["content"])
        assert content["actions"] == [list(a) for a in played.actions]  # sealed by the worker
        shown = {**answer, "save": {**answer["save"], "sealed": "-"}}
        del shown["save"]["content"]
        text = json.dumps(shown, ensure_ascii=False)
        forbidden = secrecy._forbidden_now(mirror, seat, seen)
        never_seen = set(range(table.size)) - seen
        where = f"{game} answer {answers}"
        assert not secrecy._ids_in(text, table, forbidden), f"{where}: ids of hidden cards"
        assert not secrecy._named_as_card(text, page_deck, table, never_seen), f"{where}: named"
        spoken_free = json.dumps(secrecy._without_speech(shown), ensure_ascii=False)
        assert not secrecy._figures_in(spoken_free, table, forbidden), f"{where}: figures"
        numbers = {key for key, _ in secrecy._numbers(secrecy._without_speech(shown))}
        assert not numbers - set(secrecy.NUMBER_KEYS), f"{where}: numbers under {numbers}"
        if forbidden:  # the checks can fail: a hidden card put in the text is found
            probe = min(forbidden)
            assert secrecy._ids_in(f'"{table.ids[probe]}"', table, forbidden)
            probed += 1
        answers += 1
        if answer["over"] is not None:
            break
        move = {**next_request(answer, known, rng), "id": answer["id"]}
        status, answer = call(engine, "move", move)
        assert status == 200, answer
    assert mirror.is_terminal() and answers > 3 and probed > 3
