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
from kraftstokk.games.core import Action, DeckTable, play_game
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
    from kraftstokk.games.kraftidioten import PASS_ACTION
    from kraftstokk.games.kraftidioten_bots import GreedyBot

    class CountingGreedy(GreedyBot):
        asked = 0
        claims_lowest_truth = False  # every turn reaches the bot

        def act(self, observation: Any, legal: Sequence[Action], rng: random.Random) -> Action:
            CountingGreedy.asked += 1
            return super().act(observation, legal, rng)

    game = registry.make_game("kraftidioten", DeckTable.from_deck(deck), 4)
    record = play_game(game, [CountingGreedy(game) for _ in range(4)], 3)  # type: ignore[arg-type]
    passes = record.actions.count(PASS_ACTION)
    assert passes > 0
    assert CountingGreedy.asked == len(record.actions) - passes


def test_stromkrig_lays_the_greedy_lowest_card_without_asking(deck: Deck) -> None:
    from kraftstokk.games.stromkrig import LAY, PLAY, StromkrigGame
    from kraftstokk.games.stromkrig_bots import GreedyBot

    class CountingGreedy(GreedyBot):
        asked = 0
        asked_with_lay = 0

        def act(self, observation: Any, legal: Sequence[Action], rng: random.Random) -> Action:
            CountingGreedy.asked += 1
            if observation.phase == PLAY and any(action[0] == LAY for action in legal):
                CountingGreedy.asked_with_lay += 1
            return super().act(observation, legal, rng)

    game = registry.make_game("stromkrig", DeckTable.from_deck(deck), 4)
    assert isinstance(game, StromkrigGame)
    record = play_game(game, [CountingGreedy(game) for _ in range(4)], 3)
    checked = play_game(game, [GreedyBot(game) for _ in range(4)], 3, debug=True)
    assert record.actions == checked.actions
    lays = sum(1 for action in record.actions if action[0] == LAY)
    assert lays > 0
    assert 0 < CountingGreedy.asked < len(record.actions) - lays // 2
    # A turn on which an ordinary lay is legal never reaches the bot.
    assert CountingGreedy.asked_with_lay == 0


def test_stromkrig_makes_every_greedy_turn_and_war_choice_without_asking(deck: Deck) -> None:
    from kraftstokk.games.stromkrig import CHOOSE, NAME, StromkrigGame
    from kraftstokk.games.stromkrig_bots import GreedyBot

    phases: list[int] = []

    class Counting(GreedyBot):
        def act(self, observation: Any, legal: Sequence[Action], rng: random.Random) -> Action:
            phases.append(observation.phase)
            return super().act(observation, legal, rng)

    game = registry.make_game("stromkrig", DeckTable.from_deck(deck), 4)
    assert isinstance(game, StromkrigGame)
    for seed in range(4):
        fast = play_game(game, [Counting(game) for _ in range(4)], seed)
        checked = play_game(game, [GreedyBot(game) for _ in range(4)], seed, debug=True)
        assert fast.actions == checked.actions
        assert fast.stats == checked.stats
        assert any(action[0] == NAME for action in fast.actions)  # there were wars
    # Only the use of a turned sjanse card still reaches the bot.
    assert set(phases) <= {CHOOSE}


@pytest.mark.parametrize(
    "variants",
    [(), ("two_same_player",), ("no_finish_on_two",), ("sequences",), ("sneak_three", "no_swap")],
)
def test_idiot_lays_the_greedy_lowest_rank_without_asking(
    deck: Deck, variants: tuple[str, ...]
) -> None:
    from kraftstokk.games.idiot import PLAY, TEN, TWO
    from kraftstokk.games.idiot_bots import GreedyBot

    game = registry.make_game("idiot", DeckTable.from_deck(deck), 4, variants)
    ranks = game.ranks  # type: ignore[attr-defined]

    class CountingGreedy(GreedyBot):
        asked = 0
        asked_with_ordinary_play = 0
        otherwise_cheapest = False  # the other decisions reach the bot

        def act(self, observation: Any, legal: Sequence[Action], rng: random.Random) -> Action:
            CountingGreedy.asked += 1
            if any(a[0] == PLAY and ranks[a[1]] not in (TWO, TEN) for a in legal):
                CountingGreedy.asked_with_ordinary_play += 1
            return super().act(observation, legal, rng)

    costs = game.keep_costs  # type: ignore[attr-defined]
    for seed in range(3):
        CountingGreedy.asked = CountingGreedy.asked_with_ordinary_play = 0
        fast = play_game(game, [CountingGreedy(costs) for _ in range(4)], seed)
        checked = play_game(game, [GreedyBot(costs) for _ in range(4)], seed, debug=True)
        assert fast.actions == checked.actions
        assert fast.result == checked.result
        if {"no_finish_on_two", "sneak_three"} & set(variants):
            continue  # these variants keep every decision on the general path
        plays = sum(1 for action in fast.actions if action[0] == PLAY)
        assert 0 < CountingGreedy.asked < len(fast.actions) - plays // 2
        if "sequences" not in variants:  # in a run the bot is still asked
            assert CountingGreedy.asked_with_ordinary_play == 0


def test_kraftidioten_gives_a_blind_greedy_no_legal_list_on_its_turns(deck: Deck) -> None:
    from kraftstokk.games.kraftidioten import PASS_ACTION
    from kraftstokk.games.kraftidioten_bots import GreedyBot

    lengths: list[int] = []

    class ListLength(GreedyBot):
        claims_lowest_truth = False  # every turn reaches the bot

        def act(self, observation: Any, legal: Sequence[Action], rng: random.Random) -> Action:
            lengths.append(len(legal))
            return super().act(observation, legal, rng)

    game = registry.make_game("kraftidioten", DeckTable.from_deck(deck), 4)
    fast = play_game(game, [ListLength(game) for _ in range(4)], 5)  # type: ignore[arg-type]
    checked = play_game(game, [GreedyBot(game) for _ in range(4)], 5, debug=True)  # type: ignore[arg-type]
    assert fast.actions == checked.actions
    assert lengths and set(lengths) == {0}
    assert len(lengths) == len(fast.actions) - fast.actions.count(PASS_ACTION)


def test_kraftidioten_rejects_an_illegal_choice_of_a_blind_bot(deck: Deck) -> None:
    from kraftstokk.errors import GameError
    from kraftstokk.games.kraftidioten import LAY

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


def test_kraftidioten_makes_the_greedy_truthful_and_opening_lays_without_asking(deck: Deck) -> None:
    from kraftstokk.games.kraftidioten import LAY, NO_CATEGORY, PHASE_TURN
    from kraftstokk.games.kraftidioten_bots import GreedyBot

    table = DeckTable.from_deck(deck)
    asked_with_truth: list[int] = []
    asked: list[int] = []

    class Counting(GreedyBot):
        def act(self, observation: Any, legal: Sequence[Action], rng: random.Random) -> Action:
            asked.append(1)
            category = observation.category
            if observation.phase == PHASE_TURN and category == NO_CATEGORY:
                asked_with_truth.append(2)  # an opening: made by the engine too
            if observation.phase == PHASE_TURN and category != NO_CATEGORY:
                figures = table.figures[category]
                if any(
                    not table.joker[c] and figures[c] >= observation.floor for c in observation.hand
                ):
                    asked_with_truth.append(1)
            return super().act(observation, legal, rng)

    game = registry.make_game("kraftidioten", table, 4)
    for seed in range(3):
        fast = play_game(game, [Counting(game) for _ in range(4)], seed)  # type: ignore[arg-type]
        checked = play_game(game, [GreedyBot(game) for _ in range(4)], seed, debug=True)  # type: ignore[arg-type]
        assert fast.actions == checked.actions
        assert fast.stats == checked.stats
        lays = sum(1 for action in fast.actions if action[0] == LAY)
        assert lays > 0
    assert asked and not asked_with_truth


@pytest.mark.parametrize("variants", [(), ("two_same_player",), ("no_swap",)])
def test_idiot_makes_every_greedy_decision_without_asking(
    deck: Deck, variants: tuple[str, ...]
) -> None:
    from kraftstokk.games.idiot_bots import GreedyBot

    game = registry.make_game("idiot", DeckTable.from_deck(deck), 4, variants)
    costs = game.keep_costs  # type: ignore[attr-defined]
    asked: list[int] = []

    class Counting(GreedyBot):
        def act(self, observation: Any, legal: Sequence[Action], rng: random.Random) -> Action:
            asked.append(1)
            return super().act(observation, legal, rng)

    for seed in range(4):
        fast = play_game(game, [Counting(costs) for _ in range(4)], seed)
        checked = play_game(game, [GreedyBot(costs) for _ in range(4)], seed, debug=True)
        assert fast.actions == checked.actions
        assert fast.result == checked.result
        assert fast.stats == checked.stats
    assert not asked
