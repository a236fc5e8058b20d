"""The deck's colours, each defined once in CMYK (print) and derived to RGB for screens.

Every colour the cards, backs, tuck box, sheets and booklet use is a field of
:class:`Palette`. Its value is an :class:`Ink` (cyan, magenta, yellow, black as 0..1);
:func:`palette_from_style` turns the inks into reportlab colours of the file's colour
model: ``CMYKColor`` for a print-shop file, RGB derived from the same ink, R = (1 - C)(1 - K)
(the exact inverse of the hex conversion below, so a spec's hex colour shows as given),
for home sheets and previews.

Print rules kept here, so no drawing code has to know them:
- black text, suit symbols, indices and hairlines are 100 % K, never four inks;
- large dark areas (the back's ground) are a rich black mix, within the preset's ink limit;
- the card ground is paper white (no tint, so no screened dots under the text);
- in a print file the greys of small text are solid black (:data:`FINE_TEXT_GREYS`).
A spec colour given in hex is converted with full grey replacement (its grey part all in
K); a hex colour that dark (K ≥ 80 %) is taken to mean black and prints as 100 % K.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from reportlab.lib.colors import CMYKColor, CMYKColorSep, Color

from kraftstokk.models import RED_SUITS

_HEX = re.compile(r"^#[0-9a-fA-F]{6}$")

ColourModel = Literal["rgb", "cmyk"]


@dataclass(frozen=True)
class Ink:
    """A colour as the press prints it: cyan, magenta, yellow, black, each 0..1."""

    c: float
    m: float
    y: float
    k: float

    @property
    def total(self) -> float:
        """Total ink in percent."""
        return 100 * (self.c + self.m + self.y + self.k)

    def rgb(self) -> tuple[float, float, float]:
        return (
            (1 - self.c) * (1 - self.k),
            (1 - self.m) * (1 - self.k),
            (1 - self.y) * (1 - self.k),
        )

    def towards(self, other: Ink, t: float) -> Ink:
        """``t`` of the way from this ink to ``other`` (a tint or shade, in ink)."""
        return Ink(*(a + (b - a) * t for a, b in zip(self.parts, other.parts, strict=True)))

    @property
    def parts(self) -> tuple[float, float, float, float]:
        return (self.c, self.m, self.y, self.k)

    def limited(self, limit_pct: float | None) -> Ink:
        """This ink with C, M and Y reduced in proportion so the total stays within the limit."""
        if limit_pct is None or self.total <= limit_pct:
            return self
        room = max(0.0, limit_pct / 100 - self.k)
        cmy = self.c + self.m + self.y
        scale = room / cmy if cmy else 0.0
        return Ink(self.c * scale, self.m * scale, self.y * scale, min(self.k, limit_pct / 100))

    def rounded(self) -> Ink:
        """To 0.1 % steps, so a file never carries float noise (and stays reproducible)."""
        return Ink(*(round(v, 3) for v in self.parts))


def ink_from_hex(text: str) -> Ink:
    """A hex colour as ink, its grey part in K; very dark colours as 100 % K."""
    r, g, b = (int(text[i : i + 2], 16) / 255 for i in (1, 3, 5))
    k = 1 - max(r, g, b)
    if k >= BLACK_FROM_HEX:
        return K100
    return Ink((1 - r - k) / (1 - k), (1 - g - k) / (1 - k), (1 - b - k) / (1 - k), k).rounded()


BLACK_FROM_HEX = 0.8
PAPER_WHITE = Ink(0, 0, 0, 0)
K100 = Ink(0, 0, 0, 1)
#: The back's dark ground is the accent shaded towards this rich black.
RICH_BLACK = Ink(0.6, 0.4, 0.4, 1.0)

DEFAULT_ACCENT = "#0b6e99"
DEFAULT_RED = "#c0182b"
DEFAULT_BLACK = "#15191e"


def grey(k: float) -> Ink:
    """A grey in black ink only."""
    return Ink(0, 0, 0, k)


@dataclass(frozen=True)
class PrintColour:
    """The colour model of one file and the ink limit its printer sets."""

    model: ColourModel = "rgb"
    ink_limit_pct: float | None = None


RGB = PrintColour()

#: The tuck box's die lines: named spot colours (Separation colour spaces), shown in a
#: viewer or proof as magenta (CutContour) and cyan (Crease), the names cutting tables'
#: RIPs and box makers look for. They print no ink of the four.
CUT_INK = CMYKColorSep(0, 1, 0, 0, spotName="CutContour")
CREASE_INK = CMYKColorSep(1, 0, 0, 0, spotName="Crease")

#: Plain white and black for drawing code that means "no ink" / "all black" rather than a
#: palette colour; a CMYK file's canvas turns them into ink (see :func:`enforce_cmyk`).
WHITE = Color(1, 1, 1)
BLACK = Color(0, 0, 0)


def mix(a: Color, b: Color, t: float) -> Color:
    """``t`` of the way from a to b, in the colour model of ``a`` (ink when it is CMYK)."""
    if isinstance(a, CMYKColor) or isinstance(b, CMYKColor):
        ia, ib = _as_ink(a), _as_ink(b)
        mixed = ia.towards(ib, t).rounded()
        return CMYKColor(*mixed.parts)
    return Color(
        a.red + (b.red - a.red) * t,
        a.green + (b.green - a.green) * t,
        a.blue + (b.blue - a.blue) * t,
    )


def _as_ink(colour: Color) -> Ink:
    if isinstance(colour, CMYKColor):
        d = colour.density
        return Ink(colour.cyan * d, colour.magenta * d, colour.yellow * d, colour.black * d)
    return rgb_to_ink(colour.red, colour.green, colour.blue)


def rgb_to_ink(r: float, g: float, b: float) -> Ink:
    k = 1 - max(r, g, b)
    if k >= 1 - 1e-9:
        return K100
    return Ink((1 - r - k) / (1 - k), (1 - g - k) / (1 - k), (1 - b - k) / (1 - k), k).rounded()


def enforce_cmyk(colour: Any) -> CMYKColor:
    """For a CMYK canvas: every colour drawn becomes ink (a safety net, see ``cmyk_canvas``).

    The palette already gives CMYK; an RGB colour reaching a print file from elsewhere is
    converted here instead of leaving RGB in a PDF/X-1a file.
    """
    if isinstance(colour, CMYKColorSep):  # a named spot colour (a die line) stays one
        return colour
    if isinstance(colour, CMYKColor):
        d = colour.density
        return CMYKColor(colour.cyan * d, colour.magenta * d, colour.yellow * d, colour.black * d)
    if isinstance(colour, Color):
        return CMYKColor(*rgb_to_ink(colour.red, colour.green, colour.blue).parts)
    from reportlab.lib.colors import toColor

    return enforce_cmyk(toColor(colour))


def colour_enforcer(colour: PrintColour) -> Callable[[Any], CMYKColor] | None:
    """What reportlab's ``enforceColorSpace`` takes for a file in ``colour``."""
    return enforce_cmyk if colour.model == "cmyk" else None


@dataclass(frozen=True)
class Palette:
    paper: Color
    white: Color  # light text and fills on dark grounds: no ink
    ink: Color  # black text: 100 % K
    muted: Color
    red: Color
    black: Color  # the black suits: 100 % K
    accent: Color
    accent_dark: Color  # the back's ground: a rich dark shade within the ink limit
    accent_light: Color
    accent_pale: Color
    gold: Color
    gold_pale: Color
    gold_ink: Color
    track: Color
    pill: Color
    back_line: Color
    back_edition: Color
    back_lattice: Color
    rule: Color  # crop marks, dielines, test marks: 100 % K hairlines
    rule_muted: Color  # labels beside the marks
    glue: Color  # glue areas on the tuck box
    nr_muted: Color  # the booklet's nr. column (small text)
    fine_muted: Color  # the booklet's small grey text: captions, running heads
    haze: Color  # the picture's farthest mountains, paler than the ridge
    ridge: Color  # the picture's far mountains, a pale tint of the accent
    deep_water: Color  # the picture's water below the station, darker than a lake
    mountain_shade: Color  # the picture's near mountain on its shaded side
    wave: Color  # light lines on the picture's water
    concrete: Color  # dams and weirs: a grey in black ink alone
    model: ColourModel = "rgb"

    def suit_colour(self, suit: str | None) -> Color:
        return self.red if suit in RED_SUITS else self.black

    def named(self, name: str, suit: str | None = None) -> Color:
        """A colour by the name a layout's text style gives (``design/colour_names.py``)."""
        if name == "suit":
            return self.suit_colour(suit)
        colour: Color = getattr(self, name)
        return colour


def palette_inks(style: dict[str, Any]) -> dict[str, Ink]:
    """Every palette colour as ink, from the spec's style table and the defaults.

    Hearts and diamonds always print in one red and spades and clubs in one black, as on
    an ordinary deck, so the spec's kløver and ruter colours are not used on the cards.
    """
    suits = style.get("colours", {})
    suits = suits if isinstance(suits, dict) else {}
    accent = _ink(style.get("accent"), DEFAULT_ACCENT)
    paper = PAPER_WHITE
    ink = K100
    gold = Ink(0, 0.29, 1.0, 0.15)
    accent_dark = accent.towards(RICH_BLACK, 0.45)
    return {
        "paper": paper,
        "white": PAPER_WHITE,
        "ink": ink,
        "muted": grey(0.62),
        "red": _ink(suits.get("hjerter"), DEFAULT_RED),
        "black": _ink(suits.get("spar"), DEFAULT_BLACK),
        "accent": accent,
        "accent_dark": accent_dark,
        "accent_light": accent.towards(PAPER_WHITE, 0.55),
        "accent_pale": accent.towards(PAPER_WHITE, 0.88),
        "gold": gold,
        "gold_pale": Ink(0, 0.08, 0.34, 0.02),
        "gold_ink": gold.towards(ink, 0.4),
        "track": grey(0.10),
        "pill": grey(0.07),
        "back_line": accent.towards(PAPER_WHITE, 0.35),
        "back_edition": accent.towards(PAPER_WHITE, 0.6),
        "back_lattice": accent_dark.towards(accent, 0.45),
        "rule": K100,
        "rule_muted": grey(0.55),
        "glue": grey(0.45),
        "nr_muted": grey(0.6),
        "fine_muted": grey(0.62),
        "haze": accent.towards(PAPER_WHITE, 0.8),
        "ridge": accent.towards(PAPER_WHITE, 0.68),
        "deep_water": accent.towards(RICH_BLACK, 0.18),
        "mountain_shade": accent.towards(PAPER_WHITE, 0.42),
        "wave": accent.towards(PAPER_WHITE, 0.45),
        "concrete": grey(0.3),
    }


#: Greys only small text uses: a print file sets them in solid black, since a screened
#: tint breaks small letters into dots (preflight's register check: one ink at full
#: strength under 8 pt).
FINE_TEXT_GREYS = ("nr_muted", "fine_muted")


def _ink(value: Any, default: str) -> Ink:
    text = value if isinstance(value, str) and _HEX.match(value) else default
    return ink_from_hex(text)


def palette_from_style(style: dict[str, Any], colour: PrintColour = RGB) -> Palette:
    """The palette in ``colour``'s model, every ink within its limit."""
    colours: dict[str, Color] = {}
    for name, ink in palette_inks(style).items():
        limited = ink.limited(colour.ink_limit_pct).rounded()
        if colour.model == "cmyk" and name in FINE_TEXT_GREYS:
            colours[name] = CMYKColor(*K100.parts)
        elif colour.model == "cmyk":
            colours[name] = CMYKColor(*limited.parts)
        else:
            colours[name] = Color(*limited.rgb())
    return Palette(**colours, model=colour.model)


def palette_key(palette: Palette) -> str:
    """A short stable tag of a palette: forms of differently coloured decks never mix, and
    the reprint verdict sees a change of colours."""
    text = repr(sorted((k, repr(v)) for k, v in vars(palette).items()))
    return hashlib.sha1(text.encode()).hexdigest()[:8]
