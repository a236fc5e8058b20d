"""One writer per folder (issue 33 item 1): every command that writes into a folder holds
its lock, a second one refuses in one line naming the folder and the holder, and files
written together carry one build id that readers check.

The races are real: the writers are separate processes.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kraftstokk.cli import app
from kraftstokk.deck.io import build_id, load_deck_json_file
from kraftstokk.deck.table_read import read_deck_table
from kraftstokk.folderlock import LOCK_NAME, folder_lock
from kraftstokk.models import Deck
from tests.conftest import synthetic_deck

SOURCES = Path(__file__).resolve().parents[1] / "sources"
runner = CliRunner()
#: The CLI in a child process, started as ``kraftstokk ARGS`` (argv[1] is the command).
CLI = "import sys; from kraftstokk.cli import main; main()"


def specs(folder: Path) -> tuple[Path, Path]:
    """The shipped spec and snapshot copied into ``folder``, and a second spec that builds
    another deck (another edition) from them."""
    for name in ("deck.toml", "jrc-2024-01.csv", "jrc-2024-01.provenance.json"):
        shutil.copy(SOURCES / name, folder / name)
    for name in ("plant-places.csv", "plant-places.provenance.json"):
        shutil.copy(SOURCES / name, folder / name)
    other = folder / "other.toml"
    text = (folder / "deck.toml").read_text(encoding="utf-8")
    other.write_text(text.replace('edition = "2024-01"', 'edition = "2026-11"'), encoding="utf-8")
    return folder / "deck.toml", other


def digests(folder: Path) -> dict[str, str]:
    if not folder.exists():
        return {}
    return {
        str(path.relative_to(folder)): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(folder.rglob("*"))
        if path.is_file()
    }


def deck_ids(folder: Path) -> set[str | None]:
    """The build ids deck.json, deck.csv and deck.xlsx in ``folder`` carry."""
    deck = load_deck_json_file(folder / "deck.json")
    assert deck.build == build_id(deck)  # the id is the digest of the deck it names
    tables = [read_deck_table(folder / name) for name in ("deck.csv", "deck.xlsx")]
    return {deck.build, *(table.build for table in tables)}


def start(args: list[str], cwd: Path, code: str = CLI) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-c", code, *args],
        cwd=cwd,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        stdin=subprocess.PIPE,
        text=True,
    )


#: A build that stops inside its lock, just before it writes, until ``go`` exists.
PAUSED_BUILD = """
import sys, time, pathlib
import kraftstokk.deck.io as deck_io
real = deck_io.write_files
def paused(files):
    pathlib.Path("inside").touch()
    while not pathlib.Path("go").exists():
        time.sleep(0.01)
    real(files)
deck_io.write_files = paused
from kraftstokk.cli import main
main()
"""


def wait_for(path: Path, child: subprocess.Popen[str], seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while not path.exists():
        assert child.poll() is None, child.communicate()
        assert time.monotonic() < deadline, f"{path} never appeared"
        time.sleep(0.02)


def test_a_second_build_into_a_folder_another_build_writes_refuses_naming_it(tmp_path: Path):
    spec, other = specs(tmp_path)
    first = start(["build", "--spec", str(spec), "--out", "race"], tmp_path, PAUSED_BUILD)
    try:
        wait_for(tmp_path / "inside", first)
        before = digests(tmp_path / "race")
        second = subprocess.run(
            [sys.executable, "-c", CLI, "build", "--spec", str(other), "--out", "race"],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert second.returncode == 2, second.stdout
        assert second.stderr.count("\n") == 1
        line = second.stderr.strip()
        assert line.startswith("kraftstokk: error: race: another kraftstokk command is writing ")
        assert f"(pid {first.pid}, kraftstokk build --spec {spec} --out race, since " in line
        assert "another --out" in line
        assert digests(tmp_path / "race") == before  # the second wrote nothing
        (tmp_path / "go").touch()
        _, err = first.communicate(timeout=120)
    finally:
        if first.poll() is None:
            first.kill()
    assert first.returncode == 0, err
    assert load_deck_json_file(tmp_path / "race" / "deck.json").edition == "2024-01"
    assert len(deck_ids(tmp_path / "race")) == 1
    assert not (tmp_path / "race" / LOCK_NAME).exists()  # the holder took its lock file along


def test_two_builds_started_at_once_never_leave_a_mixed_folder(tmp_path: Path):
    spec, other = specs(tmp_path)
    for round_ in range(2):
        race = f"race{round_}"
        builds = [
            start(["build", "--spec", str(s), "--out", race], tmp_path) for s in (spec, other)
        ]
        results = [(b.wait(timeout=120), b.communicate()) for b in builds]
        codes = sorted(code for code, _ in results)
        assert codes in ([0, 0], [0, 2]), results
        if codes == [0, 2]:
            refused = next(err for code, (_, err) in results if code == 2)
            assert "another kraftstokk command is writing into this folder (pid " in refused
        ids = deck_ids(tmp_path / race)
        assert len(ids) == 1 and None not in ids


def test_a_reader_refuses_files_of_two_builds_naming_them(tmp_path: Path):
    spec, other = specs(tmp_path)
    for name, which in (("a", spec), ("b", other)):
        result = runner.invoke(app, ["build", "--spec", str(which), "--out", str(tmp_path / name)])
        assert result.exit_code == 0, result.output
    shutil.copy(tmp_path / "b" / "deck.csv", tmp_path / "a" / "deck.csv")  # a mixed set
    before = digests(tmp_path / "a")
    a_build = load_deck_json_file(tmp_path / "a" / "deck.json").build
    b_build = load_deck_json_file(tmp_path / "b" / "deck.json").build
    for command in (["validate"], ["repair"], ["render", "--only", "png", "-o", str(tmp_path)]):
        result = runner.invoke(app, [*command, str(tmp_path / "a" / "deck.csv")])
        assert result.exit_code == 2, result.output
        line = result.stderr.strip()
        assert line.count("\n") == 0
        assert f"deck.csv (build {b_build}) and {tmp_path / 'a' / 'deck.json'} " in line
        assert f"(build {a_build}, edition 2024-01) are not one deck (the same 52 plants)" in line
    assert digests(tmp_path / "a") == before


def test_rows_of_two_builds_in_one_table_are_refused(tmp_path: Path):
    deck = synthetic_deck()
    from kraftstokk.deck.io import write_deck

    write_deck(deck, tmp_path)
    lines = (tmp_path / "deck.csv").read_text(encoding="utf-8-sig").splitlines()
    lines[5] = lines[5].rsplit(",", 1)[0] + ",0123456789ab"
    (tmp_path / "deck.csv").write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = runner.invoke(app, ["validate", str(tmp_path / "deck.csv")])
    assert result.exit_code == 2
    assert "the rows carry 2 build ids (" in result.stderr
    assert "0123456789ab from line 6" in result.stderr


def test_a_table_without_build_ids_reads_with_the_deck_json_of_the_same_plants(tmp_path: Path):
    """A deck.csv written before build ids (no build column) still reads beside its
    deck.json; beside one of other plants it is refused, naming them."""
    from kraftstokk.deck.io import write_deck

    deck = synthetic_deck()
    write_deck(deck, tmp_path)
    text = (tmp_path / "deck.csv").read_text(encoding="utf-8-sig")
    old_style = "\r\n".join(line.rsplit(",", 1)[0] for line in text.splitlines())
    (tmp_path / "deck.csv").write_text(old_style + "\r\n", encoding="utf-8-sig")
    assert runner.invoke(app, ["validate", str(tmp_path / "deck.csv")]).exit_code == 0
    other: Deck = deck.model_copy(deep=True)
    other.cards[0].plant_id = "N999"
    other.cards[0].name = "Ny"
    (tmp_path / "deck.json").write_text(other.model_dump_json(), encoding="utf-8")
    result = runner.invoke(app, ["validate", str(tmp_path / "deck.csv")])
    assert result.exit_code == 2
    assert "deck.csv (no build id) and " in result.stderr
    assert "only in deck.csv: Tonstad (N100); only in deck.json: Ny (N999)" in result.stderr


#: Each writing command, and the folder it writes into (relative to the test's folder).
WRITERS = {
    "build": (["build", "--out", "out"], "out"),
    "repair": (["repair", "deck/deck.csv"], "deck"),
    "render": (["render", "deck/deck.json", "--out", "out"], "out"),
    "booklet": (["booklet", "deck/deck.json", "--out", "out"], "out"),
    "simulate": (["simulate", "-g", "idiot", "deck/deck.json", "-n", "2", "-o", "out"], "out"),
    "sweep": (["sweep", "sweep.toml", "--out", "out"], "out"),
    "places": (["places", "src.csv", "--out", "out/places.csv"], "out"),
    "ingest": (["ingest", "src.csv", "--out", "out/snap.csv"], "out"),
    "fetch": (["fetch", "--url", "http://127.0.0.1:9/", "--out", "out/nve.csv"], "out"),
}


@pytest.mark.parametrize("command", sorted(WRITERS))
def test_every_writing_command_refuses_a_folder_another_process_writes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, command: str
):
    from kraftstokk.deck.io import write_deck

    args, folder = WRITERS[command]
    write_deck(synthetic_deck(), tmp_path / "deck")
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "kept.txt").write_text("the previous output\n", encoding="utf-8")
    holder = start(
        [],
        tmp_path,
        "import sys; from kraftstokk.folderlock import folder_lock\n"
        f"with folder_lock({folder!r}, 'kraftstokk render --out {folder}'):\n"
        "    print('held', flush=True); sys.stdin.read()",
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "held\n"
        before = digests(tmp_path)
        monkeypatch.chdir(tmp_path)
        result = runner.invoke(app, args)
        assert result.exit_code == 2, result.output
        assert result.stderr.count("\n") == 1
        assert result.stderr.startswith(
            f"kraftstokk: error: {folder}: another kraftstokk command is writing into this "
            f"folder (pid {holder.pid}, kraftstokk render --out {folder}, since "
        )
        assert digests(tmp_path) == before
    finally:
        holder.communicate("", timeout=30)
    assert not (tmp_path / folder / LOCK_NAME).exists()


def test_the_lock_goes_with_its_holder_and_a_folder_it_made_for_nothing(tmp_path: Path):
    with folder_lock(tmp_path / "new" / "deeper", "kraftstokk build"):
        assert (tmp_path / "new" / "deeper" / LOCK_NAME).exists()
        note = json.loads((tmp_path / "new" / "deeper" / LOCK_NAME).read_text(encoding="utf-8"))
        assert note["command"] == "kraftstokk build" and note["pid"] > 0
    assert not (tmp_path / "new").exists()  # nothing was written: the folders went too
    out = tmp_path / "x" / "y"
    result = runner.invoke(app, ["build", "--spec", str(tmp_path / "none.toml"), "-o", str(out)])
    assert result.exit_code == 2 and not (tmp_path / "x").exists()
