"""The skill gradient (sim/skill.py, simulate --skill, sweep --skill): each level in one
seat against heuristic bots on the same games, seat by seat, and the verdict in words."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from kraftstokk.cli.app import app
from kraftstokk.games.core import DeckTable
from kraftstokk.models import Deck
from kraftstokk.sim.runner import SimSettings
from kraftstokk.sim.skill import LevelRate, SkillGradient, seat_spec, side_by_side, skill_gradient
from tests.conftest import synthetic_deck


def gradient(game: str, rates: list[tuple[str, int, int]], deck: str = "deck A", loser=False):
    levels = tuple(LevelRate(level, hits, games, games) for level, hits, games in rates)
    return SkillGradient(game, deck, 4, (), loser, levels)


def test_the_tested_seat_turns_round_a_table_of_heuristic_bots():
    assert seat_spec("expert", 0, 3) == "expert,heuristic,heuristic"
    assert seat_spec("random", 2, 3) == "heuristic,heuristic,random"


def test_each_level_plays_the_same_games_in_every_seat_and_the_weak_one_loses():
    table = DeckTable.from_deck(synthetic_deck())
    settings = SimSettings(game="idiot", players=4, games=1, seed=5, bots="heuristic")
    found = skill_gradient(table, settings, "test deck", games=40, levels=("heuristic", "random"))
    heuristic, random_level = found.levels
    assert found.loser and found.fair == 0.25
    assert heuristic.games == random_level.games == 40  # 10 games in each of the 4 seats
    # A random seat among heuristic bots is the Idiot nearly always: the seat it is
    # measured in is the seat it played.
    assert random_level.rate > 0.8 > 0.4 > heuristic.rate
    assert 0.0 <= heuristic.interval[0] <= heuristic.rate <= heuristic.interval[1] <= 1.0


def test_the_verdict_says_how_far_the_expert_gets_from_the_fair_share():
    luck = gradient("stromkrig", [("expert", 280, 1000), ("heuristic", 250, 1000)])
    assert luck.words() == "mostly luck"
    sentence = luck.sentence()
    assert sentence.startswith("In Strømkrig with deck A, an expert wins 28.0 %")
    assert "against 25.0 % fair share (heuristic 25.0 % in the same seat): mostly luck." in sentence
    # The label is page 1's, from the edge's whole interval: 31 % of 1,000 games is an
    # edge of 13 % to 36 %, which reaches two bands (the estimate, 24 %, would say luck).
    between = gradient("stromkrig", [("expert", 310, 1000)])
    assert between.words() == "between luck and skill"
    both = gradient("kraftidioten", [("expert", 380, 1000)])
    assert both.words() == "skill counts, perhaps most"
    skill = gradient("kraftidioten", [("expert", 700, 1000)])
    assert skill.words() == "mostly skill"
    unclear = gradient("stromkrig", [("expert", 6, 20)])
    assert unclear.words().startswith("no sign of skill")
    idiot = gradient("idiot", [("expert", 100, 1000)], loser=True)
    assert idiot.edge == 0.6 and idiot.words() == "skill counts, perhaps most"
    assert "an expert is the Idiot in 10.0 % of games" in idiot.sentence()


def test_two_decks_side_by_side_say_which_rewards_skill_more():
    a = gradient("stromkrig", [("expert", 450, 1000)], deck="deck A")
    b = gradient("stromkrig", [("expert", 300, 1000)], deck="deck B")
    said = side_by_side([b, a])
    assert said.startswith("In Strømkrig, deck A rewards skill more than deck B:")
    assert "deck A: expert 45.0 % against 25.0 % fair share, mostly skill" in said
    assert "deck B: expert 30.0 % against 25.0 % fair share, between luck and skill" in said
    close = gradient("stromkrig", [("expert", 305, 1000)], deck="deck C")
    assert "reward skill alike" in side_by_side([b, close])
    assert side_by_side([a]) == ""


def test_simulate_skill_writes_the_gradient_of_both_decks_on_the_same_games(tmp_path: Path):
    deck: Deck = synthetic_deck()
    path = tmp_path / "deck.json"
    path.write_text(deck.model_dump_json(), encoding="utf-8")
    other = tmp_path / "other.json"
    other.write_text(synthetic_deck(8).model_dump_json(), encoding="utf-8")
    args = ["simulate", str(path), "--game", "idiot", "--games", "4", "--workers", "1"]
    args += ["--no-report", "--skill", "--skill-games", "4", "--compare", str(other)]
    result = CliRunner().invoke(app, [*args, "--out", str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    data = json.loads((tmp_path / "out" / "sim-idiot-skill.json").read_text(encoding="utf-8"))
    assert [g["measure"] for g in data["gradients"]] == ["loser_rate", "loser_rate"]
    levels = [level["level"] for level in data["gradients"][0]["levels"]]
    assert levels == ["expert", "heuristic", "greedy", "random"]
    assert all(level["games"] == 4 for level in data["gradients"][0]["levels"])
    assert data["compared"].startswith("In Idiot, ")
    assert data["gradients"][0]["sentence"] in result.output
    assert "sim-idiot-skill.json" in result.output


def test_a_sweep_of_two_decks_reports_their_skill_side_by_side(tmp_path: Path):
    (tmp_path / "a.json").write_text(synthetic_deck().model_dump_json(), encoding="utf-8")
    (tmp_path / "b.json").write_text(synthetic_deck(8).model_dump_json(), encoding="utf-8")
    (tmp_path / "sweep.toml").write_text(
        'games = 4\nseed = 1\n[grid]\ndecks = ["a.json", "b.json"]\ngames = ["idiot"]\n'
        'players = [4]\nbots = ["greedy"]\n',
        encoding="utf-8",
    )
    out = tmp_path / "out"
    args = ["sweep", str(tmp_path / "sweep.toml"), "--out", str(out), "--workers", "1"]
    result = CliRunner().invoke(app, [*args, "--no-report", "--skill", "--skill-games", "4"])
    assert result.exit_code == 0, result.output
    data = json.loads((out / "skill.json").read_text(encoding="utf-8"))
    assert [g["deck"] for g in data["gradients"]] == ["a", "b"]
    (line,) = data["compared"]
    assert line.startswith("In Idiot, ") and "a: expert " in line and "; b: expert " in line
    assert line in result.output
