"""diff: every change a reprint makes, matched by plant id."""

from __future__ import annotations

import pytest

from kraftstokk.deck.diff import diff_decks, diff_files
from kraftstokk.deck.io import write_deck
from kraftstokk.errors import InputFileError
from tests.conftest import synthetic_deck


def test_identical_decks_have_no_changes():
    result = diff_decks(synthetic_deck(), synthetic_deck())
    assert result.empty and result.unchanged == 52
    assert result.lines()[-2].startswith("no changes")
    assert result.lines()[-1] == (
        "no card must be reprinted: every face and the back print as before"
    )
    assert result.reprint == 0 and not result.reprint_back


def test_flags_are_written_as_the_files_write_them_and_a_summary_ends_the_table():
    old, new = synthetic_deck(), synthetic_deck()
    card = new.plant_cards[0]
    card.flags.top3.gwh = not card.flags.top3.gwh
    result = diff_decks(old, new)
    rows = {c.field: (c.old, c.new) for p in result.changed for c in p.changes}
    assert set(rows["top3_gwh"]) == {"true", "false"}
    assert "False" not in "\n".join(result.lines()) and "True" not in "\n".join(result.lines())
    assert result.lines()[-1] == "1 face of 55 must be reprinted (the back stays): flags on 1"
    assert result.verdict.faces == [card.id]


def test_suit_value_figure_nr_and_name_changes_are_rows():
    old, new = synthetic_deck(), synthetic_deck()
    a, b = new.plant_cards[0], new.plant_cards[1]
    assert a.nr is not None and b.nr is not None
    a.id, a.suit, b.id, b.suit = b.id, b.suit, a.id, a.suit
    a.head_m = a.figure("head_m") + 1
    b.nr.mw, b.name = b.nr.mw + 1, "Nytt navn"
    result = diff_decks(old, new)
    rows = {(p.plant_id, c.field): (c.old, c.new) for p in result.changed for c in p.changes}
    a_id, b_id = str(a.plant_id), str(b.plant_id)
    assert rows[(a_id, "card")] == (old.plant_cards[0].id, old.plant_cards[1].id)
    assert rows[(a_id, "head_m")][1] == str(a.head_m).removesuffix(".0")
    assert rows[(b_id, "nr_mw")] == (str(b.nr.mw - 1), str(b.nr.mw))
    assert rows[(b_id, "name")][1] == "Nytt navn"
    assert result.unchanged == 50
    table = "\n".join(result.lines())
    assert "card" in table and "Nytt navn" in table


def test_plants_entering_and_leaving():
    old, new = synthetic_deck(), synthetic_deck()
    gone = new.plant_cards[5]
    old_id = gone.plant_id
    gone.plant_id, gone.name = "N999", "Ny stasjon"
    result = diff_decks(old, new, "a.json", "b.json")
    assert [p.plant_id for p in result.entered] == ["N999"]
    assert [p.plant_id for p in result.left] == [old_id]
    assert result.entered[0].new_card == gone.id and result.left[0].old_card == gone.id
    lines = result.lines()
    assert lines[0] == "reprint: a.json -> b.json"
    assert any(line.startswith(f"  + {gone.id} Ny stasjon (N999)") for line in lines)


def test_a_csv_that_is_neither_deck_nor_snapshot_says_so(tmp_path):
    deck_json, _ = write_deck(synthetic_deck(), tmp_path)
    export = tmp_path / "nve-export.csv"
    export.write_text("VannKraftverkID;Navn;MaksYtelse\n1;Tonstad;960\n", encoding="utf-8")
    with pytest.raises(InputFileError, match=r"neither a deck CSV .* nor a snapshot CSV") as info:
        diff_files(deck_json, export, tmp_path / "deck.toml")
    assert str(export) in str(info.value) and "kraftstokk ingest" in str(info.value)
