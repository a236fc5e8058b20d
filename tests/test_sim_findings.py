"""Findings in words: each one appears when its test says so, and only then."""

from __future__ import annotations

from kraftstokk.sim.findings import FindingRules, glossary, run_findings
from kraftstokk.sim.stats import holm
from kraftstokk.sim.stream import RunStats
from kraftstokk.sim.tally import GameRow, Tally


def tally_of(
    rows: list[GameRow], num_cards: int = 4, loser_cards: list[int] | None = None, players=4
) -> RunStats:
    tally = Tally(num_cards=num_cards, rows=rows, loser_cards=loser_cards or [0] * num_cards)
    return RunStats.of_tally(tally, players)


def game(index, winner, loser, counters=None, actions=100, finished=True):
    return GameRow(
        index=index,
        finished=finished,
        actions=actions,
        rounds=10,
        winner=winner if finished else -1,
        loser=loser if finished else -1,
        counters=counters or {},
    )


def kinds(findings):
    return [finding.kind for finding in findings]


def find(stats, game_name="idiot", labels=None, **rules):
    return run_findings(
        stats,
        game=game_name,
        action_cap=1000,
        card_labels=labels or {},
        rules=FindingRules(**rules),
    )


def everyday(index):
    """Counters that keep the idiot's specials neither rare nor too common."""
    return {name: 1 for name in ("burns", "ten_burns", "four_burns", "chance_draws")} | {
        "face_down_fails": 1
    }


def test_fair_seats_give_no_seat_finding():
    rows = [game(i, i % 4, (i + 1) % 4, everyday(i)) for i in range(400)]
    assert kinds(find(tally_of(rows))) == []


def test_seat_advantage_names_the_seat_from_one_and_its_interval():
    rows = [game(i, 0 if i % 2 else i % 4, (i + 1) % 4, everyday(i)) for i in range(400)]
    findings = find(tally_of(rows))
    assert kinds(findings) == ["seat_advantage"]
    (finding,) = findings
    assert finding.figures["seat"] == 1  # seat index 0, as a person counts
    assert finding.says.startswith("Seat 1 wins 75.0 % of finished games (interval ")
    assert "a fair share is 25.0 %" in finding.says
    low, high = finding.figures["interval"]
    assert 0.25 < low < 0.75 < high


def test_a_small_edge_in_few_games_is_not_a_finding():
    rows = [game(i, 0 if i % 10 == 0 else i % 4, (i + 1) % 4, everyday(i)) for i in range(40)]
    assert "seat_advantage" not in kinds(find(tally_of(rows)))


def test_unfinished_and_long_games_against_their_thresholds():
    rows = [game(i, i % 4, (i + 1) % 4, everyday(i), finished=i % 10 != 0) for i in range(400)]
    assert "unfinished" in kinds(find(tally_of(rows)))  # 10 %, far above 1 %
    assert "unfinished" not in kinds(find(tally_of(rows), unfinished_share=0.2))
    long = [
        game(i, i % 4, (i + 1) % 4, everyday(i), actions=1000 if i % 5 == 0 else 100)
        for i in range(400)
    ]
    (finding,) = [f for f in find(tally_of(long)) if f.kind == "long_games"]
    assert finding.says.startswith("20.0 % of finished games take more than 3 times the median")


def test_specials_never_rare_and_too_often():
    rows = []
    for i in range(400):
        counters = everyday(i) | {"ten_burns": 1 if i == 0 else 0, "burns": 40}
        counters.pop("chance_draws")
        rows.append(game(i, i % 4, (i + 1) % 4, counters))
    found = {(f.kind, f.figures["counter"]) for f in find(tally_of(rows)) if "counter" in f.figures}
    assert ("never_special", "chance_draws") in found
    assert ("rare_special", "ten_burns") in found  # 1 game in 400
    assert ("often_special", "burns") in found  # 40 of 100 actions


def test_cards_left_with_the_loser_far_more_often():
    rows = [game(i, i % 4, (i + 1) % 4, everyday(i)) for i in range(200)]
    labels = {0: "Tonstad (spar 1)", 1: "Sima (spar 2)", 2: "Rana (spar 3)", 3: "Tyin (spar 4)"}
    tally = tally_of(rows, loser_cards=[150, 20, 20, 20])
    (finding,) = [f for f in find(tally, labels=labels) if f.kind == "loser_cards"]
    assert finding.says.startswith("Tonstad (spar 1) (75.0 %) are left with the loser")
    assert finding.figures["cards"] == ["Tonstad (spar 1)"]
    even = tally_of(rows, loser_cards=[30, 20, 20, 20])
    assert "loser_cards" not in kinds(find(even, labels=labels))


def test_holm_keeps_only_what_survives_the_family():
    assert holm([0.001, 0.02, 0.04, 0.5], 0.95) == [True, False, False, False]
    assert holm([0.001, 0.012, 0.02], 0.95) == [True, True, True]
    assert holm([], 0.95) == []


def test_glossary_tells_apart_wars_and_war_rounds():
    (line,) = glossary(["wars", "war_rounds", "runs"])
    assert line.startswith("wars: wars started") and "war_rounds" in line


def test_a_games_own_glossary_replaces_the_general_sentence():
    assert glossary(["pile_pickups"], "idiot") == []
    (line,) = glossary(["pile_pickups"], "stromkrig")
    assert "a lost war counts under wars instead" in line
