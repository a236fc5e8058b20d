"""The deck for virtual tabletops: Tabletop Simulator's deck sheet and saved object, and a
folder of single card images with a manifest for Tabletopia, Screentop and the like.

Tabletop Simulator (TTS) builds a custom deck from one face sheet, a grid of at most
10 × 7 cards whose last cell (bottom right) is the "hidden" card it shows for a card in
another player's hand, and one back image (Tabletop Simulator Knowledge Base, "Custom
Deck" and "Asset Creation": sheets up to 4096 px a side, RGB, PNG or JPG). A card is
named in a save by its CardID: the deck's key times 100 plus its cell, counted from 0
left to right, top to bottom. Card N of the deck (from 1) is in cell N - 1, so its
CardID is 100 + N - 1 in the deck keyed 1.

The saved object (``kraftstokk-tts.json``) is a TTS save file holding one object, a
``DeckCustom`` with the 55 cards as ``Card`` objects in deck order, each with its name
(``Nickname``) and what it is (``Description``). Put it in TTS's Saved Objects folder
and the deck appears under Objects → Saved Objects. The images are named by URL: by
default the files themselves (``file:///…``, for playing on this computer); for a
table shared over the internet they must be on the web (``--tabletop-url`` names where
the folder is put, or use TTS's Cloud Manager, which rewrites the URLs).

Same deck, same bytes: the images are drawn from the same PDF as the previews, the JSON
is written with sorted keys and a GUID derived from the deck.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import pypdfium2 as pdfium
from PIL import Image

from kraftstokk.design.layout import CardLayout
from kraftstokk.design.printed import deck_layout
from kraftstokk.errors import OutputError, RenderError
from kraftstokk.models import VALUE_NAMES, Card, Deck
from kraftstokk.progress import Counter, Progress
from kraftstokk.render.preview import BACK_NAME, card_png_name, faces_pdf, png_bytes

#: TTS: a deck sheet is at most 10 cards wide and 7 high; its last cell is the hidden card.
SHEET_COLUMNS = 10
SHEET_ROWS = 7
#: TTS draws images up to 4096 px a side: the widest card cell that keeps the sheet within.
SHEET_MAX_PX = 4096
#: The deck's key in the save (its CustomDeck entry); CardIDs are this × 100 + the cell.
DECK_KEY = 1
FOLDER = "tabletop"
SHEET_NAME = "kraftstokk-tts-faces.png"
BACK_IMAGE_NAME = "kraftstokk-tts-back.png"
SAVE_NAME = "kraftstokk-tts.json"
CARDS_FOLDER = "cards"
MANIFEST_JSON = "manifest.json"
MANIFEST_CSV = "manifest.csv"
README_NAME = "README.txt"
#: The single images for Tabletopia and Screentop: the card at cut size, 300 dpi.
SINGLE_DPI = 300
#: Where the deck lies on the table, and how it lies: face down (a half turn about z).
TRANSFORM = {
    "posX": 0.0, "posY": 1.0, "posZ": 0.0, "rotX": 0.0, "rotY": 180.0, "rotZ": 180.0,
    "scaleX": 1.0, "scaleY": 1.0, "scaleZ": 1.0,
}  # fmt: skip


@dataclass(frozen=True)
class TabletopFiles:
    """What :func:`tabletop_files` makes: file name (inside the tabletop folder) -> bytes."""

    files: dict[str, bytes]
    cell: tuple[int, int]  # one card's cell on the sheet, in pixels


def cell_size(layout: CardLayout, columns: int = SHEET_COLUMNS) -> tuple[int, int]:
    """One card's pixels on the sheet: as wide as lets ``columns`` fit SHEET_MAX_PX, the
    height in the card's proportion (poker: 409 × 573, a sheet of 4090 × 4011)."""
    width = SHEET_MAX_PX // columns
    return width, round(width * layout.height / layout.width)


def card_id(position: int) -> int:
    """The TTS CardID of the card at ``position`` (from 1) of the deck."""
    return DECK_KEY * 100 + position - 1


def card_description(card: Card) -> str:
    """What a card is, in the deck's words (bokmål): "spar ess · Tonstad", "joker"."""
    if card.joker:
        return "joker"
    value = VALUE_NAMES.get(card.value or 0, str(card.value))
    return f"{card.suit} {value}"


def tabletop_files(
    deck: Deck,
    layout: CardLayout | None = None,
    base_url: str | None = None,
    folder: Path | None = None,
    progress: Progress | None = None,
) -> TabletopFiles:
    """Every file of the tabletop folder, in memory: the TTS sheet, back and saved object,
    the single images with their manifests, and a README saying how to load them.

    The images are named in the saved object by ``base_url`` (where the folder will be
    on the web), else by ``file://`` URLs of ``folder`` (where it is written).
    """
    layout = deck_layout(deck, layout)
    cards = deck.cards
    slots = SHEET_COLUMNS * SHEET_ROWS
    if len(cards) > slots - 1:
        raise RenderError(
            f"a Tabletop Simulator sheet holds {slots - 1} cards and the hidden card; "
            f"this deck has {len(cards)}"
        )
    cell = cell_size(layout)
    count = Counter(2 * len(cards) + 2, progress)
    document = pdfium.PdfDocument(faces_pdf(deck, layout))
    try:
        small: list[Image.Image] = []
        large: list[Image.Image] = []
        for index in range(len(cards) + 1):  # the faces, then the back
            page = document[index]
            width_pt = page.get_size()[0]
            small.append(_exact(page.render(scale=cell[0] / width_pt).to_pil(), cell))
            count.one()
            large.append(page.render(scale=SINGLE_DPI / 72).to_pil().convert("RGB"))
            count.one()
            page.close()
    finally:
        document.close()
    back = small.pop()
    back_large = large.pop()
    files: dict[str, bytes] = {
        SHEET_NAME: png_bytes(_sheet(small, back, cell)),
        BACK_IMAGE_NAME: png_bytes(back),
    }
    names = [card_png_name(position, card) for position, card in enumerate(cards, start=1)]
    for name, image in zip(names, large, strict=True):
        files[f"{CARDS_FOLDER}/{name}"] = png_bytes(image, SINGLE_DPI)
    files[f"{CARDS_FOLDER}/{BACK_NAME}"] = png_bytes(back_large, SINGLE_DPI)
    files[f"{CARDS_FOLDER}/{MANIFEST_JSON}"], files[f"{CARDS_FOLDER}/{MANIFEST_CSV}"] = _manifest(
        deck, names, layout
    )
    face_url, back_url = _urls(base_url, folder)
    files[SAVE_NAME] = saved_object(deck, face_url, back_url).encode("utf-8")
    files[README_NAME] = _readme(deck, cell).encode("utf-8")
    return TabletopFiles(files, cell)


def _exact(image: Image.Image, size: tuple[int, int]) -> Image.Image:
    """``image`` in RGB at exactly ``size`` (pdfium rounds a fraction of a pixel up)."""
    image = image.convert("RGB")
    return image if image.size == size else image.resize(size, Image.Resampling.LANCZOS)


def _sheet(faces: Sequence[Image.Image], hidden: Image.Image, cell: tuple[int, int]) -> Image.Image:
    """The face sheet: card N in cell N - 1 (rows left to right, top to bottom), the hidden
    card (the back: what others see of a card in a hand) in the last cell."""
    width, height = cell
    sheet = Image.new("RGB", (SHEET_COLUMNS * width, SHEET_ROWS * height), (255, 255, 255))
    for index, face in enumerate(faces):
        row, column = divmod(index, SHEET_COLUMNS)
        sheet.paste(face, (column * width, row * height))
    sheet.paste(hidden, ((SHEET_COLUMNS - 1) * width, (SHEET_ROWS - 1) * height))
    return sheet


def _urls(base_url: str | None, folder: Path | None) -> tuple[str, str]:
    if base_url is not None:
        base = base_url if base_url.endswith("/") else base_url + "/"
        return base + SHEET_NAME, base + BACK_IMAGE_NAME
    where = (folder or Path(FOLDER)).resolve()
    return (where / SHEET_NAME).as_uri(), (where / BACK_IMAGE_NAME).as_uri()


def saved_object(deck: Deck, face_url: str, back_url: str) -> str:
    """The TTS saved object: a save file whose one object is the deck, every card in deck
    order with its name, as the game writes a custom deck (SaveState, ObjectStates,
    DeckCustom, CustomDeck, DeckIDs, ContainedObjects)."""
    custom = {
        str(DECK_KEY): {
            "FaceURL": face_url,
            "BackURL": back_url,
            "NumWidth": SHEET_COLUMNS,
            "NumHeight": SHEET_ROWS,
            "BackIsHidden": False,  # the sheet's last cell is the hidden card
            "UniqueBack": False,
            "Type": 0,  # a rectangle with rounded corners
        }
    }
    guid = _guid(deck)
    cards = [
        {
            "Name": "Card",
            "Transform": TRANSFORM,
            "Nickname": card.name or "Joker",
            "Description": card_description(card),
            "CardID": card_id(position),
            "CustomDeck": custom,
            "SidewaysCard": False,
            "GUID": _guid(deck, card.id),
        }
        for position, card in enumerate(deck.cards, start=1)
    ]
    deck_object = {
        "Name": "DeckCustom",
        "Transform": TRANSFORM,
        "Nickname": f"{deck.title} {deck.edition}",
        "Description": f"{len(deck.plant_cards)} norske vannkraftverk og {len(deck.jokers)} jokere",
        "ColorDiffuse": {"r": 0.713, "g": 0.713, "b": 0.713},
        "Locked": False,
        "Grid": True,
        "Snap": True,
        "Autoraise": True,
        "Sticky": True,
        "Tooltip": True,
        "SidewaysCard": False,
        "HideWhenFaceDown": True,
        "DeckIDs": [card["CardID"] for card in cards],
        "CustomDeck": custom,
        "ContainedObjects": cards,
        "GUID": guid,
    }
    save = {
        "SaveName": f"{deck.title} {deck.edition}",
        "GameMode": "",
        "Date": "",
        "VersionNumber": "",
        "Gravity": 0.5,
        "PlayArea": 0.5,
        "Table": "",
        "Sky": "",
        "Note": "",
        "Rules": "",
        "XmlUI": "",
        "LuaScript": "",
        "LuaScriptState": "",
        "TabStates": {},
        "ObjectStates": [deck_object],
    }
    return json.dumps(save, indent=2, ensure_ascii=False, sort_keys=True) + "\n"


def _guid(deck: Deck, part: str = "") -> str:
    """A six-hex-digit GUID, as TTS writes them, the same for the same deck and card."""
    text = f"{deck.title}\x00{deck.edition}\x00{part}"
    return hashlib.sha1(text.encode("utf-8")).hexdigest()[:6]


def _manifest(deck: Deck, names: Sequence[str], layout: CardLayout) -> tuple[bytes, bytes]:
    """The single images listed: one row per card in deck order, with the back they share,
    as JSON and as CSV (the spreadsheet import Tabletopia and Screentop take)."""
    rows = [
        {
            "position": position,
            "id": card.id,
            "name": card.name or "Joker",
            "description": card_description(card),
            "front": name,
            "back": BACK_NAME,
            "count": 1,
        }
        for position, (card, name) in enumerate(zip(deck.cards, names, strict=True), start=1)
    ]
    document = {
        "deck": f"{deck.title} {deck.edition}",
        "card_mm": [layout.width, layout.height],
        "dpi": SINGLE_DPI,
        "back": BACK_NAME,
        "cards": rows,
    }
    as_json = json.dumps(document, indent=2, ensure_ascii=False, sort_keys=True) + "\n"
    table = io.StringIO()
    writer = csv.DictWriter(table, fieldnames=list(rows[0]), lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    return as_json.encode("utf-8"), table.getvalue().encode("utf-8")


def _readme(deck: Deck, cell: tuple[int, int]) -> str:
    count, grid = len(deck.cards), f"{SHEET_COLUMNS} x {SHEET_ROWS}"
    name = f"{deck.title} {deck.edition}"
    return f"""{name}: the deck for virtual tabletops (kraftstokk render --only tabletop)

Tabletop Simulator
  {SHEET_NAME}  the {count} faces on a {grid} sheet of {cell[0]} x {cell[1]} px
      cards, card N in cell N (left to right, top to bottom); the last cell is the
      hidden card (what others see of a card in your hand: the back).
  {BACK_IMAGE_NAME}  the back.
  {SAVE_NAME}  the deck as a saved object: the {count} cards, each with its name.
  To load it: copy {SAVE_NAME} into Tabletop Simulator's Saved Objects folder
  (Documents/My Games/Tabletop Simulator/Saves/Saved Objects), then in a game choose
  Objects > Saved Objects > {SAVE_NAME.removesuffix(".json")}. Its images point at the
  files here (file://), which works on this computer; for a table others join, upload
  the two images (Modding > Cloud Manager, or any web space) and render again with
  --tabletop-url URL naming where they are.
  By hand instead: Objects > Components > Cards > Custom Deck; Face: {SHEET_NAME},
  Back: {BACK_IMAGE_NAME}, Width {SHEET_COLUMNS}, Height {SHEET_ROWS}, Number {count},
  Back is Hidden off.

Tabletopia, Screentop and other tabletops that take one image per card
  {CARDS_FOLDER}/NN-<card>.png  each face at the card's size, {SINGLE_DPI} dpi, in deck order;
  {CARDS_FOLDER}/{BACK_NAME}  the back all cards share;
  {CARDS_FOLDER}/{MANIFEST_CSV} and {MANIFEST_JSON}  one row per card: position, id, name,
      description, front image, back image, count.
"""


def write_tabletop(
    deck: Deck,
    out_dir: Path,
    layout: CardLayout | None = None,
    base_url: str | None = None,
    progress: Progress | None = None,
) -> list[Path]:
    """Write the tabletop folder ``out_dir``/tabletop whole (replacing an older one whole)
    and return its files."""
    from kraftstokk.atomic import replaced_directory, write_bytes

    target = out_dir / FOLDER
    made = tabletop_files(deck, layout, base_url, target, progress)
    with replaced_directory(target, carry_over=lambda name: False) as staging:
        for name, data in made.files.items():
            path = staging / name
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise OutputError(path.parent, f"cannot create: {exc.strerror or exc}") from exc
            write_bytes(path, data)
    return [target / name for name in made.files]
