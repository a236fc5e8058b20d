"""The booklet's paragraph styles are data (``render/booklet_styles.toml``), checked as
they are read."""

from __future__ import annotations

from importlib import resources

import pytest
from reportlab.lib.enums import TA_CENTER, TA_LEFT

from kraftstokk.design.fonts import SANS_BOLD
from kraftstokk.design.palette import palette_from_style
from kraftstokk.errors import LayoutError
from kraftstokk.models import Deck
from kraftstokk.render.booklet_styles import NAMES, STYLES_FILE, build_styles, read_entries

SHIPPED = resources.files("kraftstokk.render").joinpath(STYLES_FILE).read_text("utf-8")


def edited(old: str, new: str) -> bytes:
    assert old in SHIPPED
    return SHIPPED.replace(old, new, 1).encode()


def test_the_shipped_styles_extend_body_and_take_the_palettes_colours(deck: Deck):
    palette = palette_from_style(deck.style())
    styles = build_styles(read_entries(SHIPPED.encode()), palette)
    assert (styles.body.fontSize, styles.body.leading, styles.body.spaceAfter) == (9, 12.6, 5)
    # What a style does not say comes from the one it extends, at any depth.
    assert styles.cell_right.fontSize == styles.cell.fontSize == 7
    assert styles.grid_head_figure.fontName == SANS_BOLD
    assert styles.grid_head_figure.leading == 10 and styles.grid_head_figure.alignment == TA_CENTER
    assert styles.cell_nr.alignment == TA_LEFT and styles.cell_nr.textColor == palette.nr_muted
    assert styles.h2.textColor == palette.accent and styles.cell_head.textColor == palette.paper


def test_a_designers_change_reaches_the_style(deck: Deck):
    data = edited(
        '[quick_body]\nextends = "body"\nsize = 8.5', '[quick_body]\nextends = "body"\nsize = 8'
    )
    styles = build_styles(read_entries(data), palette_from_style(deck.style()))
    assert styles.quick_body.fontSize == 8


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ("[toc2]", "[toc_2]", "missing toc2; unknown toc_2 (a misspelt name?)"),
        (
            '[bullet]\nextends = "body"',
            '[bullet]\nextends = "bdy"',
            "[bullet] extends 'bdy', not a style",
        ),
        ("[body]\n", '[body]\nextends = "bullet"\n', "extends forms a loop (body -> bullet)"),
        ('colour = "nr_muted"', 'colour = "pink"', "[cell_nr] colour 'pink' is not in the palette"),
        ("size = 19", "size = -19", "[h1] size: "),
        ("left_indent = 12", "left_indent = 12\nindent = 3", "[toc2] indent: "),
        (
            'font = "sans_bold"\nsize = 8\n',
            'font = "sans_bold"\nsize = 6\n',
            "[cell_head] size 6.0 pt",
        ),
        ("[body]\n", "[body\n", "not valid TOML"),
    ],
)
def test_a_bad_edit_is_refused_naming_the_file_the_style_and_why(deck, old, new, message):
    with pytest.raises(LayoutError) as caught:
        build_styles(read_entries(edited(old, new)), palette_from_style(deck.style()))
    assert caught.value.message.startswith(f"{STYLES_FILE}: ")
    assert message in caught.value.message


def test_every_style_the_booklet_uses_is_in_the_file():
    assert set(read_entries(SHIPPED.encode())) == set(NAMES)


def test_a_style_that_is_not_a_table_is_named(deck: Deck):
    start = SHIPPED.index("[caption]")
    end = SHIPPED.index("# --- The table of all 55 cards")
    data = ("caption = 6.5\n" + SHIPPED[:start] + SHIPPED[end:]).encode()
    with pytest.raises(LayoutError, match=r"^booklet_styles.toml: \[caption\] must be a table$"):
        read_entries(data)
