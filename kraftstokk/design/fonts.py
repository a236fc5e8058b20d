"""The card fonts: reportlab's bundled Bitstream Vera family, embedded as TrueType.

Registered under stable names so every module (and the booklet) asks for the same font.
Vera covers Latin-1, so æ, ø, å and the no-break space render.
"""

from __future__ import annotations

from functools import lru_cache

from reportlab.pdfbase import pdfmetrics
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

_registered = False


def register_fonts() -> None:
    """Register the family once per process (safe to call again)."""
    global _registered
    if _registered:
        return
    for name, filename in _FILES.items():
        pdfmetrics.registerFont(TTFont(name, filename))
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
