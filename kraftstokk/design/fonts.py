"""The card fonts: reportlab's bundled Bitstream Vera family, embedded as TrueType.

Registered under stable names so every module (and the booklet) asks for the same font.
Vera covers Latin-1, so æ, ø, å and the no-break space render.
"""

from __future__ import annotations

import hashlib
import threading
from functools import lru_cache
from pathlib import Path
from typing import Any

import reportlab
from reportlab.pdfbase import pdfmetrics, ttfonts
from reportlab.pdfbase.ttfonts import TTFont

SANS = "KraftSans"
SANS_BOLD = "KraftSans-Bold"
SANS_ITALIC = "KraftSans-Oblique"
SANS_BOLD_ITALIC = "KraftSans-BoldOblique"

_FILES = {
    SANS: "Vera.ttf",
    SANS_BOLD: "VeraBd.ttf",
    SANS_ITALIC: "VeraIt.ttf",
    SANS_BOLD_ITALIC: "VeraBI.ttf",
}

#: reportlab's own font folder. Named by its full path, a font file is opened at once;
#: a bare name is first tried as a URL (which loads urllib.request) and then searched for.
FONT_DIR = Path(reportlab.__file__).resolve().parent / "fonts"

_registered = False


def subset_tag(font: str, characters: list[int]) -> bytes:
    """Six capital letters naming one subset of ``font`` (ISO 32000-1 §9.6.4 asks for a
    tag per subset; reportlab numbers each font's subsets from AAAAAA, so two fonts
    would share a tag): from the font and the characters in the subset, so the same
    text gives the same tag (and the same bytes)."""
    digest = hashlib.sha1(f"{font}:{characters}".encode(), usedforsecurity=False).digest()
    return bytes(ord("A") + byte % 26 for byte in digest[:6])


class _TaggedFont(TTFont):  # type: ignore[misc]
    """A TrueType font whose subsets get distinct tags (see :func:`subset_tag`)."""

    def addObjects(self, doc: Any) -> None:
        state = self.state.get(doc)
        subsets = list(state.subsets) if state is not None else []
        with _NAMING:  # reportlab reads the module's SUBSETN while it names the subsets
            numbered = ttfonts.SUBSETN
            ttfonts.SUBSETN = lambda n: subset_tag(self.fontName, subsets[n])
            try:
                super().addObjects(doc)
            finally:
                ttfonts.SUBSETN = numbered


_NAMING = threading.Lock()


def register_fonts() -> None:
    """Register the family once per process (safe to call again)."""
    global _registered
    if _registered:
        return
    for name, filename in _FILES.items():
        pdfmetrics.registerFont(_TaggedFont(name, str(FONT_DIR / filename)))
    pdfmetrics.registerFontFamily(
        SANS, normal=SANS, bold=SANS_BOLD, italic=SANS_ITALIC, boldItalic=SANS_BOLD_ITALIC
    )
    _registered = True


@lru_cache(maxsize=8192)
def text_width(text: str, font: str, size: float) -> float:
    """Width of ``text`` in points."""
    register_fonts()
    return float(pdfmetrics.stringWidth(text, font, size))


def missing_glyphs(text: str, font: str = SANS_BOLD) -> list[str]:
    """Characters of ``text`` the font cannot draw (they would print as empty boxes)."""
    register_fonts()
    face = pdfmetrics.getFont(font).face
    char_to_glyph: dict[int, int] = face.charToGlyph
    return sorted({ch for ch in text if ord(ch) not in char_to_glyph and ch not in "\n"})
