"""The game-over screen's turning points: the counts they weigh are the view's own."""

from __future__ import annotations

import random

import pytest

from kraftstokk.games.core import DeckTable
from kraftstokk.games.registry import make_game
from kraftstokk.models import Deck
from kraftstokk.web import views
from kraftstokk.web.turning import LEAST, MOST, public_counts, turning_points, view_counts


@pytest.mark.parametrize(("game", "players"), [("idiot", 4), ("kraftidioten", 5), ("stromkrig", 6)])
def test_counts_from_the_observation_are_the_views(deck: Deck, game: str, players: int) -> None:
    """At every position of a random game, for the person's seat: the pile's and every
    seat's cards read from the observation equal those of the whole view; and the turning
    points found are at most MOST, each an action that moved at least LEAST cards."""
    rules = make_game(game, DeckTable.from_deck(deck), players)
    plant_ids = [card.plant_id or card.id for card in deck.cards]
    rng = random.Random(5)
    state = rules.new_initial_state(random.Random(11))
    actions = []
    while not state.is_terminal():
        view = views.table_view(state, 0, plant_ids)
        assert public_counts(state, 0, plant_ids) == view_counts(view), len(actions)
        action = rng.choice(list(state.legal_actions()))
        actions.append(action)
        state.apply(action)
    found = turning_points(rules, 11, actions, [], 0, plant_ids)
    assert 1 <= len(found) <= MOST and all(found)
    replay = rules.new_initial_state(random.Random(11))
    shifts = []
    for action in actions:
        before = public_counts(replay, 0, plant_ids)
        replay.events.clear()
        replay.apply(action)
        after = public_counts(replay, 0, plant_ids)
        shifts.append(
            (sum(abs(a - b) for a, b in zip(after, before, strict=True)), list(replay.events))
        )
    for events in found:
        shift = next(moved for moved, told in shifts if told == events)
        assert shift >= LEAST
