"""Metric definitions, checked on hand-built game logs."""

from __future__ import annotations

import dataclasses
import math
import random

import pytest

from kraftstokk.games.core import Result, Stats, derive_seed
from kraftstokk.games.playability import FIGURES
from kraftstokk.games.runner import GameRecord
from kraftstokk.sim.histogram import Histogram
from kraftstokk.sim.metrics import RunInfo, length_histogram, ratios_for, strip_timing, summarize
from kraftstokk.sim.stats import wilson
from kraftstokk.sim.stream import RunStats, ratio
from kraftstokk.sim.tally import Tally

CARDS = 5
IDS = ("spar-1", "spar-2", "hjerter-1", "hjerter-2", "joker-1")
NAMES = ("Tonstad", "Sima", "Kvilldal", "Tokke", "Joker")


def record(
    *,
    finished: bool = True,
    order: list[int] | None = None,
    loser: int | None = 2,
    actions: int = 10,
    rounds: int = 3,
    counters: dict[str, int] | None = None,
    samples: dict[str, list[int]] | None = None,
    played: list[int] | None = None,
    loser_cards: list[int] | None = None,
) -> GameRecord:
    return GameRecord(
        rules={},
        seed=0,
        actions=[],
        result=Result(
            finished,
            [0, 1] if order is None else order,
            loser if finished else None,
            actions,
            rounds,
        ),
        stats=Stats(
            counters=counters or {},
            samples=samples or {},
            cards_played=played if played is not None else [0] * CARDS,
            playability=[0] * len(FIGURES),
        ),
        loser_cards=loser_cards or [],
    )


def info(game: str = "kraftidioten", players: int = 3, in_play=None) -> RunInfo:
    return RunInfo(
        game=game,
        players=players,
        bots=["greedy"] * players,
        seed=1,
        games_requested=4,
        variants=[],
        action_cap=100,
        deck_path="deck.json",
        deck_title="Kraft-stokken",
        deck_edition="test",
        card_ids=IDS,
        card_names=NAMES,
        cards_in_play=in_play,
    )


def sums(tally: Tally, players: int = 3) -> RunStats:
    return RunStats.of_tally(tally, players)


def summary_of(tally: Tally, **changes) -> dict:
    return summarize(sums(tally), changes.pop("run_info", info()), elapsed=1.0, workers=1)


def four_games() -> Tally:
    """Three finished games and one that hit the cap."""
    tally = Tally(num_cards=CARDS)
    tally.add(
        0,
        record(
            order=[0, 1],
            loser=2,
            actions=10,
            rounds=2,
            counters={"lies": 2, "challenges": 4, "challenges_upheld": 1, "pile_pickups": 3},
            samples={"war_sizes": [2, 3]},
            played=[1, 0, 2, 0, 1],
            loser_cards=[1, 3],
        ),
    )
    tally.add(
        1,
        record(
            order=[1, 0],
            loser=2,
            actions=20,
            rounds=4,
            counters={"lies": 1, "challenges": 1, "challenges_upheld": 1, "burns": 2},
            samples={"war_sizes": [2]},
            played=[0, 1, 0, 0, 0],
            loser_cards=[3],
        ),
    )
    tally.add(2, record(order=[0, 2], loser=1, actions=30, rounds=6, played=[2, 0, 0, 0, 0]))
    tally.add(
        3,
        record(
            finished=False,
            order=[2],
            actions=100,
            rounds=30,
            counters={"lies": 5},
            played=[0, 0, 0, 4, 0],
            loser_cards=[0, 1, 2],
        ),
    )
    return tally


def test_lengths_and_finished_counts():
    summary = summarize(sums(four_games()), info(), elapsed=2.0, workers=1)
    assert (summary["games"], summary["finished"], summary["unfinished"]) == (4, 3, 1)
    assert summary["unfinished_rate"] == 0.25
    assert summary["unfinished_games"] == [{"index": 3, "seed": derive_seed(1, 3)}]
    assert summary["actions"] == {"mean": 40.0, "median": 25.0, "p95": 100.0, "max": 100.0}
    assert summary["rounds"]["mean"] == 10.5
    assert summary["games_per_second"] == 2.0


def test_seat_rates_count_finished_games_only():
    summary = summary_of(four_games())
    # Winners of the finished games: seats 0, 1, 0; the unfinished game's leader (2) is ignored.
    assert summary["wins_by_seat"] == [2, 1, 0]
    assert summary["win_rate_by_seat"] == [round(2 / 3, 6), round(1 / 3, 6), 0.0]
    assert summary["losses_by_seat"] == [0, 1, 2]
    low, high = wilson(2, 3)
    assert summary["win_rate_ci95_by_seat"][0] == [round(low, 6), round(high, 6)]
    assert summary["loser_rate_ci95_by_seat"][0][0] == 0.0


def test_counters_are_per_game_over_all_games_and_missing_counts_as_zero():
    summary = summary_of(four_games())
    assert summary["counters"]["lies"] == {"total": 8, "per_game": 2.0}
    assert summary["counters"]["burns"] == {"total": 2, "per_game": 0.5}
    assert summary["pile_pickups_per_game"] == 0.75
    assert summary["burns_per_game"] == 0.5


def test_success_rates_from_counter_pairs():
    summary = summary_of(four_games())
    upheld = summary["rates"]["challenges_upheld_rate"]
    assert (upheld["successes"], upheld["trials"], upheld["rate"]) == (2, 5, 0.4)
    # Games as units: per game (challenges, upheld) = (4, 1), (1, 1), (0, 0), (0, 0);
    # variance 0.72 / (4 * 3 * 1.25**2) = 0.0384.
    half = 1.959963984540054 * math.sqrt(0.0384)
    assert upheld["ci95"] == [round(0.4 - half, 6), round(0.4 + half, 6)]
    caught = summary["rates"]["lie_caught_rate"]
    assert (caught["successes"], caught["trials"], caught["rate"]) == (2, 8, 0.25)
    assert summary["highlights"]["challenges_upheld_rate"] == 0.4
    assert summary["highlights"]["lies_per_game"] == 2.0
    assert "top3_burns_per_game" not in summary["highlights"]


def test_ratios_only_where_both_counters_exist():
    names = ["chance_draws", "chance_draws_played", "face_down_fails", "burns", "ten_burns"]
    found = {r.name: (r.numerator, r.denominator) for r in ratios_for(names)}
    assert found == {"chance_draws_played_rate": ("chance_draws_played", "chance_draws")}
    assert ratios_for([]) == []


def test_samples_histogram_and_mean():
    summary = summary_of(four_games())
    wars = summary["samples"]["war_sizes"]
    assert wars["count"] == 3
    assert wars["mean"] == round(7 / 3, 6)
    assert wars["histogram"] == {"2": 2, "3": 1}


def test_cards_played_and_left_with_loser():
    summary = summary_of(four_games())
    cards = summary["cards"]
    assert cards["spar-1"]["played"] == 3
    assert cards["spar-1"]["played_per_game"] == 0.75
    assert cards["hjerter-2"]["played"] == 4
    # Left with the loser: only finished games count (3 of them); game 3 is unfinished.
    assert cards["hjerter-2"]["left_with_loser"] == 2
    assert cards["hjerter-2"]["left_with_loser_rate"] == round(2 / 3, 6)
    assert cards["spar-1"]["left_with_loser"] == 0
    assert cards["spar-2"]["name"] == "Sima"


def test_cards_out_of_play_are_left_out():
    summary = summary_of(four_games(), run_info=info(in_play=(0, 1, 2, 3)))
    assert list(summary["cards"]) == ["spar-1", "spar-2", "hjerter-1", "hjerter-2"]


def test_merge_refuses_chunks_out_of_order():
    whole = four_games()
    head, tail = Tally(num_cards=CARDS), Tally(num_cards=CARDS)
    head.rows, tail.rows = whole.rows[:2], whole.rows[2:]
    with pytest.raises(ValueError, match="does not follow"):
        tail.merge(head)
    head.merge(tail)
    assert [row.index for row in head.rows] == [0, 1, 2, 3]


def test_summary_of_merged_tallies_matches_whole_run():
    records = [record(actions=a, order=[a % 3, (a + 1) % 3], loser=(a + 2) % 3) for a in range(9)]
    whole = Tally(num_cards=CARDS)
    for i, rec in enumerate(records):
        whole.add(i, rec)
    merged = Tally(num_cards=CARDS)
    for start in range(0, 9, 4):
        part = Tally(num_cards=CARDS)
        for i in range(start, min(start + 4, 9)):
            part.add(i, records[i])
        merged.merge(part)
    one = summarize(sums(whole), info(), elapsed=1.0, workers=1)
    two = summarize(sums(merged), info(), elapsed=3.0, workers=2)
    assert one != two
    assert strip_timing(one) == strip_timing(two)
    # The sums of the chunks, merged in any order, are the sums of the whole run.
    parts = [sums(merged_part) for merged_part in _chunks(records, 2)]
    forward, backward = RunStats(CARDS, 3), RunStats(CARDS, 3)
    for part in parts:
        forward.merge(part)
    for part in reversed(parts):
        backward.merge(part)
    assert forward == backward == sums(whole)
    three = summarize(backward, info(), elapsed=1.0, workers=1)
    assert strip_timing(three) == strip_timing(one)


def _chunks(records: list[GameRecord], size: int) -> list[Tally]:
    found = []
    for start in range(0, len(records), size):
        part = Tally(num_cards=CARDS)
        for i in range(start, min(start + size, len(records))):
            part.add(i, records[i])
        found.append(part)
    return found


def test_game_without_any_counters_does_not_crash():
    tally = Tally(num_cards=CARDS)
    tally.add(0, record(counters={}, played=[]))
    summary = summarize(sums(tally), info("stromkrig"), elapsed=0.0, workers=1)
    assert summary["counters"] == {}
    assert summary["rates"] == {}
    assert summary["highlights"] == {}
    assert summary["pile_pickups_per_game"] == 0.0
    assert summary["games_per_second"] == 0.0


def test_length_histogram_puts_long_tail_in_overflow():
    values = [50 + i for i in range(100)] + [5000]
    histogram = length_histogram(values)
    assert histogram["start"] == 50
    assert histogram["bin_width"] == 5
    assert sum(histogram["counts"]) + histogram["overflow"] == len(values)
    assert histogram["overflow"] == 1
    assert length_histogram([]) == {"start": 0, "bin_width": 1, "counts": [], "overflow": 0}
    assert length_histogram(Histogram.of_counts({50 + i: 1 for i in range(100)} | {5000: 1})) == (
        histogram
    )


def test_describe_uses_nearest_rank_p95():
    ones = Histogram.of_counts(dict.fromkeys(range(1, 21), 1))
    assert ones.describe() == {"mean": 10.5, "median": 10.5, "p95": 19.0, "max": 20.0}
    assert Histogram.of_counts({7: 1}).describe() == {
        "mean": 7.0,
        "median": 7.0,
        "p95": 7.0,
        "max": 7.0,
    }
    assert Histogram().describe() == {"mean": 0.0, "median": 0.0, "p95": 0.0, "max": 0.0}


def test_wilson_matches_published_values():
    # Newcombe (1998), table I: 81/263 -> 0.2553 to 0.3662; 0/10 -> 0 to 0.2775.
    low, high = wilson(81, 263)
    assert (round(low, 4), round(high, 4)) == (0.2553, 0.3662)
    low, high = wilson(0, 10)
    assert low == 0.0
    assert round(high, 4) == 0.2775
    assert wilson(0, 0) == (0.0, 1.0)


def test_ratio_with_one_event_per_game_is_the_plain_mean():
    def run(pairs):  # per game: (events, their total)
        tally = Tally(num_cards=CARDS)
        for index, (count, total) in enumerate(pairs):
            tally.add(index, record(counters={"n": count, "s": total}))
        return sums(tally)

    # One sample per game: the mean of the values and the variance of that mean.
    found = ratio(run([(1, 1), (1, 3)]), "counter:s", "counter:n")
    assert (found.value, found.variance) == (2.0, 1.0)
    # Every game with the same ratio: no spread whatever the counts.
    found = ratio(run([(2, 6), (4, 12), (1, 3)]), "counter:s", "counter:n")
    assert (found.value, found.variance) == (3.0, 0.0)
    assert ratio(run([(0, 0)]), "counter:s", "counter:n") is None


def test_a_games_counters_are_its_events_counted(deck):
    from kraftstokk.games import registry
    from kraftstokk.games.core import DeckTable
    from kraftstokk.games.events import tally
    from kraftstokk.games.runner import play_game

    game = registry.make_game("idiot", DeckTable.from_deck(deck), 4)
    tally_of_games = Tally(num_cards=len(deck.cards))
    expected: dict[str, int] = {}
    for index in range(12):
        played = play_game(game, registry.make_bots(game, "heuristic"), index)
        assert played.events
        counted = tally(played.events, Stats(cards_played=[0] * len(deck.cards)))
        assert (played.stats.counters, played.stats.samples, played.stats.cards_played) == (
            counted.counters,
            counted.samples,
            counted.cards_played,
        )
        tally_of_games.add(index, played)
        for name, value in counted.counters.items():
            expected[name] = expected.get(name, 0) + value
    assert tally_of_games.counter_totals() == expected
    stats = RunStats.of_tally(tally_of_games, 4)
    assert {name: stats.total(f"counter:{name}") for name in expected} == expected
    assert {"burns", "pile_pickups", "face_down_plays"} <= set(expected)
    state = game.new_initial_state(random.Random(0))
    assert not hasattr(state, "stats")  # no bookkeeping beside the events


def test_rows_keep_each_games_counters_in_its_own_order_through_merge_and_pickle():
    import pickle

    first = Tally(num_cards=CARDS, names=("burns",))
    first.add(0, record(counters={"lies": 2, "burns": 1}, samples={"war_sizes": [2, 3]}))
    first.add(1, record(counters={"burns": 0}))
    second = Tally(num_cards=CARDS)  # numbers the names in another order
    second.add(2, record(counters={"challenges": 4, "lies": 1}, samples={"run_lengths": [5]}))
    second.add(3, record(counters={"burns": 3, "challenges": 1}, samples={"war_sizes": [3]}))
    merged = pickle.loads(pickle.dumps(first))
    merged.merge(pickle.loads(pickle.dumps(second)))
    counters = [row.counters for row in merged.rows]
    assert [list(c.items()) for c in counters] == [
        [("lies", 2), ("burns", 1)],
        [("burns", 0)],
        [("challenges", 4), ("lies", 1)],
        [("burns", 3), ("challenges", 1)],
    ]
    assert [row.samples for row in merged.rows] == [
        {"war_sizes": (2, 5)},
        {},
        {"run_lengths": (1, 5)},
        {"war_sizes": (1, 3)},
    ]
    assert merged.samples == {"war_sizes": {2: 1, 3: 2}, "run_lengths": {5: 1}}
    assert merged.counter_names() == ["burns", "challenges", "lies"]  # a 0 counts as kept
    assert merged.counter_totals() == {"burns": 4, "challenges": 5, "lies": 3}
    rebuilt = Tally(
        num_cards=CARDS,
        rows=merged.rows,
        samples=merged.samples,
        cards_played=merged.cards_played,
        loser_cards=merged.loser_cards,
    )
    assert rebuilt == merged
    assert rebuilt != first


def test_declared_names_that_no_game_kept_are_not_counters():
    tally = Tally(num_cards=CARDS, names=("burns", "lies"))
    tally.add(0, record(counters={"lies": 1}))
    assert tally.counter_names() == ["lies"]
    assert tally.counter_totals() == {"lies": 1}
    assert tally.rows[0].counters == {"lies": 1}


def test_cards_of_the_loser_outside_the_deck_are_not_counted():
    tally = Tally(num_cards=CARDS)
    tally.add(0, record(loser_cards=[1, 1, 4, 7, -1]))
    tally.add(1, record(finished=False, loser_cards=[0]))
    tally.add(2, record(played=[1, 1]))  # a shorter list counts what it has
    assert tally.loser_cards == [0, 2, 0, 0, 1]
    assert tally.cards_played == [1, 1, 0, 0, 0]


def test_a_tally_merged_into_another_can_still_be_added_to_alone():
    head, tail = Tally(num_cards=CARDS), Tally(num_cards=CARDS)
    head.add(0, record(actions=5, counters={"lies": 1}))
    tail.add(1, record(actions=6, counters={"burns": 2}))
    head.merge(tail)  # joined only when read; tail's arrays are shared until then
    tail.add(2, record(actions=7, counters={"lies": 3}))
    assert [row.actions for row in head.rows] == [5, 6]
    assert [row.index for row in tail.rows] == [1, 2]
    assert head.games == 2 and tail.games == 2
    late = Tally(num_cards=CARDS, rows=[dataclasses.replace(tail.rows[1], index=5)])
    with pytest.raises(ValueError, match="does not follow game 1"):
        head.merge(late)


def test_quantiles_are_exact_until_a_length_reaches_2048():
    tally = Tally(num_cards=CARDS)
    tally.add(0, record(actions=2047, rounds=10))
    assert summary_of(tally)["quantiles_exact"] is True
    tally.add(1, record(actions=5001, rounds=10))
    summary = summary_of(tally)
    assert summary["quantiles_exact"] is False
    assert summary["actions"]["max"] == 5001.0  # the mean and the maximum stay exact
    assert summary["actions"]["mean"] == 3524.0
    assert abs(summary["actions"]["median"] - 3524) <= 1  # the middle of 5000's bucket
