"""Read every language's locale files and check them against each other.

A language is a folder ``kraftstokk/locales/<code>/`` holding one file per part
(:data:`PARTS`). A part is read (in every language at once, and checked) when it is
first used, so a program that never uses a part need not carry its files: the static web
edition's page carries ``words``, ``events`` and ``web`` only. A game package from
elsewhere (a test's) may bring the texts of its own game in the same shape
(``<package>/locales/<code>/<part>.toml``, any of the parts), added with :func:`add_root`;
its tables are merged into the language's, and may not replace a text that is already
there.

What is checked here, for a part in every language at once (a text is compared with the
same text in the other languages), when the part is read; :func:`check_all` reads them all:

- every language has the part, and every text that any language has (a table named
  ``plurals`` or ``ordinal`` is the language's own grammar and may differ);
- a text is of the same kind everywhere (one text, a list of texts, a table, a list of
  tables of the same length);
- every template parses, and tells the same placeholders in every language (one that only
  picks a verb's form, ``{seat:lays|lay}``, is the language's grammar and may differ);
- a placeholder's format names a counted phrase or an ordinal of that language
  (``{n:cards}``, ``{place:ordinal}``), or a verb's two forms (``{seat:lays|lay}``); the
  web page fills plain placeholders only.

What a part's reader fills into which text (the booklet's fields, an event's values) and
the booklet's markup are checked by that reader when it reads the part.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any

from kraftstokk.errors import LocaleError, clip
from kraftstokk.locales.template import ORDINAL, Grammar, fill, placeholders
from kraftstokk.textfile import read_data_file, toml_table

#: The parts of a language, one file each.
PARTS: tuple[str, ...] = ("words", "booklet", "events", "web", "cli")
#: Tables that hold a language's own grammar: their keys may differ between languages.
OWN_GRAMMAR = frozenset({"plurals", "ordinal"})
#: Where a part keeps its counted phrases and its ordinal (None: the part has none).
PLURALS_AT: Mapping[str, str | None] = {
    "words": None,
    "booklet": "grammar.plurals",
    "events": "plurals",
    "web": None,
    "cli": "plurals",
}
ORDINAL_AT = "grammar.ordinal"
#: A locale file is some 40 kB; this is far more than any language needs.
MAX_BYTES = 1024 * 1024

Table = dict[str, Any]


@dataclass(frozen=True)
class Locale:
    """One language: each part's tables, as the files (and the games' roots) hold them,
    read when a part is first asked for."""

    code: str

    def part(self, name: str) -> Table:
        if name not in PARTS:
            raise LocaleError(f"no part {name!r} of a language (the parts: {', '.join(PARTS)})")
        return _part(name)[self.code]

    @property
    def parts(self) -> Mapping[str, Table]:
        """Every part (all read)."""
        return {name: self.part(name) for name in PARTS}

    @property
    def name(self) -> str:
        """The language's own name for itself ("norsk bokmål")."""
        return str(self.part("words")["language"]["name"])


@dataclass(frozen=True)
class Root:
    """A folder of locale files: the project's, or a game package's (``owner``).

    ``borrow``: a game's root without a folder for some language the project has takes
    that language's texts from this language's folder ("" for none: a missing language
    is an error).
    """

    owner: str
    folder: Traversable | Path
    borrow: str = ""


_ROOTS: dict[str, Root] = {}
#: Counts the resets, so that a reader's cache of a part knows when to read again.
_GENERATION = [0]


def _folder() -> Traversable | Path:
    return resources.files(__package__)


def _where(root: Root, code: str, part: str) -> str:
    prefix = "locales" if root.owner == "" else f"{root.owner}: locales"
    return f"{prefix}/{code}/{part}.toml"


@functools.cache
def languages() -> tuple[str, ...]:
    """The languages there are: the folders of ``kraftstokk/locales``, sorted; listed once
    (every new game of the web app asks, through :func:`load`), again after :func:`reset`."""
    return tuple(
        sorted(
            entry.name
            for entry in _folder().iterdir()
            if entry.is_dir() and not entry.name.startswith(("_", "."))
        )
    )


def add_root(owner: str, folder: Traversable | Path, borrow: str = "") -> None:
    """Add a game package's locale folder (``owner`` names it in errors); a language it
    has no folder for borrows the texts of ``borrow``'s folder, when given."""
    _ROOTS[owner] = Root(owner, folder, borrow)
    reset()


def drop_root(owner: str) -> None:
    """Remove the folder :func:`add_root` added for ``owner`` (if any)."""
    _ROOTS.pop(owner, None)
    reset()


def reset() -> None:
    """Forget what was read (after the files, the roots or the games changed)."""
    _part.cache_clear()
    languages.cache_clear()
    _GENERATION[0] += 1


def generation() -> int:
    """How many times :func:`reset` ran: a key for caches of what is made from the parts."""
    return _GENERATION[0]


def load(code: str) -> Locale:
    """The language ``code``: each part is read in every language and checked against the
    others when it is first used (LocaleError naming file and key)."""
    available = languages()
    if code not in available:
        raise LocaleError(f"unknown language {code!r} (available: {', '.join(available)})")
    return Locale(code)


def check_all() -> dict[str, Locale]:
    """Every part of every language, read and checked."""
    for part in PARTS:
        _part(part)
    return {code: Locale(code) for code in languages()}


@functools.cache
def _part(part: str) -> dict[str, Table]:
    """One part of every language, merged with the games' roots and checked; by code."""
    codes = languages()
    roots = [Root("", _folder()), *_ROOTS.values()]
    tables: dict[str, Table] = {code: {} for code in codes}
    for root in roots:
        for code in codes:
            read = _read(root, code, part)
            if read is not None:
                _merge(_where(root, code, part), tables[code], read)
    _compare(part, tables)
    return tables


def _read(root: Root, code: str, part: str) -> Table | None:
    """A part's file; None where a game's root has no file of this part in any language.
    A game's root without the language's folder reads the folder it borrows from."""
    if root.borrow and code != root.borrow and not root.folder.joinpath(code).is_dir():
        code = root.borrow
    where = _where(root, code, part)
    entry = root.folder.joinpath(code).joinpath(f"{part}.toml")
    if not entry.is_file():
        if root.owner and not _root_has(root, part):
            return None
        if root.owner:
            raise LocaleError(f"{where}: missing (the game's texts are in every language)")
        raise LocaleError(
            f"{where}: missing (every language has a file of each part: {', '.join(PARTS)})"
        )

    def refuse(reason: str) -> LocaleError:
        return LocaleError(f"{where}: {reason}")

    return toml_table(
        read_data_file(entry, "locale file", MAX_BYTES, refuse), "locale file", refuse
    )


def _root_has(root: Root, part: str) -> bool:
    """Whether a game's root has this part in any language (then every language needs it)."""
    return any(
        entry.is_dir() and entry.joinpath(f"{part}.toml").is_file()
        for entry in root.folder.iterdir()
    )


def _merge(where: str, into: Table, table: Table, path: str = "") -> None:
    for key, value in table.items():
        here = f"{path}{key}"
        if key not in into:
            into[key] = value
        elif isinstance(into[key], dict) and isinstance(value, dict):
            _merge(where, into[key], value, f"{here}.")
        else:
            raise LocaleError(f"{where}: {here}: is already given (a game adds its own texts)")


def text(code: str, part: str, key: str, **values: object) -> str:
    """The text ``key`` (a dotted path) of a language's part, filled with ``values``."""
    table = load(code).part(part)
    node: Any = table
    for name in key.split("."):
        node = node.get(name) if isinstance(node, dict) else None
    where = f"locales/{code}/{part}.toml: {key}"
    if node is None:
        raise LocaleError(f"locales/{code}/{part}.toml: missing {key}")
    grammar = Grammar(plurals=_at(table, PLURALS_AT[part]), ordinal=_at(table, ORDINAL_AT))
    return fill(where, node, values, grammar)


def in_every_language(part: str, key: str, **values: object) -> dict[str, str]:
    """The text ``key`` of ``part`` in every language, by code; a value that is a function
    is called with the language's code (for a word that differs by language)."""
    return {
        code: text(
            code,
            part,
            key,
            **{name: value(code) if callable(value) else value for name, value in values.items()},
        )
        for code in languages()
    }


# --- the languages against each other ------------------------------------------------------


@dataclass(frozen=True)
class Leaf:
    """One text of a part (or a list of texts, or the language's own grammar table)."""

    kind: str
    texts: tuple[str, ...] = ()


GRAMMAR = Leaf("the language's own grammar")


def _leaves(where: str, table: Table, path: str = "") -> Iterator[tuple[str, Leaf]]:
    """Every text of a table by its key path; anything but texts is refused."""
    for key, value in table.items():
        here = f"{path}{key}"
        if isinstance(value, str):
            yield here, Leaf("one text", (value,))
        elif isinstance(value, dict):
            if key in OWN_GRAMMAR:
                yield here, GRAMMAR
            elif not value:
                yield here, Leaf("an empty table")
            else:
                yield from _leaves(where, value, f"{here}.")
        elif isinstance(value, list) and all(isinstance(item, str) for item in value):
            yield here, Leaf("a list of texts", tuple(value))
        elif isinstance(value, list) and all(isinstance(item, dict) for item in value):
            yield here, Leaf(f"a list of {len(value)} tables")
            for number, item in enumerate(value):
                yield from _leaves(where, item, f"{here}[{number}].")
        else:
            raise LocaleError(f"{where}: {here}: must be a text or a list of texts")


def _compare(part: str, by_code: dict[str, Table]) -> None:
    leaves = {
        code: dict(_leaves(f"locales/{code}/{part}.toml", table)) for code, table in by_code.items()
    }
    every = sorted({key for found in leaves.values() for key in found})
    for key in every:
        having = [code for code, found in leaves.items() if key in found]
        for code, found in leaves.items():
            if key not in found:
                raise LocaleError(
                    f"locales/{code}/{part}.toml: missing {key} (it is in {', '.join(having)})"
                )
        kinds = {code: found[key].kind for code, found in leaves.items()}
        if len(set(kinds.values())) > 1:
            shown = "; ".join(f"{code}: {kind}" for code, kind in kinds.items())
            raise LocaleError(f"locales/*/{part}.toml: {key}: not the same kind ({shown})")
        named = {}
        for code, found in leaves.items():
            where = f"locales/{code}/{part}.toml: {key}"
            for text in found[key].texts:
                _check_formats(where, part, text, by_code[code])
            named[code] = frozenset(
                p.name
                for text in found[key].texts
                for p in placeholders(where, text)
                if p.forms is None  # a verb's form is the language's grammar, not what it tells
            )
        if len(set(named.values())) > 1:
            shown = "; ".join(
                f"{code}: {', '.join(sorted(names)) or 'none'}" for code, names in named.items()
            )
            raise LocaleError(
                f"locales/*/{part}.toml: {key}: the languages fill different placeholders "
                f"({clip(shown, 300)})"
            )


def _at(table: Table, path: str | None) -> Table:
    node: Any = table
    for key in (path or "").split(".") if path else ():
        node = node.get(key) if isinstance(node, dict) else None
    return node if isinstance(node, dict) and path else {}


def _check_formats(where: str, part: str, text: str, table: Table) -> None:
    for placeholder in placeholders(where, text):
        spec, name = placeholder.spec, placeholder.name
        if not spec:
            continue
        if part == "web":
            raise LocaleError(f"{where}: {{{name}:{spec}}}: the page fills plain placeholders only")
        if placeholder.forms is not None:
            continue
        if spec == ORDINAL:
            if not _at(table, ORDINAL_AT):
                raise LocaleError(f"{where}: {{{name}:ordinal}} needs [{ORDINAL_AT}]")
        elif spec not in _at(table, PLURALS_AT[part]):
            raise LocaleError(
                f"{where}: {{{name}:{spec}}} names no counted phrase in "
                f"[{PLURALS_AT[part] or 'plurals'}]"
            )


__all__ = [
    "MAX_BYTES",
    "PARTS",
    "Locale",
    "add_root",
    "check_all",
    "drop_root",
    "generation",
    "in_every_language",
    "languages",
    "load",
    "reset",
    "text",
]
