"""Deck builder: selection, suits and values, nr., flags, determinism, spec errors."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kraftstokk.deck.assign import LADDER_VALUES
from kraftstokk.deck.build import build_deck
from kraftstokk.deck.io import deck_csv_text, deck_json_text
from kraftstokk.deck.spec import DeckSpec, parse_spec
from kraftstokk.deck.validate import validate_deck
from kraftstokk.errors import SpecError
from kraftstokk.models import SUITS, Plant, SnapshotInfo
from tests.conftest import synthetic_plants

INFO = SnapshotInfo(path="synthetic.csv", date="2024-01", licence="CC BY 4.0", attribution="t")


def spec(**raw: object) -> DeckSpec:
    return parse_spec(dict(raw), "test spec")


def build(plants: list[Plant] | None = None, **raw: object):
    return build_deck(plants if plants is not None else synthetic_plants(), spec(**raw), INFO)


def test_default_build_has_55_cards_and_validates_clean():
    result = build()
    deck = result.deck
    assert len(deck.cards) == 55 and len(deck.plant_cards) == 52 and len(deck.jokers) == 3
    assert [c.id for c in deck.jokers] == ["joker-1", "joker-2", "joker-3"]
    report = validate_deck(deck)
    assert report.errors == [] and report.warnings == []
    assert deck.snapshot == INFO
    assert deck.style()["paper"] == "a4" and deck.spec["policy"]["kind"] == "production-ladder"


def test_default_selection_is_the_52_highest_producers():
    plants = synthetic_plants(80)
    deck = build(plants).deck
    top = sorted(plants, key=lambda p: -p.gwh)[:52]
    assert {c.plant_id for c in deck.plant_cards} == {p.id for p in top}


def test_production_ladder_values_and_balanced_suits():
    result = build()
    cards = sorted(result.deck.plant_cards, key=lambda c: c.nr.gwh)
    for group, value in enumerate(LADDER_VALUES):
        members = cards[group * 4 : group * 4 + 4]
        assert {c.value for c in members} == {value}
        assert {c.suit for c in members} == set(SUITS)
    totals = result.report.suit_production
    spread = max(totals.values()) - min(totals.values())
    # Dealing each group in suit order would leave spar far ahead; balancing beats it.
    naive = {s: sum(c.gwh for i, c in enumerate(cards) if i % 4 == n) for n, s in enumerate(SUITS)}
    assert spread < (max(naive.values()) - min(naive.values())) / 3


def test_flags_follow_nr_and_values():
    deck = build().deck
    for card in deck.plant_cards:
        assert card.flags.invisible.gwh == (card.nr.gwh >= 50)
        assert card.flags.top3.mw == (card.nr.mw <= 3)
        assert card.flags.burn == (card.suit == "kløver" and card.value <= 4)
        assert card.flags.reset == (card.value == 2)
        assert card.flags.gwh_tens == int(card.gwh // 10 * 10)
        for partner in card.flags.war_partners:
            assert deck.card(partner).flags.gwh_tens == card.flags.gwh_tens
    assert sum(c.flags.burn for c in deck.cards) == 7  # 4 clubs + 3 jokers


def test_build_is_deterministic_and_independent_of_input_order():
    plants = synthetic_plants(70)
    first = build(plants).deck
    second = build(list(reversed(plants))).deck
    assert deck_json_text(first) == deck_json_text(second)
    assert deck_csv_text(first) == deck_csv_text(second)


@st.composite
def tie_heavy_plants(draw: st.DrawFn) -> list[Plant]:
    count = draw(st.integers(min_value=52, max_value=64))
    choice = st.sampled_from([25.0, 50.0, 120.0, 300.0, 1000.0])
    return [
        Plant(
            id=f"T{i:02d}",
            name=f"Verk {i}",
            mw=draw(choice),
            gwh=draw(choice),
            head_m=draw(choice),
            source="t",
            source_id=str(i),
        )
        for i in range(count)
    ]


@settings(max_examples=25, deadline=None)
@given(tie_heavy_plants(), st.sampled_from(["production-ladder", "shuffle"]))
def test_any_build_validates_without_errors_even_full_of_ties(plants, kind):
    deck = build(plants, policy={"kind": kind, "seed": 4}).deck
    report = validate_deck(deck)
    assert report.errors == []
    again = build(plants, policy={"kind": kind, "seed": 4}).deck
    assert deck_json_text(deck) == deck_json_text(again)


def test_ties_are_in_the_report_and_validator_warnings():
    plants = synthetic_plants()
    top = sorted(plants, key=lambda p: -p.gwh)
    a, b = top[5], top[9]
    plants = [p.model_copy(update={"mw": a.mw}) if p.id == b.id else p for p in plants]
    result = build(plants)
    assert len(result.report.ties) == 1
    tie = result.report.ties[0]
    assert tie.category == "mw" and set(tie.names) == {a.name, b.name}
    assert "tie in Effekt" in tie.line()
    warnings = validate_deck(result.deck).warnings
    assert [w.rule for w in warnings] == ["tie"]


def test_shuffle_policy_is_seeded():
    one = build(policy={"kind": "shuffle", "seed": 1}).deck
    same = build(policy={"kind": "shuffle", "seed": 1}).deck
    other = build(policy={"kind": "shuffle", "seed": 2}).deck
    assert deck_json_text(one) == deck_json_text(same)
    ids = {c.plant_id: c.id for c in one.plant_cards}
    assert ids != {c.plant_id: c.id for c in other.plant_cards}
    assert validate_deck(one).ok


def _table(plants: list[Plant]) -> dict[str, str]:
    slots = [f"{suit}-{value}" for suit in SUITS for value in range(1, 14)]
    return dict(zip(slots, [p.id for p in plants[:52]], strict=True))


def test_table_policy_deals_exactly_as_written():
    plants = synthetic_plants(60)
    table = _table(plants)
    deck = build(plants, policy={"kind": "table", "table": table}).deck
    assert {c.id: c.plant_id for c in deck.plant_cards} == table
    assert validate_deck(deck).ok


def test_table_policy_that_cannot_give_13_per_suit_is_a_spec_error():
    plants = synthetic_plants(60)
    table = _table(plants)
    del table["ruter-13"]
    with pytest.raises(SpecError, match=r"policy.table: cannot give 13 cards per suit.*ruter 12"):
        build(plants, policy={"kind": "table", "table": table})
    with pytest.raises(SpecError, match=r'policy.table.*"spar-14" is not a card id'):
        build(plants, policy={"kind": "table", "table": {"spar-14": "S001"}})


def test_pinned_excluded_and_names():
    plants = synthetic_plants(80)
    lowest = min(plants, key=lambda p: p.gwh)
    highest = max(plants, key=lambda p: p.gwh)
    result = build(
        plants,
        selection={"pinned": [lowest.id], "excluded": [highest.id]},
        names={lowest.id: "Nytt Navn"},
    )
    ids = {c.plant_id: c for c in result.deck.plant_cards}
    assert lowest.id in ids and highest.id not in ids
    assert ids[lowest.id].name == "Nytt Navn"


def test_pinned_and_excluded_names_resolve_to_ids_and_unknown_ones_are_errors():
    plants = synthetic_plants(80)
    lowest = min(plants, key=lambda p: p.gwh)
    highest = max(plants, key=lambda p: p.gwh)
    result = build(plants, selection={"pinned": [lowest.name], "excluded": [highest.name.upper()]})
    ids = {c.plant_id for c in result.deck.plant_cards}
    assert lowest.id in ids and highest.id not in ids
    with pytest.raises(
        SpecError, match=r'selection.excluded: plant "GONE" is not in the snapshot$'
    ):
        build(plants, selection={"excluded": ["GONE"]})
    typo = highest.name[:-1]
    with pytest.raises(SpecError) as caught:
        build(plants, selection={"excluded": [typo]})
    assert str(caught.value) == (
        f'selection.excluded: plant "{typo}" is not in the snapshot; '
        f"did you mean {highest.id} ({highest.name})?"
    )
    with pytest.raises(SpecError, match=f"did you mean {lowest.id} "):
        build(plants, selection={"pinned": [lowest.id + "x"]})


def test_minimum_per_price_area():
    plants = synthetic_plants(80)
    low = sorted(plants, key=lambda p: p.gwh)[:3]
    plants = [p.model_copy(update={"price_area": "NO4" if p in low else "NO2"}) for p in plants]
    deck = build(plants, selection={"min_per_price_area": 2}).deck
    chosen = {c.plant_id for c in deck.plant_cards}
    assert len(chosen & {p.id for p in low}) == 2
    assert validate_deck(deck).ok


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ({"colour": "red"}, r"colour: unknown key"),
        ({"selection": {"pinned": ["NOPE"]}}, r'selection.pinned: plant "NOPE" is not in the snap'),
        ({"selection": {"excluded": [f"S{i:03d}" for i in range(10)]}}, r"only 50 eligible"),
        ({"selection": {"min_per_county": 1}}, r"selection.min_per_county: the snapshot has no"),
        ({"policy": {"kind": "random"}}, r'policy.kind: is "random", not one of production-'),
        ({"style": {"accent": "blue"}}, r"style.accent: .*not a colour"),
        ({"names": {"NOPE": "X"}}, r'names: plant "NOPE" is not in the snapshot'),
        ({"selection": {"pinned": ["S001"], "excluded": ["S001"]}}, r"also in selection.excl"),
    ],
)
def test_invalid_spec_names_the_key_and_reason(raw, message):
    with pytest.raises(SpecError, match=message) as caught:
        build(**raw)
    assert caught.value.exit_code == 2


def test_spec_file_errors(tmp_path: Path):
    from kraftstokk.deck.spec import load_spec
    from kraftstokk.errors import InputFileError

    bad = tmp_path / "deck.toml"
    bad.write_text('title = "x"\n[selection]\nby = "gwh"\nbogus = 1\n', encoding="utf-8")
    with pytest.raises(SpecError, match=r"deck.toml: invalid spec: selection.bogus: unknown key"):
        load_spec(bad)
    bad.write_text("title = \n", encoding="utf-8")
    with pytest.raises(InputFileError, match="not valid TOML"):
        load_spec(bad)
    with pytest.raises(InputFileError, match="no such spec file"):
        load_spec(tmp_path / "missing.toml")


def test_tie_at_the_selection_cut_is_reported():
    plants = sorted(synthetic_plants(60), key=lambda p: -p.gwh)
    last_in, first_out = plants[51], plants[52]
    plants[52] = first_out.model_copy(update={"gwh": last_in.gwh})
    result = build(plants)
    labels = {p.id: f"{p.name} ({p.id})" for p in (last_in, first_out)}
    inside = {c.plant_id for c in result.deck.plant_cards} & set(labels)
    outside = set(labels) - inside
    assert len(inside) == 1
    assert result.report.cut_tie == [labels[inside.pop()], labels[outside.pop()]]
    assert any(line.startswith("tie at the selection cut:") for line in result.report.lines())
    assert build(synthetic_plants(60)).report.cut_tie == []
