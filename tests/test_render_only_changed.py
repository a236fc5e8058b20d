"""render --only-changed OLD: the print files of just the cards to reprint."""

from __future__ import annotations

from pathlib import Path

import pypdfium2 as pdfium
import pytest
from typer.testing import CliRunner

from kraftstokk.cli import app
from kraftstokk.deck.io import load_deck, write_deck
from kraftstokk.models import Deck
from kraftstokk.render.outputs import RenderOptions
from kraftstokk.render.preview import write_previews
from kraftstokk.render.reprint import plan_reprint

runner = CliRunner()
SOURCES = Path(__file__).resolve().parents[1] / "sources"


def invoke(*args: str):
    return runner.invoke(app, list(args))


@pytest.fixture(scope="module")
def printed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Last year's deck: the embedded JRC deck."""
    folder = tmp_path_factory.mktemp("print-2025")
    result = invoke("build", "--spec", str(SOURCES / "deck.toml"), "--out", str(folder))
    assert result.exit_code == 0, result.output
    return folder / "deck.json"


def changed(old: Path, folder: Path, edition: str | None = None) -> tuple[Deck, Path]:
    """The deck with one card's name changed (and the edition, when given)."""
    deck = load_deck(old)
    card = deck.plant_cards[7]
    card.name = "Nytt Navn"
    if edition:
        deck = deck.model_copy(update={"edition": edition})
    json_path, _ = write_deck(deck, folder)
    return deck, json_path


def pages(pdf: Path) -> list[bytes]:
    document = pdfium.PdfDocument(pdf)
    return [document[i].render(scale=60 / 72).to_pil().tobytes() for i in range(len(document))]


def test_only_the_changed_faces_are_drawn_as_in_the_whole_deck(printed: Path, tmp_path: Path):
    deck, new = changed(printed, tmp_path / "new")
    out = tmp_path / "print"
    result = invoke("render", str(new), "--out", str(out), "--only-changed", str(printed))
    assert result.exit_code == 0, result.output
    card = deck.plant_cards[7]
    assert result.stdout.splitlines()[0] == (
        "1 face of 55 must be reprinted (the back stays): name on 1"
    )
    reprint = out / "kraftstokk-printshop-reprint.pdf"
    assert len(pdfium.PdfDocument(reprint)) == 2  # the face and its back
    assert len(pdfium.PdfDocument(out / "kraftstokk-a4-reprint.pdf")) == 4  # + duplex test
    assert not (out / "kraftstokk-printshop.pdf").exists()  # the whole deck's stay untouched
    position = deck.cards.index(card) + 1
    slug = card.id.replace("ø", "o")
    assert sorted(p.name for p in (out / "png-reprint").iterdir()) == [
        f"{position:02d}-{slug}-bleed.png", f"{position:02d}-{slug}.png", "contact-sheet.png"
    ]  # fmt: skip
    report = (out / "reprint.txt").read_text(encoding="utf-8")
    assert f"faces to reprint (1): {card.id}" in report
    assert "the back stays the same" in report
    # The face is the whole deck's face: same scale, same rounding, same picture.
    full = tmp_path / "full"
    assert invoke("render", str(new), "--out", str(full), "--only", "printshop").exit_code == 0
    whole = pages(full / "kraftstokk-printshop.pdf")
    index = deck.cards.index(card)
    assert pages(reprint) == whole[2 * index : 2 * index + 2]


def test_a_new_edition_reprints_every_face_and_the_back_image(printed: Path, tmp_path: Path):
    deck, _ = changed(printed, tmp_path / "new", edition="2026-11")
    reprint, verdict = plan_reprint(printed, load_deck(printed), deck, RenderOptions())
    assert reprint.back and len(reprint.faces) == 55
    assert "keep edition 2024-01 to reprint 1 face" in verdict.summary
    # The back's images are written with a changed back only (at a small size here).
    one = deck.plant_cards[7].id
    for back, expected in ((True, {"back.png", "back-bleed.png"}), (False, set())):
        folder = tmp_path / f"png-{back}"
        written = write_previews(deck, folder, dpi=30, upload=(3.0, 30), only={one}, back=back)
        assert {p.name for p in written} & {"back.png", "back-bleed.png"} == expected
        assert len(written) == 3 + len(expected)  # the face, its upload image, the contact sheet


def test_nothing_to_reprint_writes_nothing(printed: Path, tmp_path: Path):
    out = tmp_path / "print"
    result = invoke("render", str(printed), "--out", str(out), "--only-changed", str(printed))
    assert result.exit_code == 0, result.output
    assert "nothing written: every face and the back print as in" in result.stdout
    assert not out.exists()


def test_the_box_is_not_a_card(printed: Path, tmp_path: Path):
    refused = invoke("render", str(printed), "--out", str(tmp_path), "--only", "box",
                     "--only-changed", str(printed))  # fmt: skip
    assert refused.exit_code == 2 and "the tuck box is not a card" in refused.stderr


def test_an_unreadable_old_deck_is_one_line(printed: Path, tmp_path: Path):
    result = invoke("render", str(printed), "--out", str(tmp_path), "--only-changed",
                    str(tmp_path / "nope.json"))  # fmt: skip
    assert result.exit_code == 2 and "nope.json" in result.stderr
