"""The head start of ``kraftstokk simulate -w N`` (kraftstokk/sim/head_start.py): a worker
forked before the command line is parsed plays the run's first chunks; the parent uses
them only when the worker guessed its run, and the results are the same games either way."""

from __future__ import annotations

import json
import os
import pickle
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


def test_the_head_starts_pipe_ends_speak_the_parents_connections_format():
    """The head start's side of its pipes (``forked.PipeEnd``) against the parent's
    ``multiprocessing`` connections: both ways, a message shorter and one longer than
    what goes in one write, and the end of the pipe before and inside a message."""
    from multiprocessing.connection import Connection

    from kraftstokk.sim.forked import PipeEnd

    # (each round trip in one thread: a message must fit in the pipe, 64 kB)
    messages = [(0, 2000), None, {"games": list(range(5_000))}, b"x" * 40_000]
    read, write = os.pipe()
    parent_reads, child_writes = Connection(read, writable=False), PipeEnd(write)
    read, write = os.pipe()
    child_reads, parent_writes = PipeEnd(read), Connection(write, readable=False)
    assert len(pickle.dumps(messages[3])) > 16_384  # its length and itself: two writes
    for message in messages:
        parent_writes.send(message)
        assert child_reads.recv() == message
        child_writes.send(message)
        assert parent_reads.recv() == message
    parent_writes.close()
    with pytest.raises(EOFError):
        child_reads.recv()
    child_reads.close()
    child_reads.close()  # a second close does nothing
    with pytest.raises(OSError):
        child_reads.fileno()
    os.write(child_writes.fileno(), (1000).to_bytes(4, "big") + b"cut")
    child_writes.close()
    with pytest.raises(OSError, match="end of file during message"):
        PipeEnd(parent_reads.fileno()).recv()
    parent_reads.close()


def test_the_head_start_is_forked_before_multiprocessing_and_tomllib_load(tmp_path: Path):
    """What is loaded before the fork is loaded on one core while the other waits: only
    what the head start plays with (``multiprocessing`` alone cost 8 ms of CPU there)."""
    script = (
        "import os, sys\n"
        "from kraftstokk.sim import head_start\n"
        "late = ('multiprocessing', 'tomllib', 'typer', 'numpy', 'kraftstokk.cli')\n"
        "def said():\n"
        "    print(' '.join(name for name in late if name in sys.modules) or 'none', flush=True)\n"
        "os.register_at_fork(before=said)\n"
        "head_start.begin(sys.argv[1:])\n"
        "print('forked', head_start.forked.waiting(), flush=True)\n"
    )
    args = ["simulate", "deck.json", "-g", "idiot", "-n", "20000", "-w", "2"]
    done = subprocess.run([sys.executable, "-c", script, *args], capture_output=True,
                          text=True, timeout=60, cwd=tmp_path)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout.split("\n")[:2] == ["none", "forked True"]


def test_a_drain_reads_a_pipe_while_this_thread_is_busy():
    """The parent loads the summaries while the head start sends its first chunks: a
    thread reads them meanwhile (``forked.Drain``), so that a sender never waits for a
    pipe that is full, and hands them over in order when stopped."""
    import threading

    from kraftstokk.sim.forked import Drain, PipeEnd

    read, write = os.pipe()
    reader, writer = PipeEnd(read), PipeEnd(write)
    messages = [bytes([n]) * 40_000 for n in range(5)]  # 200 kB: three pipes' worth
    drain = Drain(reader)
    sender = threading.Thread(target=lambda: [writer.send(m) for m in messages], daemon=True)
    sender.start()
    sender.join(timeout=20)
    assert not sender.is_alive()  # it did not wait for this thread
    drained = drain.stop()
    assert len(drained) >= 3  # what the pipe (64 kB) could not hold, the drain read
    rest = [reader.recv() for _ in range(len(messages) - len(drained))]
    assert drained + rest == messages  # the rest is read as before, in order
    writer.send("after")  # what comes after the drain is read as before
    assert reader.recv() == "after"
    writer.close()
    assert Drain(reader).stop() == []  # a pipe whose other end has gone: nothing, no error
    reader.close()
