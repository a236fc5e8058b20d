"""The placeholders of a locale text: what a translator writes in braces, and filling them.

Every text of every locale file is a template in :meth:`str.format`'s syntax: ``{name}``
is filled by the program, ``{{`` and ``}}`` are literal braces. What may follow a colon
depends on the value the program fills in, and the locale files' header comments say it
for each part: ``{count:PLURAL}`` writes a count with a counted phrase of the language
(``[plurals]``), ``{place:ordinal}`` an ordinal (``[grammar.ordinal]``), ``{seat:lays|lay}``
the form of a verb for another seat and for the listener. ``{Seat}`` is ``{seat}`` with
a capital first letter, for the start of a sentence.

A text may also be a table: its ``text`` is the template, and each other key names a value
the text chooses a phrase by (:func:`fill`): ``again = { true = " ...", false = "" }`` for
a yes or no, the value's name for a choice among several (``cause = { ten = ..., ... }``),
``you`` and ``other`` for a seat (the listener or someone else). A chosen phrase is a
template too, filled with the same values.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass
from string import Formatter

from kraftstokk.errors import LocaleError

#: The format spec that asks for an ordinal ("3rd", "3.").
ORDINAL = "ordinal"
#: Separates a verb's two forms in a format spec: other seat | the listener.
FORMS = "|"


@dataclass(frozen=True)
class Placeholder:
    """One ``{name:spec}`` of a template; ``capital`` for ``{Name}``."""

    name: str
    spec: str
    capital: bool

    @property
    def forms(self) -> tuple[str, str] | None:
        """The two verb forms of ``{seat:lays|lay}``, or None."""
        if FORMS not in self.spec:
            return None
        third, _, second = self.spec.partition(FORMS)
        return third, second


def placeholders(where: str, template: str) -> list[Placeholder]:
    """The placeholders of ``template`` in order; a malformed one is a LocaleError."""
    try:
        parts = list(Formatter().parse(template))
    except ValueError as exc:
        raise LocaleError(f"{where}: not a valid template ({exc})") from None
    found = []
    for _, field, spec, conversion in parts:
        if field is None:
            continue
        if not field.isidentifier():
            raise LocaleError(f"{where}: {{{field}}} is not a placeholder (a name in braces)")
        if conversion:
            raise LocaleError(f"{where}: {{{field}!{conversion}}}: no !conversion is taken")
        if spec and ("{" in spec or spec.count(FORMS) > 1):
            raise LocaleError(f"{where}: {{{field}:{spec}}} is not a format this tool knows")
        found.append(Placeholder(field[0].lower() + field[1:], spec or "", field[0].isupper()))
    return found


def names(where: str, template: str) -> frozenset[str]:
    """The value names a template uses (``{Seat}`` and ``{seat}`` are one)."""
    return frozenset(p.name for p in placeholders(where, template))


@dataclass(frozen=True)
class Person:
    """A seat as a template's value: its name, and whether it is the listener."""

    name: str
    listener: bool


#: What a phrase is chosen by, for a seat: the listener, or anyone else.
YOU, OTHER = "you", "other"
TEXT = "text"


@dataclass(frozen=True)
class Grammar:
    """What a language's templates need besides words: counted phrases and ordinals."""

    plurals: Mapping[str, Mapping[str, str]]  # name -> {"one": ..., "other": ...}
    ordinal: Mapping[str, str]  # "1", "11", ..., "other" -> "{count}st"


def ordinal(grammar: Grammar, number: int) -> str:
    """``number`` as an ordinal: the form for ``number % 100``, else ``% 10``, else other."""
    forms = grammar.ordinal
    for key in (str(number % 100), str(number % 10), "other"):
        if key in forms:
            return forms[key].format(count=number)
    raise LocaleError(f"[grammar.ordinal] has no form for {number} (give 'other')")


def _choice(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, Person):
        return YOU if value.listener else OTHER
    return str(value)


def fill(
    where: str,
    entry: object,
    values: Mapping[str, object],
    grammar: Grammar,
    chosen: frozenset[str] = frozenset(),
    phrases: Mapping[str, object] | None = None,
) -> str:
    """The text of ``entry`` (a template, or a table with ``text`` and the phrases to
    choose from) with ``values`` filled in; LocaleError naming ``where`` when a text and
    the values do not fit."""
    if isinstance(entry, dict):
        template = entry.get(TEXT)
        phrases = entry
    else:
        template, phrases = entry, phrases or {}
    if not isinstance(template, str):
        raise LocaleError(f"{where}: missing (a text)")
    out = []
    for literal, field, name, spec, capital in _compiled(template):
        out.append(literal)
        if field is None:
            continue
        try:
            value = values[name]
        except KeyError:
            raise LocaleError(f"{where}: {{{field}}} is not one of this text's values") from None
        choices = phrases.get(name)
        if isinstance(choices, dict) and name not in chosen:
            key = _choice(value)
            phrase = choices.get(key)
            if not isinstance(phrase, str):
                raise LocaleError(f"{where}: {name}.{key}: missing (the phrase for {key})")
            parts = _compiled(phrase)
            if not parts:
                text = ""
            elif len(parts) == 1 and parts[0][1] is None:  # no placeholder: its literal text
                text = parts[0][0]
            else:
                text = fill(
                    f"{where}: {name}.{key}", phrase, values, grammar, chosen | {name}, phrases
                )
        elif not spec and type(value) is str:  # the most common value: said as it is
            text = value
        else:
            text = _value(where, name, value, spec, grammar)
        out.append(text[:1].upper() + text[1:] if capital else text)
    return "".join(out)


#: A template's parts: each literal text, then the placeholder after it as written, its
#: value's name (``{Seat}``: ``seat``), its format spec and whether it is capitalised
#: (None for the text after the last placeholder).
_Part = tuple[str, str | None, str, str, bool]


@functools.lru_cache(maxsize=4096)
def _compiled(template: str) -> tuple[_Part, ...]:
    """The template parsed once (the narration fills the same few hundred all day)."""
    parts: list[_Part] = []
    for literal, field, spec, _ in Formatter().parse(template):
        if field is None:
            parts.append((literal, None, "", "", False))
        else:
            name = field[0].lower() + field[1:] if field else field
            parts.append((literal, field, name, spec or "", field[:1].isupper()))
    return tuple(parts)


def _value(where: str, name: str, value: object, spec: str, grammar: Grammar) -> str:
    if FORMS in spec:
        if not isinstance(value, Person):
            raise LocaleError(f"{where}: {{{name}:{spec}}}: only a seat has two verb forms")
        third, _, second = spec.partition(FORMS)
        return second if value.listener else third
    if isinstance(value, Person):
        if spec:
            raise LocaleError(f"{where}: {{{name}:{spec}}}: a seat takes two verb forms (a|b)")
        return value.name
    if isinstance(value, bool) or value is None:
        raise LocaleError(f"{where}: {{{name}}} chooses a phrase: give {name} = {{ ... }}")
    if spec == ORDINAL:
        if not isinstance(value, int):
            raise LocaleError(f"{where}: {{{name}:ordinal}}: {name} is not a number")
        return ordinal(grammar, value)
    if spec:
        forms = grammar.plurals.get(spec)
        if forms is None or not isinstance(value, int):
            raise LocaleError(f"{where}: {{{name}:{spec}}}: no counted phrase {spec!r} for it")
        return forms["one" if value == 1 else "other"].format(count=value)
    return str(value)


__all__ = [
    "FORMS",
    "ORDINAL",
    "Grammar",
    "Person",
    "Placeholder",
    "fill",
    "names",
    "ordinal",
    "placeholders",
]
