"""The placeholders of a locale text: what a translator writes in braces.

Every text of every locale file is a template in :meth:`str.format`'s syntax: ``{name}``
is filled by the program, ``{{`` and ``}}`` are literal braces. What may follow a colon
depends on the value the program fills in, and the locale files' header comments say it
for each part: ``{count:PLURAL}`` writes a count with a counted phrase of the language
(``[plurals]``), ``{place:ordinal}`` an ordinal (``[grammar.ordinal]``), ``{seat:lays|lay}``
the form of a verb for another seat and for the listener. ``{Seat}`` is ``{seat}`` with
a capital first letter, for the start of a sentence.
"""

from __future__ import annotations

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


__all__ = ["FORMS", "ORDINAL", "Placeholder", "names", "placeholders"]
