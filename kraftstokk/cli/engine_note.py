"""The note a command gives, once, when it plays games on the uncompiled engine although
this machine could compile it (after ``make deck``, which compiles nothing).

Choice (issue 35): say it, not compile then. Compiling needs the dev extras (mypy with
mypyc, setuptools), which ``make deck`` leaves out, and takes one to two minutes; a
command that installs packages and compiles on its own would surprise more than it
helps. The note names the one command that does both: ``make engine``.
"""

from __future__ import annotations

import os
import shutil
import sys
import sysconfig
from collections.abc import Iterable

from kraftstokk.cli.voice import VOICE
from kraftstokk.terminal import printable

#: How many times slower each game plays on the pure-Python engine than compiled: CPU
#: time of ``simulate -w 1 --no-report`` with the default bots, 5,000 games compiled
#: against 500 with KRAFTSTOKK_PURE_PYTHON=1, start-up taken off (a load average of 13
#: on two cores; the figures in docs/development.md, "Compiled engine").
SLOWER = {"idiot": 54, "kraftidioten": 100, "stromkrig": 41}
#: The words for a game without a figure here (a game added later).
SLOWER_UNKNOWN = "many times"
REBUILD = "make engine"


def compiler_available() -> bool:
    """Whether the C compiler Python builds extensions with is on this machine."""
    configured = os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc"
    words = str(configured).split()
    return bool(words) and shutil.which(words[0]) is not None


def uncompiled_reason(game: str) -> str | None:
    """Why ``game`` would play on the pure-Python engine (None: it plays compiled, or
    pure Python was asked for with KRAFTSTOKK_PURE_PYTHON=1)."""
    from kraftstokk.games import native

    if os.environ.get(native.PURE_ENV) == "1":
        return None
    current, _ = native.unit_state(native.MYPYC)
    if not current:
        return _cause(native.unit_record(native.MYPYC))
    if game in native.native_cores() and not native.unit_state(game)[0]:
        return _cause(native.unit_record(game))
    return None


def _cause(record: dict[str, object]) -> str:
    if record.get("compiled"):
        return "its sources changed since it was compiled"
    return "it was never compiled here" if not record else "its last compile failed"


def note(games: Iterable[str]) -> str | None:
    """The note for a command about to play ``games``, or None."""
    for game in games:
        reason = uncompiled_reason(game)
        if reason is not None:
            if not compiler_available():  # looked for only then: a millisecond
                return None  # nothing the user can run would change it
            factor = SLOWER.get(game)
            slower = f"about {factor} times" if factor else SLOWER_UNKNOWN
            return (
                f"kraftstokk: note: the game engine runs as pure Python ({reason}), "
                f"{slower} slower than compiled; `{REBUILD}` compiles it (1-2 minutes)"
            )
    return None


def say(games: Iterable[str]) -> str | None:
    """Print the note on stderr (a command calls this once, before it plays: not per game,
    chunk or worker); nothing with ``--quiet``; with ``--verbose`` the engine's state
    whatever it is. Returns what it printed (a redrawn screen keeps it in view)."""
    if VOICE.quiet:
        return None
    found = note(games)
    if found is None and VOICE.verbose:
        from kraftstokk.games.native import engine_status

        found = f"kraftstokk: engine: {engine_status()}"
    if found is not None:
        sys.stderr.write(printable(found) + "\n")
        sys.stderr.flush()
    return found
