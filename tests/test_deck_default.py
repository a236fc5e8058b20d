"""The default deck built from sources/ (the embedded snapshot and spec) validates clean."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from kraftstokk.deck.build import build_from_spec_file
from kraftstokk.deck.io import deck_json_text
from kraftstokk.deck.validate import validate_deck
from kraftstokk.design.numbers import deck_decimals, format_number
from kraftstokk.sources.snapshot import read_snapshot

ROOT = Path(__file__).resolve().parent.parent
SPEC = ROOT / "sources" / "deck.toml"
SNAPSHOT = ROOT / "sources" / "jrc-2024-01.csv"

pytestmark = pytest.mark.skipif(
    not SNAPSHOT.exists(), reason="the embedded snapshot sources/jrc-2024-01.csv is absent"
)


@pytest.fixture(scope="module")
def built():
    return build_from_spec_file(SPEC)


def test_default_deck_validates_without_errors(built):
    report = validate_deck(built.deck, str(SPEC))
    assert report.errors == [], report.lines()
    # Only ties may warn: the figures of the 52 are plausible and the names distinct.
    assert {w.rule for w in report.warnings} <= {"tie"}
    assert len(report.problems("tie")) == len(built.report.ties)
    decimals = deck_decimals(built.deck)["gwh"]
    for card in built.deck.plant_cards:  # SK-6b: the printed production is in the war ten
        printed = float(
            format_number(card.figure("gwh"), decimals).replace("\u00a0", "").replace(",", ".")
        )
        assert printed // 10 * 10 == card.flags.gwh_tens, card.label


def test_default_deck_shape_and_provenance(built):
    deck = built.deck
    assert len(deck.cards) == 55 and len(deck.plant_cards) == 52
    assert deck.snapshot.licence == "CC BY 4.0" and deck.snapshot.attribution
    assert deck.snapshot.date == "2024-01"
    names = {c.name for c in deck.plant_cards}
    assert "Sønnå Høy" in names and "Sønnå H" not in names  # display-name override
    top = min(deck.plant_cards, key=lambda c: c.nr.gwh)
    assert top.value == 1 and top.gwh == max(c.gwh for c in deck.plant_cards)


def test_default_build_is_byte_identical(built):
    assert deck_json_text(build_from_spec_file(SPEC).deck) == deck_json_text(built.deck)


def test_alternative_head_spec_builds_a_valid_deck():
    result = build_from_spec_file(ROOT / "sources" / "deck-head.toml")
    report = validate_deck(result.deck)
    assert report.errors == [], report.lines()
    heads = [c.figure("head_m") for c in result.deck.plant_cards]
    assert result.deck.style()["accent"] == "#5b3f8c"
    assert min(heads) >= max(
        p.head_m
        for p in read_snapshot(SNAPSHOT).plants
        if p.id not in {c.plant_id for c in result.deck.plant_cards}
    )


@pytest.mark.parametrize("spec_name", ["deck.toml", "deck-head.toml"])
def test_no_card_prints_a_source_abbreviation(spec_name: str):
    # The source shortens some names to a trailing letter ("Sønnå H", "Matre M"); the
    # spec's [names] table must spell every such plant of the deck out.
    deck = build_from_spec_file(ROOT / "sources" / spec_name).deck
    abbreviated = [
        c.name
        for c in deck.plant_cards
        if c.name and re.search(r" [A-ZÆØÅ]$", c.name) and not re.search(r" [IVX]+$", c.name)
    ]
    assert abbreviated == []
