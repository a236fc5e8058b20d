"""The native cores play exactly the pure-Python engine's games (issue 12).

For every game with a native core, 8,000 seeded games (``make identity``: 20,000; any
count with ``KRAFTSTOKK_IDENTITY_GAMES``) over every player count, every
variant combination, greedy, random and mixed seats and small action caps are played
through the core in this process and through the pure-Python engine in child processes
(``KRAFTSTOKK_PURE_PYTHON=1``, which loads neither mypyc's modules nor a core). Each game
is digested whole: every action, the result, every counter and sample, the cards played,
the loser's cards and the figures of play (``Stats.playability``: choices, branching,
lead changes, comebacks, when the game was settled and decided, and the counts by
distinct moves). A difference names the first game and replays it here through
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
from kraftstokk.games.core import DeckTable, Game, derive_seed
from kraftstokk.games.fastcore import native_core
from kraftstokk.games.runner import GameRecord, play_game
from tests.conftest import synthetic_deck
from tests.native_build import require_core

ROOT = Path(__file__).resolve().parent.parent
#: ``make test`` compares 8,000 games per game, ``make identity`` 20,000: every
#: configuration is played several times over either way (``schedule`` checks it).
GAMES_PER_GAME = int(os.environ.get("KRAFTSTOKK_IDENTITY_GAMES", "8000"))
SEED = 20261201
DECK_SEEDS = (7, 12)  # two synthetic decks: the figures' ties and orders differ
#: Seats' bots and the action cap (0: the game's own) of every ten games. Random seats
#: play thousands of actions a game, so their games are capped to keep the pure-Python
#: side within a minute; the caps end games in every phase.
MIXES = (
    *[("greedy", 0)] * 6,
    ("greedy", 40),
    ("greedy", 3),
    ("random", 250),
    ("mixed", 1500),
)
#: The games whose core also plays the heuristic bot, and the mixes added for them: every
#: seat heuristic, heuristic with greedy and random seats (capped), and heuristic seats
#: with settings of their own.
HEURISTIC_MIXES: dict[str, tuple[tuple[str, int], ...]] = {
    "idiot": (
        ("heuristic", 0),
        ("heuristic,greedy,random", 1500),
        ("heuristic:burn_pile=0,heuristic:burn_pile=9", 0),
    ),
    # Capped: a heuristic Kraftidioten game runs to a thousand actions and more, slowly in
    # pure Python; test_games_playouts.py plays heuristic seats to the end from late positions.
    "kraftidioten": (
        ("heuristic", 400),
        ("heuristic,greedy,random", 400),
        ("heuristic:knowledge=0,heuristic:knowledge=1:bluff=0.2:top3_challenge=0.9", 400),
    ),
    "stromkrig": (
        ("heuristic", 0),
        ("heuristic,greedy,random", 1500),
        ("heuristic:explore=0,heuristic:join_nr=30:war_nr=5:explore=0.5", 0),
    ),
}
HEURISTIC_CORES = tuple(HEURISTIC_MIXES)
#: Child processes playing the pure-Python side, side by side on a machine's cores.
CHILDREN = 2


def bots_of(mix: str, players: int) -> str:
    if mix == "mixed":
        return ",".join("greedy" if seat % 2 else "random" for seat in range(players))
    kinds = mix.split(",")  # taken in turn, seat by seat
    return ",".join(kinds[seat % len(kinds)] for seat in range(players))


def configurations(name: str) -> list[dict[str, Any]]:
    """Every player count and variant combination, each with every mix of :data:`MIXES`."""
    spec = registry.get_spec(name)
    variants = [variant.name for variant in spec.variants]
    combos = [
        list(combo)
        for size in range(len(variants) + 1)
        for combo in itertools.combinations(variants, size)
    ]
    return [
        {"players": players, "variants": chosen, "bots": bots_of(mix, players), "cap": cap}
        for players in range(spec.min_players, spec.max_players + 1)
        for chosen in combos
        for mix, cap in (*MIXES, *HEURISTIC_MIXES.get(name, ()))
    ]


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
        record.stats.playability,
        record.stats.branching.hex(),
    ]
    return hashlib.sha256(json.dumps(whole).encode()).hexdigest()[:16]


def schedule(name: str) -> list[tuple[int, int, int]]:
    """(game index, deck number, configuration number) of every game to compare."""
    configs = len(configurations(name))
    assert 2 * configs <= GAMES_PER_GAME, f"{name}: {configs} configurations need more games"
    return [(i, i % len(DECK_SEEDS), i % configs) for i in range(GAMES_PER_GAME)]


def digests(name: str, *, native_engine: bool, part: int = 0, parts: int = 1) -> list[str]:
    """The digest of every ``parts``-th scheduled game from ``part``, played by this
    process's engine."""
    tables = [DeckTable.from_deck(synthetic_deck(seed)) for seed in DECK_SEEDS]
    configs = configurations(name)
    games: dict[tuple[int, int, int, str], Game] = {}
    found = []
    for index, deck, number in schedule(name)[part::parts]:
        config = configs[number]
        key = (deck, config["players"], config["cap"], ",".join(config["variants"]))
        if key not in games:
            games[key] = game_for(name, tables[deck], config)
        game = games[key]
        bots = registry.make_bots(game, config["bots"])
        if native_engine and native_core(game, bots) is None:
            raise AssertionError(f"{name} {config}: the native core refused to play")
        record = play_game(game, bots, derive_seed(SEED, index), native=native_engine)
        found.append(digest(record))
    return found


CHILD = """
import json, sys
from kraftstokk.games import native
assert native.engine_status().startswith("pure Python"), native.engine_status()
from tests.test_games_fastcore import digests
name, part, parts = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
print(json.dumps(digests(name, native_engine=False, part=part, parts=parts)))
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
    require_core(name)
    env = {**os.environ, native.PURE_ENV: "1"}
    children = [
        subprocess.Popen(
            [sys.executable, "-c", CHILD, name, str(part), str(CHILDREN)],
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for part in range(CHILDREN)
    ]
    core_digests = digests(name, native_engine=True)
    python_digests: list[str] = [""] * GAMES_PER_GAME
    for part, child in enumerate(children):
        out, err = child.communicate()
        assert child.returncode == 0, err[-2000:]
        python_digests[part::CHILDREN] = json.loads(out.strip().splitlines()[-1])
    assert len(core_digests) == GAMES_PER_GAME
    for (index, deck, number), mine, theirs in zip(
        schedule(name), core_digests, python_digests, strict=True
    ):
        if mine != theirs:
            pytest.fail(explain(name, index, deck, number))


@pytest.mark.parametrize("name", native.native_cores())
def test_the_native_core_deals_as_the_python_engine(name: str) -> None:
    import random

    require_core(name)
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
    """A heuristic seat (where the core has no heuristic bot), a bot of another game, or
    a seed random.Random takes differently, goes to Python."""
    table = DeckTable.from_deck(synthetic_deck())
    game = registry.make_game(name, table, 3)
    heuristic = native_core(game, registry.make_bots(game, "greedy,heuristic,random"))
    assert (heuristic is not None) == (name in HEURISTIC_CORES)
    other = registry.make_game(name, table, 3)
    strangers = [
        *registry.make_bots(other, "heuristic,greedy,random")[:2],
        *registry.make_bots(game, "random")[:1],
    ]
    assert native_core(game, strangers) is None
    bots = registry.make_bots(game, "greedy")
    for seed in (-5, 2**64, 2**70 + 3):
        record = play_game(game, bots, seed)
        assert record.actions == play_game(game, bots, seed, native=False).actions


def test_a_record_the_core_played_replays_its_events_when_read() -> None:
    name = native.native_cores()[0]
    require_core(name)
    game = registry.make_game(name, DeckTable.from_deck(synthetic_deck()), 4)
    bots = registry.make_bots(game, "greedy")
    fast = play_game(game, bots, 31)
    python = play_game(game, bots, 31, native=False)
    assert fast._events is None  # nothing replayed yet
    assert list(fast.events) == list(python.events) and fast.events
    assert fast == python
