"""The README's yearly update from NVE's API: fetch over loopback, then keep the JRC deck.

The server answers in NVE's own shape (all 32 fields, ids without JRC's N, no
coordinates, "Kraftverk" as the type) for the plants of the embedded JRC snapshot, so
every place must be kept, every map and type carried, and the verdict must name the
edition and the new data credit as what reprints every face.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kraftstokk.cli import app
from kraftstokk.deck.io import load_deck
from kraftstokk.models import Deck
from kraftstokk.sources.plant_keys import plant_key
from kraftstokk.sources.snapshot import read_snapshot, read_snapshot_plants
from tests.loopback import LoopbackServer, Reply
from tests.nve_shape import NVE_FIELDS, nve_answer

runner = CliRunner()
SOURCES = Path(__file__).resolve().parents[1] / "sources"


def run(*args: str) -> str:
    result = runner.invoke(app, list(args))
    assert result.exit_code == 0, result.output
    return result.stdout


def yearly_spec(folder: Path, snapshot: Path, edition: str) -> Path:
    """The shipped spec with this year's snapshot and edition (its names and places kept)."""
    text = (SOURCES / "deck.toml").read_text(encoding="utf-8")
    text = re.sub(r'^snapshot = ".*"$', f'snapshot = "{snapshot.as_posix()}"', text, flags=re.M)
    text = re.sub(r'^edition = ".*"$', f'edition = "{edition}"', text, flags=re.M)
    places = (SOURCES / "plant-places.csv").as_posix()
    text = re.sub(r"^carry_from = .*$", f'carry_from = ["{places}"]', text, flags=re.M)
    spec = folder / "deck.toml"
    spec.write_text(text, encoding="utf-8")
    return spec


def by_key(deck: Deck) -> dict[str, tuple[str, float | None, float | None, str | None, str]]:
    return {
        plant_key(c.plant_id or ""): (c.id, c.lat, c.lon, c.type, c.name or "")
        for c in deck.plant_cards
    }


@pytest.fixture
def fetched(server: LoopbackServer, tmp_path: Path) -> Path:
    """This year's NVE snapshot, fetched from a loopback server in NVE's shape."""
    plants = read_snapshot_plants(SOURCES / "jrc-2024-01.csv")
    url = server.serve(
        "/web/Powerplant/GetHydroPowerPlantsInOperation", Reply(body=nve_answer(plants))
    )
    out = tmp_path / "sources" / "nve-2026-11.csv"
    out.parent.mkdir()
    report = run("fetch", "--url", url, "--out", str(out), "--backoff", "0.01")
    assert f"rows read: {len(plants) + 2}" in report
    return out


def test_the_fixture_has_every_field_nve_publishes():
    records = json.loads(nve_answer(read_snapshot_plants(SOURCES / "jrc-2024-01.csv")[:3]))
    assert all(tuple(record) == NVE_FIELDS for record in records)
    assert len(NVE_FIELDS) == 32 and records[0]["VannKVType"] == "Kraftverk"


def test_fetched_nve_plants_have_nve_ids_no_places_and_no_type_but_pumped_storage(fetched):
    snapshot = read_snapshot(fetched)
    jrc = {plant_key(p.id): p for p in read_snapshot_plants(SOURCES / "jrc-2024-01.csv")}
    assert {plant_key(p.id) for p in snapshot.plants} == set(jrc)
    assert all(not p.id.startswith("N") and p.lat is None for p in snapshot.plants)
    types = {p.type for p in snapshot.plants}
    assert types == {None, "pumped-storage"}  # "Kraftverk" says neither reservoir nor river
    assert snapshot.provenance.quality.dropped == {"gwh missing": 2}  # the pumps


def test_a_jrc_deck_rebuilt_from_the_fetched_nve_snapshot_keeps_every_place_and_map(
    fetched, tmp_path
):
    old_dir, new_dir = tmp_path / "print-2024", tmp_path / "print-2026"
    run("build", "--spec", str(SOURCES / "deck.toml"), "--out", str(old_dir))
    spec = yearly_spec(tmp_path, fetched, "2026-11")
    report = run("build", "--spec", str(spec), "--keep-from", str(old_dir / "deck.json"),
                 "--out", str(new_dir))  # fmt: skip
    assert "52 plants keep their suit and value; 0 left, 0 entered" in report
    assert "WARNING" not in report and "no place for" not in report
    old, new = load_deck(old_dir / "deck.json"), load_deck(new_dir / "deck.json")
    pumped = sum(1 for card in old.plant_cards if card.type == "pumped-storage")
    assert pumped  # NVE says "Pumpekraftverk" itself: the snapshot's own type is kept
    carried = f"print-2024/deck.json: place of 52; type of {52 - pumped}"
    assert re.search(rf"from .*{carried}", report)
    assert by_key(new) == by_key(old)  # card, place, type and [names] name of every plant
    assert all(not (c.plant_id or "N").startswith("N") for c in new.plant_cards)
    # The cards credit NVE for the figures and JRC for the places, in bokmål.
    assert new.snapshot.attribution_nb is not None
    assert new.snapshot.attribution_nb.startswith("Inneholder data fra NVE")
    assert "Kart: JRC Hydro-power database" in new.snapshot.attribution_nb
    run("validate", str(new_dir / "deck.json"))

    diff = json.loads(run("diff", str(old_dir / "deck.json"), str(new_dir / "deck.json"), "--json"))
    assert diff["entered"] == diff["left"] == []
    assert diff["reprint"] == 55 and diff["reprint_back"] is True
    kinds = {cause["kind"]: cause for cause in diff["verdict"]["causes"]}
    assert set(kinds) == {"edition", "credit"}
    assert kinds["edition"]["back"] and len(kinds["edition"]["faces"]) == 55
    assert not kinds["credit"]["back"] and len(kinds["credit"]["faces"]) == 55
    # Keeping the edition still reprints every face: the data credit is on each of them.
    assert diff["verdict"]["keep_edition"] is None
    assert diff["summary"] == (
        "all 55 faces and the back must be reprinted: the edition is printed on every face "
        "and the back"
    )


def test_a_fresh_build_from_nve_takes_places_and_types_from_the_place_table(fetched, tmp_path):
    spec = yearly_spec(tmp_path, fetched, "2026-11")
    report = run("build", "--spec", str(spec), "--out", str(tmp_path / "fresh"))
    assert re.search(r"from .*plant-places.csv: place of 52; type of \d+", report)
    deck = load_deck(tmp_path / "fresh" / "deck.json")
    jrc = load_deck(run_default(tmp_path))
    assert {k: v[1:4] for k, v in by_key(deck).items()} == {
        k: v[1:4] for k, v in by_key(jrc).items()
    }


def run_default(tmp_path: Path) -> Path:
    run("build", "--spec", str(SOURCES / "deck.toml"), "--out", str(tmp_path / "jrc"))
    return tmp_path / "jrc" / "deck.json"
