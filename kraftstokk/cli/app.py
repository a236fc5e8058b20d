"""The typer application and the error translation every command shares.

Commands live in :mod:`kraftstokk.cli.commands`, one module per command; each is a thin
shell over a library function, with the options several commands share declared once in
:mod:`kraftstokk.cli.options`. A :class:`~kraftstokk.errors.KraftstokkError`
becomes one line on stderr and the error's exit code; no traceback reaches the user.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import ParamSpec, TypeVar

import typer

from kraftstokk import __version__
from kraftstokk.errors import KraftstokkError, ValidationFailed

P = ParamSpec("P")
R = TypeVar("R")

app = typer.Typer(
    name="kraftstokk",
    help="Turn Norway's hydropower plant data into the Kraft-stokken card deck: "
    "fetch and ingest plant data, build and validate a deck, render print-ready PDFs "
    "and the rules booklet, and simulate the games.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)


def fail(message: str, code: int = 2) -> typer.Exit:
    """Print one error line on stderr and return the Exit to raise."""
    typer.echo(f"kraftstokk: error: {message}", err=True)
    return typer.Exit(code)


def handle_errors(func: Callable[P, R]) -> Callable[P, R]:
    """Translate the tool's errors (and Ctrl-C) into one line and an exit code."""

    @functools.wraps(func)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return func(*args, **kwargs)
        except ValidationFailed as exc:
            for problem in exc.problems:
                typer.echo(f"  {problem}", err=True)
            raise fail(exc.message, exc.exit_code) from None
        except KraftstokkError as exc:
            raise fail(exc.message, exc.exit_code) from None
        except KeyboardInterrupt:
            raise fail("interrupted", 130) from None

    return wrapper


def version_callback(value: bool) -> None:
    if value:
        typer.echo(f"kraftstokk {__version__}")
        raise typer.Exit()


@app.callback()
def root(
    version: bool = typer.Option(
        False,
        "--version",
        callback=version_callback,
        is_eager=True,
        help="Print the version and exit.",
    ),
) -> None:
    """Kraft-stokken: a card deck of Norwegian hydropower plants, from data to print."""
