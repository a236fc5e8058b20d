"""The runner: seeded per game, the same results for any worker count, clean interrupts."""

from __future__ import annotations

import itertools

import pytest

from kraftstokk.errors import GameError, SimulationError
from kraftstokk.games import registry
from kraftstokk.games.core import DeckTable, derive_seed
from kraftstokk.games.runner import play_game
from kraftstokk.models import Deck
from kraftstokk.sim import runner
from kraftstokk.sim.compare import compare_runs, format_table
from kraftstokk.sim.pace import default_pace
from kraftstokk.sim.runner import SimSettings, chunk_bounds, play_chunk, run_paired, run_simulation
from kraftstokk.sim.stream import RunStats
from tests.test_sim_toy import TOY_CARDS, TOY_SPEC


@pytest.fixture(autouse=True)
def toy(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(registry.REGISTERED, "toy", TOY_SPEC)


@pytest.fixture
def table(deck: Deck) -> DeckTable:
    return DeckTable.from_deck(deck)


def settings(**changes) -> SimSettings:
    base = {"game": "toy", "players": 3, "games": 60, "seed": 11, "bots": "greedy,random,random"}
    base.update(changes)
    return SimSettings(**base)


def test_chunks_cover_every_game_once():
    for games, workers in ((1, 4), (7, 2), (1000, 2), (100_000, 3)):
        bounds = chunk_bounds(games, workers)
        assert bounds[0][0] == 0
        assert bounds[-1][1] == games
        assert all(a[1] == b[0] for a, b in itertools.pairwise(bounds))
        assert all(stop - start <= runner.MAX_CHUNK for start, stop in bounds)


def test_game_i_is_played_with_the_derived_seed(table):
    game = registry.make_game("toy", table, 3)
    tally = play_chunk(table, settings(games=12), game, 0, 12)
    for index in (0, 5, 11):
        record = play_game(
            game, registry.make_bots(game, "greedy,random,random"), derive_seed(11, index)
        )
        row = tally.rows[index]
        assert row.index == index
        assert (row.actions, row.rounds) == (record.result.actions, record.result.rounds)
        assert row.counters == record.stats.counters
    # The run keeps the sums of exactly those games.
    outcome = run_simulation(table, settings(games=12), workers=1)
    assert outcome.stats == RunStats.of_tally(tally, 3, default_pace(), "toy")


def test_same_tally_for_one_and_two_workers(table):
    one = run_simulation(table, settings(), workers=1)
    two = run_simulation(table, settings(), workers=2)
    assert (one.workers, two.workers) == (1, 2)
    assert one.stats == two.stats
    assert not one.interrupted and not two.interrupted
    assert one.stats.games == 60


@pytest.mark.parametrize("game", ["toy", "kraftidioten"])
def test_workers_started_without_fork_build_their_own_game(table, monkeypatch, game):
    # Under spawn (the default on macOS, and forkserver from Python 3.14 on Linux) the
    # workers get only picklable inputs; the compiled game classes cannot be pickled.
    monkeypatch.setattr(runner, "START_METHOD", "spawn")
    players = settings(game=game, games=12, bots="greedy")
    spawned = run_simulation(table, players, workers=2)
    assert spawned.stats == run_simulation(table, players, workers=1).stats
    assert spawned.stats.games == 12 and spawned.workers == 2


def test_workers_fork_only_while_no_other_thread_runs(table, monkeypatch):
    import threading

    monkeypatch.setattr(runner, "START_METHOD", None)
    monkeypatch.setattr(runner.sys, "platform", "linux")
    # Another test of this worker process may have left a daemon thread behind: the
    # count is the process's, so the lone-thread case is told through active_count.
    with monkeypatch.context() as alone:
        alone.setattr(runner.threading, "active_count", lambda: 1)
        assert runner.start_method() == "fork"
    release = threading.Event()
    other = threading.Thread(target=release.wait, daemon=True)
    other.start()
    try:
        # A forked child would inherit any lock that thread holds, held for ever.
        assert runner.start_method() == "forkserver"
        players = settings(games=12)
        served = run_simulation(table, players, workers=2)
    finally:
        release.set()
        other.join()
    assert served.stats == run_simulation(table, players, workers=1).stats
    assert served.workers == 2


def test_a_worker_that_dies_ends_the_run_with_an_error(table, monkeypatch):
    import os

    parent = os.getpid()
    plays = runner.play_game

    def dies(*args, **kwargs):
        if os.getpid() != parent:  # the parent plays chunks too, and lives on
            os._exit(3)
        return plays(*args, **kwargs)

    monkeypatch.setattr(runner, "START_METHOD", "fork")  # the worker plays the patched game
    monkeypatch.setattr(runner, "play_game", dies)
    with pytest.raises(SimulationError, match=r"worker process ended unexpectedly \(exit code 3\)"):
        run_simulation(table, settings(games=8), workers=2)


def test_the_parent_keeps_a_workers_chunk_as_its_sums_not_as_played(table, monkeypatch):
    """A worker's chunk that arrives before its turn is kept as its sums (some 20 kB for
    2,000 games), not as its games as played (some 400 kB): while one worker is slow
    with the next chunk, the others' chunks waited as played, as many as arrived."""
    import os
    import time
    import weakref

    made: list[weakref.ref[runner.PlayedChunk]] = []
    most = [0]

    class Counted(runner.PlayedChunk):  # what the parent unpickles a worker's chunk as
        def __new__(cls, *args: object, **kwargs: object) -> Counted:
            chunk = super().__new__(cls)
            made.append(weakref.ref(chunk))
            most[0] = max(most[0], sum(ref() is not None for ref in made))
            return chunk

    Counted.__module__, Counted.__qualname__ = runner.__name__, "PlayedChunk"  # its pickle name
    parent, play = os.getpid(), runner.play_raw

    def slow_first(*args):
        if os.getpid() != parent and args[3] == 0:
            time.sleep(0.5)  # the first chunk's worker is slow: the others' chunks arrive
        return play(*args)

    monkeypatch.setattr(runner, "START_METHOD", "fork")  # the workers run the patched code
    monkeypatch.setattr(runner, "PlayedChunk", Counted)
    monkeypatch.setattr(runner, "play_raw", slow_first)
    players = settings(games=480)
    outcome = run_simulation(table, players, workers=3)
    assert outcome.stats == run_simulation(table, players, workers=1).stats
    assert 1 <= most[0] <= 2  # the one arriving, and the one before until it is let go


def test_a_workers_pipe_holds_two_chunks_of_games_as_played(table):
    """A worker sends its games as played (some 400 kB for a chunk) while the parent may be
    busy with a chunk of its own: a pipe of 64 kB made it wait for the parent to read,
    a quarter of its time in a 20,000-game run; its pipe takes two chunks."""
    import fcntl
    import pickle

    for game in ("idiot", "kraftidioten"):
        rules = settings(game=game, players=4, games=2 * runner.MAX_CHUNK, bots="greedy")
        made = runner.build_game(table, rules)
        played = runner.play_raw((table,), rules, (made,), 0, runner.MAX_CHUNK)
        message = len(pickle.dumps(runner.PlayedChunk(0, played)))
        pool = runner._Workers(2, (table,), rules, (made,))
        try:
            (pipe,) = pool._connections
            assert fcntl.fcntl(pipe.fileno(), fcntl.F_GETPIPE_SZ) >= 2 * (message + 4)
            assert [*pool.sums([(0, 500), (500, 1000)])] == [
                runner.play_sums((table,), rules, (made,), start, start + 500) for start in (0, 500)
            ]
        finally:
            pool.close()


def test_only_the_first_workers_pipes_are_widened(table, monkeypatch):
    """Past the user's soft limit of pipe memory every new pipe of the user is small, so a
    run with many workers widens the pipes of its first ``WIDE_PIPES`` only."""
    import fcntl

    monkeypatch.setattr(runner, "WIDE_PIPES", 1)
    rules = settings(game="idiot", players=4, games=1000, bots="greedy")
    made = runner.build_game(table, rules)
    pool = runner._Workers(3, (table,), rules, (made,))
    try:
        sizes = [fcntl.fcntl(pipe.fileno(), fcntl.F_GETPIPE_SZ) for pipe in pool._connections]
        assert sizes[0] >= runner.PIPE_BYTES > sizes[1]
        assert [*pool.sums([(0, 300), (300, 600), (600, 1000)])] == [
            runner.play_sums((table,), rules, (made,), start, stop)
            for start, stop in [(0, 300), (300, 600), (600, 1000)]
        ]
    finally:
        pool.close()


def test_bot_maker_makes_fresh_bots_and_refuses_what_make_bots_refuses(table):
    game = registry.make_game("toy", table, 3)
    make = registry.bot_maker(game, "greedy,random,random")
    first, second = make(), make()
    assert [type(bot) for bot in first] == [
        type(bot) for bot in registry.make_bots(game, "greedy,random,random")
    ]
    assert all(a is not b for a, b in zip(first, second, strict=True))
    with pytest.raises(SimulationError, match="toy has no bot 'clever'"):
        registry.bot_maker(game, "clever")


def test_other_seed_gives_other_games(table):
    first = run_simulation(table, settings(games=20), workers=1)
    other = run_simulation(table, settings(games=20, seed=12), workers=1)
    assert first.stats != other.stats
    assert first.stats.total("actions") != other.stats.total("actions")


def test_progress_reaches_the_total(table):
    seen: list[tuple[int, int]] = []
    run_simulation(table, settings(games=30), workers=2, progress=lambda d, t: seen.append((d, t)))
    assert seen[0] == (0, 30)
    assert seen[-1] == (30, 30)
    assert [done for done, _ in seen] == sorted(done for done, _ in seen)


@pytest.mark.parametrize("workers", [1, 2])
def test_ctrl_c_keeps_the_games_already_played(table, workers):
    calls = []

    def interrupt_after_first_chunk(done: int, total: int) -> None:
        calls.append(done)
        if done > 0:
            raise KeyboardInterrupt

    outcome = run_simulation(
        table, settings(games=400), workers=workers, progress=interrupt_after_first_chunk
    )
    assert outcome.interrupted
    first_chunk = chunk_bounds(400, workers)[0][1]
    assert outcome.stats.games == first_chunk
    assert outcome.stats == run_simulation(table, settings(games=first_chunk), workers=1).stats


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"games": 0}, "--games must be at least 1, not 0"),
        ({"game": "chess"}, "unknown game 'chess'"),
        ({"players": 9, "bots": "greedy"}, "toy is for 2-4 players, not 9"),
        ({"bots": "greedy,clever,random"}, "toy has no bot 'clever'"),
        ({"bots": "greedy,greedy"}, "--bots names 2 bots for 3 players"),
    ],
)
def test_bad_settings_are_refused_before_any_game(table, changes, message):
    with pytest.raises(SimulationError, match=message):
        run_simulation(table, settings(**changes), workers=1)


def test_bad_variant_and_worker_count(table):
    with pytest.raises(GameError, match="no variant fast"):
        run_simulation(table, settings(variants=("fast",)), workers=1)
    with pytest.raises(SimulationError, match="--workers must be at least 1"):
        run_simulation(table, settings(), workers=0)


@pytest.mark.parametrize("workers", [1, 2])
def test_engine_failure_names_the_game_and_seed(table, monkeypatch, workers):
    def broken(*args, **kwargs):
        raise IndexError("pop from empty list")

    monkeypatch.setattr(runner, "play_game", broken)
    # Only a forked worker sees the patched play_game (forkserver, chosen while another
    # thread of this process runs, imports the module afresh).
    monkeypatch.setattr(runner, "START_METHOD", "fork")
    with pytest.raises(SimulationError, match=r"game 0 \(seed \d+\) failed: IndexError"):
        run_simulation(table, settings(games=4), workers=workers)


def test_compare_same_deck_shows_no_difference(table):
    outcome = run_paired(table, table, settings(), workers=2)
    comparison = compare_runs(outcome.stats, outcome.other, outcome.pair)
    assert comparison.differences
    assert comparison.same_games and comparison.identical == 60
    assert all(item.difference == 0 for item in comparison.differences)
    assert not comparison.significant


@pytest.mark.parametrize("workers", [1, 2])
def test_a_paired_run_keeps_each_decks_sums_as_its_own_run(deck, workers):
    flat = deck.model_copy(deep=True)
    for card in flat.plant_cards[:TOY_CARDS]:
        card.value = 5
    a, b = DeckTable.from_deck(deck), DeckTable.from_deck(flat)
    outcome = run_paired(a, b, settings(games=50), workers=workers)
    assert outcome.stats == run_simulation(a, settings(games=50), workers=1).stats
    assert outcome.other == run_simulation(b, settings(games=50), workers=1).stats
    assert outcome.pair.games == 50


def test_compare_finds_a_deck_that_plays_differently(deck):
    # Give the toy game's 12 cards all the same value 5: no aces, so nothing burns.
    flat = deck.model_copy(deep=True)
    for card in flat.plant_cards[:TOY_CARDS]:
        card.value = 5
    outcome = run_paired(
        DeckTable.from_deck(deck), DeckTable.from_deck(flat), settings(games=80), workers=1
    )
    comparison = compare_runs(outcome.stats, outcome.other, outcome.pair)
    found = {item.metric: item for item in comparison.differences}
    burns = found["burns_per_game"]
    assert burns.b == 0 < burns.a
    assert burns.significant
    assert burns.ci95[0] <= burns.difference <= burns.ci95[1] < 0
    assert "win_rate_seat_1" in found
    table_text = format_table(comparison, "A", "B")
    line = next(ln for ln in table_text.splitlines() if ln.startswith("burns_per_game"))
    assert line.endswith("*")
    assert table_text.splitlines()[0].split()[:4] == ["metric", "A", "B", "B"]
    assert "Holm's correction for the" in table_text.splitlines()[-1]
