from pathlib import Path

import pytest
from typer.testing import CliRunner

from kraftstokk import __version__
from kraftstokk.atomic import atomic_path, write_text
from kraftstokk.cli import app
from kraftstokk.deck.io import load_deck
from kraftstokk.errors import InputFileError

runner = CliRunner()


def test_version_flag_prints_version():
    result = runner.invoke(app, ["--version"])
    assert result.exit_code == 0
    assert result.stdout.strip() == f"kraftstokk {__version__}"


def test_failed_atomic_write_keeps_previous_content(tmp_path: Path):
    target = tmp_path / "deck.json"
    write_text(target, "old")
    with pytest.raises(RuntimeError), atomic_path(target) as tmp:
        tmp.write_text("half")
        raise RuntimeError("writer crashed")
    assert target.read_text() == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["deck.json"]


@pytest.mark.parametrize(
    ("content", "reason"),
    [("", "empty"), ("{not json", "not valid JSON"), ('{"title": "x"}', "not a deck")],
)
def test_bad_deck_json_names_file_and_reason(tmp_path: Path, content: str, reason: str):
    path = tmp_path / "deck.json"
    path.write_text(content)
    with pytest.raises(InputFileError) as info:
        load_deck(path)
    assert str(path) in str(info.value)
    assert reason in str(info.value)


def test_atomic_write_gives_the_file_the_umask_mode(tmp_path: Path):
    import os

    old = os.umask(0o022)
    try:
        write_text(tmp_path / "out.txt", "x")
    finally:
        os.umask(old)
    assert (tmp_path / "out.txt").stat().st_mode & 0o777 == 0o644
