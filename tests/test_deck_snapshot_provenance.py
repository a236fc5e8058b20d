"""A hand-edited snapshot without its provenance file builds, with a warning that says
what the deck's small print will lack."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from kraftstokk.cli import app
from kraftstokk.deck.io import load_deck
from kraftstokk.sources.snapshot import provenance_path
from tests.conftest import synthetic_plants
from tests.test_deck_cli import write_synthetic_snapshot

runner = CliRunner()


def test_a_snapshot_without_provenance_builds_with_a_warning(tmp_path: Path):
    snapshot = write_synthetic_snapshot(tmp_path / "edited.csv", synthetic_plants(60))
    provenance_path(snapshot).unlink()
    spec = tmp_path / "deck.toml"
    spec.write_text('snapshot = "edited.csv"\n', encoding="utf-8")
    result = runner.invoke(app, ["build", "--spec", str(spec), "--out", str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    warning = next(line for line in result.stdout.splitlines() if line.startswith("warning:"))
    assert "no provenance file (edited.provenance.json)" in warning
    assert "small print will lack the data's source, date, licence and attribution" in warning
    assert "no such file" not in result.output
    deck = load_deck(tmp_path / "out" / "deck.json")
    assert deck.snapshot.path.endswith("edited.csv") and deck.snapshot.attribution is None
