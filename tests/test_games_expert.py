"""The expert bot (games/search.py, <game>/determinize.py): it sees only its seat's
observation, samples positions that the seat cannot tell from the true one, and decides
the same for the same seed and budget."""

from __future__ import annotations

import importlib
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from kraftstokk.errors import SimulationError
from kraftstokk.games import playouts, registry, search
from kraftstokk.games.core import DeckTable, Result, State
from kraftstokk.games.playouts import Playout
from kraftstokk.games.runner import play_game
from kraftstokk.games.search import DEFAULT_MS, ExpertBot, playouts_for
from tests.conftest import synthetic_deck
from tests.native_build import require_core

TABLE = DeckTable.from_deck(synthetic_deck())
#: The games whose bots include the expert (each has its determinizer and its EXPERT).
GAMES = [name for name, spec in registry.specs().items() if "expert" in spec.bots]
#: Small budgets: the tests check behaviour, ``make bench`` measures strength.
PLAYOUTS = 6


def determinizer(name: str):
    return registry.get_spec(name).module("determinize").determinize


def positions(name: str, games: int, players: int = 4):
    """Every decision of a few seeded heuristic games: (state, seat)."""
    game = registry.make_game(name, TABLE, players)
    bots = registry.make_bots(game, "heuristic")
    rng = random.Random(11)
    for number in range(games):
        state = game.new_initial_state(random.Random(100 + number))
        while not state.is_terminal():
            seat = state.current_player()
            yield state, seat
            state.apply(bots[seat].act(state.observation(seat), state.legal_actions(), rng))


@pytest.mark.parametrize("name", GAMES)
def test_a_sampled_position_looks_to_the_seat_exactly_like_the_true_one(name):
    """The seat's observation of the sampled position is the true one, field by field,
    with the same legal moves; the hidden cards differ in some."""
    determinize = determinizer(name)
    rng = random.Random(3)
    checked = differing = 0
    for state, seat in positions(name, games=2):
        obs = state.observation(seat)
        legal = state.legal_actions()
        sampled = determinize(state.game, obs, legal, rng)
        if sampled is None:
            continue
        assert sampled.observation(seat) == obs
        assert sampled.legal_actions() == legal
        sampled.check_invariants()
        checked += 1
        hidden = [place for place in state.card_locations() if place != f"hand:{seat}"]
        true_places = state.card_locations()
        differing += any(sampled.card_locations()[p] != true_places[p] for p in hidden)
    assert checked > 50 and differing > checked // 2


@pytest.mark.parametrize("name", GAMES)
def test_the_expert_decides_from_the_observation_alone(name):
    """Two positions that look the same to the seat but hide other cards: the same move,
    from the same random stream. (The observation leads to no state:
    test_games_framework checks it for every game.)"""
    determinize = determinizer(name)
    game = registry.make_game(name, TABLE, 4)
    rng = random.Random(5)
    compared = 0
    for state, seat in positions(name, games=1):
        legal = state.legal_actions()
        if len(legal) < 2 or compared >= 6:
            continue
        obs = state.observation(seat)
        twin = determinize(game, obs, legal, rng)
        if twin is None:
            continue
        assert twin.card_locations() != state.card_locations() or len(legal) < 2
        expert = ExpertBot(game, expert_spec(name), PLAYOUTS)
        chosen = expert.act(obs, legal, random.Random(9))
        assert expert.act(twin.observation(seat), twin.legal_actions(), random.Random(9)) == chosen
        assert chosen in legal
        compared += 1
    assert compared == 6


def expert_spec(name: str):
    return importlib.import_module(f"kraftstokk.games.{name}.bots").EXPERT


@pytest.mark.parametrize("name", GAMES)
def test_a_seeded_expert_plays_the_same_game_for_the_same_budget(name):
    game = registry.make_game(name, TABLE, 3, action_cap=150)  # a game's start will do
    # Idiot's few candidates need more rounds before one clearly beats the heuristic's.
    playouts = 60 if name == "idiot" else PLAYOUTS
    spec = f"expert:playouts={playouts},heuristic,heuristic"
    first = play_game(game, registry.make_bots(game, spec), 23)
    again = play_game(game, registry.make_bots(game, spec), 23)
    assert len(first.actions) > 50 and first.actions == again.actions
    heuristic = play_game(game, registry.make_bots(game, "heuristic"), 23)
    assert heuristic.actions != first.actions  # it searched: some move was its own


@pytest.mark.parametrize("name", GAMES)
def test_a_seeded_expert_plays_the_same_game_on_the_core_and_in_python(name, monkeypatch):
    """The expert's playouts run on the game's core (``playouts.playout``); played by the
    Python engine instead (as with KRAFTSTOKK_PURE_PYTHON=1, or no core built), every
    playout, and so every decision, is the same."""
    require_core(name)
    game = registry.make_game(name, TABLE, 3, action_cap=120)
    spec = f"expert:playouts={PLAYOUTS * 4},heuristic,heuristic"
    compiled = play_game(game, registry.make_bots(game, spec), 8)
    calls: list[bool] = []

    def in_python(*args: Any, **kwargs: Any) -> Playout:
        calls.append(True)
        return playouts.playout(*args, **kwargs, native=False)

    monkeypatch.setattr(search, "playout", in_python)
    pure = play_game(game, registry.make_bots(game, spec), 8)
    assert calls and compiled.actions == pure.actions and compiled.result == pure.result
    heuristic = play_game(game, registry.make_bots(game, "heuristic"), 8)
    assert heuristic.actions != compiled.actions  # it searched: some move was its own


#: A seeded expert game, printed as its actions (run in a child with the engine forced to
#: pure Python, and here).
EXPERT_GAME = """
import sys
from kraftstokk.games import registry
from kraftstokk.games.core import DeckTable
from kraftstokk.games.runner import play_game
from kraftstokk.games.fastcore import native_core
from tests.conftest import synthetic_deck
game = registry.make_game(sys.argv[1], DeckTable.from_deck(synthetic_deck()), 3, action_cap=80)
print(native_core(game, registry.make_bots(game, "heuristic")) is not None)
bots = registry.make_bots(game, "expert:playouts=12,heuristic,heuristic")
print([list(action) for action in play_game(game, bots, 5).actions])
"""


@pytest.mark.parametrize("name", GAMES)
def test_a_seeded_expert_game_is_the_same_compiled_and_in_pure_python(name):
    """KRAFTSTOKK_PURE_PYTHON=1: the engine's Python sources, no core; the same game."""
    require_core(name)
    repo = Path(__file__).resolve().parents[1]
    runs = []
    for pure in ("0", "1"):
        env = {**os.environ, "KRAFTSTOKK_PURE_PYTHON": pure}
        if pure == "0":
            env.pop("KRAFTSTOKK_PURE_PYTHON")
        done = subprocess.run(
            [sys.executable, "-c", EXPERT_GAME, name],
            cwd=repo,
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
            check=True,
        )
        runs.append(done.stdout.split("\n", 1))
    (on_core, compiled), (in_python, pure_game) = runs
    assert (on_core, in_python) == ("True", "False")
    assert compiled == pure_game and compiled.count("[") > 40


def test_the_budget_is_playouts_or_milliseconds_converted_by_the_measured_rate():
    spec = expert_spec("idiot")
    assert playouts_for({}, spec) == int(DEFAULT_MS * spec.playouts_per_ms)
    assert playouts_for({"ms": 10}, spec) == int(10 * spec.playouts_per_ms)
    assert playouts_for({"playouts": 7}, spec) == 7
    game = registry.make_game("idiot", TABLE, 2)
    bot = registry.make_bots(game, "expert:playouts=12,heuristic")[0]
    assert isinstance(bot, ExpertBot) and bot.playouts == 12


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("expert:playouts=0", "playouts must be a whole number"),
        ("expert:playouts=2.5", "playouts must be a whole number"),
        ("expert:ms=-3", "ms must be a number"),
        ("expert:ms=abc", "ms must be a number"),
        ("expert:ms=5:playouts=5", "playouts or ms, not both"),
        ("expert:depth=3", "expert takes only playouts or ms"),
    ],
)
def test_a_bad_budget_is_one_clear_line(spec, message):
    game = registry.make_game("idiot", TABLE, 2)
    with pytest.raises(SimulationError, match=message):
        registry.make_bots(game, spec)


def test_kraftidioten_beliefs_follow_what_the_seat_has_seen():
    """A claim of a plant last shown going to its layer is believed; the first claim of
    a pile is true; one above a claim few plants beat is doubted."""
    from kraftstokk.games.kraftidioten.determinize import SEEN_THERE, truth_belief
    from kraftstokk.games.kraftidioten.observation import Claim

    game = registry.make_game("kraftidioten", TABLE, 3)
    state = game.new_initial_state(random.Random(2))
    assert isinstance(state, State)
    plants = [card for card in TABLE.plant_cards if card not in state.hands[0]]
    shown_to_layer, unshown = plants[:2]
    state.hands[1].append(shown_to_layer)
    state.stock.remove(shown_to_layer)
    last = list(state.last_shown)
    last[shown_to_layer] = 1
    state.last_shown = tuple(last)
    unseen = [c for c in TABLE.plant_cards if c not in state.hands[0]]
    state.claims = [Claim(1, shown_to_layer, False, TABLE.printed[0][shown_to_layer])]
    state.pile = [shown_to_layer]
    state.category = 0
    assert truth_belief(game, state.observation(0), 0, unseen) == SEEN_THERE
    state.claims = [Claim(1, unshown, False, TABLE.printed[0][unshown])]
    # Every plant beats nothing: the first claim of a pile has no reason to be a lie.
    assert truth_belief(game, state.observation(0), 0, unseen) == 1.0
    # Above a claim that few unseen plants beat, a layer is likely stuck, and lying.
    high, higher = sorted(unseen, key=TABLE.printed[0].__getitem__)[-2:]
    state.claims = [Claim(2, high, False, TABLE.printed[0][high])]
    state.claims.append(Claim(1, higher, False, TABLE.printed[0][higher]))
    state.pile = [high, higher]
    doubted = truth_belief(game, state.observation(0), 1, unseen)
    assert 0.0 < doubted < 0.5


def _ended(finished: bool, order: list[int], loser: int | None, held: list[int]) -> Playout:
    result = Result(finished=finished, order=order, loser=loser, actions=40, rounds=1)
    return Playout(result=result, actions=None, held=held)


def test_a_playout_stopped_early_scores_on_the_scale_of_the_end_it_points_to():
    """A lead at the horizon is worth less than the end it points to, and nothing of a
    first place already taken: a seat that can no longer win gains nothing by keeping
    the game going (Strømkrig's experts once ran two-seat endgames to the action cap)."""
    score = search.placement_score
    win = score(_ended(True, [0, 2, 1], 3, [0, 0, 0, 0]), 0, loser_matters=False)
    third = score(_ended(True, [2, 1, 0], 3, [0, 0, 0, 0]), 0, loser_matters=False)
    assert win == pytest.approx(1.0)
    # Two seats already out (2 won): seat 0 leads seat 3 on cards but cannot win.
    leading_late = score(_ended(False, [2, 1], None, [2, 0, 0, 7]), 0, loser_matters=False)
    assert leading_late < third
    assert leading_late == pytest.approx(search.UNFINISHED_WEIGHT * third)
    # Nobody out yet: the lead is a chance of winning, below a win.
    leading_early = score(_ended(False, [], None, [2, 5, 6, 7]), 0, loser_matters=False)
    assert third < leading_early < win
    trailing_early = score(_ended(False, [], None, [9, 5, 6, 7]), 0, loser_matters=False)
    assert trailing_early < leading_early
    # Idiot's aim (not the loser) is still open after others are out.
    safe_late = score(_ended(False, [2, 1], None, [2, 0, 0, 7]), 0, loser_matters=True)
    assert safe_late > leading_late
