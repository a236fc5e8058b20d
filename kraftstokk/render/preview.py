"""PNG previews: one image per card face at print resolution, and a contact sheet.

The faces are drawn into an in-memory PDF (one card per page, cut size) and rasterised
with pdfium, so the previews show exactly what the PDFs print, with no system libraries.
"""

from __future__ import annotations

import functools
import io
import re
import struct
from collections.abc import Collection
from pathlib import Path

import pypdfium2 as pdfium
from PIL import Image
from reportlab.pdfgen.canvas import Canvas

from kraftstokk.atomic import write_bytes
from kraftstokk.design.fonts import SANS, register_fonts
from kraftstokk.design.geometry import mm
from kraftstokk.design.layout import CardLayout
from kraftstokk.design.printed import deck_layout
from kraftstokk.errors import OutputError
from kraftstokk.models import Card, Deck
from kraftstokk.progress import Counter, Progress
from kraftstokk.render.back import draw_back_local
from kraftstokk.render.card import draw_face_local, face_context

DPI = 300
CONTACT_COLUMNS = 8
CONTACT_REDUCE = 3  # the contact sheet shows cards at DPI / 3 = 100 dpi
CONTACT_GAP = 12  # pixels
PNG_LEVEL = 3  # zlib level: a little larger files, much faster than the default
BACK_NAME = "back.png"
CONTACT_NAME = "contact-sheet.png"
UPLOAD_SUFFIX = "-bleed"
_OURS = re.compile(r"^(\d\d-[a-z0-9-]+\.png|back(-bleed)?\.png|contact-sheet\.png)$")


def is_preview_file(name: str) -> bool:
    """A file name that :func:`write_previews` writes (the rest of a folder is left alone)."""
    return _OURS.match(name) is not None


def card_png_name(position: int, card: Card) -> str:
    """``07-klover-2.png``: deck position (from 1) and the card id in ASCII."""
    slug = card.id.replace("ø", "o").replace("æ", "ae").replace("å", "a")
    return f"{position:02d}-{slug}.png"


def upload_png_name(name: str) -> str:
    """``07-klover-2-bleed.png`` beside the preview ``07-klover-2.png``."""
    return name.removesuffix(".png") + UPLOAD_SUFFIX + ".png"


def faces_pdf(
    deck: Deck,
    layout: CardLayout | None = None,
    bleed: float = 0.0,
    only: Collection[str] | None = None,
) -> bytes:
    """Every face (or those ``only`` lists), then the back, one per page at cut size plus
    ``bleed`` mm all round.

    In ``layout``, by default the one the deck's ``[style] layout`` chooses.
    """
    register_fonts()
    layout = deck_layout(deck, layout)
    buffer = io.BytesIO()
    canvas = Canvas(
        buffer,
        pagesize=(mm(layout.width + 2 * bleed), mm(layout.height + 2 * bleed)),
        invariant=1,
        initialFontName=SANS,
    )
    ctx = face_context(deck, layout)
    extent = (bleed, bleed, bleed, bleed)
    for card in deck.cards:
        if only is not None and card.id not in only:
            continue
        canvas.saveState()
        canvas.translate(mm(bleed), mm(bleed))
        draw_face_local(canvas, card, ctx, extent)
        canvas.restoreState()
        canvas.showPage()
    canvas.translate(mm(bleed), mm(bleed))
    draw_back_local(canvas, deck, layout, extent)
    canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def png_bytes(image: Image.Image, dpi: int = DPI) -> bytes:
    """A PNG tagged with the sRGB profile its pixels are in (pdfium renders sRGB), so an
    upload's colours are not left to the print shop's guess."""
    out = io.BytesIO()
    image.save(
        out, format="PNG", compress_level=PNG_LEVEL, dpi=(dpi, dpi), icc_profile=srgb_profile()
    )
    return out.getvalue()


#: The date written into the sRGB profile's header (LittleCMS would write today's, and
#: the same deck must give the same bytes).
PROFILE_DATE = (2026, 1, 1, 0, 0, 0)


@functools.cache
def srgb_profile() -> bytes:
    """IEC 61966-2-1 sRGB as an ICC profile, made by LittleCMS (through Pillow) rather than
    copied from anywhere, so no profile licence applies; its header dated PROFILE_DATE."""
    from PIL import ImageCms

    profile = bytearray(ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes())
    profile[24:36] = struct.pack(">6H", *PROFILE_DATE)
    return bytes(profile)


def upload_size(layout: CardLayout, bleed: float, dpi: int) -> tuple[int, int]:
    """Pixels of an upload image: the card plus bleed at ``dpi`` (825 x 1125 for poker,
    1/8 in bleed, 300 dpi)."""
    return (
        round((layout.width + 2 * bleed) / 25.4 * dpi),
        round((layout.height + 2 * bleed) / 25.4 * dpi),
    )


def write_previews(
    deck: Deck,
    out_dir: Path,
    dpi: int = DPI,
    layout: CardLayout | None = None,
    upload: tuple[float, int] | None = None,
    only: Collection[str] | None = None,
    back: bool = True,
    progress: Progress | None = None,
) -> list[Path]:
    """Write ``out_dir``/NN-<card>.png, back.png and contact-sheet.png; return the paths.

    Cards are drawn in ``layout``, by default the deck's own (see :func:`faces_pdf`).
    With ``upload`` = (bleed mm, dpi) also NN-<card>-bleed.png and back-bleed.png: each
    face with its bleed at the pixel size a print-on-demand upload asks for. With
    ``only`` (card ids), just those faces (NN stays the card's place in the whole deck,
    so they replace the earlier upload one for one), and the back only with ``back``.

    Earlier previews of cards no longer in the deck are removed. ``progress`` hears of
    each PNG written.
    """
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise OutputError(out_dir, f"cannot create directory: {exc.strerror or exc}") from exc
    document = pdfium.PdfDocument(faces_pdf(deck, layout, only=only))
    written: list[Path] = []
    thumbs: list[Image.Image] = []
    names = [
        card_png_name(i, card)
        for i, card in enumerate(deck.cards, start=1)
        if only is None or card.id in only
    ]
    names.append(BACK_NAME)
    pictures = len(names) - (0 if back else 1)
    count = Counter(pictures * (2 if upload is not None else 1), progress)
    try:
        for index, name in enumerate(names):
            if name == BACK_NAME and not back:
                continue
            page = document[index]
            bitmap = page.render(scale=dpi / 72)
            image = bitmap.to_pil().convert("RGB")
            path = out_dir / name
            write_bytes(path, png_bytes(image, dpi))
            written.append(path)
            count.one()
            thumbs.append(image.reduce(CONTACT_REDUCE))
            page.close()
    finally:
        document.close()
    if upload is not None:
        written.extend(_write_uploads(deck, out_dir, names, layout, *upload, only, back, count))
    sheet = contact_sheet(thumbs)
    contact = out_dir / CONTACT_NAME
    write_bytes(contact, png_bytes(sheet))
    written.append(contact)
    keep = {p.name for p in written}
    for stale in out_dir.iterdir():
        if stale.is_file() and _OURS.match(stale.name) and stale.name not in keep:
            stale.unlink()
    return written


def _write_uploads(
    deck: Deck,
    out_dir: Path,
    names: list[str],
    layout: CardLayout | None,
    bleed: float,
    dpi: int,
    only: Collection[str] | None,
    back: bool,
    count: Counter,
) -> list[Path]:
    layout = deck_layout(deck, layout)
    size = upload_size(layout, bleed, dpi)
    document = pdfium.PdfDocument(faces_pdf(deck, layout, bleed, only))
    written: list[Path] = []
    try:
        for index, name in enumerate(names):
            if name == BACK_NAME and not back:
                continue
            page = document[index]
            image = page.render(scale=dpi / 72).to_pil().convert("RGB")
            if image.size != size:  # pdfium rounds up a fraction of a pixel
                image = image.resize(size, Image.Resampling.LANCZOS)
            path = out_dir / upload_png_name(name)
            write_bytes(path, png_bytes(image, dpi))
            written.append(path)
            count.one()
            page.close()
    finally:
        document.close()
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
