"""``preflight`` on hostile PDFs (issue 24): work budgets, forms read once, encrypted files,
pages without boxes, and text as the reader sees it. Every refusal is one line naming the
file (and the page) with exit 2; the attack files are written here, byte by byte."""

from __future__ import annotations

import io
import json
import shutil
import subprocess
from pathlib import Path

import pytest
from reportlab.lib.colors import CMYKColor
from reportlab.pdfgen.canvas import Canvas
from typer.testing import CliRunner

from kraftstokk.cli import app
from kraftstokk.design.fonts import SANS, register_fonts
from kraftstokk.design.presets import load_preset
from kraftstokk.errors import InputFileError
from kraftstokk.render.preflight import WorkBudget, preflight
from kraftstokk.render.preflight.tokens import operations
from tests import pdf_files
from tests.test_hostile_inputs import one_error_line
from tests.test_preflight import K100, MM, make_pdf

runner = CliRunner()
OFFSET = load_preset("offset")


def write(tmp_path: Path, data: bytes, name: str = "attack.pdf") -> Path:
    path = tmp_path / name
    path.write_bytes(data)
    return path


def refusal(path: Path, budget: WorkBudget | None = None) -> str:
    with pytest.raises(InputFileError) as info:
        preflight(path, OFFSET, budget=budget)
    assert info.value.message.startswith(f"{path}: "), info.value.message
    return info.value.message


# --- forms drawn inside forms -----------------------------------------------------------


def test_forms_drawn_ten_times_at_eleven_levels_are_refused_after_reading_each_once(
    tmp_path: Path,
):
    """The 3 kB file that hung preflight: 10^11 draws. Each form is read once (about a
    hundred operators in all), the draws are counted without being made, and one line
    says why (the CLI's run of it takes well under a second: `make fuzz` times it)."""
    path = write(tmp_path, pdf_files.nested_forms(11))
    assert path.stat().st_size < 3500
    budget = WorkBudget()
    message = refusal(path, budget)
    assert "page 1: more than 200 000 form and image draws (111 111 111 110" in message
    assert budget.operators_read < 200
    result = runner.invoke(app, ["preflight", str(path)])
    one_error_line(result, 2, "attack.pdf: page 1: more than 200 000 form and image draws")


@pytest.mark.parametrize("levels", [4, 5])
def test_forms_within_the_budget_are_read_once_and_placed_at_every_draw(
    tmp_path: Path, levels: int
):
    budget = WorkBudget()
    report = preflight(write(tmp_path, pdf_files.nested_forms(levels)), OFFSET, budget=budget)
    leaf_draws = 10**levels
    assert budget.draws == sum(10**level for level in range(1, levels + 1))
    assert budget.operators_read < 100  # each form read once, not once per draw
    assert budget.marks == leaf_draws
    assert "DeviceRGB" in next(c.summary for c in report.checks if c.name == "colour")


def test_a_form_drawn_again_inside_itself_is_a_loop(tmp_path: Path):
    message = refusal(write(tmp_path, pdf_files.form_loop()))
    assert "page 1: form /F draws itself (a loop of forms)" in message


def test_forms_nested_deeper_than_twelve_are_refused(tmp_path: Path):
    message = refusal(write(tmp_path, pdf_files.nested_forms(13, draws=1)))
    assert "page 1: forms nested deeper than 12" in message


def test_a_chain_read_once_and_drawn_one_level_deeper_is_still_too_deep(tmp_path: Path):
    """Forms read for page 1 are reused for page 2: their depth counts where drawn."""
    assert preflight(write(tmp_path, pdf_files.deep_again(11)), OFFSET).pages == 2
    message = refusal(write(tmp_path, pdf_files.deep_again(12)))
    assert "page 2: forms nested deeper than 12" in message


def _label(canvas: Canvas) -> None:
    """5 pt text and a 0.2 pt line: both too small for print at full size."""
    canvas.setFillColor(K100)
    canvas.setFont(SANS, 5)
    canvas.drawString(0, 0, "Fallhøyde")
    canvas.setStrokeColor(K100)
    canvas.setLineWidth(0.2)
    canvas.line(0, 10, 40, 10)


def _at_places(canvas: Canvas, places: list[tuple[float, float, float]], as_form: bool) -> None:
    """The label drawn at each (x, y, scale): once as a form drawn at every place, or
    drawn out at every place."""
    if as_form:
        canvas.beginForm("label")
        _label(canvas)
        canvas.endForm()
    for x, y, scale in places:
        canvas.saveState()
        canvas.translate(x, y)
        canvas.scale(scale, scale)
        if as_form:
            canvas.doForm("label")
        else:
            _label(canvas)
        canvas.restoreState()


def test_a_form_read_once_is_checked_at_each_place_and_size_it_is_drawn(tmp_path: Path):
    places = [(20 * MM, 30 * MM, 0.5), (20 * MM, 50 * MM, 1.0), (20 * MM, 70 * MM, 2.0)]
    with_form = make_pdf(tmp_path / "form.pdf", lambda c: _at_places(c, places, True))
    inline = make_pdf(tmp_path / "inline.pdf", lambda c: _at_places(c, places, False))
    by_form = preflight(with_form, OFFSET).to_json()["checks"]
    by_inline = preflight(inline, OFFSET).to_json()["checks"]
    assert by_form == by_inline
    text = next(check for check in by_form if check["name"] == "text")
    assert [failure["value"] for failure in text["failures"]] == ["2.50 pt", "5.00 pt"]
    assert "Fallhøyde" in text["failures"][0]["what"]
    lines = next(check for check in by_form if check["name"] == "lines")
    assert [failure["value"] for failure in lines["failures"]] == ["0.100 pt", "0.200 pt"]


# --- budgets of operators, painted objects, content and time ---------------------------


def test_a_page_of_more_operators_than_the_budget_is_refused_while_it_is_read(tmp_path: Path):
    path = write(tmp_path, pdf_files.one_page(b"0 0 m\n" * 20_000))
    budget = WorkBudget(max_operators=10_000)
    assert "page 1: more than 10 000 content operators to check" in refusal(path, budget)
    assert budget.operators_read <= 10_000 + 4096  # stopped, not read to the end


def test_painted_objects_beyond_the_budget_are_refused(tmp_path: Path):
    path = write(tmp_path, pdf_files.one_page(b"0 0 1 1 re f\n" * 3000))
    message = refusal(path, WorkBudget(max_marks=1000))
    assert "page 1: more than 1 000 painted objects to check" in message


def test_more_page_content_than_the_budget_is_refused(tmp_path: Path):
    path = write(tmp_path, pdf_files.one_page(b" " * 200_000 + b"0 0 1 1 re f"))
    message = refusal(path, WorkBudget(max_content_bytes=100_000))
    assert "page 1: more than 98 kB of page content to read" in message


def test_preflight_stops_at_its_time_budget(tmp_path: Path):
    """A clock that moves a second per reading: the budget, not the machine, decides."""
    ticks = iter(range(10**6))
    path = write(tmp_path, pdf_files.one_page(b"0 0 m\n" * 50_000))
    budget = WorkBudget(max_seconds=5, clock=lambda: float(next(ticks)))
    assert "page 1: preflight stopped after 5 s (raise it with --max-time)" in refusal(path, budget)


def test_max_time_is_an_option_of_the_command(tmp_path: Path):
    path = make_pdf(tmp_path / "good.pdf")
    assert runner.invoke(app, ["preflight", str(path), "--max-time", "30"]).exit_code == 0
    result = runner.invoke(app, ["preflight", str(path), "--max-time", "0"])
    one_error_line(result, 2, "--max-time")


def test_a_path_of_a_million_points_takes_no_memory_for_its_points(tmp_path: Path):
    """The path is kept as its box and its straight lines, so this is cheap to hold."""
    content = b"0 0 m " + b"1 1 l 2 0 l " * 200_000 + b"S"
    report = preflight(write(tmp_path, pdf_files.one_page(content)), OFFSET)
    assert next(c for c in report.checks if c.name == "lines").summary == "thinnest 1.000 pt"


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        (b"/X w 0 0 m 1 1 l S", "page 1: operator w: expected a number, found '/X'"),
        (b"BT /F1 5 Tf (never closed Tj ET", "page 1: a string that does not end"),
        (b"[1 2 3 TJ", "page 1: an array that does not end"),
        (b"[" * 40 + b"1" + b"]" * 40 + b" TJ", "page 1: arrays or dictionaries nested deeper"),
        (b"1 " * 100_001 + b"m", "page 1: an operation with more than 100 000 operands"),
        (b"BI /W 1 /H 1 ID \x00\x01\x02", "page 1: an inline image without EI"),
        (b"<41 42 Tj", "page 1: a hex string that does not end"),
    ],
)
def test_content_that_cannot_be_read_is_one_line_naming_the_page(tmp_path, content, reason):
    assert reason in refusal(write(tmp_path, pdf_files.one_page(content)))


def test_the_content_reader_reads_what_pdf_writes():
    ops = list(
        operations(
            b"BT /F#201 8 Tf [(a\\(b\\051) -300 <41 42 4>] TJ ET % a comment\n"
            b"<< /A [1 [2.5 -.5]] /B (x) >> BDC q BI /W 2 /H 2 /CS /G ID \x00EI\x01 EI Q "
            b"true false null 1.2.3 d0"
        )
    )
    assert ops == [
        ([], "BT"),
        (["/F 1", 8], "Tf"),
        ([[b"a(b)", -300, b"AB@"]], "TJ"),
        ([], "ET"),
        ([{"/A": [1, [2.5, -0.5]], "/B": b"x"}], "BDC"),
        ([], "q"),
        ([{"/W": 2, "/H": 2, "/CS": "/G"}], "BI"),
        ([], "Q"),
        ([True, False, None], "1.2.3"),
        ([], "d0"),
    ]


# --- encrypted files --------------------------------------------------------------------


@pytest.mark.parametrize("cipher", list(pdf_files.ENCRYPTIONS))
def test_an_encrypted_file_is_one_line_naming_its_cipher(tmp_path: Path, cipher: str):
    path = write(tmp_path, pdf_files.encrypted(pdf_files.ENCRYPTIONS[cipher]))
    result = runner.invoke(app, ["preflight", str(path)])
    line = one_error_line(result, 2, f"attack.pdf: the PDF is encrypted ({cipher})")
    assert "qpdf --decrypt" in line


@pytest.mark.skipif(shutil.which("qpdf") is None, reason="qpdf (Debian's qpdf) is not installed")
@pytest.mark.parametrize(
    ("arguments", "cipher"),
    [
        (["40", "--"], "RC4, 40-bit"),
        (["128", "--use-aes=n", "--"], "RC4, 128-bit"),
        (["128", "--use-aes=y", "--"], "AES-128"),
        (["256", "--"], "AES-256"),
    ],
)
def test_files_encrypted_by_qpdf_are_refused_in_one_line(tmp_path, arguments, cipher):
    """The same as a real tool writes them, with an empty user password (they open in a
    viewer without asking)."""
    plain = make_pdf(tmp_path / "plain.pdf")
    locked = tmp_path / "locked.pdf"
    command = ["qpdf", "--allow-weak-crypto", "--encrypt", "", "owner", *arguments]
    subprocess.run([*command, str(plain), str(locked)], check=True, capture_output=True)
    result = runner.invoke(app, ["preflight", str(locked)])
    one_error_line(result, 2, f"locked.pdf: the PDF is encrypted ({cipher})")


# --- what the report says ---------------------------------------------------------------


def test_pages_without_boxes_are_said_to_lack_them(tmp_path: Path):
    report = preflight(make_pdf(tmp_path / "f.pdf", boxes=False), OFFSET)
    boxes = next(check for check in report.checks if check.name == "boxes")
    assert boxes.summary == "TrimBox or BleedBox missing on every page"


def test_a_file_of_some_pages_without_boxes_counts_them(tmp_path: Path):
    register_fonts()
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=(69.5 * MM, 94.9 * MM), invariant=1)
    for _ in range(3):
        canvas.setFillColor(CMYKColor(0, 0, 0, 1))
        canvas.rect(0, 0, 10, 10, fill=1, stroke=0)
        canvas.showPage()
    canvas.save()
    from pypdf import PdfReader, PdfWriter

    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(buffer.getvalue())))
    first = writer.pages[0]
    b = 3 * MM
    first.trimbox = first.mediabox.__class__((b, b, 69.5 * MM - b, 94.9 * MM - b))
    first.bleedbox = first.mediabox.__class__((0, 0, 69.5 * MM, 94.9 * MM))
    path = tmp_path / "mixed.pdf"
    with path.open("wb") as handle:
        writer.write(handle)
    boxes = next(c for c in preflight(path, OFFSET).checks if c.name == "boxes")
    assert boxes.summary == "TrimBox or BleedBox missing on 2 of 3 pages; trim 63.50 × 88.90 mm"


def test_text_is_shown_as_the_reader_sees_it_through_tounicode(tmp_path: Path):
    """reportlab's subset fonts put ø at a low code; the ToUnicode map reads it back."""

    def small(canvas: Canvas) -> None:
        canvas.setFillColor(K100)
        canvas.setFont(SANS, 5)
        canvas.drawString(12 * MM, 60 * MM, "Fallhøyde på Tonstad · 442 m")

    report = preflight(make_pdf(tmp_path / "f.pdf", small), OFFSET)
    (failure,) = next(check for check in report.checks if check.name == "text").failures
    assert failure.what.startswith("text 'Fallhøyde på Tonstad · 4…' (")


@pytest.mark.parametrize(
    ("encoding", "shown"),
    [
        (b"/WinAnsiEncoding", b"Fallh\\370yde"),
        (b"/MacRomanEncoding", b"Fallh\\277yde"),
        (
            b"<< /BaseEncoding /WinAnsiEncoding /Differences [2 /oslash 3 /uni00E5] >>",
            b"Fallh\\002yde\\003",
        ),
        (b"<< /Differences [200 /u1F600] >>", b"Fallh\\310yde"),
    ],
)
def test_text_in_a_simple_font_is_read_through_its_encoding(tmp_path, encoding, shown):
    path = write(tmp_path, pdf_files.simple_font_text(encoding, shown))
    texts = [f.what for f in preflight(path, OFFSET).failures if f.what.startswith("text")]
    assert texts and texts[0].startswith("text 'Fallh"), texts
    assert "\\x" not in texts[0] and "\x02" not in texts[0]
    assert ("Fallhøyde" in texts[0]) or ("Fallh\U0001f600yde" in texts[0])


def test_a_glyph_named_as_a_lone_surrogate_shows_as_unknown(tmp_path: Path):
    path = write(tmp_path, pdf_files.simple_font_text(b"<< /Differences [1 /uD800] >>", b"A\\001"))
    result = runner.invoke(app, ["preflight", str(path), "--json"])
    assert result.exit_code == 1, result.output
    assert "text 'A\ufffd'" in json.loads(result.stdout)["checks"][5]["failures"][0]["what"]


def test_codes_no_encoding_names_show_as_unknown_not_as_control_characters(tmp_path: Path):
    path = write(
        tmp_path, pdf_files.simple_font_text(b"<< /Differences [1 /nosuchglyph] >>", b"A\\001B")
    )
    (text,) = [f.what for f in preflight(path, OFFSET).failures if f.what.startswith("text")]
    assert text.startswith("text 'A\ufffdB'")
