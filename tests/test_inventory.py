"""A language folder or a game package added turns no test red.

The tests that take their languages from ``locales.languages()``, their games from the
registry and their fields from the declarations they check are marked ``inventory``. Here
they run on a copy of the tree with one more language (English's locale files copied to a
new folder, with a name and file names of their own) and one more game package (the high
card fixture as a package of ``kraftstokk/games``, its events and observation on the
framework's bases as a package's are, its texts added to every language's files), on the
Python engine, and must all pass and see the new language and the new game. The real tree
is never touched.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from kraftstokk import locales
from kraftstokk.games import registry

ROOT = Path(__file__).resolve().parent.parent
FIXTURE = ROOT / "tests" / "fixtures" / "highcard"
#: The new game's name and the new language's code: ones the tree does not have.
GAME = "tempgame"
LANGUAGE = next(code for code in ("sv", "da", "fi", "is") if code not in locales.languages())

#: The fixture's events and observation as a package of kraftstokk/games writes them (the
#: fixture's are plain dataclasses: from outside, it cannot derive from the compiled bases).
EVENTS = '''"""What happens in the extra game: events on the framework's base."""

from __future__ import annotations

from dataclasses import dataclass

from kraftstokk.games.events import Event
from kraftstokk.games.stats import Stats


@dataclass(init=False)
class Laid(Event):
    card: int

    def __init__(self, seat: int, card: int) -> None:
        self.seat = seat
        self.card = card

    def count(self, stats: Stats) -> None:
        stats.cards_played[self.card] += 1


@dataclass(init=False)
class RoundTaken(Event):
    card: int
    size: int

    def __init__(self, seat: int, card: int, size: int) -> None:
        self.seat = seat
        self.card = card
        self.size = size

    def count(self, stats: Stats) -> None:
        stats.count("rounds_taken")
'''
OBSERVATION = '''"""What one seat may know in the extra game, on the framework's base."""

from __future__ import annotations

from dataclasses import dataclass

from kraftstokk.games.frozen import refuse_delete, set_once
from kraftstokk.games.observation import Observation


@dataclass(init=False)
class HighCardObservation(Observation):
    current_player: int
    hand: tuple[int, ...]
    laid: tuple[tuple[int, int], ...]
    taken: tuple[int, ...]
    hand_counts: tuple[int, ...]
    round: int

    def __init__(
        self,
        seat: int,
        current_player: int,
        hand: tuple[int, ...],
        laid: tuple[tuple[int, int], ...],
        taken: tuple[int, ...],
        hand_counts: tuple[int, ...],
        round: int,
    ) -> None:
        self.seat = seat
        self.current_player = current_player
        self.hand = hand
        self.laid = laid
        self.taken = taken
        self.hand_counts = hand_counts
        self.round = round

    def __setattr__(self, name: str, value: object) -> None:
        set_once(self, name, value)

    def __delattr__(self, name: str) -> None:
        refuse_delete(self, name)
'''


def add_language(tree: Path) -> None:
    """A new folder of locale files: English's, with its own name and file names."""
    folder = tree / "kraftstokk" / "locales" / LANGUAGE
    shutil.copytree(tree / "kraftstokk" / "locales" / "en", folder)
    words = folder / "words.toml"
    text = words.read_text(encoding="utf-8")
    language = text.index("[language]")
    head, tail = text[:language], text[language:]
    tail = re.sub(r'^(name|short) = ".*"$', rf'\1 = "{LANGUAGE} (test)"', tail, count=2, flags=re.M)
    words.write_text(head + tail, encoding="utf-8")
    booklet = folder / "booklet.toml"
    text = booklet.read_text(encoding="utf-8")
    booklet.write_text(re.sub(r'"([^"/]+\.pdf)"', rf'"{LANGUAGE}-\1"', text), encoding="utf-8")


def add_game(tree: Path) -> None:
    """The high card fixture as the package ``kraftstokk/games/<GAME>``, its texts added to
    every language's files (the new language's from English)."""
    package = tree / "kraftstokk" / "games" / GAME
    shutil.copytree(FIXTURE, package, ignore=shutil.ignore_patterns("locales", "__pycache__"))
    (package / "events.py").write_text(EVENTS, encoding="utf-8")
    (package / "observation.py").write_text(OBSERVATION, encoding="utf-8")
    for module in package.glob("*.py"):
        text = module.read_text(encoding="utf-8")
        text = text.replace("tests.fixtures.highcard", f"kraftstokk.games.{GAME}")
        module.write_text(text.replace("highcard", GAME), encoding="utf-8")
    for code in (*locales.languages(), LANGUAGE):
        own = FIXTURE / "locales" / code
        for part in (own if own.is_dir() else FIXTURE / "locales" / "en").glob("*.toml"):
            into = tree / "kraftstokk" / "locales" / code / part.name
            texts = part.read_text(encoding="utf-8").replace("highcard", GAME)
            # No line on the joker: with the fixture registered too, five games' would not
            # fit it (refused, naming the layout: tests/test_joker_rules.py).
            texts = re.sub(r"^joker = .*\n", "", texts, flags=re.M)
            into.write_text(into.read_text(encoding="utf-8") + "\n" + texts, encoding="utf-8")


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    copy = tmp_path_factory.mktemp("tree")
    skip = shutil.ignore_patterns("__pycache__", "*.so", "*.pyc")
    for folder in ("kraftstokk", "tests"):
        shutil.copytree(ROOT / folder, copy / folder, ignore=skip)
    shutil.copy(ROOT / "pyproject.toml", copy / "pyproject.toml")
    add_language(copy)
    add_game(copy)
    return copy


def run_in(tree: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """pytest in the copy, on its own sources (its folder first on the path), in Python."""
    env = {**os.environ, "PYTHONPATH": str(tree), "KRAFTSTOKK_PURE_PYTHON": "1"}
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-p", "no:xdist", *args],
        cwd=tree,
        env=env,
        capture_output=True,
        text=True,
        timeout=1500,
    )


def test_the_copy_has_one_more_language_and_one_more_game(tree: Path):
    script = (
        "from kraftstokk import locales; from kraftstokk.games import registry; "
        "print(locales.languages(), list(registry.specs()), locales.load"
        f"({LANGUAGE!r}).name, registry.get_spec({GAME!r}).title({LANGUAGE!r}))"
    )
    env = {**os.environ, "PYTHONPATH": str(tree), "KRAFTSTOKK_PURE_PYTHON": "1"}
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=tree, env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    languages = tuple(sorted((*locales.languages(), LANGUAGE)))
    games = [*registry.specs(), GAME]  # a game with no place in the menus comes last
    assert done.stdout.strip() == f"{languages} {games} {LANGUAGE} (test) High card"


def inventory_files() -> list[str]:
    """The test files with tests marked ``inventory`` (only these are collected in the copy,
    which holds no data files or scripts the others read at import)."""
    return sorted(
        f"tests/{path.name}"
        for path in (ROOT / "tests").glob("test_*.py")
        if path.name != Path(__file__).name and "mark.inventory" in path.read_text(encoding="utf-8")
    )


def test_the_inventory_tests_pass_on_it_and_see_both(tree: Path):
    assert len(inventory_files()) > 10
    done = run_in(tree, "-m", "inventory", "-q", "-rA", *inventory_files())
    report = done.stdout + done.stderr
    assert done.returncode == 0, report[-6000:]
    passed = [line for line in report.splitlines() if line.startswith("PASSED ")]
    assert any(f"[{LANGUAGE}]" in line or f"-{LANGUAGE}]" in line for line in passed), report
    assert any(GAME in line for line in passed), report
