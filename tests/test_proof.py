"""kraftstokk proof OLD NEW (issue 33 item 15): each face to reprint before and after,
side by side, the areas that print differently marked."""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from typer.testing import CliRunner

from kraftstokk.cli import app
from kraftstokk.deck.io import load_deck
from kraftstokk.deck.reprint import reprint_verdict
from kraftstokk.design.layout import load_layout
from kraftstokk.render.proof import BACK, proof_pages
from tests.conftest import synthetic_deck
from tests.test_deck_repair import edit_csv

SOURCES = Path(__file__).resolve().parents[1] / "sources"
runner = CliRunner()


def invoke(*args: object):
    result = runner.invoke(app, [str(arg) for arg in args])
    assert result.exit_code == 0, result.output
    return result


def page_texts(path: Path) -> list[str]:
    document = pdfium.PdfDocument(path)
    try:
        return [page.get_textpage().get_text_range() for page in document]
    finally:
        document.close()


@pytest.fixture(scope="module")
def decks(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    folder = tmp_path_factory.mktemp("proof")
    old = folder / "print-2025"
    invoke("build", "--spec", SOURCES / "deck.toml", "--out", old)
    new = folder / "print-2026"
    shutil.copytree(old, new)
    edit_csv(new / "deck.csv", "N448", head_m="442.5")
    edit_csv(new / "deck.csv", "N302", name="Nedre Vinstra kraftverk")
    invoke("repair", new / "deck.csv")
    return old / "deck.json", new / "deck.json"


def test_the_proof_shows_each_face_to_reprint_before_and_after(decks, tmp_path: Path):
    old, new = decks
    result = invoke("proof", old, new, "--out", tmp_path)
    summary = invoke("diff", old, new).stdout.splitlines()[-1]
    assert result.stdout.splitlines() == [summary, f"wrote {tmp_path / 'proof.pdf'}"]
    texts = page_texts(tmp_path / "proof.pdf")
    assert len(texts) == 1 + 52  # the verdict, then each face to reprint
    assert texts[0].startswith("Reprint proof")
    assert "52 faces of 55 must be reprinted" in texts[0]
    assert texts[1].startswith("spar-1 Tonstad: figures")
    assert "before: " in texts[1] and "after: " in texts[1]
    assert any(t.startswith("hjerter-10 Nedre Vinstra -> Nedre Vinstra kraftverk: name, ")
               for t in texts)  # fmt: skip
    again = tmp_path / "again"
    invoke("proof", old, new, "--out", again)
    digest = [hashlib.sha256(p.read_bytes()).digest() for p in (tmp_path / "proof.pdf",
                                                                again / "proof.pdf")]  # fmt: skip
    assert digest[0] == digest[1]  # same decks, same bytes


def test_the_marked_areas_are_where_the_faces_differ(decks):
    old, new = load_deck(decks[0]), load_deck(decks[1])
    layout = load_layout("poker")
    verdict = reprint_verdict(old, new, layout)
    pages = {page.card: page for page in proof_pages(old, new, verdict, layout)}
    rows, name = layout.boxes.rows, layout.boxes.name

    def inside(area, box) -> bool:
        return (
            box.x - 1 <= area.x
            and area.x + area.w <= box.x + box.w + 1
            and (box.y - 1 <= area.y and area.y + area.h <= box.y + box.h + 1)
        )

    (head,) = pages["spar-1"].areas  # only the head figure: 442 -> 442,5
    assert inside(head, rows) and head.y < rows.y + rows.h / 3  # the lowest of three rows
    renamed = pages["hjerter-10"].areas
    assert any(inside(area, name) for area in renamed)
    assert all(inside(area, rows) or inside(area, name) for area in renamed)


def test_a_changed_back_gets_its_page_and_nothing_changed_says_so(tmp_path: Path):
    old = synthetic_deck()
    new = old.model_copy(update={"edition": "2026"})
    layout = load_layout("poker")
    verdict = reprint_verdict(old, new, layout)
    assert verdict.back
    back_only = verdict.model_copy(update={"faces": [], "fields": {}})
    (page,) = proof_pages(old, new, back_only, layout)
    assert page.card == BACK and page.title == "the back: edition" and page.areas

    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "deck.json").write_text(old.model_dump_json(), encoding="utf-8")
    invoke("proof", tmp_path / "a" / "deck.json", tmp_path / "a" / "deck.json", "-o", tmp_path)
    (text,) = page_texts(tmp_path / "proof.pdf")
    assert "No face and not the back print differently: nothing to reprint." in text
