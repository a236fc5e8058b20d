"""``render --only tabletop``: the deck for Tabletop Simulator (a 10 × 7 face sheet, the
back, a saved object) and single card images with a manifest for other tabletops.

The saved object is checked against the fields Tabletop Simulator's save format gives a
custom deck (its Knowledge Base, "Save File Format": SaveState → ObjectStates → an
object with Name "DeckCustom", DeckIDs, CustomDeck {FaceURL, BackURL, NumWidth,
NumHeight, BackIsHidden, UniqueBack, Type} and ContainedObjects of Name "Card" with
CardID = deck key × 100 + the sheet cell), and the sheet is read cell by cell: cell N
shows card N.
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import numpy as np
import pytest
from PIL import Image
from typer.testing import CliRunner

from kraftstokk.cli import app
from kraftstokk.design.layout import load_layout
from kraftstokk.models import Deck
from kraftstokk.render.tabletop import (
    BACK_IMAGE_NAME,
    SAVE_NAME,
    SHEET_COLUMNS,
    SHEET_NAME,
    SHEET_ROWS,
    TabletopFiles,
    cell_size,
    tabletop_files,
)
from tests.conftest import synthetic_deck
from tests.test_hostile_inputs import one_error_line

runner = CliRunner()
#: The fields Tabletop Simulator writes for a custom deck and its cards.
DECK_FIELDS = {"Name", "Transform", "Nickname", "Description", "DeckIDs", "CustomDeck",
               "ContainedObjects", "GUID"}  # fmt: skip
CUSTOM_DECK_FIELDS = {"FaceURL", "BackURL", "NumWidth", "NumHeight", "BackIsHidden",
                      "UniqueBack", "Type"}  # fmt: skip
CARD_FIELDS = {"Name", "Transform", "Nickname", "Description", "CardID", "CustomDeck", "GUID"}
TRANSFORM_FIELDS = {f"{kind}{axis}" for kind in ("pos", "rot", "scale") for axis in "XYZ"}


@pytest.fixture(scope="module")
def deck() -> Deck:
    return synthetic_deck()


@pytest.fixture(scope="module")
def made(deck: Deck) -> TabletopFiles:
    return tabletop_files(deck, base_url="https://example.org/kraftstokk/")


def _image(made: TabletopFiles, name: str) -> Image.Image:
    return Image.open(io.BytesIO(made.files[name])).convert("RGB")


def test_the_saved_object_is_what_tabletop_simulator_reads(deck: Deck, made: TabletopFiles):
    save = json.loads(made.files[SAVE_NAME])
    assert {"SaveName", "ObjectStates", "LuaScript", "XmlUI"} <= set(save)
    (deck_object,) = save["ObjectStates"]
    assert set(deck_object) >= DECK_FIELDS and deck_object["Name"] == "DeckCustom"
    assert set(deck_object["Transform"]) == TRANSFORM_FIELDS
    custom = deck_object["CustomDeck"]
    assert list(custom) == ["1"] and set(custom["1"]) == CUSTOM_DECK_FIELDS
    sheet = custom["1"]
    assert sheet["FaceURL"] == f"https://example.org/kraftstokk/{SHEET_NAME}"
    assert sheet["BackURL"] == f"https://example.org/kraftstokk/{BACK_IMAGE_NAME}"
    assert (sheet["NumWidth"], sheet["NumHeight"]) == (SHEET_COLUMNS, SHEET_ROWS) == (10, 7)
    assert sheet["BackIsHidden"] is False and sheet["UniqueBack"] is False
    assert isinstance(sheet["Type"], int)
    cards = deck_object["ContainedObjects"]
    assert len(cards) == len(deck.cards) == 55
    assert deck_object["DeckIDs"] == [card["CardID"] for card in cards] == list(range(100, 155))
    for card, object_ in zip(deck.cards, cards, strict=True):
        assert set(object_) >= CARD_FIELDS and object_["Name"] == "Card"
        assert object_["Nickname"] == (card.name or "Joker")
        assert object_["CustomDeck"] == custom
    assert cards[0]["Description"] == f"{deck.cards[0].suit} ess"
    guids = [deck_object["GUID"], *(card["GUID"] for card in cards)]
    assert len(set(guids)) == len(guids) and all(len(g) == 6 for g in guids)
    int(guids[0], 16)


def test_sheet_cell_n_shows_card_n_and_the_last_cell_the_hidden_card(
    deck: Deck, made: TabletopFiles
):
    """Each cell of the sheet is compared with every single card image (scaled to a cell):
    the nearest is the card of the same number (a joker: the three jokers, alike); the
    last cell is the back."""
    width, height = cell_size(load_layout("poker"))
    sheet = _image(made, SHEET_NAME)
    assert sheet.size == (SHEET_COLUMNS * width, SHEET_ROWS * height) == (4090, 4011)
    assert max(sheet.size) <= 4096
    singles = [name for name in made.files if name.startswith("cards/") and name.endswith(".png")]
    assert len(singles) == 56  # 55 faces and the back
    small = (width // 5, height // 5)  # compared a fifth of a cell's size: enough to tell
    references = np.stack([
        np.asarray(_image(made, name).resize(small, Image.Resampling.BOX), np.int16)
        for name in sorted(singles)  # 01-…, …, 55-…, back.png last
    ])  # fmt: skip
    cells = [*range(len(deck.cards)), SHEET_COLUMNS * SHEET_ROWS - 1]
    for number, cell in enumerate(cells):
        row, column = divmod(cell, SHEET_COLUMNS)
        box = (column * width, row * height, (column + 1) * width, (row + 1) * height)
        picture = np.asarray(sheet.crop(box).resize(small, Image.Resampling.BOX), np.int16)
        distance = np.abs(references - picture).mean(axis=(1, 2, 3))
        assert distance[number] == distance.min() and distance[number] < 6.0, cell
        twins = 3 if number < len(deck.cards) and deck.cards[number].joker else 1
        assert int((distance <= distance[number] + 1.0).sum()) == twins, cell  # the 3 jokers
    back = _image(made, BACK_IMAGE_NAME)
    assert back.size == (width, height)


def test_the_single_images_and_their_manifest(deck: Deck, made: TabletopFiles):
    manifest = json.loads(made.files["cards/manifest.json"])
    rows = list(csv.DictReader(io.StringIO(made.files["cards/manifest.csv"].decode("utf-8"))))
    assert len(rows) == len(manifest["cards"]) == 55
    for position, (card, row, entry) in enumerate(
        zip(deck.cards, rows, manifest["cards"], strict=True), start=1
    ):
        assert row["front"] == entry["front"] and f"cards/{row['front']}" in made.files
        assert int(row["position"]) == entry["position"] == position
        assert row["name"] == (card.name or "Joker") and row["back"] == "back.png"
    with _image(made, "cards/01-spar-1.png") as first:
        assert first.size == (750, 1050)  # the card at cut size, 300 dpi
    assert "Saved Objects" in made.files["README.txt"].decode("utf-8")


def test_same_deck_same_bytes(deck: Deck, made: TabletopFiles):
    again = tabletop_files(synthetic_deck(), base_url="https://example.org/kraftstokk/")
    assert again.files == made.files


def test_render_only_tabletop_writes_the_folder(tmp_path: Path, deck: Deck):
    path = tmp_path / "deck.json"
    path.write_text(deck.model_dump_json(), encoding="utf-8")
    out = tmp_path / "out"
    result = runner.invoke(app, ["render", str(path), "--out", str(out), "--only", "tabletop"])
    assert result.exit_code == 0, result.output
    assert "wrote 62 files in" in result.output and "README.txt" in result.output
    folder = out / "tabletop"
    assert sorted(p.name for p in folder.iterdir()) == sorted(
        ["README.txt", "cards", SAVE_NAME, SHEET_NAME, BACK_IMAGE_NAME]
    )
    sheet_url = json.loads((folder / SAVE_NAME).read_text("utf-8"))["ObjectStates"][0][
        "CustomDeck"
    ]["1"]["FaceURL"]
    assert sheet_url == (folder / SHEET_NAME).resolve().as_uri()  # the files here, by default
    assert not (out / "png").exists() and not list(out.glob("*.pdf"))
    refused = runner.invoke(
        app,
        ["render", str(path), "--out", str(out), "--only", "tabletop", "--only-changed",
         str(path)],
    )  # fmt: skip
    one_error_line(refused, 2, "a virtual tabletop loads the deck whole")
