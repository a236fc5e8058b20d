"""One booklet structure fills every language's sentence templates completely."""

from __future__ import annotations

from dataclasses import fields

import pytest

from kraftstokk.design import blocks as bt
from kraftstokk.render.booklet_content import booklet_blocks
from kraftstokk.render.booklet_rules import RulesText
from kraftstokk.render.locale import available_languages, load_locale
from tests.conftest import synthetic_deck


def _texts(block: bt.Block | bt.Para | bt.Bullets | bt.CardRow) -> list[str]:
    if isinstance(block, bt.Heading | bt.Para):
        return [block.text]
    if isinstance(block, bt.Contents):
        return [block.title]
    if isinstance(block, bt.Bullets):
        return list(block.items)
    if isinstance(block, bt.CardRow):
        return list(block.captions)
    if isinstance(block, bt.Example):
        return [block.title, *(text for part in block.body for text in _texts(part))]
    if isinstance(block, bt.CardTable):
        return [*block.headings, block.joker_label]
    if isinstance(block, bt.TitlePage):
        return [block.title, block.subtitle, *block.lines]
    raise AssertionError(f"unknown block {block!r}")


@pytest.mark.parametrize("language", available_languages())
@pytest.mark.parametrize("seed", [1, 7, 23])
def test_every_template_field_is_filled(language: bt.Language, seed: int) -> None:
    texts = [
        text for block in booklet_blocks(synthetic_deck(seed), language) for text in _texts(block)
    ]
    assert texts
    left = [text for text in texts if "{" in text or "}" in text]
    assert left == []


@pytest.mark.parametrize("language", available_languages())
def test_the_languages_fill_the_same_kinds_of_text(language: str) -> None:
    # A paragraph list in one language and a single paragraph in another would change
    # the booklet's structure, which is one for all (the games' chapters included).
    reference, other = load_locale("nb"), load_locale(language)
    pairs = [(RulesText, reference.text, other.text)]
    pairs += [
        (type(mine.text), mine.text, theirs.text)
        for mine, theirs in zip(reference.games, other.games, strict=True)
    ]
    for cls, nb_text, text in pairs:
        for field in fields(cls):
            nb, mine = getattr(nb_text, field.name), getattr(text, field.name)
            assert type(nb) is type(mine), field.name
            if field.name not in ("deck_intro",):  # English explains the Norwegian suit names
                assert not isinstance(nb, tuple) or len(nb) == len(mine), field.name
