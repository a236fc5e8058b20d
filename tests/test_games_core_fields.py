"""What a native core reads of the Python engine by name: declared once, in its ``fast.py``.

A core plays on from a position of the Python engine (``core.playout``) by reading the
state's fields by name (``load_position`` in ``_fastcore.c``); each game's ``fast.py``
declares them (``STATE_FIELDS``). These tests hold the declaration to the state class
(a field renamed in ``state.py`` fails here, naming the core that reads it) and to what
the core really reads (an object that records every attribute the core asks for). The
games are the registry's that have a ``fast.py``; no list of them or of their fields is
kept here.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from kraftstokk.games import native, registry
from kraftstokk.games.core import DeckTable, State
from tests.conftest import synthetic_deck
from tests.native_build import require_core

#: Languages, games or fields from the inventories: tests/test_inventory.py runs these.
pytestmark = pytest.mark.inventory

TABLE = DeckTable.from_deck(synthetic_deck())
CORED = [name for name, spec in registry.specs().items() if spec.module("fast") is not None]


def fast_module(name: str) -> Any:
    return registry.get_spec(name).module("fast")


def positions(name: str, seed: int = 3) -> list[State]:
    """Positions of a seeded three-seat game with random bots, from the deal to its last
    move (the core plays on from a position in play)."""
    game = registry.make_game(name, TABLE, 3, action_cap=400)
    bots = registry.make_bots(game, "random")
    state = game.new_initial_state(random.Random(seed))
    rng = random.Random(seed)
    found = [state.clone()]
    while not state.is_terminal():
        if len(found) < 30 and rng.random() < 0.2:
            found.append(state.clone())
        seat = state.current_player()
        state.apply(bots[seat].act(state.observation(seat), state.legal_actions(), rng))
    return found


def missing_fields(name: str, state: object) -> str:
    """What of ``fast.STATE_FIELDS`` the state lacks, said naming the core ('' for nothing)."""
    missing = [field for field in fast_module(name).STATE_FIELDS if not hasattr(state, field)]
    if not missing:
        return ""
    return (
        f"{type(state).__name__} has no {', '.join(missing)}: {name}'s native core "
        f"(games/{name}/_fastcore.c) reads the state's fields by the names of "
        f"games/{name}/fast.py STATE_FIELDS; rename the field there and in the core too"
    )


class Recorder:
    """An object standing for another that notes every attribute read of it."""

    def __init__(self, inner: object) -> None:
        self.__dict__["_inner"] = inner
        self.__dict__["_read"] = set()

    def __getattr__(self, name: str) -> Any:
        self.__dict__["_read"].add(name)
        return getattr(self.__dict__["_inner"], name)


class Renamed(Recorder):
    """A state whose field ``old`` has been renamed (it is no longer there)."""

    def __init__(self, inner: object, old: str) -> None:
        super().__init__(inner)
        self.__dict__["_old"] = old

    def __getattr__(self, name: str) -> Any:
        if name == self.__dict__["_old"]:
            raise AttributeError(name)
        return super().__getattr__(name)


def test_every_game_with_a_core_is_checked():
    assert native.native_cores() and set(native.native_cores()) <= set(CORED)


@pytest.mark.parametrize("name", CORED)
def test_the_declared_fields_are_the_states(name: str):
    declared = fast_module(name).STATE_FIELDS
    assert declared and len(set(declared)) == len(declared)
    for state in positions(name):
        assert not missing_fields(name, state)


@pytest.mark.parametrize("name", CORED)
def test_a_renamed_field_is_named_with_the_core_that_reads_it(name: str):
    state = positions(name)[0]
    field = fast_module(name).STATE_FIELDS[0]
    said = missing_fields(name, Renamed(state, field))
    assert said.startswith("Renamed has no " + field + ":")
    assert f"games/{name}/_fastcore.c" in said and f"games/{name}/fast.py" in said


@pytest.mark.parametrize("name", CORED)
def test_the_core_reads_the_declared_fields_and_no_other(name: str):
    require_core(name)
    game = registry.make_game(name, TABLE, 3, action_cap=400)
    core = fast_module(name).native_core(game, registry.make_bots(game, "random"))
    assert core is not None, f"{name}'s core does not play random seats"
    read: set[str] = set()
    for number, state in enumerate(positions(name)):
        recorder = Recorder(state)
        core.playout(recorder, number, False)  # type: ignore[arg-type]
        read |= recorder.__dict__["_read"]
    declared = set(fast_module(name).STATE_FIELDS)
    assert read == declared, (
        f"{name}'s native core (games/{name}/_fastcore.c) reads of the state "
        f"{sorted(read - declared)} beyond games/{name}/fast.py STATE_FIELDS, "
        f"which declares {sorted(declared - read)} that it does not read"
    )
