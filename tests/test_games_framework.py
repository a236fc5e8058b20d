"""The engine's framework: specs found by convention, kinds that never clash, frozen values."""

from __future__ import annotations

import dataclasses
import gc
import random
from enum import Enum, IntEnum

import pytest

from kraftstokk.design.numbers import deck_decimals, format_figure
from kraftstokk.errors import GameError
from kraftstokk.games import native, registry
from kraftstokk.games.core import DeckTable, Game, State
from kraftstokk.games.events import Event, GameOver, SeatOut
from kraftstokk.games.narration import Narrator
from kraftstokk.games.observation import Observation
from kraftstokk.games.spec import GameSpec
from kraftstokk.models import SUITS
from tests.conftest import synthetic_deck

TABLE = DeckTable.from_deck(synthetic_deck())


def enums(spec: GameSpec) -> list[type[IntEnum]]:
    return [e for e in (spec.action_kinds, spec.phases) if e is not None]


@pytest.mark.inventory
def test_every_game_package_is_found_by_its_spec():
    names = registry.game_names()
    assert {"idiot", "kraftidioten", "stromkrig"} <= set(names)
    for package in registry.package_names():
        spec = registry.get_spec(package)
        assert spec.game_module.startswith(f"kraftstokk.games.{package}.")
        assert spec.game_class().name == spec.name
        assert set(spec.bots) == set(spec.bot_factories())
        assert spec.min_players == spec.game_class().min_players
        assert spec.variant_names == spec.game_class().allowed_variants


def test_a_spec_names_its_default_bot_one_of_its_bots():
    spec = registry.get_spec("idiot")
    assert spec.default_bot in spec.bots
    assert dataclasses.replace(spec, default_bot="").default_bot == spec.bots[0]
    with pytest.raises(GameError, match=r"idiot: default_bot 'clever' is not one of its bots"):
        dataclasses.replace(spec, default_bot="clever")


def test_games_are_listed_by_their_menu_place_then_by_name(monkeypatch):
    """Every list of games a person sees (play's, the web page's, the booklet's cover and
    chapters) is ``registry.specs()``'s order: a game without a place comes last."""
    spec = registry.get_spec("stromkrig")
    for name, place in (("aaa_unplaced", None), ("zzz_first", -1), ("bbb_unplaced", None)):
        monkeypatch.setitem(
            registry.REGISTERED, name, dataclasses.replace(spec, name=name, menu_place=place)
        )
    names = list(registry.specs())
    assert names[0] == "zzz_first" and names[-2:] == ["aaa_unplaced", "bbb_unplaced"]
    places = [registry.get_spec(name).menu_place for name in names[1:-2]]
    assert None not in places and places == sorted(places)


def test_an_unknown_game_is_one_clear_line():
    with pytest.raises(Exception, match=r"unknown game 'chess' \(choose from .*idiot"):
        registry.get_spec("chess")


def test_action_kinds_and_phases_never_clash_across_games():
    seen: dict[int, str] = {}
    for spec in registry.specs().values():
        for enum in enums(spec):
            for member in enum:
                where = f"{spec.name}.{enum.__name__}.{member.name}"
                assert member.value not in seen, f"{where} clashes with {seen[member.value]}"
                seen[member.value] = where


@pytest.mark.inventory
@pytest.mark.parametrize(
    "name", [name for name, spec in registry.specs().items() if spec.action_kinds is not None]
)
def test_the_final_kind_constants_equal_the_enums(name):
    spec = registry.get_spec(name)
    actions = spec.module("actions")
    for enum in enums(spec):
        for member in enum:
            name = member.name if enum is spec.action_kinds else f"PHASE_{member.name}"
            if hasattr(actions, name):
                assert getattr(actions, name) == member.value, name


@pytest.mark.inventory
def test_native_compiles_every_module_of_every_package_but_its_spec():
    modules = native.compiled_modules()
    for package in registry.package_names():
        spec = registry.get_spec(package)
        for module in (spec.game_module, spec.bots_module):
            assert module.removeprefix("kraftstokk.games.").replace(".", "/") in modules
        assert f"{package}/spec" not in modules and f"{package}/__init__" not in modules
    assert {"stats", "frozen", "events", "observation"} <= set(modules)


def test_events_are_values_told_in_every_language():
    event = SeatOut(2, 1)
    assert event == SeatOut(2, 1) and event != SeatOut(2, 2)
    assert [f.name for f in dataclasses.fields(event)] == ["seat", "place"]
    assert Narrator(TABLE, "nb").tell(SeatOut(2, 1)) == "Plass 3 er ute som nr. 1."
    assert Narrator(TABLE, "en").tell(SeatOut(2, 1)) == "Seat 3 is out, 1st."
    assert Narrator(TABLE, "en", viewer=2).tell(SeatOut(2, 3)) == "You are out, 3rd."
    over = GameOver(1, (0, 2))
    assert Narrator(TABLE, "nb", game="idiot").tell(over) == (
        "Spillet er over. Rekkefølgen ut: plass 1, plass 3. Plass 2 er idioten."
    )
    assert Narrator(TABLE, "en", viewer=1, game="idiot").tell(over) == (
        "The game is over. Out in this order: seat 1, seat 3. You are the Idiot."
    )


def test_the_narrator_names_cards_and_figures_as_printed():
    card = TABLE.plant_cards[0]
    nb, en = Narrator(TABLE, "nb"), Narrator(TABLE, "en")
    assert nb.card(card).startswith(TABLE.names[card]) and "spar" in nb.card(card)
    assert "spades" in en.card(card) and "ace" in en.card(card) and "ess" in nb.card(card)
    deck = synthetic_deck()
    on_the_card = format_figure(deck.cards[card].gwh or 0, "gwh", deck_decimals(deck)["gwh"])
    assert nb.figure(1, card) == on_the_card.replace("\u00a0", " ")
    for other in TABLE.plant_cards:
        suit = SUITS[TABLE.suit[other]]
        assert f"({suit} " in nb.card(other)  # the suit word is the card's own
        english = {"spar": "spades", "hjerter": "hearts", "kløver": "clubs", "ruter": "diamonds"}
        assert f"({english[suit]} " in en.card(other)
    assert en.card(TABLE.joker_cards[0]) == "joker"
    assert nb.category(2) == "fallhøyde" and en.category(2) == "head"
    with pytest.raises(ValueError, match="no language 'de'"):
        Narrator(TABLE, "de")


def reachable(root: object) -> list[object]:
    """Everything an observation leads to, by the references the garbage collector sees."""
    seen: dict[int, object] = {}
    todo = [root]
    while todo:
        item = todo.pop()
        if id(item) in seen or isinstance(item, type | Enum):  # classes and constants
            continue
        seen[id(item)] = item
        todo.extend(gc.get_referents(item))
    return list(seen.values())


@pytest.mark.inventory
@pytest.mark.parametrize("name", registry.package_names())
def test_an_observation_leads_to_no_state_and_holds_only_values(name):
    game = registry.make_game(name, TABLE, 3)
    state = game.new_initial_state(random.Random(4))
    bots = registry.make_bots(game, "random")
    rng = random.Random(5)
    for _ in range(30):
        if state.is_terminal():
            break
        seat = state.current_player()
        for viewer in range(3):
            obs = state.observation(viewer)
            assert isinstance(obs, Observation) and obs.seat == viewer
            # Frozen by its own class (frozen.py: an inherited guard slows every store).
            assert {"__setattr__", "__delattr__"} <= set(vars(type(obs)))
            for item in reachable(obs):
                assert not isinstance(item, State | Game | list | dict | set | random.Random)
            with pytest.raises(AttributeError, match="frozen"):
                obs.seat = 9  # type: ignore[misc]
            with pytest.raises(AttributeError, match="frozen"):
                del obs.seat
        state.apply(bots[seat].act(state.observation(seat), state.legal_actions(), rng))
    assert all(isinstance(e, Event) for e in state.events)


def test_the_public_api_sets_up_a_position_by_hand():
    import kraftstokk.games as games

    game = games.make_game("idiot", TABLE, 2)
    plants = TABLE.plant_cards
    state = games.from_position(
        game, hands=[[plants[0]], [plants[1]]], face_up=[[], []], face_down=[[], [plants[2]]]
    )
    assert state.current_player() == 0 and state.legal_actions() == [(102, plants[0])]
    record = games.play_game(game, games.make_bots(game, "random"), 3)
    assert record.events and record.result.finished
    assert sorted(games.specs()) == registry.game_names()
