"""`kraftstokk render`: outputs on disk, options, refusal of an invalid deck."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PIL import Image
from pypdf import PdfReader
from typer.testing import CliRunner

from kraftstokk.cli import app
from kraftstokk.deck.render_record import RECORD_NAME
from kraftstokk.models import Deck
from tests.conftest import synthetic_deck
from tests.render_probe import PT, page_shapes

runner = CliRunner()


def _write_deck(tmp_path: Path, deck: Deck | None = None) -> Path:
    path = tmp_path / "deck.json"
    path.write_text((deck or synthetic_deck()).model_dump_json(indent=1), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def rendered(tmp_path_factory: pytest.TempPathFactory) -> Path:
    tmp = tmp_path_factory.mktemp("render")
    deck_path = _write_deck(tmp)
    result = runner.invoke(app, ["render", str(deck_path), "--out", str(tmp / "out")])
    assert result.exit_code == 0, result.output
    return tmp / "out"


def test_all_outputs_written(rendered: Path):
    assert (rendered / "kraftstokk-a4.pdf").is_file()
    assert (rendered / "kraftstokk-printshop.pdf").is_file()
    pngs = sorted((rendered / "png").glob("*.png"))
    assert len(pngs) == 55 + 2 + 56  # faces, the back, the contact sheet; faces, back w/ bleed
    assert (rendered / "png" / "01-spar-1.png").is_file()
    assert (rendered / "png" / "01-spar-1-bleed.png").is_file()
    assert (rendered / "png" / "03-klover-1.png").is_file()
    assert not list(rendered.glob("**/*.tmp"))


def test_card_png_is_300_dpi_at_card_size(rendered: Path):
    with Image.open(rendered / "png" / "01-spar-1.png") as image:
        assert image.size == (750, 1050)  # 63.5 x 88.9 mm at 300 dpi
        assert round(image.info["dpi"][0]) == 300
        # the face is not blank: the name panel's accent colour is there
        colours = image.convert("RGB").getcolors(maxcolors=1 << 20)
        assert colours is not None and len(colours) > 50
    with Image.open(rendered / "png" / "contact-sheet.png") as sheet:
        assert sheet.size[0] > 8 * 250


def test_second_render_gives_identical_bytes(rendered: Path, tmp_path: Path):
    deck_path = _write_deck(tmp_path)
    result = runner.invoke(app, ["render", str(deck_path), "--out", str(tmp_path / "again")])
    assert result.exit_code == 0, result.output
    for name in ("kraftstokk-a4.pdf", "kraftstokk-printshop.pdf", "png/05-spar-13.png"):
        assert (tmp_path / "again" / name).read_bytes() == (rendered / name).read_bytes(), name


def test_letter_short_edge_sheets_only(tmp_path: Path):
    deck_path = _write_deck(tmp_path)
    out = tmp_path / "out"
    result = runner.invoke(
        app,
        [
            "render",
            str(deck_path),
            "--out",
            str(out),
            "--paper",
            "letter",
            "--duplex",
            "short",
            "--only",
            "sheets",
        ],
    )
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in out.iterdir()) == ["kraftstokk-letter.pdf", RECORD_NAME]
    reader = PdfReader(out / "kraftstokk-letter.pdf")
    assert float(reader.pages[0].mediabox.width) == pytest.approx(612, abs=0.01)
    prefs = reader.trailer["/Root"]["/ViewerPreferences"]
    assert prefs["/Duplex"] == "/DuplexFlipShortEdge"


def test_printshop_only_with_bleed_and_backs_last(tmp_path: Path):
    deck_path = _write_deck(tmp_path)
    out = tmp_path / "out"
    args = [
        "render",
        str(deck_path),
        "--out",
        str(out),
        "--only",
        "printshop",
        "--bleed",
        "2",
        "--printshop-order",
        "backs-last",
    ]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    page = PdfReader(out / "kraftstokk-printshop.pdf").pages[0]
    # the offset preset's page: card + 2 mm bleed + the 8 mm slug for crop marks, each side
    assert float(page.mediabox.width) * PT == pytest.approx(63.5 + 2 * (2 + 8), abs=0.01)
    assert float(page.bleedbox.width) * PT == pytest.approx(67.5, abs=0.01)


def test_invalid_deck_is_refused_with_its_problems(tmp_path: Path):
    deck = synthetic_deck()
    deck.cards[0].nr.mw = deck.cards[1].nr.mw  # type: ignore[union-attr]  # duplicate nr.
    deck_path = _write_deck(tmp_path, deck)
    out = tmp_path / "out"
    result = runner.invoke(app, ["render", str(deck_path), "--out", str(out)])
    assert result.exit_code == 1
    assert "problem" in result.output and str(deck_path) in result.output
    assert not out.exists()


def test_missing_deck_file_exits_2(tmp_path: Path):
    result = runner.invoke(app, ["render", str(tmp_path / "nope.json"), "--out", str(tmp_path)])
    assert result.exit_code == 2
    assert "nope.json" in result.output and "Traceback" not in result.output


def test_bleed_out_of_range_exits_2(tmp_path: Path):
    deck_path = _write_deck(tmp_path)
    result = runner.invoke(app, ["render", str(deck_path), "--out", str(tmp_path), "--bleed", "40"])
    assert result.exit_code == 2
    assert "--bleed" in result.output


def test_unknown_paper_is_rejected(tmp_path: Path):
    deck_path = _write_deck(tmp_path)
    result = runner.invoke(app, ["render", str(deck_path), "--paper", "a3"])
    assert result.exit_code == 2


def test_style_paper_letter_is_the_default(tmp_path: Path):
    deck = synthetic_deck()
    deck.spec = {"style": {"paper": "letter"}}
    deck_path = _write_deck(tmp_path, deck)
    out = tmp_path / "out"
    result = runner.invoke(app, ["render", str(deck_path), "--out", str(out), "--only", "sheets"])
    assert result.exit_code == 0, result.output
    assert (out / "kraftstokk-letter.pdf").is_file()
    json.loads(deck_path.read_text(encoding="utf-8"))


def test_previews_replace_stale_card_images_only(tmp_path: Path):
    from kraftstokk.design.layout import load_layout
    from kraftstokk.render.preview import write_previews

    folder = tmp_path / "png"
    folder.mkdir()
    (folder / "60-spar-99.png").write_bytes(b"old card")
    (folder / "notes.png").write_bytes(b"someone else's")
    written = write_previews(synthetic_deck(), folder, dpi=20, layout=load_layout("poker"))
    assert len(written) == 57
    assert not (folder / "60-spar-99.png").exists()
    assert (folder / "notes.png").read_bytes() == b"someone else's"


def test_list_layouts():
    result = runner.invoke(app, ["render", "--list-layouts"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert [line.split()[0] for line in lines] == ["bridge", "poker", "poker-63x88", "poker-dtc"]
    assert "57.2 × 88.9 mm" in lines[0]


def test_layout_option_renders_bridge_cards(tmp_path: Path):
    deck_path = _write_deck(tmp_path)
    out = tmp_path / "out"
    args = ["render", str(deck_path), "--out", str(out), "--layout", "bridge"]
    result = runner.invoke(app, [*args, "--only", "png"])
    assert result.exit_code == 0, result.output
    with Image.open(out / "png" / "01-spar-1.png") as image:
        assert image.size == (676, 1050)  # 57.2 x 88.9 mm at 300 dpi
    result = runner.invoke(app, [*args, "--only", "printshop"])
    assert result.exit_code == 0, result.output
    page = PdfReader(out / "kraftstokk-printshop.pdf").pages[0]
    assert float(page.trimbox.width) * PT == pytest.approx(57.2, abs=0.01)


def test_deck_style_layout_is_the_default_and_the_option_wins(tmp_path: Path):
    deck = synthetic_deck()
    deck.spec = {"style": {"layout": "poker-63x88"}}
    deck_path = _write_deck(tmp_path, deck)
    out = tmp_path / "out"
    base = ["render", str(deck_path), "--out", str(out), "--only", "printshop"]
    assert runner.invoke(app, base).exit_code == 0
    trim = PdfReader(out / "kraftstokk-printshop.pdf").pages[0].trimbox
    assert (round(float(trim.width) * PT, 2), round(float(trim.height) * PT, 2)) == (63.0, 88.0)
    assert runner.invoke(app, [*base, "--layout", "poker"]).exit_code == 0
    trim = PdfReader(out / "kraftstokk-printshop.pdf").pages[0].trimbox
    assert round(float(trim.width) * PT, 2) == 63.5


def test_unknown_layout_exits_2_naming_the_choices(tmp_path: Path):
    deck_path = _write_deck(tmp_path)
    result = runner.invoke(app, ["render", str(deck_path), "--layout", "tarot"])
    assert result.exit_code == 2
    assert "layout 'tarot'" in result.output and "poker" in result.output
    assert "Traceback" not in result.output


def test_only_box_writes_the_tuck_box(tmp_path: Path):
    deck_path = _write_deck(tmp_path)
    out = tmp_path / "out"
    args = ["render", str(deck_path), "--out", str(out), "--only", "box"]
    result = runner.invoke(app, [*args, "--card-thickness", "0.35", "--layout", "bridge"])
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in out.iterdir()) == [
        "kraftstokk-box-offset-dieline.pdf",
        "kraftstokk-box-offset.pdf",
        "kraftstokk-box.pdf",
    ]
    text = PdfReader(out / "kraftstokk-box.pdf").pages[0].extract_text()
    assert "55 kort à 0,35 mm" in text and "58,2 × 89,9 × 21,25 mm" in text
    # Without --card-thickness: the layout's 0.32 mm and the board's 2 mm allowance.
    result = runner.invoke(app, [*args, "--preset", "drivethrucards"])
    assert result.exit_code == 0, result.output
    text = PdfReader(out / "kraftstokk-box.pdf").pages[0].extract_text()
    assert "55 kort à 0,32 mm" in text and "× 19,6 mm" in text
    assert (out / "kraftstokk-box-drivethrucards.pdf").is_file()
    # A sheets preset's paper is the home box's paper (it was A4 whatever the preset)
    for preset, size in (("home-letter", (215.9, 279.4)), ("home-a4", (210.0, 297.0))):
        result = runner.invoke(app, [*args, "--preset", preset])
        assert result.exit_code == 0, result.output
        box = PdfReader(out / "kraftstokk-box.pdf").pages[0].mediabox
        assert (
            round(float(box.width) * 25.4 / 72, 1),
            round(float(box.height) * 25.4 / 72, 1),
        ) == size
    result = runner.invoke(app, [*args, "--card-thickness", "5"])
    assert result.exit_code == 2 and "--card-thickness" in result.output


def test_deck_naming_an_unknown_layout_is_refused_as_invalid(tmp_path: Path):
    deck = synthetic_deck()
    deck.spec = {"style": {"layout": "tarot"}}
    deck_path = _write_deck(tmp_path, deck)
    result = runner.invoke(app, ["render", str(deck_path), "--out", str(tmp_path / "out")])
    assert result.exit_code == 1
    assert "spec.style.layout" in result.output and "tarot" in result.output
    ok = runner.invoke(app, ["render", str(deck_path), "-o", str(tmp_path / "o"), "--layout",
                             "poker", "--only", "printshop"])  # fmt: skip
    assert ok.exit_code == 0, ok.output


def test_a_bridge_deck_builds_validates_and_renders(tmp_path: Path):
    """The default spec with [style] layout = "bridge", from build to the print files."""
    sources = Path(__file__).resolve().parents[1] / "sources"
    text = (sources / "deck.toml").read_text(encoding="utf-8")
    assert 'layout = "poker"' in text
    text = text.replace('layout = "poker"', 'layout = "bridge"')
    text = text.replace(
        'snapshot = "jrc-2024-01.csv"', f'snapshot = "{sources / "jrc-2024-01.csv"}"'
    )
    text = text.replace('"plant-places.csv"', f'"{sources / "plant-places.csv"}"')
    spec = tmp_path / "bridge.toml"
    spec.write_text(text, encoding="utf-8")
    out = tmp_path / "out"
    built = runner.invoke(app, ["build", "--spec", str(spec), "--out", str(out)])
    assert built.exit_code == 0, built.output
    deck_path = out / "deck.json"
    assert runner.invoke(app, ["validate", str(deck_path)]).exit_code == 0
    rendered = runner.invoke(app, ["render", str(deck_path), "-o", str(out), "--only", "sheets"])
    assert rendered.exit_code == 0, rendered.output
    clips = page_shapes(PdfReader(out / "kraftstokk-a4.pdf").pages[0]).clips
    assert len(clips) == 9
    assert {round(c.x2 - c.x1, 1) for c in clips} <= {57.2, 60.2, 63.2}  # cut, + bleed
