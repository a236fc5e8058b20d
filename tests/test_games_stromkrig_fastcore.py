"""Strømkrig's native core (``stromkrig/_fastcore.c``) plays exactly the Python engine's games.

Each game is played twice, by the core and by the Python engine (``play_game(...,
native=False)``: the compiled engine where it is built), and everything the framework
reads is compared: the actions, the result, the counters and samples (with
their key order), the cards played and the loser's cards. The games cover 2-6 players,
both dealers' ends, the variant, greedy, random and mixed seats, several decks and small
action caps. ``tests/test_games_fastcore.py`` adds the 20,000-game run against a
pure-Python child process.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import pytest

from kraftstokk.games import registry
from kraftstokk.games.core import Action, Bot, DeckTable, derive_seed
from kraftstokk.games.random_bot import RandomBot
from kraftstokk.games.runner import play_game, run_of
from kraftstokk.games.stromkrig import fast
from kraftstokk.games.stromkrig.bots import GreedyBot, HeuristicBot
from kraftstokk.games.stromkrig.state import StromkrigGame
from tests.conftest import synthetic_deck
from tests.native_build import require_core


@pytest.fixture(autouse=True)
def built_core() -> None:
    require_core("stromkrig")


VARIANT = "invisible_current_category"
FIELDS = (
    "actions",
    "finished",
    "order",
    "loser",
    "rounds",
    "counters",
    "samples",
    "cards_played",
    "loser_cards",
    "playability",
    "branching",
)


@pytest.fixture(scope="module")
def tables() -> list[DeckTable]:
    return [DeckTable.from_deck(synthetic_deck(seed)) for seed in (7, 11, 23)]


def python_run(game: StromkrigGame, bots: Sequence[Bot], seed: int) -> tuple[Any, ...]:
    """What the Python engine records for the game, in ``NativeRun`` order."""
    record = play_game(game, bots, seed, native=False)
    assert record.result.actions == len(record.actions)
    return run_of(record)


def assert_same_game(game: StromkrigGame, spec: str, seed: int) -> tuple[Any, ...]:
    core = fast.native_core(game, registry.make_bots(game, spec))
    assert core is not None
    native: tuple[Any, ...] = core.play(seed)
    expected = python_run(game, registry.make_bots(game, spec), seed)
    for name, got, want in zip(FIELDS, native, expected, strict=True):
        assert got == want, f"{name} differs: seed {seed}, {spec}, {game.rules()}"
        if isinstance(want, dict):
            assert list(got) == list(want), f"{name}: key order, seed {seed}"
    return native


def seat_mix(players: int, index: int) -> str:
    chooser = random.Random(players * 100 + index)
    return ",".join(chooser.choice(("greedy", "random")) for _ in range(players))


@pytest.mark.parametrize("players", range(2, 7))
@pytest.mark.parametrize("variants", [(), (VARIANT,)])
def test_greedy_games_are_the_python_games(
    tables: list[DeckTable], players: int, variants: tuple[str, ...]
) -> None:
    wars = finished = 0
    for number, table in enumerate(tables):
        game = StromkrigGame(table, players, variants, dealer=number % players)
        for index in range(60):
            run = assert_same_game(game, "greedy", derive_seed(players, index))
            wars += run[5].get("wars", 0)
            finished += run[1]
    assert wars > 0 and finished > 0  # the games reach wars and their ends


@pytest.mark.parametrize("players", range(2, 7))
def test_random_and_mixed_seats_play_the_python_games(
    tables: list[DeckTable], players: int
) -> None:
    counted: set[str] = set()
    for number, table in enumerate(tables):
        for variants in ((), (VARIANT,)):
            game = StromkrigGame(table, players, variants, action_cap=800, dealer=players - 1)
            for index in range(6):
                seed = derive_seed(1000 + number, index)
                for spec in ("random", seat_mix(players, index)):
                    run = assert_same_game(game, spec, seed)
                    counted.update(run[5])
    # Random seats reach every counted event of the game: runs, resets, re-fights...
    assert counted >= {"runs", "resets", "burns", "wars", "war_rounds", "invisible_plays"}


@pytest.mark.parametrize("cap", [1, 2, 3, 5, 17, 60])
def test_the_action_cap_stops_both_engines_alike(tables: list[DeckTable], cap: int) -> None:
    for players in (2, 4, 6):
        game = StromkrigGame(tables[0], players, action_cap=cap)
        for index in range(8):
            for spec in ("greedy", "random", seat_mix(players, index)):
                run = assert_same_game(game, spec, derive_seed(cap, index))
                assert len(run[0]) <= cap
                assert run[1] or len(run[0]) == cap


def test_the_default_cap_games_of_random_bots(tables: list[DeckTable]) -> None:
    game = StromkrigGame(tables[1], 4)
    capped = 0
    for index in range(8):
        run = assert_same_game(game, "random", derive_seed(77, index))
        capped += not run[1]
    assert capped < 8


@pytest.mark.parametrize("players", range(2, 7))
def test_deal_is_the_initial_card_locations(tables: list[DeckTable], players: int) -> None:
    for dealer in range(players):
        game = StromkrigGame(tables[dealer % len(tables)], players, dealer=dealer)
        core = fast.native_core(game, registry.make_bots(game, "greedy"))
        assert core is not None
        for index in range(20):
            seed = derive_seed(dealer, index)
            expected = game.new_initial_state(random.Random(seed)).card_locations()
            dealt = core.deal(seed)
            assert dealt == expected
            assert list(dealt) == list(expected)


@pytest.mark.parametrize("seed", [0, 1, 2**32 - 1, 2**32, 2**63, 2**64 - 1])
def test_seeds_across_the_whole_range(tables: list[DeckTable], seed: int) -> None:
    game = StromkrigGame(tables[0], 3)
    assert_same_game(game, "greedy", seed)
    core = fast.native_core(game, registry.make_bots(game, "random"))
    assert core is not None
    assert core.deal(seed) == game.new_initial_state(random.Random(seed)).card_locations()


@pytest.mark.parametrize("seed", [-1, 2**64, 10**30])
def test_seeds_the_core_cannot_take_are_one_clear_error(tables: list[DeckTable], seed: int) -> None:
    game = StromkrigGame(tables[0], 3)
    core = fast.native_core(game, registry.make_bots(game, "greedy"))
    assert core is not None
    with pytest.raises(ValueError, match="seeds 0 <= seed < 2\\*\\*64"):
        core.play(seed)
    with pytest.raises(TypeError, match="seed must be an int"):
        core.deal("7")  # type: ignore[arg-type]


def test_the_core_plays_heuristic_seats_with_their_settings(tables: list[DeckTable]) -> None:
    game = StromkrigGame(tables[0], 4)
    assert fast.native_core(game, registry.make_bots(game, "heuristic")) is not None
    mixed = registry.make_bots(game, "greedy,random,heuristic:explore=0.5,greedy")
    assert any(isinstance(bot, HeuristicBot) for bot in mixed)
    core = fast.native_core(game, mixed)
    assert core is not None
    assert core is not fast.native_core(
        game, registry.make_bots(game, "greedy,random,heuristic,greedy")
    )
    # A heuristic bot made for another game, or with a rank the core's longs cannot hold,
    # is played by Python.
    other = StromkrigGame(tables[0], 4)
    assert fast.native_core(game, [HeuristicBot(other), *mixed[1:]]) is None
    assert fast.native_core(game, [HeuristicBot(game, join_nr=2**40), *mixed[1:]]) is None


def test_bots_the_core_was_not_given_leave_the_game_to_python(tables: list[DeckTable]) -> None:
    game = StromkrigGame(tables[0], 3)
    other = StromkrigGame(tables[0], 3)
    assert fast.native_core(game, [GreedyBot(other), GreedyBot(game), RandomBot()]) is None
    assert fast.native_core(game, [GreedyBot(game), RandomBot()]) is None  # a seat short

    class PatientBot:
        def act(self, observation: Any, legal: Sequence[Action], rng: random.Random) -> Action:
            return legal[0]

    assert fast.native_core(game, [GreedyBot(game), PatientBot(), RandomBot()]) is None
    dearer = GreedyBot(game)
    dearer.cost = tuple(2 * cost for cost in dearer.cost)
    assert fast.native_core(game, [dearer, RandomBot(), RandomBot()]) is None
    assert fast.native_core(game, [GreedyBot(game), RandomBot(), RandomBot()]) is not None


def test_other_games_are_left_to_python(tables: list[DeckTable]) -> None:
    idiot = registry.make_game("idiot", tables[0], 3)
    assert fast.native_core(idiot, registry.make_bots(idiot, "random")) is None


def test_the_core_is_made_once_per_game_and_seats(tables: list[DeckTable]) -> None:
    game = StromkrigGame(tables[0], 4)
    first = fast.native_core(game, registry.make_bots(game, "greedy"))
    assert first is fast.native_core(game, registry.make_bots(game, "greedy"))
    assert first is not fast.native_core(game, registry.make_bots(game, "random"))


def test_a_hand_size_of_the_rule_parameters_is_the_cores_too(tables: list[DeckTable]) -> None:
    game = StromkrigGame(tables[0], 3)
    game.parameters = replace(game.parameters, hand_size=5)
    for bots in ("greedy", "random"):
        seats = registry.make_bots(game, bots)
        core = fast.native_core(game, seats)
        assert core is not None
        dealt = core.deal(3)
        assert len(dealt["hand:0"]) == 5
        assert dealt == game.new_initial_state(random.Random(3)).card_locations()
        for seed in range(25):
            assert core.play(seed) == run_of(play_game(game, seats, seed, native=False))


def test_tables_of_the_wrong_shape_are_one_clear_error(tables: list[DeckTable]) -> None:
    module = fast.core_module()
    assert module is not None
    game = StromkrigGame(tables[0], 2)
    good: dict[str, Any] = {
        "num_players": 2,
        "dealer": 0,
        "action_cap": 100,
        "parameters": game.parameters,
        "bots": (0, 2),  # a random seat and a heuristic one
        "hand_order": game.hand_order,
        "run_next": game.run_next,
        "beats": game.beats,
        "may_lay": game.may_lay,
        "war_starts": [[bool(r) for r in row] for row in game.war_reasons],
        "beats_nothing": game.beats_nothing,
        "special_uses": game.special_uses,
        "open_uses": game.open_uses,
        "war_figure": game.war_figure,
        "costs": GreedyBot(game).cost,
        "heuristics": (None, (12, 20, 0.05)),
        "production": game.production,
        "gwh_nr": game.gwh_nr,
        "nr": game.table.nr,
        "joker": [int(flag) for flag in game.table.joker],
        "special": [0] * 55,
    }
    assert module.Core(**good).deal(5) == game.new_initial_state(random.Random(5)).card_locations()
    broken: list[tuple[str, Any, type[Exception]]] = [
        ("num_players", 7, ValueError),
        ("dealer", 2, ValueError),
        ("action_cap", 0, ValueError),
        ("parameters", replace(game.parameters, hand_size=40), ValueError),
        ("parameters", None, AttributeError),
        ("bots", (0, 3), ValueError),
        ("bots", (0, 1), ValueError),  # settings for a greedy seat
        ("heuristics", (None, (12, 20, 1.5)), ValueError),
        ("heuristics", (None, (12, 20)), TypeError),
        ("production", game.production[:3], ValueError),
        ("nr", game.table.nr[:2], ValueError),
        ("hand_order", game.hand_order[:-1], ValueError),
        ("run_next", (99,) * 55, ValueError),
        ("beats", game.beats[:54], ValueError),
        ("may_lay", [row[:3] for row in game.may_lay], ValueError),
        ("special_uses", ((("x", 0),),) * 55, TypeError),
        ("open_uses", (((305, 0),),) * 55, ValueError),
        ("war_figure", game.war_figure[:2], ValueError),
        ("costs", (float("nan"),) * 55, ValueError),
        ("costs", 5, TypeError),
    ]
    for name, value, error in broken:
        with pytest.raises(error):
            module.Core(**{**good, name: value})
