"""Help texts in the words a deck maker uses, not Python's type names.

Typer shows each option's Python type (``<int>``, ``<list[Path]>``) and wraps required
arguments in braces (``{DECK}``). :class:`PlainCommand` shows the option's metavar (or a
word: ``N``, ``NUMBER``, ``TEXT``, ``PATH``, the choices), arguments by name only, and the
usage line as Unix tools write it (``DECK``, ``[DECK]``, ``SOURCE...``).
"""

from __future__ import annotations

from typing import Any

from typer.core import TyperArgument, TyperCommand, TyperOption

#: Typer's type labels and the word shown instead.
WORDS = {"int": "N", "float": "NUMBER", "str": "TEXT", "path": "PATH", "file": "FILE"}


def plain_type(label: str | None) -> str | None:
    """``<int>`` -> ``N``; ``<a4|letter>`` -> ``a4|letter``; ``<list[Path]>`` -> ``PATH...``."""
    if not label:
        return label
    inner = label.strip("<>")
    if inner.startswith("list[") and inner.endswith("]"):
        word = plain_type(inner[5:-1])
        return f"{word}..." if word else word
    return WORDS.get(inner.lower(), inner)


class PlainArgument(TyperArgument):
    def display_type_rich(self, ctx: Any) -> str | None:
        return None

    def _usage_display_name(self) -> str:
        name = self.display_name_raw
        name = name if self.required else f"[{name}]"
        return f"{name}..." if self.nargs != 1 else name


class PlainOption(TyperOption):
    def display_type_rich(self, ctx: Any) -> str | None:
        if self.metavar is not None:
            return self.metavar
        return plain_type(super().display_type_rich(ctx))


class PlainCommand(TyperCommand):
    """A command whose parameters show plain words in ``--help``."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for param in self.params:
            if type(param) is TyperArgument:
                param.__class__ = PlainArgument
            elif type(param) is TyperOption:
                param.__class__ = PlainOption
