"""Bounds on the data files designers and translators change (issue 24): every measure of
a layout, preset and sweep in a physical range, ``extends`` chains capped, the listings
naming the bad file, and a locale's markup and templates checked. Each bad file is one
line naming the file, the key and the reason (the range, where a range is broken)."""

from __future__ import annotations

import contextlib
import copy
import tomllib
from importlib import resources
from pathlib import Path

import pytest
from typer.testing import CliRunner

import kraftstokk.design.layout as layout_module
import kraftstokk.design.presets as presets_module
import kraftstokk.locales.loader as locale_loader
from kraftstokk import locales
from kraftstokk.cli import app
from kraftstokk.design.layout import layout_listing, load_layout
from kraftstokk.design.presets import PresetError, load_preset, preset_listing
from kraftstokk.errors import LayoutError, LocaleError, RenderError
from kraftstokk.limits import MAX_ACTION_CAP
from kraftstokk.render.booklet import build_booklet
from kraftstokk.render.locale import MAX_TEXT, MAX_TITLE, parse_locale
from kraftstokk.sim.sweep.model import SweepValidationError, parse_sweep
from tests.conftest import synthetic_deck
from tests.test_hostile_inputs import one_error_line
from tests.toml_text import toml_text

#: The project's locale files, as the package ships them.
SHIPPED_LOCALES = resources.files("kraftstokk.locales")

runner = CliRunner()
PACKAGE = Path(layout_module.__file__).parent


def copy_folder(source: Path, target: Path) -> Path:
    target.mkdir()
    for path in source.glob("*.toml"):
        (target / path.name).write_bytes(path.read_bytes())
    return target


@pytest.fixture
def layouts(tmp_path: Path) -> Path:
    return copy_folder(PACKAGE / "layouts", tmp_path / "layouts")


@pytest.fixture
def presets(tmp_path: Path) -> Path:
    return copy_folder(PACKAGE / "presets", tmp_path / "presets")


def layout_error(folder: Path, text: str | bytes) -> str:
    data = text.encode("utf-8") if isinstance(text, str) else text
    (folder / "bad.toml").write_bytes(data)
    with pytest.raises(LayoutError) as info:
        load_layout("bad", folder)
    assert "\n" not in info.value.message
    assert info.value.message.startswith(f"{folder / 'bad.toml'}: "), info.value.message
    return info.value.message


# --- layouts ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("table", "key", "value", "reason"),
    [
        ("rows", "figure_gap", "1e308", "rows.figure_gap: 1e+308 mm is outside 0–300 mm"),
        ("back", "frame_radius", "1e308", "back.frame_radius: 1e+308 mm is outside 0–300 mm"),
        ("back", "frame_radius", "nan", "back.frame_radius: nan mm is outside 0–300 mm"),
        ("card", "width", "inf", "card.width: inf mm is outside 25–300 mm"),
        ("card", "bleed", "-1", "card.bleed: -1 mm is outside 0–10 mm"),
        ("rows", "figure_gap", "-0.5", "rows.figure_gap: -0.5 mm is outside 0–300 mm"),
        ("rows", "rule_width", "400", "rows.rule_width: 400 pt is outside 0.05–10 pt"),
        ("back", "lattice_step", "0.0001", "back.lattice_step: 0.0001 mm is outside 1–300 mm"),
        ("name_fit", "step", "1e-300", "name_fit.step: 1e-300 pt is outside 0.1–4 pt"),
        ("joker", "game_gap", "1e9", "joker.game_gap: 1 000 000 000 em is outside 0–1.5 em"),
        ("styles.name", "size", "1000000", "styles.name.size: 1 000 000 pt is outside 1–72 pt"),
        ("styles.nr", "leading", "0", "styles.nr.leading: 0 × size is outside 0.5–3 × size"),
        ("boxes.rows", "left", "1e308", "boxes.rows.left: 1e+308 mm is outside 0–300 mm"),
        ("rows", "figure_gap", "120", "rows.figure_gap: 120 mm is more than the card's side"),
        ("rows", "figure_gap", '"wide"', 'rows.figure_gap: is "wide", not a number'),
    ],
)
def test_every_measure_of_a_layout_has_a_physical_range(layouts, table, key, value, reason):
    extra = "right = 3\nbottom = 15.2\nheight = 28.8\n" if table.startswith("boxes") else ""
    text = f'extends = "poker"\ndescription = "x"\n[{table}]\n{extra}{key} = {value}\n'
    assert reason in layout_error(layouts, text)


def test_a_chain_of_thirteen_extends_is_too_deep_not_a_loop(layouts: Path):
    parent = "poker"
    for level in range(1, 14):
        (layouts / f"c{level}.toml").write_text(f'extends = "{parent}"\ndescription = "c"\n')
        parent = f"c{level}"
    with pytest.raises(LayoutError) as info:
        load_layout("c13", layouts)
    message = info.value.message
    assert message.startswith(f"{layouts / 'c13.toml'}: extends chains more than 8 layouts")
    assert "loop" not in message and "at most 8 may extend one another" in message
    assert load_layout("c8", layouts).width == 63.5  # eight deep is allowed
    (layouts / "a.toml").write_text('extends = "b"\n')
    (layouts / "b.toml").write_text('extends = "a"\n')
    with pytest.raises(LayoutError, match=r"extends forms a loop \(a -> b -> a\)"):
        load_layout("a", layouts)


def test_a_huge_or_deeply_nested_layout_file_is_one_line(layouts: Path):
    huge = 'description = "' + "x" * 300_000 + '"\n'
    assert "too large (293 kB; a layout file is read only up to 256 kB)" in layout_error(
        layouts, huge
    )
    nested = "a = " + "[" * 50_000 + "]" * 50_000 + "\n"
    assert "not a layout (TOML nested too deeply)" in layout_error(layouts, nested)
    assert "not a UTF-8 text file" in layout_error(layouts, b'description = "\xff"\n')


def test_whatever_loads_in_range_renders(layouts: Path, tmp_path: Path):
    """The extremes a range allows still draw: every part at its largest that fits."""
    text = (
        'extends = "poker"\ndescription = "extreme"\n[rows]\nfigure_gap = 80\nlabel_gap = 80\n'
        "tag_gap = 80\npill_width = 80\n[back]\nframe_radius = 80\nplate_radius = 80\n"
        "lattice_step = 1\n[joker]\ngame_gap = 1.5\n"
    )
    (layouts / "extreme.toml").write_text(text)
    layout = load_layout("extreme", layouts)
    import io

    from reportlab.pdfgen.canvas import Canvas

    from kraftstokk.render.back import draw_card_back
    from kraftstokk.render.card import draw_card_face

    deck = synthetic_deck()
    canvas = Canvas(io.BytesIO(), pagesize=(400, 400), invariant=1)
    for card in deck.cards:
        draw_card_face(canvas, card, deck, 10, 10, layout)
    draw_card_back(canvas, deck, 200, 10, layout)
    canvas.save()


def test_list_layouts_lists_the_good_ones_and_names_the_bad(layouts, monkeypatch):
    (layouts / "wide.toml").write_text('extends = "poker"\n[rows]\nfigure_gap = 1e308\n')
    monkeypatch.setattr(layout_module, "_folder", lambda folder: layouts)
    layout_module.load_layout.cache_clear()
    try:
        result = runner.invoke(app, ["render", "--list-layouts"])
        line = one_error_line(result, 2, "wide.toml: rows.figure_gap: 1e+308 mm is outside")
        assert "Traceback" not in line
        listed = [row.split()[0] for row in result.stdout.splitlines()]
        assert listed == ["bridge", "poker", "poker-63x88", "poker-dtc"]
        (layouts / "loop.toml").write_text('extends = "loop"\n')
        result = runner.invoke(app, ["render", "--list-layouts"])
        one_error_line(result, 2, "2 layout files cannot be used (listed above); 4 listed")
        assert "loop.toml: extends forms a loop" in result.stderr
    finally:
        layout_module.load_layout.cache_clear()


# --- presets ----------------------------------------------------------------------------


def preset_error(folder: Path, change: dict[str, object]) -> str:
    data = tomllib.loads((folder / "offset.toml").read_text(encoding="utf-8"))
    data.update(change)
    (folder / "bad.toml").write_text(toml_text(data), encoding="utf-8")
    with pytest.raises(PresetError) as info:
        load_preset("bad", folder)
    message = info.value.message
    assert message.startswith(f"{folder / 'bad.toml'}: ") and "\n" not in message, message
    assert "pydantic" not in message and "http" not in message, message
    return message


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        ({"bleed_mm": 1e308}, "bleed_mm: 1e+308 mm is outside 0–10 mm"),
        ({"safe_mm": float("nan")}, "safe_mm: nan mm is outside 0–10 mm"),
        ({"mark_inset_mm": 25}, "mark_inset_mm: 25 mm is outside 0–20 mm"),
        ({"ink_limit_pct": 4000}, "ink_limit_pct: 4 000 % is outside 100–400 %"),
        ({"min_text_pt": 1e9}, "min_text_pt: 1 000 000 000 pt is outside 0–72 pt"),
        ({"min_line_pt": -1}, "min_line_pt: -1 pt is outside 0–10 pt"),
        ({"min_image_dpi": 1e6}, "min_image_dpi: 1 000 000 dpi is outside 0–2 400 dpi"),
        ({"png_dpi": 100_000}, "png_dpi: is 100000, must be at most 1200"),
        ({"colour": "cmky"}, 'colour: is "cmky", not one of rgb or cmyk'),
        ({"pages": 3}, "pages: is 3"),
        ({"title": "t" * 500}, "title: is too long"),
        ({"bleed": 3}, "bleed: unknown key"),
        ({"name": "other"}, "name: unknown key"),
    ],
)
def test_a_bad_preset_is_one_line_naming_file_key_and_range(presets, change, reason):
    assert reason in preset_error(presets, change)


def test_the_issue_preset_dump_is_now_one_line(presets: Path):
    """Was: 'preset bad.toml is not valid: 1 validation error for Preset ... https://...'."""
    message = preset_error(presets, {"bleed_mm": 1e308, "ink_limit_pct": -5, "colour": 7})
    assert message.count(";") == 2


def test_list_presets_lists_the_good_ones_and_names_the_bad(presets, monkeypatch):
    (presets / "broken.toml").write_text("title = [unclosed\n")
    monkeypatch.setattr(presets_module, "_folder", lambda folder: presets)
    presets_module.load_preset.cache_clear()
    try:
        good, bad = preset_listing(presets)
        assert [preset.name for preset in good] == [
            "drivethrucards",
            "home-a4",
            "home-letter",
            "makeplayingcards",
            "offset",
            "offset-x4",
        ]
        assert len(bad) == 1 and "broken.toml: not valid TOML" in bad[0]
        result = runner.invoke(app, ["render", "--list-presets"])
        one_error_line(result, 2, "broken.toml: not valid TOML")
        assert [row.split()[0] for row in result.stdout.splitlines()] == [p.name for p in good]
    finally:
        presets_module.load_preset.cache_clear()


def test_the_shipped_layouts_and_presets_are_all_good():
    assert layout_listing()[1] == [] and preset_listing()[1] == []


# --- sweeps -----------------------------------------------------------------------------

SWEEP = "[grid]\ndecks = ['deck.json']\ngames = ['idiot']\n"


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        (
            f"action_cap = {2**31}",
            "action_cap: 2 147 483 648 actions is outside 1–1 000 000 actions",
        ),
        (f"action_cap = {2**63}", "action_cap: 9.22337e+18 actions is outside 1–1 000 000"),
        ("action_cap = 0", "action_cap: 0 actions is outside 1–1 000 000 actions"),
        (f"seed = {2**70}", "seed: 1.18059e+21 is outside"),
        ("games = 100000000000", "games: is 100000000000, must be at most 10000000"),
    ],
)
def test_a_sweep_bound_is_one_line_naming_key_and_range(line: str, reason: str):
    with pytest.raises(SweepValidationError) as info:
        parse_sweep(f"{line}\n{SWEEP}", "sweep.toml")
    assert info.value.message.startswith("sweep.toml: ") and reason in info.value.message
    assert info.value.exit_code == 1


def test_the_sweep_action_cap_is_simulates_bound():
    assert parse_sweep(f"action_cap = {MAX_ACTION_CAP}\n{SWEEP}", "s").action_cap == MAX_ACTION_CAP
    result = runner.invoke(app, ["simulate", "--game", "idiot", "--action-cap", "1000001"])
    one_error_line(result, 2, "--action-cap")


def test_a_sweep_file_that_is_no_file_is_refused_at_once(tmp_path: Path):
    import os

    fifo = tmp_path / "sweep.toml"
    os.mkfifo(fifo)
    result = runner.invoke(app, ["sweep", str(fifo)])
    one_error_line(result, 2, "sweep.toml: is a named pipe (FIFO), not a sweep file")


# --- locales ----------------------------------------------------------------------------


def nb() -> dict[str, object]:
    """The booklet part of bokmål, as its file holds it."""
    return copy.deepcopy(locales.load("nb").part("booklet"))


def parse_nb(booklet: dict[str, object]) -> None:
    parse_locale("locales/nb/booklet.toml", "nb", booklet, locales.load("nb").part("words"))


def locale_error(data: dict[str, object]) -> str:
    with pytest.raises(LocaleError) as info:
        parse_nb(data)
    assert "\n" not in info.value.message
    return info.value.message


def with_text(key: str, value: object) -> dict[str, object]:
    data = copy.deepcopy(nb())
    data["text"][key] = value  # type: ignore[index]
    return data


@pytest.mark.parametrize(
    ("value", "reason"),
    [
        ("<b>unclosed", "[text] subtitle: <b> is never closed"),
        ('<img src="/etc/passwd"/> x', "<img> is not a tag the booklet uses"),
        ("<font size=1000000>big</font>", "<font size=1000000>: 1 000 000 pt is outside 6–12 pt"),
        ("<font size='2'>tiny</font>", "<font size=2>: 2 pt is outside 6–12 pt"),
        ("<font name=Helvetica>x</font>", "font takes no name (attributes: size)"),
        ('<font color="red">x</font>', "font takes no color"),
        ("<b><i>x</b></i>", "</b> closes <i>"),
        ("x</b>", "</b> closes no tag"),
        ("<a href='http://x'>x</a>", "<a> is not a tag the booklet uses"),
        ("<b/>", "<b/> is empty"),
        ("&bogus; text", "&bogus; is not an entity the booklet knows"),
        ("x &#7; y", "&#7; is not a printable character"),
        ("<!-- x -->", "a tag that does not end or cannot be read"),
        ("<b" * 20 + ">", "a tag that does not end or cannot be read"),
        ("<b>" * 9 + "x" + "</b>" * 9, "tags nested more than 8 deep"),
        ("s" * (MAX_TITLE + 1), f"the text has {MAX_TITLE + 1} characters; a heading has at most"),
    ],
)
def test_bad_markup_in_a_locale_is_one_line_naming_file_and_key(value: str, reason: str):
    message = locale_error(with_text("subtitle", value))
    assert message.startswith("locales/nb/booklet.toml [text] subtitle: ") and reason in message


def test_markup_the_booklet_uses_passes():
    text = "a <b>b</b> <i>c</i> <u>d</u> x<sup>2</sup> <font size='9'>e</font> & f < g &amp; &#229;"
    parse_nb(with_text("subtitle", text))


def test_a_plural_named_out_of_bounds_is_refused():
    data = copy.deepcopy(nb())
    data["grammar"]["plurals"] = {">999999999": {"one": "{count}", "other": "{count}"}}  # type: ignore[index]
    data["text"]["edition"] = "Utgave {edition:>999999999}"  # type: ignore[index]
    assert "'>999999999' is not a plural's name" in locale_error(data)


@pytest.mark.parametrize(
    ("key", "value", "reason"),
    [
        ("edition", "Utgave {edition:>999999999}", "names no plural in [grammar.plurals]"),
        ("edition", "Utgave {edition!r}", "{edition!r}: no !conversion is taken"),
        ("edition", "Utgave {edition.__class__}", "{edition.__class__} is not a placeholder"),
        ("edition", "Utgave {edition[0]}", "{edition[0]} is not a placeholder"),
        ("deck_intro", ["{title:count_x}"], "names no plural"),
        ("deck_intro", ["x" * (MAX_TEXT + 1)], "has at most 2000"),
        ("deck_intro", ["x"] * 61, "61 paragraphs; at most 60"),
        ("deck_intro", "one text", "must be a list of paragraphs"),
    ],
)
def test_template_fields_and_lengths_are_bounded(key: str, value: object, reason: str):
    assert reason in locale_error(with_text(key, value))


def test_a_plural_only_goes_on_a_count():
    data = copy.deepcopy(nb())
    data["grammar"]["plurals"] = {"plants": {"one": "{count} plant", "other": "{count} plants"}}  # type: ignore[index]
    data["text"]["deck_intro"] = ["{title:plants}"]  # type: ignore[index]
    assert "{title:plants}: {title} is not a count, so it takes no plural" in locale_error(data)


def test_grammar_templates_and_plural_forms_are_checked_too():
    data = copy.deepcopy(nb())
    data["grammar"]["card_name"] = "<b>{suit} {value}"  # type: ignore[index]
    assert "card_name: <b> is never closed" in locale_error(data)
    data = copy.deepcopy(nb())
    data["grammar"]["plurals"] = {"produce": {"one": "{count:>99999}", "other": "x"}}  # type: ignore[index]
    assert "[grammar.plurals.produce] one: {count:>99999} names no plural" in locale_error(data)


@contextlib.contextmanager
def booklet_language(data: dict[str, object], folder: Path, monkeypatch: pytest.MonkeyPatch):
    """``data`` as the booklet part of bokmål, the only language there is while the block
    runs (its other parts as shipped)."""
    language = folder / "nb"
    language.mkdir(parents=True)
    for part in SHIPPED_LOCALES.joinpath("nb").iterdir():
        (language / part.name).write_bytes(part.read_bytes())
    (language / "booklet.toml").write_text(toml_text(data), encoding="utf-8")
    monkeypatch.setattr(locale_loader, "_folder", lambda: folder)
    locale_loader.reset()
    try:
        yield
    finally:
        monkeypatch.undo()
        locale_loader.reset()


def test_a_locale_at_its_limits_renders(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """Headings of 120 characters, a 12 pt font in the cover's subtitle, a paragraph of
    2000 characters: the booklet is made."""
    data = copy.deepcopy(nb())
    text = data["text"]  # type: ignore[index]
    text["subtitle"] = "<font size=12>" + "Spilleregler " * 7 + "</font>"  # type: ignore[index]
    text["deck_heading"] = ("Kortstokken " * 20)[:MAX_TITLE]  # type: ignore[index]
    text["nr_meaning"] = ("Lang forklaring " * 200)[:MAX_TEXT]  # type: ignore[index]
    with booklet_language(data, tmp_path / "locales", monkeypatch):
        assert build_booklet(synthetic_deck(), "nb").startswith(b"%PDF")


def test_an_example_taller_than_a_page_is_one_line_not_a_reportlab_traceback(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    """A worked example is a box that cannot break across pages: sixty long paragraphs
    in one are refused with the file to shorten."""
    data = copy.deepcopy(nb())
    chapter = data["idiot"]  # type: ignore[index]
    chapter["example"] = [("Et langt eksempel " * 120)[:MAX_TEXT]] * 60  # type: ignore[index]
    with (
        booklet_language(data, tmp_path / "locales", monkeypatch),
        pytest.raises(RenderError) as info,
    ):
        build_booklet(synthetic_deck(), "nb")
    message = info.value.message
    assert message.startswith("the booklet in 'nb' does not fit its pages: a block of its text")
    assert message.endswith("shorten that text in locales/nb/booklet.toml") and "\n" not in message
