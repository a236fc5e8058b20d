"""The save's record of every action: packed back to the same actions, malformed ones
refused, and a game's hidden actions told apart by their kind alone."""

from __future__ import annotations

import random
from collections import defaultdict

import pytest

from kraftstokk.errors import GameError
from kraftstokk.games.core import DeckTable
from kraftstokk.games.registry import make_bots, make_game
from kraftstokk.models import Deck
from kraftstokk.web import views
from kraftstokk.web.record import HIDDEN_SLOT, ActionRecord, is_hidden, unpack


@pytest.mark.parametrize(("name", "players"), [("idiot", 4), ("kraftidioten", 6), ("stromkrig", 5)])
def test_hidden_actions_are_hidden_by_kind_and_packed_back(
    deck: Deck, name: str, players: int
) -> None:
    """``is_hidden`` asks the state once per kind: the test asks it of every action."""
    game = make_game(name, DeckTable.from_deck(deck), players)
    bots = make_bots(game, ",".join(["heuristic"] * players))
    hidden_by_kind: dict[int, set[bool]] = defaultdict(set)
    for seed in range(4):
        state = game.new_initial_state(random.Random(seed))
        rngs = [random.Random(seed + seat) for seat in range(players)]
        record = ActionRecord(views.hidden_room(state))
        actions = []
        while not state.is_terminal():
            seat = state.current_player()
            action = tuple(
                bots[seat].act(state.observation(seat), state.legal_actions(), rngs[seat])
            )
            hidden = state.public_action_string(action) == ""
            hidden_by_kind[action[0]].add(hidden)
            assert is_hidden(state, action) == hidden
            record.add(action, hidden)
            state.apply(action)
            actions.append(action)
        assert unpack(record.data(), record.room) == actions
    assert all(len(seen) == 1 for seen in hidden_by_kind.values()), dict(hidden_by_kind)
    assert any(True in seen for seen in hidden_by_kind.values()) == (name == "kraftidioten")


def test_the_records_length_counts_public_actions_only() -> None:
    """A claim with a lie before it packs to as many bytes as a true one; a card's index
    takes one byte whatever it is, a figure said aloud as many as it needs."""
    truth, lie = ActionRecord({200}), ActionRecord({200})
    truth.add((200, 4, 1, 4), False)
    truth.add((205,), False)
    lie.add((206, 54, 1), True)
    lie.add((200, 54, 1, 9), False)
    lie.add((205,), False)
    assert len(truth.data()) == len(lie.data()) == (1 + 4) + HIDDEN_SLOT + (1 + 1)
    assert unpack(lie.data(), {200}) == [(206, 54, 1), (200, 54, 1, 9), (205,)]
    said = ActionRecord({200})
    said.add((200, 4, 1, 9, 123_456), False)
    assert len(said.data()) == 1 + 4 * 5 + HIDDEN_SLOT
    assert unpack(said.data(), {200}) == [(200, 4, 1, 9, 123_456)]
    wide = ActionRecord(None)
    wide.add((300, 7), False)
    wide.add((-1, 2**20), False)
    assert len(wide.data()) == (1 + 2 * 2) + (1 + 4 * 2)
    assert unpack(wide.data(), None) == [(300, 7), (-1, 2**20)]


@pytest.mark.parametrize(
    "data",
    [bytes([2, 0]), bytes([1 << 5 | 1, 0]), bytes([3 << 5 | 1, 0]), bytes([1, 200, 5])],
)
def test_a_malformed_record_is_refused(data: bytes) -> None:
    with pytest.raises(GameError, match="record"):
        unpack(data, {200})


def test_a_record_has_room_for_one_short_hidden_action_where_the_game_says() -> None:
    record = ActionRecord({200})
    with pytest.raises(GameError, match="slot"):
        record.add((206, 1, 2, 3), True)
    with pytest.raises(GameError, match="slot"):
        record.add((206, 1, 999), True)
    record.add((206, 1, 2), True)
    with pytest.raises(GameError, match="room"):
        record.add((206, 1, 2), True)
    with pytest.raises(GameError, match="no room"):
        record.add((205,), False)
    with pytest.raises(GameError, match="room"):
        ActionRecord(None).add((206, 1, 2), True)
