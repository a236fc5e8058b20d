"""sweep (issue 33 items 10 and 11): the cost probe plays no whole expert game (it stays
within its budget), and a second sweep into a folder leaves nothing of the first that
does not belong to it."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from kraftstokk.cli import app
from kraftstokk.models import Deck
from kraftstokk.sim.sweep import budget

runner = CliRunner()

EXPERT = """
title = "experts"
games = 10
seed = 3
chunk = 5

[grid]
decks = ["deck.json"]
games = ["stromkrig"]
players = [3, 4]
bots = ["expert:playouts=30"]
"""

SWEEP = """
title = "small"
games = 20
seed = 5
chunk = 10

[grid]
decks = ["deck.json"]
games = ["idiot"]
players = {players}
bots = ["greedy"]
"""


@pytest.fixture
def folder(deck: Deck, tmp_path: Path) -> Path:
    (tmp_path / "deck.json").write_text(deck.model_dump_json(indent=1), encoding="utf-8")
    return tmp_path


def test_the_cost_probe_plays_no_whole_expert_game(folder: Path, monkeypatch):
    played: list[tuple[str, int, int]] = []  # bots, action cap, actions played
    real = budget.play_chunk

    def counted(table, settings, game, start, stop):
        tally = real(table, settings, game, start, stop)
        played.append((settings.bots, settings.action_cap, sum(tally.actions)))
        return tally

    monkeypatch.setattr(budget, "play_chunk", counted)
    (folder / "sweep.toml").write_text(EXPERT, encoding="utf-8")
    result = runner.invoke(
        app, ["sweep", str(folder / "sweep.toml"), "-o", str(folder / "out"),
              "--max-configurations", "1"],
    )  # fmt: skip
    assert result.exit_code != 0 and "2 configurations" in result.stderr, result.output
    expert = [entry for entry in played if entry[0].startswith("expert")]
    assert expert, played  # the experts were measured, a few actions at a time
    assert all(cap <= budget.PROBE_ACTIONS for _, cap, _ in expert), expert
    per_kind = budget.FIRST_ACTIONS + budget.PROBE_ACTIONS
    assert sum(actions for *_, actions in expert) <= 2 * per_kind, expert
    stand_ins = [entry for entry in played if not entry[0].startswith("expert")]
    assert stand_ins and all(cap > budget.PROBE_ACTIONS for _, cap, _ in stand_ins)


def test_a_second_sweep_into_a_folder_leaves_nothing_of_the_first(folder: Path):
    out = folder / "out"
    (folder / "sweep.toml").write_text(SWEEP.format(players="[3, 4, 5]"), encoding="utf-8")
    first = runner.invoke(app, ["sweep", str(folder / "sweep.toml"), "-o", str(out), "-w", "1"])
    assert first.exit_code == 0, first.output
    assert len(list((out / "configurations").iterdir())) == 3
    assert (out / "sweep.pdf").exists()
    (folder / "sweep.toml").write_text(SWEEP.format(players="[4]"), encoding="utf-8")
    second = runner.invoke(
        app, ["sweep", str(folder / "sweep.toml"), "-o", str(out), "-w", "1", "--no-report"]
    )
    assert second.exit_code == 0, second.output
    folders = sorted(p.name for p in (out / "configurations").iterdir())
    assert len(folders) == 1 and "4" in folders[0], folders
    assert not (out / "sweep.pdf").exists()  # the first sweep's report is no report of this
