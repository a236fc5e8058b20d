"""Nothing the browser gets during a game reveals a hidden card.

Whole games of all three, with the crafty bots (they lie and challenge), are walked
request by request. The test keeps its own copy of each game (replaying the server's
actions one by one) and notes every card the person could have seen so far; then it
reads every byte of every answer — the view, the moves, the told events, the save and
the headers — for the cards the person cannot know now: the stock, face-down cards,
cards in other hands not seen, Kraftidioten's face-down pile. A hidden card must appear
by no id, no name told as a card, no figure and no index, and a bot's claim is never
called true or false before a challenge shows its card. The sealed save is opened with
the test's key: it holds every action, and its length is what the person can work out
from what they saw (the public actions), however many lies the bots told.
"""

from __future__ import annotations

import base64
import json
import random
from typing import Any

import pytest

from kraftstokk import locales
from kraftstokk.games.core import State
from kraftstokk.games.idiot import actions as idiot
from kraftstokk.games.kraftidioten import actions as kraftidioten
from kraftstokk.games.registry import make_game
from kraftstokk.games.stromkrig import actions as stromkrig
from kraftstokk.models import SUITS, Deck
from kraftstokk.web import views
from kraftstokk.web.record import HIDDEN_SLOT
from kraftstokk.web.seal import PIECE
from kraftstokk.web.sessions import GameStore
from tests.web_helpers import (
    cards_of,
    client_for,
    new_game,
    next_request,
    sealed_content,
)

#: How every language names a suit and a value (words.toml): a hidden card told by name.
_WORDS = [locales.load(code).part("words")["words"] for code in locales.languages()]
SUIT_WORDS = {suit: tuple({w["suits"][suit] for w in _WORDS}) for suit in SUITS}
VALUE_WORDS = {int(v): tuple({w["values"][v] for w in _WORDS}) for v in ("1", "11", "12", "13")}
#: Keys whose value may be a whole number, and why none of them is a card: counts,
#: seats, places, move counters, menu positions. A card travels only as its id.
NUMBER_KEYS = {
    "seat": "a seat",
    "players": "a seat count, or the seats in a war",
    "turn": "the person's own move counter",
    "current": "the seat to act",
    "hand": "a hand's card count",
    "face_down": "a count of face-down cards",
    "slots": "the person's face-down slots (positions, not cards)",
    "count": "the pile's card count",
    "value": "a count the table shows (the stock, the burned cards)",
    "i": "a move's position in the person's list",
    "slot": "a face-down slot",
    "floor": "the figure to beat (the last claim, public speech)",
    "challenger": "the seat that started a war",
    "to": "the seat a shown card went to",
    "place": "a finishing place",
    "n": "a log line's number",
    "version": "the save format's version",
    "order": "seats in the order they went out",
    "loser": "a seat",
    "actions": "the game's length, told when it is over",
    "nr": "a claimed plant's printed nr. (public speech)",
    "left": "each seat's count of cards at the end",
}
CLAIM_KEYS = {"seat", "plant_id", "name", "figure", "nr", "from_stock"}
TRUTH_WORDS = ("(sant)", "(løgn", "(lygn", "(true)", "(a lie")


@pytest.fixture(scope="module")
def client() -> Any:
    from tests.conftest import synthetic_deck

    with client_for(synthetic_deck()) as test_client:
        yield test_client


def _public_now(state: State, seat: int) -> set[int]:
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


def _laid_face_up(state: State, action: tuple[int, ...]) -> set[int]:
    """Cards an action lays face up for all to see (they may leave the table at once)."""
    name, kind = state.game.name, action[0]
    if name == "idiot" and kind in (idiot.PLAY, idiot.SNEAK):
        return set(action[1:])
    laying = (stromkrig.LAY, stromkrig.RUN, stromkrig.BURN, stromkrig.RESET)
    if name == "stromkrig" and kind in (*laying, stromkrig.INVISIBLE, stromkrig.WAR_LAY):
        return set(action[1:])
    if name == "kraftidioten" and kind == kraftidioten.JOKER:
        return set(action[1:2])
    return set()


def _unseen_places(state: State) -> set[int]:
    places = state.card_locations()
    cards = set(places.get("stock", []))
    for place, held in places.items():
        if place.startswith("face_down:"):
            cards.update(held)
    return cards


def _turns_a_card(state: State, action: tuple[int, ...]) -> bool:
    """A chance draw (all three) or a face-down card (Idiot): turned for all to see."""
    name, kind = state.game.name, action[0]
    if name == "idiot":
        return kind in (idiot.CHANCE, idiot.FACE_DOWN)
    if name == "kraftidioten":
        return kind == kraftidioten.DRAW
    return kind == stromkrig.CHANCE


def _forbidden_now(state: State, seat: int, seen: set[int]) -> set[int]:
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
    return forbidden - set(places.get(f"hand:{seat}", []))


def _named_as_card(text: str, deck: Deck, table: Any, cards: set[int]) -> list[str]:
    """Cards a sentence names as a card is named ('Tonstad (spar 7)', '(spades king)')."""
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


def _ids_in(text: str, table: Any, cards: set[int]) -> list[str]:
    return [table.ids[c] for c in sorted(cards) if f'"{table.ids[c]}"' in text]


def _figures_in(text: str, table: Any, cards: set[int]) -> list[str]:
    """Hidden cards' printed figures ('4 357 GWh') found in ``text``."""
    return [
        f"{table.ids[c]}: {table.figure_text(k, c)}"
        for c in sorted(cards)
        if not table.joker[c]
        for k in range(3)
        if table.figure_text(k, c) in text
    ]


def _numbers(value: Any, key: str = "") -> list[tuple[str, Any]]:
    """Every (key, number) in a JSON value; a number in a list counts for the list's key."""
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return []
    if isinstance(value, int | float):
        return [(key, value)]
    if isinstance(value, list):
        return [pair for item in value for pair in _numbers(item, key)]
    return [pair for k, v in value.items() for pair in _numbers(v, k)]


def _without_speech(answer: dict[str, Any]) -> dict[str, Any]:
    """The answer less what players said (claims name plants, perhaps hidden ones)."""
    cleaned = json.loads(json.dumps(answer))
    steps = [line["step"] for line in cleaned["log"] if "step" in line]
    for view in (cleaned["view"], *steps):  # a step's panels are the table after a move
        for panel in view["panels"]:
            if panel["type"] == "claims":
                panel["claims"] = [{"seat": c["seat"]} for c in panel["claims"]]
    if cleaned["view"]["question"] is not None:  # the claim put to the person: speech too
        cleaned["view"]["question"]["fill"] = {"n": cleaned["view"]["question"]["fill"]["n"]}
    cleaned["log"] = [line for line in cleaned["log"] if line["kind"] != "Claimed"]
    if cleaned["over"] is not None:  # the turning points: told as the log tells them
        cleaned["over"]["turning"] = [
            [line for line in moment if line["kind"] != "Claimed"]
            for moment in cleaned["over"]["turning"]
        ]
    cleaned["save"].pop("sealed")
    return cleaned


def _check_sealed(save: dict[str, Any], session: Any, public: list[int], resumes: int) -> None:
    """The sealed save opens with the key alone, holds every action, and is as long as
    the person can work out: ``public`` are the packed sizes of the public actions (the
    others see them happen), a slot for a hidden action follows each that the game says
    one may come before, and each of the person's ``resumes`` dealt the cards anew."""
    pieces = [base64.urlsafe_b64decode(p + "=" * (-len(p) % 4)) for p in save["sealed"].split(".")]
    assert all(len(piece) == PIECE + 16 for piece in pieces[:-1])  # whole pieces, each its tag
    raw = b"".join(pieces)
    assert b'"redeals"' not in raw and b"seed" not in raw  # encrypted, not encoded
    content = sealed_content(save)
    assert content["actions"] == [list(a) for a in session.actions]
    twin = {  # the same save as the person could write it: fixed widths where secret
        "v": 2,
        "id": save["id"],
        "deck": content["deck"],  # the server's deck digest (public: /api/setup)
        "game": save["game"],
        "players": save["players"],
        "variants": content["variants"],
        "action_cap": content["action_cap"],
        "bots": content["bots"],
        "seed": "0" * 16,
        "prefix": "0" * 8,
        "redeals": [["0" * 8, "0" * 16]] * resumes,
        "room": content["room"],
    }
    expected = len(json.dumps(twin, separators=(",", ":"))) + 1 + sum(public)
    assert len(pieces) == expected // PIECE + 1, "the sealed save's pieces tell more"
    tags = 16 * len(pieces)
    assert len(raw) - tags == expected, "the sealed save's length tells more than the table did"


def _packed_size(state: State, action: tuple[int, ...]) -> int:
    """What an action the table saw takes in the save: its numbers at the width its
    public ones need (a card, below 256, never widens it), and a hidden action's slot
    when the game says one may come before it."""
    said = [0 if 0 <= n < 256 else n for n in action]  # cards, categories, seats: a byte
    width = 1 if all(0 <= n < 256 for n in said) else 2 if all(abs(n) < 2**15 for n in said) else 4
    room = views.hidden_room(state)
    slot = room is not None and (not room or action[0] in room)
    return 1 + width * len(action) + (HIDDEN_SLOT if slot else 0)


@pytest.mark.parametrize(
    ("game", "opponents", "seed", "resumed"),
    [
        ("idiot", 1, 1, ()),
        ("idiot", 4, 2, (4,)),
        ("kraftidioten", 1, 3, ()),
        ("kraftidioten", 4, 5, (3, 9)),
        ("kraftidioten", 9, 14, ()),
        ("stromkrig", 1, 5, ()),
        ("stromkrig", 5, 6, (5,)),
    ],
)
def test_no_answer_reveals_a_hidden_card(
    client: Any, game: str, opponents: int, seed: int, resumed: tuple[int, ...]
) -> None:
    """``resumed``: at these answers the game continues from its save, as a process that
    did not know it continues it (the unseen cards dealt anew: the mirror deals alike)."""
    store: GameStore = client.app.state.store
    table = store.table
    cards = cards_of(client)
    rng = random.Random(seed)
    redeals = random.Random(-seed)
    store.fresh_seed = lambda: redeals.getrandbits(63)  # deterministic: the walk is the same
    response = client.post(
        "/api/games",
        json={"game": game, "opponents": opponents, "bots": "heuristic", "seed": seed},
    )
    snapshot = response.json()
    session = store.get(snapshot["id"])
    mirror = make_game(game, table, opponents + 1).new_initial_state(random.Random(seed))
    seat = snapshot["seat"]
    seen = set(mirror.card_locations()[f"hand:{seat}"]) | _public_now(mirror, seat)
    applied = answers = probed = 0
    bot_lies = 0
    public: list[int] = []  # the packed size of each action the other seats saw happen
    while True:
        for action in session.actions[applied:]:
            if mirror.public_action_string(action):
                public.append(_packed_size(mirror, action))
            seen |= _laid_face_up(mirror, action)
            hidden_before = _unseen_places(mirror)
            mirror.apply(action)
            if _turns_a_card(mirror, action):  # the table sees the turned card
                seen |= hidden_before - _unseen_places(mirror)
            seen |= set(mirror.card_locations()[f"hand:{seat}"]) | _public_now(mirror, seat)
        applied = len(session.actions)
        bot_lies = sum(
            1
            for event in mirror.events
            if type(event).__name__ == "Claimed" and event.seat != seat and event.lie
        )
        text = response.text  # every byte of the body, as sent
        assert json.loads(text) == snapshot
        forbidden = _forbidden_now(mirror, seat, seen)
        never_seen = set(range(table.size)) - seen
        sealed = snapshot["save"]["sealed"]
        open_text = text.replace(sealed, "")
        where = f"{game} answer {answers}"
        assert not _ids_in(open_text, table, forbidden), f"{where}: ids of hidden cards"
        assert not _named_as_card(open_text, store.deck, table, never_seen), f"{where}: named"
        spoken_free = json.dumps(_without_speech(snapshot), ensure_ascii=False)
        assert not _figures_in(spoken_free, table, forbidden), f"{where}: figures"
        strangers = {k for k, _ in _numbers(_without_speech(snapshot))} - set(NUMBER_KEYS)
        assert not strangers, f"{where}: numbers under {strangers} (a card as an index?)"
        for panel in snapshot["view"]["panels"]:
            for claim in panel.get("claims", []):
                assert set(claim) == CLAIM_KEYS
        for line in snapshot["log"]:
            if line["kind"] == "Claimed" and line["seat"] != seat:
                told = "".join(line["text"].values())
                assert not any(word in told for word in TRUTH_WORDS), f"{where}: {told}"
        for name, value in response.headers.items():
            assert not _ids_in(f'"{value}"', table, forbidden), f"{where}: header {name}"
        _check_sealed(
            snapshot["save"], session, public, len(set(resumed) & set(range(answers + 1)))
        )
        if forbidden:  # the checks can fail: a hidden card put in the text is found
            probe = min(forbidden)
            assert _ids_in(f'"{table.ids[probe]}"', table, forbidden) == [table.ids[probe]]
            if not table.joker[probe]:
                told = f"{table.names[probe]} ({SUITS[table.suit[probe]]} {table.value[probe]})"
                assert _named_as_card(told, store.deck, table, {probe})
                assert _figures_in(table.figure_text(1, probe), table, forbidden)
            probed += 1
        answers += 1
        if snapshot["over"] is not None:
            break
        move = next_request(snapshot, cards, rng)
        if answers in resumed:
            body = {"save": snapshot["save"], "then": move}
            response = client.post("/api/games/resume", json=body)
            session = store.get(response.json()["id"])
            at, redeal = session.redeals[-1]
            assert at == applied  # dealt anew where the save ended, before the move
            mirror.redeal_unseen(random.Random(redeal))
        else:
            response = client.post(f"/api/games/{snapshot['id']}/moves", json=move)
        assert response.status_code == 200, response.text
        snapshot = response.json()
    assert mirror.is_terminal() and answers > 3 and probed > 3
    if game == "kraftidioten":
        assert bot_lies > 0, "the walk met no lie of a bot: it checked less than it should"


def test_the_move_counter_does_not_count_the_bots_lies(deck: Deck) -> None:
    """A lie is two engine actions (choose the card, then the claim), a true claim one:
    the counter the page sees counts the person's moves only, so it cannot tell them apart."""
    with client_for(deck) as client:
        store: GameStore = client.app.state.store
        snapshot = new_game(client, "kraftidioten", 4, seed=31, bots="heuristic")
        cards = cards_of(client)
        rng = random.Random(31)
        lies = 0
        while snapshot["over"] is None and snapshot["turn"] < 80:
            session = store.get(snapshot["id"])
            turn, every = snapshot["turn"], len(session.actions)
            body = next_request(snapshot, cards, rng)
            snapshot = client.post(f"/api/games/{snapshot['id']}/moves", json=body).json()
            added = session.actions[every:]
            lies += sum(1 for a in added if a[0] == kraftidioten.LIE)
            # The person's own actions only (their own lie is two): never a bot's.
            assert snapshot["turn"] == session.turn and 1 <= snapshot["turn"] - turn <= 2
        assert lies > 0 and len(session.actions) > session.turn
