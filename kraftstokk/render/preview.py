"""PNG previews: one image per card face at print resolution, and a contact sheet.

The faces are drawn into an in-memory PDF (one card per page, cut size) and rasterised
with pdfium, so the previews show exactly what the PDFs print, with no system libraries.
"""

from __future__ import annotations

import io
import re
from pathlib import Path

import pypdfium2 as pdfium
from PIL import Image
from reportlab.pdfgen.canvas import Canvas

from kraftstokk.atomic import write_bytes
from kraftstokk.errors import OutputError
from kraftstokk.models import Card, Deck
from kraftstokk.render.back import draw_back_local
from kraftstokk.render.card import draw_face_local, face_context
from kraftstokk.render.fonts import SANS, register_fonts
from kraftstokk.render.geometry import mm
from kraftstokk.render.layout import CardLayout, layout_name_of, load_layout

DPI = 300
CONTACT_COLUMNS = 8
CONTACT_REDUCE = 3  # the contact sheet shows cards at DPI / 3 = 100 dpi
CONTACT_GAP = 12  # pixels
PNG_LEVEL = 3  # zlib level: a little larger files, much faster than the default
BACK_NAME = "back.png"
CONTACT_NAME = "contact-sheet.png"
_OURS = re.compile(r"^(\d\d-[a-z0-9-]+\.png|back\.png|contact-sheet\.png)$")


def is_preview_file(name: str) -> bool:
    """A file name that :func:`write_previews` writes (the rest of a folder is left alone)."""
    return _OURS.match(name) is not None


def card_png_name(position: int, card: Card) -> str:
    """``07-klover-2.png``: deck position (from 1) and the card id in ASCII."""
    slug = card.id.replace("ø", "o").replace("æ", "ae").replace("å", "a")
    return f"{position:02d}-{slug}.png"


def faces_pdf(deck: Deck, layout: CardLayout | None = None) -> bytes:
    """Every face, then the back, one per page at cut size (no bleed).

    In ``layout``, by default the one the deck's ``[style] layout`` chooses.
    """
    register_fonts()
    layout = layout or load_layout(layout_name_of(deck.style()))
    buffer = io.BytesIO()
    canvas = Canvas(
        buffer, pagesize=(mm(layout.width), mm(layout.height)), invariant=1, initialFontName=SANS
    )
    ctx = face_context(deck, layout)
    none = (0.0, 0.0, 0.0, 0.0)
    for card in deck.cards:
        draw_face_local(canvas, card, ctx, none)
        canvas.showPage()
    draw_back_local(canvas, deck, layout, none)
    canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def _png(image: Image.Image) -> bytes:
    out = io.BytesIO()
    image.save(out, format="PNG", compress_level=PNG_LEVEL, dpi=(DPI, DPI))
    return out.getvalue()


def write_previews(
    deck: Deck, out_dir: Path, dpi: int = DPI, layout: CardLayout | None = None
) -> list[Path]:
    """Write ``out_dir``/NN-<card>.png, back.png and contact-sheet.png; return the paths.

    Cards are drawn in ``layout``, by default the deck's own (see :func:`faces_pdf`).

    Earlier previews of cards no longer in the deck are removed.
    """
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise OutputError(out_dir, f"cannot create directory: {exc.strerror or exc}") from exc
    document = pdfium.PdfDocument(faces_pdf(deck, layout))
    written: list[Path] = []
    thumbs: list[Image.Image] = []
    names = [card_png_name(i, card) for i, card in enumerate(deck.cards, start=1)]
    names.append(BACK_NAME)
    try:
        for index, name in enumerate(names):
            page = document[index]
            bitmap = page.render(scale=dpi / 72)
            image = bitmap.to_pil().convert("RGB")
            path = out_dir / name
            write_bytes(path, _png(image))
            written.append(path)
            thumbs.append(image.reduce(CONTACT_REDUCE))
            page.close()
    finally:
        document.close()
    sheet = contact_sheet(thumbs)
    contact = out_dir / CONTACT_NAME
    write_bytes(contact, _png(sheet))
    written.append(contact)
    keep = {p.name for p in written}
    for stale in out_dir.iterdir():
        if stale.is_file() and _OURS.match(stale.name) and stale.name not in keep:
            stale.unlink()
    return written


def contact_sheet(images: list[Image.Image], columns: int = CONTACT_COLUMNS) -> Image.Image:
    """The images in a grid on a light background."""
    w, h = images[0].size
    rows = -(-len(images) // columns)
    sheet = Image.new(
        "RGB",
        (columns * (w + CONTACT_GAP) + CONTACT_GAP, rows * (h + CONTACT_GAP) + CONTACT_GAP),
        (226, 229, 232),
    )
    for i, image in enumerate(images):
        col, row = i % columns, i // columns
        sheet.paste(
            image, (CONTACT_GAP + col * (w + CONTACT_GAP), CONTACT_GAP + row * (h + CONTACT_GAP))
        )
    return sheet
