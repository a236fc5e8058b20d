"""What a command costs before it does its work (issue 35): the fixed cost per command.

Targets:

- ``kraftstokk --help`` and a one-game ``kraftstokk simulate DECK --no-report`` cost at
  most 0.2 s of CPU each (the whole process: interpreter, imports, the game, the JSON).
  The deck is one that passed validation before (remembered by its bytes and the code's
  version, ``kraftstokk/games/play_deck.py``): a person simulates the same deck again and
  again. A deck's first run, validated in full, is printed too;
- ``simulate -w 2`` on 20,000 greedy Idiot games, the whole command, takes at most 1/1.6
  of the wall time of ``-w 1`` (on two idle cores: the load average is printed with it).
  On a loaded machine an estimate from CPU times is printed beside it (below).

Each command runs as a new process, as a person runs it, with bytecode caches written
(a run first warms them). CPU seconds are the child's user and system time; the median of
``REPEATS`` runs is printed with the minimum and maximum. Every command's ``--help`` and
the modules it loads are printed too: a command loads only what it uses.

``python bench_startup.py [--repeats N]``.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _common import REPO, default_deck

from kraftstokk.cli.commands import MODULE_OF

REPEATS = 9
SPEED_UP_REPEATS = 5
CPU_TARGET = 0.2
SPEED_UP = 1.6
GAMES = 20_000
#: The interpreter of this checkout, with bytecode written as a person's run writes it.
PYTHON = sys.executable
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
#: The ``kraftstokk`` console script's function.
KRAFTSTOKK = [PYTHON, "-c", "from kraftstokk.console import run; run()"]
#: Reports, after a simulate, the CPU seconds of this process when it forked its head start
#: (kraftstokk/sim/head_start.py), when its workers were started (the head start adopted),
#: when the games were all summed, and at the end: what a run spends before and after its
#: games on one core whatever the workers; and the head start's CPU seconds when it began
#: to play and for each chunk it played ahead (the estimate of ``speed_up``).
PHASES = (
    "import os, sys, time\n"
    "from kraftstokk.sim import head_start, runner\n"
    "from kraftstokk.sim.forked import CHUNKS\n"
    "marks = {'fork': 0.0}\n"
    "parent, prepare, play = os.getpid(), head_start._prepare, runner.play_raw\n"
    "def prepared(found):\n"
    "    made = prepare(found)\n"
    "    print('HEAD', time.process_time(), file=sys.stderr, flush=True)\n"
    "    return made\n"
    "ahead = [CHUNKS]\n"
    "def played(*args):\n"
    "    began = time.process_time()\n"
    "    found = play(*args)\n"
    "    if os.getpid() != parent and ahead[0] > 0:\n"
    "        ahead[0] -= 1\n"
    "        print('AHEAD', time.process_time() - began, file=sys.stderr, flush=True)\n"
    "    return found\n"
    "head_start._prepare, runner.play_raw = prepared, played\n"
    "start, run = runner._Workers.__init__, runner._run\n"
    "def starting(self, *args):\n"
    "    marks['start'] = time.process_time()\n"
    "    start(self, *args)\n"
    "def running(*args, **kwargs):\n"
    "    marks.setdefault('start', time.process_time())\n"
    "    try:\n        return run(*args, **kwargs)\n"
    "    finally:\n        marks['summed'] = time.process_time()\n"
    "runner._Workers.__init__, runner._run = starting, running\n"
    "head_start.begin(sys.argv[1:])\n"
    "marks['fork'] = time.process_time() if head_start.forked.waiting() else 0.0\n"
    "from kraftstokk.cli import leave, main\n"
    "sys.argv = ['kraftstokk', *sys.argv[1:]]\n"
    "try:\n    main()\n"
    "except SystemExit as done:\n"
    "    print('PHASES', marks['fork'], marks['start'], marks['summed'], time.process_time(),"
    " file=sys.stderr)\n"
    "    leave(done.code)\n"
)
#: Lists the kraftstokk modules a command loaded, after it ran.
LOADED = (
    "import sys\n"
    "from kraftstokk.cli import main\n"
    "sys.argv = ['kraftstokk', *sys.argv[1:]]\n"
    "try:\n    main()\nexcept SystemExit:\n    pass\n"
    "names = sorted({m.split('.')[0] for m in sys.modules})\n"
    "ours = [m for m in sys.modules if m.startswith('kraftstokk')]\n"
    "heavy = ' '.join(n for n in names if n in HEAVY)\n"
    "print(len(sys.modules), len(ours), heavy, file=sys.stderr)\n"
)
#: Runs a command with each module's import timed in CPU seconds (``-X importtime`` gives
#: wall time, which on a loaded machine is mostly waiting), then prints the CPU of the
#: process so far, of its imports, and the packages that cost the most.
IMPORT_CPU = (
    "import collections, sys, time\n"
    "import importlib._bootstrap as bootstrap\n"
    "load, spent, stack = bootstrap._load_unlocked, collections.Counter(), []\n"
    "def timed(spec):\n"
    "    started = time.process_time()\n"
    "    stack.append(0.0)\n"
    "    try:\n        return load(spec)\n"
    "    finally:\n"
    "        took, inner = time.process_time() - started, stack.pop()\n"
    "        parts = spec.name.split('.')\n"
    "        package = '.'.join(parts[:2] if parts[0] == 'kraftstokk' else parts[:1])\n"
    "        spent[package] += took - inner\n"
    "        if stack:\n            stack[-1] += took\n"
    "bootstrap._load_unlocked = timed\n"
    "sys.argv = ['kraftstokk', *sys.argv[1:]]\n"
    "from kraftstokk.cli import main\n"
    "try:\n    main()\nexcept SystemExit:\n    pass\n"
    "top = ', '.join(f'{name} {1000 * cpu:.0f}' for name, cpu in spent.most_common(12))\n"
    "print(f'{1000 * time.process_time():.0f} {1000 * sum(spent.values()):.0f} {top}',"
    " file=sys.__stderr__)\n"
)
HEAVY = (
    "numpy",
    "pydantic",
    "reportlab",
    "PIL",
    "requests",
    "urllib3",
    "rich",
    "openpyxl",
    "starlette",
    "uvicorn",
    "jinja2",
    "pypdf",
    "pypdfium2",
    "cryptography",
    "dask",
)


def child_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run(
    arguments: list[str], command: list[str] = KRAFTSTOKK, env: dict[str, str] | None = None
) -> tuple[float, float, str]:
    """Wall and CPU seconds of ``kraftstokk ARGUMENTS``, and its stderr."""
    before, started = child_cpu(), time.perf_counter()
    done = subprocess.run(
        [*command, *arguments], cwd=REPO, env=env or ENV, capture_output=True, text=True
    )
    wall, cpu = time.perf_counter() - started, child_cpu() - before
    if done.returncode != 0:
        raise SystemExit(f"kraftstokk {' '.join(arguments)} failed: {done.stderr[-500:]}")
    return wall, cpu, done.stderr


def spread(values: list[float], digits: int = 3) -> str:
    form = f"{{:.{digits}f}}"
    return (
        f"{form.format(statistics.median(values))} "
        f"({form.format(min(values))}-{form.format(max(values))})"
    )


def load() -> str:
    return "load average " + " ".join(f"{value:.2f}" for value in os.getloadavg())


def cpu_line(
    what: str, arguments: list[str], repeats: int, env: dict[str, str] | None = None
) -> float:
    """Print the median (range) of the command's CPU seconds; return the median. With
    ``env``, the figure is for information: the target is not judged on it."""
    run(arguments, env=env)  # bytecode written, files in the page cache, the deck remembered
    cpus = [run(arguments, env=env)[1] for _ in range(repeats)]
    met = "met" if statistics.median(cpus) <= CPU_TARGET else "NOT met"
    judged = f"target <= {CPU_TARGET} s: {met}; " if env is None else ""
    print(
        f"{what}: {spread(cpus)} s of CPU, median (range) of {repeats} ({judged}{load()})",
        flush=True,
    )
    return statistics.median(cpus)


def modules_line(command: str) -> None:
    done = subprocess.run(
        [PYTHON, "-c", f"HEAVY = {HEAVY!r}\n" + LOADED, command, "--help"],
        cwd=REPO,
        env=ENV,
        capture_output=True,
        text=True,
    )
    words = (done.stderr.strip().splitlines() or ["? ?"])[-1].split(" ")
    total, ours, heavy = words[0], words[1], " ".join(words[2:])
    print(
        f"  {command} --help: {total} modules, {ours} of kraftstokk; of the heavy "
        f"packages: {heavy or 'none'}",
        flush=True,
    )


def import_cpu_line(arguments: list[str]) -> None:
    done = subprocess.run(
        [PYTHON, "-c", IMPORT_CPU, *arguments], cwd=REPO, env=ENV, capture_output=True, text=True
    )
    words = (done.stderr.strip().splitlines() or ["? ? ?"])[-1].split(" ", 2)
    print(
        f"  its CPU in ms: {words[0]} in the whole process (one run), "
        f"{words[1]} of them importing; by package: {words[2]}",
        flush=True,
    )


def idle_estimate(whole: float, said: str) -> tuple[float, float, float, float]:
    """The wall seconds of a ``-w 2`` run on two idle cores, from its CPU times (PHASES):
    what the parent does before the worker starts (or before it adopts the head start)
    and after the games are summed, plus half of the rest of both processes' CPU (they
    share the chunks as they come). A head start plays while the parent starts, from its
    own start on (its CPU when it began to play, counted from the fork) for as long as its
    chunks ahead last: that work is taken off the rest. Returns the estimate, the parent's
    CPU before the worker (or the adoption), after the sums, and the games played ahead."""
    words = said.split("PHASES ")[-1].split()[:4]
    fork, started, summed, ended = (float(word) for word in words)
    lines = [line.split() for line in said.splitlines()]
    setup = next((float(w[1]) for w in lines if w[:1] == ["HEAD"]), 0.0)
    ahead = sum(float(w[1]) for w in lines if w[:1] == ["AHEAD"])
    played_ahead = min(ahead, max(0.0, started - fork - setup)) if fork else 0.0
    after = ended - summed
    rest = whole - started - after - (setup + played_ahead if fork else 0.0)
    return started + rest / 2 + after, started, after, played_ahead


def speed_up(deck: Path, out: Path, repeats: int) -> None:
    walls: dict[int, list[float]] = {1: [], 2: []}
    cpus: dict[int, list[float]] = {1: [], 2: []}
    estimates: list[float] = []
    phases: list[tuple[float, float, float]] = []
    said = load()
    for _ in range(repeats):
        ones: list[float] = []
        for workers in (1, 2):  # alternating, so a change of load hits both
            arguments = [
                "simulate",
                str(deck),
                "-g",
                "idiot",
                "-b",
                "greedy",
                "-n",
                str(GAMES),
                "-w",
                str(workers),
                "--no-report",
                "-o",
                str(out / str(workers)),
            ]
            wall, cpu, _ = run(arguments)
            walls[workers].append(wall)
            cpus[workers].append(cpu)
            ones.append(cpu)
            _, whole, said_phases = run(arguments, [PYTHON, "-c", PHASES])
            if workers == 2:
                estimate, started, after, ahead = idle_estimate(whole, said_phases)
                estimates.append(ones[0] / estimate)
                phases.append((started, after, ahead))
    ratios = [one / two for one, two in zip(walls[1], walls[2], strict=True)]
    met = "met" if statistics.median(ratios) >= SPEED_UP else "NOT met"
    print(
        f"simulate -n {GAMES:,} greedy Idiot, whole command: -w 1 {spread(walls[1])} s, "
        f"-w 2 {spread(walls[2])} s of wall time; CPU -w 1 {spread(cpus[1])} s, "
        f"-w 2 {spread(cpus[2])} s",
        flush=True,
    )
    print(
        f"simulate -w 2 against -w 1: {spread(ratios, 2)} times as fast "
        f"(target >= {SPEED_UP}: {met}; {said} before, {load()} after; on idle cores only "
        f"the figure counts)",
        flush=True,
    )
    before, after, ahead = (statistics.median(phase[i] for phase in phases) for i in range(3))
    print(
        f"  on two idle cores, from the CPU times: about {spread(estimates, 2)} times as fast "
        f"(an estimate, not a measurement: {before:.3f} s of CPU before the worker starts "
        f"or the head start is adopted, {ahead:.3f} s of games the head start played "
        f"meanwhile, {after:.3f} s after the games are summed on one core, the rest of "
        f"both processes' CPU halved)",
        flush=True,
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=REPEATS)
    repeats = parser.parse_args(argv if argv is not None else []).repeats
    with tempfile.TemporaryDirectory() as folder:
        # A cache of validated decks of the benchmark's own (not the user's).
        ENV["KRAFTSTOKK_CACHE_DIR"] = str(Path(folder) / "cache")
        deck = Path(folder) / "deck.json"
        deck.write_text(default_deck().model_dump_json(indent=1), encoding="utf-8")
        cpu_line("kraftstokk --help", ["--help"], repeats)
        one_game = ["simulate", str(deck), "-g", "idiot", "-n", "1", "--no-report", "-o", folder]
        cpu_line("kraftstokk simulate DECK -n 1 --no-report", one_game, repeats)
        import_cpu_line(one_game)
        cpu_line(
            "  the same, the deck's first run (read and validated in full)",
            one_game,
            repeats,
            env={**ENV, "KRAFTSTOKK_CACHE_DIR": ""},
        )
        print("what each command loads for its --help:")
        for command in MODULE_OF:
            modules_line(command)
        speed_up(deck, Path(folder), max(3, repeats // 2))


if __name__ == "__main__":
    main(sys.argv[1:])
