"""``preflight``: a file that passes every check, and one file made to fail each check."""

from __future__ import annotations

import io
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from PIL import Image
from pypdf import PdfReader, PdfWriter
from pypdf.generic import (
    ArrayObject,
    DictionaryObject,
    NameObject,
    TextStringObject,
)
from reportlab.lib.colors import CMYKColor
from reportlab.lib.utils import ImageReader
from reportlab.pdfgen.canvas import Canvas
from typer.testing import CliRunner

from kraftstokk.cli import app
from kraftstokk.design.fonts import SANS, SANS_BOLD, register_fonts
from kraftstokk.design.presets import Preset, all_presets, load_preset
from kraftstokk.render.preflight import preflight

MM = 72 / 25.4
CARD = (63.5, 88.9)
BLEED = 3.0
K100 = CMYKColor(0, 0, 0, 1)

Draw = Callable[[Canvas], None]


def _good_content(canvas: Canvas) -> None:
    """A card page a print shop accepts: CMYK under 300 %, 100 % K text, no hairline."""
    size = ((CARD[0] + 2 * BLEED) * MM, (CARD[1] + 2 * BLEED) * MM)
    canvas.setFillColor(CMYKColor(0.6, 0.2, 0, 0.1))
    canvas.rect(0, 0, size[0], size[1] / 3, stroke=0, fill=1)
    canvas.setFillColor(K100)
    canvas.setFont(SANS, 8)
    canvas.drawString(12 * MM, 50 * MM, "Tonstad 960 MW")
    canvas.setStrokeColor(K100)
    canvas.setLineWidth(0.5)
    canvas.line(12 * MM, 45 * MM, 50 * MM, 45 * MM)


def make_pdf(
    path: Path,
    draw: Draw = _good_content,
    *,
    boxes: bool = True,
    pdfx: bool = True,
    bleed: float = BLEED,
    trim: tuple[float, float] = CARD,
) -> Path:
    register_fonts()
    buffer = io.BytesIO()
    width, height = (trim[0] + 2 * bleed) * MM, (trim[1] + 2 * bleed) * MM
    canvas = Canvas(buffer, pagesize=(width, height), invariant=1, initialFontName=SANS)
    canvas.setTitle("Kraft-stokken test")
    draw(canvas)
    canvas.showPage()
    canvas.save()
    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(buffer.getvalue())))
    for page in writer.pages:
        if boxes:
            b = bleed * MM
            page.trimbox = page.mediabox.__class__((b, b, width - b, height - b))
            page.bleedbox = page.mediabox.__class__((0, 0, width, height))
    if pdfx:
        writer.add_metadata(
            {
                "/GTS_PDFXVersion": "PDF/X-1:2003",
                "/GTS_PDFXConformance": "PDF/X-1a:2003",
                "/Trapped": NameObject("/False"),
                "/Title": "Kraft-stokken test",
                "/CreationDate": "D:20261201000000Z",
                "/ModDate": "D:20261201000000Z",
            }
        )
        intent = DictionaryObject(
            {
                NameObject("/Type"): NameObject("/OutputIntent"),
                NameObject("/S"): NameObject("/GTS_PDFX"),
                NameObject("/OutputConditionIdentifier"): TextStringObject("FOGRA39"),
                NameObject("/RegistryName"): TextStringObject("http://www.color.org"),
            }
        )
        writer._root_object[NameObject("/OutputIntents")] = ArrayObject([intent])
    with path.open("wb") as handle:
        writer.write(handle)
    return path


@pytest.fixture
def offset() -> Preset:
    return load_preset("offset")


def failing_checks(path: Path, preset: Preset) -> dict[str, list[str]]:
    """Each failing check's lines, font subset tags (distinct per subset) written TAG+."""
    report = preflight(path, preset, trim_mm=CARD)
    return {
        c.name: [re.sub(r"\b[A-Z]{6}\+", "TAG+", f.line()) for f in c.failures]
        for c in report.checks
        if c.failures
    }


def test_a_print_ready_file_passes(tmp_path: Path, offset: Preset) -> None:
    report = preflight(make_pdf(tmp_path / "good.pdf"), offset, trim_mm=CARD)
    assert report.passed, report.lines()
    by_name = {check.name: check for check in report.checks}
    assert "max 100 % on page 1 (text at 12.0, 50.0 mm)" in by_name["ink"].summary
    assert by_name["pdfx"].summary.startswith("PDF/X-1a:2003")


def test_missing_boxes_fail(tmp_path: Path, offset: Preset) -> None:
    failures = failing_checks(make_pdf(tmp_path / "f.pdf", boxes=False), offset)
    assert list(failures) == ["boxes"]
    assert "TrimBox and BleedBox: missing" in failures["boxes"][0]


def test_wrong_bleed_and_card_size_fail(tmp_path: Path) -> None:
    path = make_pdf(tmp_path / "f.pdf", bleed=3.0, trim=(63.0, 88.0))
    failures = failing_checks(path, load_preset("drivethrucards"))
    assert "3.00, 3.00, 3.00, 3.00 mm (limit: 3.175 mm on every side)" in failures["boxes"][0]
    assert "TrimBox: 63.00 × 88.00 mm (limit: the card, 63.5 × 88.9 mm)" in failures["boxes"][1]


def test_rgb_fails_a_cmyk_preset_but_not_a_home_one(tmp_path: Path, offset: Preset) -> None:
    def rgb(canvas: Canvas) -> None:
        _good_content(canvas)
        canvas.setFillColorRGB(0.8, 0.1, 0.1)
        canvas.rect(20 * MM, 20 * MM, 40, 40, stroke=0, fill=1)

    path = make_pdf(tmp_path / "f.pdf", rgb)
    assert list(failing_checks(path, offset)) == ["colour"]
    home = load_preset("home-a4").model_copy(update={"pages": "cards", "paper": None})
    assert "colour" not in failing_checks(path, home)


def test_total_ink_over_the_limit_fails_with_its_place(tmp_path: Path) -> None:
    def heavy(canvas: Canvas) -> None:
        _good_content(canvas)
        canvas.setFillColor(CMYKColor(0.8, 0.7, 0.7, 1.0))  # 320 %
        canvas.rect(20 * MM, 60 * MM, 20 * MM, 20 * MM, stroke=0, fill=1)  # not a symbol

    failures = failing_checks(make_pdf(tmp_path / "f.pdf", heavy), load_preset("offset"))
    assert list(failures) == ["ink"]
    assert failures["ink"] == [
        "page 1: fill DeviceCMYK 80 70 70 100 at 20.0, 60.0 mm: 320 % (limit: 300 %)"
    ]


def test_black_text_in_four_inks_fails(tmp_path: Path, offset: Preset) -> None:
    def rich_text(canvas: Canvas) -> None:
        _good_content(canvas)
        canvas.setFillColor(CMYKColor(0.6, 0.5, 0.5, 1.0))
        canvas.setFont(SANS, 8)
        canvas.drawString(12 * MM, 60 * MM, "Kvilldal")

    failures = failing_checks(make_pdf(tmp_path / "f.pdf", rich_text), offset)
    assert list(failures) == ["black"]
    assert "text 'Kvilldal'" in failures["black"][0]


def test_a_small_black_symbol_in_four_inks_fails(tmp_path: Path, offset: Preset) -> None:
    """Today's spade pips: a rich black (about 284 % in RGB) where K alone is wanted."""

    def rich_pip(canvas: Canvas) -> None:
        _good_content(canvas)
        canvas.setFillColor(CMYKColor(0.6, 0.5, 0.5, 1.0))
        canvas.circle(30 * MM, 70 * MM, 2 * MM, stroke=0, fill=1)

    failures = failing_checks(make_pdf(tmp_path / "f.pdf", rich_pip), offset)
    assert list(failures) == ["black"]
    assert "small shape (a symbol?) at" in failures["black"][0]


def test_a_font_that_is_not_embedded_fails(tmp_path: Path, offset: Preset) -> None:
    def standard_font(canvas: Canvas) -> None:
        _good_content(canvas)
        canvas.setFillColor(K100)
        canvas.setFont("Helvetica", 8)
        canvas.drawString(12 * MM, 60 * MM, "Sima")

    failures = failing_checks(make_pdf(tmp_path / "f.pdf", standard_font), offset)
    assert failures["fonts"] == ["page 1: font Helvetica: not embedded (limit: embedded)"]


def test_small_text_and_regular_reversed_text_fail(tmp_path: Path, offset: Preset) -> None:
    def small(canvas: Canvas) -> None:
        _good_content(canvas)
        canvas.setFillColor(K100)
        canvas.setFont(SANS, 5)
        canvas.drawString(12 * MM, 60 * MM, "small print")
        canvas.rect(10 * MM, 70 * MM, 40 * MM, 12 * MM, stroke=0, fill=1)
        canvas.setFillColor(CMYKColor(0, 0, 0, 0))
        canvas.setFont(SANS, 8)
        canvas.drawString(12 * MM, 74 * MM, "white regular")
        canvas.setFont(SANS_BOLD, 8)
        canvas.drawString(12 * MM, 78 * MM, "white bold")

    failures = failing_checks(make_pdf(tmp_path / "f.pdf", small), offset)
    assert list(failures) == ["text"]
    assert failures["text"] == [
        "page 1: text 'small print' (TAG+BitstreamVeraSans-Roman 5.0 pt): "
        "5.00 pt (limit: text ≥ 6 pt)",
        "page 1: text 'white regular' (TAG+BitstreamVeraSans-Roman 8.0 pt): "
        "regular weight (limit: reversed text in bold)",
    ]


def test_text_scaled_down_by_the_transformation_counts_at_its_printed_size(
    tmp_path: Path, offset: Preset
) -> None:
    def scaled(canvas: Canvas) -> None:
        _good_content(canvas)
        canvas.saveState()
        canvas.translate(12 * MM, 60 * MM)
        canvas.scale(0.5, 0.5)
        canvas.setFillColor(K100)
        canvas.setFont(SANS, 9)  # prints at 4.5 pt
        canvas.drawString(0, 0, "miniature")
        canvas.restoreState()

    failures = failing_checks(make_pdf(tmp_path / "f.pdf", scaled), offset)
    assert "4.50 pt" in failures["text"][0]


def test_hairlines_fail(tmp_path: Path, offset: Preset) -> None:
    def hairline(canvas: Canvas) -> None:
        _good_content(canvas)
        canvas.setStrokeColor(K100)
        canvas.setLineWidth(0.13)
        canvas.line(12 * MM, 40 * MM, 50 * MM, 40 * MM)

    failures = failing_checks(make_pdf(tmp_path / "f.pdf", hairline), offset)
    assert failures["lines"] == ["page 1: line at 12.0, 40.0 mm: 0.130 pt (limit: 0.25 pt)"]


def test_low_resolution_images_fail(tmp_path: Path, offset: Preset) -> None:
    def image(canvas: Canvas) -> None:
        _good_content(canvas)
        picture = Image.new("CMYK", (100, 100), (0, 0, 0, 255))
        # 100 px over 1 inch is 100 dpi
        canvas.drawImage(ImageReader(picture), 10 * MM, 40 * MM, 72, 72)

    failures = failing_checks(make_pdf(tmp_path / "f.pdf", image), offset)
    assert list(failures) == ["images"]
    assert "100 dpi (limit: 300 dpi)" in failures["images"][0]


def test_transparency_fails_pdfx_1a(tmp_path: Path, offset: Preset) -> None:
    def transparent(canvas: Canvas) -> None:
        _good_content(canvas)
        canvas.setFillColor(CMYKColor(0, 1, 0, 0), alpha=0.5)
        canvas.rect(10 * MM, 60 * MM, 10 * MM, 10 * MM, stroke=0, fill=1)

    failures = failing_checks(make_pdf(tmp_path / "f.pdf", transparent), offset)
    assert list(failures) == ["transparency"]
    assert "ExtGState /ca 0.5" in failures["transparency"][0]


def test_missing_pdfx_keys_fail(tmp_path: Path, offset: Preset) -> None:
    failures = failing_checks(make_pdf(tmp_path / "f.pdf", pdfx=False), offset)
    assert list(failures) == ["pdfx"]
    lines = failures["pdfx"]
    assert "document: GTS_PDFXVersion: missing (limit: PDF/X-1:2003)" in lines
    assert "document: OutputIntent: missing (limit: one /GTS_PDFX output intent)" in lines


def test_a_wrong_output_condition_fails(tmp_path: Path) -> None:
    path = make_pdf(tmp_path / "f.pdf")
    failures = failing_checks(path, load_preset("drivethrucards"))
    assert "document: OutputConditionIdentifier: FOGRA39 (limit: CGATS TR 001)" in failures["pdfx"]


def test_text_outside_the_safe_area_fails(tmp_path: Path, offset: Preset) -> None:
    def edge(canvas: Canvas) -> None:
        _good_content(canvas)
        canvas.setFillColor(K100)
        canvas.setFont(SANS, 8)
        canvas.drawString(4 * MM, 60 * MM, "edge")  # 1 mm inside the cut

    failures = failing_checks(make_pdf(tmp_path / "f.pdf", edge), offset)
    assert list(failures) == ["safe"]
    assert "1.00 mm from the cut (limit: 3 mm)" in failures["safe"][0]


def test_artwork_on_the_card_outside_the_safe_area_fails_a_ground_in_the_bleed_does_not(
    tmp_path: Path, offset: Preset
) -> None:
    """The audit found card content 2.9 mm from the cut that passed: shapes count too. A
    shape on the card (inside the cut) must keep the safe margin; one that runs into the
    bleed is a ground, not content."""

    def panel(canvas: Canvas) -> None:
        _good_content(canvas)
        canvas.setFillColor(CMYKColor(1, 0, 0, 0))
        canvas.rect((BLEED + 2.9) * MM, 40 * MM, 20 * MM, 10 * MM, stroke=0, fill=1)
        canvas.rect(0, 0, 10 * MM, 10 * MM, stroke=0, fill=1)  # a ground into the bleed

    failures = failing_checks(make_pdf(tmp_path / "f.pdf", panel), offset)
    assert list(failures) == ["safe"]
    (line,) = failures["safe"]
    assert "fill at 2.9-22.9 × 37.0-47.0 mm: 2.90 mm from the cut (limit: 3 mm)" in line


def test_cli_exit_codes_and_messages(tmp_path: Path) -> None:
    runner = CliRunner()
    good = make_pdf(tmp_path / "good.pdf")
    result = runner.invoke(app, ["preflight", str(good), "--preset", "offset"])
    assert result.exit_code == 0, result.output
    assert "passes preflight for offset" in result.output

    bad = make_pdf(tmp_path / "bad.pdf", pdfx=False)
    result = runner.invoke(app, ["preflight", str(bad)])
    assert result.exit_code == 1
    assert "GTS_PDFXVersion: missing" in result.output

    not_pdf = tmp_path / "notes.pdf"
    not_pdf.write_text("hello")
    result = runner.invoke(app, ["preflight", str(not_pdf)])
    assert result.exit_code == 2
    assert "notes.pdf: not a PDF file" in result.output

    truncated = tmp_path / "cut.pdf"
    truncated.write_bytes(good.read_bytes()[:400])
    result = runner.invoke(app, ["preflight", str(truncated)])
    assert result.exit_code == 2
    assert "cut.pdf: not a readable PDF" in result.output
    assert "Traceback" not in result.output

    result = runner.invoke(app, ["preflight", str(good), "--preset", "nope"])
    assert result.exit_code == 2
    assert "unknown preset 'nope'; the presets are: drivethrucards" in result.output


def test_every_preset_file_loads() -> None:
    names = [preset.name for preset in all_presets()]
    assert names == [
        "drivethrucards", "home-a4", "home-letter", "makeplayingcards", "offset", "offset-x4"
    ]  # fmt: skip
    for preset in all_presets():
        assert preset.title and preset.made_for
        assert (preset.pages == "sheets") == (preset.paper is not None)
        assert preset.is_pdfx == (preset.colour == "cmyk")


def _sheet_pdf(path: Path, *, bleed_top_bottom: float, mark_end: float) -> Path:
    """A Letter sheet: one card block with crop marks, like the home sheets.

    ``bleed_top_bottom``: how far the artwork runs past the top and bottom cut lines;
    ``mark_end``: how far from the paper's edge the crop marks end (mm).
    """
    width, height = 215.9, 279.4
    cut_x0, cut_x1 = 20.0, 20.0 + 2 * 88.9
    cut_y0, cut_y1 = 12.0, 12.0 + 4 * 63.5
    register_fonts()
    canvas = Canvas(
        str(path), pagesize=(width * MM, height * MM), invariant=1, initialFontName=SANS
    )
    canvas.setFillColor(CMYKColor(0.6, 0.2, 0, 0.1))
    b = bleed_top_bottom
    canvas.rect(
        (cut_x0 - 3) * MM,
        (cut_y0 - b) * MM,
        (cut_x1 - cut_x0 + 6) * MM,
        (cut_y1 - cut_y0 + 2 * b) * MM,
        stroke=0,
        fill=1,
    )
    canvas.setStrokeColor(K100)
    canvas.setLineWidth(0.3)
    path_ = canvas.beginPath()
    for x in (cut_x0, (cut_x0 + cut_x1) / 2, cut_x1):
        path_.moveTo(x * MM, mark_end * MM)
        path_.lineTo(x * MM, (cut_y0 - 4) * MM)
        path_.moveTo(x * MM, (cut_y1 + 4) * MM)
        path_.lineTo(x * MM, (height - 8) * MM)
    for y in (cut_y0, cut_y1):
        path_.moveTo(8 * MM, y * MM)
        path_.lineTo((cut_x0 - 4) * MM, y * MM)
        path_.moveTo((cut_x1 + 4) * MM, y * MM)
        path_.lineTo((width - 8) * MM, y * MM)
    canvas.drawPath(path_, stroke=1, fill=0)
    canvas.showPage()
    canvas.save()
    return path


def test_a_sheet_with_bleed_and_marks_inside_passes(tmp_path: Path) -> None:
    path = _sheet_pdf(tmp_path / "sheet.pdf", bleed_top_bottom=3.0, mark_end=6.0)
    report = preflight(path, load_preset("home-letter"))
    assert report.passed, report.lines()


def test_a_sheet_without_bleed_at_top_and_bottom_fails(tmp_path: Path) -> None:
    """The old Letter sheets: the bleed dropped at top and bottom to fit the marks."""
    path = _sheet_pdf(tmp_path / "sheet.pdf", bleed_top_bottom=0.0, mark_end=6.0)
    failures = failing_checks(path, load_preset("home-letter"))
    assert list(failures) == ["sheet"]
    assert (
        "bleed past the outer cut lines (left, bottom, right, top): 3.0, 0.0, 3.0, 0.0 mm"
        in (failures["sheet"][0])
    )


def test_crop_marks_too_near_the_paper_edge_fail(tmp_path: Path) -> None:
    """The old A4 sides and Letter top and bottom: marks ending 3 mm from the edge."""
    path = _sheet_pdf(tmp_path / "sheet.pdf", bleed_top_bottom=3.0, mark_end=3.0)
    failures = failing_checks(path, load_preset("home-letter"))
    assert list(failures) == ["sheet"]
    assert "3.0 mm from the paper's edge (limit: 5 mm inside)" in failures["sheet"][0]


def test_fine_text_and_lines_in_several_inks_or_knocked_out_of_them_fail(
    tmp_path: Path, offset: Preset
) -> None:
    def fine(canvas: Canvas) -> None:
        _good_content(canvas)
        canvas.setFillColor(CMYKColor(0.78, 0.33, 0.18, 0.67))
        canvas.setFont(SANS_BOLD, 7)
        canvas.drawString(12 * MM, 60 * MM, "Kraftidioten")  # small, four inks
        canvas.setFillColor(CMYKColor(0, 0, 0, 0.62))
        canvas.drawString(12 * MM, 64 * MM, "grey")  # small, a screened tint of one ink
        canvas.setFont(SANS_BOLD, 8)
        canvas.drawString(12 * MM, 68 * MM, "grey at 8 pt")  # from 8 pt up: any inks
        canvas.setStrokeColor(CMYKColor(0.6, 0.18, 0, 0.26))
        canvas.setLineWidth(0.45)
        canvas.line(12 * MM, 72 * MM, 50 * MM, 72 * MM)  # a hairline in three inks
        canvas.setFillColor(CMYKColor(0.93, 0.28, 0, 0.4))
        canvas.rect(10 * MM, 76 * MM, 40 * MM, 8 * MM, stroke=0, fill=1)
        canvas.setFillColor(CMYKColor(0, 0, 0, 0))
        canvas.setFont(SANS_BOLD, 7)
        canvas.drawString(12 * MM, 78 * MM, "edition")  # knocked out of three inks
        canvas.setFillColor(CMYKColor(1, 0, 0, 0))
        canvas.drawString(12 * MM, 20 * MM, "cyan")  # one process ink at full strength

    failures = failing_checks(make_pdf(tmp_path / "f.pdf", fine), offset)
    assert sorted(failures) == ["register"]
    lines = [re.sub(r" at [0-9.]+, [0-9.]+ mm", "", line) for line in failures["register"]]
    assert lines == [
        "page 1: text 'Kraftidioten' (TAG+BitstreamVeraSans-Bold 7.0 pt): "
        "DeviceCMYK 78 33 18 67 (limit: one ink at full strength)",
        "page 1: text 'grey' (TAG+BitstreamVeraSans-Bold 7.0 pt): "
        "DeviceCMYK 0 0 0 62 (limit: one ink at full strength)",
        "page 1: 0.45 pt line: DeviceCMYK 60 18 0 26 (limit: one ink at full strength)",
        "page 1: text 'edition' (TAG+BitstreamVeraSans-Bold 7.0 pt): "
        "knocked out of 3 inks (limit: one ink at full strength, or larger)",
    ]


def test_black_text_on_colour_must_overprint_and_white_must_not(
    tmp_path: Path, offset: Preset
) -> None:
    def pill(canvas: Canvas, overprint: bool) -> None:
        _good_content(canvas)
        canvas.setFillColor(CMYKColor(0, 0.29, 1, 0.15))  # a gold pill
        canvas.rect(10 * MM, 60 * MM, 20 * MM, 6 * MM, stroke=0, fill=1)
        canvas.saveState()
        canvas.setFillOverprint(overprint)
        canvas.setOverprintMask(1)
        canvas.setFillColor(K100)
        canvas.setFont(SANS_BOLD, 7)
        canvas.drawString(12 * MM, 62 * MM, "nr. 1")
        canvas.restoreState()

    knocking = failing_checks(make_pdf(tmp_path / "k.pdf", lambda c: pill(c, False)), offset)
    assert knocking == {
        "overprint": [
            "page 1: text 'nr. 1' (TAG+BitstreamVeraSans-Bold 7.0 pt): "
            "100 % K knocking out (limit: set to overprint)"
        ]
    }
    assert failing_checks(make_pdf(tmp_path / "o.pdf", lambda c: pill(c, True)), offset) == {}

    def vanishing(canvas: Canvas) -> None:
        _good_content(canvas)
        canvas.setFillOverprint(True)
        canvas.setOverprintMask(1)
        canvas.setFillColor(CMYKColor(0, 0, 0, 0))
        canvas.setFont(SANS_BOLD, 9)
        canvas.drawString(12 * MM, 20 * MM, "white")  # on cyan: overprinted, it is gone

    failures = failing_checks(make_pdf(tmp_path / "w.pdf", vanishing), offset)
    assert failures == {
        "overprint": [
            "page 1: text 'white' (TAG+BitstreamVeraSans-Bold 9.0 pt): "
            "white set to overprint (limit: knocked out)"
        ]
    }


def test_a_link_inside_the_bleed_box_fails(tmp_path: Path, offset: Preset) -> None:
    def linked(canvas: Canvas) -> None:
        _good_content(canvas)
        canvas.linkURL("https://example.org", (12 * MM, 40 * MM, 40 * MM, 44 * MM))

    failures = failing_checks(make_pdf(tmp_path / "l.pdf", linked), offset)
    assert failures == {
        "annotations": ["page 1: Link annotation: inside the BleedBox (limit: none)"]
    }


def test_two_fonts_sharing_a_subset_tag_fail(tmp_path: Path, offset: Preset) -> None:
    def two_fonts(canvas: Canvas) -> None:
        _good_content(canvas)
        canvas.setFont(SANS_BOLD, 9)
        canvas.drawString(12 * MM, 20 * MM, "bold")

    path = make_pdf(tmp_path / "t.pdf", two_fonts)
    assert failing_checks(path, offset) == {}  # our fonts: a tag per subset
    writer = PdfWriter(clone_from=PdfReader(path))
    for font in writer.pages[0]["/Resources"]["/Font"].values():  # as reportlab names them
        font = font.get_object()
        base = str(font["/BaseFont"]).split("+", 1)[1]
        font[NameObject("/BaseFont")] = NameObject(f"/AAAAAA+{base}")
    writer.write(tmp_path / "same.pdf")
    failures = failing_checks(tmp_path / "same.pdf", offset)
    assert failures == {
        "subsets": [
            "document: subset tag TAG+: BitstreamVeraSans-Bold, BitstreamVeraSans-Roman "
            "(limit: one tag per subset)"
        ]
    }


def test_annotations_are_bounded_and_a_rect_of_no_numbers_is_unreadable(
    tmp_path: Path, offset: Preset, monkeypatch: pytest.MonkeyPatch
) -> None:
    import kraftstokk.render.preflight as preflight_module
    from kraftstokk.errors import InputFileError

    def linked(canvas: Canvas) -> None:
        _good_content(canvas)
        for i in range(5):  # five links, each inside the BleedBox
            canvas.linkURL("https://example.org", (12 * MM, i * MM, 14 * MM, i * MM + 1))

    path = make_pdf(tmp_path / "l.pdf", linked)
    writer = PdfWriter(clone_from=PdfReader(path))
    first = writer.pages[0]["/Annots"][0].get_object()
    first[NameObject("/Rect")] = ArrayObject([NameObject("/a")] * 4)  # not numbers
    writer.write(tmp_path / "broken.pdf")
    with pytest.raises(InputFileError, match="not a readable PDF"):
        preflight(tmp_path / "broken.pdf", offset)
    monkeypatch.setattr(preflight_module, "MAX_ANNOTATIONS", 3)
    with pytest.raises(InputFileError, match="more than 3 annotations in the file"):
        preflight(path, offset)
