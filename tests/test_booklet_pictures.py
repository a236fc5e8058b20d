"""The booklet's pictures of cards flow with its text: no page is left a third empty
because a group of pictures (with the text introducing it) went to the next page.

The audit found pages a third empty after a group of pictures: the last two items of a
list kept together, then kept together again with the picture row they introduce, asked
for more than any page, so the row and its list always began a new page. Now the
keeping is one level deep, and a row that does not fit what is left of a page is drawn
a little smaller (down to the smallest of ``PICTURE_SHRINKS``) rather than moved.
"""

from __future__ import annotations

import io

import numpy as np
import pypdfium2 as pdfium
import pytest
from pypdf import PdfReader
from reportlab.platypus import KeepTogether

from kraftstokk.design.blocks import QuickReference
from kraftstokk.locales.loader import languages
from kraftstokk.models import Deck
from kraftstokk.render.booklet import PictureRow, StoryBuilder, build_booklet
from kraftstokk.render.booklet_content import booklet_blocks
from kraftstokk.render.locale import load_locale
from tests.test_picture_truth import SPEC

#: A body page may end this much of its text area empty only where a chapter (or a
#: one-page quick reference) starts on the next page.
MOST_EMPTY = 1 / 3


@pytest.fixture(scope="module")
def deck() -> Deck:
    from kraftstokk.deck.build import build_from_spec_file

    return build_from_spec_file(SPEC).deck


def _nested(flowable: object) -> bool:
    content = getattr(flowable, "_content", [])
    return isinstance(flowable, KeepTogether) and any(
        isinstance(part, KeepTogether) for part in content
    )


@pytest.mark.parametrize("language", languages())
def test_no_group_is_kept_together_inside_another(deck: Deck, language: str):
    from kraftstokk.design.palette import palette_from_style

    words = load_locale(language).words.for_deck(deck)
    builder = StoryBuilder(deck, words, palette_from_style(deck.style()))
    story = builder.story(booklet_blocks(deck, language))
    rows = [f for f in story if isinstance(f, KeepTogether) and any(
        isinstance(p, PictureRow) for p in f._content)]  # fmt: skip
    assert rows, "the booklet introduces picture rows with text"
    assert not [f for f in story if _nested(f)]


def _emptiness(page: pdfium.PdfPage) -> float:
    """How much of the page's text area (above the running foot) is empty at its foot."""
    image = np.asarray(page.render(scale=30 / 72).to_pil().convert("L"))
    body = image[: int(image.shape[0] * 0.9)]
    rows = np.flatnonzero((body < 200).sum(axis=1) > 2)
    last = rows[-1] if rows.size else 0
    return float(1 - (last + 1) / body.shape[0])


def _chapter_pages(reader: PdfReader, one_pagers: set[str]) -> set[int]:
    """Pages (1-based) where a chapter starts (a top-level outline entry) or a block that
    stays on one page whole (a game's quick reference, titled ``one_pagers``)."""
    pages: set[int] = set()

    def walk(entries: list[object], top: bool) -> None:
        for entry in entries:
            if isinstance(entry, list):
                walk(entry, False)
            elif top or str(getattr(entry, "title", "")) in one_pagers:
                pages.add(reader.get_destination_page_number(entry) + 1)  # type: ignore[arg-type]

    walk(reader.outline, True)
    return pages


@pytest.mark.parametrize("language", languages())
def test_no_page_is_left_a_third_empty_before_pictures(deck: Deck, language: str):
    pdf = build_booklet(deck, language)
    reader = PdfReader(io.BytesIO(pdf))
    quick = {b.title for b in booklet_blocks(deck, language) if isinstance(b, QuickReference)}
    assert quick
    chapters = _chapter_pages(reader, quick)
    document = pdfium.PdfDocument(pdf)
    last_body = max(chapters)  # (then the card table, the credits and the notes pages)
    loose = [
        (number, round(_emptiness(document[number - 1]), 2))
        for number in range(3, last_body)
        if number + 1 not in chapters and _emptiness(document[number - 1]) > MOST_EMPTY
    ]
    assert loose == []
