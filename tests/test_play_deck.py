"""The deck read for play, and the cache of validated decks (kraftstokk/games/play_deck.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kraftstokk.deck.io import load_valid_deck
from kraftstokk.errors import ValidationFailed
from kraftstokk.games import play_deck
from kraftstokk.games.core import DeckTable
from kraftstokk.games.play_deck import PACKAGE_DIR, code_version, load_play_deck
from kraftstokk.models import Deck
from kraftstokk.sim.finding_rules import RULE_BOUNDS, FindingRules
from kraftstokk.sim.sweep.model import FindingThresholds


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("KRAFTSTOKK_CACHE_DIR", str(folder))
    return folder / "valid-decks"


def entries(cache: Path) -> list[Path]:
    return sorted(cache.glob("*.json")) if cache.is_dir() else []


def test_a_remembered_deck_plays_as_the_validated_model(deck_file: Path, cache: Path) -> None:
    model = load_valid_deck(deck_file)
    first = load_play_deck(deck_file)
    assert len(entries(cache)) == 1
    second = load_play_deck(deck_file)
    assert second.model is None  # from the cache: neither read nor validated again
    for found in (first, second):
        assert found.table == DeckTable.from_deck(model)
        assert (found.title, found.edition) == (model.title, model.edition)
    assert second.data() == first.data() == model.model_dump(mode="json")
    assert len(entries(cache)) == 1


def test_a_deck_that_fails_is_refused_every_time_and_not_remembered(
    deck: Deck, tmp_path: Path, cache: Path
) -> None:
    broken = deck.model_copy(deep=True)
    nr = broken.cards[0].nr
    other = broken.cards[1].nr
    assert nr is not None and other is not None
    nr.mw = other.mw  # a duplicate nr.
    path = tmp_path / "broken.json"
    path.write_text(broken.model_dump_json(), encoding="utf-8")
    with pytest.raises(ValidationFailed) as expected:
        load_valid_deck(path)
    for _ in range(2):
        with pytest.raises(ValidationFailed) as caught:
            load_play_deck(path)
        assert (caught.value.message, caught.value.exit_code) == (
            expected.value.message,
            expected.value.exit_code,
        )
    assert entries(cache) == []


def test_other_bytes_or_code_are_a_miss_and_a_bad_entry_is_ignored(
    deck_file: Path, cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    load_play_deck(deck_file)
    assert len(entries(cache)) == 1
    deck_file.write_text(deck_file.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    load_play_deck(deck_file)  # other bytes: validated again, remembered apart
    assert len(entries(cache)) == 2
    monkeypatch.setattr(play_deck, "code_version", lambda: "another version")
    load_play_deck(deck_file)
    assert len(entries(cache)) == 3
    monkeypatch.undo()
    monkeypatch.setenv("KRAFTSTOKK_CACHE_DIR", str(cache.parent))
    for file in entries(cache):
        file.write_text('{"key": "', encoding="utf-8")  # cut short
    found = load_play_deck(deck_file)
    assert found.model is not None  # read in full, and remembered again
    assert found.table == DeckTable.from_deck(load_valid_deck(deck_file))
    # The code's version is every file of the package, validation's own among them.
    assert str(PACKAGE_DIR / "deck" / "validate.py") in code_version()
    assert str(PACKAGE_DIR / "design" / "layouts") in code_version()


def test_a_deck_changed_by_hand_is_read_in_full_each_time(deck: Deck, tmp_path: Path,
                                                           cache: Path) -> None:  # fmt: skip
    from kraftstokk.deck.io import stamped

    data = json.loads(stamped(deck).model_dump_json())
    data["title"] = "Changed by hand"  # its build id no longer matches its content
    path = tmp_path / "deck.json"
    path.write_text(json.dumps(data, indent=2), encoding="utf-8")
    assert load_play_deck(path).title == "Changed by hand"
    assert entries(cache) == []


def test_a_printed_deck_changed_by_hand_says_so_at_every_simulate(
    deck: Deck, tmp_path: Path, cache: Path
) -> None:
    """The note on a deck.json changed after build wrote it, with its deck.csv beside it,
    is said by every run (the deck is read in full each time), as before."""
    from typer.testing import CliRunner

    from kraftstokk.cli import app
    from kraftstokk.deck.io import write_deck_files

    files = write_deck_files(deck, tmp_path / "printed")
    data = json.loads(files.json.read_text(encoding="utf-8"))
    data["title"] = "Changed by hand"
    files.json.write_text(json.dumps(data, indent=2), encoding="utf-8")
    arguments = ["simulate", str(files.json), "-g", "idiot", "-n", "2", "-w", "1"]
    for _ in range(2):
        result = CliRunner().invoke(app, [*arguments, "--no-report", "-o", str(tmp_path / "o")])
        assert result.exit_code == 0, result.output
        assert f"note: {files.json}: changed after kraftstokk wrote it" in result.stderr
    assert entries(cache) == []


def test_no_cache_when_its_folder_is_empty_or_unwritable(
    deck_file: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("KRAFTSTOKK_CACHE_DIR", "")
    assert play_deck.cache_folder() is None
    assert load_play_deck(deck_file).model is not None
    blocked = tmp_path / "a file"
    blocked.write_text("", encoding="utf-8")
    monkeypatch.setenv("KRAFTSTOKK_CACHE_DIR", str(blocked))
    assert load_play_deck(deck_file).table == DeckTable.from_deck(load_valid_deck(deck_file))
    monkeypatch.setenv("KRAFTSTOKK_CACHE_DIR", str(tmp_path / "cache"))
    assert play_deck._small_file(tmp_path) is None  # no regular file: the full reader's


@pytest.mark.parametrize("workers", [1, 2])
def test_simulate_writes_an_unfinished_game_as_save_replay_writes_it(
    deck_file: Path, tmp_path: Path, cache: Path, workers: int
) -> None:
    """The log of an unfinished game, written from the remembered deck's plain JSON (made
    while the run goes on, as soon as its sums list the game), is the file
    games/replay.py's make_replay and save_replay write, byte for byte."""
    from kraftstokk.games import registry
    from kraftstokk.games.replay import load_replay, make_replay, save_replay
    from kraftstokk.games.runner import play_game
    from kraftstokk.sim.runner import SimSettings, build_game
    from kraftstokk.sim.session import bot_labels, simulate

    settings = SimSettings(game="idiot", players=4, games=3, seed=5, bots="greedy",
                           action_cap=30)  # fmt: skip
    load_play_deck(deck_file)
    files = simulate(deck_file, settings, tmp_path / "out", workers=workers, report=False)
    example = files.main.summary["example_replay"]
    assert example["seed"] >= 2**63  # a derived seed past a given one's range: saved too
    model = load_valid_deck(deck_file)
    game = build_game(DeckTable.from_deck(model), settings)
    record = play_game(game, registry.make_bots(game, settings.bots), example["seed"])
    labels = bot_labels(settings.bots, settings.players)
    log = make_replay(model, game, labels, example["seed"], record.actions, record.result)
    save_replay(tmp_path / "expected.json", log)
    written = Path(example["path"])
    assert written.read_bytes() == (tmp_path / "expected.json").read_bytes()
    assert load_replay(written) == log


def test_the_finding_rules_and_the_sweep_files_table_agree() -> None:
    """sim/findings.py's plain rules and sim/sweep/model.py's model of [findings]: same
    fields, defaults and bounds."""
    assert FindingThresholds().rules() == FindingRules()
    assert set(RULE_BOUNDS) == set(FindingThresholds.model_fields)
    for name, (low, high, _) in RULE_BOUNDS.items():
        tries = [low, low + 1e-9, *((high - 1e-9, high) if high is not None else (1e9,))]
        for value in tries:
            plain_ok = model_ok = True
            try:
                FindingRules(**{name: value})
            except ValueError:
                plain_ok = False
            try:
                FindingThresholds(**{name: value})
            except ValueError:  # pydantic's ValidationError is one
                model_ok = False
            assert plain_ok == model_ok, (name, value)


def test_a_replay_logs_actions_are_written_as_json_writes_them() -> None:
    """replay_text writes the actions (thousands in a game at the action cap) in one call
    of json's encoder, cut between actions: the same text as one call each, whatever
    the actions hold."""
    from kraftstokk.games.replay_data import action_lines

    for actions in (
        [[7]],
        [[], [7], [1, -2, 30], [2**70, 0], [True, 1], [1.5, 2], [None]],
        [[1, [2, 3]], [4]],  # nested: not cut inside
        [["a], [b"], [1]],  # a text that looks like the cut
        [["x[", 1], ["]"]],
        [["a], "], [1], ["], ["]],  # no "[" of its own: cut between actions only
        [["æ"], [0]],
    ):
        assert action_lines(actions) == ",\n".join("  " + json.dumps(a) for a in actions)


def test_a_deck_replaced_while_it_is_validated_is_not_remembered_as_its_bytes(
    deck: Deck, tmp_path: Path, cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The key is made of the bytes read first, the deck validated from a second read: a
    deck that fails, replaced by one that passes while it is validated and put back
    since, was remembered as passing (its next simulate played the other deck's cards)."""
    broken = deck.model_copy(deep=True)
    nr, other = broken.cards[0].nr, broken.cards[1].nr
    assert nr is not None and other is not None
    nr.mw = other.mw  # a duplicate nr.
    path = tmp_path / "deck.json"
    path.write_text(broken.model_dump_json(), encoding="utf-8")
    validate = play_deck._load_valid

    def swapped(file: Path) -> Deck:
        bad = file.read_bytes()
        file.write_text(deck.model_dump_json(), encoding="utf-8")
        try:
            return validate(file)
        finally:
            file.write_bytes(bad)

    monkeypatch.setattr(play_deck, "_load_valid", swapped)
    assert load_play_deck(path).table == DeckTable.from_deck(deck)  # what it validated
    assert entries(cache) == []
    monkeypatch.undo()
    monkeypatch.setenv("KRAFTSTOKK_CACHE_DIR", str(cache.parent))
    with pytest.raises(ValidationFailed):
        load_play_deck(path)


def test_a_cache_entry_that_is_no_regular_file_is_a_miss_without_waiting(
    deck_file: Path, cache: Path
) -> None:
    """An entry is read as an input file is: a named pipe in its place (or a device) is
    not waited on or read without end; the deck is read in full."""
    import os
    import threading

    cache.mkdir(parents=True)
    entry = cache / f"{play_deck._key(deck_file.read_bytes())}.json"
    os.mkfifo(entry)
    found: list[play_deck.PlayDeck] = []
    reader = threading.Thread(target=lambda: found.append(load_play_deck(deck_file)),
                              daemon=True)  # fmt: skip
    reader.start()
    reader.join(60)
    if reader.is_alive():  # waiting for a writer: give it one, so the test can end
        os.close(os.open(entry, os.O_WRONLY | os.O_NONBLOCK))
        reader.join(60)
        pytest.fail("reading a named pipe in the cache waited for a writer")
    assert found[0].model is not None
    assert found[0].table == DeckTable.from_deck(load_valid_deck(deck_file))


def test_a_cache_that_cannot_be_written_does_not_stop_the_run(
    deck_file: Path, cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Writing an entry fails as an output does (OutputError: a full disk, a folder that
    is read-only, a folder in the entry's place): that is no cache, not a failed run
    (simulate said 'cannot write' of a cache file and exited with 2)."""
    import errno

    from kraftstokk import atomic

    (cache / f"{play_deck._key(deck_file.read_bytes())}.json").mkdir(parents=True)
    assert load_play_deck(deck_file).model is not None
    assert load_play_deck(deck_file).model is not None  # read in full again, and said nothing

    def full(target: Path, text: str) -> None:
        with atomic.atomic_path(target):
            raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(atomic, "write_text", full)
    other = deck_file.with_name("other.json")
    other.write_text(deck_file.read_text(encoding="utf-8") + " ", encoding="utf-8")
    assert load_play_deck(other).table == DeckTable.from_deck(load_valid_deck(deck_file))
