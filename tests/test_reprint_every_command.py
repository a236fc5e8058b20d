"""Every command that reports a reprint verdict gives the one diff gives, and it is the
print itself (issue 33 item 7).

The case: a 0.5 m hand correction of Tonstad's head (442 -> 442.5) in deck.csv. 442.5
would print as 443, like Nedre Vinstra's 443.2, so every head is printed with a decimal
and 52 faces change. repair, diff and render --only-changed must all say so, with why
and the nearest value that would not, and the faces named must be exactly the print-shop
pages that differ as pictures (as tests/test_reprint_pixels.py checks the verdict).
"""

from __future__ import annotations

import shutil
from pathlib import Path

from typer.testing import CliRunner

from kraftstokk.cli import app
from scripts.compare_pdf_pixels import differing_pages
from tests.test_deck_repair import edit_csv

SOURCES = Path(__file__).resolve().parents[1] / "sources"
DPI = 100
runner = CliRunner()

WHY = (
    "head now printed with one decimal: 442.5 would print as 443, the same as Nedre Vinstra's 443.2"
)
WAY_OUT = "head_m 442.4 m (printed as 442) reprints no face"


def invoke(*args: object):
    result = runner.invoke(app, [str(arg) for arg in args])
    assert result.exit_code == 0, result.output
    return result


def test_repair_diff_and_render_give_diffs_verdict_and_it_is_the_print(tmp_path: Path):
    printed = tmp_path / "print-2025"
    invoke("build", "--spec", SOURCES / "deck.toml", "--out", printed)
    invoke("render", printed / "deck.json", "-o", printed, "--only", "printshop")
    edited = tmp_path / "print-2026"
    shutil.copytree(printed, edited)
    edit_csv(edited / "deck.csv", "N448", head_m="442.5")

    diff = invoke("diff", printed / "deck.json", edited / "deck.csv").stdout.splitlines()
    summary = diff[-1]
    assert summary.startswith("52 faces of 55 must be reprinted (the back stays): figures on 52")
    assert summary.endswith(f"; {WHY}; or {WAY_OUT}")
    assert f"    why: {WHY}" in diff and f"    way out: {WAY_OUT}" in diff

    repaired = invoke("repair", edited / "deck.csv").stdout.splitlines()
    assert summary in repaired  # not "no card must be reprinted"
    report = (edited / "repair-report.txt").read_text(encoding="utf-8").splitlines()
    assert report[-1] == summary
    assert (
        invoke("diff", printed / "deck.json", edited / "deck.json").stdout.splitlines()[-1]
        == summary
    )

    out = tmp_path / "reprint"
    render = invoke(
        "render", edited / "deck.json", "-o", out, "--only-changed", printed / "deck.json",
        "--only", "printshop",
    ).stdout.splitlines()  # fmt: skip
    assert render[0] == summary
    verdict = (out / "reprint.txt").read_text(encoding="utf-8").splitlines()
    assert verdict[-1] == summary
    faces = next(line for line in verdict if line.startswith("faces to reprint (52): "))

    # The verdict against the print: the new deck's whole print-shop file, page by page.
    invoke("render", edited / "deck.json", "-o", edited, "--only", "printshop")
    old_pdf = (printed / "kraftstokk-printshop.pdf").read_bytes()
    new_pdf = (edited / "kraftstokk-printshop.pdf").read_bytes()
    pages = {d.page for d in differing_pages(old_pdf, new_pdf, DPI)}
    from kraftstokk.deck.io import load_deck

    cards = [card.id for card in load_deck(edited / "deck.json").cards]
    fronts = [cards[(page - 1) // 2] for page in sorted(pages) if page % 2 == 1]
    assert not [page for page in pages if page % 2 == 0]  # no back differs
    assert faces == f"faces to reprint (52): {', '.join(fronts)}"
