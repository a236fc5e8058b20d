"""One plant identity across sources: JRC's N448 is NVE's 448 everywhere a plant is named."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from kraftstokk.cli import app
from kraftstokk.deck.io import load_deck, write_deck
from kraftstokk.deck.repair import repair_deck
from kraftstokk.deck.validate import validate_deck
from kraftstokk.errors import ValidationFailed
from kraftstokk.models import Plant
from kraftstokk.sources.plant_keys import key_clashes, plant_key, same_plant
from tests.conftest import synthetic_deck, synthetic_plants
from tests.test_deck_cli import write_synthetic_snapshot

runner = CliRunner()


def jrc_and_nve(count: int = 70) -> tuple[list[Plant], list[Plant]]:
    """The same plants with JRC ids (N101, ...) and with NVE ids (101, ...)."""
    plants = synthetic_plants(count)
    jrc = [p.model_copy(update={"id": f"N{101 + i}", "source_id": f"N{101 + i}"})
           for i, p in enumerate(plants)]  # fmt: skip
    nve = [p.model_copy(update={"id": str(101 + i), "source_id": str(101 + i), "source": "nve"})
           for i, p in enumerate(plants)]  # fmt: skip
    return jrc, nve


def build(spec: Path, out: Path, *extra: str) -> str:
    result = runner.invoke(app, ["build", "--spec", str(spec), "--out", str(out), *extra])
    assert result.exit_code == 0, result.output
    return result.stdout


@pytest.mark.parametrize(
    ("given", "key"),
    [("N448", "448"), ("448", "448"), ("n0448", "448"), (" 448 ", "448"), ("S001", "S001"),
     ("N10b", "N10b"), ("0", "0")],
)  # fmt: skip
def test_plant_key_drops_jrcs_n_and_leading_zeros_only(given: str, key: str):
    assert plant_key(given) == key


def test_same_plant_and_clashes():
    assert same_plant("N448", "448") and not same_plant("N448", "N44") and not same_plant(None, "1")
    assert key_clashes(["N1", "2", "1", "N2", "N3"]) == [("N1", "1"), ("2", "N2")]


def test_names_pinned_excluded_and_table_take_either_spelling(tmp_path: Path):
    jrc, nve = jrc_and_nve()
    write_synthetic_snapshot(tmp_path / "nve.csv", nve)
    low = sorted(nve, key=lambda p: p.gwh)[0]  # far below the cut
    top = max(nve, key=lambda p: p.gwh)
    spec = tmp_path / "deck.toml"
    spec.write_text(
        f'snapshot = "nve.csv"\n[selection]\npinned = ["N{low.id}"]\nexcluded = ["N{top.id}"]\n'
        f'[names]\nN{jrc[0].id[1:]} = "Eget Navn"\n',
        encoding="utf-8",
    )
    report = build(spec, tmp_path / "out")
    deck = load_deck(tmp_path / "out" / "deck.json")
    ids = {card.plant_id for card in deck.plant_cards}
    assert low.id in ids and top.id not in ids and "(1 pinned)" in report
    named = [card for card in deck.plant_cards if card.plant_id == nve[0].id]
    assert not named or named[0].name == "Eget Navn"


def refused(tmp_path: Path, plants: list[Plant], spec_text: str) -> str:
    """The error line of a build that must fail (exit 2)."""
    write_synthetic_snapshot(tmp_path / "plants.csv", plants)
    spec = tmp_path / "deck.toml"
    spec.write_text(f'snapshot = "plants.csv"\n{spec_text}', encoding="utf-8")
    result = runner.invoke(app, ["build", "--spec", str(spec), "--out", str(tmp_path / "o")])
    assert result.exit_code == 2, result.output
    return result.stderr


def test_an_unknown_entry_is_named(tmp_path: Path):
    _, nve = jrc_and_nve()
    error = refused(tmp_path, nve, '[names]\nN9999 = "Borte"\n')
    assert 'names: plant "N9999" is not in the snapshot' in error


def test_a_snapshot_naming_one_plant_by_two_ids_is_refused(tmp_path: Path):
    jrc, nve = jrc_and_nve()
    error = refused(tmp_path, [*jrc[:60], nve[0]], "")
    # The snapshot's reader names the file and both rows (as ingest would have refused it).
    assert "plants.csv: rows 2 and 3: ids '101' and 'N101' are one plant (key 101)" in error


def test_keep_from_a_jrc_deck_with_an_nve_snapshot_keeps_every_place(tmp_path: Path):
    jrc, nve = jrc_and_nve()
    write_synthetic_snapshot(tmp_path / "jrc.csv", jrc)
    write_synthetic_snapshot(tmp_path / "nve.csv", nve)
    spec = tmp_path / "deck.toml"
    spec.write_text('snapshot = "jrc.csv"\n', encoding="utf-8")
    build(spec, tmp_path / "old")
    spec.write_text('snapshot = "nve.csv"\n', encoding="utf-8")
    report = build(spec, tmp_path / "new", "--keep-from", str(tmp_path / "old" / "deck.json"))
    assert "52 plants keep their suit and value; 0 left, 0 entered" in report
    old, new = (load_deck(tmp_path / d / "deck.json") for d in ("old", "new"))
    assert {plant_key(c.plant_id or ""): c.id for c in old.plant_cards} == {
        plant_key(c.plant_id or ""): c.id for c in new.plant_cards
    }
    diff = runner.invoke(app, ["diff", str(tmp_path / "old" / "deck.json"),
                               str(tmp_path / "new" / "deck.json")])  # fmt: skip
    assert (
        "plants entering the deck: 0" in diff.stdout and "plants leaving the deck: 0" in diff.stdout
    )


def test_most_of_a_kept_deck_leaving_says_so_loudly_and_names_the_cause(tmp_path: Path):
    jrc, nve = jrc_and_nve()
    other = [p.model_copy(update={"id": f"X{i}", "source_id": f"X{i}"}) for i, p in enumerate(nve)]
    write_synthetic_snapshot(tmp_path / "jrc.csv", jrc)
    write_synthetic_snapshot(tmp_path / "other.csv", other)
    spec = tmp_path / "deck.toml"
    spec.write_text('snapshot = "jrc.csv"\n', encoding="utf-8")
    build(spec, tmp_path / "old")
    spec.write_text('snapshot = "other.csv"\n', encoding="utf-8")
    report = build(spec, tmp_path / "new", "--keep-from", str(tmp_path / "old" / "deck.json"))
    assert "WARNING: 52 of the 52 plants of" in report
    assert "are in it by name, under other ids" in report
    assert "the snapshot numbers its plants differently" in report


def test_repair_and_validate_see_one_plant_under_two_spellings():
    deck = synthetic_deck()
    first, second = deck.plant_cards[0], deck.plant_cards[1]
    second.plant_id = (first.plant_id or "").removeprefix("N")
    with pytest.raises(ValidationFailed) as info:
        repair_deck(deck, "deck.csv")
    assert any(f"also on {first.id} (as {first.plant_id})" in p for p in info.value.problems)
    report = validate_deck(deck, "deck.json")
    assert any(p.rule == "duplicate_plant" for p in report.errors)


def test_diff_matches_plants_by_key(tmp_path: Path):
    old = synthetic_deck()
    new = synthetic_deck()
    for card in new.plant_cards:
        card.plant_id = (card.plant_id or "").removeprefix("N")
    result = runner.invoke(app, ["diff", str(write_deck(old, tmp_path / "a")[0]),
                                 str(write_deck(new, tmp_path / "b")[0]), "--json"])  # fmt: skip
    assert result.exit_code == 0, result.output
    assert '"entered": []' in result.stdout and '"reprint": 0' in result.stdout
