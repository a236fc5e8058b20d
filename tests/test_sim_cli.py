"""``kraftstokk simulate``: outputs, worker independence, comparison and argument errors."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from pypdf import PdfReader
from typer.testing import CliRunner

from kraftstokk.cli import app
from kraftstokk.games import registry
from kraftstokk.games.core import DeckTable
from kraftstokk.models import Deck
from kraftstokk.sim import runner as sim_runner
from kraftstokk.sim.metrics import TIMING_KEYS, strip_timing
from tests.conftest import synthetic_deck
from tests.test_sim_toy import TOY_SPEC

cli = CliRunner()
TABLE = DeckTable.from_deck(synthetic_deck())
TOY = ["--game", "toy", "--players", "3", "--bots", "greedy,random,random"]


@pytest.fixture(autouse=True)
def toy(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(registry.REGISTERED, "toy", TOY_SPEC)


@pytest.fixture
def deck_file(deck: Deck, tmp_path: Path) -> Path:
    path = tmp_path / "deck.json"
    path.write_text(deck.model_dump_json(indent=1), encoding="utf-8")
    return path


def simulate(*args: str | Path):
    return cli.invoke(app, ["simulate", *map(str, args)])


def test_writes_json_and_report(deck_file, tmp_path):
    out = tmp_path / "out"
    result = simulate(deck_file, *TOY, "--games", "30", "--seed", "4", "--out", out, "-w", "1")
    assert result.exit_code == 0, result.output
    assert "30 games of toy, 0 unfinished" in result.stdout
    assert f"wrote {out / 'sim-toy.json'}" in result.stdout
    assert f"wrote {out / 'sim-toy.pdf'}" in result.stdout
    summary = json.loads((out / "sim-toy.json").read_text(encoding="utf-8"))
    for key in (
        "game", "players", "bots", "seed", "games", "finished", "unfinished",
        "games_per_second", "actions", "win_rate_by_seat", "loser_rate_by_seat",
    ):  # fmt: skip
        assert key in summary
    assert summary["bots"] == ["greedy", "random", "random"]
    assert set(summary["actions"]) == {"mean", "median", "p95", "max"}
    assert len(summary["win_rate_by_seat"]) == 3
    assert (out / "sim-toy.pdf").read_bytes().startswith(b"%PDF")
    assert sorted(p.name for p in out.iterdir()) == ["sim-toy.json", "sim-toy.pdf"]


def test_default_bot_is_greedy_for_a_game_without_heuristic(deck_file, tmp_path):
    result = simulate(
        deck_file, "--game", "toy", "-p", "2", "-n", "2", "--out", tmp_path, "-w", "1"
    )
    assert result.exit_code == 0, result.output
    summary = json.loads((tmp_path / "sim-toy.json").read_text(encoding="utf-8"))
    assert summary["bots"] == ["greedy", "greedy"]


def test_same_json_and_report_for_one_and_two_workers(deck_file, tmp_path):
    runs, reports = [], []
    for workers in ("1", "2"):
        out = tmp_path / f"w{workers}"
        result = simulate(deck_file, *TOY, "--games", "50", "--out", out, "--workers", workers)
        assert result.exit_code == 0, result.output
        runs.append(json.loads((out / "sim-toy.json").read_text(encoding="utf-8")))
        reports.append((out / "sim-toy.pdf").read_bytes())
    one, two = runs
    assert (one["workers"], two["workers"]) == (1, 2)
    assert strip_timing(one) == strip_timing(two)
    assert set(one) - set(strip_timing(one)) == set(TIMING_KEYS)
    # The report shows no timings, so it is byte-identical too.
    assert reports[0] == reports[1]


def test_no_report_writes_only_the_json(deck_file, tmp_path):
    result = simulate(deck_file, *TOY, "--games", "5", "--out", tmp_path, "--no-report", "-w", "1")
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["deck.json", "sim-toy.json"]


def test_compare_plays_both_decks_on_the_same_seeds(deck, deck_file, tmp_path):
    # The same cards in reverse order: the toy game deals the first 12 plant cards, now
    # values 2-4 instead of aces and court cards, so nothing burns.
    reverse = deck.model_copy(deep=True)
    reverse.cards = [*reversed(reverse.plant_cards), *reverse.jokers]
    reverse.title = "Stokket"
    other = tmp_path / "reverse.json"
    other.write_text(reverse.model_dump_json(), encoding="utf-8")
    out = tmp_path / "out"
    result = simulate(deck_file, *TOY, "--games", "40", "--compare", other, "--out", out, "-w", "2")
    assert result.exit_code == 0, result.output
    assert "B - A" in result.stdout
    burns = next(ln for ln in result.stdout.splitlines() if ln.startswith("burns_per_game"))
    assert burns.endswith("*")
    document = json.loads((out / "sim-toy-compare.json").read_text(encoding="utf-8"))
    assert document["deck_a"]["path"] == str(deck_file)
    assert document["deck_b"]["path"] == str(other)
    metrics = {item["metric"]: item for item in document["metrics"]}
    assert metrics["burns_per_game"]["b"] == 0
    assert metrics["burns_per_game"]["significant"] is True
    low, high = metrics["actions_per_game"]["ci95"]
    assert low <= metrics["actions_per_game"]["difference"] <= high
    report = PdfReader(out / "sim-toy.pdf")
    assert "Deck comparison" in " ".join(page.extract_text() for page in report.pages)
    # One correction over every metric, named; the verdict names both decks.
    assert (document["correction"], document["metrics_compared"]) == ("Holm", len(metrics))
    assert document["verdict"] in result.stdout.splitlines()
    assert document["verdict"].startswith("In toy, Stokket (test) has 3.9 fewer burns per game ")
    assert " than Kraft-stokken (test) (95 % interval " in document["verdict"]
    assert not document["same_games"] and document["identical_games"] < 40
    # Deck A's own summary is what simulate writes for it alone, timings aside.
    alone = tmp_path / "alone"
    assert simulate(deck_file, *TOY, "--games", "40", "--out", alone, "-w", "1").exit_code == 0
    own = json.loads((alone / "sim-toy.json").read_text(encoding="utf-8"))
    compared = json.loads((out / "sim-toy.json").read_text(encoding="utf-8"))
    assert strip_timing(own) == strip_timing(compared)


def test_idiot_decks_with_other_plants_play_the_same_games(tmp_path):
    from kraftstokk.deck.build import build_from_spec_file

    sources = Path(__file__).resolve().parents[1] / "sources"
    paths = []
    for spec in ("deck.toml", "deck-head.toml"):
        deck = build_from_spec_file(sources / spec).deck
        paths.append(tmp_path / spec.replace(".toml", ".json"))
        paths[-1].write_text(deck.model_dump_json(), encoding="utf-8")
    out = tmp_path / "out"
    args = ("--game", "idiot", "-n", "60", "--bots", "greedy", "-w", "2", "--no-report")
    result = simulate(paths[0], *args, "--compare", paths[1], "--out", out)
    assert result.exit_code == 0, result.output
    assert (
        "Kraft-stokken: Fallhøyde (2024-01-fallhoyde) and Kraft-stokken (2024-01) play alike "
        "in Idiot (the same games: Idiot reads only suits and values)."
    ) in result.stdout.splitlines()
    document = json.loads((out / "sim-idiot-compare.json").read_text(encoding="utf-8"))
    assert document["same_games"] and document["identical_games"] == 60
    assert all(item["ci95"] == [0.0, 0.0] for item in document["metrics"])


@pytest.mark.parametrize(
    ("args", "code", "message"),
    [
        (["--game", "chess"], 2, "unknown game 'chess' (choose from idiot, "),
        ([*TOY[:2], "--players", "9"], 2, "toy is for 2-4 players, not 9"),
        ([*TOY, "--games", "0"], 2, "--games 0: must be a whole number, at least 1"),
        ([*TOY, "--workers", "0"], 2, "--workers 0: must be a whole number, at least 1"),
        (
            [*TOY, "--seed", str(2**63)],
            2,
            "--seed 9223372036854775808: must be a whole number that fits 64 bits "
            "(-9223372036854775808 to 9223372036854775807)",
        ),
        ([*TOY[:4], "--bots", "greedy,wizard,random"], 2, "toy has no bot 'wizard'"),
        ([*TOY, "--variants", "turbo"], 2, "toy has no variant turbo"),
    ],
)
def test_bad_arguments_exit_with_one_line(deck_file, tmp_path, args, code, message):
    result = simulate(deck_file, *args, "--out", tmp_path / "out")
    assert result.exit_code == code
    assert result.stderr.count("\n") == 1
    assert result.stderr.startswith("kraftstokk: error: ")
    assert message in result.stderr
    assert not (tmp_path / "out").exists()


def test_missing_deck_names_the_file(tmp_path):
    missing = tmp_path / "nope.json"
    result = simulate(missing, *TOY, "--out", tmp_path)
    assert result.exit_code == 2
    assert result.stderr == f"kraftstokk: error: {missing}: no such file\n"


def test_deck_that_fails_validation_exits_1(deck, tmp_path):
    broken = deck.model_copy(deep=True)
    broken.cards[0].nr.mw = broken.cards[1].nr.mw  # a duplicate nr.
    path = tmp_path / "broken.json"
    path.write_text(broken.model_dump_json(), encoding="utf-8")
    result = simulate(path, *TOY, "--out", tmp_path / "out")
    assert result.exit_code == 1
    assert result.stderr.splitlines()[-1].startswith(f"kraftstokk: error: {path}: ")
    assert "problem" in result.stderr.splitlines()[-1]
    assert not (tmp_path / "out").exists()


def test_ctrl_c_before_any_game_writes_nothing(deck_file, tmp_path, monkeypatch):
    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(sim_runner, "play_chunk", interrupted)
    result = simulate(deck_file, *TOY, "--games", "10", "--out", tmp_path / "out", "-w", "1")
    assert result.exit_code == 130
    assert result.stderr == "kraftstokk: error: interrupted after 0 of 10 games; nothing written\n"
    assert result.stdout == ""
    assert not (tmp_path / "out").exists()


def test_ctrl_c_writes_the_games_played_and_exits_130(deck_file, tmp_path, monkeypatch):
    real = sim_runner.play_chunk
    calls = []

    def interrupted_second_chunk(*args, **kwargs):
        calls.append(args)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return real(*args, **kwargs)

    monkeypatch.setattr(sim_runner, "play_chunk", interrupted_second_chunk)
    out = tmp_path / "out"
    result = simulate(deck_file, *TOY, "--games", "100", "--out", out, "-w", "1", "--no-report")
    assert result.exit_code == 130
    played = sim_runner.chunk_bounds(100, 1)[0][1]
    assert f"interrupted after {played} of 100 games" in result.stderr
    summary = json.loads((out / "sim-toy.json").read_text(encoding="utf-8"))
    assert summary["interrupted"] is True
    assert (summary["games"], summary["games_requested"]) == (played, 100)


@pytest.mark.inventory
@pytest.mark.parametrize("game", registry.game_names())
def test_real_games_run_with_their_counters(deck_file, tmp_path, game):
    spec = registry.get_spec(game)
    players = min(4, spec.max_players)
    out = tmp_path / "out"
    args = ("--game", game, "-p", str(players), "--games", "8", "--action-cap", "800")
    result = simulate(deck_file, *args, "--out", out, "-w", "2")
    assert result.exit_code == 0, result.output
    summary = json.loads((out / f"sim-{game}.json").read_text(encoding="utf-8"))
    assert summary["games"] == 8
    assert summary["bots"] == [spec.default_bot] * players  # the default
    assert set(summary["counters"]) <= set(spec.counter_names())
    assert any(counter["total"] > 0 for counter in summary["counters"].values())
    state = spec.game_class()(TABLE, players).new_initial_state(random.Random(1))
    assert len(summary["cards"]) == len(state.cards_in_play())  # Idiot's leave the jokers out
    assert sum(card["played"] for card in summary["cards"].values()) > 0


def test_findings_in_the_json_at_the_confidence_asked(deck_file, tmp_path):
    out = tmp_path / "out"
    args = [deck_file, *TOY, "--games", "40", "-w", "1", "--no-report", "--out", out]
    result = simulate(*args, "--confidence", "0.99")
    assert result.exit_code == 0, result.output
    summary = json.loads((out / "sim-toy.json").read_text(encoding="utf-8"))
    assert summary["confidence"] == 0.99
    for finding in summary["findings"]:
        assert {"kind", "title", "says", "advice", "figures"} == set(finding)
    bad = simulate(*args, "--confidence", "1.5")
    assert bad.exit_code == 2
    assert "--confidence 1.5: must be a finite number, more than 0.5 and less than 1" in bad.stderr


def test_ctrl_c_in_a_comparison_keeps_both_decks_games_and_their_comparison(
    deck_file, tmp_path, monkeypatch
):
    real = sim_runner.play_chunk
    calls = []

    def interrupted_second_chunk(*args, **kwargs):
        calls.append(args)
        if len(calls) == 3:  # the first chunk played with both decks, then Ctrl-C
            raise KeyboardInterrupt
        return real(*args, **kwargs)

    monkeypatch.setattr(sim_runner, "play_chunk", interrupted_second_chunk)
    out = tmp_path / "out"
    args = ("--games", "100", "--out", out, "-w", "1", "--compare", deck_file)
    result = simulate(deck_file, *TOY, *args)
    assert result.exit_code == 130
    played = sim_runner.chunk_bounds(100, 1)[0][1]
    assert result.stderr == (
        f"kraftstokk: error: interrupted after {played} of 100 games; {out / 'sim-toy.json'} "
        f"and {out / 'sim-toy-compare.json'} hold the games played\n"
    )
    document = json.loads((out / "sim-toy-compare.json").read_text(encoding="utf-8"))
    assert document["interrupted"] is True and document["games"] == played
    assert document["same_games"] is True  # the deck against itself


def test_page_one_answers_six_questions_and_the_html_is_self_contained(deck_file, tmp_path):
    out = tmp_path / "out"
    result = simulate(deck_file, *TOY, "-n", "40", "--out", out, "-w", "1", "--html")
    assert result.exit_code == 0, result.output
    summary = json.loads((out / "sim-toy.json").read_text(encoding="utf-8"))
    answers = summary["answers"]
    assert [a["question"] for a in answers] == [
        "fair", "duration", "choice", "skill", "drama", "broken",
    ]  # fmt: skip
    first = " ".join(PdfReader(out / "sim-toy.pdf").pages[0].extract_text().split())
    # Page 1 says whether the game is fair and fun and what to change, answers the six
    # questions and holds the chart (its last row's scale).
    verdict = summary["overall"]
    assert first.index("Fair and fun?") < first.index("What to change") < first.index("Six")
    assert verdict["fair"][:40] in first and verdict["fun"][:40] in first
    for change in verdict["changes"][:3]:
        assert change["title"] in first
    assert "share of games stopped by the action cap" in first
    for answer in answers:
        assert answer["title"] in first
        assert " ".join(answer["sentence"].split())[:60] in first
    html = (out / "sim-toy.html").read_text(encoding="utf-8")
    assert html.startswith("<!DOCTYPE html>") and html.count("<svg") >= 3
    assert "Six answers" in html and answers[0]["title"] in html
    assert "<h2>Fair and fun?</h2>" in html and "<h3>What to change</h3>" in html
    # Nothing is fetched: no script, no external stylesheet, image or font.
    assert "<script" not in html and "<link" not in html and "<img" not in html
    assert "http://" not in html.replace("http://www.w3.org/", "")
    assert "https://" not in html
    again = out / "again"
    simulate(deck_file, *TOY, "-n", "40", "--out", again, "-w", "2", "--html")
    assert (again / "sim-toy.html").read_bytes() == (out / "sim-toy.html").read_bytes()


def test_pace_changes_the_minutes_and_a_bad_pace_is_refused(deck_file, tmp_path):
    slow, fast = tmp_path / "slow", tmp_path / "fast"
    assert simulate(deck_file, *TOY, "-n", "20", "--out", slow, "--pace", "deal=600").exit_code == 0
    assert simulate(deck_file, *TOY, "-n", "20", "--out", fast, "--pace", "deal=0").exit_code == 0

    def minutes(folder: Path) -> float:
        summary = json.loads((folder / "sim-toy.json").read_text(encoding="utf-8"))
        assert summary["pace"]["seconds"]["deal"] in (0.0, 600.0)
        return float(summary["playability"]["duration"]["minutes"]["value"])

    assert minutes(slow) - minutes(fast) == pytest.approx(10.0)
    result = simulate(deck_file, *TOY, "-n", "5", "--out", tmp_path / "x", "--pace", "nap=5")
    assert result.exit_code == 2
    assert "--pace: no pace nap (the paces: deal, card, choice" in result.stderr
    assert not (tmp_path / "x").exists()


def test_an_unfinished_game_is_written_to_replay_move_by_move(deck_file, tmp_path):
    out = tmp_path / "out"
    result = simulate(
        deck_file, "--game", "idiot", "-n", "4", "--action-cap", "20", "--out", out, "-w", "1"
    )
    assert result.exit_code == 0, result.output
    log = out / "sim-idiot-unfinished.json"
    command = f"kraftstokk play --load {log} --replay"
    assert command in result.stdout
    summary = json.loads((out / "sim-idiot.json").read_text(encoding="utf-8"))
    assert summary["example_replay"]["command"] == command
    broken = summary["answers"][-1]
    assert broken["label"] == "broken" and broken["sentence"].endswith(command)
    told = cli.invoke(app, ["play", "--load", str(log), "--replay"])
    assert told.exit_code == 0, told.output
    assert len(told.stdout.splitlines()) > 20
