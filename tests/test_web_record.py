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
from kraftstokk.web.record import HIDDEN_SLOT, ActionRecord, has_hidden_actions, is_hidden, unpack


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
        record = ActionRecord(has_hidden_actions(state))
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
        assert unpack(record.data(), record.hidden_slots) == actions
    assert all(len(seen) == 1 for seen in hidden_by_kind.values()), dict(hidden_by_kind)
    assert any(True in seen for seen in hidden_by_kind.values()) == (name == "kraftidioten")


def test_the_records_length_counts_public_actions_only() -> None:
    """A claim with a lie before it packs to as many bytes as a true one."""
    truth, lie = ActionRecord(True), ActionRecord(True)
    truth.add((200, 4, 1, 4), False)
    lie.add((206, 4, 1), True)
    lie.add((200, 4, 1, 9), False)
    assert len(truth.data()) == len(lie.data()) == 1 + 4 * 4 + HIDDEN_SLOT
    assert unpack(lie.data(), True) == [(206, 4, 1), (200, 4, 1, 9)]
    assert len(ActionRecord(False).data()) == 0


@pytest.mark.parametrize(
    "data",
    [bytes([2, 0, 0, 0]), bytes([1, 0, 0, 0, 7, 5]), bytes([1, 0, 0, 0, 7]) + bytes([9])],
)
def test_a_malformed_record_is_refused(data: bytes) -> None:
    with pytest.raises(GameError, match="record"):
        unpack(data, hidden_slots=True)


def test_a_record_has_room_for_one_short_hidden_action_at_a_time() -> None:
    record = ActionRecord(True)
    with pytest.raises(GameError, match="numbers"):
        record.add((206, 1, 2, 3), True)
    record.add((206, 1, 2), True)
    with pytest.raises(GameError, match="room"):
        record.add((206, 1, 2), True)
    with pytest.raises(GameError, match="room"):
        ActionRecord(False).add((206, 1, 2), True)
