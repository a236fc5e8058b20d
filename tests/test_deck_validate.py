"""Validation: one mutation per rule on a valid deck.csv gives exactly that problem."""

from __future__ import annotations

import csv
from collections.abc import Callable
from pathlib import Path

import pytest

from kraftstokk.deck.build import build_deck
from kraftstokk.deck.io import load_deck, write_deck
from kraftstokk.deck.spec import DeckSpec
from kraftstokk.deck.validate import require_valid, validate_deck
from kraftstokk.errors import ValidationFailed
from kraftstokk.models import Deck, SnapshotInfo
from tests.conftest import synthetic_deck, synthetic_plants

Rows = list[dict[str, str]]


def valid_deck() -> Deck:
    plants = synthetic_plants()
    return build_deck(plants, DeckSpec(), SnapshotInfo(path="synthetic.csv")).deck


@pytest.fixture(scope="module")
def csv_rows(tmp_path_factory: pytest.TempPathFactory) -> tuple[list[str], Rows]:
    folder = tmp_path_factory.mktemp("deck")
    write_deck(valid_deck(), folder)
    with (folder / "deck.csv").open(encoding="utf-8-sig", newline="") as handle:
        reader = csv.DictReader(handle)
        return list(reader.fieldnames or []), list(reader)


def mutated(tmp_path: Path, csv_rows, change: Callable[[Rows], None]) -> Deck:
    header, rows = csv_rows
    rows = [dict(row) for row in rows]
    change(rows)
    path = tmp_path / "deck.csv"
    with path.open("w", encoding="utf-8-sig", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=header)
        writer.writeheader()
        writer.writerows(rows)
    return load_deck(path)


def row(rows: Rows, card_id: str) -> dict[str, str]:
    return next(r for r in rows if r["id"] == card_id)


def by_nr(rows: Rows, category: str, nr: int) -> dict[str, str]:
    return next(r for r in rows if r[f"nr_{category}"] == str(nr))


def only_problem(deck: Deck):
    report = validate_deck(deck)
    problems = [*report.errors, *report.warnings]
    assert len(problems) == 1, report.lines()
    return problems[0]


def test_unmutated_csv_is_clean(tmp_path, csv_rows):
    report = validate_deck(mutated(tmp_path, csv_rows, lambda rows: None))
    assert report.ok and report.errors == [] and report.warnings == []


def _set(card: str, column: str, value: str) -> Callable[[Rows], None]:
    return lambda rows: row(rows, card).update({column: value})


def _set_nr(category: str, nr: int, column: str, value: str) -> Callable[[Rows], None]:
    return lambda rows: by_nr(rows, category, nr).update({column: value})


# (mutation, rule, severity, field, found, expected)
MUTATIONS = {
    "figure_negative": (_set("spar-7", "mw", "-5"), "figure", "error", "mw", "-5", None),
    "figure_missing": (_set("hjerter-3", "head_m", ""), "figure", "error", "head_m", "empty", None),
    "implausible_head": (
        _set_nr("head_m", 1, "head_m", "1500"), "implausible", "warning", "head_m", "1500 m", None
    ),
    "implausible_capacity": (
        _set_nr("mw", 1, "mw", "2500"), "implausible", "warning", "mw", "2500 MW", None
    ),
    "card_id_collides": (
        _set("spar-7", "id", "hjerter-7"), "card_id", "error", "id", "hjerter-7", "spar-7"
    ),
    "nr_stale": (_set_nr("gwh", 10, "nr_gwh", "12"), "nr", "error", "nr_gwh", "12", "10"),
    "nr_out_of_range": (_set_nr("mw", 20, "nr_mw", "53"), "nr", "error", "nr_mw", "53", "20"),
    "invisible_flag": (
        _set_nr("head_m", 51, "invisible_head_m", "false"),
        "flags", "error", "invisible_head_m", "false", "true",
    ),
    "top3_flag": (
        _set_nr("mw", 4, "top3_mw", "true"), "flags", "error", "top3_mw", "true", "false"
    ),
    "burn_flag": (_set("kløver-5", "burn", "true"), "flags", "error", "burn", "true", "false"),
    "reset_flag": (_set("ruter-2", "reset", "false"), "flags", "error", "reset", "false", "true"),
    "gwh_tens": (_set("spar-1", "gwh_tens", "10"), "flags", "error", "gwh_tens", "10", None),
    "suit": (_set("spar-7", "suit", "hjerter"), "suit_value", "error", "suit", "hjerter", "spar"),
    "value": (_set("ruter-4", "value", "5"), "suit_value", "error", "value", "5", "4"),
    "value_out_of_range": (
        _set("ruter-4", "value", "14"), "suit_value", "error", "value", "14", "4"
    ),
    "card_id": (_set("hjerter-9", "id", "hjerter-99"), "card_id", "error", "id", "hjerter-99",
                "hjerter-9"),
    "plant_id_missing": (_set("spar-3", "plant_id", ""), "plant_id", "error", "plant_id", "empty",
                         None),
    "name_missing": (_set("spar-3", "name", ""), "name", "error", "name", "empty", None),
    "name_too_long": (
        _set("spar-3", "name", "Fellesanlegget Kykkelsrud-Fossumfoss og Vamma Nedre Øvre"),
        "name_fit", "error", "name", None, None,
    ),
    "joker_figure": (_set("joker-2", "mw", "100"), "joker", "error", "mw", "100.0", "empty"),
    "joker_id": (_set("joker-3", "id", "joker-4"), "joker", "error", "id", "joker-4", "joker-3"),
    "joker_flag": (_set("joker-1", "burn", "false"), "flags", "error", "burn", "false", "true"),
}  # fmt: skip


@pytest.mark.parametrize("name", sorted(MUTATIONS))
def test_one_mutation_gives_exactly_that_problem(tmp_path, csv_rows, name):
    change, rule, severity, field, found, expected = MUTATIONS[name]
    problem = only_problem(mutated(tmp_path, csv_rows, change))
    assert (problem.rule, problem.severity, problem.field) == (rule, severity, field)
    if found is not None:
        assert problem.found == found
    if expected is not None:
        assert problem.expected == expected
    assert problem.message
    if not name.startswith("joker"):
        assert problem.card and problem.suit and problem.value and problem.plant


def test_production_above_capacity_all_year_is_a_warning(tmp_path, csv_rows):
    def change(rows: Rows) -> None:
        weakest = by_nr(rows, "mw", 52)
        weakest["mw"] = str(round(float(weakest["gwh"]) / 10, 1))

    problem = only_problem(mutated(tmp_path, csv_rows, change))
    assert (problem.rule, problem.severity, problem.field) == ("implausible", "warning", "gwh")
    assert "running all year" in problem.message


def test_production_printed_in_its_own_ten_is_clean(tmp_path, csv_rows):
    ten = int(float(by_nr(csv_rows[1], "gwh", 1)["gwh"]) // 10 * 10)

    def change(rows: Rows) -> None:
        by_nr(rows, "gwh", 1)["gwh"] = str(ten + 9.6)  # printed cut, not rounded up: same ten

    report = validate_deck(mutated(tmp_path, csv_rows, change))
    assert report.errors == [] and report.warnings == [], report.lines()


def test_value_off_the_production_ladder_is_a_warning_when_the_spec_deals_by_it():
    deck = valid_deck()
    ace = next(c for c in deck.plant_cards if c.id == "spar-1")
    king = next(c for c in deck.plant_cards if c.id == "spar-13")
    ace.id, ace.value, king.id, king.value = king.id, king.value, ace.id, ace.value
    report = validate_deck(deck)
    assert report.errors == [], report.lines()
    found = sorted((p.rule, p.card, p.field, p.found, p.expected) for p in report.warnings)
    assert found == [
        ("ladder", "spar-1", "value", "1", "13"),
        ("ladder", "spar-13", "value", "13", "1"),
    ]
    assert any(" gets value 1; rebuild" in p.message for p in report.problems("ladder"))
    # Another policy may deal any value to any plant.
    deck.spec["policy"]["kind"] = "shuffle"
    assert validate_deck(deck).warnings == []


def test_duplicate_plant(tmp_path, csv_rows):
    def change(rows: Rows) -> None:
        row(rows, "ruter-9")["plant_id"] = row(rows, "spar-2")["plant_id"]

    problem = only_problem(mutated(tmp_path, csv_rows, change))
    assert (problem.rule, problem.field, problem.card) == ("duplicate_plant", "plant_id", "ruter-9")
    assert "spar-2" in problem.message


def test_duplicate_name_is_a_warning(tmp_path, csv_rows):
    def change(rows: Rows) -> None:
        row(rows, "ruter-9")["name"] = row(rows, "spar-2")["name"]

    problem = only_problem(mutated(tmp_path, csv_rows, change))
    assert (problem.rule, problem.severity) == ("duplicate_name", "warning")


def test_war_partner_removed(tmp_path, csv_rows):
    _header, rows = csv_rows
    card = next(r for r in rows if r["war_partners"])

    def change(rows: Rows) -> None:
        row(rows, card["id"])["war_partners"] = ""

    problem = only_problem(mutated(tmp_path, csv_rows, change))
    assert (problem.rule, problem.field, problem.found) == ("flags", "war_partners", "none")
    assert problem.expected == card["war_partners"]


def test_tie_is_a_warning_not_an_error(tmp_path, csv_rows):
    def change(rows: Rows) -> None:
        by_nr(rows, "mw", 11)["mw"] = by_nr(rows, "mw", 10)["mw"]

    problem = only_problem(mutated(tmp_path, csv_rows, change))
    assert (problem.rule, problem.severity, problem.field) == ("tie", "warning", "mw")


@pytest.mark.parametrize("swap", [False, True])
def test_tied_cards_out_of_the_tie_break_order_say_so(tmp_path, csv_rows, swap):
    _header, rows = csv_rows
    tenth, eleventh = by_nr(rows, "mw", 10), by_nr(rows, "mw", 11)
    # With equal capacity, the rule puts the higher production first.
    rule_first = tenth if float(tenth["gwh"]) > float(eleventh["gwh"]) else eleventh

    def change(rows: Rows) -> None:
        a, b = row(rows, tenth["id"]), row(rows, eleventh["id"])
        b["mw"] = a["mw"]
        if swap:
            a["nr_mw"], b["nr_mw"] = b["nr_mw"], a["nr_mw"]

    problem = only_problem(mutated(tmp_path, csv_rows, change))
    assert (problem.rule, problem.severity, problem.field) == ("tie", "warning", "mw")
    in_rule_order = (rule_first is tenth) != swap
    if in_rule_order:
        assert "(broken by the tie-break rule other-figures-then-id (the higher other " in (
            problem.message
        )
    else:
        assert "not in the order of the tie-break rule other-figures-then-id (the higher " in (
            problem.message
        )
        assert "then the lower plant id), which gives " + (
            f"{rule_first['id']} nr. 10" ) in problem.message  # fmt: skip


def test_swapped_nr_names_the_correct_nr_on_both_cards(tmp_path, csv_rows):
    def change(rows: Rows) -> None:
        a, b = by_nr(rows, "gwh", 3), by_nr(rows, "gwh", 17)
        a["nr_gwh"], b["nr_gwh"] = "17", "3"

    report = validate_deck(mutated(tmp_path, csv_rows, change))
    found = sorted((p.found, p.expected) for p in report.errors)
    assert found == [("17", "3"), ("3", "17")]
    assert all(p.rule == "nr" and f"is nr. {p.expected} of the deck" in p.message
               for p in report.errors)  # fmt: skip


def test_stale_nr_after_figure_change(tmp_path, csv_rows):
    def change(rows: Rows) -> None:
        by_nr(rows, "head_m", 30)["head_m"] = str(float(by_nr(rows, "head_m", 28)["head_m"]) + 0.5)

    report = validate_deck(mutated(tmp_path, csv_rows, change))
    assert sorted((p.found, p.expected) for p in report.errors) == [
        ("28", "29"),
        ("29", "30"),
        ("30", "28"),
    ]


def test_removed_plant_row_reports_count_and_missing_card(tmp_path, csv_rows):
    report = validate_deck(
        mutated(tmp_path, csv_rows, lambda rows: rows.remove(row(rows, "kløver-8")))
    )
    rules = {p.rule for p in report.errors}
    assert {"card_count", "suit_value"} <= rules
    assert any(p.expected == "kløver 8" for p in report.errors)


def test_removed_joker_row_reports_only_the_count(tmp_path, csv_rows):
    problem = only_problem(
        mutated(tmp_path, csv_rows, lambda rows: rows.remove(row(rows, "joker-2")))
    )
    assert problem.rule == "card_count" and problem.found.startswith("54 cards")


def test_all_problems_at_once(tmp_path, csv_rows):
    def change(rows: Rows) -> None:
        for name in ("suit", "burn_flag", "nr_stale", "figure_negative"):
            MUTATIONS[name][0](rows)

    report = validate_deck(mutated(tmp_path, csv_rows, change))
    assert sorted(p.rule for p in report.errors) == ["figure", "flags", "nr", "suit_value"]


def test_require_valid_raises_with_problem_lines(tmp_path, csv_rows):
    deck = mutated(tmp_path, csv_rows, MUTATIONS["nr_stale"][0])
    with pytest.raises(ValidationFailed) as caught:
        require_valid(deck, "deck.csv")
    assert caught.value.exit_code == 1
    assert len(caught.value.problems) == 1
    assert "nr_gwh" in caught.value.problems[0] and "expected 10" in caught.value.problems[0]
    require_valid(valid_deck(), "ok")


def test_conftest_synthetic_deck_is_valid():
    assert validate_deck(synthetic_deck()).ok


def test_report_json_has_ok_and_problem_fields(tmp_path, csv_rows):
    report = validate_deck(mutated(tmp_path, csv_rows, MUTATIONS["suit"][0]), "x")
    data = report.model_dump(mode="json")
    assert data["ok"] is False
    assert set(data["errors"][0]) >= {"card", "suit", "value", "plant", "field", "found",
                                      "expected", "message"}  # fmt: skip
