"""A native core's whole chunk (``NativeCore.play_chunk``) sums to what the Python engine's
games sum to (issue 37.1).

For every game with a core, every bot kind the core plays (greedy, heuristic, random and
mixed seats, with settings of their own), at the smallest and the largest seat count and
with a variant, a chunk of seeded games is played in one call and reduced
(``stream.core_chunk``) and the same games are played one by one through the Python
engine (``play_game(..., native=False)``) into a tally and reduced as before: the game
matrices, the totals and the run's sums must be equal, column for column. The Python
engine is the reference; ``test_games_fastcore.py`` compares the cores' single games with
it over thousands of games, so these chunks are few and capped, to stay lean.
"""

from __future__ import annotations

import numpy as np
import pytest

from kraftstokk.games import native, registry
from kraftstokk.games.core import DeckTable, derive_seed
from kraftstokk.games.fastcore import native_core
from kraftstokk.games.runner import play_game
from kraftstokk.sim.pace import default_pace
from kraftstokk.sim.runner import SimSettings, chunk_matrix, run_simulation
from kraftstokk.sim.stream import ChunkTotals, RunStats, core_chunk, game_matrix
from kraftstokk.sim.tally import Tally
from tests.conftest import synthetic_deck
from tests.native_build import require_core

TABLE = DeckTable.from_deck(synthetic_deck(7))
SERIES = 20261205
#: (bots, action cap or 0 for the game's own, games): every kind the cores play. Random
#: seats play thousands of actions in a game, heuristic Kraftidioten a thousand: capped,
#: which also ends games unfinished in every phase.
MIXES = (
    ("greedy", 0, 40),
    ("heuristic", 300, 24),
    ("random", 200, 12),
    ("greedy,random,heuristic", 300, 16),
)
#: Heuristic seats with settings of their own, per game.
TUNED = {
    "idiot": "heuristic:burn_pile=0,heuristic:burn_pile=9",
    "kraftidioten": "heuristic:knowledge=0,heuristic:knowledge=1:bluff=0.2",
    "stromkrig": "heuristic:explore=0,heuristic:join_nr=30:war_nr=5:explore=0.5",
}


def seated(bots: str, players: int) -> str:
    """A seat per player, the kinds of ``bots`` taken in turn."""
    kinds = bots.split(",")
    return ",".join(kinds[seat % len(kinds)] for seat in range(players))


def cases() -> list[tuple[str, int, tuple[str, ...], str, int, int]]:
    found = []
    for name in native.native_cores():
        spec = registry.get_spec(name)
        first_variant = tuple(variant.name for variant in spec.variants[:1])
        for players in sorted({spec.min_players, spec.max_players}):
            for bots, cap, games in (*MIXES, (TUNED[name], 300, 12)):
                found.append((name, players, (), seated(bots, players), cap, games))
        found.append((name, spec.min_players + 1, first_variant, "greedy", 0, 20))
    return found


def python_tally(
    name: str, players: int, variants: tuple[str, ...], bots: str, cap: int, start: int, stop: int
) -> Tally:
    """Games ``start`` to ``stop - 1`` of the series played by the Python engine."""
    game = registry.make_game(
        name, TABLE, players, variants, **({"action_cap": cap} if cap else {})
    )
    tally = Tally(num_cards=TABLE.size, names=registry.get_spec(name).counter_names())
    for index in range(start, stop):
        bots_of_game = registry.make_bots(game, bots)
        tally.add(index, play_game(game, bots_of_game, derive_seed(SERIES, index), native=False))
    return tally


@pytest.mark.parametrize(("name", "players", "variants", "bots", "cap", "games"), cases())
def test_a_chunk_sums_as_the_python_engine_games_do(
    name: str, players: int, variants: tuple[str, ...], bots: str, cap: int, games: int
) -> None:
    assert_chunk_as_python(name, players, variants, bots, cap, games)


@pytest.mark.parametrize("name", native.native_cores())
def test_seats_seeded_ahead_or_at_their_first_draw_play_the_same_games(name: str) -> None:
    """A chunk seeds ahead, sixteen games at a time, the generators of the seats that drew
    in its last games, and any other at its first draw: games cut short after one action
    (seat 0 may draw; the others never do, so from the second sixteen on they are not
    seeded ahead), or after a few, where some seats draw in some games only, are still
    the Python engine's."""
    for cap in (1, 6, 40):
        assert_chunk_as_python(name, 4, (), "greedy,greedy,random,heuristic", cap, 40)


def assert_chunk_as_python(
    name: str, players: int, variants: tuple[str, ...], bots: str, cap: int, games: int
) -> None:
    """The core's chunk of ``games`` games equals the same games of the Python engine."""
    require_core(name)
    game = registry.make_game(
        name, TABLE, players, variants, **({"action_cap": cap} if cap else {})
    )
    core = native_core(game, registry.make_bots(game, bots))
    assert core is not None, f"{name} {bots}: the native core refused to play"
    start = 5  # not the series' first game: the chunk's game i is the series' game i
    pace = default_pace()
    matrix, totals = core_chunk(
        core.play_chunk(SERIES, start, start + games), players, TABLE.size, start, pace, name
    )
    tally = python_tally(name, players, variants, bots, cap, start, start + games)
    expected = game_matrix(tally, players, pace, name)
    assert matrix.columns == expected.columns
    assert np.array_equal(matrix.index, expected.index)
    for at, column in enumerate(matrix.columns):
        assert np.array_equal(matrix.values[:, at], expected.values[:, at]), column
    assert totals == ChunkTotals.of_tally(tally)
    assert RunStats.of_chunk(matrix, totals, players) == RunStats.of_tally(
        tally, players, pace, name
    )


@pytest.mark.parametrize("name", native.native_cores())
def test_simulate_sums_as_game_by_game_whatever_the_chunks(name: str) -> None:
    """A run through the chunks equals its games played one by one (the cores' ``play``,
    as before), and does not depend on where the chunks are cut."""
    require_core(name)
    settings = SimSettings(game=name, players=4, games=90, seed=SERIES, bots="heuristic")
    game = registry.make_game(name, TABLE, 4)
    pace = settings.time_model
    tally = Tally(num_cards=TABLE.size, names=registry.get_spec(name).counter_names())
    for index in range(90):
        seed = derive_seed(SERIES, index)
        tally.add(index, play_game(game, registry.make_bots(game, "heuristic"), seed))
    whole = RunStats.of_tally(tally, 4, pace, name)
    assert RunStats.of_chunk(*chunk_matrix(TABLE, settings, game, 0, 90), 4) == whole
    cut = RunStats(TABLE.size, 4)
    for start, stop in ((0, 1), (1, 37), (37, 38), (38, 90)):
        cut.merge(RunStats.of_chunk(*chunk_matrix(TABLE, settings, game, start, stop), 4))
    assert cut == whole
    assert run_simulation(TABLE, settings, 1).stats == whole


@pytest.mark.parametrize("name", native.native_cores())
def test_a_chunk_refuses_bad_bounds_and_seeds(name: str) -> None:
    require_core(name)
    game = registry.make_game(name, TABLE, 4)
    core = native_core(game, registry.make_bots(game, "greedy"))
    assert core is not None
    for args in ((1, 5, 4), (1, -1, 3), (1, 0, 2_000_000), (-1, 0, 3), (2**64, 0, 3)):
        with pytest.raises(ValueError, match="play_chunk"):
            core.play_chunk(*args)
    with pytest.raises(TypeError):
        core.play_chunk("1", 0, 3)
    empty, totals = core_chunk(core.play_chunk(1, 3, 3), 4, TABLE.size, 3)
    assert empty.games == 0 and sum(totals.cards_played) == 0
