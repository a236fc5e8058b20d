"""What a print file carries beyond its drawing: no links, and hints for the printer.

A print file is printed, not clicked: its links (the booklet's table of contents) stay in
the screen PDF, and PDF/X forbids annotations inside the BleedBox anyway. A file for a
home printer says how to print it: at actual size (``/PrintScaling /None``) and duplex
on the edge it was imposed for (``/Duplex``); and every file has an ``/ID``, derived
from its content, so the same input gives the same bytes.
"""

from __future__ import annotations

import hashlib
import io
from typing import Literal

from pypdf import PdfWriter
from pypdf.generic import ArrayObject, ByteStringObject, NameObject

DuplexEdge = Literal["short", "long"]
DUPLEX_NAMES: dict[DuplexEdge, str] = {
    "short": "/DuplexFlipShortEdge",
    "long": "/DuplexFlipLongEdge",
}


def drop_annotations(writer: PdfWriter) -> int:
    """Remove every page's annotations; how many there were."""
    removed = 0
    for page in writer.pages:
        annotations = page.get("/Annots")
        if annotations is not None:
            removed += len(annotations.get_object())
            del page[NameObject("/Annots")]
    return removed


def set_print_hints(writer: PdfWriter, duplex: DuplexEdge | None) -> None:
    """Print at actual size and, with ``duplex``, on both sides flipped on that edge."""
    preferences = writer.create_viewer_preferences()
    preferences[NameObject("/PrintScaling")] = NameObject("/None")
    if duplex is not None:
        preferences[NameObject("/Duplex")] = NameObject(DUPLEX_NAMES[duplex])


def written_with_id(writer: PdfWriter) -> bytes:
    """The file's bytes with an ``/ID`` made from its content (the same file, the same ID)."""
    draft = io.BytesIO()
    writer._ID = None
    writer.write(draft)
    digest = hashlib.md5(draft.getvalue(), usedforsecurity=False).digest()
    writer._ID = ArrayObject([ByteStringObject(digest), ByteStringObject(digest)])
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()
