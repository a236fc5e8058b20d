"""Help texts and argument errors in the words a deck maker uses, not Python's.

Typer shows each option's Python type (``<int>``, ``<list[Path]>``) and wraps required
arguments in braces (``{DECK}``). :class:`PlainCommand` shows the option's metavar (or a
word: ``N``, ``NUMBER``, ``TEXT``, ``PATH``, the choices), arguments by name only, and the
usage line as Unix tools write it (``DECK``, ``[DECK]``, ``SOURCE...``). A bad argument
(``--players abc``) is one line in the tool's own format, in plain words, exit code 2 —
not pydantic's "Input should be a valid integer".
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any, TypeGuard

import typer
from typer.core import TyperArgument, TyperCommand, TyperGroup, TyperOption

from kraftstokk.cli.coercion import quicken
from kraftstokk.plain import reason

if TYPE_CHECKING:
    from pydantic import ValidationError

#: Click's usage error (the base of BadParameter, MissingParameter, NoSuchOption).
UsageError: type[Exception] = typer.BadParameter.__mro__[1]

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
    """A command whose parameters show plain words in ``--help`` (and convert their values
    without pydantic where they are plain: :mod:`kraftstokk.cli.coercion`)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for param in self.params:
            if type(param) is TyperArgument:
                param.__class__ = PlainArgument
            elif type(param) is TyperOption:
                param.__class__ = PlainOption
            quicken(param)

    def get_params(self, ctx: Any) -> list[Any]:
        params = list(super().get_params(ctx))
        for param in params:  # --help and --install-completion come in here
            quicken(param)
        return params

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        try:
            return list(super().parse_args(ctx, args))
        except UsageError as exc:
            typer.echo(f"kraftstokk: error: {argument_error(exc)}", err=True)
            raise typer.Exit(2) from None


class PlainGroup(TyperGroup):
    """The ``kraftstokk`` group: an unknown command or option is one line too."""

    def get_params(self, ctx: Any) -> list[Any]:
        params = list(super().get_params(ctx))
        for param in params:
            quicken(param)
        return params

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        try:
            return list(super().parse_args(ctx, args))
        except UsageError as exc:
            if type(exc).__name__ == "NoArgsIsHelpError":
                raise  # plain "kraftstokk": the help, as before
            typer.echo(f"kraftstokk: error: {argument_error(exc)}", err=True)
            raise typer.Exit(2) from None

    def resolve_command(self, ctx: Any, args: list[str]) -> Any:
        try:
            return super().resolve_command(ctx, args)
        except UsageError as exc:
            typer.echo(f"kraftstokk: error: {argument_error(exc)}", err=True)
            raise typer.Exit(2) from None


def _validation_error(cause: BaseException | None) -> TypeGuard[ValidationError]:
    """Whether ``cause`` is pydantic's (pydantic is not loaded for it when nothing did)."""
    pydantic = sys.modules.get("pydantic")
    return pydantic is not None and isinstance(cause, pydantic.ValidationError)


def argument_error(exc: Exception) -> str:
    """One line: which option or argument, what was given and why it is refused."""
    param = getattr(exc, "param", None)
    cause = exc.__cause__
    command = getattr(getattr(exc, "ctx", None), "command_path", "kraftstokk")
    if param is not None and _validation_error(cause):
        name = param.opts[0] if isinstance(param, TyperOption) else param.human_readable_name
        first = cause.errors()[0]
        given = first.get("input")
        why = reason(first)
        if first["type"] == "value_error":
            why = why.replace("'", '"').rstrip(".")
        elif why.startswith("is "):
            why = f'"{given}" {why.split(", ", 1)[-1].replace("not ", "is not ", 1)}'
        return f"{name}: {why}"
    if param is not None and isinstance(cause, ValueError):  # a choice (cli/coercion.py)
        name = param.opts[0] if isinstance(param, TyperOption) else param.human_readable_name
        return f"{name}: {str(cause).replace(chr(39), chr(34)).rstrip('.')}"
    message = getattr(exc, "format_message", lambda: str(exc))()
    return f"{message} (see {command} --help)"
