"""The names of the deck's colours, by which a layout's text styles choose theirs.

Each name but ``suit`` is a colour of the palette (:class:`kraftstokk.design.palette.Palette`
defines its ink; ``tests/test_render_layout.py`` checks that the two agree); ``suit`` is
the ink of the card's suit.
"""

from __future__ import annotations

PALETTE_COLOURS: tuple[str, ...] = (
    "paper",
    "white",
    "ink",
    "muted",
    "red",
    "black",
    "accent",
    "accent_dark",
    "accent_light",
    "accent_pale",
    "gold",
    "gold_pale",
    "gold_ink",
    "track",
    "pill",
    "back_line",
    "back_edition",
    "back_lattice",
    "rule",
    "rule_muted",
    "glue",
    "nr_muted",
    "fine_muted",
    "haze",
    "ridge",
    "deep_water",
    "mountain_shade",
    "wave",
    "concrete",
)

#: What a layout's text style may name.
COLOUR_NAMES: tuple[str, ...] = (*PALETTE_COLOURS, "suit")
