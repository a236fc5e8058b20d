"""What the served table reads faster than a whole view: the turning points' counts, the
hand's order; each the same as the slower way."""

from __future__ import annotations

import random
from collections import deque

import pytest

from kraftstokk.games.core import DeckTable
from kraftstokk.games.registry import make_game
from kraftstokk.games.view import figure_order, in_figure_order
from kraftstokk.models import Deck
from kraftstokk.web import views
from kraftstokk.web.table import PERSON, Table
from kraftstokk.web.turning import (
    LEAST,
    MOST,
    observed_counts,
    public_counts,
    turning_points,
    view_counts,
)


@pytest.mark.parametrize(("game", "players"), [("idiot", 4), ("kraftidioten", 5), ("stromkrig", 6)])
def test_counts_from_the_observation_are_the_views(deck: Deck, game: str, players: int) -> None:
    """At every position of a random game, for the person's seat: the pile's and every
    seat's cards counted by the state, and read from the observation, equal those of the
    whole view; and the turning points found are at most MOST, each an action that moved
    at least LEAST cards."""
    rules = make_game(game, DeckTable.from_deck(deck), players)
    plant_ids = [card.plant_id or card.id for card in deck.cards]
    rng = random.Random(5)
    state = rules.new_initial_state(random.Random(11))
    actions = []
    while not state.is_terminal():
        view = views.table_view(state, 0, plant_ids)
        counts = view_counts(view)
        assert state.card_counts() == counts, len(actions)  # type: ignore[attr-defined]
        assert observed_counts(state, 0, plant_ids) == counts, len(actions)
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


@pytest.mark.parametrize(("game", "players"), [("idiot", 5), ("kraftidioten", 6), ("stromkrig", 4)])
def test_a_table_counts_the_turning_points_as_the_game_replayed_finds_them(
    deck: Deck, game: str, players: int
) -> None:
    """A table counts the turning points as its game is played (so the answer that ends
    it does not play it again): the same as the game played again from its seed finds."""
    rules = make_game(game, DeckTable.from_deck(deck), players)
    plant_ids = [card.plant_id or card.id for card in deck.cards]
    names = [PERSON] + ["heuristic"] * (players - 1)
    table = Table.deal(rules, names, 23, plant_ids)
    table.begin()
    rng = random.Random(2)
    while not table.state.is_terminal():
        table.apply(rng.choice(list(table.state.legal_actions())))
        table.advance(deque())
    assert table.shifts is not None
    found = turning_points(rules, 23, table.actions, table.redeals, table.seat, plant_ids)
    assert table.shifts.found() == found and found


def test_a_hand_in_figure_order(deck: Deck) -> None:
    """The hand's order from each card's place equals the order of figure_order itself, in
    every category and with none chosen (jokers first), for hands of any size."""
    table = DeckTable.from_deck(deck)
    rng = random.Random(3)
    for category in (-1, 0, 1, 2):
        for size in (0, 1, 3, 12, table.size):
            hand = rng.sample(range(table.size), size)
            expected = sorted(hand, key=lambda card: figure_order(table, category, card))
            assert in_figure_order(table, category, hand) == expected
