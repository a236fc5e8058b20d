"""deck.json / deck.csv: round trip, spreadsheet-friendly CSV, clear errors on bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kraftstokk.deck.io import CSV_COLUMNS, build_id, load_deck, stamped, write_deck
from kraftstokk.errors import InputFileError
from tests.conftest import synthetic_deck


def test_round_trip_json_csv_and_xlsx(tmp_path: Path):
    from tests.test_deck_spreadsheet import clean_deck

    deck = clean_deck()  # figures as a source gives them: a workbook keeps 16 digits
    json_path, csv_path = write_deck(deck, tmp_path / "out")
    deck = stamped(deck)  # the files carry the deck's build id
    assert load_deck(json_path) == deck
    assert load_deck(csv_path) == deck  # the cards, and the details from the deck.json beside
    assert load_deck(tmp_path / "out" / "deck.xlsx") == deck
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == [
        "deck.csv",
        "deck.json",
        "deck.xlsx",
    ]


def test_csv_is_utf8_with_bom_plain_columns_and_one_row_per_card(tmp_path: Path):
    _, csv_path = write_deck(synthetic_deck(), tmp_path)
    data = csv_path.read_bytes()
    assert data.startswith(b"\xef\xbb\xbf")
    text = data.decode("utf-8-sig")
    lines = text.splitlines()
    assert lines[0].split(",") == list(CSV_COLUMNS)
    assert {"nr_mw", "nr_gwh", "nr_head_m"} <= set(CSV_COLUMNS)
    assert len(lines) == 56
    assert "Nedre Røssåga" in text and "kløver" in text


def test_no_build_id_reads_as_a_number_in_a_spreadsheet():
    """A spreadsheet reads a cell of digits (or digits, e, digits) as a number and saves
    it back otherwise (``240999173616`` as ``2.40999E+11``): the table's build id would no
    longer be its deck.json's, and the right pair refused. 12 bare hex digits did so for
    7 of these 1000 decks."""
    from kraftstokk.models import Deck, SnapshotInfo

    for number in range(1000):
        deck = Deck(title=f"deck {number}", edition="", snapshot=SnapshotInfo(path=""), spec={},
                    cards=[])  # fmt: skip
        with pytest.raises(ValueError):
            float(build_id(deck))


def test_json_keys_follow_the_file_contract(tmp_path: Path):
    json_path, _ = write_deck(synthetic_deck(), tmp_path)
    raw = json.loads(json_path.read_text(encoding="utf-8"))
    assert set(raw) == {"title", "edition", "snapshot", "spec", "cards", "build"}
    assert raw["build"] == build_id(synthetic_deck())
    card = raw["cards"][0]
    assert {"id", "joker", "suit", "value", "plant_id", "name", "mw", "gwh", "head_m", "nr",
            "flags"} <= set(card)  # fmt: skip
    assert set(card["nr"]) == {"mw", "gwh", "head_m"}
    joker = raw["cards"][-1]
    assert joker["joker"] is True and joker["mw"] is None and joker["suit"] is None


def test_write_is_atomic_and_leaves_the_old_deck_on_failure(tmp_path: Path, monkeypatch):
    deck = synthetic_deck()
    write_deck(deck, tmp_path)
    before = (tmp_path / "deck.csv").read_bytes()

    def broken(_deck, _style=None):
        raise RuntimeError("disk full")

    monkeypatch.setattr("kraftstokk.deck.io.deck_csv_text", broken)
    with pytest.raises(RuntimeError):
        write_deck(deck, tmp_path)
    assert (tmp_path / "deck.csv").read_bytes() == before
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


@pytest.mark.parametrize(
    ("name", "content", "reason"),
    [
        ("deck.json", b"", "file is empty"),
        ("deck.json", b"{not json", "not valid JSON"),
        ("deck.json", b'{"title": "x"}', "no 'cards' list"),
        ("deck.json", b"[" * 100_000 + b"]" * 100_000, "nested too deeply"),
        ("deck.json", b'{"title": "x", "edition": "1", "snapshot": {"path": "s"}, "cards": [1]}',
         "not a deck: cards.0"),
        ("deck.csv", b"\x00\x01\x02", "binary file"),
        ("deck.csv", b"\xff\xfe\xfa", "not valid UTF-16"),
        ("deck.csv", b"a,b\n1,2\n", "missing columns id, joker"),
        ("deck.txt", b"hello", "expected a .json, .csv or .xlsx suffix"),
    ],
)  # fmt: skip
def test_unreadable_input_names_file_and_reason(tmp_path: Path, name, content, reason):
    path = tmp_path / name
    path.write_bytes(content)
    with pytest.raises(InputFileError, match=reason) as caught:
        load_deck(path)
    assert str(path) in str(caught.value) and caught.value.exit_code == 2


def test_missing_file_and_bad_cell(tmp_path: Path):
    with pytest.raises(InputFileError, match="no such file"):
        load_deck(tmp_path / "deck.json")
    _, csv_path = write_deck(synthetic_deck(), tmp_path)
    text = csv_path.read_text(encoding="utf-8-sig").replace("spar,1,", "spar,one,", 1)
    csv_path.write_text(text, encoding="utf-8")
    with pytest.raises(
        InputFileError, match=r"line 2: value of spar-1 \(Tonstad\) reads \"one\", not a number"
    ):
        load_deck(csv_path)


def test_csv_without_bom_and_with_spreadsheet_booleans(tmp_path: Path):
    deck = synthetic_deck()
    _, csv_path = write_deck(deck, tmp_path)
    text = csv_path.read_text(encoding="utf-8-sig").replace(",false,", ",FALSE,")
    csv_path.write_text(text, encoding="utf-8")
    assert load_deck(csv_path).cards == deck.cards


@pytest.mark.parametrize("delimiter", [";", "\t"])
def test_csv_saved_by_a_spreadsheet_with_other_separator_and_decimal_commas(
    tmp_path: Path, delimiter: str
):
    import csv
    import io

    deck = synthetic_deck()
    _, csv_path = write_deck(deck, tmp_path)
    rows = list(csv.reader(io.StringIO(csv_path.read_text(encoding="utf-8-sig"), newline="")))
    figures = {CSV_COLUMNS.index(c) for c in ("mw", "gwh", "head_m")}
    rows = [[cell.replace(".", ",") if i in figures else cell for i, cell in enumerate(row)]
            for row in rows]  # fmt: skip
    assert any("," in row[i] for row in rows[1:] for i in figures)
    out = io.StringIO()
    csv.writer(out, delimiter=delimiter, lineterminator="\r\n").writerows(rows)
    csv_path.write_text(out.getvalue(), encoding="utf-8")
    assert load_deck(csv_path).cards == deck.cards
