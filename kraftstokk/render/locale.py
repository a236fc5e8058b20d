"""The booklet's languages: one TOML file per language in ``render/locales/``.

A locale file holds everything a language decides: its words (suits, values, categories),
its grammar (how a card and a figure are named, number marks, plural phrases), the output
file names and every sentence of the booklet (the :class:`RulesText`). The languages are
exactly the files that exist; adding one is adding a file. Loading validates the file
completely: a missing or unknown key, a wrong type, or a template field that the booklet
does not fill is an error naming the file and the key.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, fields
from functools import cache
from importlib import resources
from importlib.resources.abc import Traversable
from string import Formatter
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from kraftstokk.errors import LocaleError
from kraftstokk.render.booklet_rules import TEMPLATE_FIELDS, RulesText
from kraftstokk.render.booklet_text import Language, Plural, Words

LOCALES_PACKAGE = "kraftstokk.render.locales"


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


class LanguageTable(_Strict):
    code: str = Field(min_length=2)
    name: str = Field(min_length=1)


class FilesTable(_Strict):
    booklet: str = Field(pattern=r"^[A-Za-z0-9._-]+\.pdf$")
    imposed: str = Field(pattern=r"^[A-Za-z0-9._-]+\.pdf$")


class WordsTable(_Strict):
    page_label: str
    document_title: str
    joker: str
    suits: dict[str, str]
    values: dict[str, str]
    categories: dict[str, str]


class PluralTable(_Strict):
    one: str
    other: str


class GrammarTable(_Strict):
    card_name: str
    figure: str
    caption: str
    decimal_mark: str = Field(min_length=1, max_length=1)
    thousands: str = Field(min_length=1, max_length=1)
    plurals: dict[str, PluralTable] = Field(default_factory=dict)


class LocaleFile(_Strict):
    """The TOML file as written; :func:`load_locale` turns it into a :class:`Locale`."""

    language: LanguageTable
    files: FilesTable
    words: WordsTable
    grammar: GrammarTable
    text: dict[str, str | list[str]]


@dataclass(frozen=True)
class Locale:
    """One language of the booklet: its words, its sentences and its file names."""

    code: Language
    name: str
    booklet_file: str
    imposed_file: str
    words: Words
    text: RulesText


#: The keys every words table holds, and the fields of the grammar's templates.
SUITS = ("spar", "hjerter", "kløver", "ruter")
VALUES = ("1", "11", "12", "13")
CATEGORIES = ("mw", "gwh", "head_m")
GRAMMAR_FIELDS: dict[str, frozenset[str]] = {
    "card_name": frozenset({"suit", "value"}),
    "figure": frozenset({"number", "unit"}),
    "caption": frozenset({"nr", "category"}),
    "document_title": frozenset({"title"}),
}


def _folder() -> Traversable:
    return resources.files(LOCALES_PACKAGE)


def available_languages() -> tuple[Language, ...]:
    """The codes of the locale files that exist, sorted."""
    return tuple(
        sorted(
            entry.name.removesuffix(".toml")
            for entry in _folder().iterdir()
            if entry.name.endswith(".toml")
        )
    )


def template_fields(template: str) -> list[tuple[str, str]]:
    """The ``(field, format spec)`` pairs of a ``str.format`` template, in order."""
    return [
        (name, spec or "") for _, name, spec, _ in Formatter().parse(template) if name is not None
    ]


def _check_template(where: str, template: str, allowed: frozenset[str], plurals: set[str]) -> None:
    try:
        found = template_fields(template)
    except ValueError as exc:
        raise LocaleError(f"{where}: not a valid template ({exc})") from None
    for name, spec in found:
        if name not in allowed:
            choice = ", ".join(sorted(allowed)) or "none"
            raise LocaleError(f"{where}: unknown placeholder {{{name}}} (this text fills {choice})")
        if spec and spec not in plurals:
            raise LocaleError(f"{where}: {{{name}:{spec}}} names no plural in [grammar.plurals]")


def _check_keys(where: str, table: dict[str, str], wanted: tuple[str, ...]) -> None:
    missing = [key for key in wanted if key not in table]
    unknown = [key for key in table if key not in wanted]
    if missing:
        raise LocaleError(f"{where}: missing {', '.join(missing)}")
    if unknown:
        raise LocaleError(f"{where}: unknown key {', '.join(unknown)}")


def _rules_text(where: str, raw: dict[str, str | list[str]], plurals: set[str]) -> RulesText:
    values: dict[str, Any] = {}
    names = [f.name for f in fields(RulesText)]
    _check_keys(f"{where} [text]", {key: "" for key in raw}, tuple(names))
    for item in fields(RulesText):
        value = raw[item.name]
        is_list = item.type in ("Paras", "tuple[str, ...]")
        if is_list != isinstance(value, list):
            kind = "a list of paragraphs" if is_list else "one text"
            raise LocaleError(f"{where} [text] {item.name}: must be {kind}")
        allowed = TEMPLATE_FIELDS.get(item.name, frozenset())
        for text in value if isinstance(value, list) else [value]:
            _check_template(f"{where} [text] {item.name}", text, allowed, plurals)
        values[item.name] = tuple(value) if isinstance(value, list) else value
    return RulesText(**values)


def _parse(where: str, data: bytes) -> LocaleFile:
    try:
        raw = tomllib.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise LocaleError(f"{where}: not a valid UTF-8 TOML file ({exc})") from None
    try:
        return LocaleFile.model_validate(raw)
    except ValidationError as exc:
        first = exc.errors()[0]
        key = ".".join(str(part) for part in first["loc"]) or "top level"
        raise LocaleError(f"{where}: {key}: {first['msg']}") from None


def parse_locale(where: str, code: Language, data: bytes) -> Locale:
    """Validate a locale file's bytes (``where`` names it in errors) into a :class:`Locale`."""
    parsed = _parse(where, data)
    if parsed.language.code != code:
        raise LocaleError(f"{where}: [language] code {parsed.language.code!r} is not {code!r}")
    words, grammar = parsed.words, parsed.grammar
    _check_keys(f"{where} [words.suits]", words.suits, SUITS)
    _check_keys(f"{where} [words.values]", words.values, VALUES)
    _check_keys(f"{where} [words.categories]", words.categories, CATEGORIES)
    plurals = set(grammar.plurals)
    for name, form in grammar.plurals.items():
        for which in ("one", "other"):
            template = getattr(form, which)
            where_plural = f"{where} [grammar.plurals.{name}] {which}"
            _check_template(where_plural, template, frozenset({"count"}), set())
    templates = {
        "card_name": grammar.card_name,
        "figure": grammar.figure,
        "caption": grammar.caption,
        "document_title": words.document_title,
    }
    for key, template in templates.items():
        _check_template(f"{where} {key}", template, GRAMMAR_FIELDS[key], set())
    return Locale(
        code=code,
        name=parsed.language.name,
        booklet_file=parsed.files.booklet,
        imposed_file=parsed.files.imposed,
        words=Words(
            code=code,
            suits=dict(words.suits),
            values={int(key): value for key, value in words.values.items()},
            categories=dict(words.categories),
            decimal_mark=grammar.decimal_mark,
            thousands=grammar.thousands,
            page_label=words.page_label,
            document_title=words.document_title,
            joker=words.joker,
            card_name=grammar.card_name,
            figure=grammar.figure,
            caption=grammar.caption,
            plurals={
                name: Plural(one=form.one, other=form.other)
                for name, form in grammar.plurals.items()
            },
        ),
        text=_rules_text(where, parsed.text, plurals),
    )


@cache
def load_locale(code: Language) -> Locale:
    """The locale of ``code``; an unknown code is an error naming the languages there are."""
    available = available_languages()
    if code not in available:
        raise LocaleError(f"unknown language {code!r} (available: {', '.join(available)})")
    entry = _folder().joinpath(f"{code}.toml")
    return parse_locale(f"render/locales/{code}.toml", code, entry.read_bytes())


__all__ = ["Locale", "available_languages", "load_locale", "parse_locale", "template_fields"]
