"""Replay logs: a game as JSON replays to the same result, for every game there is."""

from __future__ import annotations

import json

import pytest

from kraftstokk.errors import GameError
from kraftstokk.games.core import DeckTable
from kraftstokk.games.registry import make_bots, make_game
from kraftstokk.games.replay import (
    ReplayLog,
    game_from_log,
    load_replay,
    make_replay,
    replay_log,
    save_replay,
)
from kraftstokk.games.runner import play_game


def _played(deck, name: str, players: int, bots: str, seed: int):
    game = make_game(name, DeckTable.from_deck(deck), players)
    record = play_game(game, make_bots(game, bots), seed)
    log = make_replay(deck, game, bots.split(",") * players, seed, record.actions, record.result)
    return game, record, log


@pytest.mark.parametrize("name", ["idiot", "kraftidioten", "stromkrig"])
@pytest.mark.parametrize(("players", "bots", "seed"), [(2, "random", 5), (4, "greedy", 17)])
def test_round_trip_replays_to_the_same_result(deck, tmp_path, name, players, bots, seed):
    _, record, log = _played(deck, name, players, bots, seed)
    path = tmp_path / "game.json"
    save_replay(path, log)
    loaded = load_replay(path)
    assert loaded == log
    state = replay_log(path, debug=True)
    assert state.result() == record.result
    replayed = state.final_stats()  # the events counted (the figures of play come with play)
    assert (replayed.counters, replayed.samples, replayed.cards_played) == (
        record.stats.counters,
        record.stats.samples,
        record.stats.cards_played,
    )
    assert state.is_terminal()
    if record.result.loser is not None:
        assert state.remaining_cards(record.result.loser) == record.loser_cards


def test_log_holds_deck_rules_bots_seed_and_actions(deck, tmp_path):
    game, record, log = _played(deck, "idiot", 3, "heuristic", 4)
    path = tmp_path / "game.json"
    save_replay(path, log)
    raw = json.loads(path.read_text(encoding="utf-8"))
    assert raw["format"] == "kraftstokk-replay" and raw["version"] == 2
    assert raw["deck"]["cards"][0]["id"] == deck.cards[0].id and len(raw["deck"]["cards"]) == 55
    assert raw["rules"] == {"game": "idiot", "players": 3, "variants": [], "action_cap": 5000}
    assert raw["bots"] == ["heuristic"] * 3
    assert raw["seed"] == 4
    assert [tuple(a) for a in raw["actions"]] == record.actions
    assert raw["result"]["loser"] == record.result.loser
    assert game_from_log(load_replay(path)).rules() == game.rules()


def test_variants_and_cap_are_kept(deck, tmp_path):
    game = make_game("idiot", DeckTable.from_deck(deck), 3, ["sequences", "no_swap"], 40)
    record = play_game(game, make_bots(game, "random"), 2)
    log = make_replay(deck, game, ["random"] * 3, 2, record.actions, record.result)
    save_replay(tmp_path / "g.json", log)
    state = replay_log(tmp_path / "g.json")
    assert state.game.variants == {"sequences", "no_swap"}
    assert state.result().actions == 40 and not state.result().finished


def test_a_log_without_result_replays_to_its_last_position(deck):
    game, record, _ = _played(deck, "idiot", 2, "greedy", 3)
    log = make_replay(deck, game, ["greedy", "greedy"], 3, record.actions[:10])
    state = replay_log(log)
    assert state.result().actions == 10 and not state.is_terminal()


def test_illegal_action_names_the_file_and_the_action(deck, tmp_path):
    _, _, log = _played(deck, "idiot", 2, "greedy", 3)
    log.actions[5] = [99, 1]
    path = tmp_path / "bad.json"
    save_replay(path, log)
    with pytest.raises(GameError, match=r"bad\.json: replay: action 6 \[99, 1\] is not legal"):
        replay_log(path)


def test_a_different_result_is_reported(deck, tmp_path):
    _, _, log = _played(deck, "idiot", 3, "greedy", 3)
    assert log.result is not None
    log.result.loser = (log.result.loser or 0) + 1
    path = tmp_path / "tampered.json"
    save_replay(path, log)
    with pytest.raises(GameError, match=r"tampered\.json: replays to a different result"):
        replay_log(path)


def test_actions_after_the_end_are_refused(deck):
    _, record, log = _played(deck, "idiot", 2, "greedy", 3)
    log.actions.append(list(record.actions[-1]))
    log.result = None
    with pytest.raises(GameError, match="after the game ended"):
        replay_log(log)


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        (None, "no such replay file"),
        ("", "file is empty"),
        ("{not json", "not valid JSON"),
        ('{"cards": []}', "not a replay log"),
        ('{"format": "kraftstokk-replay", "seed": 1}', "not a replay log: deck"),
    ],
)
def test_unusable_files_raise_game_error_naming_the_file(tmp_path, content, reason):
    path = tmp_path / "log.json"
    if content is not None:
        path.write_text(content, encoding="utf-8")
    with pytest.raises(GameError, match=reason) as info:
        load_replay(path)
    assert str(path) in info.value.message
    assert info.value.exit_code == 2


@pytest.mark.parametrize(
    ("key", "value", "reason"),
    [
        ("action_cap", 2**100, r"rules\.action_cap: .*is outside 1–1 000 000 actions"),
        ("action_cap", 0, r"rules\.action_cap: 0 actions is outside 1–1 000 000 actions"),
        ("players", 10**9, r"rules\.players: .*is outside 1–64 players"),
        ("seed", 2**64, r"seed: .*is outside"),
        ("bots", ["greedy"] * 65, r"bots: "),
    ],
)
def test_a_log_asking_for_an_absurd_game_is_refused_in_one_line(deck, tmp_path, key, value, reason):
    _, _, log = _played(deck, "idiot", 2, "greedy", 3)
    data = log.model_dump(mode="json")
    (data["rules"] if key in data["rules"] else data)[key] = value
    path = tmp_path / "absurd.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(GameError, match=reason) as info:
        load_replay(path)
    assert info.value.message.startswith(f"{path}: not a replay log: ")
    assert "\n" not in info.value.message and info.value.exit_code == 2


def test_bad_rules_and_deck_in_a_log(deck, tmp_path):
    _, _, log = _played(deck, "idiot", 2, "greedy", 3)
    wrong_players = log.model_copy(deep=True)
    wrong_players.rules.players = 9
    with pytest.raises(GameError, match="2-5 players"):
        replay_log(wrong_players)
    no_deck = ReplayLog.model_validate({**log.model_dump(), "deck": {"title": "x"}})
    with pytest.raises(GameError, match="deck"):
        replay_log(no_deck)
    unknown = log.model_copy(deep=True)
    unknown.rules.game = "poker"
    with pytest.raises(GameError, match="unknown game"):
        replay_log(unknown)


def test_a_version_1_replay_of_idiot_loads_in_todays_action_kinds(deck, tmp_path):
    game = make_game("idiot", DeckTable.from_deck(deck), 3)
    record = play_game(game, make_bots(game, "random"), 21)
    log = make_replay(deck, game, ["random"] * 3, 21, record.actions, record.result)
    old = log.model_dump(mode="json")
    old["version"] = 1
    old["actions"] = [[action[0] - 100, *action[1:]] for action in old["actions"]]
    path = tmp_path / "v1.json"
    path.write_text(json.dumps(old), encoding="utf-8")
    assert load_replay(path).actions == [list(action) for action in record.actions]
    assert replay_log(path).result() == record.result


def test_a_version_1_replay_with_an_unknown_kind_is_refused_in_one_line(deck, tmp_path):
    game = make_game("idiot", DeckTable.from_deck(deck), 2)
    log = make_replay(deck, game, ["random"] * 2, 1, [(101,)], None).model_dump(mode="json")
    log["version"] = 1
    log["actions"] = [[77]]
    path = tmp_path / "v1.json"
    path.write_text(json.dumps(log), encoding="utf-8")
    with pytest.raises(GameError, match=r"v1.json: action 1 \[77\] is no idiot action$"):
        load_replay(path)
