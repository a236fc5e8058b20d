"""Places for new plants (issue 33 item 12): a place stated with its own source, by
``places --add`` or a table with a ``source`` column, credited on that plant's card
within the credit line's space; coordinates an NVE file carries are not credited to NVE.
"""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

from typer.testing import CliRunner

from kraftstokk.cli import app
from kraftstokk.deck.io import load_deck
from kraftstokk.design.layout import load_layout
from kraftstokk.design.printed import printed_faces
from kraftstokk.sources.formats.origins import NVE

SOURCES = Path(__file__).resolve().parents[1] / "sources"
FIXTURES = Path(__file__).resolve().parent / "fixtures" / "sources"
runner = CliRunner()
KARTVERKET = "Kartverket, CC BY 4.0"


def invoke(*args: object):
    return runner.invoke(app, [str(arg) for arg in args])


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def with_a_new_plant(folder: Path) -> Path:
    """The shipped spec and place table beside a snapshot with one new large plant that
    no place table knows (as a new plant in NVE's API would be); the spec's path."""
    for name in ("deck.toml", "plant-places.csv", "plant-places.provenance.json"):
        shutil.copy(SOURCES / name, folder / name)
    lines = (SOURCES / "jrc-2024-01.csv").read_text(encoding="utf-8").splitlines()
    lines.append("7311,Nyanlegg,900,3000,600,,,,,,,,,nve,7311")
    (folder / "jrc-2024-01.csv").write_text("\n".join(lines) + "\n", encoding="utf-8")
    provenance = json.loads((SOURCES / "jrc-2024-01.provenance.json").read_text("utf-8"))
    provenance["csv_sha256"] = None  # edited by hand
    # Credited as a snapshot fetched from NVE is (the yearly update's source).
    provenance.update(licence=NVE.licence, attribution=NVE.attribution,
                      attribution_nb=NVE.attribution_nb)  # fmt: skip
    (folder / "jrc-2024-01.provenance.json").write_text(json.dumps(provenance), "utf-8")
    return folder / "deck.toml"


def test_a_new_plant_gets_its_place_with_its_own_source_credited_on_its_card_only(
    tmp_path: Path,
):
    spec = with_a_new_plant(tmp_path)
    first = invoke("build", "--spec", spec, "--out", tmp_path / "before")
    assert first.exit_code == 0, first.output
    assert "warning: no place for 1 plant" in first.stdout and "Nyanlegg (7311)" in first.stdout
    assert "kraftstokk places --add PLANT --lat LAT --lon LON --type TYPE" in first.stdout
    assert "add a place table to the spec's carry_from" not in first.stdout  # it has one

    table = tmp_path / "plant-places.csv"
    before = table.read_text(encoding="utf-8")
    added = invoke(
        "places", "--add", "7311", "--lat", "60.40", "--lon", "6.20", "--type", "reservoir",
        "--source", KARTVERKET, "--out", table, "--created", "2026-12-05",
    )  # fmt: skip
    assert added.exit_code == 0, added.output
    assert f"added plant 7311 in {table} (279 plants), its source {KARTVERKET!r}" in added.stdout
    after = table.read_text(encoding="utf-8").splitlines()
    assert after[0] == "key,lat,lon,type,source"
    assert after[-1] == f'7311,60.4,6.2,reservoir,"{KARTVERKET}"'
    assert [line + "," for line in before.splitlines()[1:]] == after[1:-1]  # the rest as was

    second = invoke("build", "--spec", spec, "--out", tmp_path / "after")
    assert second.exit_code == 0, second.output
    assert "validation: 0 errors" in second.stdout
    assert "1 plant(s) carry a place stated with its own source" in second.stdout
    new = load_deck(tmp_path / "after" / "deck.json")
    card = next(c for c in new.plant_cards if c.plant_id == "7311")
    assert (card.lat, card.lon, card.type) == (60.4, 6.2, "reservoir")
    assert KARTVERKET not in (new.snapshot.attribution_nb or "")  # not on every card
    assert "Kartverket" in (new.snapshot.attribution or "")  # the booklet's full credit

    faces = printed_faces(new, load_layout("poker"))
    own = faces[card.id]["small_print"]
    assert own.endswith("Data: Inneholder data fra NVE, NLOD. Kart: / Kartverket, CC BY 4.0.")
    assert own.count(" / ") == 2  # title line and two credit lines, as on every card
    others = {f["small_print"] for cid, f in faces.items() if cid != card.id}
    assert len(others) == 1 and "Kartverket" not in others.pop()

    # The place costs that one face alone, as diff and the print say.
    verdict = invoke("diff", tmp_path / "before" / "deck.json", tmp_path / "after" / "deck.json")
    assert verdict.exit_code == 0, verdict.output
    assert verdict.stdout.splitlines()[-1].startswith("1 face of 55 must be reprinted")


def test_a_hand_written_place_table_is_read_when_every_row_states_its_source(tmp_path: Path):
    spec = with_a_new_plant(tmp_path)
    text = spec.read_text(encoding="utf-8")
    spec.write_text(
        text.replace('carry_from = ["plant-places.csv"]', 'carry_from = ["plant-places.csv", '
                     '"new-places.csv"]'), encoding="utf-8"
    )  # fmt: skip
    hand = tmp_path / "new-places.csv"
    hand.write_text("key,lat,lon,type\n7311,60.40,6.20,reservoir\n", encoding="utf-8")
    refused = invoke("build", "--spec", spec, "--out", tmp_path / "out")
    assert refused.exit_code == 2
    assert (
        f"{hand}: has no provenance (new-places.provenance.json) and line(s) 2 state no "
        "source: give every row its source in a source column (key,lat,lon,type,source"
    ) in refused.stderr
    assert not (tmp_path / "out").exists()
    hand.write_text(
        f'key,lat,lon,type,source\n7311,60.40,6.20,reservoir,"{KARTVERKET}"\n', encoding="utf-8"
    )
    result = invoke("build", "--spec", spec, "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    deck = load_deck(tmp_path / "out" / "deck.json")
    assert deck.snapshot.card_credits["7311"].endswith(f"Kart: {KARTVERKET}.")


def test_coordinates_in_an_nve_file_are_not_credited_to_nve(tmp_path: Path):
    """NVE publishes no coordinates: an NVE export with coordinates added got them from
    someone, who --source names; without it they are left out, and said."""
    lines = (FIXTURES / "nve-export-semicolon.csv").read_text(encoding="utf-8").splitlines()
    lines[0] += ";Breddegrad;Lengdegrad;VannKVType"
    lines[1:] = [f"{line};6{i},5;8,5;Pumpekraftverk" for i, line in enumerate(lines[1:])]
    nve = tmp_path / "nve.csv"
    nve.write_text("\n".join(lines) + "\n", encoding="utf-8")
    out = tmp_path / "places.csv"
    unsourced = invoke("places", nve, "--out", out, "--created", "2026-12-05")
    assert unsourced.exit_code == 0, unsourced.output
    assert "left out the coordinates of 7 plants (their types kept)" in unsourced.stdout
    assert "with a place" in unsourced.stdout and "0 with a place" in unsourced.stdout
    assert all(line.split(",")[1] == "" for line in out.read_text("utf-8").splitlines()[1:])

    sourced = invoke(
        "places", nve, "--out", out, "--created", "2026-12-05", "--source", "Eget kart (2026)"
    )
    assert sourced.exit_code == 0, sourced.output
    rows = out.read_text(encoding="utf-8").splitlines()
    assert rows[0] == "key,lat,lon,type,source"
    assert rows[1] == "222,61.5,8.5,pumped-storage,Eget kart (2026)"


def test_add_refuses_what_it_cannot_credit_or_place(tmp_path: Path):
    table = tmp_path / "places.csv"
    for args, says in (
        (["--lat", "60", "--lon", "6"], "--add: give --source, who measured the place"),
        (["--lat", "60", "--source", "x"], "--add: a place needs both --lat and --lon"),
        (["--lat", "95", "--lon", "6", "--source", "x"], "--lat 95: must be a finite number"),
        (["--source", "x"], "--add: give the place (--lat and --lon), the --type, or both"),
    ):
        result = invoke("places", "--add", "7311", *args, "--out", table)
        assert result.exit_code == 2 and says in result.stderr, result.output
    assert not table.exists()
