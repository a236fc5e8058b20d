"""The rules booklet PDF: headings, appendix figures, page size, fonts, reproducibility, CLI."""

from __future__ import annotations

import io
import json
from decimal import Decimal
from itertools import pairwise
from pathlib import Path

import pytest
from pypdf import PdfReader
from reportlab.lib.pagesizes import A5
from typer.testing import CliRunner

from kraftstokk.cli import app
from kraftstokk.deck.build import build_from_spec_file
from kraftstokk.design.numbers import deck_decimals, round_shown
from kraftstokk.models import CATEGORIES, Deck
from kraftstokk.render.booklet import build_booklet, imposed_name
from kraftstokk.render.imposition import A4_LANDSCAPE_PT
from kraftstokk.render.locale import available_languages, load_locale
from tests.conftest import synthetic_deck

NBSP = "\u00a0"


@pytest.fixture(scope="module")
def sample_deck() -> Deck:
    return synthetic_deck()


@pytest.fixture(scope="module")
def pdf_nb(sample_deck) -> bytes:
    return build_booklet(sample_deck, "nb")


@pytest.fixture(scope="module")
def pdf_en(sample_deck) -> bytes:
    return build_booklet(sample_deck, "en")


def reader(pdf: bytes) -> PdfReader:
    return PdfReader(io.BytesIO(pdf))


_TEXTS: dict[int, list[str]] = {}


def page_texts(pdf: bytes) -> list[str]:
    """Text of every page (extracted once per PDF: extraction is the slow part)."""
    key = hash(pdf)
    if key not in _TEXTS:
        _TEXTS[key] = [page.extract_text() for page in reader(pdf).pages]
    return _TEXTS[key]


def chapter_pages(pdf: bytes) -> dict[str, int]:
    """Chapter title -> 1-based page, from the PDF outline (set where each heading is drawn)."""
    document = reader(pdf)
    return {
        item.title: document.get_destination_page_number(item) + 1
        for item in document.outline
        if not isinstance(item, list)
    }


def outline_titles(pdf: bytes) -> list[str]:
    titles: list[str] = []

    def walk(items):
        for item in items:
            if isinstance(item, list):
                walk(item)
            else:
                titles.append(item.title)

    walk(reader(pdf).outline)
    return titles


CHAPTERS = {
    "nb": ["Kortstokken", "Idiot", "Kraftidioten", "Strømkrig", "Alle kortene"],
    "en": ["The deck", "Idiot", "Kraftidioten", "Strømkrig", "All the cards"],
}


@pytest.mark.parametrize("language", ["nb", "en"])
def test_every_chapter_heading_is_in_the_text_and_the_outline(language, pdf_nb, pdf_en):
    pdf = pdf_nb if language == "nb" else pdf_en
    lines = {line.strip() for text in page_texts(pdf) for line in text.splitlines()}
    titles = outline_titles(pdf)
    for chapter in CHAPTERS[language]:
        assert chapter in lines, chapter
        assert chapter in titles, chapter


def contents_entries(text: str) -> dict[str, int]:
    """Title -> page from the contents; each entry extracts as its dot leader, then its title."""
    lines = [line.strip() for line in text.splitlines()]
    entries: dict[str, int] = {}
    for leader, title in pairwise(lines):
        if leader.startswith(".") and leader.split()[-1].isdigit():
            entries[title] = int(leader.split()[-1])
    return entries


def test_contents_lists_each_chapter_with_its_page(pdf_nb):
    texts = page_texts(pdf_nb)
    assert "Innhold" in texts[1]
    entries = contents_entries(texts[1] + "\n" + texts[2])
    starts = chapter_pages(pdf_nb)
    for chapter in CHAPTERS["nb"]:
        # The outline entry is set where the heading was drawn; the contents must agree.
        assert entries.get(chapter) == starts[chapter], (chapter, starts, entries)
        assert chapter in [line.strip() for line in texts[starts[chapter] - 1].splitlines()]


@pytest.mark.parametrize("language", ["nb", "en"])
def test_pages_are_a5(language, pdf_nb, pdf_en):
    pages = reader(pdf_nb if language == "nb" else pdf_en).pages
    assert len(pages) >= 12
    for page in pages:
        assert float(page.mediabox.width) == pytest.approx(A5[0], abs=0.01)
        assert float(page.mediabox.height) == pytest.approx(A5[1], abs=0.01)


def test_pages_carry_their_numbers(pdf_nb):
    texts = page_texts(pdf_nb)
    for number, text in enumerate(texts[1:], start=2):
        assert str(number) in [line.strip() for line in text.splitlines()], number


def all_fonts(resources, seen: set[int]) -> list:
    """Every font a page's resources name, following forms (the card faces) down."""
    fonts = [font.get_object() for font in resources.get("/Font", {}).values()]
    for xobject in resources.get("/XObject", {}).values():
        if xobject.idnum in seen:
            continue
        seen.add(xobject.idnum)
        form = xobject.get_object()
        if form.get("/Subtype") == "/Form" and "/Resources" in form:
            fonts += all_fonts(form["/Resources"], seen)
    return fonts


def test_fonts_are_embedded(pdf_nb):
    names = set()
    seen: set[int] = set()
    for page in reader(pdf_nb).pages:
        for font in all_fonts(page["/Resources"], seen):
            assert "/FontDescriptor" in font, font["/BaseFont"]  # none of the standard 14
            assert "/FontFile2" in font["/FontDescriptor"].get_object(), font["/BaseFont"]
            names.add(str(font["/BaseFont"]).split("+")[-1])
    assert {"BitstreamVeraSans-Roman", "BitstreamVeraSans-Bold"} <= names


def appendix_rows(pdf: bytes, heading: str) -> dict[str, list[str]]:
    """Plant name -> the six cells after it (MW, nr., GWh, nr., m, nr.) in the appendix."""
    texts = page_texts(pdf)
    start = chapter_pages(pdf)[heading] - 1
    lines = [line.strip().replace(NBSP, "") for t in texts[start:] for line in t.splitlines()]
    rows: dict[str, list[str]] = {}
    for i, line in enumerate(lines):
        rows.setdefault(line, lines[i + 1 : i + 7])
    return rows


def as_decimal(text: str, decimal_mark: str, thousands: str) -> Decimal:
    return Decimal(text.replace(thousands, "").replace(decimal_mark, "."))


@pytest.mark.parametrize("language", ["nb", "en"])
def test_appendix_figures_and_nr_equal_the_deck(language, sample_deck, pdf_nb, pdf_en):
    pdf = pdf_nb if language == "nb" else pdf_en
    heading = CHAPTERS[language][-1]
    rows = appendix_rows(pdf, heading)
    decimals = deck_decimals(sample_deck)
    mark, thousands = (",", " ") if language == "nb" else (".", ",")
    for card in sample_deck.plant_cards:
        assert card.name in rows, card.name
        cells = rows[card.name]
        assert card.nr is not None
        for k, category in enumerate(CATEGORIES):
            shown = as_decimal(cells[2 * k], mark, thousands)
            assert shown == round_shown(card.figure(category), decimals[category]), (
                card.name,
                category,
            )
            assert int(cells[2 * k + 1]) == card.nr.get(category), (card.name, category)


def test_appendix_is_sorted_by_production(sample_deck, pdf_nb):
    texts = page_texts(pdf_nb)
    start = chapter_pages(pdf_nb)["Alle kortene"] - 1
    names = {card.name for card in sample_deck.plant_cards}
    order = [
        line.strip() for t in texts[start:] for line in t.splitlines() if line.strip() in names
    ]
    expected = [c.name for c in sorted(sample_deck.plant_cards, key=lambda c: -c.figure("gwh"))]
    assert order[: len(expected)] == expected


def test_source_licence_and_snapshot_name_and_date_are_printed(sample_deck, pdf_nb):
    text = page_texts(pdf_nb)[-1]
    snapshot = sample_deck.snapshot
    for fact in (snapshot.licence, snapshot.attribution):
        assert fact and fact in text
    # The snapshot by its name and its date in the booklet's language, not its file.
    assert f"{snapshot.path} (1. januar 2026)" in text and snapshot.source not in text


def test_every_game_has_a_worked_example(pdf_nb, pdf_en):
    nb = " ".join(page_texts(pdf_nb))
    en = " ".join(page_texts(pdf_en))
    for title in ("en dame ligger øverst", "en løgn blir avslørt", "krig (samme tier)"):
        assert f"Eksempel: {title}" in nb
    for title in ("a queen on top", "a lie is exposed", "war (same ten)"):
        assert f"Example: {title}" in en
    assert "Denne kortstokken har ingen kort" not in nb
    assert "This deck has no cards" not in en


# --- CLI ---------------------------------------------------------------------------------

runner = CliRunner()


def write_deck(deck: Deck, path) -> None:
    path.write_text(json.dumps(deck.model_dump(mode="json"), ensure_ascii=False), "utf-8")


def test_cli_writes_the_booklet_and_the_imposed_file(tmp_path, sample_deck, pdf_en):
    deck_path = tmp_path / "deck.json"
    write_deck(sample_deck, deck_path)
    out = tmp_path / "out"
    result = runner.invoke(
        app, ["booklet", str(deck_path), "--out", str(out), "--lang", "en", "--imposed"]
    )
    assert result.exit_code == 0, result.output
    booklet = out / "rules-en.pdf"
    imposed = out / imposed_name("en")
    assert f"wrote {booklet}" in result.output and f"wrote {imposed}" in result.output
    # Same bytes as the fixture's earlier build of the same deck: reproducible output.
    assert booklet.read_bytes() == pdf_en
    pages = len(reader(pdf_en).pages)
    sheets = reader(imposed.read_bytes()).pages
    assert len(sheets) == -(-pages // 4) * 2
    width, height = A4_LANDSCAPE_PT
    assert float(sheets[0].mediabox.width) == pytest.approx(width, abs=0.01)
    assert float(sheets[0].mediabox.height) == pytest.approx(height, abs=0.01)
    assert sorted(p.name for p in out.iterdir()) == sorted([booklet.name, imposed.name])


def test_cli_refuses_an_invalid_deck(tmp_path, sample_deck):
    broken = sample_deck.model_copy(deep=True)
    first, second = broken.plant_cards[:2]
    assert first.nr is not None and second.nr is not None
    second.nr.gwh = first.nr.gwh  # a duplicate nr. is an error
    deck_path = tmp_path / "deck.json"
    write_deck(broken, deck_path)
    result = runner.invoke(app, ["booklet", str(deck_path), "--out", str(tmp_path)])
    assert result.exit_code == 1
    assert str(deck_path) in result.output
    assert not (tmp_path / "regler.pdf").exists()


def test_cli_missing_deck_is_exit_2(tmp_path):
    missing = tmp_path / "nope.json"
    result = runner.invoke(app, ["booklet", str(missing), "--out", str(tmp_path)])
    assert result.exit_code == 2
    assert "nope.json" in result.output and "Traceback" not in result.output


def test_cli_unknown_language_is_exit_2(tmp_path, sample_deck):
    deck_path = tmp_path / "deck.json"
    write_deck(sample_deck, deck_path)
    result = runner.invoke(app, ["booklet", str(deck_path), "--lang", "de"])
    assert result.exit_code == 2
    assert "--lang de" in result.output


def test_keep_together_spans_are_merged_for_reportlab():
    # reportlab keeps one NOSPLIT range per cell: overlapping spans must become one.
    from kraftstokk.render.booklet import _merged

    assert _merged([(0, 1), (1, 2), (4, 5)], 5) == [(0, 2), (4, 5)]
    assert _merged([(0, 1), (3, 4), (2, 3)], 4) == [(0, 1), (2, 4)]
    assert _merged([(0, 1), (0, 1)], 0) == []  # a one-row box needs no range


def empty_share_at_foot(pdf: bytes) -> list[float]:
    """Per page: the share of the text frame left empty below the last line of content."""
    import pypdfium2

    from kraftstokk.render.booklet import MARGIN_BOTTOM, MARGIN_TOP, PAGE_HEIGHT

    frame = PAGE_HEIGHT - MARGIN_TOP - MARGIN_BOTTOM
    shares: list[float] = []
    document = pypdfium2.PdfDocument(pdf)
    for index in range(len(document)):
        text = document[index].get_textpage()
        bottoms = [text.get_charbox(i)[1] for i in range(text.count_chars())]
        content = [bottom for bottom in bottoms if bottom > MARGIN_BOTTOM - 6]  # not the footer
        shares.append((min(content) - MARGIN_BOTTOM) / frame if content else 1.0)
    return shares


def own_pages(pdf: bytes) -> set[int]:
    """Pages (1-based) that hold a game's quick reference or the notes at the end: blocks
    that stand on a page of their own."""
    document = reader(pdf)
    pages: set[int] = set()

    def walk(items):
        for item in items:
            if isinstance(item, list):
                walk(item)
            elif item.title.endswith((" kort fortalt", " at a glance", " i korte trekk")):
                pages.add(document.get_destination_page_number(item) + 1)

    walk(document.outline)
    texts = page_texts(pdf)
    notes = ("Notater", "Notes", "Notat")
    return pages | {n for n, t in enumerate(texts, 1) if t.strip().endswith(notes)}


@pytest.mark.parametrize("language", ["nb", "en"])
def test_no_page_a_third_empty_inside_a_chapter(language, pdf_nb, pdf_en):
    # Regression: examples kept whole left the page before each one half empty; an
    # example now waits for the next page while the text after it fills this one. A
    # chapter's last page, and the page before a quick reference, may end early.
    assert pages_a_third_empty(pdf_nb if language == "nb" else pdf_en) == []


def pages_a_third_empty(pdf: bytes) -> list[tuple[int, float]]:
    """The pages inside a chapter (not a chapter's last page, not the page before a quick
    reference, not one of those) whose foot is a third empty or more, with the share."""
    own = own_pages(pdf)
    breaks = own | set(chapter_pages(pdf).values())
    shares = empty_share_at_foot(pdf)
    inside = [
        (page, share)
        for page, share in enumerate(shares, start=1)
        if 2 < page < len(shares) and page + 1 not in breaks and page not in own
    ]
    assert inside, "no page to check"
    return [(page, round(share, 2)) for page, share in inside if share >= 1 / 3]


DEFAULT_SPEC = Path(__file__).resolve().parent.parent / "sources" / "deck.toml"


@pytest.fixture(scope="module")
def default_deck() -> Deck:
    if not DEFAULT_SPEC.with_name("jrc-2024-01.csv").exists():
        pytest.skip("the embedded snapshot sources/jrc-2024-01.csv is absent")
    return build_from_spec_file(DEFAULT_SPEC).deck


@pytest.mark.parametrize("language", available_languages())
def test_the_default_decks_booklet_is_full_to_its_pages(language, default_deck):
    """The deck people print, looked at as PNG (issue 38): whole sheets, no page inside a
    chapter a third empty, and the player counts table filling the foot of the page the
    deck's chapter ends on (if a new edition's chapter runs longer, look at that page:
    the table is then left out by design, and this test names it)."""
    pdf = build_booklet(default_deck, language)
    assert len(reader(pdf).pages) % 4 == 0
    assert pages_a_third_empty(pdf) == []
    text = load_locale(language).text
    body = ["".join(t.split()) for t in page_texts(pdf)[2:]]  # after the contents

    def pages_with(title: str) -> list[int]:
        return [n for n, t in enumerate(body, 3) if "".join(title.split()) in t]

    games = pages_with(text.games_title)
    assert len(games) == 1 and pages_with(text.players_title) == games, games


@pytest.mark.parametrize("language", ["nb", "en"])
def test_the_booklet_fills_whole_sheets(language, pdf_nb, pdf_en):
    """A multiple of four pages (notes pages at the end when needed), so the A4
    saddle-stitch file and a print shop need no blank page of their own."""
    pdf = pdf_nb if language == "nb" else pdf_en
    assert len(reader(pdf).pages) % 4 == 0
