"""Card layouts as TOML data: loading, extends, checks, and who chooses the layout."""

from __future__ import annotations

import dataclasses
import shutil
from importlib import resources
from pathlib import Path

import pytest

from kraftstokk.deck.spec import parse_spec
from kraftstokk.deck.validate import validate_deck
from kraftstokk.design.colour_names import COLOUR_NAMES, PALETTE_COLOURS
from kraftstokk.design.fit import fit_name
from kraftstokk.design.geometry import Box
from kraftstokk.design.layout import layout_name_of, layout_names, load_layout
from kraftstokk.design.palette import Palette, palette_from_style, palette_inks
from kraftstokk.errors import LayoutError, SpecError
from tests.conftest import synthetic_deck

SIZES = {"poker": (63.5, 88.9), "bridge": (57.2, 88.9), "poker-63x88": (63.0, 88.0)}


def _folder(tmp_path: Path, **files: str) -> Path:
    """A layouts folder with the package's poker.toml and the given extra files."""
    poker = resources.files("kraftstokk.design.layouts").joinpath("poker.toml")
    shutil.copyfile(str(poker), tmp_path / "poker.toml")
    for name, text in files.items():
        (tmp_path / f"{name}.toml").write_text(text, encoding="utf-8")
    return tmp_path


def test_the_three_sizes_exist():
    assert set(SIZES) <= set(layout_names())
    for name, (width, height) in SIZES.items():
        layout = load_layout(name)
        assert (layout.width, layout.height) == (width, height)
        # 3.5 mm: half a millimetre inside every preset's safe line (issue 34)
        assert layout.bleed == 3.0 and layout.safe == layout.cut.inset(3.5)


def test_poker_boxes_are_todays_numbers():
    boxes = load_layout("poker").boxes
    assert boxes.index == Box(3.5, 73.4, 8.5, 12.0)
    assert boxes.name == Box(13.5, 71.9, 46.5, 13.5)
    assert _mm(boxes.picture) == pytest.approx((3.5, 45.7, 56.5, 24.2))
    assert _mm(boxes.rows) == pytest.approx((3.5, 16.9, 56.5, 27.3))
    assert boxes.footer == Box(3.5, 3.5, 47.5, 13.2)
    text = boxes.name_text
    assert (text.x, text.y, text.w, text.h) == pytest.approx((15.3, 72.9, 42.9, 11.5))
    # The picture's parts: the scene and the map side by side, the disc and the type's
    # name inside the scene
    assert _mm(boxes.scene) == pytest.approx((3.5, 45.7, 36.0, 24.2))
    assert _mm(boxes.map) == pytest.approx((39.5, 45.7, 20.5, 24.2))
    assert _mm(boxes.disc) == pytest.approx((28.3, 58.7, 10.0, 10.0))
    assert _mm(boxes.type_label) == pytest.approx((5.1, 46.4, 28.6, 3.1))


def _mm(box: Box) -> tuple[float, float, float, float]:
    return (box.x, box.y, box.w, box.h)


#: A square card as a contributor made one (issue 36): the picture's parts moved for the
#: shorter picture, the type's name raised until it reaches into the disc.
SQUARE = """extends = 'poker'
description = 'square 70 x 70 mm'
[card]
width = 70.0
height = 70.0
[boxes.picture]
left = 3.5
right = 3.5
bottom = 32.0
top = 19.0
[boxes.rows]
left = 3.5
right = 3.5
bottom = 16.9
height = 14.0
[boxes.disc]
within = 'scene'
right = 3.0
bottom = 2.0
width = 10.0
height = 10.0
[boxes.type_label]
within = 'scene'
left = 1.6
bottom = 2.5
width = 28.6
height = 3.1
[picture]
water_level = 6.0
drop_room = 11.5
station_right = 1.0
"""


def test_a_square_layout_whose_label_reaches_the_disc_is_refused(tmp_path: Path):
    folder = _folder(tmp_path, square=SQUARE)
    with pytest.raises(LayoutError) as caught:
        load_layout("square", folder)
    assert "square.toml: boxes.disc and boxes.type_label overlap" in str(caught.value)


def test_the_same_square_layout_with_the_label_beside_the_disc_loads(tmp_path: Path):
    fixed = SQUARE.replace("right = 3.0\nbottom = 2.0", "right = 3.0\nbottom = 6.5").replace(
        "station_right = 1.0", "station_right = 13.5"
    )
    folder = _folder(tmp_path, square=fixed)
    layout = load_layout("square", folder)
    assert layout.boxes.disc.y >= layout.boxes.type_label.top


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (  # two top-level boxes
            "[boxes.footer]\nleft = 3.5\nright = 12.5\nbottom = 3.5\nheight = 14.0\n",
            "boxes.rows and boxes.footer overlap (47.50 × 0.60 mm)",
        ),
        (  # the map panel into the scene
            "[boxes.map]\nwithin = 'picture'\nright = 0\nwidth = 22.0\nbottom = 0\ntop = 0\n",
            "boxes.scene and boxes.map overlap",
        ),
        (  # the turned corner index into the rows
            "[boxes.index]\nleft = 3.5\ntop = 3.5\nwidth = 8.5\nheight = 14.0\n",
            "boxes.rows and boxes.index_rotated overlap",
        ),
        (  # a box outside the one it lies within
            "[boxes.disc]\nwithin = 'scene'\nleft = 30.0\ntop = 1.0\nwidth = 10\nheight = 10\n",
            "boxes.disc: reaches outside boxes.scene",
        ),
        ("[picture]\nlake_width = 20.0\n", "the largest lake, dam and station need 39.4 mm"),
        ("[picture]\nwater_level = 2.0\n", "boxes.type_label: reaches above the water"),
        ("[picture]\nstation_height = 9.0\n", "the largest station"),
        ("[footer]\nspecial_lift = 3.5\n", "boxes.footer: 13.2 mm high"),
    ],
)
def test_the_loader_refuses_parts_that_collide(tmp_path: Path, text: str, message: str):
    folder = _folder(tmp_path, bad="extends = 'poker'\n" + text)
    with pytest.raises(LayoutError) as caught:
        load_layout("bad", folder)
    assert message in str(caught.value)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "[styles.type_label]\nweight = 'bold'\nsize = 9.0\ncolour = 'white'\n",
            "layout bad: boxes.type_label: 'Magasinkraftverk' at 9 pt is 31.6 mm wide, the box "
            "28.6 mm (locales/nb/words.toml: card.types.reservoir)",
        ),
        (
            "[styles.nr]\nweight = 'bold'\nsize = 12.0\ncolour = 'ink'\nalign = 'centre'\n",
            "layout bad: rows.pill_width: 'nr. 88' at 12 pt is 14.1 mm wide, the box 10.6 mm "
            "(locales/nb/words.toml: card.nr)",
        ),
        (
            "[styles.index_joker]\nweight = 'bold'\nsize = 9.0\ncolour = 'ink'\nalign = 'centre'\n"
            "leading = 1.08\n",
            "layout bad: boxes.index: 'JOKER', a letter a line at 9 pt, is 16.0 mm high, the box "
            "12 mm (locales/nb/words.toml: card.index_joker)",
        ),
        (
            "[picture]\nstation_right = 11.0\n",
            "layout bad: picture: a pumped-storage plant's lower dam (26.2 mm into the scene",
        ),
        (
            "[footer]\nlift = 0.3\nspecial_indent = 8.0\nspecial_lift = 1.1\n"
            "bolt_size = 3.2\nbolt_centre = 1.2\nbolt_lift = 1.9\n",
            "layout bad: boxes.footer: 'Strømkrig: brenner eller nullstiller' at 6.2 pt is "
            "42.6 mm wide, the box 39.5 mm (locales/nb/words.toml: "
            "games.stromkrig.card.burn_or_reset)",
        ),
    ],
)
def test_words_that_do_not_fit_the_layout_are_refused_before_a_face_is_drawn(
    tmp_path: Path, text: str, message: str
):
    """The words are the locale files', so the loader checks the boxes and the renderer the
    words in them: a layout whose type's name, lower dam or Strømkrig line collide loads,
    and its faces are refused in one line naming the text and its key."""
    from kraftstokk.render.face_words import face_words

    layout = load_layout("bad", _folder(tmp_path, bad="extends = 'poker'\n" + text))
    with pytest.raises(LayoutError) as caught:
        face_words(layout)
    assert message in str(caught.value)
    face_words(load_layout("poker"))  # the shipped words fit


def test_extends_changes_only_what_the_variant_gives():
    poker, bridge = load_layout("poker"), load_layout("bridge")
    narrower = poker.width - bridge.width
    # boxes anchored left and right stretch; boxes anchored on one side keep their size
    assert bridge.boxes.name.w == pytest.approx(poker.boxes.name.w - narrower)
    assert bridge.boxes.index == poker.boxes.index
    assert bridge.boxes.index_rotated.right == pytest.approx(bridge.width - 3.5)
    assert bridge.styles.figure.size < poker.styles.figure.size
    assert bridge.styles.name == poker.styles.name
    assert bridge.spec.back == poker.spec.back


def test_a_variant_box_replaces_the_whole_box(tmp_path: Path):
    folder = _folder(
        tmp_path,
        tall="extends = 'poker'\ndescription = 'x'\n[boxes.picture]\nleft = 3.5\nwidth = 56.5\n"
        "bottom = 46\ntop = 20\n",
    )
    picture = load_layout("tall", folder).boxes.picture
    assert picture == Box(3.5, 46.0, 56.5, 88.9 - 20.0 - 46.0)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("extends = 'poker'\n[card]\nwidht = 60\n", "card.widht: unknown key"),
        ("extends = 'poker'\n[styles.nr]\ncolour = 'purple'\n", "is not a colour name"),
        ("extends = 'poker'\n[boxes.rows]\nleft = 3\nright = 3\nwidth = 4\n", "exactly two"),
        (
            "extends = 'poker'\n[boxes.footer]\nleft = 1\nright = 13\nbottom = 3\nheight = 10\n",
            "boxes.footer: reaches outside the safe area",
        ),
        (
            "extends = 'poker'\n[boxes.name_text]\nwithin = 'nowhere'\nleft = 1\nright = 1\n"
            "top = 1\nbottom = 1\n",
            "within 'nowhere'",
        ),
        ("extends = 'nothing'\n", "layout 'nothing': no such layout"),
        ("extends = 'poker'\n[name_fit]\ntwo_line_max = 20\n", "two_line_max <= styles.name"),
        ("extends = 'bad'\n", "extends forms a loop (bad -> bad)"),
        ("extends = 'poker'\n[card\n", "not valid TOML"),
    ],
)
def test_a_bad_layout_names_the_file_and_the_reason(tmp_path: Path, text: str, message: str):
    folder = _folder(tmp_path, bad=text)
    with pytest.raises(LayoutError, match=r"bad\.toml|no such layout") as caught:
        load_layout("bad", folder)
    assert message in str(caught.value)


def test_unknown_layout_lists_the_ones_there_are():
    with pytest.raises(LayoutError, match="choose from bridge, poker"):
        load_layout("tarot")


def test_every_style_colour_is_a_palette_name():
    for name in layout_names():
        for style in dict(load_layout(name).styles).values():
            assert style.colour in COLOUR_NAMES


def test_the_colour_names_a_layout_may_use_are_the_palettes_colours():
    fields = tuple(field.name for field in dataclasses.fields(Palette) if field.name != "model")
    assert fields == PALETTE_COLOURS
    assert tuple(palette_inks({})) == PALETTE_COLOURS
    assert (*PALETTE_COLOURS, "suit") == COLOUR_NAMES
    palette = palette_from_style({})
    assert palette.named("suit", "hjerter") == palette.red
    assert palette.named("suit", "spar") == palette.black


def test_deck_spec_chooses_the_layout():
    spec = parse_spec({"style": {"layout": "bridge"}}, "deck.toml")
    assert spec.style.layout == "bridge"
    assert layout_name_of(spec.model_dump()["style"]) == "bridge"
    assert layout_name_of({}) == "poker"
    with pytest.raises(SpecError, match=r"style\.layout: .*'tarot' is not a card layout"):
        parse_spec({"style": {"layout": "tarot"}}, "deck.toml")


def test_validator_fits_names_in_the_chosen_layout():
    deck = synthetic_deck()
    name = "Kykkelsrudfossen"  # fits the poker name box at 12 pt, not the bridge one
    assert fit_name(name, load_layout("poker")).fits
    assert not fit_name(name, load_layout("bridge")).fits
    cards = list(deck.cards)
    cards[0] = cards[0].model_copy(update={"name": name})
    edited = deck.model_copy(update={"cards": cards})
    assert validate_deck(edited).ok  # the deck's own layout: poker
    report = validate_deck(edited, layout=load_layout("bridge"))
    assert [p.rule for p in report.errors] == ["name_fit"]
    spec = {**deck.spec, "style": {**deck.style(), "layout": "bridge"}}
    assert not validate_deck(edited.model_copy(update={"spec": spec})).ok


@pytest.mark.parametrize("name", ["bridge", "poker-63x88"])
def test_every_real_name_fits_every_layout(name: str):
    """The default deck's names, as the validator checks them."""
    from kraftstokk.deck.build import build_from_spec_file

    spec_path = Path(__file__).resolve().parents[1] / "sources" / "deck.toml"
    deck = build_from_spec_file(spec_path).deck
    report = validate_deck(deck, layout=load_layout(name))
    assert report.ok, [p.line() for p in report.errors]


def test_a_deck_naming_an_unknown_layout_fails_validation():
    deck = synthetic_deck()
    spec = {**deck.spec, "style": {**deck.style(), "layout": "tarot"}}
    report = validate_deck(deck.model_copy(update={"spec": spec}))
    assert [p.rule for p in report.errors] == ["layout"]
    assert "layout 'tarot': no such layout" in report.errors[0].message


@pytest.mark.parametrize("name", layout_names())
def test_every_languages_face_words_fit_every_layout(name: str):
    """The faces print bokmål today; a print in another language needs no layout change."""
    from kraftstokk import locales
    from kraftstokk.render.face_words import face_words

    layout = load_layout(name)
    for language in locales.languages():
        words = face_words(layout, language)
        assert words.row_labels and words.type_labels and words.special_lines
