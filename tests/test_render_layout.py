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
from kraftstokk.errors import LayoutError, SpecError
from kraftstokk.render.palette import Palette, palette_from_style, palette_inks
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
        assert layout.bleed == 3.0 and layout.safe == layout.cut.inset(3.0)


def test_poker_boxes_are_todays_numbers():
    boxes = load_layout("poker").boxes
    assert boxes.index == Box(3.0, 73.9, 8.5, 12.0)
    assert boxes.name == Box(13.0, 72.4, 47.5, 13.5)
    assert boxes.picture == Box(3.0, 45.5, 57.5, 24.9)
    assert boxes.rows == Box(3.0, 15.2, 57.5, 28.8)
    assert boxes.footer == Box(3.0, 3.0, 47.5, 10.0)
    text = boxes.name_text
    assert (text.x, text.y, text.w, text.h) == pytest.approx((14.8, 73.4, 43.9, 11.5))


def test_extends_changes_only_what_the_variant_gives():
    poker, bridge = load_layout("poker"), load_layout("bridge")
    narrower = poker.width - bridge.width
    # boxes anchored left and right stretch; boxes anchored on one side keep their size
    assert bridge.boxes.name.w == pytest.approx(poker.boxes.name.w - narrower)
    assert bridge.boxes.index == poker.boxes.index
    assert bridge.boxes.index_rotated.right == pytest.approx(bridge.width - 3.0)
    assert bridge.styles.figure.size < poker.styles.figure.size
    assert bridge.styles.name == poker.styles.name
    assert bridge.spec.back == poker.spec.back


def test_a_variant_box_replaces_the_whole_box(tmp_path: Path):
    folder = _folder(
        tmp_path,
        tall="extends = 'poker'\ndescription = 'x'\n[boxes.picture]\nleft = 3\nwidth = 20\n"
        "bottom = 46\ntop = 20\n",
    )
    picture = load_layout("tall", folder).boxes.picture
    assert picture == Box(3.0, 46.0, 20.0, 88.9 - 20.0 - 46.0)


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
