"""One booklet structure fills every language's sentence templates completely; the
locale files give every variant of every game its house rule, and every language
booklet files of its own names."""

from __future__ import annotations

import dataclasses
import shutil
from dataclasses import fields
from pathlib import Path

import pytest

from kraftstokk import locales
from kraftstokk.design import blocks as bt
from kraftstokk.errors import LocaleError
from kraftstokk.games import registry
from kraftstokk.games.spec import VariantSpec
from kraftstokk.locales import loader
from kraftstokk.render.booklet_content import booklet_blocks
from kraftstokk.render.booklet_rules import RulesText
from kraftstokk.render.locale import available_languages, load_locale
from tests.conftest import synthetic_deck
from tests.fixtures.highcard import spec as highcard_spec

LOCALES = Path(loader.__file__).resolve().parent


def _texts(block: object) -> list[str]:
    """Every text a block prints (its paragraphs, items, captions, cells, titles)."""
    if isinstance(block, bt.Heading | bt.Para):
        return [block.text]
    if isinstance(block, bt.Contents):
        return [block.title]
    if isinstance(block, bt.Bullets | bt.Numbered):
        return list(block.items)
    if isinstance(block, bt.CardRow):
        return list(block.captions)
    if isinstance(block, bt.Grid):
        return [*block.headings, *(cell for row in block.rows for cell in row)]
    if isinstance(block, bt.Example):
        return [block.title, *(text for part in block.body for text in _texts(part))]
    if isinstance(block, bt.QuickReference):
        parts = [text for section in block.sections for text in _texts(section.body)]
        return [block.title, *(s.heading for s in block.sections), *parts, block.cards, block.deal]
    if isinstance(block, bt.CardTable):
        return [*block.headings, block.joker_label]
    if isinstance(block, bt.TitlePage):
        return [block.title, block.subtitle, *block.lines]
    if isinstance(block, bt.WholeSheets):
        return [block.heading]
    if isinstance(block, bt.IfRoom):
        return [text for part in block.blocks for text in _texts(part)]
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


@pytest.mark.parametrize("language", available_languages())
def test_every_variant_has_its_house_rule_in_the_chapter(language: str) -> None:
    """36.3: each variant of a game's spec is told, under its name, in its chapter."""
    locale = load_locale(language)
    blocks = booklet_blocks(synthetic_deck(), language)
    printed = {text for block in blocks for text in _texts(block)}
    for game in locale.games:
        assert [name for name, _ in game.house_rules] == [v.name for v in game.spec.variants]
        for name, text in game.house_rules:
            assert text in printed, (game.game, name)


@pytest.fixture
def folder(locale_copy: Path) -> Path:
    return locale_copy


def _cut(folder: Path, code: str, old: str, new: str = "") -> None:
    path = folder / code / "booklet.toml"
    text = path.read_text(encoding="utf-8")
    assert old in text, (code, old)
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_a_variant_without_its_text_in_one_language_is_refused(folder: Path) -> None:
    start = "sneak_three = "
    text = (folder / "nn" / "booklet.toml").read_text(encoding="utf-8")
    begin = text.index(start)
    end = text.index('"""', text.index('"""', begin) + 3) + 3
    _cut(folder, "nn", text[begin:end])
    with pytest.raises(LocaleError) as error:
        load_locale("nn")
    message = str(error.value)
    assert message.startswith("locales/nn/booklet.toml") and "sneak_three" in message


def test_a_house_rule_for_no_variant_is_refused(folder: Path) -> None:
    for code in locales.languages():  # in every language, so that only the spec disagrees
        _cut(folder, code, "[idiot.house_rules]\n", '[idiot.house_rules]\nten_twice = "-"\n')
    with pytest.raises(LocaleError, match=r"\[idiot.house_rules\]: unknown key ten_twice"):
        load_locale("en")


def test_a_new_variant_without_texts_is_refused_naming_it() -> None:
    """A variant added to a spec reaches no player before it has its house rule."""
    spec = dataclasses.replace(
        highcard_spec.SPEC, variants=(*highcard_spec.SPEC.variants, VariantSpec("double"))
    )
    registry.register(spec)
    try:
        with pytest.raises(LocaleError, match=r"\[highcard.house_rules\]: missing double"):
            load_locale("nb")
    finally:
        registry.unregister("highcard")


def test_a_copied_language_that_keeps_bokmals_file_names_is_refused(folder: Path) -> None:
    """36.3: a new language copied from nb must not overwrite the bokmål booklet."""
    shutil.copytree(folder / "nb", folder / "sv")
    locales.reset()
    with pytest.raises(LocaleError) as error:
        load_locale("sv")
    message = str(error.value)
    assert message.startswith("locales/sv/booklet.toml [files]")
    assert "regler.pdf" in message and "of nb" in message
    _cut(folder, "sv", 'booklet = "regler.pdf"', 'booklet = "regler-sv.pdf"')
    _cut(folder, "sv", 'imposed = "regler-a4-hefte.pdf"', 'imposed = "Regler-A4-hefte.pdf"')
    locales.reset()
    with pytest.raises(LocaleError, match=r"Regler-A4-hefte\.pdf"):  # one file on macOS too
        load_locale("sv")
    _cut(folder, "sv", 'imposed = "Regler-A4-hefte.pdf"', 'imposed = "regler-sv-a4.pdf"')
    locales.reset()
    assert load_locale("sv").booklet_file == "regler-sv.pdf"


def test_one_language_may_not_write_two_files_under_one_name(folder: Path) -> None:
    _cut(folder, "en", 'imposed = "rules-en-a4-booklet.pdf"', 'imposed = "rules-en.pdf"')
    with pytest.raises(LocaleError, match="imposed file and the booklet file are both"):
        load_locale("en")


def test_dates_and_spoken_figures_in_each_language() -> None:
    nb, en, nn = (load_locale(code).words for code in ("nb", "en", "nn"))
    assert bt.date_in_words("2024-01", nb) == "januar 2024"
    assert bt.date_in_words("2024-01", en) == "January 2024"
    assert bt.date_in_words("2026-11-29", nb) == "29. november 2026"
    assert bt.date_in_words("2026-11-29", en) == "29 November 2026"
    assert bt.date_in_words("2024", nn) == "2024"
    assert bt.date_in_words("2024-13", nn) == "2024-13"
    assert bt.date_in_words("a <b>date</b>", nb) == "a &lt;b&gt;date&lt;/b&gt;"
    assert bt.snapshot_name("/home/builder/kraft/sources/jrc-2024-01.csv") == "jrc-2024-01"
    assert bt.snapshot_name("C:\\data\\nve-2025-03-01.csv") == "nve-2025-03-01"
    card = synthetic_deck().plant_cards[0].model_copy(update={"mw": 840.0, "gwh": 1.0})
    one_decimal = dataclasses.replace(nb, decimals={"mw": 1, "gwh": 1})
    assert bt.said(card, "mw", one_decimal) == "840 megawatt"  # not "840,0 MW"
    assert bt.said(card, "gwh", one_decimal) == "1 gigawattime"
    english = dataclasses.replace(en, decimals={"mw": 1})
    assert bt.said(card.model_copy(update={"mw": 1240.45}), "mw", english) == ("1,240.5 megawatts")
