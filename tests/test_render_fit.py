"""Fitting plant names: shrink, then wrap to two lines, inside the safe area, or say why not."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kraftstokk.design.fit import FitRules
from kraftstokk.design.fit import fit_name as fit_in
from kraftstokk.design.fonts import text_width
from kraftstokk.design.layout import CardLayout, layout_names, load_layout

POKER = load_layout("poker")
RULES = FitRules.of(POKER)
MAX_SIZE, MIN_SIZE, ONE_LINE_MIN_SIZE = RULES.max_size, RULES.min_size, RULES.one_line_min


def fit_name(name: str, layout: CardLayout = POKER):
    return fit_in(name, layout)


def _inside_box(fit, layout: CardLayout = POKER) -> bool:
    rules = FitRules.of(layout)
    wide = max(text_width(line, rules.font, fit.font_size) for line in fit.lines)
    tall = len(fit.lines) * fit.font_size * rules.leading
    return wide <= rules.box_w + 1e-6 and tall <= rules.box_h + 1e-6


def test_short_name_is_one_line_at_full_size():
    fit = fit_name("Sima")
    assert fit.fits and fit.lines == ["Sima"] and fit.font_size == MAX_SIZE


def test_longer_name_shrinks_before_it_wraps():
    fit = fit_name("Nedre Røssåga")
    assert fit.fits and fit.lines == ["Nedre Røssåga"]
    assert ONE_LINE_MIN_SIZE <= fit.font_size < MAX_SIZE


def test_long_name_wraps_to_two_balanced_lines():
    fit = fit_name("Fellesanlegget Kykkelsrud-Fossumfoss")
    assert fit.fits and len(fit.lines) == 2
    assert fit.font_size >= MIN_SIZE
    assert _inside_box(fit)
    assert fit_name("Tafjord 7 (Fagerbotnvatn)").lines == ["Tafjord 7", "(Fagerbotnvatn)"]


def test_hyphen_break_keeps_the_hyphen():
    fit = fit_name("Kykkelsrudfossenkraftverk-Fossumfossenanlegg")
    assert fit.lines[0].endswith("-")


def test_unbreakable_overlong_name_does_not_fit_and_says_why():
    fit = fit_name("Storeskjærsvatnkraftstasjonsanleggene")
    assert not fit.fits
    assert "name too long for the card" in fit.reason and "mm" in fit.reason


def test_too_long_even_on_two_lines():
    fit = fit_name("Storeskjærsvatnkraftstasjonsanlegg Nordre Vestlandsfjellene Øst")
    assert not fit.fits and "two lines" in fit.reason


def test_character_without_glyph_does_not_fit():
    fit = fit_name("Kraft ★")
    assert not fit.fits and "glyph" in fit.reason


def test_empty_name():
    assert not fit_name("  ").fits


names = st.lists(
    st.text(alphabet="abcdefghijklmnopqrstuvwxyzæøåÆØÅ", min_size=1, max_size=16),
    min_size=1,
    max_size=4,
).map(" ".join)


@pytest.mark.parametrize("layout_name", layout_names())
@settings(max_examples=100, deadline=None)
@given(name=names)
def test_a_name_that_fits_stays_inside_the_box_and_keeps_its_letters(layout_name: str, name: str):
    layout = load_layout(layout_name)
    rules = FitRules.of(layout)
    fit = fit_name(name, layout)
    if fit.fits:
        assert _inside_box(fit, layout)
        assert rules.min_size <= fit.font_size <= rules.max_size
        assert " ".join(fit.lines) == name
    else:
        assert fit.reason


def test_the_narrower_bridge_card_sets_a_name_smaller_or_on_two_lines():
    bridge = load_layout("bridge")
    name = "Nedre Røssåga"
    poker_fit, bridge_fit = fit_name(name), fit_name(name, bridge)
    assert poker_fit.fits and bridge_fit.fits
    assert (len(bridge_fit.lines), -bridge_fit.font_size) > (
        len(poker_fit.lines),
        -poker_fit.font_size,
    )
    assert _inside_box(bridge_fit, bridge)


def test_the_longest_real_name_fits_every_layout():
    # The longest name among the project's own snapshot's largest plants.
    for name in layout_names():
        fit = fit_in("Fellesanlegget Kykkelsrud-Fossumfoss", load_layout(name))
        assert fit.fits, (name, fit.reason)
        assert fit.font_size >= 7.0  # no preset's reversed-text minimum is higher


def test_a_spec_with_only_a_snapshot_and_the_bridge_layout_builds_and_renders(tmp_path):
    import shutil
    from pathlib import Path

    from typer.testing import CliRunner

    from kraftstokk.cli import app

    sources = Path(__file__).parent.parent / "sources"
    for part in ("jrc-2024-01.csv", "jrc-2024-01.provenance.json"):
        shutil.copy(sources / part, tmp_path / part)
    spec = tmp_path / "deck.toml"
    spec.write_text('snapshot = "jrc-2024-01.csv"\n\n[style]\nlayout = "bridge"\n')
    runner = CliRunner()
    built = runner.invoke(app, ["build", "--spec", str(spec), "--out", str(tmp_path / "out")])
    assert built.exit_code == 0, built.output
    deck = tmp_path / "out" / "deck.json"
    rendered = runner.invoke(
        app, ["render", str(deck), "--out", str(tmp_path / "out"), "--only", "printshop"]
    )
    assert rendered.exit_code == 0, rendered.output


def test_validate_fits_names_in_the_layout_of_the_decks_print_preset(deck):
    from kraftstokk.deck.validate import validate_deck

    long = "MMMMMMMMMMMMMMMri Nord"  # fits poker-dtc, not the 6.3 mm narrower bridge
    assert fit_in(long, load_layout("poker-dtc")).fits
    assert not fit_in(long, load_layout("bridge")).fits
    cards = [c.model_copy(update={"name": long}) if c.id == deck.cards[0].id else c
             for c in deck.cards]  # fmt: skip
    bridge = {**deck.spec, "style": {"layout": "bridge"}}
    renamed = deck.model_copy(update={"cards": cards, "spec": bridge})
    in_bridge = validate_deck(renamed)
    with_preset = {**bridge, "print": {"preset": "drivethrucards"}}
    in_dtc = validate_deck(renamed.model_copy(update={"spec": with_preset}))
    assert [p for p in in_bridge.errors if p.rule == "name_fit"]
    assert not [p for p in in_dtc.errors if p.rule == "name_fit"]
