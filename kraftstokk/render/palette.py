"""The deck's colours: from the spec's style table when present, good defaults otherwise."""

from __future__ import annotations

import re
from dataclasses import dataclass, fields
from typing import Any

from reportlab.lib.colors import Color, HexColor

from kraftstokk.models import RED_SUITS

_HEX = re.compile(r"^#[0-9a-fA-F]{6}$")

DEFAULT_ACCENT = "#0b6e99"
DEFAULT_RED = "#c0182b"
DEFAULT_BLACK = "#15191e"


def mix(a: Color, b: Color, t: float) -> Color:
    """``t`` of the way from a to b."""
    return Color(
        a.red + (b.red - a.red) * t,
        a.green + (b.green - a.green) * t,
        a.blue + (b.blue - a.blue) * t,
    )


WHITE = Color(1, 1, 1)
BLACK = Color(0, 0, 0)


@dataclass(frozen=True)
class Palette:
    paper: Color
    ink: Color
    muted: Color
    red: Color
    black: Color
    accent: Color
    accent_dark: Color
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

    def suit_colour(self, suit: str | None) -> Color:
        return self.red if suit in RED_SUITS else self.black

    def named(self, name: str, suit: str | None = None) -> Color:
        """A colour by the name a layout's text style gives (see :data:`COLOUR_NAMES`)."""
        if name == "white":
            return WHITE
        if name == "suit":
            return self.suit_colour(suit)
        colour: Color = getattr(self, name)
        return colour


#: What a layout's text style may name: a palette field, "white", or "suit" (the ink
#: of the card's suit).
COLOUR_NAMES: tuple[str, ...] = (
    *(f.name for f in fields(Palette)),
    "white",
    "suit",
)


def _colour(value: Any, default: str) -> Color:
    text = value if isinstance(value, str) and _HEX.match(value) else default
    return HexColor(text)


def palette_from_style(style: dict[str, Any]) -> Palette:
    """Red and black suit inks from the spec's hjerter and spar colours, the accent as given.

    Hearts and diamonds always print in one red and spades and clubs in one black, as on
    an ordinary deck, so the spec's kløver and ruter colours are not used on the cards.
    """
    suits = style.get("colours", {})
    suits = suits if isinstance(suits, dict) else {}
    accent = _colour(style.get("accent"), DEFAULT_ACCENT)
    paper = HexColor("#fcfbf7")
    ink = HexColor("#1d2329")
    return Palette(
        paper=paper,
        ink=ink,
        muted=HexColor("#5f6b76"),
        red=_colour(suits.get("hjerter"), DEFAULT_RED),
        black=_colour(suits.get("spar"), DEFAULT_BLACK),
        accent=accent,
        accent_dark=mix(accent, BLACK, 0.45),
        accent_light=mix(accent, WHITE, 0.55),
        accent_pale=mix(accent, paper, 0.88),
        gold=HexColor("#d99a00"),
        gold_pale=HexColor("#fbe7a6"),
        gold_ink=mix(HexColor("#d99a00"), ink, 0.4),
        track=HexColor("#e3e6e8"),
        pill=HexColor("#eceff1"),
        back_line=mix(accent, WHITE, 0.35),
        back_edition=mix(accent, WHITE, 0.6),
        back_lattice=mix(mix(accent, BLACK, 0.45), accent, 0.45),
    )
