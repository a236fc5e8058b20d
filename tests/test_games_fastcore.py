"""The native cores play exactly the pure-Python engine's games (issue 12).

For every game with a native core, 20,000 seeded games over every player count, every
variant combination, greedy, random and mixed seats and small action caps are played
through the core in this process and through the pure-Python engine in a child process
(``KRAFTSTOKK_PURE_PYTHON=1``, which loads neither mypyc's modules nor a core). Each game
is digested whole: every action, the result, every counter and sample, the cards played
and the loser's cards. A difference names the first game and replays it here through
the Python engine, to show the first action where the two part.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from kraftstokk.games import native, registry
from kraftstokk.games.core import DeckTable, Game, GameRecord, derive_seed, play_game
from kraftstokk.games.fastcore import native_core
from tests.conftest import synthetic_deck

ROOT = Path(__file__).resolve().parent.parent
GAMES_PER_GAME = 20_000
SEED = 20261201
DECK_SEEDS = (7, 12)  # two synthetic decks: the figures' ties and orders differ
CAPS = (0, 0, 0, 0, 0, 0, 0, 3, 40)  # 0: the game's default cap


def bot_mixes(players: int) -> list[str]:
    mixed = ",".join("greedy" if seat % 2 else "random" for seat in range(players))
    return ["greedy", "greedy", "random", mixed]


def configurations(name: str) -> list[dict[str, Any]]:
    """Every player count and variant combination, each with every bot mix and a cap."""
    spec = registry.get_spec(name)
    variants = [variant.name for variant in spec.variants]
    combos = [
        list(combo)
        for size in range(len(variants) + 1)
        for combo in itertools.combinations(variants, size)
    ]
    found = []
    for number, (players, chosen) in enumerate(
        itertools.product(range(spec.min_players, spec.max_players + 1), combos)
    ):
        for mix_number, bots in enumerate(bot_mixes(players)):
            cap = CAPS[(number + mix_number) % len(CAPS)]
            found.append({"players": players, "variants": chosen, "bots": bots, "cap": cap})
    return found


def game_for(name: str, table: DeckTable, config: dict[str, Any]) -> Game:
    cap = {"action_cap": config["cap"]} if config["cap"] else {}
    return registry.make_game(name, table, config["players"], config["variants"], **cap)


def digest(record: GameRecord) -> str:
    result = record.result
    whole = [
        [list(action) for action in record.actions],
        [result.finished, result.order, result.loser, result.actions, result.rounds],
        sorted(record.stats.counters.items()),
        sorted(record.stats.samples.items()),
        record.stats.cards_played,
        record.loser_cards,
    ]
    return hashlib.sha256(json.dumps(whole).encode()).hexdigest()[:16]


def schedule(name: str) -> list[tuple[int, int, int]]:
    """(game index, deck number, configuration number) of every game to compare."""
    configs = len(configurations(name))
    return [(i, i % len(DECK_SEEDS), i % configs) for i in range(GAMES_PER_GAME)]


def digests(name: str, *, native_engine: bool) -> list[str]:
    """The digest of every scheduled game, played by this process's engine."""
    tables = [DeckTable.from_deck(synthetic_deck(seed)) for seed in DECK_SEEDS]
    configs = configurations(name)
    games: dict[tuple[int, int], Game] = {}
    found = []
    for index, deck, number in schedule(name):
        key = (deck, number)
        if key not in games:
            games[key] = game_for(name, tables[deck], configs[number])
        game = games[key]
        bots = registry.make_bots(game, configs[number]["bots"])
        if native_engine and native_core(game, bots) is None:
            raise AssertionError(f"{name} {configs[number]}: the native core refused to play")
        record = play_game(game, bots, derive_seed(SEED, index), native=native_engine)
        found.append(digest(record))
    return found


CHILD = """
import json, sys
from kraftstokk.games import native
assert native.engine_status().startswith("pure Python"), native.engine_status()
from tests.test_games_fastcore import digests
print(json.dumps(digests(sys.argv[1], native_engine=False)))
"""


def first_difference(native_game: GameRecord, python_game: GameRecord) -> str:
    for number, (mine, theirs) in enumerate(
        zip(native_game.actions, python_game.actions, strict=False), start=1
    ):
        if mine != theirs:
            return f"action {number}: core {list(mine)}, Python {list(theirs)}"
    if len(native_game.actions) != len(python_game.actions):
        counts = len(native_game.actions), len(python_game.actions)
        return f"{counts[0]} actions by the core, {counts[1]} by Python"
    for name in ("result", "stats", "loser_cards"):
        if getattr(native_game, name) != getattr(python_game, name):
            return f"{name}: core {getattr(native_game, name)}, Python {getattr(python_game, name)}"
    return "the same game when replayed here (the compiled engine differs from pure Python?)"


def explain(name: str, index: int, deck: int, number: int) -> str:
    config = configurations(name)[number]
    table = DeckTable.from_deck(synthetic_deck(DECK_SEEDS[deck]))
    game = game_for(name, table, config)
    seed = derive_seed(SEED, index)
    mine = play_game(game, registry.make_bots(game, config["bots"]), seed)
    theirs = play_game(game, registry.make_bots(game, config["bots"]), seed, native=False)
    return f"{name} game {index} (seed {seed}, {config}): {first_difference(mine, theirs)}"


@pytest.mark.parametrize("name", native.native_cores())
def test_the_native_core_plays_the_games_of_the_pure_python_engine(name: str) -> None:
    if native.load_core(name) is None:
        pytest.skip(f"the {name} core is not built here: {native.engine_status()}")
    env = {**os.environ, native.PURE_ENV: "1"}
    child = subprocess.run(
        [sys.executable, "-c", CHILD, name],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert child.returncode == 0, child.stderr[-2000:]
    python_digests = json.loads(child.stdout.strip().splitlines()[-1])
    core_digests = digests(name, native_engine=True)
    assert len(core_digests) == len(python_digests) == GAMES_PER_GAME
    for (index, deck, number), mine, theirs in zip(
        schedule(name), core_digests, python_digests, strict=True
    ):
        if mine != theirs:
            pytest.fail(explain(name, index, deck, number))


@pytest.mark.parametrize("name", native.native_cores())
def test_the_native_core_deals_as_the_python_engine(name: str) -> None:
    import random

    if native.load_core(name) is None:
        pytest.skip(f"the {name} core is not built here: {native.engine_status()}")
    table = DeckTable.from_deck(synthetic_deck())
    spec = registry.get_spec(name)
    for players in range(spec.min_players, spec.max_players + 1):
        game = registry.make_game(name, table, players)
        core = native_core(game, registry.make_bots(game, "greedy"))
        assert core is not None
        for seed in (0, 1, 2**32 - 1, 2**32, 2**64 - 1, *range(100, 140)):
            dealt = game.new_initial_state(random.Random(seed)).card_locations()
            assert core.deal(seed) == dealt, (players, seed)


@pytest.mark.parametrize("name", native.native_cores())
def test_the_python_engine_plays_what_the_core_cannot(name: str) -> None:
    """A heuristic seat, or a seed random.Random takes differently, goes to Python."""
    table = DeckTable.from_deck(synthetic_deck())
    game = registry.make_game(name, table, 3)
    assert native_core(game, registry.make_bots(game, "greedy,heuristic,random")) is None
    bots = registry.make_bots(game, "greedy")
    for seed in (-5, 2**64, 2**70 + 3):
        record = play_game(game, bots, seed)
        assert record.actions == play_game(game, bots, seed, native=False).actions


def test_a_record_the_core_played_replays_its_events_when_read() -> None:
    name = next(iter(native.native_cores()), None)
    if name is None or native.load_core(name) is None:
        pytest.skip(f"no native core is built here: {native.engine_status()}")
    game = registry.make_game(name, DeckTable.from_deck(synthetic_deck()), 4)
    bots = registry.make_bots(game, "greedy")
    fast = play_game(game, bots, 31)
    python = play_game(game, bots, 31, native=False)
    assert fast._events is None  # nothing replayed yet
    assert list(fast.events) == list(python.events) and fast.events
    assert fast == python
