"""The typer application and the error translation every command shares.

Commands live in :mod:`kraftstokk.cli.commands`, one module per command; each is a thin
shell over a library function, with the options several commands share declared once in
:mod:`kraftstokk.cli.options`. A :class:`~kraftstokk.errors.KraftstokkError`
becomes one line on stderr and the error's exit code; no traceback reaches the user.
"""

from __future__ import annotations

import contextlib
import functools
import inspect
import shlex
import sys
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, ParamSpec, TextIO, TypeVar

import typer
from typer.core import TyperCommand
from typer.models import CommandFunctionType, CommandInfo

from kraftstokk import __version__
from kraftstokk.cli.plainhelp import PlainCommand, PlainGroup
from kraftstokk.cli.voice import VOICE, voice_options
from kraftstokk.errors import (
    MAX_LINE,
    MAX_LISTED,
    InputProblems,
    KraftstokkError,
    ReadNote,
    ValidationFailed,
    clip,
)
from kraftstokk.terminal import guard_standard_streams, printable

P = ParamSpec("P")
R = TypeVar("R")


class PlainTyper(typer.Typer):
    """Every command registered with ``@app.command()`` shows plain help (no Python types).

    The commands are imported when typer first asks for them (building the click group):
    every one, or with :meth:`only` the one about to run.
    """

    _commands: list[CommandInfo]
    _selected: str | None = None
    _loading = False

    @property
    def registered_commands(self) -> list[CommandInfo]:
        if not self._loading:
            from kraftstokk.cli import commands

            self._loading = True  # importing a command module registers it, here
            try:
                commands.load(self._selected)
            finally:
                self._loading = False
        return self._commands

    @registered_commands.setter
    def registered_commands(self, value: list[CommandInfo]) -> None:
        self._commands = value

    def only(self, command: str | None) -> None:
        """Load just ``command`` (a known name; None or another: every command)."""
        self._selected = command

    def command(
        self, name: str | None = None, *, cls: type[TyperCommand] | None = None, **kwargs: Any
    ) -> Callable[[CommandFunctionType], CommandFunctionType]:
        return super().command(name, cls=cls or PlainCommand, **kwargs)


app = PlainTyper(
    name="kraftstokk",
    cls=PlainGroup,
    help="Turn Norway's hydropower plant data into the Kraft-stokken card deck: "
    "fetch and ingest plant data, build and validate a deck, render print-ready PDFs "
    "and the rules booklet, and simulate the games.",
    no_args_is_help=True,
    add_completion=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)


def fail(message: str, code: int = 2) -> typer.Exit:
    """Print one error line on stderr and return the Exit to raise.

    The line is cut to a readable length and shows control characters escaped, whatever
    the message quotes from a file.
    """
    line = " ".join(printable(clip(message, MAX_LINE)).splitlines())
    typer.echo(f"kraftstokk: error: {line}", err=True)
    return typer.Exit(code)


def handle_errors(func: Callable[P, R]) -> Callable[P, R]:
    """Translate the tool's errors (and Ctrl-C) into one line and an exit code; give the
    command ``--quiet`` and ``--verbose`` (:mod:`kraftstokk.cli.voice`)."""
    command = voice_options(func)

    @functools.wraps(command)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            with notes_said():
                return command(*args, **kwargs)
        except ValidationFailed as exc:
            for problem in exc.problems:
                typer.echo(f"  {problem}", err=True)
            raise fail(exc.message, exc.exit_code) from None
        except InputProblems as exc:
            if len(exc.problems) > MAX_LISTED:  # the error line names only the first few
                for problem in exc.problems:
                    typer.echo(f"  {printable(clip(problem, MAX_LINE))}", err=True)
            raise fail(exc.message, exc.exit_code) from None
        except KraftstokkError as exc:
            raise fail(exc.message, exc.exit_code) from None
        except KeyboardInterrupt:
            raise fail("interrupted", 130) from None
        except RecursionError:
            # Each reader refuses deep nesting itself; this is the net below them.
            raise fail("an input is nested too deeply to be read", 2) from None
        except MemoryError:
            raise fail("out of memory: an input is too large to be read", 2) from None

    return wrapper


@contextlib.contextmanager
def notes_said() -> Iterator[None]:
    """Every :class:`ReadNote` a reader gives (a decimal comma read in an English-style
    deck.csv) is a ``note:`` line on stderr, each time, as it comes (not with --quiet);
    other warnings are shown as Python shows them."""
    with warnings.catch_warnings():
        warnings.simplefilter("always", ReadNote)
        shown = warnings.showwarning

        def show(
            message: Warning | str,
            category: type[Warning],
            filename: str,
            lineno: int,
            file: TextIO | None = None,
            line: str | None = None,
        ) -> None:
            if not issubclass(category, ReadNote):
                shown(message, category, filename, lineno, file, line)
            elif not VOICE.quiet:
                typer.echo(f"note: {printable(clip(str(message), MAX_LINE))}", err=True)

        warnings.showwarning = show
        yield


#: The holder's command line, as a refused second command names it, is cut to this.
MAX_COMMAND = 200


def _command_line(name: str) -> str:
    """``kraftstokk build --out race``: this process's command line when it was started as
    ``kraftstokk NAME ...``, else ``kraftstokk NAME`` (the command called from Python)."""
    argv = sys.argv
    if len(argv) > 1 and argv[1] == name:
        return clip(shlex.join(["kraftstokk", *argv[1:]]), MAX_COMMAND)
    return f"kraftstokk {name}"


def writes_into(
    folder_of: Callable[[dict[str, Any]], Path | None],
) -> Callable[[Callable[P, R]], Callable[P, R]]:
    """The command holds the lock of the folder it writes into while it runs
    (:func:`kraftstokk.folderlock.folder_lock`): a second command writing there refuses in
    one line naming the folder and this one. ``folder_of`` gets the command's arguments by
    name and gives the folder (None: this call writes nothing, e.g. a listing).

    Put it under ``handle_errors``, so that the refusal is one line and exit 2.
    """

    def decorate(func: Callable[P, R]) -> Callable[P, R]:
        signature = inspect.signature(func)

        @functools.wraps(func)
        def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
            from kraftstokk.folderlock import folder_lock

            bound = signature.bind(*args, **kwargs)
            bound.apply_defaults()
            folder = folder_of(dict(bound.arguments))
            if folder is None:
                return func(*args, **kwargs)
            with folder_lock(folder, _command_line(func.__name__.replace("_", "-"))):
                return func(*args, **kwargs)

        return wrapper

    return decorate


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
    # Names and titles come from files: what a command prints shows control characters
    # escaped rather than letting them ring, erase or recolour the terminal.
    guard_standard_streams()
