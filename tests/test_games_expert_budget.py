"""The expert's time budget (issue 37.3): a decision given ``ms`` counts what its search
costs by the game's SearchCost and stops within the budget (at least two rounds), a
count and not a clock, so that a seeded decision is the same on any machine; a decision
given ``playouts`` plays them all whatever they cost."""

from __future__ import annotations

import dataclasses
import importlib
import random

import pytest

from kraftstokk.games import registry
from kraftstokk.games.core import DeckTable
from kraftstokk.games.search import PLANNED_SHARE, ExpertBot, SearchCost
from tests.conftest import synthetic_deck

TABLE = DeckTable.from_deck(synthetic_deck())
GAMES = [name for name, spec in registry.specs().items() if "expert" in spec.bots]


def decisions(name: str, count: int):
    """The first ``count`` positions of a seeded heuristic game where the seat has two
    moves or more: (observation, legal actions)."""
    game = registry.make_game(name, TABLE, 4)
    bots = registry.make_bots(game, "heuristic")
    rng = random.Random(4)
    state = game.new_initial_state(random.Random(37))
    found = []
    while not state.is_terminal() and len(found) < count:
        seat = state.current_player()
        legal = state.legal_actions()
        if len(legal) > 1:
            found.append((state.observation(seat), legal))
        state.apply(bots[seat].act(state.observation(seat), legal, rng))
    return game, found


@pytest.mark.parametrize("name", GAMES)
def test_a_budget_stops_the_search_by_its_counted_cost(name):
    spec = importlib.import_module(f"kraftstokk.games.{name}.bots").EXPERT
    assert spec.cost is not None, f"{name}: the expert has no SearchCost"
    game, found = decisions(name, 4)
    assert found
    # Each round costs 1 ms: a 10 ms budget plans 9 ms, so nine rounds, and never fewer
    # than two however small the budget.
    dear = dataclasses.replace(spec, cost=SearchCost(round_us=1000, playout_us=0, action_us=0))
    for ms, rounds in ((10, int(10 * PLANNED_SHARE)), (1, 2)):
        for observation, legal in found:
            expert = ExpertBot(game, dear, 2_000, budget_ms=ms)
            first = expert.act(observation, legal, random.Random(8))
            searched = expert.searched
            if searched.rounds:  # the candidates were more than one
                assert searched.rounds == rounds
                assert searched.playouts % rounds == 0 and searched.actions > 0
            # The same seed and budget: the same search and the same choice.
            assert expert.act(observation, legal, random.Random(8)) == first
            assert expert.searched == searched
    # Without a budget (playouts=N), every round is played whatever it costs.
    for observation, legal in found:
        expert = ExpertBot(game, dear, 40)
        expert.act(observation, legal, random.Random(8))
        searched = expert.searched
        if searched.rounds:
            assert searched.playouts >= 40 - searched.playouts // searched.rounds
            assert searched.rounds >= 2


@pytest.mark.parametrize("name", GAMES)
def test_ms_gives_a_budget_and_playouts_none(name):
    game = registry.make_game(name, TABLE, 4)
    timed = registry.make_bots(game, "expert:ms=7")[0]
    counted = registry.make_bots(game, "expert:playouts=30")[0]
    assert isinstance(timed, ExpertBot) and isinstance(counted, ExpertBot)
    assert timed._planned_us == pytest.approx(7000 * PLANNED_SHARE)
    assert counted._planned_us is None
