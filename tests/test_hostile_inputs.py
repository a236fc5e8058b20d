"""Hostile and faulty input for every command: one line and an exit code, never a traceback,
a hang, a memory blow-up, a wrong figure or a lost deck (issue 17, one test per break)."""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import threading
import time
import zipfile
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kraftstokk.cli import app
from kraftstokk.deck.io import write_deck
from kraftstokk.design.fit import FitRules, fit_name
from kraftstokk.design.fonts import text_width
from kraftstokk.design.geometry import mm
from kraftstokk.design.layout import load_layout
from kraftstokk.models import Deck
from kraftstokk.sources.ingest import ingest_files
from kraftstokk.sources.snapshot import provenance_path, read_snapshot
from tests.conftest import synthetic_deck, synthetic_plants
from tests.test_deck_cli import write_synthetic_snapshot

runner = CliRunner()
NVE_HEADER = "VannKraftverkID;Navn;MaksYtelse;MidProd_91_20;BruttoFallhoyde_M\n"


def one_error_line(result, code: int, *parts: str) -> str:
    """The command exited ``code`` with one error line holding every part; no traceback."""
    assert result.exit_code == code, result.output
    assert "Traceback" not in result.output
    assert not isinstance(result.exception, Exception) or isinstance(
        result.exception, SystemExit
    ), result.exception
    lines = [line for line in result.stderr.splitlines() if line.startswith("kraftstokk: error:")]
    assert len(lines) == 1, result.stderr
    for part in parts:
        assert part in lines[0], lines[0]
    return lines[0]


def ingest(*args: str | Path):
    return runner.invoke(app, ["ingest", *map(str, args)])


def write_json(path: Path, data: object) -> Path:
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def nve_json(tmp_path: Path, records: list[dict[str, object]]) -> Path:
    return write_json(tmp_path / "nve.json", records)


def plant_record(plant_id: int, name: object = "Tonstad", **figures: object) -> dict[str, object]:
    record: dict[str, object] = {
        "VannKraftverkID": plant_id,
        "Navn": name,
        "MaksYtelse": 960.0,
        "MidProd_91_20": 3800.5,
        "BruttoFallhoyde_M": 442.0,
    }
    record.update(figures)
    return record


# --- files that are not files, or too large --------------------------------------------


def rescue_fifo_reader(fifo: Path) -> None:
    """After a few seconds, give a reader stuck on ``fifo`` one line and end of file, so a
    regression fails its test instead of hanging the suite."""

    def rescue() -> None:
        for _ in range(30):
            time.sleep(2)
            with contextlib.suppress(OSError):  # nobody is reading: the FIFO was refused
                fd = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
                os.write(fd, b"id,name\n")
                os.close(fd)

    threading.Thread(target=rescue, daemon=True).start()


def test_a_fifo_is_refused_at_once_not_waited_on(tmp_path: Path):
    fifo = tmp_path / "plants.csv"
    os.mkfifo(fifo)
    rescue_fifo_reader(fifo)
    one_error_line(ingest(fifo, "--out", tmp_path / "s.csv"), 2, "a named pipe (FIFO)")


def test_a_device_is_never_read(tmp_path: Path):
    one_error_line(ingest("/dev/zero", "--out", tmp_path / "s.csv"), 2, "a character device")
    assert not (tmp_path / "s.csv").exists()


def test_a_file_beyond_the_size_limit_is_refused_before_reading(tmp_path: Path):
    big = tmp_path / "huge.json"
    with big.open("wb") as handle:
        handle.truncate(200 * 1024 * 1024)  # sparse: 200 MB of nothing
    one_error_line(ingest(big, "--out", tmp_path / "s.csv"), 2, "too large (200 MB")


def test_diff_never_waits_on_a_fifo(tmp_path: Path):
    write_deck(synthetic_deck(), tmp_path)
    fifo = tmp_path / "other.csv"
    os.mkfifo(fifo)
    rescue_fifo_reader(fifo)
    result = runner.invoke(app, ["diff", str(tmp_path / "deck.json"), str(fifo)])
    one_error_line(result, 2, "a named pipe (FIFO)", "only files are read")


def test_simulate_refuses_to_write_over_its_deck(tmp_path: Path):
    write_deck(synthetic_deck(), tmp_path)
    deck = tmp_path / "sim-idiot.json"
    deck.write_bytes((tmp_path / "deck.json").read_bytes())
    before = deck.read_bytes()
    args = ["simulate", str(deck), "-g", "idiot", "-n", "2", "-w", "1", "--no-report"]
    result = runner.invoke(app, [*args, "-o", str(tmp_path)])
    one_error_line(result, 2, "would overwrite the input")
    assert deck.read_bytes() == before


def test_a_spec_whose_snapshot_is_a_device_is_refused(tmp_path: Path):
    spec = tmp_path / "deck.toml"
    spec.write_text('snapshot = "/dev/zero"\n', encoding="utf-8")
    result = runner.invoke(app, ["build", "--spec", str(spec), "--out", str(tmp_path / "o")])
    one_error_line(result, 2, "/dev/zero", "a character device")


def test_a_workbook_that_unpacks_to_hundreds_of_mb_is_refused(tmp_path: Path):
    path = tmp_path / "nve.xlsx"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        archive.writestr("[Content_Types].xml", "<Types/>")
        archive.writestr("xl/worksheets/sheet1.xml", b" " * (300 * 1024 * 1024))
    assert path.stat().st_size < 2 * 1024 * 1024
    one_error_line(ingest(path, "--out", tmp_path / "s.csv"), 2, "workbook too large")


# --- nesting ----------------------------------------------------------------------------


def test_a_spec_nested_100000_deep_is_one_line(tmp_path: Path):
    spec = tmp_path / "deck.toml"
    spec.write_text("title = " + "[" * 100_000 + "]" * 100_000 + "\n", encoding="utf-8")
    result = runner.invoke(app, ["build", "--spec", str(spec), "--out", str(tmp_path / "o")])
    one_error_line(result, 2, "nested too deeply")


def test_a_save_nested_100000_deep_is_one_line(tmp_path: Path):
    save = tmp_path / "game.json"
    save.write_text(
        '{"format": "kraftstokk-replay", "deck": ' + "[" * 100_000 + "]" * 100_000 + "}"
    )
    one_error_line(runner.invoke(app, ["play", "--load", str(save)]), 2, "nested too deeply")


# --- encodings and numbers --------------------------------------------------------------


def test_mixed_encodings_are_refused_with_the_lines(tmp_path: Path):
    path = tmp_path / "nve.csv"
    good = "".join(f"{i};Sønnå {i};10;40;300\n" for i in range(1, 4)).encode("utf-8")
    bad = "".join(f"{i};Sønnå {i};10;40;300\n" for i in range(4, 54)).encode("cp1252")
    path.write_bytes(NVE_HEADER.encode() + good + bad)
    result = ingest(path, "--out", tmp_path / "s.csv")
    one_error_line(result, 2, "mixed text encodings: line 2 is UTF-8 but line 5 is not")
    assert not (tmp_path / "s.csv").exists()


def test_a_windows_1252_file_throughout_is_still_read(tmp_path: Path):
    path = tmp_path / "nve.csv"
    path.write_bytes((NVE_HEADER + "1;Sønnå;10;40;300\n").encode("cp1252"))
    snapshot = ingest_files([path])
    assert [plant.name for plant in snapshot.plants] == ["Sønnå"]


def test_nve_figures_are_decimal_comma_numbers(tmp_path: Path):
    path = nve_json(
        tmp_path,
        [plant_record(1, "A", MaksYtelse="3,960"), plant_record(2, "B", MaksYtelse="12,5")],
    )
    snapshot = ingest_files([path])
    assert [plant.mw for plant in snapshot.plants] == [3.96, 12.5]


def test_an_ambiguous_figure_is_dropped_not_guessed(tmp_path: Path):
    path = nve_json(tmp_path, [plant_record(1, "A", MaksYtelse="3.960"), plant_record(2, "B")])
    snapshot = ingest_files([path])
    assert [plant.id for plant in snapshot.plants] == ["2"]
    (reason,) = snapshot.provenance.quality.dropped
    assert reason.startswith("mw ambiguous")


def test_a_null_name_is_a_dropped_record_like_an_empty_one(tmp_path: Path):
    records = [plant_record(1, None), plant_record(2, ""), plant_record(3, "Tonstad")]
    snapshot = ingest_files([nve_json(tmp_path, records)])
    assert [plant.id for plant in snapshot.plants] == ["3"]
    assert snapshot.provenance.quality.dropped == {"name missing": 2}


@pytest.mark.parametrize("figure", [1e308, 1e-300, 99_999])
def test_figures_beyond_any_plant_are_dropped_on_ingest(tmp_path: Path, figure: float):
    path = nve_json(tmp_path, [plant_record(1, "A", MaksYtelse=figure), plant_record(2, "B")])
    snapshot = ingest_files([path])
    assert [plant.id for plant in snapshot.plants] == ["2"]
    assert snapshot.provenance.quality.dropped == {"mw out of range (0.05 to 25000)": 1}


def test_a_figure_beyond_any_plant_in_a_csv_is_dropped(tmp_path: Path):
    path = tmp_path / "nve.csv"
    path.write_text(NVE_HEADER + "1;A;99999;40;300\n2;B;10;40;300\n", encoding="utf-8")
    assert [plant.id for plant in ingest_files([path]).plants] == ["2"]


@pytest.mark.parametrize("value", ["nan", "inf", "-1", "1e400"])
def test_min_figures_must_be_finite(tmp_path: Path, value: str):
    source = tmp_path / "nve.csv"
    source.write_text(NVE_HEADER + "1;A;10;40;300\n", encoding="utf-8")
    result = ingest(source, "--min-mw", value, "--out", tmp_path / "s.csv")
    one_error_line(result, 2, f"--min-mw {value}:")
    assert not (tmp_path / "s.csv").exists()


def test_ingest_refuses_to_overwrite_its_input(tmp_path: Path):
    source = tmp_path / "nve.csv"
    source.write_text(NVE_HEADER + "1;A;10;40;300\n", encoding="utf-8")
    before = source.read_bytes()
    one_error_line(ingest(source, "--out", source), 2, "would overwrite the input")
    assert source.read_bytes() == before
    sneaky = tmp_path / "x.provenance.json"
    sneaky.write_text(NVE_HEADER + "1;A;10;40;300\n", encoding="utf-8")
    one_error_line(ingest(sneaky, "--format", "nve-csv", "--out", tmp_path / "x.csv"), 2)


def test_a_spec_with_sixty_thousand_unknown_keys_gives_a_short_line(tmp_path: Path):
    spec = tmp_path / "deck.toml"
    spec.write_text("".join(f"k{i} = 1\n" for i in range(60_000)), encoding="utf-8")
    result = runner.invoke(app, ["build", "--spec", str(spec), "--out", str(tmp_path / "o")])
    line = one_error_line(result, 2, "k0: unknown key", "and 59995 more")
    assert len(line) < 400


# --- decks that validate must render; what cannot render must not validate --------------


def deck_with(tmp_path: Path, **changes: object) -> Path:
    deck = synthetic_deck()
    card = deck.plant_cards[0]
    for key, value in changes.items():
        if key in ("title", "edition"):
            setattr(deck, key, value)
        else:
            setattr(card, key, value)
    path = tmp_path / "deck.json"
    path.write_text(json.dumps(deck.model_dump(mode="json")), encoding="utf-8")
    return path


@pytest.mark.parametrize("figure", [1e308, 1e-300, 30_000.0])
def test_a_figure_no_plant_has_fails_validation_and_render_says_so(tmp_path: Path, figure):
    path = deck_with(tmp_path, mw=figure)
    result = runner.invoke(app, ["validate", str(path)])
    assert result.exit_code == 1 and "outside what any plant has" in result.stdout
    rendered = runner.invoke(app, ["render", str(path), "--out", str(tmp_path / "o")])
    assert rendered.exit_code == 1 and "Traceback" not in rendered.output
    assert not (tmp_path / "o").exists()


def test_a_long_title_fails_validation(tmp_path: Path):
    result = runner.invoke(app, ["validate", str(deck_with(tmp_path, title="Kraft" * 48))])
    assert result.exit_code == 1
    assert "title: the title is too long to print" in result.stdout


def test_a_title_that_overruns_the_small_print_line_fails_validation(tmp_path: Path):
    path = deck_with(
        tmp_path, title="Kraft-stokken for hele Norge og Svalbard", edition="2026 utgave B"
    )
    result = runner.invoke(app, ["validate", str(path)])
    assert result.exit_code == 1
    assert "does not fit the small print line" in result.stdout


def test_a_megabyte_title_is_refused_quickly(tmp_path: Path):
    path = deck_with(tmp_path, title="K" * 1_000_000)
    result = runner.invoke(app, ["render", str(path), "--out", str(tmp_path / "o")])
    assert result.exit_code == 1 and "1000000 characters" in result.stderr
    assert len(result.stderr) < 5000


def test_a_99_kb_name_is_refused_before_it_is_fitted(tmp_path: Path):
    path = deck_with(tmp_path, name="Kraft stasjon " * 7000)
    result = runner.invoke(app, ["validate", str(path)])
    assert result.exit_code == 1
    assert "characters (at most 120)" in result.stdout
    assert max(len(line) for line in result.stdout.splitlines()) < 1000


def test_the_fit_message_agrees_with_the_rule():
    layout = load_layout("poker")
    rules = FitRules.of(layout)
    box = rules.box_w
    name = next(
        "Ø" * n
        for n in range(5, 60)
        if text_width("Ø" * n, rules.font, rules.min_size) < box
        and text_width("Ø" * n, rules.font, rules.one_line_min) > box
    )
    fit = fit_name(name, layout)
    assert not fit.fits
    assert f"{rules.one_line_min:g} pt" in fit.reason
    width = float(fit.reason.split("where it is ")[1].split(" mm")[0])
    assert width > box / mm(1)


def test_control_characters_in_names_never_reach_the_terminal(tmp_path: Path):
    # (click already drops ANSI escape sequences when the output is not a terminal)
    path = deck_with(tmp_path, name="Ton\x07stad\x08\x7f\u202e")
    result = runner.invoke(app, ["validate", str(path)])
    assert result.exit_code == 1
    for raw in ("\x07", "\x08", "\x7f", "\u202e"):
        assert raw not in result.output
    assert "Ton\\x07stad\\x08\\x7f\\u202e" in result.stdout


# --- a failing build writes nothing; the snapshot's files are one unit ---------------------


def test_a_failing_build_leaves_the_previous_deck(tmp_path: Path):
    write_synthetic_snapshot(tmp_path / "plants.csv", synthetic_plants(60))
    spec = tmp_path / "deck.toml"
    spec.write_text('snapshot = "plants.csv"\n', encoding="utf-8")
    out = tmp_path / "o"
    assert runner.invoke(app, ["build", "--spec", str(spec), "--out", str(out)]).exit_code == 0
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    plant = max(synthetic_plants(60), key=lambda p: p.gwh)
    for name, code in (("x" * 10_000, 2), ("Storeskjærsvatnkraftstasjonsanlegget" * 2, 1)):
        spec.write_text(f'snapshot = "plants.csv"\n[names]\n{plant.id} = "{name}"\n', "utf-8")
        result = runner.invoke(app, ["build", "--spec", str(spec), "--out", str(out)])
        assert result.exit_code == code, result.output
        assert "Traceback" not in result.output
        assert {p.name: p.read_bytes() for p in out.iterdir()} == before
    assert "nothing written" in result.stderr


def test_a_snapshot_csv_from_another_run_is_refused(tmp_path: Path):
    first, second = tmp_path / "a" / "plants.csv", tmp_path / "b" / "plants.csv"
    write_synthetic_snapshot(first, synthetic_plants(60))
    write_synthetic_snapshot(second, synthetic_plants(70))
    first.write_bytes(second.read_bytes())  # a run killed between renames
    spec = tmp_path / "a" / "deck.toml"
    spec.write_text('snapshot = "plants.csv"\n', encoding="utf-8")
    result = runner.invoke(app, ["build", "--spec", str(spec), "--out", str(tmp_path / "o")])
    one_error_line(result, 2, "does not match its provenance plants.provenance.json")


def test_the_provenance_is_written_last_and_names_the_csv(tmp_path: Path):
    path = tmp_path / "plants.csv"
    write_synthetic_snapshot(path, synthetic_plants(60))
    meta = json.loads(provenance_path(path).read_text(encoding="utf-8"))
    assert meta["csv_sha256"] == hashlib.sha256(path.read_bytes()).hexdigest()
    assert len(read_snapshot(path).plants) == 60


def _dead_pid() -> int:
    pid = 999_999
    while True:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return pid
        except PermissionError:
            pass
        pid -= 1


def test_leftover_temporary_files_of_killed_runs_are_removed(tmp_path: Path):
    write_synthetic_snapshot(tmp_path / "plants.csv", synthetic_plants(60))
    spec = tmp_path / "deck.toml"
    spec.write_text('snapshot = "plants.csv"\n', encoding="utf-8")
    out = tmp_path / "o"
    out.mkdir()
    dead = out / f".deck.json.{_dead_pid()}.k3j9ab_x.tmp"
    dead.write_bytes(b"x" * 1000)
    running = out / f".deck.json.{os.getpid()}.k3j9ab_y.tmp"  # a run still going
    running.write_bytes(b"y")
    assert runner.invoke(app, ["build", "--spec", str(spec), "--out", str(out)]).exit_code == 0
    assert not dead.exists()
    assert running.exists()


def test_a_render_stopped_halfway_leaves_the_previous_previews(tmp_path: Path, monkeypatch):
    from kraftstokk.render import outputs

    deck = synthetic_deck()
    png = tmp_path / "png"
    png.mkdir()
    (png / "01-spar-1.png").write_bytes(b"old")
    (png / "notes.txt").write_text("mine", encoding="utf-8")

    def half_then_killed(deck: Deck, folder: Path, **options: object) -> list[Path]:
        (folder / "01-spar-1.png").write_bytes(b"new")
        raise KeyboardInterrupt

    monkeypatch.setattr(outputs, "write_previews", half_then_killed)
    with pytest.raises(KeyboardInterrupt):
        outputs.render_deck(deck, tmp_path, outputs.RenderOptions(only=("png",)))
    assert (png / "01-spar-1.png").read_bytes() == b"old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["png"]


def test_new_previews_replace_the_folder_whole_and_keep_other_files(tmp_path: Path, monkeypatch):
    from kraftstokk.render import outputs

    png = tmp_path / "png"
    png.mkdir()
    (png / "01-spar-1.png").write_bytes(b"old")
    (png / "09-ruter-9.png").write_bytes(b"stale")
    (png / "notes.txt").write_text("mine", encoding="utf-8")

    def fake(deck: Deck, folder: Path, **options: object) -> list[Path]:
        (folder / "01-spar-1.png").write_bytes(b"new")
        return [folder / "01-spar-1.png"]

    monkeypatch.setattr(outputs, "write_previews", fake)
    result = outputs.render_deck(synthetic_deck(), tmp_path, outputs.RenderOptions(only=("png",)))
    assert result.files == [png / "01-spar-1.png"]
    assert sorted(p.name for p in png.iterdir()) == ["01-spar-1.png", "notes.txt"]
    assert (png / "01-spar-1.png").read_bytes() == b"new"


# --- play --load ------------------------------------------------------------------------


@pytest.fixture
def save(tmp_path: Path) -> Path:
    deck = tmp_path / "deck.json"
    write_deck(synthetic_deck(), tmp_path)
    path = tmp_path / "game.json"
    args = ["play", "--game", "idiot", "--players", "2", "--deck", str(deck), "--seed", "5"]
    result = runner.invoke(app, [*args, "--bots", "greedy", "--seat", "1", "--save", str(path)])
    assert result.exit_code == 0, result.output
    return path


def edit(path: Path, change) -> Path:
    data = json.loads(path.read_text(encoding="utf-8"))
    change(data)
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_a_save_whose_deck_has_a_value_99_is_refused_as_validate_would(save: Path):
    edit(save, lambda d: d["deck"]["cards"][0].update(value=99))
    result = runner.invoke(app, ["play", "--load", str(save)], input="")
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert "its deck" in result.stderr and "value" in result.stderr


def test_a_save_with_nan_in_its_deck_is_refused(save: Path):
    text = save.read_text(encoding="utf-8").replace('"mw": ', '"mw": NaN, "x": ', 1)
    save.write_text(text, encoding="utf-8")
    result = runner.invoke(app, ["play", "--load", str(save)], input="")
    one_error_line(result, 2, "NaN is not a number JSON allows")


def test_a_save_whose_recorded_result_is_wrong_is_refused(save: Path):
    fake = {"finished": True, "order": [1, 0], "loser": 0, "actions": 1, "rounds": 1}
    edit(save, lambda d: d.update(result=fake))
    result = runner.invoke(app, ["play", "--load", str(save)], input="")
    one_error_line(result, 2, "records a result", "unfinished game")


# --- signals ----------------------------------------------------------------------------


def _children(pid: int) -> list[str]:
    try:
        return Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except OSError:
        return []


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="needs Linux /proc")
def test_sigterm_stops_simulate_like_ctrl_c(tmp_path: Path):
    import signal
    import subprocess
    import sys

    write_deck(synthetic_deck(), tmp_path)
    args = ["simulate", "deck.json", "-g", "idiot", "-n", "2000000", "-w", "2", "--no-report"]
    code = "from kraftstokk.cli import main; main()"
    env = {**os.environ, "KRAFTSTOKK_PURE_PYTHON": "1"}
    child = subprocess.Popen(
        [sys.executable, "-c", code, *args, "-o", "out"],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        for _ in range(600):  # the workers have started (at most a minute)
            if len(_children(child.pid)) >= 2 or child.poll() is not None:
                break
            time.sleep(0.1)
        time.sleep(0.5)
        child.send_signal(signal.SIGTERM)
        _, stderr = child.communicate(timeout=120)
    finally:
        if child.poll() is None:
            child.kill()
    assert child.returncode == 130, stderr
    assert "Traceback" not in stderr
    assert "interrupted after" in stderr


def test_a_render_that_fails_halfway_keeps_every_previous_pdf(tmp_path: Path, monkeypatch):
    from kraftstokk.errors import RenderError
    from kraftstokk.render import outputs

    sheets = tmp_path / "kraftstokk-a4.pdf"
    sheets.write_bytes(b"%PDF- the previous sheets")

    def broken(*args: object) -> bytes:
        raise RenderError("print-shop file failed")

    monkeypatch.setattr(outputs, "printshop_pdf", broken)
    options = outputs.RenderOptions(only=("sheets", "printshop"))
    with pytest.raises(RenderError):
        outputs.render_deck(synthetic_deck(), tmp_path, options)
    assert sheets.read_bytes() == b"%PDF- the previous sheets"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["kraftstokk-a4.pdf"]


def test_a_booklet_whose_imposition_fails_keeps_the_previous_booklet(tmp_path: Path, monkeypatch):
    from kraftstokk.render import imposition
    from kraftstokk.render.booklet import write_booklet

    booklet = tmp_path / "regler.pdf"
    booklet.write_bytes(b"%PDF- the previous booklet")

    def broken(pdf: bytes) -> bytes:
        raise OSError("disk full")

    monkeypatch.setattr(imposition, "impose_saddle_stitch", broken)
    with pytest.raises(OSError):
        write_booklet(synthetic_deck(), tmp_path, "nb", imposed=True)
    assert booklet.read_bytes() == b"%PDF- the previous booklet"


def test_a_small_positive_figure_never_prints_as_zero():
    from kraftstokk.design.numbers import decimals_for, format_number

    values = [0.3, 12.0, 40.0, 960.0]
    decimals = decimals_for(values)
    assert format_number(0.3, decimals) == "0,3"
    low = 0.05  # the smallest figure any entry accepts
    assert format_number(low, decimals_for([low, 7.0])) != "0"
