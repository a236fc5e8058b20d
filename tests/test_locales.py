"""The booklet's languages are TOML files: each complete, each placeholder filled, no fallback."""

from __future__ import annotations

import tomllib
from dataclasses import fields
from importlib import resources
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kraftstokk.cli import app
from kraftstokk.deck.io import write_deck
from kraftstokk.errors import LocaleError
from kraftstokk.render import locale as locale_module
from kraftstokk.render.booklet_rules import TEMPLATE_FIELDS, RulesText
from kraftstokk.render.booklet_text import card_name, number
from kraftstokk.render.locale import available_languages, load_locale, parse_locale
from kraftstokk.render.locale import template_fields as placeholders
from tests.conftest import synthetic_deck

RENDER = Path(__file__).parents[1] / "kraftstokk" / "render"
runner = CliRunner()


def _raw(code: str) -> dict[str, object]:
    text = resources.files("kraftstokk.render.locales").joinpath(f"{code}.toml").read_text()
    return tomllib.loads(text)


def _keys(table: object, prefix: str = "") -> set[str]:
    if not isinstance(table, dict):
        return set()
    keys: set[str] = set()
    for key, value in table.items():
        if prefix == "grammar." and key == "plurals":
            continue  # each language names the counted phrases its own sentences need
        keys.add(prefix + key)
        keys |= _keys(value, f"{prefix}{key}.")
    return keys


def _texts(value: str | tuple[str, ...]) -> list[str]:
    return list(value) if isinstance(value, tuple) else [value]


def test_the_languages_are_the_files():
    assert available_languages() == ("en", "nb")


@pytest.mark.parametrize("code", available_languages())
def test_every_file_has_every_field(code: str):
    reference = _keys(_raw("nb"))
    assert _keys(_raw(code)) == reference
    text_keys = {key.removeprefix("text.") for key in reference if key.startswith("text.")}
    assert text_keys == {field.name for field in fields(RulesText)}
    loaded = load_locale(code)
    assert loaded.code == code and loaded.booklet_file.endswith(".pdf")


@pytest.mark.parametrize("code", available_languages())
def test_every_placeholder_is_one_the_booklet_fills(code: str):
    text = load_locale(code).text
    plurals = set(load_locale(code).words.plurals)
    for field in fields(RulesText):
        for template in _texts(getattr(text, field.name)):
            for name, spec in placeholders(template):
                assert name in TEMPLATE_FIELDS.get(field.name, frozenset()), (field.name, name)
                assert not spec or spec in plurals, (field.name, spec)


def test_translations_keep_every_placeholder():
    # A translation that drops {figure} or {plant} would lose a card from its example.
    reference = load_locale("nb").text
    for code in available_languages():
        text = load_locale(code).text
        for field in fields(RulesText):
            mine = {n for t in _texts(getattr(text, field.name)) for n, _ in placeholders(t)}
            theirs = {n for t in _texts(getattr(reference, field.name)) for n, _ in placeholders(t)}
            assert mine == theirs, (code, field.name)


def test_grammar_names_cards_and_numbers_per_language():
    deck = synthetic_deck()
    ace = next(card for card in deck.plant_cards if card.suit == "spar" and card.value == 1)
    nb, en = load_locale("nb").words, load_locale("en").words
    assert (card_name(ace, nb), card_name(ace, en)) == ("spar ess", "ace of spades")
    assert (number(1240.45, nb, 1), number(1240.45, en, 1)) == ("1\u00a0240,5", "1,240.5")
    assert f"{en.count(1):plants_produce}" == "1 plant of the deck produces"
    assert f"{en.count(17):plants_produce}" == "17 plants of the deck produce"
    assert f"{en.count(1):produce} / {en.count(0):produce}" == "1 produces / 0 produce"


def test_no_language_branches_remain_in_the_drawing_code():
    for path in RENDER.glob("*.py"):
        source = path.read_text(encoding="utf-8")
        assert 'code == "' not in source and "code == '" not in source, path.name
        assert 'language == "' not in source and "language == '" not in source, path.name


def _nb_bytes() -> bytes:
    return resources.files("kraftstokk.render.locales").joinpath("nb.toml").read_bytes()


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (('page_label = "Side"\n', ""), "words.page_label: is missing"),
        (('joker = "joker"\n', 'joker = "joker"\nspoken = "x"\n'), "words.spoken"),
        (('[language]\ncode = "nb"', '[language]\ncode = "nn"'), "code 'nn' is not 'nb'"),
        (('edition = "Utgave {edition}"', 'edition = "Utgave {utgave}"'), "{utgave}"),
        (('edition = "Utgave {edition}"', 'edition = "Utgave {edition:x}"'), "names no plural"),
        (('edition = "Utgave {edition}"', 'edition = "Utgave {edition"'), "not a valid template"),
        (('subtitle = "Spilleregler"', 'subtitle = ["Spilleregler"]'), "must be one text"),
        (('subtitle = "Spilleregler"\n', ""), "[text]: missing subtitle"),
        (('subtitle = "Spilleregler"', 'subtitle = "S"\nsubtitel = "S"'), "unknown key subtitel"),
        (('"kløver" = "kløver"\n', ""), "[words.suits]: missing kløver"),
        (('card_name = "{suit} {value}"', 'card_name = "{suit} {colour}"'), "{colour}"),
        (("[text]", "[text"), "not valid TOML"),
    ],
)
def test_a_malformed_locale_is_an_error_naming_file_and_key(change, message):
    old, new = change
    data = _nb_bytes().decode("utf-8")
    assert old in data
    with pytest.raises(LocaleError) as info:
        parse_locale("locales/nb.toml", "nb", data.replace(old, new, 1).encode("utf-8"))
    assert "locales/nb.toml" in str(info.value) and message in str(info.value)


def test_unknown_language_is_an_error_naming_the_languages(tmp_path: Path):
    with pytest.raises(LocaleError, match=r"unknown language 'de' \(available: en, nb\)"):
        load_locale("de")
    deck_path = tmp_path / "deck.json"
    write_deck(synthetic_deck(), tmp_path)
    result = runner.invoke(app, ["booklet", str(deck_path), "--lang", "de", "-o", str(tmp_path)])
    assert result.exit_code == 2
    assert "--lang de: unknown language (available: en, nb)" in result.output
    assert not list(tmp_path.glob("*.pdf"))


def test_adding_a_language_is_adding_a_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    folder = tmp_path / "locales"
    folder.mkdir()
    for code in available_languages():
        (folder / f"{code}.toml").write_bytes(
            resources.files("kraftstokk.render.locales").joinpath(f"{code}.toml").read_bytes()
        )
    text = _nb_bytes().decode("utf-8")
    text = text.replace('code = "nb"', 'code = "xx"').replace('"regler.pdf"', '"xx.pdf"')
    (folder / "xx.toml").write_text(text, encoding="utf-8")
    monkeypatch.setattr(locale_module, "_folder", lambda: folder)
    load_locale.cache_clear()
    try:
        assert available_languages() == ("en", "nb", "xx")
        write_deck(synthetic_deck(), tmp_path)
        result = runner.invoke(
            app, ["booklet", str(tmp_path / "deck.json"), "--lang", "xx", "-o", str(tmp_path)]
        )
        assert result.exit_code == 0, result.output
        assert (tmp_path / "xx.pdf").stat().st_size > 10_000
    finally:
        load_locale.cache_clear()
