"""Idiot's native core (``idiot/_fastcore.c`` through ``idiot/fast.py``) plays exactly the
games of the Python engine: actions, result, counters, samples, cards played, the loser's
cards and the deal, over every player count, every variant combination, greedy, random and
mixed seats, and small action caps; and it declines every seating it does not play.
"""

from __future__ import annotations

import dataclasses
import itertools
import random
from collections import Counter
from collections.abc import Sequence
from types import SimpleNamespace
from typing import Any

import pytest

from kraftstokk.games import native
from kraftstokk.games.core import Action, Bot, DeckTable
from kraftstokk.games.idiot import fast
from kraftstokk.games.idiot import state as state_module
from kraftstokk.games.idiot.actions import IdiotAction
from kraftstokk.games.idiot.bots import SPECIAL_COST, GreedyBot, HeuristicBot, keep_costs
from kraftstokk.games.idiot.spec import SPEC
from kraftstokk.games.idiot.state import IdiotGame
from kraftstokk.games.random_bot import RandomBot
from kraftstokk.games.registry import make_bots, make_game
from kraftstokk.games.runner import play_game, run_of
from kraftstokk.games.spec import VariantSpec
from tests.conftest import synthetic_deck
from tests.native_build import require_core

TABLE = DeckTable.from_deck(synthetic_deck())
VARIANTS = [variant.name for variant in SPEC.variants]
COMBOS = [
    combo for size in range(len(VARIANTS) + 1) for combo in itertools.combinations(VARIANTS, size)
]


@pytest.fixture(autouse=True)
def built_core() -> None:
    require_core("idiot")


def python_run(game: IdiotGame, bots: Sequence[Bot], seed: int) -> tuple[Any, ...]:
    """The Python engine's game in the shape of a NativeRun."""
    return run_of(play_game(game, bots, seed, native=False))


def seating(game: IdiotGame, kind: str, rng: random.Random) -> list[Bot]:
    if kind == "mixed":
        return [
            GreedyBot(keep_costs(game)) if rng.random() < 0.5 else RandomBot()
            for _ in range(game.num_players)
        ]
    return make_bots(game, kind)


def assert_same_game(game: IdiotGame, bots: Sequence[Bot], seed: int) -> tuple[Any, ...]:
    core = fast.native_core(game, bots)
    assert core is not None
    native = core.play(seed)
    expected = python_run(game, bots, seed)
    assert native == expected, (sorted(game.variants), game.num_players, seed)
    # The counters' keys come in the order the events first counted them, as in Python.
    assert list(native[5]) == list(expected[5])
    return native


def test_every_variant_combination_plays_the_python_games() -> None:
    rng = random.Random(20240612)
    kinds: Counter[int] = Counter()
    play_sizes: Counter[int] = Counter()
    counters: Counter[str] = Counter()
    games = unfinished = 0
    for combo in COMBOS:
        for players in range(2, 6):
            for cap in (5000, 5000, 5000, 40):
                game = make_game("idiot", TABLE, players, combo, cap)
                assert isinstance(game, IdiotGame)
                for kind in ("greedy", "random", "mixed"):
                    seed = rng.randrange(2**64) if rng.random() < 0.3 else rng.randrange(10**6)
                    native = assert_same_game(game, seating(game, kind, rng), seed)
                    games += 1
                    unfinished += not native[1]
                    kinds.update(action[0] for action in native[0])
                    play_sizes.update(len(a) - 1 for a in native[0] if a[0] == IdiotAction.PLAY)
                    counters.update(native[5])
    assert games == len(COMBOS) * 4 * 4 * 3
    # The games reached every kind of action, multi-card plays and every counter.
    assert set(kinds) >= {int(kind) for kind in IdiotAction}
    assert set(play_sizes) == {1, 2, 3, 4}
    assert set(counters) == {counter.name for counter in SPEC.counters}
    assert 0 < unfinished < games


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("bots", ["greedy", "random", "alternating"])
def test_many_seeds_of_the_default_game(players: int, bots: str) -> None:
    game = make_game("idiot", TABLE, players)
    assert isinstance(game, IdiotGame)
    if bots == "alternating":
        bots = ",".join(["greedy", "random", "greedy", "random", "greedy"][:players])
    seats = make_bots(game, bots)
    for seed in range(60):
        assert_same_game(game, seats, seed * 7919)


@pytest.mark.parametrize("cap", [1, 2, 3, 5, 11, 17, 40, 120])
def test_the_action_cap_stops_the_game_where_python_does(cap: int) -> None:
    for combo in (("no_swap",), ("sequences", "sneak_three"), ()):
        game = make_game("idiot", TABLE, 4, combo, cap)
        assert isinstance(game, IdiotGame)
        for seed in range(5):
            native = assert_same_game(game, make_bots(game, "random"), seed)
            assert len(native[0]) <= cap
            if not native[1]:
                assert len(native[0]) == cap and native[3] is None and native[8] == []


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("variants", [(), ("no_swap",), ("sequences", "sneak_three")])
def test_the_deal_is_the_python_deal(players: int, variants: tuple[str, ...]) -> None:
    game = make_game("idiot", TABLE, players, variants)
    core = fast.native_core(game, make_bots(game, "greedy"))
    assert core is not None
    for seed in [0, 1, 2, 99, 2**31, 2**32 - 1, 2**32, 2**32 + 1, 2**63, 2**64 - 1]:
        expected = game.new_initial_state(random.Random(seed)).card_locations()
        dealt = core.deal(seed)
        assert dealt == expected
        assert list(dealt) == list(expected)


def test_the_extreme_seeds_play_the_python_games() -> None:
    game = make_game("idiot", TABLE, 3, ("two_same_player",))
    assert isinstance(game, IdiotGame)
    for seed in (0, 2**32 - 1, 2**32, 2**63 - 1, 2**64 - 1):
        assert_same_game(game, make_bots(game, "greedy,random,greedy"), seed)


def test_a_greedy_bot_with_its_own_costs_is_played_with_them() -> None:
    game = make_game("idiot", TABLE, 3)
    assert isinstance(game, IdiotGame)
    reversed_costs = tuple(20 - cost for cost in keep_costs(game))
    bots: list[Bot] = [GreedyBot(reversed_costs), GreedyBot(keep_costs(game)), RandomBot()]
    for seed in range(30):
        assert_same_game(game, bots, seed)


class OtherBot:
    reads_observation = False

    def act(self, observation: Any, legal: Sequence[Action], rng: random.Random) -> Action:
        return legal[0]


def test_seatings_the_core_does_not_play_go_to_python() -> None:
    game = make_game("idiot", TABLE, 3)
    assert isinstance(game, IdiotGame)
    greedy = GreedyBot(keep_costs(game))
    assert fast.native_core(game, [greedy, greedy, OtherBot()]) is None
    assert fast.native_core(game, [greedy, greedy]) is None  # a seat without a bot
    # A heuristic bot of another game decides from that game's ranks and rules.
    other = make_game("idiot", TABLE, 3, ("sneak_three",))
    assert isinstance(make_bots(other, "heuristic")[0], HeuristicBot)
    assert fast.native_core(game, [*make_bots(other, "heuristic")[:1], greedy, greedy]) is None
    # Costs the core's 64-bit arithmetic could not follow, or of the wrong length.
    assert fast.native_core(game, [GreedyBot((1 << 50,) * TABLE.size), greedy, greedy]) is None
    assert fast.native_core(game, [GreedyBot((1, 2, 3)), greedy, greedy]) is None
    assert fast.native_core(game, [greedy, greedy, greedy]) is not None


def test_the_core_plays_heuristic_seats_with_their_burn_pile() -> None:
    game = make_game("idiot", TABLE, 3)
    seats = make_bots(game, "greedy,heuristic,random")
    core = fast.native_core(game, seats)
    assert core is not None and fast.native_core(game, seats) is core
    other = fast.native_core(game, make_bots(game, "greedy,heuristic:burn_pile=9,random"))
    assert other is not None and other is not core
    for seed in range(30):
        assert core.play(seed) == run_of(play_game(game, seats, seed, native=False))


def test_the_core_is_built_once_per_game_and_seating() -> None:
    game = make_game("idiot", TABLE, 4, ("sneak_three",))
    first = fast.native_core(game, make_bots(game, "greedy"))
    assert first is not None
    assert fast.native_core(game, make_bots(game, "greedy")) is first
    mixed = fast.native_core(game, make_bots(game, "greedy,random,greedy,random"))
    assert mixed is not None and mixed is not first
    other = make_game("idiot", TABLE, 4, ("sneak_three",))
    assert fast.native_core(other, make_bots(other, "greedy")) is not first


def test_no_core_when_the_module_is_not_loaded(monkeypatch: pytest.MonkeyPatch) -> None:
    game = make_game("idiot", TABLE, 2)
    monkeypatch.setattr(fast, "_loaded", False)
    monkeypatch.setattr(fast, "_module", None)
    monkeypatch.setattr(native, "load_core", lambda name: None)
    assert fast.native_core(game, make_bots(game, "greedy")) is None
    monkeypatch.undo()
    assert fast.native_core(game, make_bots(game, "greedy")) is not None


def test_play_game_plays_through_the_core() -> None:
    game = make_game("idiot", TABLE, 4, ("two_same_player",))
    bots = make_bots(game, "greedy,random,greedy,random")
    for seed in range(20):
        through_core = play_game(game, bots, seed)
        assert through_core == play_game(game, bots, seed, native=False)


def test_bad_seeds_are_one_clear_error() -> None:
    game = make_game("idiot", TABLE, 2)
    core = fast.native_core(game, make_bots(game, "greedy"))
    assert core is not None
    for seed in (-1, 2**64, 10**30):
        with pytest.raises(ValueError, match="seeds 0 <= seed < 2"):
            core.play(seed)
        with pytest.raises(ValueError, match="seeds 0 <= seed < 2"):
            core.deal(seed)
    with pytest.raises(TypeError, match="seed is an int"):
        core.play("7")  # type: ignore[arg-type]


def _config(**changes: Any) -> dict[str, Any]:
    """IdiotCore's arguments for a 2-player game, with ``changes`` to the game it reads."""
    game = make_game("idiot", TABLE, 2)
    assert isinstance(game, IdiotGame)
    costs = changes.pop("seat_costs", [keep_costs(game), None])
    read = {name: getattr(game, name) for name in fast.GAME_FIELDS}
    read.update(changes)
    return {"game": SimpleNamespace(**read), "seat_costs": costs, "special_cost": SPECIAL_COST}


def _rules(**changes: Any) -> SimpleNamespace:
    """Rule parameters as the core reads them (by name), with ``changes``."""
    return SimpleNamespace(**{**dataclasses.asdict(SPEC.rules), **changes})


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"num_players": 6}, "num_players: not an int from 2 to 5"),
        ({"num_players": 1}, "num_players: not an int from 2 to 5"),
        ({"ranks": (2,) * 70}, "ranks"),
        ({"ranks": (200,) * TABLE.size}, "ranks"),
        ({"reach": (1, 2)}, "reach"),
        ({"burns": (2,) * TABLE.size}, "burns"),
        ({"run_next": (-1,) * TABLE.size}, "run_next"),
        ({"sort_key": tuple(range(1, TABLE.size + 1))}, "sort_key"),
        ({"plant_cards": (0, 0, *range(2, 52))}, "plant_cards"),
        ({"plant_cards": (0, 1, 2)}, "plant_cards"),
        ({"action_cap": 0}, "action_cap"),
        ({"parameters": _rules(hand_size=9)}, "hand_size"),
        ({"parameters": _rules(hand_size=-1)}, "rule parameter hand_size"),
        ({"parameters": SimpleNamespace(hand_size=3)}, "burn_count"),
        ({"seat_costs": [None]}, "one entry per seat"),
        ({"seat_costs": [(1,) * TABLE.size, ("x",) * TABLE.size]}, "keep costs"),
    ],
)
def test_a_bad_configuration_is_one_clear_error(changes: dict[str, Any], message: str) -> None:
    missing = "parameters" in changes and not hasattr(changes["parameters"], "burn_count")
    with pytest.raises(AttributeError if missing else ValueError, match=message):
        fast.module().IdiotCore(**_config(**changes))


def test_too_many_cards_of_a_rank_are_refused() -> None:
    config = _config()
    game = config["game"]
    ranks = list(game.ranks)
    for plant in game.plant_cards[:5]:
        ranks[plant] = 7
    game.ranks = tuple(ranks)
    with pytest.raises(ValueError, match="at most four of a rank"):
        fast.module().IdiotCore(**config)


NEW_VARIANTS = (
    VariantSpec("three_burn", {"burn_count": 3}),
    VariantSpec("pairs_burn", {"burn_count": 2}),
    VariantSpec("four_rows", {"hand_size": 4}),
)


def test_a_variant_that_sets_parameters_is_data_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    """A variant added to the spec as data (the parameters it sets), and nothing else, is
    played by the Python engine and by the core alike: the core reads every parameter."""
    spec = dataclasses.replace(SPEC, variants=(*SPEC.variants, *NEW_VARIANTS))
    monkeypatch.setattr(state_module, "SPEC", spec)
    monkeypatch.setattr(IdiotGame, "allowed_variants", spec.variant_names)
    for variants in (("three_burn",), ("pairs_burn", "sequences"), ("four_rows", "no_swap")):
        game = make_game("idiot", TABLE, 3, variants)
        assert isinstance(game, IdiotGame)
        burns: Counter[str] = Counter()
        for seed in range(40):
            native_run = assert_same_game(game, make_bots(game, "greedy,random,greedy"), seed)
            burns.update(native_run[5])
        assert burns["four_burns"] > 0, variants
    four_rows = make_game("idiot", TABLE, 3, ("four_rows",))
    dealt = four_rows.new_initial_state(random.Random(1)).card_locations()
    assert len(dealt["face_down:0"]) == len(dealt["hand:2"]) == 4


def test_an_uninitialised_core_raises_instead_of_playing() -> None:
    kind = fast.module().IdiotCore
    core = kind.__new__(kind)
    with pytest.raises(RuntimeError, match="not initialised"):
        core.play(1)
    with pytest.raises(RuntimeError, match="not initialised"):
        core.deal(1)


def test_a_failed_reconfiguration_leaves_a_core_that_refuses_to_play() -> None:
    core = fast.module().IdiotCore(**_config())
    assert len(core.play(3)[0]) > 0
    with pytest.raises(ValueError, match="plant_cards"):
        core.__init__(**_config(plant_cards=(0, 1, 2)))
    with pytest.raises(RuntimeError, match="not initialised"):
        core.play(3)
