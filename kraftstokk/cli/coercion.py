"""Argument values converted without pydantic, where that is plain.

Typer converts every parameter's value through a pydantic ``TypeAdapter`` it builds when
the command first runs: for a command of twenty options that is pydantic's import and
twenty schemas, about 50 ms of CPU before the command starts (measured on ``simulate``).
Most of ours need no schema: an option with its own parser (``--games``: our
:func:`~kraftstokk.cli.options.count`), text, a path, a choice of an enum, or a list of
one of those. :func:`quicken` gives such a parameter typer's own conversion for it,
called directly (the same functions its adapters call); any other keeps typer's adapter.
"""

from __future__ import annotations

from enum import Enum
from pathlib import Path
from typing import Any, get_args, get_origin

from typer import BadParameter
from typer._coercion import RuntimeParam
from typer._param_types import coerce_cli_choice, coerce_cli_path, routes_to_path
from typer.core import TyperArgument, TyperOption

#: The words pydantic reads as a bool (a flag's value is a bool already).
TRUE = frozenset({"1", "on", "t", "true", "y", "yes"})
FALSE = frozenset({"", "0", "off", "f", "false", "n", "no"})


def _bool(value: Any, ctx: Any, param: Any) -> Any:
    if isinstance(value, bool):
        return value
    word = str(value).strip().lower()
    if word in TRUE | FALSE:
        return word in TRUE
    raise BadParameter(f"{value!r} is not a valid boolean.", ctx=ctx, param=param)


def _leaf(annotation: Any, info: Any) -> Any:
    """How one value of ``annotation`` is converted (None: not plain)."""
    if annotation is bool:
        return _bool
    if info.parser is not None:
        parser = info.parser
        return lambda value, ctx, param: parser(value)
    if annotation is str:
        return lambda value, ctx, param: value if isinstance(value, str) else str(value)
    if isinstance(annotation, type) and issubclass(annotation, Enum):
        choices = list(annotation)
        sensitive = info.case_sensitive

        def choice(value: Any, ctx: Any, param: Any) -> Any:
            try:
                return coerce_cli_choice(value, choices=choices, case_sensitive=sensitive, ctx=ctx)
            except ValueError as exc:  # "'a5' is not one of 'a4', 'letter'."
                raise BadParameter(str(exc), ctx=ctx, param=param) from exc

        return choice
    if isinstance(annotation, type) and issubclass(annotation, Path):
        if not routes_to_path(annotation, info):
            return None
        path_type = info.path_type or annotation
        # Made a path first, as pydantic would: typer then checks it as before.
        return lambda value, ctx, param: coerce_cli_path(
            value if isinstance(value, path_type) else path_type(value),
            info,
            path_type=path_type,
            param=param,
            ctx=ctx,
        )
    return None


class QuickParam(RuntimeParam):
    """Typer's conversion of a plain parameter, without a pydantic schema."""

    def __init__(self, annotation: Any, info: Any, convert: Any, many: bool) -> None:
        super().__init__(parameter_info=info, annotation=annotation)
        object.__setattr__(self, "convert", convert)
        object.__setattr__(self, "many", many)

    def _coerce_value(self, value: Any, param: Any, ctx: Any) -> Any:
        convert = self.convert  # type: ignore[attr-defined]
        if self.many:  # type: ignore[attr-defined]
            items = value if isinstance(value, list | tuple) else [value]
            return [convert(item, ctx, param) for item in items]
        return convert(value, ctx, param)


def quicken(param: Any) -> None:
    """Give ``param`` the plain conversion when it has one (else typer's, as before)."""
    if not isinstance(param, TyperOption | TyperArgument) or param._runtime_param is not None:
        return
    descriptor = param.type_descriptor
    if descriptor.file_annotation is not None:
        return
    annotation, info = descriptor.annotation, descriptor.parameter_info
    origin: Any = get_origin(annotation)
    many = origin is list
    leaf = get_args(annotation)[0] if many else annotation
    convert = _leaf(leaf, info)
    if convert is not None:
        param._runtime_param = QuickParam(annotation, info, convert, many)
