"""``State.clone`` copies every field of a position, in the middle of a game.

Each game's ``clone`` lists the fields it copies (compiled classes have no ``__dict__`` to
copy wholesale), so a field added later and forgotten would make a clone play differently.
These tests compare every data attribute of the clone with the original's, then play both
on with the same moves.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from kraftstokk.games import registry
from kraftstokk.games.core import DeckTable, State
from kraftstokk.models import Deck

# Views and the legal-action cache are rebuilt by the clone; they hold no position.
REBUILT = {"_views", "_legal"}


def fields(state: State) -> dict[str, Any]:
    names = [n for n in dir(state) if not n.startswith("__") and n not in REBUILT]
    values = {name: getattr(state, name, None) for name in names}
    return {
        name: value
        for name, value in values.items()
        if not callable(value) and name not in ("game", "rng", "_rng", "stats", "events")
    }


@pytest.mark.parametrize("name", ["idiot", "kraftidioten", "stromkrig"])
@pytest.mark.parametrize("moves", [0, 7, 40])
def test_a_clone_holds_the_same_position_and_plays_on_alike(
    deck: Deck, name: str, moves: int
) -> None:
    game = registry.make_game(name, DeckTable.from_deck(deck), 4)
    bots = registry.make_bots(game, "greedy,random,heuristic,random")
    rng = random.Random(1)

    def move(state: State) -> tuple[int, ...]:
        seat = state.current_player()
        return bots[seat].act(state.observation(seat), state.legal_actions(), rng)

    state = game.new_initial_state(random.Random(moves))
    for _ in range(moves):
        state.apply(move(state))
    assert not state.is_terminal()
    copy = state.clone()
    assert copy is not state
    assert fields(copy) == fields(state)
    assert copy.final_stats() == state.final_stats()
    assert copy.event_log() == state.event_log()
    for _ in range(60):
        if state.is_terminal():
            break
        assert copy.legal_actions() == state.legal_actions()
        action = move(state)
        state.apply(action)
        copy.apply(action)
        assert fields(copy) == fields(state)
    assert copy.result() == state.result()
