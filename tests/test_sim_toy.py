"""A tiny shedding game on the core API, so the simulation can be tested on its own.

Rules: 12 plant cards (values as on the deck); 3 cards each, the rest is the stock.
On your turn lay one card at least as high as the top card, draw the top card of the
stock as a chance (it is laid if it fits, otherwise you take it and the pile), or take
the pile. An ace may be laid on anything and burns the pile. You draw back up to three
while the stock lasts; with no cards and an empty stock you are out. The module is
registered as game ``toy``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import pytest

from kraftstokk.games import registry
from kraftstokk.games.core import Action, DeckTable, Game, Result, State, Stats
from kraftstokk.games.random_bot import RandomBot
from kraftstokk.games.runner import play_game
from kraftstokk.games.spec import CounterSpec, GameSpec, VariantSpec

PLAY, CHANCE, TAKE = 0, 1, 2
HAND = 3
TOY_CARDS = 12


class ToyGame(Game):
    name = "toy"
    min_players = 2
    max_players = 4
    allowed_variants = frozenset({"no_chance"})

    def new_initial_state(self, rng: random.Random) -> State:
        return ToyState(self, rng)


# The toy's events are plain Python: the compiled engine's Event cannot be subclassed by
# interpreted code, so they only have its method count, and ToyState counts them itself
# (final_stats). The toy is told by no narration: it has no texts (a simulation needs none).


@dataclass(init=False)
class ToyLaid:
    """A card laid (an ace burns the pile: ``burned`` cards go out)."""

    seat: int
    card: int
    burned: int

    def __init__(self, seat: int, card: int, burned: int) -> None:
        self.seat = seat
        self.card = card
        self.burned = burned

    def count(self, stats: Stats) -> None:
        stats.cards_played[self.card] += 1
        if self.burned:
            stats.count("burns")
            stats.sample("burn_sizes", self.burned)


@dataclass(init=False)
class ToyChance:
    seat: int
    played: bool

    def __init__(self, seat: int, played: bool) -> None:
        self.seat = seat
        self.played = played

    def count(self, stats: Stats) -> None:
        stats.count("chance_draws")
        if self.played:
            stats.count("chance_draws_played")


@dataclass(init=False)
class ToyPileTaken:
    seat: int

    def __init__(self, seat: int) -> None:
        self.seat = seat

    def count(self, stats: Stats) -> None:
        stats.count("pile_pickups")


class ToyState(State):
    def __init__(self, game: ToyGame, rng: random.Random) -> None:
        self.game = game
        self.rng = rng
        self.events = []
        cards = list(game.table.plant_cards[:TOY_CARDS])
        rng.shuffle(cards)
        players = game.num_players
        self.hands = [cards[seat * HAND : (seat + 1) * HAND] for seat in range(players)]
        self.stock = cards[players * HAND :]
        self.pile: list[int] = []
        self.burned: list[int] = []
        self.out: list[int] = []
        self.seat = 0
        self.actions = 0
        self.rounds = 0

    def _value(self, card: int) -> int:
        return self.game.table.value[card]

    def _fits(self, card: int) -> bool:
        value = self._value(card)
        return not self.pile or value == 1 or value >= self._value(self.pile[-1])

    def current_player(self) -> int:
        return self.seat

    def legal_actions(self) -> list[Action]:
        if self.is_terminal():
            return []
        moves: list[Action] = [(PLAY, c) for c in sorted(self.hands[self.seat]) if self._fits(c)]
        if self.stock and "no_chance" not in self.game.variants:
            moves.append((CHANCE,))
        if self.pile:
            moves.append((TAKE,))
        return moves

    def _lay(self, card: int) -> None:
        if self._value(card) == 1:
            self.burned.extend([*self.pile, card])
            self.pile = []
            self.events.append(ToyLaid(self.seat, card, len(self.burned)))
        else:
            self.pile.append(card)
            self.events.append(ToyLaid(self.seat, card, 0))

    def _take_pile(self) -> None:
        self.hands[self.seat].extend(self.pile)
        self.pile = []
        self.events.append(ToyPileTaken(self.seat))

    def apply(self, action: Action) -> None:
        if action not in self.legal_actions():
            raise ValueError(f"illegal toy action {action}")
        hand = self.hands[self.seat]
        if action[0] == PLAY:
            hand.remove(action[1])
            self._lay(action[1])
        elif action[0] == CHANCE:
            card = self.stock.pop()
            self.events.append(ToyChance(self.seat, self._fits(card)))
            if self._fits(card):
                self._lay(card)
            else:
                hand.append(card)
                self._take_pile()
        else:
            self._take_pile()
        while len(hand) < HAND and self.stock:
            hand.append(self.stock.pop())
        if not hand and not self.stock:
            self.out.append(self.seat)
        self.actions += 1
        self._advance()

    def _advance(self) -> None:
        if self._finished():
            return
        players = self.game.num_players
        seat = self.seat
        while True:
            seat = (seat + 1) % players
            if seat == 0:
                self.rounds += 1
            if seat not in self.out:
                break
        self.seat = seat

    def _finished(self) -> bool:
        return len(self.out) >= self.game.num_players - 1

    def is_terminal(self) -> bool:
        return self._finished() or self.actions >= self.game.action_cap

    def final_stats(self) -> Stats:
        stats = Stats(cards_played=[0] * self.game.table.size)
        for event in self.events:
            event.count(stats)
        return stats

    def result(self) -> Result:
        finished = self._finished()
        loser = None
        if finished:
            loser = next(s for s in range(self.game.num_players) if s not in self.out)
        return Result(finished, list(self.out), loser, self.actions, self.rounds)

    def clone(self) -> State:
        twin = ToyState.__new__(ToyState)
        twin.__dict__.update(self.__dict__)
        twin.rng = random.Random()
        twin.rng.setstate(self.rng.getstate())
        twin.events = list(self.events)
        twin.hands = [list(h) for h in self.hands]
        twin.stock, twin.pile = list(self.stock), list(self.pile)
        twin.burned, twin.out = list(self.burned), list(self.out)
        return twin

    def observation(self, seat: int) -> Any:
        top = self.pile[-1] if self.pile else None
        return {"hand": sorted(self.hands[seat]), "top": top, "stock": len(self.stock)}

    def action_to_string(self, action: Action) -> str:
        if action[0] == PLAY:
            return f"play {self.game.table.describe(action[1])}"
        return "chance" if action[0] == CHANCE else "take the pile"

    def card_locations(self) -> dict[str, list[int]]:
        places = {f"hand:{s}": list(h) for s, h in enumerate(self.hands)}
        places.update(stock=list(self.stock), pile=list(self.pile), burned=list(self.burned))
        return places

    def remaining_cards(self, seat: int) -> list[int]:
        return sorted(self.hands[seat])

    def cards_in_play(self) -> Sequence[int]:
        return self.game.table.plant_cards[:TOY_CARDS]


class GreedyToyBot:
    """Lowest playable card, else a chance, else the pile."""

    def act(self, observation: Any, legal: Sequence[Action], rng: random.Random) -> Action:
        return legal[0]


GAME = ToyGame
BOTS = {
    "random": lambda game, settings: RandomBot(),
    "greedy": lambda game, settings: GreedyToyBot(),
}


TOY_SPEC = GameSpec(
    name="toy",
    min_players=2,
    max_players=4,
    variants=(VariantSpec("no_chance"),),
    bots=("greedy", "random"),
    counters=(
        CounterSpec("burns", "aces laid"),
        CounterSpec("pile_pickups", "piles taken"),
        CounterSpec("chance_draws", "chance draws"),
        CounterSpec("chance_draws_played", "chance draws laid"),
    ),
    highlights=("burns_per_game",),
    game_module=__name__,
    bots_module=__name__,
)


@pytest.fixture
def toy(monkeypatch: pytest.MonkeyPatch) -> None:
    """``toy`` a known game for one test (other test files' registries must not see it)."""
    monkeypatch.setitem(registry.REGISTERED, "toy", TOY_SPEC)


def test_toy_game_keeps_every_card_in_one_place(deck, toy):
    game = registry.make_game("toy", DeckTable.from_deck(deck), 3)
    for seed in range(20):
        record = play_game(game, registry.make_bots(game, "greedy,random,random"), seed, debug=True)
        assert record.result.finished
        assert sorted([*record.result.order, record.result.loser]) == [0, 1, 2]


def test_toy_game_is_deterministic(deck, toy):
    game = registry.make_game("toy", DeckTable.from_deck(deck), 2)
    first = play_game(game, registry.make_bots(game, "random"), 5)
    second = play_game(game, registry.make_bots(game, "random"), 5)
    assert first.actions == second.actions
    assert first.actions != play_game(game, registry.make_bots(game, "random"), 6).actions


def test_toy_rejects_illegal_action(deck, toy):
    state = registry.make_game("toy", DeckTable.from_deck(deck), 2).new_initial_state(
        random.Random(1)
    )
    with pytest.raises(ValueError):
        state.apply((PLAY, 54))
