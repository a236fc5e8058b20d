"""Printer presets end to end: each preset's file passes preflight with its own preset,
and the print defects found in issue 14 stay fixed (each test fails on the old code)."""

from __future__ import annotations

import io
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest
from PIL import Image
from pypdf import PdfReader
from typer.testing import CliRunner

from kraftstokk.cli import app
from kraftstokk.design.layout import load_layout
from kraftstokk.design.presets import all_presets, load_preset, preset_names
from kraftstokk.errors import RenderError
from kraftstokk.models import Deck
from kraftstokk.render.booklet import booklet_with_bleed, build_booklet, printshop_booklet
from kraftstokk.render.outputs import RenderOptions, check_upload_size, render_deck
from kraftstokk.render.preflight import preflight
from kraftstokk.render.printshop import printshop_pdf
from kraftstokk.render.sheet_layout import sheet_layout
from kraftstokk.render.sheets import _test_points, duplex_outcomes, sheets_pdf
from tests.conftest import synthetic_deck
from tests.ghostscript import NO_PROFILE, SYSTEM_PROFILE, stand_in_profiles
from tests.render_probe import PT, page_text

runner = CliRunner()


@pytest.fixture(scope="module")
def deck() -> Deck:
    return synthetic_deck()


@pytest.fixture(scope="module")
def outputs(deck: Deck, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Each preset's PDF, made as ``render --preset NAME`` makes it."""
    files: dict[str, Path] = {}
    wanted = [p for p in all_presets() if p.output_profile]
    if wanted and not SYSTEM_PROFILE.is_file():
        pytest.skip(NO_PROFILE)
    profiles = stand_in_profiles(tmp_path_factory.mktemp("profiles"), wanted)
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("KRAFTSTOKK_PROFILES", str(profiles))
        for preset in all_presets():
            out = tmp_path_factory.mktemp(preset.name)
            only = ("sheets",) if preset.pages == "sheets" else ("printshop",)
            result = render_deck(deck, out, RenderOptions(preset=preset.name, only=only))
            (files[preset.name],) = result.files
    return files


@pytest.mark.parametrize("name", preset_names())
def test_every_preset_output_passes_its_own_preflight(name: str, outputs: dict[str, Path]):
    preset = load_preset(name)
    layout = load_layout(preset.layout or "poker")
    report = preflight(outputs[name], preset, trim_mm=(layout.width, layout.height))
    assert report.passed, "\n".join(report.lines())


def test_drivethrucards_file(outputs: dict[str, Path], deck: Deck):
    reader = PdfReader(outputs["drivethrucards"])
    assert outputs["drivethrucards"].name == "kraftstokk-drivethrucards.pdf"
    assert len(reader.pages) == 2 * len(deck.cards)  # both faces of every card
    for page in reader.pages[:4]:
        assert float(page.mediabox.width) / 72 == pytest.approx(2.75)
        assert float(page.mediabox.height) / 72 == pytest.approx(3.75)
    # back, front, back, front: the deck's title twice (a back), then the first card's name
    assert [p.text for p in page_text(reader.pages[0])].count(deck.title) == 2
    assert deck.cards[0].name in [p.text for p in page_text(reader.pages[1])]
    assert deck.cards[1].name in [p.text for p in page_text(reader.pages[3])]
    info = reader.metadata or {}
    assert info["/GTS_PDFXConformance"] == "PDF/X-1a:2003"
    intent = reader.trailer["/Root"]["/OutputIntents"][0].get_object()
    assert intent["/OutputConditionIdentifier"] == "CGATS TR 001"
    assert "/DestOutputProfile" not in intent  # registered condition, no profile embedded
    report = preflight(outputs["drivethrucards"], load_preset("drivethrucards"))
    ink = next(c for c in report.checks if c.name == "ink")
    assert ink.passed and "limit 240 %" in ink.summary


def test_print_files_repeat_byte_for_byte(deck: Deck):
    preset = load_preset("drivethrucards")
    layout = load_layout("poker-dtc")
    assert printshop_pdf(deck, layout, preset) == printshop_pdf(synthetic_deck(), layout, preset)


def test_home_sheets_stay_rgb_and_print_files_have_no_rgb(outputs: dict[str, Path]):
    home = preflight(outputs["home-a4"], load_preset("home-a4"))
    assert next(c for c in home.checks if c.name == "colour").summary == "DeviceRGB"
    shop = preflight(outputs["offset"], load_preset("offset"))
    assert next(c for c in shop.checks if c.name == "colour").summary == "DeviceCMYK"


def test_text_sizes_raised_in_the_poker_layout():
    """Was 5 pt small print, 5.6 pt tags and a regular 7 pt edition reversed on the back."""
    styles = load_layout("poker").styles
    assert styles.small_print.size >= 6 and styles.tag.size >= 6
    assert styles.back_edition.weight == "bold"


def test_duplex_test_is_asymmetric_and_says_what_each_outcome_means(deck: Deck):
    layout = sheet_layout("a4", load_layout("poker"))
    points = _test_points(layout)
    w, h = layout.paper.width, layout.paper.height
    turned = {(round(w - x, 3), round(h - y, 3)) for x, y in points}
    assert turned != {(round(x, 3), round(y, 3)) for x, y in points}
    reader = PdfReader(io.BytesIO(sheets_pdf(deck, load_layout("poker"))))
    back = " ".join(p.text for p in page_text(reader.pages[-1]))
    right, wrong = duplex_outcomes("long")
    assert right[0] in back and wrong[0] in back and "--duplex short" in back


def test_booklet_print_file_has_bleed_and_the_cover_bands_reach_into_it(deck: Deck):
    pdf = booklet_with_bleed(build_booklet(deck, "nb"))
    _check_booklet_bleed(pdf)


def _check_booklet_bleed(pdf: bytes) -> None:
    page = PdfReader(io.BytesIO(pdf)).pages[0]
    trim = [round(float(v) * PT, 1) for v in page.trimbox]
    bleed = [round(float(v) * PT, 1) for v in page.bleedbox]
    assert trim == [0.0, 0.0, 148.0, 210.0]
    assert bleed == [-3.0, -3.0, 151.0, 213.0]
    import pypdfium2 as pdfium

    image = pdfium.PdfDocument(pdf)[0].render(scale=1).to_pil().convert("RGB")
    media = [float(v) for v in page.mediabox]
    left = round(float(page.bleedbox[0]) - media[0]) + 1  # the slug with the crop marks
    top = round(media[3] - float(page.bleedbox[3])) + 1
    corner = image.getpixel((left, top))  # top-left corner of the bleed: the band's blue
    assert corner != (255, 255, 255) and corner[2] > corner[0]


def test_printshop_booklet_passes_the_offset_preflight(deck: Deck, tmp_path: Path):
    path = tmp_path / "regler-printshop.pdf"
    path.write_bytes(printshop_booklet(deck, "nb"))
    assert printshop_booklet(synthetic_deck(), "nb") == path.read_bytes()  # same bytes
    report = preflight(path, load_preset("offset"))
    assert report.passed, "\n".join(report.lines())
    _check_booklet_bleed(path.read_bytes())
    images = next(c for c in report.checks if c.name == "images")
    assert images.summary != "0 images"  # the miniatures, as CMYK pictures


def test_booklet_miniatures_have_no_hairlines_or_tiny_text(deck: Deck, tmp_path: Path):
    path = tmp_path / "regler.pdf"
    path.write_bytes(build_booklet(deck, "nb"))
    report = preflight(path, load_preset("home-a4"))
    checks = {c.name: c for c in report.checks}
    assert checks["lines"].passed, checks["lines"].failures[:3]
    assert checks["text"].passed, checks["text"].failures[:3]


def test_png_upload_images_with_bleed_at_the_preset_size(deck: Deck, tmp_path: Path):
    options = RenderOptions(preset="drivethrucards", only=("png",))
    render_deck(deck, tmp_path, options)
    with Image.open(tmp_path / "png" / "01-spar-1-bleed.png") as image:
        assert image.size == (825, 1125)
        profile = image.info["icc_profile"]  # the shop need not guess the colours
    with Image.open(tmp_path / "png" / "back-bleed.png") as image:
        assert image.size == (825, 1125)
    from PIL import ImageCms

    described = ImageCms.getProfileDescription(ImageCms.ImageCmsProfile(io.BytesIO(profile)))
    assert "sRGB" in described and profile[16:20] == b"RGB " and profile[36:40] == b"acsp"
    # The header's date is fixed, not the day it was made: the same deck, the same bytes.
    assert profile[24:36] == bytes([0x07, 0xEA, 0, 1, 0, 1, 0, 0, 0, 0, 0, 0])
    with Image.open(tmp_path / "png" / "01-spar-1.png") as image:
        assert image.size == (750, 1050)  # the preview stays the cut size


@pytest.mark.parametrize("name", [p.name for p in all_presets() if p.upload_px])
def test_print_on_demand_uploads_are_the_pixel_size_the_preset_claims(
    name: str, deck: Deck, tmp_path: Path
):
    """DriveThruCards 825 x 1125, MakePlayingCards 822 x 1122: each claim stated in the
    preset with its source, each face and the back written at exactly that size."""
    preset = load_preset(name)
    assert preset.upload_px is not None and preset.upload_source
    render_deck(deck, tmp_path, RenderOptions(preset=name, only=("png",)))
    for image_name in ("01-spar-1-bleed.png", "55-joker-3-bleed.png", "back-bleed.png"):
        with Image.open(tmp_path / "png" / image_name) as image:
            assert list(image.size) == preset.upload_px, image_name
            assert image.info["dpi"] == pytest.approx((preset.png_dpi,) * 2, abs=0.01)
    claims = {p.name: p.upload_px for p in all_presets() if p.upload_px}
    assert claims == {"drivethrucards": [825, 1125], "makeplayingcards": [822, 1122]}


def test_a_preset_whose_bleed_disagrees_with_its_pixel_claim_is_refused(deck, tmp_path):
    wrong = load_preset("makeplayingcards").model_copy(update={"bleed_mm": 3.175})
    with pytest.raises(RenderError, match=r"uploads must be 822 × 1122 px .* is 825 × 1125 px"):
        check_upload_size(wrong, load_layout("poker"))


def test_render_list_presets_one_line_each():
    result = runner.invoke(app, ["render", "--list-presets"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert [line.split()[0] for line in lines] == preset_names()


def test_unknown_preset_is_one_line_exit_2(tmp_path: Path, deck: Deck):
    path = tmp_path / "deck.json"
    path.write_text(deck.model_dump_json(), encoding="utf-8")
    result = runner.invoke(app, ["render", str(path), "--preset", "nope", "--out", str(tmp_path)])
    assert result.exit_code == 2
    assert "unknown preset 'nope'" in result.output


def test_backs_first_order_puts_each_back_before_its_front():
    from kraftstokk.render.printshop import page_sequence

    assert page_sequence(2, "backs-first") == [("back", 0), ("front", 0), ("back", 1), ("front", 1)]
    assert load_preset("drivethrucards").page_order == "backs-first"


def test_preflight_checks_the_card_size_of_the_layout(outputs: dict[str, Path]):
    path = str(outputs["offset"])
    assert runner.invoke(app, ["preflight", path, "--preset", "offset"]).exit_code == 0
    result = runner.invoke(app, ["preflight", path, "--preset", "offset", "--layout", "bridge"])
    assert result.exit_code == 1
    assert "TrimBox: 63.50 × 88.90 mm (limit: the card, 57.2 × 88.9 mm)" in result.output


def test_deck_spec_print_preset_chooses_the_preset(deck: Deck, tmp_path: Path):
    spec = {**deck.spec, "print": {"preset": "drivethrucards"}}
    chosen = deck.model_copy(update={"spec": spec})
    result = render_deck(chosen, tmp_path, RenderOptions(only=("printshop",)))
    assert [p.name for p in result.files] == ["kraftstokk-drivethrucards.pdf"]


def test_deck_spec_unknown_print_preset_is_a_spec_error():
    from kraftstokk.deck.spec import parse_spec
    from kraftstokk.errors import SpecError

    with pytest.raises(SpecError, match=r"print\.preset"):
        parse_spec({"print": {"preset": "nope"}}, "deck.toml")


def test_every_colour_is_defined_in_the_palette():
    """No drawing module makes its own colour: each is a palette ink (CMYK, RGB derived)."""
    import re

    import kraftstokk.design as design_package
    import kraftstokk.render as render_package

    folders = [Path(package.__file__).parent for package in (design_package, render_package)]
    made_here = re.compile(r"\b(HexColor|CMYKColor|Color)\(|setFillColorRGB|setStrokeColorRGB")
    offenders = [
        f"{path.name}:{number}"
        for folder in folders
        for path in sorted(folder.rglob("*.py"))
        if path.name != "palette.py" and "preflight" not in path.parts
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if made_here.search(line)
    ]
    assert offenders == []


@pytest.mark.skipif(
    shutil.which("gs") is None, reason="Ghostscript (gs) is not installed; .ci/run installs it"
)
@pytest.mark.parametrize("name", ["drivethrucards", "offset"])
def test_ghostscript_separations_agree_ink_and_black(
    name: str, outputs: dict[str, Path], tmp_path: Path
):
    """A second opinion from Ghostscript's CMYK raster: total ink under the preset's limit
    everywhere, and solid black (a front's indices and figures) printed with K alone."""
    preset = load_preset(name)
    out = tmp_path / "page%d.tif"
    # Overprint off: black text on the gold pills overprints, so with it simulated its
    # pixels carry the gold's inks too; the test is of the colour each object is given.
    device = ["-sDEVICE=tiff32nc", "-r100", "-dFirstPage=1", "-dLastPage=4", "-dOverprint=/disable"]
    subprocess.run(
        [
            "gs",
            "-q",
            "-dNOPAUSE",
            "-dBATCH",
            "-dSAFER",
            *device,
            f"-sOutputFile={out}",
            str(outputs[name]),
        ],
        check=True,
        timeout=120,
    )
    solid_black = 0
    for page in range(1, 5):
        with Image.open(tmp_path / f"page{page}.tif") as image:
            assert image.mode == "CMYK"
            ink = np.asarray(image).astype(np.int64)
        total = ink.sum(axis=2) * 100 / 255
        assert total.max() <= (preset.ink_limit_pct or 400) + 0.5
        black = ink[..., 3] == 255
        solid_black += int(black.sum())
        assert not ink[black][:, :3].any(), "solid black pixels carry C, M or Y"
    assert solid_black > 500  # the check saw black text


def _with_style(name: str, **changes: object):
    layout = load_layout("poker")
    styles = layout.spec.styles.model_copy(
        update={name: getattr(layout.spec.styles, name).model_copy(update=changes)}
    )
    return layout.model_copy(update={"spec": layout.spec.model_copy(update={"styles": styles})})


def test_a_layout_below_the_preset_minimum_is_refused():
    """Today's 5 pt small print and regular edition would be refused (render_deck raises
    a RenderError with these lines), not printed."""
    from kraftstokk.design.presets.fit import layout_problems

    small = _with_style("small_print", size=5.0)
    assert layout_problems(small, load_preset("offset")) == [
        "layout poker: styles.small_print can be 5 pt; preset offset needs text of at least 6 pt"
    ]
    regular = _with_style("back_edition", weight="regular")
    assert "needs it bold" in layout_problems(regular, load_preset("offset"))[0]
    # A preset with a layout of its own refuses a layout with a smaller safe area.
    poker = load_layout("poker")
    card = poker.spec.card.model_copy(update={"safe": 3.0})
    narrow = poker.model_copy(update={"spec": poker.spec.model_copy(update={"card": card})})
    assert layout_problems(narrow, load_preset("drivethrucards")) == [
        "layout poker: its safe area is 3 mm inside the cut; preset drivethrucards needs "
        "3.175 mm (its own layout is poker-dtc)"
    ]
    for name in ("poker", "bridge", "poker-63x88", "poker-dtc"):
        for preset in all_presets():
            if preset.layout is None or preset.layout == name:
                assert layout_problems(load_layout(name), preset) == []


def test_an_rgb_colour_on_a_print_canvas_becomes_ink():
    """The safety net for drawing code that names RGB (WHITE, a new module's colour)."""
    from reportlab.lib.colors import Color
    from reportlab.pdfgen.canvas import Canvas

    from kraftstokk.design.palette import WHITE, PrintColour, colour_enforcer

    buffer = io.BytesIO()
    canvas = Canvas(buffer, invariant=1, enforceColorSpace=colour_enforcer(PrintColour("cmyk")))
    canvas.setFillColor(Color(0.2, 0.5, 0.8))
    canvas.rect(10, 10, 50, 50, stroke=0, fill=1)
    canvas.setFillColor(WHITE)
    canvas.rect(20, 20, 10, 10, stroke=0, fill=1)
    canvas.showPage()
    canvas.save()
    content = PdfReader(io.BytesIO(buffer.getvalue())).pages[0].get_contents().get_data()
    assert b" rg" not in content and b" k" in content
    assert b"0 0 0 0 k" in content  # white is no ink
