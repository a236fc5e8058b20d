"""Kraftidioten's native core (``kraftidioten/_fastcore.c``) plays the Python engine's games.

Seeded games of every player count, greedy, random and mixed seats, small action caps
and four decks (two synthetic ones, one of 26 plants, one without jokers) are played
through the core and through the Python engine in this process (``native=False``) and
compared whole. The rare branches the core must get right (the joker penalty's two
``Random.sample`` branches and its short form, a hand of jokers only, lies by figure, a
card drawn too low, the cap) are checked to have happened in those games. The
framework's own test (``test_games_fastcore.py``) compares against pure Python.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import replace
from types import SimpleNamespace
from typing import Any

import pytest

from kraftstokk.games import native, registry
from kraftstokk.games.core import DEFAULT_ACTION_CAP, Action, DeckTable, derive_seed
from kraftstokk.games.kraftidioten.bots import GreedyBot
from kraftstokk.games.kraftidioten.events import DrawOutcome, JokersOnly, PenaltyDrawn, StockDrawn
from kraftstokk.games.kraftidioten.fast import native_core
from kraftstokk.games.kraftidioten.state import KraftidiotenGame
from kraftstokk.games.random_bot import RandomBot, draw_below
from kraftstokk.games.runner import GameRecord, play_game, run_of
from tests.conftest import synthetic_deck
from tests.native_build import require_core

NAME = "kraftidioten"
GAMES = 3000
SEED = 4126


@pytest.fixture(autouse=True)
def built_core() -> None:
    require_core(NAME)


def sub_table(table: DeckTable, cards: Sequence[int]) -> DeckTable:
    """The deck of only ``cards`` (renumbered from 0, in that order)."""

    def pick(values: Sequence[Any]) -> tuple[Any, ...]:
        return tuple(values[card] for card in cards)

    return replace(
        table,
        ids=pick(table.ids),
        names=pick(table.names),
        suit=pick(table.suit),
        value=pick(table.value),
        joker=pick(table.joker),
        figures=tuple(pick(row) for row in table.figures),
        nr=tuple(pick(row) for row in table.nr),
        gwh_tens=pick(table.gwh_tens),
        printed=tuple(pick(row) for row in table.printed),
    )


def decks() -> list[DeckTable]:
    first = DeckTable.from_deck(synthetic_deck(7))
    second = DeckTable.from_deck(synthetic_deck(12))
    small = sub_table(first, [*first.plant_cards[::2], *first.joker_cards])
    return [first, second, small, sub_table(second, list(second.plant_cards))]


def kraftidioten(table: DeckTable, players: int, action_cap: int = 0) -> KraftidiotenGame:
    """The game (0: the default action cap)."""
    game = registry.make_game(NAME, table, players, action_cap=action_cap or DEFAULT_ACTION_CAP)
    assert isinstance(game, KraftidiotenGame)
    return game


def seat_bots(rng: random.Random, players: int) -> str:
    mix = rng.randrange(4)
    if mix == 0:
        return "greedy"
    if mix == 1:
        return "random"
    return ",".join(rng.choice(("greedy", "random")) for _ in range(players))


def games() -> Iterator[tuple[KraftidiotenGame, str, int]]:
    """(game, bots, seed) of every compared game: 2-10 players, caps down to one action."""
    rng = random.Random(SEED)
    tables = decks()
    made: dict[tuple[int, int, int], KraftidiotenGame] = {}
    for index in range(GAMES):
        deck = index % len(tables)
        players = rng.randint(2, min(10, len(tables[deck].plant_cards) // 3))
        cap = rng.choice((0, 0, 0, 0, 1, 2, 5, 40, 300))
        key = (deck, players, cap)
        if key not in made:
            made[key] = kraftidioten(tables[deck], players, cap)
        seed = derive_seed(SEED, index) if index % 4 else index
        yield made[key], seat_bots(rng, players), seed


def whole(record: GameRecord) -> tuple[Any, ...]:
    stats = record.stats
    return (
        record.actions,
        record.result,
        list(stats.counters.items()),  # the same keys, counted first in the same order
        stats.samples,
        stats.cards_played,
        record.loser_cards,
    )


def test_the_core_plays_the_python_engines_games(monkeypatch: pytest.MonkeyPatch) -> None:
    populations: list[int] = []
    sample = random.Random.sample

    def counted_sample(self: random.Random, population: Any, k: int, **options: Any) -> Any:
        populations.append(len(population))
        return sample(self, population, k, **options)

    monkeypatch.setattr(random.Random, "sample", counted_sample)
    happened: Counter[str] = Counter()
    for game, bots, seed in games():
        seats = registry.make_bots(game, bots)
        assert native_core(game, seats) is not None, (game.num_players, bots)
        fast = play_game(game, seats, seed)
        python = play_game(game, registry.make_bots(game, bots), seed, native=False)
        assert whole(fast) == whole(python), (game.num_players, game.action_cap, bots, seed)
        happened["capped" if not python.result.finished else "finished"] += 1
        for event in python.events:
            if isinstance(event, PenaltyDrawn):
                happened[f"penalty of {len(event.cards)}"] += 1
            elif isinstance(event, JokersOnly):
                happened["jokers only"] += 1
            elif isinstance(event, StockDrawn):
                happened[DrawOutcome(event.outcome).name] += 1
        happened["figure lies"] += python.stats.counters.get("figure_lies", 0)
    happened["sample from a pool"] = sum(size <= 21 for size in populations)
    happened["sample from a set"] = sum(size > 21 for size in populations)
    for branch in (
        "capped",
        "finished",
        "penalty of 1",
        "penalty of 3",
        "jokers only",
        "JOKER",
        "TOO_LOW",
        "CLAIMED",
        "figure lies",
        "sample from a pool",
        "sample from a set",
    ):
        assert happened[branch] > 0, (branch, dict(happened))


def test_the_core_deals_as_card_locations() -> None:
    for table in decks():
        most = min(10, len(table.plant_cards) // 3)
        for players in range(2, most + 1):
            game = registry.make_game(NAME, table, players)
            core = native_core(game, registry.make_bots(game, "random"))
            assert core is not None
            for seed in (0, 1, 2**31, 2**32 + 5, 2**64 - 1, *range(200, 230)):
                state = game.new_initial_state(random.Random(seed))
                assert core.deal(seed) == state.card_locations(), (players, seed)


def test_the_core_is_made_once_per_game_and_seating() -> None:
    game = registry.make_game(NAME, DeckTable.from_deck(synthetic_deck()), 3)
    first = native_core(game, registry.make_bots(game, "greedy,random,greedy"))
    again = native_core(game, registry.make_bots(game, "greedy,random,greedy"))
    other = native_core(game, registry.make_bots(game, "random,random,greedy"))
    assert first is not None and first is again
    assert other is not None and other is not first


def test_other_bots_and_games_go_to_the_python_engine() -> None:
    table = DeckTable.from_deck(synthetic_deck())
    game = kraftidioten(table, 3)
    twin = kraftidioten(table, 3)

    class LikeRandom:
        """Draws as the random bot does, but is not it."""

        reads_observation = False

        def act(self, observation: Any, legal: Sequence[Action], rng: random.Random) -> Action:
            return legal[draw_below(rng, len(legal))]

    assert native_core(game, registry.make_bots(game, "greedy,heuristic,random")) is not None
    assert native_core(game, registry.make_bots(twin, "heuristic")) is None  # another game's
    assert native_core(game, [GreedyBot(twin), GreedyBot(game), RandomBot()]) is None
    assert native_core(game, [LikeRandom(), RandomBot(), RandomBot()]) is None
    assert native_core(game, registry.make_bots(game, "greedy")[:2]) is None
    idiot = registry.make_game("idiot", table, 3)
    assert native_core(idiot, registry.make_bots(idiot, "random")) is None
    many = sub_table(table, [*range(table.size), *table.plant_cards[:12]])
    big = registry.make_game(NAME, many, 3)
    bots = registry.make_bots(big, "greedy")
    assert native_core(big, bots) is None
    assert play_game(big, bots, 5).actions == play_game(big, bots, 5, native=False).actions


def test_the_core_refuses_bad_seeds_and_tables() -> None:
    game = kraftidioten(DeckTable.from_deck(synthetic_deck()), 4)
    core = native_core(game, registry.make_bots(game, "greedy"))
    assert core is not None
    for seed in (-1, 2**64):
        with pytest.raises(ValueError, match="seeds from 0"):
            core.play(seed)
    with pytest.raises(TypeError):
        core.deal("7")  # type: ignore[arg-type]
    module = native.load_core(NAME)
    assert module is not None
    rules = core_rules(game)
    with pytest.raises(ValueError, match="truth_actions"):
        broken = [list(row) for row in game.truth_actions]
        broken[1][4] = (200, 4, 1, 5)  # a lie where the truth belongs
        module.Rules(**{**rules, "truth_actions": broken})
    with pytest.raises(ValueError, match="claim_figures"):
        module.Rules(**{**rules, "claim_figures": game.claim_figures[:2]})
    with pytest.raises(ValueError, match="cards"):
        module.Rules(**{**rules, "joker": (False,) * 65})
    with pytest.raises(ValueError, match="seat_bots"):
        module.Core(rules=module.Rules(**rules), seat_bots=(0, 1, 0))
    with pytest.raises(ValueError, match="seat_bots"):
        module.Core(rules=module.Rules(**rules), seat_bots=(0, 1, 0, 7))
    with pytest.raises(AttributeError, match="joker_limit"):
        module.Rules(**{**rules, "parameters": SimpleNamespace(hand_size=3, joker_penalty=3)})
    penalty = replace(game.parameters, joker_penalty=module.MAX_PENALTY + 1)
    with pytest.raises(ValueError, match="out of range"):
        module.Rules(**{**rules, "parameters": penalty})


def test_the_rule_parameters_are_the_cores_too() -> None:
    """The core plays by the game's parameters: a game with other ones (a smaller hand,
    a dearer joker) is played by the core as by the Python engine."""
    table = DeckTable.from_deck(synthetic_deck())
    for changes in ({"hand_size": 2}, {"joker_limit": 4, "joker_penalty": 1}):
        game = kraftidioten(table, 4)
        game.parameters = replace(game.parameters, **changes)
        for bots in ("greedy", "random"):
            seats = registry.make_bots(game, bots)
            core = native_core(game, seats)
            assert core is not None
            for seed in range(25):
                assert core.play(seed) == run_of(play_game(game, seats, seed, native=False))


def core_rules(game: KraftidiotenGame) -> dict[str, Any]:
    """The arguments fast.py hands the core's Rules for ``game``."""
    from kraftstokk.games.kraftidioten import fast

    entry = fast._game_core(game)
    assert entry is not None
    return dict(entry.arguments)
