"""The joker's rules: each game's line from its words (``[games.<name>] joker``), in the
menus' order, in any language, set to fit the card or refused naming the layout."""

from __future__ import annotations

from typing import Any

import pytest

from kraftstokk import locales
from kraftstokk.design.layout import load_layout
from kraftstokk.errors import RenderError
from kraftstokk.games import registry
from kraftstokk.render.card import FACE_LANGUAGE, face_context, fitted_joker_lines, joker_rules
from tests.conftest import synthetic_deck
from tests.fixtures.highcard import spec as highcard_spec

#: Languages, games or fields from the inventories: tests/test_inventory.py runs these.
pytestmark = pytest.mark.inventory

POKER = load_layout("poker")


def written(language: str) -> list[tuple[str, str]]:
    """Each game's title and joker rule as the language's words give them, menus' order."""
    games = locales.load(language).part("words")["games"]
    return [
        (spec.title(language), games[name]["joker"])
        for name, spec in registry.specs().items()
        if "joker" in games.get(name, {})
    ]


@pytest.fixture
def highcard() -> Any:
    registry.register(highcard_spec.SPEC)
    yield highcard_spec.SPEC
    registry.unregister("highcard")


@pytest.mark.parametrize("language", locales.languages())
def test_every_language_prints_the_games_joker_rules_in_the_menus_order(language: str):
    rules = joker_rules(language)
    assert rules and list(rules) == written(language)


def test_the_faces_print_every_games_rule_set_to_fit():
    rules = joker_rules(FACE_LANGUAGE)
    lines = face_context(synthetic_deck(), POKER).joker_lines
    assert list(lines) == fitted_joker_lines(rules, POKER)
    texts = " ".join(line for line, *_ in lines)
    for title, rule in rules:
        assert title in texts and rule.split()[0] in texts


def test_three_games_rules_print_at_their_styles_sizes():
    lines = fitted_joker_lines(joker_rules(FACE_LANGUAGE)[:3], POKER)
    assert all(size == style.size for _, style, size, _ in lines)  # none made smaller


def test_a_fourth_game_appears_on_the_joker_smaller_set_to_fit(highcard):
    rules = joker_rules(FACE_LANGUAGE)
    assert rules[-1] == ("Høyt kort", "tas ut av stokken.")  # after the games with a place
    lines = fitted_joker_lines(rules[:3] + rules[-1:], POKER)
    assert lines[-1][0] == "tas ut av stokken."
    assert POKER.styles.small_print.size <= lines[-1][2] < POKER.styles.joker_rule.size
    assert -lines[-1][3] <= POKER.boxes.rows.h * 72 / 25.4


def test_rules_that_do_not_fit_even_small_are_refused_naming_the_layout():
    rules = tuple(
        (f"Game {n}", "a rule long enough to take two lines on a card. " * 2) for n in range(6)
    )
    with pytest.raises(RenderError, match=r"layout poker: the joker's rules of 6 games .* mm"):
        fitted_joker_lines(rules, POKER)
