"""``kraftstokk sweep``: the sweep file, results equal to simulate's on every backend,
resuming from stored chunks, Ctrl-C, the outputs and the report."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pypdf import PdfReader
from typer.testing import CliRunner

from kraftstokk.cli import app
from kraftstokk.folderlock import LOCK_NAME
from kraftstokk.games import registry
from kraftstokk.games.core import DeckTable
from kraftstokk.models import Deck
from kraftstokk.sim.metrics import strip_timing
from kraftstokk.sim.progress import SweepStatus
from kraftstokk.sim.runner import SimSettings, play_chunk
from kraftstokk.sim.session import simulate
from kraftstokk.sim.sweep import sweep
from kraftstokk.sim.sweep.backends import LocalBackend, make_backend
from kraftstokk.sim.sweep.model import SweepError, SweepValidationError, parse_sweep
from kraftstokk.sim.sweep.outputs import write_outputs
from kraftstokk.sim.sweep.results import analyse
from kraftstokk.sim.sweep.run import STORE_DIR, plan, run_sweep
from kraftstokk.sim.sweep.store import ChunkStore, rows_to_json
from kraftstokk.sim.tally import Tally

cli = CliRunner()

SMALL = """
title = "small"
games = 45
seed = 5
chunk = 10

[grid]
decks = ["deck.json"]
games = ["idiot"]
players = [3, 4]
bots = ["greedy"]
variants = [[], ["no_swap"]]
"""


@pytest.fixture
def folder(deck: Deck, tmp_path: Path) -> Path:
    (tmp_path / "deck.json").write_text(deck.model_dump_json(indent=1), encoding="utf-8")
    (tmp_path / "sweep.toml").write_text(SMALL, encoding="utf-8")
    return tmp_path


def outputs(out: Path) -> dict[str, bytes]:
    """Every output file but the chunk store and the lock, with sweep.json's run block left
    out."""
    found = {}
    for path in sorted(out.rglob("*")):
        relative = path.relative_to(out)
        if path.is_dir() or relative.parts[0] == STORE_DIR or path.name == LOCK_NAME:
            continue
        data = path.read_bytes()
        if path.name == "sweep.json":
            document = json.loads(data)
            document.pop("run")
            data = json.dumps(document).encode()
        elif path.suffix == ".json":
            data = json.dumps(strip_timing(json.loads(data))).encode()
        found[str(relative)] = data
    return found


# ------------------------------------------------------------------------ the sweep file


def test_grid_is_the_product_in_file_order(folder):
    files = sweep(folder / "sweep.toml", folder / "out", workers=1, report=False)
    labels = [
        (r.configuration.settings.players, r.configuration.settings.variants)
        for r in files.run.runs
    ]
    assert labels == [(3, ()), (3, ("no_swap",)), (4, ()), (4, ("no_swap",))]
    assert files.run.chunks_total == 4 * 5 and files.run.chunks_played == 20


def test_explicit_configurations_and_default_bots(folder):
    text = """
games = 5
[[configurations]]
deck = "deck.json"
game = "stromkrig"
players = 3
[[configurations]]
deck = { path = "deck.json", label = "same deck" }
game = "idiot"
players = 2
bots = "random,greedy"
variants = "no_swap,sequences"
"""
    (folder / "explicit.toml").write_text(text, encoding="utf-8")
    files = sweep(folder / "explicit.toml", folder / "out", workers=1, report=False)
    first, second = (r.configuration for r in files.run.runs)
    assert (first.settings.game, first.settings.bots) == ("stromkrig", "heuristic")
    assert (second.deck, second.settings.variants) == ("same deck", ("no_swap", "sequences"))


def test_games_are_named_as_people_write_them_as_on_the_command_line():
    text = """
[grid]
decks = ["d.json"]
games = ["Strømkrig", "Kraft-idioten", " IDIOT "]
[[configurations]]
deck = "d.json"
game = "strømkrig"
"""
    parsed = parse_sweep(text, "s.toml")
    assert parsed.grid[0].games == ["stromkrig", "kraftidioten", "idiot"]
    assert parsed.configurations[0].game == "stromkrig"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("games = 0\n[grid]\ndecks=['d.json']\ngames=['idiot']", "games: is 0, must be at least 1"),
        ("[grid]\ndecks=['d.json']\ngames=['idiot']\nplayers=[3, 1]", "grid[0].players[1]:"),
        ("[grid]\ndecks=['d.json']\ngames=['idiot']\nplayer=[3]", "grid[0].player: unknown key"),
        ("title = 'nothing to play'", "name a [grid] or at least one [[configurations]]"),
        ("[grid]\ndecks=[{label='x'}]\ngames=['idiot']", "give exactly one of path or spec"),
        (
            "[findings]\nconfidence = 1.5\n[grid]\ndecks=['d']\ngames=['idiot']",
            "findings.confidence",
        ),
    ],
)
def test_bad_keys_are_named(text, message):
    with pytest.raises(SweepValidationError) as caught:
        parse_sweep(text, "s.toml")
    assert caught.value.message.startswith("s.toml: ")
    assert message in caught.value.message


def test_configurations_that_cannot_be_played_are_named(folder):
    (folder / "bad.toml").write_text(
        "[grid]\ndecks=['deck.json']\ngames=['idiot']\nplayers=[3, 9]\n", encoding="utf-8"
    )
    with pytest.raises(SweepError, match=r"grid \(deck, idiot, 9 players\): idiot is for 2-"):
        sweep(folder / "bad.toml", folder / "out", workers=1)
    (folder / "twice.toml").write_text(
        "[grid]\ndecks=['deck.json']\ngames=['idiot']\nplayers=[3, 3]\n", encoding="utf-8"
    )
    with pytest.raises(SweepError, match="the same configuration as grid"):
        sweep(folder / "twice.toml", folder / "out", workers=1)


def test_cli_errors_and_schema(folder):
    missing = cli.invoke(app, ["sweep", str(folder / "nope.toml")])
    assert missing.exit_code == 2 and "nope.toml: no such file" in missing.stderr
    (folder / "broken.toml").write_text("games = [", encoding="utf-8")
    broken = cli.invoke(app, ["sweep", str(folder / "broken.toml")])
    assert broken.exit_code == 2 and "not valid TOML" in broken.stderr
    (folder / "invalid.toml").write_text("games = 'many'", encoding="utf-8")
    invalid = cli.invoke(app, ["sweep", str(folder / "invalid.toml")])
    assert invalid.exit_code == 1 and "invalid.toml: games:" in invalid.stderr
    never = folder / "never"
    scheduler = cli.invoke(
        app, ["sweep", str(folder / "sweep.toml"), "--scheduler", "dask", "-o", str(never)]
    )
    assert scheduler.exit_code == 2
    assert "--scheduler 'dask': expected local, local:N or tcp://HOST:PORT" in scheduler.stderr
    assert not never.exists(), "a refused sweep made its output folder"
    assert "Traceback" not in missing.output + broken.output + invalid.output
    schema = cli.invoke(app, ["sweep-schema"])
    assert schema.exit_code == 0
    document = json.loads(schema.stdout)
    assert {"games", "seed", "chunk", "grid", "configurations", "findings"} <= set(
        document["properties"]
    )


def test_the_example_sweep_file_is_valid():
    example = Path(__file__).parent.parent / "sources" / "sweep-example.toml"
    parsed = parse_sweep(example.read_text(encoding="utf-8"), str(example))
    assert len(example.read_text(encoding="utf-8").splitlines()) <= 12
    assert parsed.grid[0].games == ["stromkrig"]


# ----------------------------------------------------------- the same games as simulate


@pytest.mark.parametrize("workers", [1, 2])
def test_each_configuration_equals_simulate(folder, workers):
    out = folder / f"out-{workers}"
    files = sweep(folder / "sweep.toml", out, workers=workers, report=False)
    for run in files.run.runs:
        settings = run.configuration.settings
        assert isinstance(settings, SimSettings)
        alone = simulate(
            folder / "deck.json", settings, folder / f"sim-{run.configuration.number}",
            workers=1, report=False,
        )  # fmt: skip
        written = json.loads((out / "sweep.json").read_text(encoding="utf-8"))
        entry = written["configurations"][run.configuration.number - 1]
        from_sweep = json.loads((out / entry["summary"]).read_text(encoding="utf-8"))
        assert strip_timing(from_sweep) == strip_timing(alone.main.summary)


def test_two_worker_dask_cluster_gives_the_local_results(folder):
    pytest.importorskip("distributed")
    local = folder / "local"
    dask = folder / "dask"
    sweep(folder / "sweep.toml", local, scheduler="local", workers=2)
    files = sweep(folder / "sweep.toml", dask, scheduler="local:2")
    assert "Dask LocalCluster, 2 worker" in files.run.backend
    assert files.run.chunks_played == 20
    assert outputs(dask) == outputs(local)  # sweep.pdf byte for byte too
    assert "sweep.pdf" in outputs(dask)


def test_running_scheduler_by_address_gives_the_local_results(folder):
    distributed = pytest.importorskip("distributed")
    local = folder / "local"
    sweep(folder / "sweep.toml", local, scheduler="local", workers=1, report=False)
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, host="127.0.0.1", dashboard_address=None
    ) as cluster:
        address = cluster.scheduler_address
        assert address.startswith("tcp://127.0.0.1:")
        remote = folder / "remote"
        files = sweep(folder / "sweep.toml", remote, scheduler=address, report=False)
        assert files.run.backend == f"Dask scheduler {address}, 2 worker(s)"
    assert outputs(remote) == outputs(local)


# --------------------------------------------------------------- resuming and Ctrl-C


def test_rerun_plays_only_missing_chunks(folder):
    out = folder / "out"
    sweep(folder / "sweep.toml", out, workers=1)
    before = outputs(out)
    chunks = sorted((out / STORE_DIR).rglob("*.json"))
    assert len(chunks) == 20
    chunks[3].unlink()
    chunks[7].write_text("{not json", encoding="utf-8")  # a damaged chunk is played again
    again = sweep(folder / "sweep.toml", out, workers=1)
    assert (again.run.chunks_stored, again.run.chunks_played) == (18, 2)
    assert outputs(out) == before


def _played_tally(deck: Deck, game: str = "kraftidioten", games: int = 30) -> Tally:
    table = DeckTable.from_deck(deck)
    settings = SimSettings(game=game, players=4, games=games, seed=11, bots="greedy")
    return play_chunk(table, settings, registry.make_game(game, table, 4), 0, games)


@pytest.mark.parametrize("game", ["idiot", "kraftidioten", "stromkrig"])
def test_a_stored_chunk_reads_back_equal_and_merges_as_played(deck, tmp_path, game):
    tally = _played_tally(deck, game)
    store = ChunkStore(tmp_path)
    store.save("k", 0, 30, tally)
    assert json.loads(store.path("k", 0, 30).read_text(encoding="utf-8"))["format"] == 3
    back = store.load("k", 0, 30)
    assert back is not None and back == tally
    assert back.counter_totals() == tally.counter_totals()
    assert store.load("k", 0, 31) is None  # not the range its file name says
    merged, expected = Tally(tally.num_cards), Tally(tally.num_cards)
    merged.merge(back)
    expected.merge(tally)
    assert merged == expected and merged.samples == tally.samples


def test_chunks_stored_by_rows_are_still_read(deck, tmp_path):
    tally = _played_tally(deck)
    store = ChunkStore(tmp_path)
    store.path("k", 0, 30).parent.mkdir(parents=True)
    store.path("k", 0, 30).write_text(json.dumps(rows_to_json(tally)), encoding="utf-8")
    assert store.load("k", 0, 30) == tally


@pytest.mark.parametrize(
    "damage",
    [
        lambda doc: doc["columns"].update(actions=doc["columns"]["actions"][:-12]),
        lambda doc: doc["columns"].update(counter_keys=doc["columns"]["index"]),
        lambda doc: doc["columns"].update(finished=doc["columns"]["actions"]),
        lambda doc: doc["columns"].update(winner="not base64!"),
        lambda doc: doc.update(counter_names=doc["counter_names"][:1]),
        lambda doc: doc.update(loser_cards=[]),
        lambda doc: doc.pop("sample_names"),
        lambda doc: doc["columns"].update(play=doc["columns"]["actions"]),
        lambda doc: doc["columns"].update(branching=doc["columns"]["index"]),
        lambda doc: doc["columns"].pop("branching_lengths"),
        lambda doc: doc.update(format=2),  # before the figures of play: played again
        lambda doc: doc.pop("measure"),  # the lead compared after every action: again
    ],
)
def test_a_chunk_that_is_not_a_whole_tally_is_ignored(deck, tmp_path, damage):
    store = ChunkStore(tmp_path)
    store.save("k", 0, 30, _played_tally(deck))
    document = json.loads(store.path("k", 0, 30).read_text(encoding="utf-8"))
    damage(document)
    store.path("k", 0, 30).write_text(json.dumps(document), encoding="utf-8")
    assert store.load("k", 0, 30) is None


class StopAfter:
    """The local backend, one chunk a task, with Ctrl-C pressed after ``chunks`` chunks."""

    def __init__(self, chunks: int) -> None:
        self.inner = LocalBackend(1)
        self.description = self.inner.description
        self.workers = 1
        self.task_seconds = 0.0  # as short as can be: a chunk per task
        self.chunks = chunks

    def run(self, tasks):
        for number, result in enumerate(self.inner.run(tasks)):
            if number == self.chunks:
                raise KeyboardInterrupt
            yield result

    def close(self) -> None:
        self.inner.close()


def test_ctrl_c_writes_what_is_done_and_the_rerun_completes_it(folder):
    from kraftstokk.sim.sweep.model import load_sweep

    spec = load_sweep(folder / "sweep.toml")
    out = folder / "out"
    cut = run_sweep(plan(spec, folder), out, StopAfter(7))
    assert cut.interrupted and cut.chunks_played == 7
    # Configuration 1 has its 5 chunks, configuration 2 the first 2 of them.
    assert [(r.configuration.number, r.stats.games, r.complete) for r in cut.runs] == [
        (1, 45, True),
        (2, 20, False),
    ]
    write_outputs(analyse(cut), out)
    document = json.loads((out / "sweep.json").read_text(encoding="utf-8"))
    assert document["complete"] is False
    assert document["configurations"][1]["metrics"]["games"] == 20
    rest = run_sweep(plan(spec, folder), out, LocalBackend(1))
    assert (rest.chunks_stored, rest.chunks_played) == (7, 13)
    write_outputs(analyse(rest), out)
    fresh = folder / "fresh"
    sweep(folder / "sweep.toml", fresh, workers=1)
    assert outputs(out) == outputs(fresh)


# ------------------------------------------------------------------------ the outputs


def test_outputs_table_and_report(folder):
    out = folder / "out"
    result = cli.invoke(app, ["sweep", str(folder / "sweep.toml"), "-o", str(out), "-w", "1"])
    assert result.exit_code == 0, result.output
    assert "4 configurations, 180 games (20 chunks played, 0 found stored)" in result.stdout
    lines = (out / "sweep.csv").read_text(encoding="utf-8").splitlines()
    header = lines[0].split(",")
    assert header[:7] == [
        "configuration",
        "deck",
        "game",
        "players",
        "bots",
        "variants",
        "complete",
    ]
    assert "win_rate_seat_1" in header and "actions_mean" in header
    assert lines[2].startswith("2,deck,idiot,3,greedy,no_swap,yes,45,")
    document = json.loads((out / "sweep.json").read_text(encoding="utf-8"))
    assert document["varied"] == ["players", "variants"]
    pairs = {(c["configuration_a"], c["configuration_b"]) for c in document["comparisons"]}
    assert pairs == {(1, 2), (1, 3), (2, 4), (3, 4)}  # one parameter apart, never 1-4
    assert all(0 <= c["p_value"] <= 1 for c in document["comparisons"])
    text = " ".join(
        " ".join(page.extract_text() for page in PdfReader(out / "sweep.pdf").pages).split()
    )
    assert text.startswith("Sweep: small 4 configurations of Idiot, 45 games each")
    assert text.index("Findings") < text.index("Configurations") < text.index("the metrics against")
    assert "Idiot: the metrics against players" in text
    assert "Idiot: the metrics against variants" in text
    assert "Cards left with the loser" in text
    assert "Counters whose names look alike" in text


def test_remote_scheduler_that_does_not_answer(monkeypatch):
    pytest.importorskip("distributed")
    from kraftstokk.sim.sweep import backends

    monkeypatch.setattr(backends, "CONNECT_TIMEOUT", "1s")
    with pytest.raises(SweepError, match=r"tcp://127.0.0.1:9: cannot reach the Dask scheduler"):
        make_backend("tcp://127.0.0.1:9")


@pytest.mark.parametrize(
    ("scheduler", "how"), [("local", "ctrl-c"), ("local:2", "ctrl-c"), ("local", "sigterm")]
)
def test_ctrl_c_stops_cleanly_writes_what_is_done_and_exits_130(folder, scheduler, how):
    # Ctrl-C as a terminal sends it: SIGINT to the whole process group, workers included;
    # SIGTERM as kill sends it: to the sweep's process only.
    import os
    import signal
    import subprocess
    import sys
    import time

    (folder / "long.toml").write_text(
        "games = 100000\nchunk = 20\n[grid]\ndecks = ['deck.json']\ngames = ['idiot']\n",
        encoding="utf-8",
    )
    out = folder / "out"
    # A command started in the background by a shell without job control (as CI may run
    # the suite) inherits SIGINT ignored, and Python keeps it so; a terminal's foreground
    # command, whose Ctrl-C this test is, never has it ignored.
    foreground = (
        "import signal; signal.signal(signal.SIGINT, signal.default_int_handler); "
        "from kraftstokk.cli import main; main()"
    )
    process = subprocess.Popen(
        [sys.executable, "-c", foreground, "sweep",
         str(folder / "long.toml"), "-o", str(out), "-w", "2", "--scheduler", scheduler,
         "--no-report"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=os.environ.copy(),
        start_new_session=True,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 120
        # Game 0's chunk: the outputs count the games from 0 on without a gap, and with
        # two workers the second chunk may be stored first.
        while not list((out / STORE_DIR).rglob("0-20.json")):
            assert process.poll() is None, process.communicate()
            assert time.monotonic() < deadline, "no chunk was stored within two minutes"
            time.sleep(0.05)
        if how == "ctrl-c":
            os.killpg(process.pid, signal.SIGINT)
        else:
            process.send_signal(signal.SIGTERM)
        _, stderr = process.communicate(timeout=120)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 130, stderr
    assert "interrupted after" in stderr and "run the same command again to resume" in stderr
    assert "Traceback" not in stderr and "ERROR" not in stderr  # none from the workers
    document = json.loads((out / "sweep.json").read_text(encoding="utf-8"))
    assert document["complete"] is False and document["run"]["interrupted"] is True
    games = document["configurations"][0]["metrics"]["games"]
    assert 0 < games < 100000 and games % 20 == 0


def test_progress_counts_every_chunk_stored_ones_included(folder):
    calls: list[SweepStatus] = []
    sweep(folder / "sweep.toml", folder / "out", workers=1, report=False, progress=calls.append)
    assert (calls[0].chunks_done, calls[-1].chunks_done) == (0, 20)
    assert {call.chunks_total for call in calls} == {20}
    assert [call.chunks_done for call in calls] == sorted(call.chunks_done for call in calls)
    finished = [call.finished for call in calls if call.finished]
    assert finished == [
        "#1 deck · idiot · 3 players · greedy · no variants",
        "#2 deck · idiot · 3 players · greedy · no_swap",
        "#3 deck · idiot · 4 players · greedy · no variants",
        "#4 deck · idiot · 4 players · greedy · no_swap",
    ]
    assert calls[-1].configurations_done == 4 and calls[-1].eta == 0.0
    # The configurations in play, for a bar each: begun and not done, with their chunks.
    assert calls[0].running == (("#1 deck · idiot · 3 players · greedy · no variants", (0, 5)),)
    for call in calls:
        assert [label for label, _ in call.running[:1]] == ([call.playing] if call.playing else [])
        assert all(done < total == 5 for _, (done, total) in call.running)
    assert calls[-1].running == ()
    calls.clear()
    next(iter((folder / "out" / STORE_DIR).rglob("*.json"))).unlink()
    sweep(folder / "sweep.toml", folder / "out", workers=1, report=False, progress=calls.append)
    assert [(call.chunks_done, call.configurations_done) for call in calls] == [(19, 3), (20, 4)]


def test_the_last_chunks_are_played_in_quarters_and_stored_whole():
    from kraftstokk.sim.sweep.run import split_tail
    from kraftstokk.sim.sweep.work import ChunkTask

    tasks = [
        ChunkTask("k", None, None, None, start, start + 100, 100)  # type: ignore[arg-type]
        for start in range(0, 1000, 100)
    ]
    split = split_tail(tasks, 2)
    assert [(t.start, t.stop) for t in split[:6]] == [(s, s + 100) for s in range(0, 600, 100)]
    assert [(t.start, t.stop) for t in split[6:10]] == [
        (600, 625),
        (625, 650),
        (650, 675),
        (675, 700),
    ]
    assert len(split) == 6 + 4 * 4
    assert split_tail(tasks, 1) == tasks


def test_the_example_builds_both_decks_from_their_specs():
    example = Path(__file__).parent.parent / "sources" / "sweep-example.toml"
    found = plan(parse_sweep(example.read_text(encoding="utf-8"), "x"), example.parent)
    configurations, decks = found.configurations, found.decks
    assert sorted(decks) == ["deck", "deck-head"]
    assert decks["deck-head"].deck.title == "Kraft-stokken: Fallhøyde"
    assert [(c.deck, c.settings.players) for c in configurations] == [
        (deck, players) for deck in ("deck", "deck-head") for players in (3, 4, 5, 6)
    ]
    assert len({c.key for c in configurations}) == 8


def test_a_worker_with_another_version_is_refused(deck):
    from kraftstokk.games.core import DeckTable
    from kraftstokk.sim.sweep.work import ChunkTask, WorkerMismatch, registration, run_chunk

    settings = SimSettings(game="idiot", players=3, games=2, seed=1, bots="greedy")
    task = ChunkTask("k", DeckTable.from_deck(deck), settings, registration("idiot"), 0, 2, 1)
    result = run_chunk(task)
    assert result.games == 2 and [(p.start, p.stop) for p in result.parts] == [(0, 1), (1, 2)]
    with pytest.raises(
        WorkerMismatch, match=r"the worker has kraftstokk .*, the sweep was started with 0\.0\.1"
    ):
        run_chunk(ChunkTask(**{**task.__dict__, "version": "0.0.1"}))


def test_without_the_dask_extra_local_n_says_what_to_install(monkeypatch):
    from kraftstokk.sim.sweep import backends

    def missing(name: str):
        raise ImportError(name)

    monkeypatch.setattr(backends.importlib, "import_module", missing)
    with pytest.raises(
        SweepError, match=r"needs dask and distributed: pip install 'kraftstokk\[dask\]'"
    ):
        make_backend("local:2")


# --------------------------------------------------------- limits, baseline and lock


HUGE = """
title = "too big"
games = 1000
[grid]
decks = [{labels}]
games = ["idiot"]
players = [2, 3, 4, 5]
bots = ["greedy", "random", {heuristics}]
variants = [{variants}]
"""


def huge_sweep(folder: Path) -> Path:
    from itertools import combinations

    flags = ["two_same_player", "no_finish_on_two", "no_swap", "sequences", "sneak_three"]
    sets = [list(c) for size in range(6) for c in combinations(flags, size)]
    text = HUGE.format(
        labels=", ".join(f"{{path = 'deck.json', label = 'd{n}'}}" for n in range(10)),
        heuristics=", ".join(f"'heuristic:burn_pile={n}'" for n in range(1, 7)),
        variants=", ".join(json.dumps(s) for s in sets),
    )
    (folder / "huge.toml").write_text(text, encoding="utf-8")
    return folder / "huge.toml"


def test_a_grid_of_ten_thousand_is_refused_with_its_cost_before_it_is_listed(folder, monkeypatch):
    from kraftstokk.sim.sweep import run as sweep_run

    def never(*args, **kwargs):
        raise AssertionError("the grid was listed and checked before its size")

    monkeypatch.setattr(sweep_run, "expand", never)
    path = huge_sweep(folder)
    result = cli.invoke(app, ["sweep", str(path), "-o", str(folder / "out"), "-w", "2"])
    assert result.exit_code == 1, result.output
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.output
    line = result.stderr
    assert line.startswith(f"kraftstokk: error: {path}: refused, over its limits: ")
    assert "10,240 configurations (--max-configurations 1,000)" in line
    assert "It would play 10,240,000 games, about " in line and " on 2 workers at " in line
    assert " ms a game (measured here); raise the limits named" in line
    assert not (folder / "out").exists()
    # Raising one limit leaves the others, each named.
    raised = cli.invoke(
        app, ["sweep", str(path), "-o", str(folder / "out"), "--max-configurations", "20000"]
    )
    assert raised.exit_code == 1
    assert "configurations (" not in raised.stderr
    assert "comparisons (--max-comparisons 5,000)" in raised.stderr
    assert "to store (--max-stored-mb 2,000)" in raised.stderr


def test_a_sweep_within_its_limits_says_what_it_will_cost_and_logs_each_configuration(folder):
    out = folder / "out"
    result = cli.invoke(app, ["sweep", str(folder / "sweep.toml"), "-o", str(out), "-w", "1"])
    assert result.exit_code == 0, result.output
    lines = result.stderr.splitlines()
    assert lines[0].startswith("sweep: 4 configurations, 180 games to play, about ")
    assert lines[0].endswith(" to store") and "; 4 comparisons; " in lines[0]
    done = [line for line in lines[1:] if " done (" in line]
    assert len(done) == 4  # stderr is not a terminal: a line per finished configuration
    assert done[0].startswith("sweep: #1 deck · idiot · 3 players · greedy · no variants done (")
    assert done[-1].endswith("4/4 configurations, 20/20 chunks, ETA 0.0 s")
    small = cli.invoke(
        app, ["sweep", str(folder / "sweep.toml"), "-o", str(out), "--max-configurations", "3"]
    )
    assert small.exit_code == 1
    assert "4 configurations (--max-configurations 3)" in small.stderr


def test_each_configuration_is_compared_with_its_neighbour_at_the_named_baseline(folder):
    text = SMALL.replace("players = [3, 4]", "players = [3, 4, 5]") + "[baseline]\nplayers = 4\n"
    (folder / "based.toml").write_text(text, encoding="utf-8")
    out = folder / "out"
    files = sweep(folder / "based.toml", out, workers=1, report=False)
    document = json.loads((out / "sweep.json").read_text(encoding="utf-8"))
    assert document["baseline"] == {
        "deck": "deck",
        "players": "4",
        "bots": "greedy",
        "variants": "none",
    }
    pairs = {
        (c["parameter"], c["configuration_a"], c["configuration_b"])
        for c in document["comparisons"]
    }
    # Configurations: 1 (3, none) 2 (3, no_swap) 3 (4, none) 4 (4, no_swap) 5 (5, none)
    # 6 (5, no_swap): along players each against 4 players, along variants against none.
    assert pairs == {
        ("players", 3, 1),
        ("players", 4, 2),
        ("players", 3, 5),
        ("players", 4, 6),
        ("variants", 1, 2),
        ("variants", 3, 4),
        ("variants", 5, 6),
    }
    assert document["comparisons_planned"] == 7 == len(files.results.comparisons)
    assert document["correction"] == "Holm"
    assert document["metrics_compared"] == len(document["comparisons"])
    (folder / "bad.toml").write_text(SMALL + "[baseline]\nplayers = 7\n", encoding="utf-8")
    with pytest.raises(SweepValidationError, match=r"baseline.players 7: no configuration has it"):
        sweep(folder / "bad.toml", out, workers=1, report=False)


def test_a_second_sweep_on_the_same_folder_is_refused_in_one_line(folder):
    from kraftstokk.folderlock import folder_lock

    out = folder / "out"
    with folder_lock(out, "kraftstokk sweep first.toml"):
        result = cli.invoke(app, ["sweep", str(folder / "sweep.toml"), "-o", str(out)])
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1
    assert "another kraftstokk command is writing into this folder (pid " in result.stderr
    assert (
        "kraftstokk sweep first.toml, since " in result.stderr and "another --out" in result.stderr
    )
    assert not (out / STORE_DIR).exists()
    # Once the first has ended, the folder is free again.
    again = cli.invoke(app, ["sweep", str(folder / "sweep.toml"), "-o", str(out), "-w", "1"])
    assert again.exit_code == 0, again.output


def test_the_verdict_on_the_decks_names_them_and_comes_first(deck, folder):
    renamed = deck.model_copy(deep=True)  # other figures on the same suits and values
    renamed.title, renamed.edition = "Stokket", "2026"
    largest = next(card for card in renamed.plant_cards if card.nr.mw == 1)
    largest.mw += 1
    (folder / "stokket.json").write_text(renamed.model_dump_json(), encoding="utf-8")
    reverse = deck.model_copy(deep=True)
    reverse.cards = [*reversed(reverse.plant_cards), *reverse.jokers]
    reverse.title = "Baklengs"
    (folder / "baklengs.json").write_text(reverse.model_dump_json(), encoding="utf-8")
    text = """
games = 40
chunk = 20
[grid]
decks = ["deck.json", "stokket.json", "baklengs.json"]
games = ["idiot", "stromkrig"]
bots = ["greedy"]
"""
    (folder / "decks.toml").write_text(text, encoding="utf-8")
    out = folder / "out"
    files = sweep(folder / "decks.toml", out, workers=1)
    sentences = {(v.game, v.deck_b): v.sentence for v in files.results.verdicts}
    assert sentences[("idiot", "stokket")] == (
        "Stokket (2026) and Kraft-stokken (test) play alike in Idiot (the same games: "
        "Idiot reads only suits and values)."
    )
    assert set(sentences) == {
        (g, d) for g in ("idiot", "stromkrig") for d in ("stokket", "baklengs")
    }
    document = json.loads((out / "sweep.json").read_text(encoding="utf-8"))
    assert document["decks"]["stokket"] == {
        "title": "Stokket",
        "edition": "2026",
        "path": str(folder / "stokket.json"),
    }
    assert {v["verdict"] for v in document["verdicts"]} == set(sentences.values())
    first = " ".join(PdfReader(out / "sweep.pdf").pages[0].extract_text().split())
    assert "stokket = Stokket (2026), " in first and "baklengs = Baklengs (test), " in first
    assert "Verdict on the decks" in first
    assert "Minutes at a table assume 45 s to shuffle and deal;" in first  # the time model
    assert " ".join(sentences[("idiot", "stokket")].split()) in first


def test_a_task_lasts_long_enough_and_leaves_every_worker_several():
    from kraftstokk.sim.sweep.run import MAX_TASK_CHUNKS, task_chunks

    # 1 ms a game, chunks of 500: a 1 s task is 2 chunks.
    assert task_chunks(0.001, 500, 1.0, chunks=400, workers=2) == 2
    # Fast games: as many as balance allows (a quarter of each worker's share).
    assert task_chunks(0.00002, 500, 1.0, chunks=40, workers=2) == 5
    assert task_chunks(0.0, 500, 1.0, chunks=10_000, workers=1) == MAX_TASK_CHUNKS
    assert task_chunks(1.0, 500, 1.0, chunks=400, workers=2) == 1


def test_game_matrices_for_comparisons_stay_within_their_budget(deck, tmp_path):
    from kraftstokk.sim.stream import game_matrix
    from kraftstokk.sim.sweep.run import _Matrices

    store = ChunkStore(tmp_path)
    tally = _played_tally(deck, "idiot", 10)
    store.save("a", 0, 10, tally)
    settings = SimSettings(game="idiot", players=4, games=10, seed=11, bots="")
    matrix = game_matrix(tally, 4, settings.time_model, "idiot")
    kept = _Matrices(store, budget=2 * matrix.values.nbytes)
    for start in (0, 10, 20):
        kept.keep("b", start, matrix)
    assert list(kept.kept) == [("b", 10), ("b", 20)] and kept.bytes == 2 * matrix.values.nbytes
    # One no longer kept is read back from the store, the same.
    back = kept.get("a", 0, 10, settings)
    assert back.columns == matrix.columns and (back.values == matrix.values).all()
    kept.forget("b")
    assert list(kept.kept) == [("a", 0)] and kept.bytes == matrix.values.nbytes
    with pytest.raises(SweepError, match="a stored chunk went missing while the sweep ran"):
        kept.get("c", 0, 10, 4)


def test_a_local_worker_that_dies_or_fails_ends_the_sweep_with_its_reason(folder, monkeypatch):
    import os

    from kraftstokk.sim import runner
    from kraftstokk.sim.sweep import backends

    monkeypatch.setattr(runner, "START_METHOD", "fork")  # the workers run the patched code
    parent = os.getpid()
    real = backends.run_chunk

    def dies(task):
        if os.getpid() != parent:
            os._exit(3)
        return real(task)

    monkeypatch.setattr(backends, "run_chunk", dies)
    with pytest.raises(SweepError, match=r"a worker process ended unexpectedly \(exit code 3\)"):
        sweep(folder / "sweep.toml", folder / "died", workers=2, report=False)

    def fails(task):
        raise SweepError(f"chunk {task.start} of {task.key} failed")

    monkeypatch.setattr(backends, "run_chunk", fails)
    with pytest.raises(SweepError, match=r"chunk \d+ of \w+ failed"):
        sweep(folder / "sweep.toml", folder / "failed", workers=2, report=False)
