"""A game is one package everywhere: a fourth game from ``tests/fixtures/highcard/``.

The test only registers the package's spec (``registry.register``); nothing outside the
fixture names the game. It then plays through ``simulate`` (worker processes too),
``play`` (and its replay), the web API (setup, a whole game, the rules panel, a resume),
and the booklet, in every language, with the game's own texts checked like the
project's.
"""

from __future__ import annotations

import json
import shutil
import tomllib
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from kraftstokk import locales
from kraftstokk.cli import app
from kraftstokk.deck.io import write_deck
from kraftstokk.design.blocks import Heading, Para
from kraftstokk.errors import LocaleError
from kraftstokk.games import registry
from kraftstokk.models import Deck
from kraftstokk.render.booklet_content import booklet_blocks
from tests.fixtures.highcard import spec as highcard_spec
from tests.web_helpers import client_for

#: Languages, games or fields from the inventories: tests/test_inventory.py runs these.
pytestmark = pytest.mark.inventory

cli = CliRunner()
FIXTURE = Path(highcard_spec.__file__).resolve().parent


def title_in_its_files(code: str) -> str:
    """High card's title in ``code`` as its own locale files give it (a language it has no
    folder for borrows its ``borrows_words_of``'s)."""
    folder = FIXTURE / "locales" / code
    if not folder.is_dir():
        folder = FIXTURE / "locales" / highcard_spec.SPEC.borrows_words_of
    words = tomllib.loads((folder / "words.toml").read_text(encoding="utf-8"))
    return str(words["games"]["highcard"]["title"])


@pytest.fixture
def highcard() -> Any:
    registry.register(highcard_spec.SPEC)
    yield highcard_spec.SPEC
    registry.unregister("highcard")


@pytest.fixture
def deck_file(deck: Deck, tmp_path: Path) -> Path:
    write_deck(deck, tmp_path)
    return tmp_path / "deck.json"


def test_the_game_is_known_only_once_registered(highcard):
    assert "highcard" in registry.game_names()
    assert "highcard" not in registry.package_names()  # it lives outside kraftstokk
    for code in locales.languages():
        assert highcard.title(code) == title_in_its_files(code)
        assert highcard.variant_text("lowest_wins", code)
    titles = [highcard.title(code) for code in ("en", "nb", "nn")]
    assert titles == ["High card", "Høyt kort", "Høgt kort"]


def test_simulate_plays_it_in_worker_processes(highcard, deck_file, tmp_path):
    out = tmp_path / "out"
    args = ["simulate", str(deck_file), "--game", "highcard", "-p", "3", "-n", "40", "-s", "5"]
    result = cli.invoke(app, [*args, "--bots", "greedy,random,random", "-w", "2", "-o", str(out)])
    assert result.exit_code == 0, result.output
    summary = json.loads((out / "sim-highcard.json").read_text(encoding="utf-8"))
    assert summary["games"] == summary["finished"] == 40
    assert summary["counters"]["rounds_taken"]["total"] == 40 * 3  # three rounds a game
    assert (out / "sim-highcard.pdf").read_bytes().startswith(b"%PDF")


@pytest.mark.parametrize(
    ("lang", "told"),
    [
        (
            "nn",
            ["Du er plass 1. Runde 1.", "Trekka dine:", "Du legg ", "tek runden", "Spelet er over"],
        ),
        (
            "en",
            [
                "You are seat 1. Round 1.",
                "Your moves:",
                "You lay ",
                "the round (",
                "The game is over",
            ],
        ),
    ],
)
def test_play_tells_it_in_the_language_asked(highcard, deck_file, tmp_path, lang, told):
    save = tmp_path / "game.json"
    args = ["play", "--game", "highcard", "--players", "3", "--deck", str(deck_file)]
    args += ["--seed", "9", "--lang", lang, "--save", str(save)]
    result = cli.invoke(app, args, input="1\n" * 5)
    assert result.exit_code == 0, result.output
    # No --bots: the game's default bot (it has no heuristic one) in the other seats.
    assert json.loads(save.read_text(encoding="utf-8"))["bots"][1:] == ["greedy", "greedy"]
    for words in told:
        assert words in result.output, (words, result.output)
    story = cli.invoke(app, ["play", "--load", str(save), "--replay", "--lang", lang])
    assert story.exit_code == 0, story.output
    assert told[-1] in story.output


def test_the_web_api_offers_and_plays_it(highcard, deck):
    with client_for(deck) as client:
        setup = client.get("/api/setup").json()
        offered = {g["name"]: g for g in setup["games"]}
        assert offered["highcard"]["opponents"] == [1, 3]
        assert offered["highcard"]["variants"] == ["lowest_wins"]
        for code in locales.languages():
            texts = setup["texts"][code]["games"]["highcard"]
            assert texts["title"] == title_in_its_files(code)
            assert texts["blurb"] and texts["moves"]["lay"]
        assert offered["highcard"]["default_bot"] == "greedy"
        default = client.post("/api/games", json={"game": "highcard", "opponents": 2})
        assert default.status_code == 201 and default.json()["bots"][1:] == ["greedy"] * 2
        body = {"game": "highcard", "opponents": 2, "bots": "random", "seed": 4}
        snapshot = client.post("/api/games", json=body).json()
        first_save = snapshot["save"]
        assert snapshot["view"]["cards"] == "figure" and len(snapshot["view"]["hand"]) == 3
        while snapshot["over"] is None:
            move = snapshot["moves"]["list"][0]
            assert move["kind"] == "lay"
            request = {"turn": snapshot["turn"], "move": move["i"]}
            response = client.post(f"/api/games/{snapshot['id']}/moves", json=request)
            assert response.status_code == 200, response.text
            snapshot = response.json()
        assert snapshot["over"]["finished"] and snapshot["view"]["phase"] == "over"
        kinds = {line["kind"] for line in snapshot["log"]}
        assert {"Laid", "RoundTaken", "GameOver"} <= kinds
        for line in snapshot["log"]:  # told in the one language asked (the deck's here)
            assert list(line["text"]) == [deck.language()] and all(line["text"].values())
        resumed = client.post("/api/games/resume", json={"save": first_save})
        assert resumed.status_code == 200, resumed.text
        rules = client.get("/api/rules/nn").json()
        assert "highcard" in rules and any(
            block["type"] == "para" and "tek runden" in block["text"] for block in rules["highcard"]
        )


def test_the_booklet_has_its_chapter(highcard, deck, deck_file, tmp_path):
    for code in locales.languages():
        title = title_in_its_files(code)
        blocks = booklet_blocks(deck, code)
        headings = [b.text for b in blocks if isinstance(b, Heading) and b.level == 1]
        assert title in headings
        at = next(i for i, b in enumerate(blocks) if isinstance(b, Heading) and b.text == title)
        assert isinstance(blocks[at + 1], Para)  # the chapter's introduction follows
    result = cli.invoke(app, ["booklet", str(deck_file), "--lang", "nn", "-o", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "reglar-nn.pdf").stat().st_size > 10_000


def test_its_texts_are_checked_like_the_projects(tmp_path, deck):
    """A game's texts missing in one language are an error naming the game's file."""
    copy = tmp_path / "highcard"
    shutil.copytree(FIXTURE / "locales", copy / "locales")
    (copy / "locales" / "nn" / "events.toml").write_text("[highcard.words]\n", encoding="utf-8")
    locales.add_root("highcard", copy / "locales", highcard_spec.SPEC.borrows_words_of)
    try:
        with pytest.raises(LocaleError, match=r"locales/nn/events.toml: missing highcard\.events"):
            locales.check_all()
        (copy / "locales" / "nn" / "events.toml").unlink()
        with pytest.raises(LocaleError, match=r"highcard: locales/nn/events.toml: missing"):
            locales.check_all()
    finally:
        locales.drop_root("highcard")
    locales.check_all()  # without it, the project's own texts are whole again


def test_a_language_it_has_no_folder_for_borrows_the_words_it_names(tmp_path):
    """A language added to kraftstokk/locales after the game was written: the game's spec
    names the language whose words it borrows (high card: English), else it is refused."""
    copy = tmp_path / "locales"
    shutil.copytree(FIXTURE / "locales", copy)
    shutil.rmtree(copy / "nn")
    try:
        locales.add_root("highcard", copy)
        with pytest.raises(LocaleError, match=r"highcard: locales/nn/words.toml: missing"):
            locales.check_all()
        locales.add_root("highcard", copy, borrow="en")
        locales.check_all()
        games = locales.load("nn").part("words")["games"]
        assert games["highcard"]["title"] == "High card"  # English, borrowed
        assert (
            games["idiot"]["title"] == "Idiot"
            and locales.load("nb").part("words")["games"]["highcard"]["title"] == "Høyt kort"
        )
    finally:
        locales.drop_root("highcard")
