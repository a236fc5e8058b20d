"""Each rule written once: rule parameters on the spec, variants as data, the C side generated.

A game's rule parameters are one dataclass of its ``rules.py``; a variant is the
parameters it sets (``VariantSpec.sets``), checked when the spec is made; every game's
``parameters`` are ``SPEC.rules_for(variants)``. A native core's ``ks_game.h`` is written
from the spec, and every rule a core carries itself is marked with the ``rules.py``
function it mirrors, which must exist.
"""

from __future__ import annotations

import dataclasses
import importlib
import itertools
import pickle
import re
from enum import IntEnum

import pytest

from kraftstokk.errors import GameError
from kraftstokk.games import native, registry
from kraftstokk.games.cheader import game_header
from kraftstokk.games.core import DeckTable
from kraftstokk.games.idiot import rules as idiot_rules
from kraftstokk.games.parameters import RuleParameters
from kraftstokk.games.spec import GameSpec, VariantSpec
from tests.conftest import synthetic_deck

SPECS = registry.specs()
TABLE = DeckTable.from_deck(synthetic_deck())


@dataclasses.dataclass(frozen=True)
class ToyRules:  # a game that is not compiled needs no RuleParameters base (it pickles)
    hand_size: int = 3
    burn_count: int = 4
    swap: bool = True


def toy_spec(*variants: VariantSpec) -> GameSpec:
    return dataclasses.replace(
        SPECS["idiot"], name="toy", variants=variants, rules=ToyRules(), action_kinds=None
    )


@pytest.mark.inventory
@pytest.mark.parametrize("name", [name for name, spec in SPECS.items() if spec.rules is not None])
def test_every_game_has_its_parameters_on_the_spec_and_its_game(name):
    """A game with rule parameters (a spec may have none: its variants are names alone)."""
    spec = SPECS[name]
    assert isinstance(spec.rules, RuleParameters) and dataclasses.is_dataclass(spec.rules)
    assert spec.rules is spec.module("rules").RULES  # type: ignore[union-attr]
    names = [variant.name for variant in spec.variants]
    for size in range(len(names) + 1):
        for chosen in itertools.combinations(names, size):
            game = registry.make_game(name, TABLE, spec.min_players, chosen)
            expected = dataclasses.replace(
                spec.rules,
                **{
                    k: v
                    for variant in spec.variants
                    if variant.name in chosen
                    for k, v in variant.settings().items()
                },
            )
            assert game.parameters == expected == spec.rules_for(chosen)  # type: ignore[attr-defined]
    assert pickle.loads(pickle.dumps(spec.rules)) == spec.rules  # worker processes get games


def test_a_variant_sets_the_parameters_it_names_or_its_own():
    three = VariantSpec("three_burn", {"burn_count": 3})
    no_swap = VariantSpec("swap", {"swap": False})
    spec = toy_spec(three, no_swap, VariantSpec("hand_size_flag", {"hand_size": 4}))
    assert spec.rules_for(()) is spec.rules
    assert spec.rules_for(["three_burn", "swap"]) == ToyRules(burn_count=3, swap=False)
    assert spec.rules_for(["hand_size_flag"]).hand_size == 4
    assert VariantSpec("sequences").settings() == {"sequences": True}


@pytest.mark.parametrize(
    ("variant", "message"),
    [
        (VariantSpec("jokers_wild"), "sets 'jokers_wild', which is no rule parameter"),
        (VariantSpec("big", {"hand_size": True}), "sets hand_size to True, not a int"),
        (VariantSpec("meek", {"swap": 0}), "sets swap to 0, not a bool"),
    ],
)
def test_a_variant_naming_no_parameter_or_a_wrong_value_is_refused(variant, message):
    with pytest.raises(GameError, match=message):
        toy_spec(variant)


def test_two_variants_setting_one_parameter_differently_are_refused():
    three = VariantSpec("three_burn", {"burn_count": 3})
    two = VariantSpec("two_burn", {"burn_count": 2})
    spec = toy_spec(three, two, VariantSpec("also_three", {"burn_count": 3}))
    assert spec.rules_for(["three_burn", "also_three"]).burn_count == 3
    with pytest.raises(GameError, match="variants three_burn and two_burn both set burn_count"):
        spec.rules_for(["two_burn", "three_burn"])


def test_a_bad_parameter_value_is_refused_by_the_rules(monkeypatch):
    with pytest.raises(GameError, match="burn_count is at least 2"):
        dataclasses.replace(idiot_rules.RULES, burn_count=1)
    from kraftstokk.games.idiot import state

    six_rows = VariantSpec("six_rows", {"hand_size": 6})
    spec = dataclasses.replace(SPECS["idiot"], variants=(*SPECS["idiot"].variants, six_rows))
    monkeypatch.setattr(state, "SPEC", spec)
    monkeypatch.setattr(state.IdiotGame, "allowed_variants", spec.variant_names)
    assert registry.make_game("idiot", TABLE, 2, ["six_rows"]).parameters.hand_size == 6
    with pytest.raises(GameError, match="3 players and 6 cards a row deals 54 cards"):
        registry.make_game("idiot", TABLE, 3, ["six_rows"])


def test_the_idiot_burn_rule_is_one_predicate_of_the_pile():
    ranks = (0, 7, 7, 7, 7, 9, 2, 2, 2)
    rules = idiot_rules.RULES
    assert idiot_rules.burns_on_top([1, 2, 3, 4], ranks, rules)
    assert not idiot_rules.burns_on_top([5, 2, 3, 4], ranks, rules)
    assert not idiot_rules.burns_on_top([2, 3, 4], ranks, rules)
    three = dataclasses.replace(rules, burn_count=3)
    assert idiot_rules.burns_on_top([5, 2, 3, 4], ranks, three)
    assert idiot_rules.burns_on_top([6, 7, 8], ranks, three)
    assert idiot_rules.top_count([5, 2, 3, 4], ranks) == 3
    assert idiot_rules.top_count([], ranks) == 0
    # ID-13: the run steps over the 10 (and any other rank that burns or resets).
    assert [idiot_rules.next_in_run(r) for r in (3, 9, 13, 14, 10, 2)] == [4, 11, 14, 0, 0, 0]
    # A hand's search for a legal card jumps to a 10 on the way, else to the need.
    assert idiot_rules.lowest_reaching(5, 12) == 10
    assert idiot_rules.lowest_reaching(11, 13) == 13


@pytest.mark.parametrize("name", native.native_cores())
def test_a_cores_header_is_written_from_its_spec(name):
    spec = SPECS[name]
    header = game_header(spec)
    assert f"#define MIN_SEATS {spec.min_players}\n" in header
    assert f"#define MAX_SEATS {spec.max_players}\n" in header
    assert spec.action_kinds is not None and spec.phases is not None
    for kind in spec.action_kinds:
        assert f"#define KIND_{kind.name} {int(kind)}\n" in header
    for phase in spec.phases:
        assert f"#define PHASE_{phase.name} {int(phase)}\n" in header
    counters = re.findall(r"^    COUNTER_(\w+),$", header, re.MULTILINE)
    assert counters == [counter.name.upper() for counter in spec.counters]
    fields = re.search(r"#define RULE_PARAMETERS\(X\) (.*)", header)
    assert fields is not None
    assert fields.group(1).split() == [f"X({field})" for field in spec.rule_defaults()]
    assert header == native.core_header(name)


def test_kinds_that_are_not_consecutive_cannot_index_a_core():
    class Gappy(IntEnum):
        ONE = 100
        THREE = 103

    with pytest.raises(ValueError, match="consecutive"):
        game_header(dataclasses.replace(SPECS["idiot"], action_kinds=Gappy))


@pytest.mark.parametrize("name", native.native_cores())
def test_every_rule_a_core_writes_itself_is_marked_with_its_python_twin(name):
    source = (native.GAMES_DIR / name / native.CORE_SOURCE).read_text(encoding="utf-8")
    marked = set(re.findall(r"/\* rules\.([a-z_]+)\b", source))  # a comment opening so
    rules = importlib.import_module(f"kraftstokk.games.{name}.rules")
    missing = sorted(mark for mark in marked if not callable(getattr(rules, mark, None)))
    assert not missing, f"{name}/_fastcore.c marks rules.py functions that do not exist: {missing}"
    expected = {
        "idiot": {"burns_on_top"},
        "kraftidioten": {"joker_costs", "penalty_size", "reaches", "is_lie", "lowest_figure_lie"},
        "stromkrig": {"war_losers"},
    }[name]
    assert expected <= marked
