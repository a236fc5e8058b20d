"""The README's faces: docs/faces.png, four cards of the default deck side by side.

Run ``.venv/bin/python scripts/readme_faces.py [FOLDER]`` (default ``docs/``). It builds
the deck of ``sources/deck.toml`` and renders four plants whose pictures show the range:
Jostedal (the deck's highest head, 1 163 m: the water falls through the whole picture),
Kvilldal (the most effekt: the largest station), Saurdal (the pumped-storage plant: its
two reservoirs and the water going both ways) and Solbergfoss (21 m: it barely drops).
"""

from __future__ import annotations

import sys
from pathlib import Path

import pypdfium2 as pdfium
from PIL import Image

from kraftstokk.deck.build import build_from_spec_file
from kraftstokk.design.layout import load_layout
from kraftstokk.render.preview import faces_pdf

REPO = Path(__file__).resolve().parents[1]
PLANTS = ("Jostedal", "Kvilldal", "Saurdal", "Solbergfoss")
DPI = 150
GAP = 24  # pixels between the cards and around them


def faces_image() -> Image.Image:
    deck = build_from_spec_file(REPO / "sources" / "deck.toml").deck
    by_name = {card.name: card.id for card in deck.plant_cards}
    ids = [by_name[name] for name in PLANTS]
    document = pdfium.PdfDocument(faces_pdf(deck, load_layout("poker"), only=ids))
    order = [card.id for card in deck.cards if card.id in ids]
    faces = {card_id: document[i].render(scale=DPI / 72).to_pil() for i, card_id in
             enumerate(order)}  # fmt: skip
    width, height = faces[ids[0]].size
    sheet = Image.new("RGB", (len(ids) * (width + GAP) + GAP, height + 2 * GAP), (226, 229, 232))
    for i, card_id in enumerate(ids):
        sheet.paste(faces[card_id].convert("RGB"), (GAP + i * (width + GAP), GAP))
    return sheet


def main(folder: Path) -> None:
    target = folder / "faces.png"
    faces_image().save(target, optimize=True)
    print(f"wrote {target}")


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else REPO / "docs")
