"""The booklet's languages: one TOML file per language in ``render/locales/``.

A locale file holds everything a language decides: its words (suits, values, categories),
its grammar (how a card and a figure are named, number marks, plural phrases), the output
file names and every sentence of the booklet (the :class:`RulesText`). The languages are
exactly the files that exist; adding one is adding a file. Loading validates the file
completely: a missing or unknown key, a wrong type, or a template field that the booklet
does not fill is an error naming the file and the key.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, fields
from functools import cache
from importlib import resources
from importlib.resources.abc import Traversable
from string import Formatter
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError
from reportlab.lib.styles import ParagraphStyle
from reportlab.platypus.paraparser import ParaParser

from kraftstokk.errors import LocaleError, clip
from kraftstokk.plain import first_problem
from kraftstokk.render.booklet_rules import COUNT_FIELDS, TEMPLATE_FIELDS, RulesText
from kraftstokk.render.booklet_text import Language, Plural, Words
from kraftstokk.render.markup import markup_problem
from kraftstokk.textfile import read_data_file, toml_names, toml_table

LOCALES_PACKAGE = "kraftstokk.render.locales"
#: A locale file is about 40 kB; its longest paragraph about 600 characters.
MAX_LOCALE_BYTES = 1024 * 1024
MAX_TEXT = 2000
MAX_PARAGRAPHS = 60
#: A word (a suit, a value, a category) and a grammar template are short.
Word = Annotated[str, Field(min_length=1, max_length=60)]
Template = Annotated[str, Field(min_length=1, max_length=200)]
#: A heading or a title (its key ends in _heading(s) or _title, or it is one of these) is
#: at most a few lines, as a heading cannot run over a page.
TITLE_KEYS = frozenset({"subtitle", "edition", "contents"})
MAX_TITLE = 120
#: A caption (its key ends in _caption(s)) goes under a card drawn small: a few words.
MAX_CAPTION = 80
#: A plural's name, as a template writes it in ``{count:NAME}``.
PLURAL_NAME = re.compile(r"[a-z][a-z0-9_]{0,31}")


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


class LanguageTable(_Strict):
    code: str = Field(pattern=r"^[a-z]{2,3}(-[A-Za-z0-9]{2,8})?$")
    name: Word


class FilesTable(_Strict):
    booklet: str = Field(pattern=r"^[A-Za-z0-9._-]+\.pdf$")
    imposed: str = Field(pattern=r"^[A-Za-z0-9._-]+\.pdf$")


class WordsTable(_Strict):
    page_label: Word
    document_title: Template
    joker: Word
    suits: dict[str, Word] = Field(max_length=8)
    values: dict[str, Word] = Field(max_length=8)
    categories: dict[str, Word] = Field(max_length=8)


class PluralTable(_Strict):
    one: Template
    other: Template


class GrammarTable(_Strict):
    card_name: Template
    figure: Template
    caption: Template
    decimal_mark: str = Field(min_length=1, max_length=1)
    thousands: str = Field(min_length=1, max_length=1)
    plurals: dict[str, PluralTable] = Field(default_factory=dict, max_length=50)


class LocaleFile(_Strict):
    """The TOML file as written; :func:`load_locale` turns it into a :class:`Locale`."""

    language: LanguageTable
    files: FilesTable
    words: WordsTable
    grammar: GrammarTable
    text: dict[str, str | list[str]] = Field(max_length=500)


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
    return tuple(toml_names(_folder()))


def template_fields(template: str) -> list[tuple[str, str]]:
    """The ``(field, format spec)`` pairs of a ``str.format`` template, in order."""
    return [
        (name, spec or "") for _, name, spec, _ in Formatter().parse(template) if name is not None
    ]


#: What stands for a filled field when a template's markup is checked: the booklet fills
#: fields with escaped text or markup of its own, balanced by construction.
FIELD_STAND_IN = "x"


def _check_template(
    where: str,
    template: str,
    allowed: frozenset[str],
    plurals: set[str],
    counts: frozenset[str] = frozenset(),
) -> None:
    """A template's fields are ones the booklet fills (a format spec only names a plural,
    on a field filled with a count; no conversion), and its markup is the booklet's
    (:mod:`markup`)."""
    try:
        parts = list(Formatter().parse(template))
    except ValueError as exc:
        raise LocaleError(f"{where}: not a valid template ({exc})") from None
    for _, name, spec, conversion in parts:
        if name is None:
            continue
        if name not in allowed:
            choice = ", ".join(sorted(allowed)) or "none"
            raise LocaleError(
                f"{where}: unknown placeholder {{{clip(name, 40)}}} (this text fills {choice})"
            )
        if conversion:
            raise LocaleError(
                f"{where}: {{{name}!{conversion}}}: a placeholder takes no !conversion"
            )
        if spec and spec not in plurals:
            raise LocaleError(
                f"{where}: {{{name}:{clip(spec, 40)}}} names no plural in [grammar.plurals]"
            )
        if spec and name not in counts:
            raise LocaleError(
                f"{where}: {{{name}:{spec}}}: {{{name}}} is not a count, so it takes no plural"
            )
    filled = "".join(
        literal + (FIELD_STAND_IN if name is not None else "") for literal, name, _, _ in parts
    )
    problem = markup_problem(filled)
    if problem is None:
        problem = _reportlab_problem(filled)
    if problem is not None:
        raise LocaleError(f"{where}: {problem}")


def _reportlab_problem(text: str) -> str | None:
    """What reportlab's own paragraph parser refuses in markup :func:`markup_problem` passed
    (no images or other files can be named by then)."""
    try:
        parsed = ParaParser().parse(text, ParagraphStyle("locale check"))
    except ValueError as exc:
        return f"markup reportlab cannot read ({clip(' '.join(str(exc).split()), 120)})"
    return None if parsed is not None else "markup reportlab cannot read"


def _check_keys(where: str, table: dict[str, str], wanted: tuple[str, ...]) -> None:
    missing = [key for key in wanted if key not in table]
    unknown = [key for key in table if key not in wanted]
    if missing:
        raise LocaleError(f"{where}: missing {', '.join(missing)}")
    if unknown:
        raise LocaleError(f"{where}: unknown key {', '.join(unknown)}")


def _check_lengths(where: str, key: str, texts: list[str]) -> None:
    """Paragraphs a page can hold, headings a few lines, lists of a few dozen."""
    if len(texts) > MAX_PARAGRAPHS:
        raise LocaleError(f"{where}: {len(texts)} paragraphs; at most {MAX_PARAGRAPHS}")
    limit, kind = MAX_TEXT, "a paragraph"
    if key in TITLE_KEYS or key.endswith(("_heading", "_headings", "_title")):
        limit, kind = MAX_TITLE, "a heading"
    elif key.endswith(("_caption", "_captions")):
        limit, kind = MAX_CAPTION, "a caption"
    for number, text in enumerate(texts, start=1):
        if not isinstance(text, str):
            raise LocaleError(f"{where}: paragraph {number} is not text")
        if len(text) > limit:
            which = f"paragraph {number}" if len(texts) > 1 else "the text"
            raise LocaleError(
                f"{where}: {which} has {len(text)} characters; {kind} has at most {limit}"
            )


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
        counts = COUNT_FIELDS.get(item.name, frozenset())
        texts = value if isinstance(value, list) else [value]
        _check_lengths(f"{where} [text] {item.name}", item.name, texts)
        for text in texts:
            _check_template(f"{where} [text] {item.name}", text, allowed, plurals, counts)
        values[item.name] = tuple(value) if isinstance(value, list) else value
    return RulesText(**values)


def _parse(where: str, data: bytes) -> LocaleFile:
    def refuse(reason: str) -> LocaleError:
        return LocaleError(f"{where}: {reason}")

    if len(data) > MAX_LOCALE_BYTES:
        raise refuse(f"too large (a locale file is read only up to {MAX_LOCALE_BYTES // 1024} kB)")
    raw = toml_table(data, "locale file", refuse)
    try:
        return LocaleFile.model_validate(raw)
    except ValidationError as exc:
        raise refuse(clip(first_problem(exc), 300)) from None


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
        if not PLURAL_NAME.fullmatch(name):
            raise LocaleError(
                f"{where} [grammar.plurals]: {clip(name, 40)!r} is not a plural's name "
                "(lower-case letters, digits and _, at most 32, as in {count:NAME})"
            )
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
    where = f"render/locales/{code}.toml"
    entry = _folder().joinpath(f"{code}.toml")
    data = read_data_file(
        entry, "locale file", MAX_LOCALE_BYTES, lambda why: LocaleError(f"{where}: {why}")
    )
    return parse_locale(where, code, data)


__all__ = ["Locale", "available_languages", "load_locale", "parse_locale", "template_fields"]
