"""The booklet's part of a language: ``locales/<code>/booklet.toml`` with the shared words.

The booklet part holds the output file names, the booklet's grammar (how a card and a
figure are named, number marks, counted phrases), the sentences of the front matter, the
deck's chapter and the appendix (``[text]``: a :class:`RulesText`), what every game's
chapter shares (``[chapter]``) and each game's chapter under the game's name
(``[idiot]``: the fields of that game's ``chapter.Text``). The suits, values, categories
and the games' titles come from ``words.toml``. The languages are the folders there are
(:mod:`kraftstokk.locales`, which also checks them against each other); this module checks
what the booklet fills in: a missing or unknown key, a list where one text belongs, or a
placeholder the booklet does not fill for that text is an error naming the file and key;
so is markup the booklet cannot print (:mod:`kraftstokk.render.markup`) and a text longer
than its place on a page can hold.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, fields
from functools import cache
from string import Formatter
from types import ModuleType
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError
from reportlab.lib.styles import ParagraphStyle
from reportlab.platypus.paraparser import ParaParser

from kraftstokk import locales
from kraftstokk.design.blocks import (
    CHAPTER_FIELDS,
    ChapterWords,
    Language,
    Plural,
    Spoken,
    Words,
)
from kraftstokk.errors import LocaleError, clip
from kraftstokk.games import registry
from kraftstokk.games.spec import GameSpec
from kraftstokk.locales.template import placeholders
from kraftstokk.models import CATEGORY_UNITS
from kraftstokk.plain import first_problem
from kraftstokk.render.booklet_rules import COUNT_FIELDS, TEMPLATE_FIELDS, RulesText
from kraftstokk.render.markup import markup_problem

#: A paragraph of the booklet is at most about 600 characters today.
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


class FilesTable(_Strict):
    booklet: str = Field(pattern=r"^[A-Za-z0-9._-]+\.pdf$")
    imposed: str = Field(pattern=r"^[A-Za-z0-9._-]+\.pdf$")


class BookletWords(_Strict):
    page_label: Word
    document_title: Template
    #: Which of the snapshot's credit lines the booklet prints: the bokmål one the cards
    #: print ("nb"), or the English one ("en").
    credit: Literal["nb", "en"]


class PluralTable(_Strict):
    one: Template
    other: Template


class SpokenTable(_Strict):
    one: Template
    other: Template


class GrammarTable(_Strict):
    card_name: Template
    figure: Template
    caption: Template
    decimal_mark: str = Field(min_length=1, max_length=1)
    thousands: str = Field(min_length=1, max_length=1)
    plurals: dict[str, PluralTable] = Field(default_factory=dict, max_length=50)
    spoken: dict[str, SpokenTable] = Field(max_length=8)
    months: list[Word] = Field(min_length=12, max_length=12)
    month_date: Template
    day_date: Template


class SharedWords(_Strict):
    """``[words]`` of ``words.toml``: what the booklet needs of it."""

    joker: Word
    suits: dict[str, Word] = Field(max_length=8)
    values: dict[str, Word] = Field(max_length=8)
    categories: dict[str, Word] = Field(max_length=8)


@dataclass(frozen=True)
class GameChapter:
    """A game's chapter as the booklet builds it: the module, its sentences, and the
    house rules (each variant of the game's spec, by its name, in the spec's order)."""

    game: str
    title: str
    module: ModuleType
    text: Any  # the module's ``Text``
    spec: GameSpec
    house_rules: tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class Locale:
    """One language of the booklet: its words, its sentences and its file names."""

    code: Language
    name: str
    booklet_file: str
    imposed_file: str
    words: Words
    #: Which of the snapshot's credit lines this language prints ("nb" or "en").
    credit: str
    text: RulesText
    chapter: ChapterWords
    games: tuple[GameChapter, ...]


#: The keys every words table holds, and the fields of the grammar's templates.
SUITS = ("spar", "hjerter", "kløver", "ruter")
VALUES = ("1", "11", "12", "13")
CATEGORIES = ("mw", "gwh", "head_m")
GRAMMAR_FIELDS: dict[str, frozenset[str]] = {
    "card_name": frozenset({"suit", "value"}),
    "figure": frozenset({"number", "unit"}),
    "caption": frozenset({"nr", "category"}),
    "document_title": frozenset({"title"}),
    "month_date": frozenset({"month", "year"}),
    "day_date": frozenset({"day", "month", "year"}),
}
#: The units a spoken figure is said in, as the cards print them.
UNITS = tuple(CATEGORY_UNITS.values())
#: The booklet part's own tables; every other table is a game's chapter.
OWN_TABLES = ("files", "words", "grammar", "text", "chapter")
#: The table of a game's chapter that holds its house rules, one per variant by name.
HOUSE_RULES = "house_rules"
#: What a game's ``chapter`` module defines: its sentences, the placeholders they take,
#: its chapter and its page for the table.
CHAPTER_PARTS = ("Text", "FIELDS", "chapter", "quick")


def available_languages() -> tuple[Language, ...]:
    """The languages there are (the folders of ``kraftstokk/locales``), sorted."""
    return locales.languages()


def template_fields(template: str) -> list[tuple[str, str]]:
    """The ``(field, format spec)`` pairs of a ``str.format`` template, in order."""
    return [(p.name, p.spec) for p in placeholders("template", template)]


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
    on a field filled with a count), and its markup is the booklet's (:mod:`markup`)."""
    for placeholder in placeholders(where, template):
        name, spec = placeholder.name, placeholder.spec
        if name not in allowed or placeholder.capital:
            choice = ", ".join(sorted(allowed)) or "none"
            raise LocaleError(
                f"{where}: unknown placeholder {{{clip(name, 40)}}} (this text fills {choice})"
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
        literal + (FIELD_STAND_IN if name is not None else "")
        for literal, name, _, _ in Formatter().parse(template)
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
        if len(text) > limit:
            which = f"paragraph {number}" if len(texts) > 1 else "the text"
            raise LocaleError(
                f"{where}: {which} has {len(text)} characters; {kind} has at most {limit}"
            )


def _check_keys(where: str, table: Mapping[str, object], wanted: tuple[str, ...]) -> None:
    missing = [key for key in wanted if key not in table]
    unknown = [key for key in table if key not in wanted]
    if missing:
        raise LocaleError(f"{where}: missing {', '.join(missing)}")
    if unknown:
        raise LocaleError(f"{where}: unknown key {', '.join(unknown)}")


def _text_table(
    where: str,
    raw: object,
    cls: type,
    allowed: Mapping[str, frozenset[str]],
    plurals: set[str],
    counts: Mapping[str, frozenset[str]] | None = None,
    keys: Mapping[str, tuple[str, ...]] | None = None,
    lengths: Mapping[str, int] | None = None,
) -> Any:
    """The dataclass ``cls`` of the texts in ``raw``: one text or a list per field, or a
    table of texts under the names ``keys`` gives (a field of the type ``Keyed``); a list
    named in ``lengths`` holds that many."""
    if not isinstance(raw, dict):
        raise LocaleError(f"{where}: missing (a table of texts)")
    names = tuple(f.name for f in fields(cls))
    _check_keys(where, raw, names)
    values: dict[str, Any] = {}
    for item in fields(cls):
        value = raw[item.name]
        if item.type == "Keyed":
            wanted = (keys or {}).get(item.name, ())
            values[item.name] = _keyed(f"{where} {item.name}", value, wanted, plurals)
            continue
        is_list = item.type in ("Paras", "tuple[str, ...]")
        is_texts = isinstance(value, list) and all(isinstance(v, str) for v in value)
        if (is_list and not is_texts) or (not is_list and not isinstance(value, str)):
            kind = "a list of paragraphs" if is_list else "one text"
            raise LocaleError(f"{where} {item.name}: must be {kind}")
        texts = value if isinstance(value, list) else [value]
        length = (lengths or {}).get(item.name)
        if length is not None and len(texts) != length:
            raise LocaleError(f"{where} {item.name}: {len(texts)} texts; it holds {length}")
        _check_lengths(f"{where} {item.name}", item.name, texts)
        fills = allowed.get(item.name, frozenset())
        counted = (counts or {}).get(item.name, frozenset())
        for text in texts:
            _check_template(f"{where} {item.name}", text, fills, plurals, counted)
        values[item.name] = tuple(value) if isinstance(value, list) else value
    return cls(**values)


def _keyed(where: str, raw: object, wanted: tuple[str, ...], plurals: set[str]) -> dict[str, str]:
    """A table of texts under fixed names (a rule's id, a variant's name), one text each,
    every name there and no other."""
    if not isinstance(raw, dict):
        raise LocaleError(f"{where}: must be a table of texts, one under each of its names")
    _check_keys(where, raw, wanted)
    for key in wanted:
        text = raw[key]
        if not isinstance(text, str):
            raise LocaleError(f"{where}.{key}: must be one text")
        _check_lengths(f"{where}.{key}", key, [text])
        _check_template(f"{where}.{key}", text, frozenset(), plurals)
    return {key: raw[key] for key in wanted}


def _model(where: str, model: type[BaseModel], raw: object) -> Any:
    try:
        return model.model_validate(raw)
    except ValidationError as exc:
        raise LocaleError(f"{where}: {clip(first_problem(exc), 300)}") from None


def chapter_modules() -> dict[str, tuple[GameSpec, ModuleType]]:
    """The games with a booklet chapter, in the registry's order: name -> (spec, module)."""
    found = {}
    for name, spec in registry.specs().items():
        module = spec.module("chapter")
        if module is None:
            continue
        missing = [part for part in CHAPTER_PARTS if not hasattr(module, part)]
        if missing:
            raise LocaleError(
                f"{module.__name__}: a game's chapter module defines {', '.join(CHAPTER_PARTS)}; "
                f"it lacks {', '.join(missing)}"
            )
        found[name] = (spec, module)
    return found


def _house_rules(
    where: str, raw: object, spec: GameSpec, plurals: set[str]
) -> tuple[tuple[str, str], ...]:
    """Each variant's house rule, by the variant's name: a variant without its text (or a
    text for no variant) is refused, so no variant reaches the players unexplained."""
    variants = tuple(variant.name for variant in spec.variants)
    if raw is None and not variants:
        return ()
    if raw is None:
        raise LocaleError(
            f"{where}: missing (the house rule of each variant of {spec.name}: "
            f"{', '.join(variants)})"
        )
    texts = _keyed(where, raw, variants, plurals)
    return tuple((name, texts[name]) for name in variants)


def parse_locale(
    where: str, code: Language, booklet: Mapping[str, Any], words: Mapping[str, Any]
) -> Locale:
    """The booklet of ``code`` from its part's tables (``where`` names the file in errors)
    and the words part's."""
    chapters = chapter_modules()
    unknown = [key for key in booklet if key not in OWN_TABLES and key not in chapters]
    if unknown:
        raise LocaleError(
            f"{where}: unknown table [{unknown[0]}] (a game's chapter is under the name of a "
            f"game with a chapter: {', '.join(chapters) or 'none'})"
        )
    files = _model(f"{where} [files]", FilesTable, booklet.get("files"))
    own = _model(f"{where} [words]", BookletWords, booklet.get("words"))
    grammar = _model(f"{where} [grammar]", GrammarTable, booklet.get("grammar"))
    where_words = f"locales/{code}/words.toml [words]"
    shared = _model(where_words, SharedWords, (words.get("words")))
    _check_keys(f"{where_words}.suits", shared.suits, SUITS)
    _check_keys(f"{where_words}.values", shared.values, VALUES)
    _check_keys(f"{where_words}.categories", shared.categories, CATEGORIES)
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
        "document_title": own.document_title,
    }
    for key, template in templates.items():
        _check_template(f"{where} {key}", template, GRAMMAR_FIELDS[key], set())
    for key in ("month_date", "day_date"):
        _check_template(
            f"{where} [grammar] {key}", getattr(grammar, key), GRAMMAR_FIELDS[key], set()
        )
    _check_keys(f"{where} [grammar.spoken]", grammar.spoken, UNITS)
    for unit, spoken in grammar.spoken.items():
        for which in ("one", "other"):
            where_spoken = f"{where} [grammar.spoken.{unit}] {which}"
            _check_template(where_spoken, getattr(spoken, which), frozenset({"number"}), set())
    titles = words.get("games", {})
    games = []
    for name, (spec, module) in chapters.items():
        title = titles.get(name, {}).get("title") if isinstance(titles, dict) else None
        if not isinstance(title, str):
            raise LocaleError(f"locales/{code}/words.toml: games.{name}.title: missing")
        raw = booklet.get(name)
        texts = {k: v for k, v in raw.items() if k != HOUSE_RULES} if isinstance(raw, dict) else raw
        text = _text_table(
            f"{where} [{name}]",
            texts,
            module.Text,
            module.FIELDS,
            plurals,
            keys=getattr(module, "KEYS", None),
            lengths=getattr(module, "LENGTHS", None),
        )
        house = raw.get(HOUSE_RULES) if isinstance(raw, dict) else None
        rules = _house_rules(f"{where} [{name}.{HOUSE_RULES}]", house, spec, plurals)
        games.append(GameChapter(name, title, module, text, spec, rules))
    return Locale(
        code=code,
        name=str(words.get("language", {}).get("name", code)),
        booklet_file=files.booklet,
        imposed_file=files.imposed,
        words=Words(
            code=code,
            suits=dict(shared.suits),
            values={int(key): value for key, value in shared.values.items()},
            categories=dict(shared.categories),
            decimal_mark=grammar.decimal_mark,
            thousands=grammar.thousands,
            page_label=own.page_label,
            document_title=own.document_title,
            joker=shared.joker,
            card_name=grammar.card_name,
            figure=grammar.figure,
            caption=grammar.caption,
            plurals={
                name: Plural(one=form.one, other=form.other)
                for name, form in grammar.plurals.items()
            },
            spoken={
                unit: Spoken(one=form.one, other=form.other)
                for unit, form in grammar.spoken.items()
            },
            months=tuple(grammar.months),
            month_date=grammar.month_date,
            day_date=grammar.day_date,
        ),
        credit=own.credit,
        text=_text_table(
            f"{where} [text]",
            booklet.get("text"),
            RulesText,
            TEMPLATE_FIELDS,
            plurals,
            COUNT_FIELDS,
        ),
        chapter=_text_table(
            f"{where} [chapter]", booklet.get("chapter"), ChapterWords, CHAPTER_FIELDS, plurals
        ),
        games=tuple(games),
    )


def load_locale(code: Language) -> Locale:
    """The booklet of ``code``; an unknown code is an error naming the languages there are."""
    return _load(code, locales.generation())


@cache
def _load(code: Language, generation: int) -> Locale:
    language = locales.load(code)
    where = f"locales/{code}/booklet.toml"
    locale = parse_locale(where, code, language.part("booklet"), language.part("words"))
    _check_own_files(code)
    return locale


def output_files(booklet: str, imposed: str) -> dict[str, str]:
    """The files a language's booklet writes, by kind: the A5 booklet, its A4
    saddle-stitch file and its print-shop file (named after the booklet)."""
    return {
        "booklet": booklet,
        "imposed": imposed,
        "printshop": booklet.removesuffix(".pdf") + "-printshop.pdf",
    }


def _written(code: Language) -> dict[str, str] | None:
    """The file names of ``code``'s booklet by kind, None when its [files] is unusable
    (its own loading says why)."""
    files = locales.load(code).part("booklet").get("files")
    if not isinstance(files, dict):
        return None
    booklet, imposed = files.get("booklet"), files.get("imposed")
    if not isinstance(booklet, str) or not isinstance(imposed, str):
        return None
    return output_files(booklet, imposed)


def _check_own_files(code: Language) -> None:
    """No two languages (and no two files of one) write one file name: a ``booklet.toml``
    copied for a new language that kept ``regler.pdf`` would overwrite bokmål's booklet.
    Names are compared as a case-insensitive disk sees them."""
    own = _written(code)
    if own is None:
        return
    where = f"locales/{code}/booklet.toml [files]"
    seen: dict[str, tuple[str, str]] = {}
    for kind, name in own.items():
        if name.casefold() in seen:
            raise LocaleError(
                f"{where}: the {kind} file and the {seen[name.casefold()][0]} file are both "
                f"{name}; each needs a name of its own"
            )
        seen[name.casefold()] = (kind, name)
    for other in locales.languages():
        theirs = _written(other) if other != code else None
        for kind, name in (theirs or {}).items():
            if name.casefold() in seen:
                mine, mine_name = seen[name.casefold()]
                raise LocaleError(
                    f"{where}: its {mine} file {mine_name} is also the {kind} file of {other} "
                    f"({name}, locales/{other}/booklet.toml); each language writes files of "
                    "its own names"
                )


__all__ = [
    "Locale",
    "available_languages",
    "load_locale",
    "output_files",
    "parse_locale",
    "template_fields",
]
