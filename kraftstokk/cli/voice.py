"""How much a command says: ``--quiet`` and ``--verbose``, on every command.

:func:`voice_options` adds both options to a command (``handle_errors`` applies it, so
every command has them, spelled and explained once):

- ``--quiet``/``-q``: only what was asked for and errors. The lines for people on stdout
  (``wrote FILE``, reports, summaries), progress and notes are left out; output a command
  was asked for stays: ``--json``, a schema, a listing (``--list-presets``), and
  ``play``'s table, which is the game.
- ``--verbose``/``-v``: more as it goes: the engine a command plays on, progress lines on a
  pipe every second (instead of every ten), and at the end what the command cost (wall
  and CPU seconds), on stderr.
"""

from __future__ import annotations

import functools
import inspect
import io
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, Any, ParamSpec, TypeVar

import typer

from kraftstokk.errors import KraftstokkError

P = ParamSpec("P")
R = TypeVar("R")

QUIET, NORMAL, VERBOSE = -1, 0, 1
#: Commands whose stdout is the output asked for, so ``--quiet`` keeps it.
KEEPS_STDOUT = frozenset({"play", "spec_schema", "sweep_schema"})
#: Options that ask for output for machines (or a listing) instead of lines for people.
ASKED_FOR = ("as_json", "list_presets", "list_layouts")


@dataclass
class Voice:
    level: int = NORMAL

    @property
    def quiet(self) -> bool:
        return self.level == QUIET

    @property
    def verbose(self) -> bool:
        return self.level == VERBOSE


#: The running command's voice (set by :func:`voice_options` at each call).
VOICE = Voice()


def detail(message: str) -> None:
    """A line said with ``--verbose`` only, on stderr."""
    if VOICE.verbose:
        typer.echo(message, err=True)


QuietOption = Annotated[
    bool,
    typer.Option(
        "--quiet",
        "-q",
        help="Say only what was asked for (--json, a listing) and errors: no progress, "
        "notes or 'wrote' lines.",
    ),
]
VerboseOption = Annotated[
    bool,
    typer.Option(
        "--verbose",
        "-v",
        help="Say more: the engine used, progress on a pipe every second, and what the "
        "command cost (seconds, CPU) at the end, on stderr.",
    ),
]


def voice_options(func: Callable[P, R]) -> Callable[P, R]:
    """Add ``--quiet`` and ``--verbose`` to the command ``func``."""
    # Typer reads the options from the signature's annotations, evaluated (the command
    # modules write them as strings): the wrapper's signature carries them evaluated.
    signature = inspect.signature(func, eval_str=True)

    @functools.wraps(func)
    def wrapper(*args: Any, quiet: bool = False, verbose: bool = False, **kwargs: Any) -> Any:
        if quiet and verbose:
            raise KraftstokkError("--quiet and --verbose say opposite things: give one of them")
        VOICE.level = QUIET if quiet else VERBOSE if verbose else NORMAL
        keep = func.__name__ in KEEPS_STDOUT or any(kwargs.get(name) for name in ASKED_FOR)
        saved = sys.stdout
        started, cpu = time.perf_counter(), time.process_time()
        if quiet and not keep:
            sys.stdout = io.StringIO()  # the lines for people go nowhere
        try:
            return func(*args, **kwargs)
        finally:
            sys.stdout = saved
            if verbose:
                wall, used = time.perf_counter() - started, time.process_time() - cpu
                name = func.__name__.replace("_", "-")
                typer.echo(f"kraftstokk {name}: {wall:.2f} s, {used:.2f} s of CPU", err=True)
            VOICE.level = NORMAL

    added = [
        inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=False, annotation=kind)
        for name, kind in (("quiet", QuietOption), ("verbose", VerboseOption))
        if name not in signature.parameters
    ]
    wrapper.__signature__ = signature.replace(  # type: ignore[attr-defined]
        parameters=[*signature.parameters.values(), *added]
    )
    wrapper.__annotations__ = {
        **func.__annotations__,
        "quiet": QuietOption,
        "verbose": VerboseOption,
    }
    return wrapper  # type: ignore[return-value]
