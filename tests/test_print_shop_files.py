"""Every print-shop preset and layout: the cards, the tuck box and the booklet pass the
project's preflight and Ghostscript's separations (ink within the limit, spot colours
only where die lines are, die lines overprinting)."""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import pytest
from pypdf import PdfReader
from typer.testing import CliRunner

from kraftstokk.cli import app
from kraftstokk.design.layout import layout_names, load_layout
from kraftstokk.design.presets import Preset, all_presets
from kraftstokk.design.presets.fit import layout_problems
from kraftstokk.models import Deck
from kraftstokk.render.booklet import printshop_booklet
from kraftstokk.render.box import BoxOptions, dieline_pdf, shop_box_pdf, tuck_box
from kraftstokk.render.preflight import preflight
from kraftstokk.render.printshop import printshop_pdf
from tests.conftest import synthetic_deck
from tests.ghostscript import (
    GS,
    NO_GS,
    NO_PROFILE,
    PROCESS,
    SYSTEM_PROFILE,
    separations,
    stand_in_profiles,
    total_ink,
)

runner = CliRunner()
SHOP_PRESETS = [p for p in all_presets() if p.pages == "cards" and p.colour == "cmyk"]
CASES = [
    pytest.param(preset, name, id=f"{preset.name}-{name}")
    for preset in SHOP_PRESETS
    for name in layout_names()
    if not layout_problems(load_layout(name), preset)
]
needs_gs = pytest.mark.skipif(GS is None, reason=NO_GS)


@pytest.fixture(autouse=True)
def system_profiles(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """PDF/X-4 presets find a stand-in for their profile: Ghostscript's CMYK profile
    relabelled as theirs (tests.ghostscript.stand_in_profiles)."""
    if any(p.output_profile for p in SHOP_PRESETS) and not SYSTEM_PROFILE.is_file():
        pytest.skip(NO_PROFILE)
    profiles = stand_in_profiles(tmp_path / "profiles", SHOP_PRESETS)
    monkeypatch.setenv("KRAFTSTOKK_PROFILES", str(profiles))


@pytest.fixture(scope="module")
def deck() -> Deck:
    return synthetic_deck()


def _cards(deck: Deck) -> set[str]:
    """A joker, a burn card and a plant: every kind of face, and the back."""
    joker = next(c.id for c in deck.cards if c.joker)
    plants = [c for c in deck.cards if not c.joker]
    burn = next((c.id for c in plants if c.flags.burn), plants[1].id)
    return {joker, burn, plants[0].id}


def _passes(path: Path, preset: Preset) -> None:
    report = preflight(path, preset)
    failures = [f"{check.name}: {failure}" for check in report.checks for failure in check.failures]
    assert failures == [], "\n".join(failures)


def _within_limit(plates: list[dict[str, np.ndarray]], preset: Preset) -> None:
    limit = preset.ink_limit_pct or 400
    for page in plates:
        assert set(PROCESS) <= set(page)
        assert total_ink(page).max() <= limit + 0.5


@needs_gs
@pytest.mark.parametrize(("preset", "name"), CASES)
def test_cards_and_box_pass_preflight_and_ghostscript(
    preset: Preset, name: str, deck: Deck, tmp_path: Path
):
    layout = load_layout(name)
    cards = tmp_path / "cards.pdf"
    cards.write_bytes(printshop_pdf(deck, layout, preset, only=_cards(deck)))
    box = tmp_path / "box.pdf"
    box.write_bytes(shop_box_pdf(deck, layout, preset))
    die = tmp_path / "die.pdf"
    die.write_bytes(dieline_pdf(deck, layout, preset))
    for path in (cards, box, die):
        _passes(path, preset)
    for path in (box, die):  # as a shop would check it: a TrimBox of any size
        result = runner.invoke(
            app, ["preflight", str(path), "--preset", preset.name, "--layout", "any"]
        )
        assert result.exit_code == 0, result.output
    card_plates = separations(cards, tmp_path / "cards", pages=6)
    _within_limit(card_plates, preset)
    assert all(set(page) == set(PROCESS) for page in card_plates)  # no spot colour
    (box_plates,) = separations(box, tmp_path / "box", pages=1)
    _within_limit([box_plates], preset)
    (die_plates,) = separations(die, tmp_path / "die", pages=1)
    assert not any(die_plates[ink].any() for ink in PROCESS if ink != "Black")
    assert die_plates["CutContour"].max() == die_plates["Crease"].max() == 1.0
    if preset.pdf_standard == "PDF/X-4":  # the box's die lines are on layers that do not print
        assert not box_plates["CutContour"].any() and not box_plates["Crease"].any()
        return
    assert set(box_plates) == {*PROCESS, "CutContour", "Crease"}
    cut, crease = box_plates["CutContour"], box_plates["Crease"]
    assert cut.max() == crease.max() == 1.0
    # Overprint: where a die line runs inside the artwork the inks under it stay.
    inside = (cut > 0.5) & (box_plates["Cyan"] > 0.3)
    assert inside.sum() > 20
    assert np.array_equal(die_plates["CutContour"] > 0.5, cut > 0.5)


@needs_gs
def test_the_print_shop_booklet_passes_preflight_and_ghostscript(deck: Deck, tmp_path: Path):
    from kraftstokk.design.presets import load_preset

    preset = load_preset("offset")
    path = tmp_path / "booklet.pdf"
    path.write_bytes(printshop_booklet(deck))
    _passes(path, preset)
    reader = PdfReader(path)
    assert all("/Annots" not in page for page in reader.pages)  # the links stay on screen
    plates = separations(path, tmp_path / "booklet", pages=6)  # the cover and a chapter
    assert len(plates) == 6
    _within_limit(plates, preset)
    assert all(set(page) == set(PROCESS) for page in plates)


@pytest.mark.parametrize("preset", SHOP_PRESETS, ids=lambda p: p.name)
def test_the_box_page_is_the_die_plus_bleed_and_its_lines_are_spot_colours(
    preset: Preset, deck: Deck
):
    layout = load_layout("poker")
    reader = PdfReader(io.BytesIO(shop_box_pdf(deck, layout, preset)))
    page = reader.pages[0]
    die = tuck_box(layout, BoxOptions()).bounds
    trim = [float(v) for v in page.trimbox]
    bleed = [float(v) for v in page.bleedbox]
    mm = 72 / 25.4
    assert (trim[2] - trim[0]) / mm == pytest.approx(die.w, abs=0.01)
    assert (trim[3] - trim[1]) / mm == pytest.approx(die.h, abs=0.01)
    assert (trim[0] - bleed[0]) / mm == pytest.approx(preset.bleed_mm, abs=0.01)
    spaces = page["/Resources"]["/ColorSpace"]
    names = sorted(str(space.get_object()[1]) for space in spaces.values())
    assert names == ["/Crease", "/CutContour"]
    states = page["/Resources"]["/ExtGState"]
    assert any(bool(state.get_object().get("/OP")) for state in states.values())
    root = reader.trailer["/Root"]
    if preset.pdf_standard == "PDF/X-1a:2003":
        # PDF 1.4: no layers (they came with PDF 1.5); the spot colours keep the die
        # lines off the plates.
        assert "/OCProperties" not in root
        return
    # PDF/X-4: the die lines also on layers, off (so not printed), marked not for print,
    # without the automatic states PDF/X-4 forbids.
    layers = root["/OCProperties"]
    default = layers["/D"]
    assert "/AS" not in default and "/ON" not in default
    assert len(default["/OFF"]) == 2 and str(default["/Name"])
    for group in layers["/OCGs"]:
        assert group.get_object()["/Usage"]["/Print"]["/PrintState"] == "/OFF"
    intent = root["/OutputIntents"][0].get_object()
    assert intent["/DestOutputProfile"].get_object()["/N"] == 4
    assert reader.pdf_header == "%PDF-1.6"


def test_the_default_box_holds_55_cards_at_the_layouts_thickness():
    for name in layout_names():
        layout = load_layout(name)
        box = tuck_box(layout, BoxOptions())
        assert layout.thickness == 0.32
        assert box.depth == pytest.approx(55 * 0.32 + 2.0)
        assert box.depth > 55 * layout.thickness + 1.5  # the board's folds and play
