"""Every sentence a person reads is in the locale files, one folder per language, checked
completely by one loader: each part in every language, each key in every language, the
same placeholders, counted phrases the language has, no fallback, no language in code."""

from __future__ import annotations

import re
import shutil
from dataclasses import fields
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from kraftstokk import locales
from kraftstokk.cli import app
from kraftstokk.deck.io import write_deck
from kraftstokk.design.blocks import card_name, number
from kraftstokk.errors import LocaleError
from kraftstokk.games import events as framework_events
from kraftstokk.games import registry
from kraftstokk.games.events import Event
from kraftstokk.locales import loader
from kraftstokk.render.booklet_rules import TEMPLATE_FIELDS, RulesText
from kraftstokk.render.locale import available_languages, load_locale, parse_locale
from kraftstokk.render.locale import template_fields as placeholders
from tests.conftest import synthetic_deck

#: Languages, games or fields from the inventories: tests/test_inventory.py runs these.
pytestmark = pytest.mark.inventory

LOCALES = Path(loader.__file__).resolve().parent
#: The languages there are, as the loader's messages list them (every one, or but nn).
AVAILABLE = ", ".join(locales.languages())
BUT_NN = ", ".join(code for code in locales.languages() if code != "nn")
PACKAGE = LOCALES.parent
runner = CliRunner()


@pytest.fixture
def folder(locale_copy: Path) -> Path:
    """A copy of the locale folders that the loader reads instead (edit it in a test)."""
    return locale_copy


def _edit(folder: Path, code: str, part: str, old: str, new: str) -> None:
    path = folder / code / f"{part}.toml"
    text = path.read_text(encoding="utf-8")
    assert old in text, (code, part, old)
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_the_languages_are_the_folders():
    folders = sorted(p.name for p in LOCALES.iterdir() if p.is_dir() and p.name.isalpha())
    assert list(locales.languages()) == folders and {"en", "nb", "nn"} <= set(folders)
    assert available_languages() == locales.languages()
    for code in locales.languages():
        assert {p.stem for p in (LOCALES / code).glob("*.toml")} == set(locales.PARTS)


@pytest.mark.parametrize("code", locales.languages())
def test_every_part_of_every_language_loads_checked(code: str):
    language = locales.check_all()[code]
    assert set(language.parts) == set(locales.PARTS)
    booklet = load_locale(code)
    assert booklet.code == code and booklet.booklet_file.endswith(".pdf")
    assert [g.game for g in booklet.games] == list(registry.specs())
    assert {f.name for f in fields(RulesText)} == set(language.part("booklet")["text"])


def test_the_booklet_files_differ_per_language():
    names = [load_locale(code).booklet_file for code in locales.languages()]
    names += [load_locale(code).imposed_file for code in locales.languages()]
    assert len(set(names)) == len(names)


@pytest.mark.parametrize("code", locales.languages())
def test_every_placeholder_is_one_the_booklet_fills(code: str):
    text = load_locale(code).text
    plurals = set(load_locale(code).words.plurals)
    for field in fields(RulesText):
        value = getattr(text, field.name)
        for template in value if isinstance(value, tuple) else [value]:
            for name, spec in placeholders(template):
                assert name in TEMPLATE_FIELDS.get(field.name, frozenset()), (field.name, name)
                assert not spec or spec in plurals, (field.name, spec)


def test_grammar_names_cards_and_numbers_per_language():
    deck = synthetic_deck()
    ace = next(card for card in deck.plant_cards if card.suit == "spar" and card.value == 1)
    nb, en, nn = (load_locale(code).words for code in ("nb", "en", "nn"))
    assert (card_name(ace, nb), card_name(ace, en), card_name(ace, nn)) == (
        "spar ess",
        "ace of spades",
        "spar ess",
    )
    hearts = next(card for card in deck.plant_cards if card.suit == "hjerter" and card.value == 12)
    assert (card_name(hearts, nb), card_name(hearts, nn)) == ("hjerter dame", "hjarter dame")
    assert (number(1240.45, nb, 1), number(1240.45, en, 1)) == ("1\u00a0240,5", "1,240.5")
    assert f"{en.count(1):plants_produce}" == "1 plant of the deck produces"
    assert f"{en.count(17):plants_produce}" == "17 plants of the deck produce"


def test_the_category_words_are_written_once_per_language():
    """words.toml holds them; no other locale file or module writes them again."""
    for code in locales.languages():
        words = locales.load(code).part("words")["words"]["categories"]
        for part in ("booklet", "events", "web", "cli"):
            text = (LOCALES / code / f"{part}.toml").read_text(encoding="utf-8")
            assert not re.search(r"^(mw|gwh|head_m) = ", text, re.M), (code, part)
        assert set(words) == {"mw", "gwh", "head_m"}
    for path in PACKAGE.rglob("*.py"):
        source = path.read_text(encoding="utf-8")
        assert '"produksjon"' not in source and '"fallhøyde"' not in source, path


@pytest.mark.parametrize("name", registry.package_names())
def test_every_event_of_every_game_has_its_sentence_in_every_language(name: str):
    module = __import__(f"kraftstokk.games.{name}.events", fromlist=["events"])
    kinds = {
        value.__name__
        for value in vars(module).values()
        if isinstance(value, type)
        and issubclass(value, Event)
        and value.__module__ == module.__name__
    }
    shared = {
        value.__name__
        for value in vars(framework_events).values()
        if isinstance(value, type) and issubclass(value, Event) and value is not Event
    }
    assert kinds and shared == {"SeatOut", "GameOver"}
    for code in locales.languages():
        said = locales.load(code).part("events")
        assert kinds <= set(said[name]["events"]), (code, sorted(kinds - set(said[name]["events"])))
        assert shared <= set(said["table"]["events"]), code
        assert said[name]["words"]["loser"], code


#: Where a language may not be named in code: what the people read is in the locale files.
LANGUAGE_BRANCH = re.compile(
    r"""(lang|language|code)\s*==\s*["'](nb|en|nn)["']|\bn\.nb\b|\.nb\b\s*else"""
)


def test_no_language_branches_remain_in_the_code():
    found = []
    for path in PACKAGE.rglob("*.py"):
        for number_, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if LANGUAGE_BRANCH.search(line):
                found.append(f"{path.relative_to(PACKAGE)}:{number_}: {line.strip()}")
    script = (PACKAGE / "web" / "static" / "app.js").read_text(encoding="utf-8")
    for number_, line in enumerate(script.splitlines(), 1):
        if re.search(r"""lang\s*===?\s*["'](nb|en|nn)["']""", line):
            found.append(f"web/static/app.js:{number_}: {line.strip()}")
    assert not found, "\n".join(found)


# The loader refuses what does not fit ------------------------------------------------------


@pytest.mark.parametrize(
    ("code", "part", "old", "new", "message"),
    [
        (
            "nn",
            "events",
            'RunEnded = "{Seat} avsluttar serien."\n',
            "",
            f"missing idiot.events.RunEnded (it is in {BUT_NN})",
        ),
        (
            "en",
            "web",
            'menu = "Menu"\n',
            'menu = "Menu"\nmenus = "Menus"\n',
            "locales/nb/web.toml: missing ui.menus (it is in en)",
        ),
        (
            "nb",
            "events",
            "{Seat} begynner (",
            "{Seat} begynner med {card} (",
            "idiot.events.Starts: the languages fill different placeholders",
        ),
        (
            "en",
            "events",
            "take the pile ({size:cards})",
            "take the pile ({size:piles})",
            "{size:piles} names no counted phrase in [plurals]",
        ),
        (
            "nb",
            "web",
            'menu = "Meny"',
            'menu = "Meny {n:cards}"',
            "the page fills plain placeholders only",
        ),
        (
            "en",
            "cli",
            'left = "Game left unfinished."',
            'left = ["Game", "left"]',
            "play.left: not the same kind",
        ),
        (
            "nb",
            "words",
            'joker = "joker"',
            "joker = 3",
            "words.joker: must be a text or a list of texts",
        ),
        ("nn", "cli", "[replay]", "[replay", "locales/nn/cli.toml: not valid TOML (Expected"),
        (
            "en",
            "events",
            'Passed = "{Seat} {seat:passes|pass}',
            'Passed = "{Seat} {seat:pass|es|x}',
            "is not a format this tool knows",
        ),
    ],
)
def test_a_locale_that_does_not_fit_is_an_error_naming_file_and_key(
    folder, code, part, old, new, message
):
    _edit(folder, code, part, old, new)
    with pytest.raises(LocaleError) as info:
        locales.check_all()
    assert message in str(info.value)


def test_a_missing_part_or_an_unknown_language_is_named(folder: Path):
    (folder / "nn" / "cli.toml").unlink()
    with pytest.raises(LocaleError, match=r"locales/nn/cli.toml: missing \(every language has"):
        locales.check_all()
    with pytest.raises(LocaleError, match=rf"unknown language 'de' \(available: {AVAILABLE}\)"):
        locales.load("de")


def _booklet_raw(code: str) -> tuple[dict[str, Any], dict[str, Any]]:
    language = locales.load(code)
    copy = __import__("copy")
    return copy.deepcopy(language.part("booklet")), copy.deepcopy(language.part("words"))


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda b, w: b["words"].pop("page_label"), "[words]: page_label: is missing"),
        (lambda b, w: b["words"].update(spoken="x"), "[words]: spoken"),
        (lambda b, w: b["text"].update(edition="Utgave {utgave}"), "{utgave}"),
        (lambda b, w: b["text"].update(edition="Utgave {edition:x}"), "names no plural"),
        (lambda b, w: b["text"].update(subtitle=["Spilleregler"]), "must be one text"),
        (lambda b, w: b["text"].pop("subtitle"), "[text]: missing subtitle"),
        (lambda b, w: b["text"].update(subtitel="S"), "unknown key subtitel"),
        (lambda b, w: w["words"]["suits"].pop("kløver"), "[words].suits: missing kløver"),
        (lambda b, w: b["grammar"].update(card_name="{suit} {colour}"), "{colour}"),
        (lambda b, w: b["idiot"].pop("intro"), "[idiot]: missing intro"),
        (
            lambda b, w: b["stromkrig"].update(beat="{top} {nope}"),
            "[stromkrig] beat: unknown placeholder {nope}",
        ),
        (lambda b, w: b.update(chess={"intro": "x"}), "unknown table [chess]"),
        (lambda b, w: w["games"].pop("kraftidioten"), "games.kraftidioten.title: missing"),
    ],
)
def test_a_malformed_booklet_part_is_an_error_naming_file_and_key(change, message):
    booklet, words = _booklet_raw("nb")
    change(booklet, words)
    with pytest.raises(LocaleError) as info:
        parse_locale("locales/nb/booklet.toml", "nb", booklet, words)
    assert "locales/nb/" in str(info.value) and message in str(info.value)


def test_an_unknown_booklet_language_is_refused_naming_the_languages(tmp_path: Path):
    deck_path = tmp_path / "deck.json"
    write_deck(synthetic_deck(), tmp_path)
    result = runner.invoke(app, ["booklet", str(deck_path), "--lang", "de", "-o", str(tmp_path)])
    assert result.exit_code == 2
    assert f"--lang de: unknown language (available: {AVAILABLE})" in result.output
    assert not list(tmp_path.glob("*.pdf"))


def test_adding_a_language_is_adding_a_folder(folder: Path, tmp_path: Path):
    folder_languages = [path.name for path in folder.iterdir()]
    shutil.copytree(folder / "nb", folder / "xx")
    _edit(folder, "xx", "booklet", '"regler.pdf"', '"xx.pdf"')
    _edit(folder, "xx", "booklet", '"regler-a4-hefte.pdf"', '"xx-a4.pdf"')
    assert locales.languages() == tuple(sorted((*folder_languages, "xx")))
    write_deck(synthetic_deck(), tmp_path)
    result = runner.invoke(
        app, ["booklet", str(tmp_path / "deck.json"), "--lang", "xx", "-o", str(tmp_path)]
    )
    assert result.exit_code == 0, result.output
    assert (tmp_path / "xx.pdf").stat().st_size > 10_000


def test_a_template_fills_the_same_however_often_it_is_filled():
    """Templates are parsed once and kept (the web's narration fills the same ones all day):
    a phrase chosen by a value may hold no placeholder, literal braces or nothing at all,
    a capital placeholder writes its value with a capital, a missing value is named."""
    from kraftstokk.locales.template import Grammar, Person, fill

    plurals = {"cards": {"one": "{count} card", "other": "{count} cards"}}
    grammar = Grammar(plurals=plurals, ordinal={})
    entry = {
        "text": "{Seat} {seat:lays|lay} {size:cards}{again}{shown}.",
        "again": {"true": " again {{sic}}", "false": ""},
        "shown": {"true": ": {size:cards} by {seat}", "false": ""},
    }
    values: dict[str, object] = {"seat": Person("anna", False), "size": 3, "again": True}
    for _ in range(2):  # parsed once, then from the cache: the same text
        again = fill("t", entry, {**values, "shown": False}, grammar)
        assert again == "Anna lays 3 cards again {sic}."
        assert fill("t", entry, {**values, "again": False, "shown": True}, grammar) == (
            "Anna lays 3 cards: 3 cards by anna."
        )
    you = {"seat": Person("you", True), "size": 1, "again": False, "shown": False}
    assert fill("t", entry, you, grammar) == "You lay 1 card."
    with pytest.raises(LocaleError, match=r"t: \{size\} is not one of this text's values"):
        fill("t", entry, {"seat": Person("anna", False)}, grammar)
