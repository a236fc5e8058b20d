"""``State.redeal_unseen``: the cards no seat has seen are dealt again, and nothing a seat
may know changes (the served game does it on every resume, so rolling back gains nothing).
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from kraftstokk.errors import GameError
from kraftstokk.games.core import DeckTable, State
from kraftstokk.games.registry import make_bots, make_game
from kraftstokk.games.runner import replay
from kraftstokk.models import Deck

GAMES = [("idiot", 4), ("kraftidioten", 5), ("stromkrig", 4)]


def _unseen(state: State) -> dict[str, list[int]]:
    """The places no seat has seen: the stock, and (Idiot) the face-down rows."""
    return {
        place: cards
        for place, cards in state.card_locations().items()
        if place == "stock" or place.startswith("face_down:")
    }


def _seen(state: State) -> dict[str, list[int]]:
    unseen = _unseen(state)
    return {place: cards for place, cards in state.card_locations().items() if place not in unseen}


@pytest.mark.parametrize(("name", "players"), GAMES)
def test_a_redeal_changes_no_seats_knowledge(deck: Deck, name: str, players: int) -> None:
    game = make_game(name, DeckTable.from_deck(deck), players)
    bots = make_bots(game, ",".join(["heuristic"] * players))
    moved = 0
    for seed in range(3):
        state = game.new_initial_state(random.Random(seed))
        rngs = [random.Random(seed * 10 + seat) for seat in range(players)]
        decision = 0
        while not state.is_terminal():
            if decision % 7 == 0:
                dealt = state.clone()
                dealt.redeal_unseen(random.Random(decision))
                dealt.check_invariants()
                for seat in range(players):
                    assert dealt.observation(seat) == state.observation(seat), (seed, decision)
                assert dealt.legal_actions() == state.legal_actions()
                assert _seen(dealt) == _seen(state)
                before, after = _unseen(state), _unseen(dealt)
                assert {p: len(c) for p, c in after.items()} == {
                    p: len(c) for p, c in before.items()
                }
                assert Counter(c for cs in after.values() for c in cs) == Counter(
                    c for cs in before.values() for c in cs
                )
                moved += after != before
            seat = state.current_player()
            legal = state.legal_actions()
            state.apply(tuple(bots[seat].act(state.observation(seat), legal, rngs[seat])))
            decision += 1
    assert moved > 5  # the unseen cards really were dealt again


@pytest.mark.parametrize(("name", "players"), GAMES)
def test_replay_deals_again_where_the_redeals_say(deck: Deck, name: str, players: int) -> None:
    """A game with redeals replays to the same end: the actions after a redeal were taken
    in the world it dealt (a resumed served game downloads as such a log)."""
    game = make_game(name, DeckTable.from_deck(deck), players)
    bots = make_bots(game, ",".join(["greedy"] * players))
    state = game.new_initial_state(random.Random(3))
    rngs = [random.Random(seat) for seat in range(players)]
    actions: list[tuple[int, ...]] = []
    redeals = []
    while not state.is_terminal():
        if len(actions) in (5, 17, 40):
            redeals.append((len(actions), 1000 + len(actions)))
            state.redeal_unseen(random.Random(redeals[-1][1]))
        seat = state.current_player()
        action = tuple(bots[seat].act(state.observation(seat), state.legal_actions(), rngs[seat]))
        state.apply(action)
        actions.append(action)
    again = replay(game, 3, actions, redeals=redeals)
    assert again.card_locations() == state.card_locations()
    assert again.result() == state.result()
    with pytest.raises(GameError, match="redeal"):
        replay(game, 3, actions, redeals=[(len(actions) + 1, 5)])
