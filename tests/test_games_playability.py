"""The figures of play (``games/playability.py``) on hand-built games whose values are known.

Each toy game below is a few lines of rules on the core State API, played by
``play_game``: a game of forced moves only (no decision is a real choice), a game where
every seat always has the same three distinct moves (and one move listed twice), a race
the last seat always wins from behind at a round end (a comeback in every game), and one
it wins having been behind only in the middle of a round, where the seats that have not
played yet look behind (no comeback: standings are compared only at round ends). The
cores' figures are compared with the Python engine's game by game in
``tests/test_games_fastcore.py``.
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
        its whole hand at once; the others lay one card a turn), ``ahead`` (the last seat first
    lays two cards, then one a turn like the others)."""

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
        first_turn = self.turns_of[self.player] == 0
        if script == "comeback" and self.player == self.game.num_players - 1:
            return [(PICK_UP,)] if first_turn else [(TAKE_ALL,)]
        if script == "ahead" and self.player == self.game.num_players - 1 and first_turn:
            return [(LAY, 2)]
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
        assert found["comeback"] == 1  # behind (5 cards to go) when the first round ended
        assert found["decided"] == last + 1 + players  # its second turn
        if players == 2:
            # At the round's end seat 0 leads alone, and no later round ends.
            assert (found["lead_changes"], found["settled"]) == (0, 2)
        else:
            # The others are level at the first round's end; the last seat leads alone at
            # the next, once it has gone out (the game goes on for the loser).
            assert (found["lead_changes"], found["settled"]) == (0, found["decided"])


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_winner_behind_only_in_the_middle_of_a_round_is_no_comeback(table, players):
    """Seat 0 lays first and leads until the last seat lays two cards: measured after every
    action the last seat was behind and the lead changed once; at the round's end it leads
    alone, and so it stays."""
    for seed in range(2):
        record = played(table, "ahead", players, seed)
        found = figures(record)
        last = players - 1
        assert record.result.order[0] == last
        assert found["decided"] == 2 * players  # its second turn
        assert (found["comeback"], found["lead_changes"]) == (0, 0)
        assert found["settled"] == players  # from the first round's end on


def test_a_loser_stake_game_follows_the_seat_heading_for_last_place():
    """In a game played not to be the loser the 'lead' is the seat with the most cards to
    go; a comeback is the loser having been ahead of the seat then heading for last place,
    at a round end."""

    class Position:
        def __init__(self, progress: Sequence[int], out: int = 0) -> None:
            self._progress, self._out = list(progress), out

        def progress(self, seat: int) -> int:
            return self._progress[seat]

        def seats_out(self) -> int:
            return self._out

    def measured(
        turns: list[tuple[int, list[int], int]], order: list[int], loser: int
    ) -> dict[str, int]:
        """``turns``: the seat that acts, then the position after its action."""
        meter = Meter(3, loser_stake=True)
        meter.moved(Position([-3, -3, -3]), 0)  # as dealt: nobody heads for last place
        for actions, (seat, progress, out) in enumerate(turns, start=1):
            meter.decision(1, False, seat)
            meter.moved(Position(progress, out), actions)
        values = meter.figures(True, order, loser, len(turns), [0])
        return dict(zip(FIGURES, values, strict=True))

    always_last = [
        (0, [-2, -3, -3], 0),  # mid-round seat 0 looks ahead of the others: not counted
        (1, [-2, -2, -3], 0),
        (2, [-2, -2, -4], 0),  # round end: seat 2 heads for last place
        (0, [0, -2, -4], 1),
        (1, [0, 0, -4], 2),
    ]
    found = measured(always_last, [0, 1], 2)
    assert (found["lead_changes"], found["comeback"]) == (0, 0)
    assert (found["settled"], found["decided"]) == (3, 5)
    swapped = [
        (0, [-5, -3, -3], 0),
        (1, [-5, -2, -3], 0),
        (2, [-5, -2, -2], 0),  # round end: seat 0 heads for last place, seat 2 is ahead
        (0, [-1, -2, -2], 0),
        (1, [-1, 0, -2], 1),
        (2, [-1, 0, -4], 1),  # round end (seat 1 is out): seat 2 heads for last place
        (0, [0, 0, -4], 2),
    ]
    found = measured(swapped, [1, 0], 2)
    assert (found["lead_changes"], found["comeback"]) == (1, 1)
    assert (found["settled"], found["decided"]) == (6, 7)
    # A seat's consecutive decisions are one turn: seat 0 acting twice ends no round.
    meter = Meter(2, loser_stake=False)
    meter.moved(Position([-3, -3]), 0)
    for actions, (seat, progress) in enumerate(
        [(0, [-2, -3]), (0, [-1, -3]), (1, [-1, -2])], start=1
    ):
        meter.decision(2, False, seat)
        meter.moved(Position(progress), actions)
    meter.decision(2, True, 0)  # an answer out of turn is no turn either
    assert meter.figures(False, [], None, 3, [0])[FIGURES.index("lead_changes")] == 0
    meter.decision(2, False, 0)  # seat 0 begins its second turn: the round has ended
    found = dict(zip(FIGURES, meter.figures(False, [], None, 3, [0]), strict=True))
    assert (found["settled"], found["comeback"]) == (3, 0)
