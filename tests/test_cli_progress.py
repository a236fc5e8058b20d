"""The progress display: rich's bars on a terminal, plain lines at a bounded rate on a pipe,
and no escape code ever shown as text (the display's own sequences pass the guard, a
file's control characters stay escaped)."""

from __future__ import annotations

import io
import json
import re
import sys

from typer.testing import CliRunner

from kraftstokk.cli import app
from kraftstokk.cli.progress import Display, SweepDisplay, count, rate
from kraftstokk.progress import PERMILLE, Counter, Steps
from kraftstokk.sim.progress import SweepStatus
from kraftstokk.terminal import guard
from tests.terminal_screen import needs_tmux, terminal

cli = CliRunner()

#: The escape sequences a terminal display writes (CSI: cursor moves, colours, erasing).
CSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
#: What escape codes look like once printed as text.
SHOWN_AS_TEXT = re.compile(r"\\x1b|\\x07|\\u001b|\x1b|\^\[|\[K\b|\[\d+m")


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


# The parts -----------------------------------------------------------------------------


def test_counts_and_rates_read_at_a_glance():
    assert count(4000, 20000, "games") == " 4,000/20,000 games"
    assert count(12, None, "kB") == "12 kB"
    assert count(425, 1000, PERMILLE) == "42 %"
    assert rate(2210.4, "games") == "2,210 games/s"
    assert rate(3.44, "pages") == "3.4 pages/s"
    assert rate(None, "games") == rate(5.0, PERMILLE) == ""


def test_a_job_in_steps_is_told_in_thousandths_and_grows_with_an_extra_pass():
    told: list[tuple[int, int | None]] = []
    steps = Steps(2, lambda done, total: told.append((done, total)))
    steps.reportlab("SIZE_EST", 200)
    steps.reportlab("PROGRESS", 100)
    steps.reportlab("FINISHED", 0)
    steps.reportlab("PROGRESS", 200)
    steps.reportlab("FINISHED", 0)
    assert told == [(0, 1000), (250, 1000), (500, 1000), (1000, 1000), (1000, 1000)]
    steps.next()  # a third pass: the job was longer than thought, never past the end
    assert told[-1] == (1000, 1000)
    counted: list[tuple[int, int | None]] = []
    counter = Counter(2, lambda done, total: counted.append((done, total)))
    counter.one()
    counter.one()
    assert counted == [(0, 2), (1, 2), (2, 2)]


# On a pipe -----------------------------------------------------------------------------


def test_on_a_pipe_a_plain_line_at_most_every_ten_seconds():
    stream, clock = io.StringIO(), Clock()
    with Display(stream, terminal=False, clock=clock) as display:
        bar = display.bar("idiot Kraft-stokken (2024-01)", "games")
        for done in range(0, 20_001, 100):  # 200 updates over 40 s
            clock.now += 0.2
            bar(done, 20_000)
    lines = stream.getvalue().splitlines()
    assert len(lines) == 4  # at 10, 20, 30 and 40 s
    assert lines[0] == ("idiot Kraft-stokken (2024-01): 4,900/20,000 games, 490 games/s, ETA 31 s")
    assert (
        lines[-1] == "idiot Kraft-stokken (2024-01): 20,000/20,000 games, 498 games/s, done in 40 s"
    )


def test_quiet_shows_nothing():
    stream, clock = io.StringIO(), Clock()
    with Display(stream, terminal=True, quiet=True, clock=clock) as display:
        bar = display.bar("render", "pages")
        clock.now += 60
        bar(5, 10)
        display.say("sweep: 4 configurations")
    assert stream.getvalue() == ""


def test_a_sweep_on_a_pipe_says_each_configuration_done_as_the_readme_shows():
    stream = io.StringIO()
    with Display(stream, terminal=False) as display:
        progress = SweepDisplay(display)
        progress.announce("4 configurations, 180 games to play")
        progress(SweepStatus(3, 20, 0, 4, 90.0, playing="#1 deck · idiot · 3 players"))
        progress(
            SweepStatus(
                10,
                16,
                5,
                8,
                12.0,
                finished="#5 deck-head · stromkrig",
                finished_games=2000,
                finished_seconds=7.6,
            )
        )
    assert stream.getvalue().splitlines() == [
        "sweep: 4 configurations, 180 games to play",
        "sweep: #5 deck-head · stromkrig done (2,000 games, 7.6 s of play); "
        "5/8 configurations, 10/16 chunks, ETA 12 s",
    ]


# On a terminal (rich's bars, written to memory) -------------------------------------------


def last_frame(raw: str) -> str:
    """The text of the last redraw: escape sequences out, the last block of lines."""
    text = CSI.sub("", raw).replace("\r", "\n")
    return text


def test_a_sweep_shows_one_bar_overall_and_one_per_configuration_in_play(monkeypatch):
    monkeypatch.setenv("COLUMNS", "120")
    stream = io.StringIO()
    with Display(stream, terminal=True) as display:
        progress = SweepDisplay(display)
        progress(
            SweepStatus(
                3,
                20,
                0,
                4,
                90.0,
                running=(
                    ("#1 deck · idiot · 3 players", (3, 5)),
                    ("#2 deck · idiot · 4 players", (0, 5)),
                ),
            )
        )
        first = stream.getvalue()
        progress(SweepStatus(5, 20, 1, 4, 60.0, running=(("#2 deck · idiot · 4 players", (2, 5)),)))
        progress.close()
    frame = last_frame(first)
    assert "sweep: 0/4 configurations" in frame
    assert re.search(r"#1 deck · idiot · 3 players .*3/5 chunks", frame)
    assert re.search(r"#2 deck · idiot · 4 players .*0/5 chunks", frame)
    assert "ETA 1 min 30 s" in frame  # the sweep's own estimate, stored chunks counted
    end = last_frame(stream.getvalue()[len(first) :])
    assert "#1 deck" not in end.split("sweep: 1/4")[-1]  # done: its bar is gone
    assert re.search(r"sweep: 1/4 configurations .* 5/20 chunks", end)


def test_file_text_in_a_bar_or_a_line_is_escaped_and_only_the_display_writes_escapes():
    stream = io.StringIO()
    saved = sys.stderr
    sys.stderr = guard(io.StringIO())
    try:
        with Display(stream, terminal=True) as display:
            bar = display.bar("deck\x1b]0;owned\x07 title\x1b[2J", "games")
            bar(1, 2)
            display.say("a line from a file \x1b[31mred\x1b[0m\x08")
            print("written to stderr meanwhile \x1b[5mblink", file=sys.stderr)
            bar(2, 2)
    finally:
        sys.stderr = saved
    raw = stream.getvalue()
    assert "\x07" not in raw and "\x08" not in raw and "\x1b]" not in raw
    leftover = CSI.sub("", raw)
    assert "\x1b" not in leftover  # every escape in the output is a CSI rich wrote
    for shown in ("\\x1b]0;owned\\x07 title\\x1b[2J", "\\x1b[31mred\\x1b[0m\\x08", "\\x1b[5mblink"):
        assert shown in leftover
    assert "\x1b[2J" not in raw and "\x1b[5m" not in raw  # the file's never reach it


def test_a_command_on_a_pipe_prints_no_bar(deck_file, tmp_path):
    result = cli.invoke(
        app,
        [
            "simulate",
            str(deck_file),
            "-g",
            "idiot",
            "-n",
            "30",
            "--no-report",
            "-w",
            "1",
            "-o",
            str(tmp_path / "out"),
        ],
    )
    assert result.exit_code == 0, result.output
    assert result.stderr == ""  # a short run on a pipe: no line, no bar
    said = result.stdout.splitlines()
    assert said[0].startswith("30 games of idiot, 0 unfinished")
    # Page 1's verdict follows on the terminal: fair, then fun (skill is never measured
    # without --skill).
    assert said[1].startswith(("Fair", "Not fair")) and "Not measured: skill." in said[2]


# In a real terminal --------------------------------------------------------------------


def no_escape_codes_shown(screen: str) -> None:
    found = SHOWN_AS_TEXT.search(screen)
    assert found is None, f"escape code shown as text ({found.group()!r}) in:\n{screen}"


@needs_tmux
def test_simulate_in_a_terminal_shows_a_bar_with_count_rate_and_time(deck_file, tmp_path):
    args = [
        "simulate",
        deck_file,
        "-g",
        "idiot",
        "-n",
        "3000",
        "--no-report",
        "-w",
        "1",
        "-o",
        tmp_path / "out",
    ]
    with terminal(args, tmp_path) as term:
        screen = term.wait_for("[exit 0]")
    no_escape_codes_shown(screen)
    bar = next(line for line in screen.splitlines() if "games" in line and "━" in line)
    assert re.search(r"^idiot .* 3,000/3,000 games +[\d,.]+ games/s in [\d.]+ s$", bar), bar
    assert "3000 games of idiot, 0 unfinished" in screen


@needs_tmux
def test_sweep_and_render_in_a_terminal_show_no_escape_code(deck_file, tmp_path):
    (tmp_path / "sweep.toml").write_text(
        'title = "t"\ngames = 400\nchunk = 100\nseed = 1\n[grid]\ndecks = ["deck.json"]\n'
        'games = ["idiot"]\nplayers = [3, 4]\nbots = ["greedy"]\n',
        encoding="utf-8",
    )
    with terminal(["sweep", "sweep.toml", "--no-report", "-w", "1", "-o", "out"], tmp_path) as term:
        screen = term.wait_for("[exit 0]")
    no_escape_codes_shown(screen)
    assert re.search(r"sweep: 2/2 configurations .* 8/8 chunks", screen), screen
    assert json.loads((tmp_path / "out" / "sweep.json").read_text())  # it ran whole
    with terminal(["render", deck_file, "--only", "sheets", "-o", "cards"], tmp_path) as term:
        screen = term.wait_for("[exit 0]")
    no_escape_codes_shown(screen)
    assert re.search(r"kraftstokk-a4\.pdf .* 7/7 sheets", screen), screen


# What the library reports --------------------------------------------------------------


def test_fetch_reports_each_body_in_kilobytes_a_retry_on_a_new_bar(server):
    from kraftstokk.sources.http import CHUNK
    from kraftstokk.sources.nve_api import fetch_nve
    from tests.loopback import PLANTS_JSON, Reply

    body = PLANTS_JSON + b" " * 300_000  # read in pieces of 64 KiB
    url = server.serve("/plants", Reply(503), Reply(body=body))
    bars: list[tuple[str, str | None, list[tuple[int, int | None]]]] = []

    def progress(label: str, unit: str | None = None):
        bars.append((label, unit, []))
        return lambda done, total: bars[-1][2].append((done, total))

    fetch_nve(url, backoff=0.0, progress=progress)
    assert [(label, unit) for label, unit, _ in bars] == [(url, "kB")]  # the 503 had no body
    told = bars[0][2]
    assert told[0] == (0, len(body) // 1000) and told[-1] == (len(body) // 1000,) * 2
    assert len(told) == 1 + -(-len(body) // CHUNK)
    assert [done for done, _ in told] == sorted(done for done, _ in told)


def test_render_and_booklet_report_every_part(deck, tmp_path):
    from kraftstokk.render.booklet import write_booklet
    from kraftstokk.render.outputs import RenderOptions, render_deck

    parts: dict[str, tuple[str | None, list[tuple[int, int | None]]]] = {}

    def progress(label: str, unit: str | None = None):
        parts[label] = (unit, [])
        return lambda done, total: parts[label][1].append((done, total))

    render_deck(deck, tmp_path, RenderOptions(only=("sheets", "printshop", "box")), progress)
    write_booklet(deck, tmp_path, "en", imposed=True, progress=progress)
    units = {label: unit for label, (unit, _) in parts.items()}
    assert units == {
        "kraftstokk-a4.pdf": "sheets",
        "kraftstokk-printshop.pdf": "pages",
        "tuck box": "files",
        "rules-en.pdf": PERMILLE,
        "rules-en-a4-booklet.pdf": PERMILLE,
    }
    for label, (_, told) in parts.items():
        done, total = told[-1]
        assert done == total, label  # each part reaches its end
    assert parts["kraftstokk-a4.pdf"][1][-1] == (7, 7)  # 55 cards, 9 to a sheet
    assert parts["kraftstokk-printshop.pdf"][1][-1] == (110, 110)  # a front and a back each
