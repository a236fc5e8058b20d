"""repair: a hand-edited deck made valid by the code build uses; validate's summary."""

from __future__ import annotations

import csv
import io
from pathlib import Path

from typer.testing import CliRunner

from kraftstokk.cli import app
from kraftstokk.deck.io import load_deck, write_deck
from tests.conftest import synthetic_deck

runner = CliRunner()


def edit_csv(path: Path, plant_id: str, **cells: str) -> None:
    text = path.read_text(encoding="utf-8-sig")
    rows = list(csv.DictReader(io.StringIO(text, newline="")))
    for row in rows:
        if row["plant_id"] == plant_id:
            row.update(cells)
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=list(rows[0]), lineterminator="\r\n")
    writer.writeheader()
    writer.writerows(rows)
    path.write_text(out.getvalue(), encoding="utf-8")


def by_production(deck):
    return sorted(deck.plant_cards, key=lambda card: -card.figure("gwh"))


def test_one_edited_figure_is_summarised_and_repaired(tmp_path: Path):
    deck = synthetic_deck()
    _, csv_path = write_deck(deck, tmp_path)
    ranked = by_production(deck)
    edited = ranked[30]
    edit_csv(csv_path, str(edited.plant_id), gwh=str(ranked[4].figure("gwh") + 3))

    result = runner.invoke(app, ["validate", str(csv_path)])
    assert result.exit_code == 1
    last = result.stdout.strip().splitlines()[-1]
    assert last.startswith("summary: 1 figure differs from its nr.; 26 nr. follow from it; ")
    assert last.endswith(f"`kraftstokk repair {csv_path}` recomputes them")

    result = runner.invoke(app, ["repair", str(csv_path)])
    assert result.exit_code == 0, result.output
    assert "validation: 0 errors" in result.stdout
    assert (tmp_path / "repair-report.txt").read_text(encoding="utf-8").startswith("reprint:")
    assert "nr_gwh" in result.stdout
    repaired = load_deck(tmp_path / "deck.json")
    assert runner.invoke(app, ["validate", str(tmp_path / "deck.json")]).exit_code == 0
    before = {c.plant_id: (c.id, c.name, c.mw, c.head_m) for c in deck.plant_cards}
    after = {c.plant_id: (c.id, c.name, c.mw, c.head_m) for c in repaired.plant_cards}
    assert before == after  # suits, values, names and other figures as the person left them
    card = next(c for c in repaired.plant_cards if c.plant_id == edited.plant_id)
    assert card.nr is not None and card.nr.gwh == 5
    assert (repaired.title, repaired.edition, repaired.snapshot) == (
        deck.title,
        deck.edition,
        deck.snapshot,
    )


def test_suits_and_values_swapped_by_hand_get_their_ids_and_flags(tmp_path: Path):
    deck = synthetic_deck()
    _, csv_path = write_deck(deck, tmp_path)
    two = next(c for c in deck.plant_cards if c.value == 2)
    ace = next(c for c in deck.plant_cards if c.value == 1)
    edit_csv(csv_path, str(two.plant_id), suit=str(ace.suit), value="1")
    edit_csv(csv_path, str(ace.plant_id), suit=str(two.suit), value="2")
    result = runner.invoke(app, ["repair", str(csv_path), "--out", str(tmp_path / "fixed")])
    assert result.exit_code == 0, result.output
    repaired = load_deck(tmp_path / "fixed" / "deck.json")
    moved = next(c for c in repaired.plant_cards if c.plant_id == ace.plant_id)
    assert moved.id == two.id and moved.flags.reset is True
    assert runner.invoke(app, ["validate", str(tmp_path / "fixed" / "deck.json")]).exit_code == 0


def test_what_a_person_must_decide_is_refused_with_what_to_fix(tmp_path: Path):
    deck = synthetic_deck()
    _, csv_path = write_deck(deck, tmp_path)
    first, second = deck.plant_cards[0], deck.plant_cards[1]
    edit_csv(csv_path, str(second.plant_id), suit=str(first.suit), value=str(first.value),
             id=first.id)  # fmt: skip
    before = csv_path.read_bytes()
    result = runner.invoke(app, ["repair", str(csv_path)])
    assert result.exit_code == 1
    assert f"{first.suit} {first.value} is on 2 cards" in result.stderr
    assert f"free: {second.id}" in result.stderr
    assert csv_path.read_bytes() == before and not (tmp_path / "repair-report.txt").exists()


def test_a_valid_deck_ends_validate_with_a_summary_too(tmp_path: Path):
    json_path, _ = write_deck(synthetic_deck(), tmp_path)
    result = runner.invoke(app, ["validate", str(json_path)])
    assert result.exit_code == 0
    assert result.stdout.strip().splitlines()[-1].startswith("summary: no errors")


def test_a_lost_joker_row_is_restored_and_reported(tmp_path: Path):
    deck = synthetic_deck()
    _, csv_path = write_deck(deck, tmp_path)
    lines = csv_path.read_text(encoding="utf-8-sig").splitlines()
    csv_path.write_text("\n".join(lines[:-1]) + "\n", encoding="utf-8")  # joker-3 deleted
    result = runner.invoke(app, ["repair", str(csv_path)])
    assert result.exit_code == 0, result.output
    assert "jokers: 2 in the deck, a deck has 3; now joker-1, joker-2 and joker-3, bare" in (
        result.stdout
    )
    assert [c.id for c in load_deck(tmp_path / "deck.json").jokers] == [
        "joker-1",
        "joker-2",
        "joker-3",
    ]
