"""The games' fast bot loops (``State.play_out``) take exactly the actions of the plain loop.

``play_game`` with ``debug=True`` runs the plain loop (ask each bot, check the invariants
after every action); without it, a game may use its own faster loop. Both must give the
same game, action for action, for every bot kind, including a stop at the action cap.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import pytest

from kraftstokk.games import registry
from kraftstokk.games.core import Action, DeckTable
from kraftstokk.games.runner import play_game
from kraftstokk.models import Deck

CASES = [
    (game, players, bots)
    for game, counts in (
        ("idiot", (2, 4, 5)),
        ("kraftidioten", (2, 4, 7)),
        ("stromkrig", (2, 4, 6)),
    )
    for players in counts
    for bots in ("greedy", "random", "heuristic", "greedy,random" + ",greedy" * (players - 2))
]


@pytest.mark.parametrize(("name", "players", "bots"), CASES)
def test_fast_loop_plays_the_same_game(deck: Deck, name: str, players: int, bots: str) -> None:
    game = registry.make_game(name, DeckTable.from_deck(deck), players)
    for seed in range(4):
        fast = play_game(game, registry.make_bots(game, bots), seed)
        checked = play_game(game, registry.make_bots(game, bots), seed, debug=True)
        assert fast.actions == checked.actions
        assert fast.result == checked.result
        assert fast.stats == checked.stats
        assert fast.events == checked.events
        assert fast.loser_cards == checked.loser_cards


@pytest.mark.parametrize("name", ["idiot", "kraftidioten", "stromkrig"])
@pytest.mark.parametrize("cap", [1, 2, 3, 5, 17, 40])
def test_fast_loop_stops_at_the_action_cap(deck: Deck, name: str, cap: int) -> None:
    game = registry.make_game(name, DeckTable.from_deck(deck), 4, action_cap=cap)
    fast = play_game(game, registry.make_bots(game, "greedy"), 11)
    checked = play_game(game, registry.make_bots(game, "greedy"), 11, debug=True)
    assert len(fast.actions) == cap
    assert fast.actions == checked.actions
    assert not fast.result.finished and fast.result == checked.result


def test_kraftidioten_records_the_greedy_answers_without_asking(deck: Deck) -> None:
    from kraftstokk.games.kraftidioten.actions import PASS_ACTION
    from kraftstokk.games.kraftidioten.bots import GreedyBot

    class CountingGreedy:  # wraps the bot: a compiled class cannot be subclassed here
        asked = 0
        always_passes = True  # as GreedyBot declares (checked below)
        needs_legal = False
        reads_turn_view = True

        def __init__(self, game: Any) -> None:
            self.bot = GreedyBot(game)

        def act(self, observation: Any, legal: Sequence[Action], rng: random.Random) -> Action:
            CountingGreedy.asked += 1
            return self.bot.act(observation, legal, rng)

    game = registry.make_game("kraftidioten", DeckTable.from_deck(deck), 4)
    greedy = GreedyBot(game)
    assert greedy.always_passes is True and greedy.needs_legal is False
    assert greedy.reads_turn_view is True
    record = play_game(game, [CountingGreedy(game) for _ in range(4)], 3)
    passes = record.actions.count(PASS_ACTION)
    assert passes > 0
    assert CountingGreedy.asked == len(record.actions) - passes


def test_kraftidioten_hands_the_greedy_bot_only_its_turn_view(deck: Deck) -> None:
    from kraftstokk.games.kraftidioten.actions import PASS_ACTION
    from kraftstokk.games.kraftidioten.bots import GreedyBot
    from kraftstokk.games.kraftidioten.observation import KraftidiotenTurnView

    seen: list[object] = []

    class Looking:  # wraps the bot: a compiled class cannot be subclassed here
        always_passes = True  # as GreedyBot declares
        needs_legal = False
        reads_turn_view = True

        def __init__(self, game: Any) -> None:
            self.bot = GreedyBot(game)

        def act(self, observation: Any, legal: Sequence[Action], rng: random.Random) -> Action:
            seen.append(observation)
            return self.bot.act(observation, legal, rng)

    game = registry.make_game("kraftidioten", DeckTable.from_deck(deck), 4)
    fast = play_game(game, [Looking(game) for _ in range(4)], 5)
    checked = play_game(game, [GreedyBot(game) for _ in range(4)], 5, debug=True)  # type: ignore[arg-type]
    assert fast.actions == checked.actions  # the same game from the view or the whole
    assert seen and set(map(type, seen)) == {KraftidiotenTurnView}
    assert len(seen) == len(fast.actions) - fast.actions.count(PASS_ACTION)


def test_kraftidioten_rejects_an_illegal_choice_of_a_blind_bot(deck: Deck) -> None:
    from kraftstokk.errors import GameError
    from kraftstokk.games.kraftidioten.actions import LAY

    class Cheat:
        always_passes = True
        needs_legal = False

        def act(self, observation: Any, legal: Sequence[Action], rng: random.Random) -> Action:
            held = set(observation.hand)
            card = next(c for c in range(55) if c not in held)
            return (LAY, card, 0, card)  # a card it does not hold

    game = registry.make_game("kraftidioten", DeckTable.from_deck(deck), 3)
    with pytest.raises(GameError, match="does not hold"):
        play_game(game, [Cheat() for _ in range(3)], 1)
