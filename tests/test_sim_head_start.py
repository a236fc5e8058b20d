"""The head start of ``kraftstokk simulate -w N`` (kraftstokk/sim/head_start.py): a worker
forked before the command line is parsed plays the run's first chunks; the parent uses
them only when the worker guessed its run, and the results are the same games either way."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from kraftstokk.sim.forked import CHUNKS
from kraftstokk.sim.head_start import guess
from kraftstokk.sim.metrics import strip_timing
from kraftstokk.sim.runner import run_chunks

#: The console script, with every chunk a process plays said on stderr (by pid), and what
#: the head start was given to play ahead.
SCRIPT = """
import os, sys
from kraftstokk.sim import head_start, runner
play = runner.play_raw
def played(tables, settings, games, start, stop):
    found = play(tables, settings, games, start, stop)
    os.write(2, f"played {os.getpid()} {start} {stop}\\n".encode())  # one write, one line
    return found
runner.play_raw = played
WRONG_SEED = os.environ.get("WRONG_SEED")
if WRONG_SEED:  # the head start guesses another seed than the command line's
    import dataclasses
    prepare = head_start._prepare
    def wrong(found):
        tables, settings, games = prepare(found)
        return tables, dataclasses.replace(settings, seed=int(WRONG_SEED)), games
    head_start._prepare = wrong
from kraftstokk.console import run
print("parent", os.getpid(), file=sys.stderr, flush=True)
run()
"""


def kraftstokk(
    *args: str, env: dict[str, str] | None = None, cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    """``kraftstokk ARGS`` through the console script (in ``cwd``, made when missing)."""
    if cwd is not None:
        cwd.mkdir(exist_ok=True)
    return subprocess.run([sys.executable, "-c", SCRIPT, *args], capture_output=True,
                          text=True, timeout=120, cwd=cwd,
                          env={**os.environ, **(env or {})})  # fmt: skip


def plays(stderr: str) -> tuple[int, list[tuple[int, int, int]]]:
    lines = [line.split() for line in stderr.splitlines()]
    parent = next(int(words[1]) for words in lines if words[:1] == ["parent"])
    return parent, [(int(w[1]), int(w[2]), int(w[3])) for w in lines if w[:1] == ["played"]]


def results(out: Path) -> dict[str, object]:
    return strip_timing(json.loads((out / "sim-idiot.json").read_text(encoding="utf-8")))


@pytest.fixture
def remembered(deck_file: Path, tmp_path: Path) -> Path:
    """The deck, validated once so that the cache of validated decks remembers it."""
    done = kraftstokk("simulate", str(deck_file), "-g", "idiot", "-n", "2", "-w", "1",
                      "--no-report", "-o", str(tmp_path / "once"))  # fmt: skip
    assert done.returncode == 0, done.stderr
    return deck_file


def test_the_guess_reads_a_long_simulate_with_workers_and_nothing_else():
    long = ["simulate", "deck.json", "-g", "idiot", "-n", "20000"]
    found = guess([*long, "-w", "2", "-b", "greedy", "--no-report", "-o", "out", "--seed=7"])
    assert found is not None
    assert (found.deck, found.workers, found.games) == ("deck.json", 2, 20000)
    assert found.values == {"game": "idiot", "games": "20000", "workers": "2",
                            "bots": "greedy", "out": "out", "seed": "7"}  # fmt: skip
    assert guess(["simulate", "-g", "Strømkrig", "-n", "9000", "-w", "3"]).deck == (
        "output/deck.json"
    )
    for other in (
        [*long, "-w", "1"],  # no worker
        ["simulate", "deck.json", "-g", "idiot", "-n", "3000", "-w", "2"],  # too short
        [*long, "-w", "2", "--compare", "b.json"],  # what it leaves alone
        [*long, "-w", "2", "--variant", "x"],
        [*long, "-w", "2", "-s1"],  # typer's forms it does not read
        [*long, "-w", "2", "--help"],
        [*long, "-w", "2", "other.json"],  # two decks
        [*long, "-w", "two"],
        ["simulate", "deck.json", "-n", "20000", "-w", "2"],  # no game
        ["play", "deck.json", "-g", "idiot", "-n", "20000", "-w", "2"],
        [*long, "-w"],
    ):
        assert guess(other) is None, other


def test_the_head_start_plays_the_first_chunks_once_and_the_same_games(
    remembered: Path, tmp_path: Path
):
    args = [str(remembered), "-g", "idiot", "-b", "greedy", "-n", "4000", "--no-report"]
    one = kraftstokk("simulate", *args, "-w", "1", "-o", "out", cwd=tmp_path / "one")
    two = kraftstokk("simulate", *args, "-w", "2", "-o", "out", cwd=tmp_path / "two")
    assert one.returncode == 0 and two.returncode == 0, two.stderr
    assert results(tmp_path / "one" / "out") == results(tmp_path / "two" / "out")
    parent, played = plays(two.stderr)
    assert sum(stop - start for _, start, stop in played) == 4000  # every game once
    (head,) = {pid for pid, _, _ in played} - {parent}
    ahead = [(start, stop) for pid, start, stop in played if pid == head][:CHUNKS]
    assert ahead == run_chunks(4000, 2)[:CHUNKS]  # the first chunks, by the head start


def test_a_head_start_that_guessed_wrong_plays_the_parents_games(remembered: Path, tmp_path: Path):
    args = [str(remembered), "-g", "idiot", "-b", "greedy", "-n", "4000", "--no-report"]
    one = kraftstokk("simulate", *args, "-w", "1", "-o", "out", cwd=tmp_path / "one")
    wrong = kraftstokk("simulate", *args, "-w", "2", "-o", "out", cwd=tmp_path / "two",
                       env={"WRONG_SEED": "99"})  # fmt: skip
    assert one.returncode == 0 and wrong.returncode == 0, wrong.stderr
    assert results(tmp_path / "one" / "out") == results(tmp_path / "two" / "out")
    # it played its two chunks ahead for nothing, and then every chunk it was sent
    assert sum(stop - start for _, start, stop in plays(wrong.stderr)[1]) > 4000


def test_a_refused_command_line_ends_the_head_start_and_keeps_its_error(
    remembered: Path, tmp_path: Path
):
    done = kraftstokk("simulate", str(remembered), "-g", "idiot", "-n", "4000", "-w", "2",
                      "-p", "9", "-o", str(tmp_path / "out"))  # fmt: skip
    assert done.returncode == 1 or done.returncode == 2
    errors = [line for line in done.stderr.splitlines() if line.startswith("kraftstokk:")]
    assert len(errors) == 1 and "9" in errors[0]
    assert not (tmp_path / "out" / "sim-idiot.json").exists()
