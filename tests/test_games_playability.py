"""The figures of play (``games/playability.py``) on hand-built games whose values are known.

Each toy game below is a few lines of rules on the core State API, played by
``play_game``: a game of forced moves only (no decision is a real choice), a game where
every seat always has the same three distinct moves (and one move listed twice), and a
race the last seat always wins from behind (a comeback in every game, one lead change,
the lead taken for good at the decisive action). The cores' figures are compared with
the Python engine's game by game in ``tests/test_games_fastcore.py``.
"""

from __future__ import annotations

import random
from array import array
from collections.abc import Sequence
from typing import Any

import pytest

from kraftstokk.games.core import Action, DeckTable, Game, Result, State
from kraftstokk.games.playability import FIGURES, Meter
from kraftstokk.games.random_bot import RandomBot
from kraftstokk.games.runner import play_game
from tests.conftest import synthetic_deck

LAY, PICK_UP, TAKE_ALL = 0, 1, 2


def figures(record: Any) -> dict[str, int]:
    return dict(zip(FIGURES, record.stats.playability, strict=True))


def branching(record: Any) -> dict[int, int]:
    pairs = array("q", record.stats.branching).tolist()
    return dict(zip(pairs[0::2], pairs[1::2], strict=True))


class RaceGame(Game):
    """Seats hold cards and lay them in turn; the first with none wins, the last loses."""

    name = "race"
    min_players = 2
    max_players = 4

    def __init__(self, table: DeckTable, players: int, script: str) -> None:
        super().__init__(table, players)
        self.script = script

    def new_initial_state(self, rng: random.Random) -> State:
        return RaceState(self)


class RaceState(State):
    """``script``: ``forced`` (one move: lay one card), ``choice`` (lay 1, 2 or 3 cards,
    the 1 listed twice), ``comeback`` (the last seat first picks up two cards, then lays
    its whole hand at once; the others lay one card a turn)."""

    game: RaceGame

    def __init__(self, game: RaceGame) -> None:
        self.game = game
        self.events = []
        self.held = [3] * game.num_players
        self.player = 0
        self.order: list[int] = []
        self.actions = 0
        self.turns_of = [0] * game.num_players

    def current_player(self) -> int:
        return self.player

    def legal_actions(self) -> list[Action]:
        if self.is_terminal():
            return []
        script = self.game.script
        if script == "choice":
            most = min(3, self.held[self.player])
            return [(LAY, 1), *((LAY, n) for n in range(1, most + 1))]
        if script == "comeback" and self.player == self.game.num_players - 1:
            return [(PICK_UP,)] if self.turns_of[self.player] == 0 else [(TAKE_ALL,)]
        return [(LAY, 1)]

    def apply(self, action: Action) -> None:
        seat = self.player
        if action[0] == PICK_UP:
            self.held[seat] += 2
        elif action[0] == TAKE_ALL:
            self.held[seat] = 0
        else:
            self.held[seat] -= min(action[1], self.held[seat])
        self.actions += 1
        self.turns_of[seat] += 1
        if self.held[seat] == 0:
            self.order.append(seat)
        if not self.is_terminal():
            self.player = (seat + 1) % self.game.num_players
            while self.held[self.player] == 0:
                self.player = (self.player + 1) % self.game.num_players

    def is_terminal(self) -> bool:
        return len(self.order) >= self.game.num_players - 1

    def result(self) -> Result:
        finished = self.is_terminal()
        left = [s for s in range(self.game.num_players) if self.held[s]]
        loser = left[0] if finished and left else None
        rounds = -(-self.actions // self.game.num_players)
        return Result(finished, list(self.order), loser, self.actions, rounds)

    def clone(self) -> State:
        raise NotImplementedError

    def observation(self, seat: int) -> Any:
        return tuple(self.held)

    def action_to_string(self, action: Action) -> str:
        return str(action)

    def card_locations(self) -> dict[str, list[int]]:
        return {}

    def remaining_cards(self, seat: int) -> list[int]:
        return [0] * self.held[seat]

    def check_invariants(self) -> None:
        return None


@pytest.fixture(scope="module")
def table() -> DeckTable:
    return DeckTable.from_deck(synthetic_deck(7))


def played(table: DeckTable, script: str, players: int = 3, seed: int = 0) -> Any:
    game = RaceGame(table, players, script)
    return play_game(game, [RandomBot() for _ in range(players)], seed)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_game_of_forced_moves_has_no_decision_with_a_choice(table, players):
    record = played(table, "forced", players)
    found = figures(record)
    assert record.result.finished and record.result.actions > 0
    assert (found["choices"], found["options"], found["answers"]) == (0, 0, 0)
    assert branching(record) == {}


def test_moves_listed_twice_count_once(table):
    for seed in range(6):
        record = played(table, "choice", 3, seed)
        found = figures(record)
        counts = branching(record)
        # Three distinct moves while a seat holds three cards or more, fewer at the end.
        assert found["choices"] == sum(counts.values())
        assert found["options"] == sum(moves * n for moves, n in counts.items())
        assert set(counts) <= {2, 3} and counts[3] >= 3
        forced = record.result.actions - found["choices"]  # a last single card
        assert 0 <= forced <= 3


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_last_seat_that_always_comes_back_is_a_comeback_in_every_game(table, players):
    for seed in range(4):
        record = played(table, "comeback", players, seed)
        found = figures(record)
        last = players - 1
        assert record.result.order[0] == last  # it goes out first, from behind
        assert found["comeback"] == 1
        assert found["lead_changes"] == 1  # seat 0 led, then the last seat
        assert found["settled"] == found["decided"] == last + 1 + players  # its second turn


def test_a_loser_stake_game_follows_the_seat_heading_for_last_place():
    """In a game played not to be the loser the 'lead' is the seat with the most cards to
    go; a comeback is the loser having been ahead of the seat then heading for last place."""

    class Position:
        def __init__(self, progress: Sequence[int], out: int = 0) -> None:
            self._progress, self._out = list(progress), out

        def progress(self, seat: int) -> int:
            return self._progress[seat]

        def seats_out(self) -> int:
            return self._out

    def measured(
        moves: list[tuple[list[int], int]], order: list[int], loser: int
    ) -> dict[str, int]:
        meter = Meter(3, loser_stake=True)
        for actions, (progress, out) in enumerate(moves):
            meter.moved(Position(progress, out), actions)
        return dict(
            zip(FIGURES, meter.figures(True, order, loser, len(moves) - 1, [0]), strict=True)
        )

    level = ([-3, -3, -3], 0)  # as dealt: nobody heads for last place
    always_last = [level, ([-3, -3, -5], 0), ([-2, -3, -5], 0), ([0, 0, -4], 2)]
    found = measured(always_last, [0, 1], 2)
    assert (found["lead_changes"], found["comeback"]) == (0, 0)
    assert (found["settled"], found["decided"]) == (1, 3)
    swapped = [level, ([-5, -3, -3], 0), ([-1, -3, -4], 0), ([0, 0, -2], 2)]
    found = measured(swapped, [0, 1], 2)  # seat 0 headed for last place, seat 2 lost
    assert (found["lead_changes"], found["comeback"]) == (1, 1)
    assert (found["settled"], found["decided"]) == (2, 3)
