"""``kraftstokk play``: a person (stdin) against bots, for every game there is."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kraftstokk import locales
from kraftstokk.cli import app
from kraftstokk.games import registry
from kraftstokk.games.play_session import PERSON, render_view, seat_specs
from kraftstokk.games.replay import load_replay, replay_log
from kraftstokk.models import Deck

cli = CliRunner()
MANY_FIRST_CHOICES = "1\n" * 4000


@pytest.fixture
def deck_file(deck: Deck, tmp_path: Path) -> Path:
    path = tmp_path / "deck.json"
    path.write_text(deck.model_dump_json(indent=1), encoding="utf-8")
    return path


def play(*args: str | Path, stdin: str = ""):
    return cli.invoke(app, ["play", *map(str, args)], input=stdin)


def test_shows_the_view_and_numbered_moves_then_eof_exits_cleanly(deck_file):
    result = play("--game", "idiot", "--players", "3", "--deck", deck_file, "--seed", "3")
    assert result.exit_code == 0, result.output
    out = result.output
    assert "idiot: 3 players, you are seat 1, seed 3" in out
    assert "Your hand:" in out and "Pile: empty" in out and "Stock: 25" in out
    # Idiot's swap in one step: the six cards, and which three lie face up
    assert "Swap before play: choose the three of your six cards to lay face up" in out
    assert re.search(r"  1\. .+ \(in hand\)", out) and re.search(r"  6\. .+ \(face up\)", out)
    assert "Three cards face up (e.g. 4 5 6), Enter to keep them, q to quit: " in out
    assert "Game left unfinished." in out


def test_a_whole_game_against_bots(deck_file, tmp_path):
    save = tmp_path / "game.json"
    result = play(
        "--game", "idiot", "--players", "3", "--deck", deck_file, "--seed", "11",
        "--bots", "greedy,heuristic", "--variant", "no_swap", "--save", save,
        stdin=MANY_FIRST_CHOICES,
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Game over after" in out and "The game is over. Out in this order: " in out
    assert re.search(r"(Seat \d \(\w+\) is|You are) the Idiot\.", out)
    assert "Seat 2 (greedy) plays: " in out and "Seat 3 (heuristic) plays: " in out
    assert "You play: " in out and "Recent moves:" not in out
    told = [line for line in out.splitlines() if re.search(r"(plays|You play)( from .*)?: ", line)]
    laid = [e for e in replay_log(save).events if type(e).__name__ == "Laid"]
    assert len(told) == len(laid)  # each move is told once, not again before the person's turn
    log = load_replay(save)
    assert log.bots == [PERSON, "greedy", "heuristic"]
    assert log.rules.variants == ["no_swap"] and log.result is not None
    assert replay_log(save).result().loser == log.result.loser


def test_bad_input_is_explained_and_asked_again(deck_file):
    result = play(
        "--game", "idiot", "--deck", deck_file, "--seed", "1", stdin="x\n99\n1 2\n\nx\nq\n"
    )  # fmt: skip
    assert result.exit_code == 0
    assert "'x': type three different numbers from 1 to 6, or press Enter." in result.output
    assert "'99': type three different numbers" in result.output
    assert "'1 2': type three different numbers" in result.output
    assert "'x' is not a move: type a number from 1 to " in result.output  # then in play
    assert "Game left unfinished." in result.output


def test_save_on_quit_and_load_continues(deck_file, tmp_path):
    save = tmp_path / "half.json"
    first = play(
        "--game", "idiot", "--players", "2", "--deck", deck_file, "--seed", "5",
        "--bots", "greedy", "--seat", "2", "--save", save, stdin="",
    )  # fmt: skip
    assert first.exit_code == 0, first.output
    log = load_replay(save)
    assert log.bots == ["greedy", PERSON] and log.result is None
    assert log.actions == [[101]]  # seat 1 finished swapping; the person had not moved
    again = tmp_path / "again.json"
    second = play("--load", save, "--save", again, stdin="1 5 6\n")
    assert second.exit_code == 0, second.output
    assert "you are seat 2, seed 5" in second.output
    assert "You swap " in second.output
    continued = load_replay(again)
    assert continued.actions[:1] == [[101]] and len(continued.actions) >= 2


@pytest.mark.inventory
@pytest.mark.parametrize("name", [name for name in registry.game_names() if name != "idiot"])
def test_every_game_plays_through_the_same_loop_with_its_default_bots(deck_file, tmp_path, name):
    """Idiot's loop is tested above (its first move, a swap, can be taken again and again)."""
    save = tmp_path / f"{name}.json"
    result = play(
        "--game", name, "--players", "3", "--deck", deck_file, "--seed", "2",
        "--save", save, stdin="1\n" * 40,
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    bot = registry.get_spec(name).default_bot
    assert "Your move (1-" in result.output and "\nYou " in result.output
    assert f"\nSeat 2 ({bot}) " in result.output and "Recent moves" not in result.output
    log = load_replay(save)
    assert log.rules.game == name and log.bots == [PERSON, bot, bot]
    state = replay_log(save)
    assert state.result().actions == len(log.actions) > 0


@pytest.mark.parametrize(
    ("lang", "lines"),
    [
        ("en", ("Your move (1-", "You lay ", "Seat 2 (greedy) lays ", "Power war! ")),
        ("nb", ("Ditt trekk (1-", "Du legger ", "Plass 2 (greedy) legger ", "Strømkrig! ")),
    ],
)
def test_stromkrig_plays_and_tells_its_events(deck_file, tmp_path, lang, lines):
    save = tmp_path / "stromkrig.json"
    result = play(
        "--game", "stromkrig", "--players", "3", "--deck", deck_file, "--seed", "2",
        "--bots", "greedy", "--lang", lang, "--save", save, stdin="1\n" * 60,
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    for line in lines:
        assert line in result.output, line
    log = load_replay(save)
    assert log.rules.game == "stromkrig" and log.bots == [PERSON, "greedy", "greedy"]
    assert replay_log(save).result().actions == len(log.actions) > 0


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--game", "poker"], "unknown game 'poker'"),
        ([], "--game is required"),
        (["--game", "idiot", "--players", "7"], "idiot is for 2-5 players, not 7"),
        (["--game", "idiot", "--seat", "5"], "--seat 5 is not a seat of a 4-player game (1-4)"),
        (["--game", "idiot", "--seat", "0"], "--seat 0: must be a whole number, at least 1"),
        (["--game", "idiot", "--bots", "greedy,greedy"], "--bots names 2 bots"),
        (["--game", "idiot", "--bots", "clever"], "idiot has no bot 'clever'"),
        (["--game", "idiot", "--variant", "wild"], "idiot has no variant wild"),
    ],
)
def test_argument_errors_exit_2_with_one_line(deck_file, args, message):
    result = play("--deck", deck_file, *args)
    assert result.exit_code == 2, result.output
    assert message in result.output
    assert "Traceback" not in result.output


def test_missing_deck_and_bad_load_files(tmp_path):
    result = play("--game", "idiot", "--deck", tmp_path / "nope.json")
    assert result.exit_code == 2 and "nope.json: no such file" in result.output
    bad = tmp_path / "bad.json"
    bad.write_text("{}", encoding="utf-8")
    result = play("--load", bad)
    assert result.exit_code == 2 and "bad.json: not a replay log" in result.output


def test_load_refuses_a_different_game(deck_file, tmp_path):
    save = tmp_path / "g.json"
    play("--game", "idiot", "--deck", deck_file, "--seed", "1", "--save", save)
    result = play("--load", save, "--game", "stromkrig")
    assert result.exit_code == 2 and "is a game of idiot, not stromkrig" in result.output


def test_seat_specs_accept_all_or_the_others_or_every_seat():
    assert seat_specs("greedy", 3, 1) == ["greedy", PERSON, "greedy"]
    assert seat_specs("random,heuristic", 3, 0) == [PERSON, "random", "heuristic"]
    assert seat_specs("a,b,c", 3, 2) == ["a", "b", PERSON]


def test_the_view_is_the_typed_observation_in_either_language(deck):
    from kraftstokk.games.core import DeckTable
    from kraftstokk.games.registry import make_game

    table = DeckTable.from_deck(deck)
    state = make_game("idiot", table, 3).new_initial_state(random.Random(2))
    obs = state.observation(1)
    hand = table.names[obs.hand[0]]
    english = render_view(obs, state.game)
    norwegian = render_view(obs, state.game, "nb")
    assert english[0] == "You are seat 2. Phase: swap." and norwegian[0].startswith("Du er plass 2")
    assert any(line.startswith("Your hand: ") and hand in line for line in english)
    assert any(line.startswith("Hånda di: ") and hand in line for line in norwegian)


def test_play_in_norwegian(deck_file):
    result = play("--game", "idiot", "--players", "2", "--deck", deck_file, "--lang", "nb",
                  "--seed", "4", "--bots", "greedy", stdin="1 5 6\n" + "1\n" * 30)  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "du er plass 1" in result.output and "Dine trekk:" in result.output
    assert (
        "Du bytter " in result.output and "Plass 2 (greedy) er ferdig med å bytte." in result.output
    )


def test_an_unknown_language_is_one_clear_line(deck_file):
    result = play("--game", "idiot", "--deck", deck_file, "--lang", "de")
    choices = ", ".join(locales.languages())
    assert result.exit_code == 2
    assert f"--lang de: unknown language (choose from {choices})" in result.output


def test_a_saved_game_is_told_as_its_story(deck_file, tmp_path):
    save = tmp_path / "game.json"
    play("--game", "idiot", "--players", "2", "--deck", deck_file, "--seed", "8",
         "--bots", "greedy", "--variant", "no_swap", "--save", save,
         stdin=MANY_FIRST_CHOICES)  # fmt: skip
    result = play("--load", save, "--replay")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == "idiot, 2 players (1: person, 2: greedy), seed 8"  # seats from 1
    assert lines[1].strip().endswith("(lowest ordinary card in hand).")
    assert lines[2].startswith("   1. Seat ") and ": play " in lines[2]
    assert lines[3].startswith("        Seat ") and " plays: " in lines[3]
    assert "The game is over. Out in this order: " in result.output
    log = load_replay(save)
    assert sum(line[:5].strip().rstrip(".").isdigit() for line in lines) == len(log.actions)
    norwegian = play("--load", save, "--replay", "--lang", "nb")
    assert norwegian.exit_code == 0 and "Spillet er over." in norwegian.output


def test_help_has_an_example():
    result = cli.invoke(app, ["play", "--help"])
    assert result.exit_code == 0
    assert "kraftstokk play --game idiot" in result.output


def test_kraftidioten_plays_through_the_loop_and_tells_its_events(deck_file, tmp_path):
    save = tmp_path / "kraftidioten.json"
    result = play(
        "--game", "kraftidioten", "--players", "3", "--deck", deck_file, "--seed", "2",
        "--bots", "greedy", "--save", save, stdin="1\n" * 40,
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Your move (1-" in out and "You lay a card face down and claim " in out
    assert "Seat 2 (greedy) lays a card face down and claims " in out
    log = load_replay(save)
    assert log.rules.game == "kraftidioten" and log.bots == [PERSON, "greedy", "greedy"]
    assert replay_log(save).result().actions == len(log.actions) > 0
    nb = play(
        "--game", "kraftidioten", "--players", "3", "--deck", deck_file, "--seed", "2",
        "--bots", "greedy", "--lang", "nb", stdin="1\n" * 3,
    )  # fmt: skip
    assert nb.exit_code == 0, nb.output
    assert "Du legger et kort med baksiden opp og søker konsesjon for " in nb.output


def test_bots_face_down_cards_stay_hidden_from_the_person(deck_file, deck):
    result = play(
        "--game", "kraftidioten", "--players", "3", "--deck", deck_file, "--seed", "5",
        "--bots", "heuristic", stdin="1\n" * 300,
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    bot_lines = [line for line in result.output.splitlines() if line.startswith("Seat ")]
    laid = [line for line in bot_lines if "face down" in line]
    assert laid, "the bots laid no card in this game"
    assert all(" lays a card " in line for line in laid)
    assert not any("(true)" in line or "(a lie" in line for line in laid)  # the card unsaid
    assert not any("lie with" in line for line in bot_lines)


def test_a_person_may_claim_any_whole_figure_in_kraftidioten(deck_file, tmp_path):
    save = tmp_path / "lie.json"
    result = play(
        "--game", "kraftidioten", "--players", "2", "--deck", deck_file, "--seed", "5",
        "--bots", "greedy", "--save", save, stdin="2\n1 777\nq\n",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Claim a plant: type the start of its name (" in out  # not a list of them all
    you = [line for line in out.splitlines() if line.startswith("You lay")]
    assert ", 777 MW (a lie: the card is " in you[-1]  # move 1's plant, the figure typed
    lie, claim = load_replay(save).actions[:2]
    assert lie[0] == 206 and len(claim) == 5 and claim[4] == 777  # LIE, then the claim
    assert replay_log(save).is_terminal() is False
