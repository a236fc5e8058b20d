"""Pydantic's validation errors in plain words, for the one line a user reads.

Pydantic's own messages ("Input should be a valid number, unable to parse string as a
number", "Value error, ...") describe Python types; a deck maker needs the key, what it
holds and what it should hold.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # types only: the CLI's help loads no pydantic
    from pydantic import ValidationError
    from pydantic_core import ErrorDetails

_TYPE_WORDS = {
    "int": "a whole number",
    "float": "a number",
    "bool": "true or false",
    "string": "text",
    "str": "text",
    "list": "a list",
    "dict": "a table",
    "model": "a table",
}


def where(error: ErrorDetails, top: str = "top level") -> str:
    """The key path of an error: ``cards.3.suit``."""
    return ".".join(str(part) for part in error["loc"]) or top


def _shown(value: Any) -> str:
    if isinstance(value, str):
        return f'"{value}"'
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "empty"
    if isinstance(value, dict):
        return "a table"
    if isinstance(value, list):
        return "a list"
    return str(value)


def _choices(expected: str) -> str:
    return expected.replace("'", "")


def reason(error: ErrorDetails) -> str:
    """What is wrong, in words: 'is "stjerne", not one of spar, kløver, hjerter or ruter'."""
    kind = error["type"]
    ctx = error.get("ctx") or {}
    value = error.get("input")
    if kind == "missing":
        return "is missing"
    if kind == "extra_forbidden":
        return "unknown key"
    if kind == "literal_error":
        return f"is {_shown(value)}, not one of {_choices(str(ctx.get('expected', '')))}"
    if kind in {"greater_than", "greater_than_equal", "less_than", "less_than_equal"}:
        words = {
            "greater_than": "more than",
            "greater_than_equal": "at least",
            "less_than": "less than",
            "less_than_equal": "at most",
        }[kind]
        limit = next(iter(ctx.values()), "")
        return f"is {_shown(value)}, must be {words} {limit}"
    if kind in {"string_too_short", "too_short"}:
        return "must not be empty"
    if kind in {"string_too_long", "too_long"}:
        return "is too long"
    if kind == "value_error":
        message = str(error["msg"])
        return message.removeprefix("Value error, ")
    for name, words in _TYPE_WORDS.items():
        if kind.startswith(f"{name}_") or kind == f"{name}_type":
            return f"is {_shown(value)}, not {words}"
    return str(error["msg"]).removeprefix("Value error, ").lower()


def first_problem(exc: ValidationError, top: str = "top level") -> str:
    """``key: reason`` of the first error."""
    first = exc.errors()[0]
    return f"{where(first, top)}: {reason(first)}"


def all_problems(exc: ValidationError) -> list[str]:
    return [f"{where(error)}: {reason(error)}" for error in exc.errors()]
