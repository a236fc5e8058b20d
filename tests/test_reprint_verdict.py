"""The reprint verdict's causes: each change, what it alone reprints, and the way out."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from kraftstokk.cli import app
from kraftstokk.deck.io import load_deck
from kraftstokk.deck.repair import repair_deck
from kraftstokk.deck.reprint import reprint_verdict
from kraftstokk.models import Deck
from tests.conftest import synthetic_deck, synthetic_plants
from tests.test_deck_cli import write_synthetic_snapshot

runner = CliRunner()


def derived(deck: Deck) -> Deck:
    """The deck with nr. and flags recomputed after an edit (as build and repair do)."""
    return repair_deck(deck).deck


def test_a_figure_that_changes_the_rounding_reprints_that_field_on_every_card():
    old = synthetic_deck()
    for i, card in enumerate(old.plant_cards):
        card.mw = float(100 + 10 * i)  # whole numbers: "100 MW"
    old = derived(old)
    new = old.model_copy(deep=True)
    card, other = new.plant_cards[5], new.plant_cards[6]
    was, card.mw = card.mw, (other.mw or 0) + 0.4  # prints as the other one: one decimal now
    verdict = reprint_verdict(old, derived(new))
    assert len(verdict.faces) == 52 and not verdict.back
    assert verdict.by_kind()["figures"] == [c.id for c in old.plant_cards]
    (cause,) = [c for c in verdict.causes if c.kind == "figure"]
    assert len(cause.faces) == 52 and f"mw {was:g} -> {card.mw:g} MW" in cause.says


def test_the_design_is_on_every_face_and_the_back():
    old = synthetic_deck()
    new = old.model_copy(update={"spec": {"style": {"accent": "#aa3300"}}})
    verdict = reprint_verdict(old, new)
    assert len(verdict.faces) == 55 and verdict.back
    assert [c.kind for c in verdict.causes] == ["design"] and verdict.causes[0].back
    assert verdict.summary.startswith("all 55 faces and the back must be reprinted: the design")


def test_a_new_data_credit_reprints_every_face_but_not_the_back():
    old = synthetic_deck()
    snapshot = old.snapshot.model_copy(update={"attribution": "Inneholder data fra NVE, NLOD."})
    verdict = reprint_verdict(old, old.model_copy(update={"snapshot": snapshot}))
    assert len(verdict.faces) == 55 and not verdict.back
    assert verdict.by_kind() == {"small print": [c.id for c in old.cards]}
    assert verdict.causes[0].kind == "credit" and verdict.causes[0].way_out is None


def test_plants_dealt_other_cards_are_one_cause_with_keep_as_the_way_out():
    old = synthetic_deck()
    new = old.model_copy(deep=True)
    a, b = new.plant_cards[0], new.plant_cards[1]
    a.id, a.suit, a.value, b.id, b.suit, b.value = b.id, b.suit, b.value, a.id, a.suit, a.value
    verdict = reprint_verdict(old, derived(new), keep_from="print-2025/deck.json")
    (cause,) = verdict.causes
    assert cause.kind == "placement" and sorted(cause.faces) == sorted([a.id, b.id])
    assert cause.way_out == (
        "build --keep-from print-2025/deck.json keeps the suit and value of every staying plant"
    )


def test_a_kept_place_far_off_the_ladder_is_warned_about():
    old = synthetic_deck()
    new = old.model_copy(deep=True)
    low = new.plant_cards[-1]  # ruter-2, production nr. 52 or so
    low.gwh = 5000.0  # now the highest producer, on a 2
    verdict = reprint_verdict(old, derived(new))
    assert any(
        line.startswith("warning: 1 card(s) break the production ladder") for line in verdict.ladder
    )
    assert any(f"{low.id} {low.name}" in line and "the ladder gives the 2s nr. 49-52" in line
               for line in verdict.ladder)  # fmt: skip


def test_a_plant_below_the_cut_gets_pin_as_the_way_out(tmp_path: Path):
    plants = synthetic_plants(70)
    write_synthetic_snapshot(tmp_path / "a.csv", plants)
    top = sorted(plants, key=lambda p: -p.gwh)
    risen = top[52].model_copy(update={"gwh": top[10].gwh + 0.5})  # the 53rd rises past the 11th
    write_synthetic_snapshot(tmp_path / "b.csv", [risen if p.id == risen.id else p for p in plants])
    spec = tmp_path / "deck.toml"
    spec.write_text('snapshot = "a.csv"\n', encoding="utf-8")
    assert (
        runner.invoke(app, ["build", "--spec", str(spec), "--out", str(tmp_path / "old")]).exit_code
        == 0
    )
    spec.write_text('snapshot = "b.csv"\n[policy]\nkeep = "old/deck.json"\n', encoding="utf-8")
    built = runner.invoke(app, ["build", "--spec", str(spec), "--out", str(tmp_path / "new")])
    assert built.exit_code == 0, built.output
    gone = top[51]  # pushed out of the 52
    diff = runner.invoke(app, ["diff", str(tmp_path / "old" / "deck.json"),
                               str(tmp_path / "new" / "deck.json")])  # fmt: skip
    assert f"{gone.name} ({gone.id}) leaves" in diff.stdout
    assert "(still in the snapshot, below the cut)" in diff.stdout
    assert f"--pin {gone.id} keeps {gone.name} on" in diff.stdout

    # Taking the way out: --pin keeps the plant on its card; the lowest other plant leaves.
    pinned = runner.invoke(app, ["build", "--spec", str(spec), "--out", str(tmp_path / "pinned"),
                                 "--pin", gone.id])  # fmt: skip
    assert pinned.exit_code == 0, pinned.output
    assert "(1 pinned)" in pinned.stdout
    before = {c.plant_id: c.id for c in load_deck(tmp_path / "old" / "deck.json").plant_cards}
    after = {c.plant_id: c.id for c in load_deck(tmp_path / "pinned" / "deck.json").plant_cards}
    assert after[gone.id] == before[gone.id] and risen.id in after
