"""A head start for ``kraftstokk simulate -w N``: its first worker forked before the
command line is parsed.

Before a run's workers can start, the parent spends about 0.1 s of CPU on one core:
the interpreter, typer and the command line, the engine note, the deck and the game.
With two workers that is a quarter of a 20,000-game run whose other core waits. So the
console script (``kraftstokk.console.run``) forks one worker first, when the command
line reads as a long ``simulate`` with two or more workers (:func:`guess`, its own small
reader: typer is not loaded yet). While the parent parses and checks, that worker takes
the deck from the cache of validated decks
(:func:`kraftstokk.games.play_deck.remembered_play_deck`), builds the game and plays the
first :data:`kraftstokk.sim.forked.CHUNKS` chunks of the run as it guessed it. The parent
adopts it as its first worker (``forked.take``, in :class:`kraftstokk.sim.runner._Workers`)
and sends it its own decks and settings: the chunks played ahead are used only when the
guess plays the same games, and only for the chunks the parent asks for; else it plays
as any worker does. Results are the same either way, game for game.

It prints nothing, ignores Ctrl-C (the parent handles it, as with any worker), and ends
when the parent stops it, ends, or never adopts it (a command line refused, a run too
short for workers, another command than it guessed): then it is stopped at the parent's
exit. Nothing of it outlives the parent, even one killed with SIGKILL: on Linux the kernel
sends it SIGTERM then (``forked.end_with_parent``), and elsewhere its orders' pipe ends,
as no worker forked later keeps the parent's end of it open (``forked.parent_side``).
"""

from __future__ import annotations

import atexit
import gc
import os
import signal
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from kraftstokk.sim import forked

if TYPE_CHECKING:
    from kraftstokk.sim.runner import SimSettings

#: The fewest games per worker for a head start: shorter runs end before it would pay.
MIN_GAMES_PER_WORKER = 2_000
#: Options of ``simulate`` and whether each takes a value; any other option (``--compare``,
#: ``--variant``, ``--help``, ...) means no head start.
OPTIONS = {
    "--game": True,
    "-g": True,
    "--players": True,
    "-p": True,
    "--games": True,
    "-n": True,
    "--seed": True,
    "-s": True,
    "--workers": True,
    "-w": True,
    "--bots": True,
    "-b": True,
    "--action-cap": True,
    "--first-game": True,
    "--out": True,
    "-o": True,
    "--pace": True,
    "--confidence": True,
    "--skill-games": True,
    "--no-report": False,
    "--html": False,
    "--skill": False,
    "--quiet": False,
    "-q": False,
    "--verbose": False,
    "-v": False,
}
#: The command's defaults (``kraftstokk/cli/commands/simulate.py``).
DEFAULTS = {
    "deck": "output/deck.json",
    "players": "4",
    "games": "1000",
    "seed": "1",
    "action-cap": "5000",
    "first-game": "0",
}


@dataclass(frozen=True)
class Guess:
    """The run a command line asks for, as read without typer (the parent checks it)."""

    deck: str
    values: dict[str, str]
    workers: int
    games: int


def guess(arguments: list[str]) -> Guess | None:
    """The run of ``simulate ARGUMENTS`` when it is long and has two or more workers;
    None when the command line is anything else or uses what a head start leaves alone."""
    words = list(arguments)
    if not words or words.pop(0) != "simulate":
        return None
    values: dict[str, str] = {}
    deck: str | None = None
    while words:
        word = words.pop(0)
        if not word.startswith("-") or word == "-":
            if deck is not None:
                return None
            deck = word
            continue
        name, _, attached = word.partition("=")
        takes = OPTIONS.get(name)
        if takes is None or (attached and not name.startswith("--")):
            return None
        if takes:
            if not attached and not words:
                return None
            values[name.lstrip("-")] = attached or words.pop(0)
        elif attached:
            return None
    short = {"g": "game", "p": "players", "n": "games", "s": "seed", "w": "workers", "b": "bots",
             "o": "out", "q": "quiet", "v": "verbose"}  # fmt: skip
    values = {short.get(key, key): value for key, value in values.items()}
    if "game" not in values:
        return None
    try:
        games = int(values.get("games", DEFAULTS["games"]))
        workers = int(values["workers"]) if "workers" in values else _cores()
    except ValueError:
        return None
    workers = min(workers, games)
    if workers < 2 or games < workers * MIN_GAMES_PER_WORKER:
        return None
    return Guess(deck or DEFAULTS["deck"], values, workers, games)


def _cores() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def begin(arguments: list[str]) -> None:
    """Fork the head start when ``arguments`` (the command line after ``kraftstokk``) ask
    for a long ``simulate`` with workers; the child never returns from here."""
    if not hasattr(os, "fork") or any(
        name.startswith("_KRAFTSTOKK_COMPLETE") for name in os.environ
    ):
        return  # no fork here (Windows), or shell completion asks: nothing runs
    found = guess(arguments)
    if found is None or forked.waiting():
        return
    # What the parent loads next anyway, and the child needs: loaded once, not twice.
    # (Only that: what is loaded here is loaded on one core, before the head start runs.)
    import kraftstokk.games.play_deck
    import kraftstokk.sim.runner  # noqa: F401

    orders_read, orders_write = os.pipe()
    results_read, results_write = os.pipe()
    # The collector would walk every object both processes hold, and so copy their pages
    # in each: they live as long as the process anyway (the command freezes them at its
    # end too).
    gc.freeze()
    parent = os.getpid()
    pid = os.fork()
    if pid == 0:  # the head start: nothing of the parent's code may run here
        status = 0
        try:
            os.close(orders_write)
            os.close(results_read)
            _head_start(found, parent, orders_read, results_write)
        except BaseException:
            status = 1
        finally:
            os._exit(status)
    os.close(orders_read)
    os.close(results_write)
    head = forked.HeadStart(
        forked.ForkedProcess(pid), forked.PipeEnd(orders_write), forked.PipeEnd(results_read)
    )
    forked.parent_side(head.orders, head.results)  # a worker forked later lets them go
    forked.put(head)
    atexit.register(_end, head)


def _end(head: forked.HeadStart) -> None:
    """At the parent's exit: stop the head start unless a run adopted it and let it go,
    and wait for it (its CPU time is the parent's children's)."""
    if forked.take() is head:  # never adopted
        head.process.terminate()
    for connection in (head.orders, head.results):
        connection.close()
    head.process.join()


def _head_start(found: Guess, parent: int, orders_fd: int, results_fd: int) -> None:
    """The child: guess the run and play its first chunks, then serve the parent as a
    worker (``parent``: the parent's process id)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent handles Ctrl-C
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    forked.end_with_parent(parent)  # killed (SIGKILL), the parent takes it along
    from kraftstokk.sim import runner

    orders, results = forked.PipeEnd(orders_fd), forked.PipeEnd(results_fd)
    runner.widen(results)
    ahead: dict[tuple[int, int], Any] = {}
    prepared = None
    try:
        prepared = _prepare(found)
        if prepared is not None and _native(prepared):
            tables, settings, games = prepared
            plan = runner.run_chunks(settings.games, found.workers, settings.first)
            for bounds in plan[: forked.CHUNKS]:
                ahead[bounds] = runner.play_raw(tables, settings, games, *bounds)
    except Exception:  # a guess that fails is no guess: the parent decides
        prepared, ahead = None, {}
    runner.serve_head_start(orders, results, prepared, ahead)


def _native(prepared: tuple[tuple[Any, ...], SimSettings, tuple[Any, ...]]) -> bool:
    """Whether the game's native core plays these bots: a chunk then takes milliseconds
    (the parent's orders wait for the chunks played ahead)."""
    from kraftstokk.games import registry
    from kraftstokk.games.fastcore import native_core

    _, settings, (game, *_) = prepared
    return native_core(game, registry.make_bots(game, settings.bots)) is not None


def _prepare(found: Guess) -> tuple[tuple[Any, ...], SimSettings, tuple[Any, ...]] | None:
    """The deck (from the cache of validated decks only), settings and game guessed."""
    from pathlib import Path

    from kraftstokk.games.packages import typed_name
    from kraftstokk.games.play_deck import remembered_play_deck
    from kraftstokk.sim.runner import SimSettings, check_settings, default_bots

    deck = remembered_play_deck(Path(found.deck))
    if deck is None:
        return None
    values = {**DEFAULTS, **found.values}
    game = typed_name(values["game"]).lower()
    settings = SimSettings(
        game=game,
        players=int(values["players"]),
        games=found.games,
        seed=int(values["seed"]),
        bots=values.get("bots") or default_bots(game),
        action_cap=int(values["action-cap"]),
        first=int(values["first-game"]),
    )
    made = check_settings(deck.table, settings)
    return (deck.table,), settings, (made,)
