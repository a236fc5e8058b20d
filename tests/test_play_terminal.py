"""Terminal play a person enjoys: Idiot's swap in one step, Kraftidioten's claim by a
plant's name, figures in the language's style, seats from 1, a finished game pointing to
--replay; and on a real terminal (tmux) the table redrawn at each turn, suits in colour."""

from __future__ import annotations

import io
import re
from pathlib import Path

from rich.console import Console
from typer.testing import CliRunner

from kraftstokk.cli import app
from kraftstokk.cli.table_screen import TableScreen
from kraftstokk.games.core import DeckTable
from kraftstokk.games.narration import Narrator
from kraftstokk.games.play_session import folded, named_moves
from kraftstokk.games.replay import load_replay
from kraftstokk.models import Deck
from tests.terminal_screen import needs_tmux, terminal

cli = CliRunner()
MANY_FIRST_CHOICES = "1\n" * 4000


def play(*args: str | Path, stdin: str = ""):
    return cli.invoke(app, ["play", *map(str, args)], input=stdin)


def test_idiots_swap_is_one_step(deck_file: Path, tmp_path: Path):
    save = tmp_path / "swap.json"
    result = play(deck_file, "-g", "idiot", "-p", "3", "-s", "3", "--save", save,
                  stdin="1 2 3\nq\n")  # fmt: skip
    assert result.exit_code == 0, result.output
    kinds = [action[0] for action in load_replay(save).actions]
    assert kinds[:4] == [100, 100, 100, 101]  # three swaps (SWAP) and done (READY) at once
    assert result.output.count("You swap ") == 3 and "You are done swapping." in result.output
    kept = tmp_path / "kept.json"
    play(deck_file, "-g", "idiot", "-p", "3", "-s", "3", "--save", kept, stdin="\nq\n")
    assert load_replay(kept).actions[0] == [101]  # Enter: the face-up row as dealt


def test_a_kraftidioten_lie_is_a_plant_typed_by_name(deck_file: Path, tmp_path: Path, deck):
    save = tmp_path / "lie.json"
    result = play(deck_file, "-g", "kraftidioten", "-p", "2", "-s", "5", "-b", "greedy",
                  "--save", save, stdin="2\ns\ntons\nq\n")  # fmt: skip
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Claim a plant: type the start of its name (" in out
    assert "Several plants start with 's': type more of the name, or the number." in out
    assert re.search(r"You lay a card face down and claim Tonstad, [\d,.]+ MW", out)
    claim = load_replay(save).actions[1]
    assert claim[3] == DeckTable.from_deck(deck).names.index("Tonstad")
    stated = tmp_path / "stated.json"
    play(deck_file, "-g", "kraftidioten", "-p", "2", "-s", "5", "-b", "greedy", "--save",
         stated, stdin="2\nTONSTAD 4321\nq\n")  # fmt: skip
    assert load_replay(stated).actions[1][4] == 4321  # a figure stated with the name


def test_names_are_matched_without_case_or_accents():
    assert folded("Øvre Røssåga") == folded("ovre rossaga") == "ovre rossaga"
    moves = [f"lay X face down and claim {chr(65 + i)}ura, {i} MW" for i in range(20)]
    assert named_moves(moves).names[3] == "Dura, 3 MW"
    assert named_moves(moves[:10]) is None  # a short list stays a numbered list


def test_figures_are_written_in_the_languages_own_style(deck: Deck):
    table = DeckTable.from_deck(deck)
    assert Narrator(table, "en").number(1240.45, 1) == "1,240.5"
    assert Narrator(table, "nb").number(1240.45, 1) == "1 240,5"
    assert Narrator(table, "en", own_numbers=True).amount(0, 126.6) == "126.6 MW"
    assert Narrator(table, "en").amount(0, 126.6) == "126,6 MW"  # as printed: the web's


def test_a_finished_game_points_to_replay(deck_file: Path, tmp_path: Path):
    save = tmp_path / "game.json"
    done = play(deck_file, "-g", "idiot", "-p", "2", "-s", "8", "-b", "greedy", "--variant",
                "no_swap", "--save", save, stdin=MANY_FIRST_CHOICES)  # fmt: skip
    assert done.exit_code == 0, done.output
    assert done.output.splitlines()[-1] == (
        f"Tell it move by move: kraftstokk play --load {save} --replay"
    )
    unsaved = play(deck_file, "-g", "idiot", "-p", "2", "-s", "8", "-b", "greedy", "--variant",
                   "no_swap", stdin=MANY_FIRST_CHOICES)  # fmt: skip
    assert unsaved.output.splitlines()[-1] == (
        "To tell a game afterwards, play with --save FILE, then: "
        "kraftstokk play --load FILE --replay"
    )
    told = play("--load", save, "--replay")
    assert told.output.splitlines()[0] == "idiot, 2 players (1: person, 2: greedy), seed 8"


def test_a_note_said_before_the_table_stays_in_view_at_every_redraw():
    written = io.StringIO()
    console = Console(file=written, width=80, force_terminal=False, color_system=None)
    note = "kraftstokk: note: the game engine runs as pure Python (...)"
    screen = TableScreen(["spades", "hearts", "clubs", "diamonds"], console, notes=[note])
    screen.say("idiot, 2 players")
    for _ in range(2):
        screen.turn(["You are seat 1."], ["1. pass"], "")
    lines = written.getvalue().splitlines()
    marks = [line[:2] for line in lines if line == note or line.startswith("╭─")]
    assert marks == ["kr", "╭─", "kr", "╭─"]  # the note above each drawing of the table


@needs_tmux
def test_on_a_terminal_the_table_is_redrawn_with_suits_in_colour(deck_file: Path, tmp_path):
    args = ["play", deck_file, "-g", "idiot", "-p", "3", "-s", "3"]
    with terminal(args, tmp_path, width=110, height=40) as term:
        screen = term.wait_for("Three cards face up")
        assert screen.splitlines()[0].startswith("╭─ idiot: 3 players, you are seat 1, seed 3")
        coloured = term.tmux("capture-pane", "-p", "-e", "-t", "test")
        assert re.search(r"\x1b\[[0-9;]*31m\(hearts ", coloured)  # hearts in red
        assert re.search(r"\x1b\[1m\(spades ", coloured)  # spades black (bold)
        term.type("4 5 6")
        term.keys("Enter")
        screen = term.wait_for("Your move (1-")
        lines = screen.splitlines()
        assert lines[0].startswith("╭─ idiot:")  # drawn again from the top: no scrolling
        assert "You are done swapping." in lines[1]
        assert sum("You are seat 1." in line for line in lines) == 1
        assert not re.search(r"\\x1b|\x1b|\[\d+m", screen)  # no escape code shown as text
        term.type("q")
        term.keys("Enter")
        term.wait_for("[exit 0]")
