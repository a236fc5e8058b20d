"""The streamed sums: histograms within their error bound, sums that merge in any order
and equal a direct computation, paired differences, Holm's correction and the verdict."""

from __future__ import annotations

import math
import pickle
import random
from array import array

import numpy as np
import pytest

from kraftstokk.games.core import Result, Stats
from kraftstokk.games.runner import GameRecord
from kraftstokk.sim.compare import Difference, compare_runs, corrected
from kraftstokk.sim.histogram import EXACT_BELOW, RELATIVE_ERROR, Histogram, bucket_of
from kraftstokk.sim.stream import (
    GAMES,
    PairStats,
    RunStats,
    counter,
    game_matrix,
    gram,
    paired_ratio,
    ratio,
)
from kraftstokk.sim.tally import Tally
from kraftstokk.sim.verdict import change, deck_names, verdict

CARDS = 6


def exact_describe(values: list[int]) -> dict[str, float]:
    ordered = sorted(values)
    n = len(ordered)
    middle = n // 2
    median = ordered[middle] if n % 2 else (ordered[middle - 1] + ordered[middle]) / 2
    return {
        "mean": sum(ordered) / n,
        "median": float(median),
        "p95": float(ordered[max(0, math.ceil(0.95 * n) - 1)]),
        "max": float(ordered[-1]),
    }


# -------------------------------------------------------------------------- histograms


def test_below_2048_every_figure_is_exact():
    rng = random.Random(3)
    values = [rng.randrange(EXACT_BELOW) for _ in range(5001)]
    histogram = Histogram.of_values(np.array(values, dtype=np.int64))
    assert histogram.exact
    assert histogram.describe() == exact_describe(values)
    assert histogram == Histogram.of_counts({v: values.count(v) for v in set(values)})


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_above_2048_median_and_p95_stay_within_the_stated_error(seed):
    rng = random.Random(seed)
    values = [int(rng.lognormvariate(9, 1.5)) for _ in range(4000)]  # up to millions
    assert max(values) > 100 * EXACT_BELOW
    histogram = Histogram.of_values(np.array(values, dtype=np.int64))
    assert not histogram.exact
    found, expected = histogram.describe(), exact_describe(values)
    assert found["mean"] == expected["mean"] and found["max"] == expected["max"]
    for key in ("median", "p95"):
        assert abs(found[key] - expected[key]) <= RELATIVE_ERROR * expected[key] + 0.5
    # One bucket per value's leading 11 bits: a bounded number of buckets.
    assert len(histogram.buckets) < EXACT_BELOW + 1024 * 12


def test_buckets_keep_eleven_leading_bits():
    assert bucket_of(2047) == 2047
    assert bucket_of(2048) == bucket_of(2049) == 2048
    assert bucket_of(4099) == 4096 and bucket_of(4100) == 4100
    assert bucket_of(-5) == -5
    for value in (3000, 70_000, 10**9):
        low = bucket_of(value)
        assert low <= value < low + max(1, low >> 10)


def test_histograms_merge_in_any_order_to_the_same():
    rng = random.Random(5)
    parts = [
        Histogram.of_values(np.array([rng.randrange(10**6) for _ in range(300)], dtype=np.int64))
        for _ in range(5)
    ]
    forward, backward = Histogram(), Histogram()
    for part in parts:
        forward.merge(part)
    for part in reversed(parts):
        backward.merge(part)
    assert forward == backward
    assert pickle.loads(pickle.dumps(forward)) == forward


# ------------------------------------------------------------------------------- sums


def game(index: int, rng: random.Random, players: int = 3) -> GameRecord:
    finished = rng.random() > 0.1
    actions = rng.randrange(20, 400)
    counters = {"burns": rng.randrange(6), "lies": rng.randrange(4)}
    if rng.random() < 0.5:
        counters["lies_caught"] = rng.randrange(3)
    samples = {"war_sizes": [rng.randrange(2, 5) for _ in range(rng.randrange(3))]}
    order = rng.sample(range(players), players)
    branching = [0, 0, *(rng.randrange(5) for _ in range(rng.randrange(6)))]
    choices = sum(branching)
    answers = rng.randrange(actions - choices + 1)
    settled = rng.randrange(actions)
    played = [rng.randrange(3) for _ in range(CARDS)]
    play = [
        *(choices, sum(n * count for n, count in enumerate(branching))),
        *(answers, min(answers, choices), rng.randrange(9), rng.randrange(2)),
        *(settled, rng.randrange(settled, actions + 1), sum(played)),
    ]
    return GameRecord(
        rules={},
        seed=index,
        actions=[],
        result=Result(finished, order, order[-1] if finished else None, actions, actions // 4),
        stats=Stats(
            counters=counters,
            samples={k: v for k, v in samples.items() if v},
            cards_played=played,
            playability=play,
            branching=array(
                "q", [n for pair in enumerate(branching) if pair[1] for n in pair]
            ).tobytes(),
        ),
        loser_cards=[rng.randrange(CARDS)] if finished else [],
    )


def tally_of(records: list[GameRecord], first: int = 0) -> Tally:
    tally = Tally(num_cards=CARDS)
    for offset, record in enumerate(records):
        tally.add(first + offset, record)
    return tally


def chunked(records: list[GameRecord], size: int, players: int = 3) -> RunStats:
    stats = RunStats(CARDS, players)
    for start in range(0, len(records), size):
        stats.merge(RunStats.of_tally(tally_of(records[start : start + size], start), players))
    return stats


def test_sums_do_not_depend_on_the_chunks():
    rng = random.Random(7)
    records = [game(i, rng) for i in range(400)]
    whole = RunStats.of_tally(tally_of(records), 3)
    for size in (1, 7, 64, 399):
        assert chunked(records, size) == whole
    assert pickle.loads(pickle.dumps(whole)) == whole


def test_moments_are_the_sums_of_the_products():
    rng = random.Random(8)
    records = [game(i, rng) for i in range(200)]
    stats = chunked(records, 33)
    lies = [r.stats.counters["lies"] for r in records]
    actions = [r.result.actions for r in records]
    assert stats.games == 200
    assert stats.total(counter("lies")) == sum(lies)
    assert stats.product(counter("lies"), "actions") == sum(
        a * b for a, b in zip(lies, actions, strict=True)
    )
    assert stats.product("actions", "actions") == sum(a * a for a in actions)
    caught = [r.stats.counters.get("lies_caught", 0) for r in records]
    assert stats.positive_games(counter("lies_caught")) == sum(1 for c in caught if c > 0)
    assert stats.finished == sum(1 for r in records if r.result.finished)
    assert (
        stats.unfinished_games == [i for i, r in enumerate(records) if not r.result.finished][:20]
    )


def test_a_ratio_equals_the_direct_computation():
    rng = random.Random(9)
    records = [game(i, rng) for i in range(300)]
    stats = chunked(records, 50)
    n = [r.stats.counters["lies"] for r in records]
    s = [r.stats.counters.get("lies_caught", 0) for r in records]
    rate = sum(s) / sum(n)
    mean_n = sum(n) / len(n)
    variance = sum((si - rate * ni) ** 2 for si, ni in zip(s, n, strict=True)) / (
        len(n) * (len(n) - 1) * mean_n**2
    )
    found = ratio(stats, counter("lies_caught"), counter("lies"))
    assert math.isclose(found.value, rate)
    assert math.isclose(found.variance, variance, rel_tol=1e-12)


def test_sums_past_what_int64_holds_stay_exact():
    values = np.array([[1, 3 * 10**9], [1, 2 * 10**9]], dtype=np.int64)
    product = gram(values, values)
    assert int(product[1, 1]) == 13 * 10**18  # past 2**63 - 1
    one = RunStats(CARDS, 2)
    one.moments = np.full_like(one.moments, 2**62)
    two = RunStats(CARDS, 2)
    two.moments = np.full_like(two.moments, 2**62)
    one.merge(two)
    assert int(one.moments[0, 0]) == 2**63


def test_a_paired_difference_equals_the_paired_t_interval():
    rng = random.Random(10)
    a_records = [game(i, rng) for i in range(250)]
    b_records = [game(i, rng) for i in range(250)]
    a = chunked(a_records, 40)
    b = chunked(b_records, 40)
    pair = PairStats(3, 3)
    for start in range(0, 250, 40):
        tally_a = tally_of(a_records[start : start + 40], start)
        tally_b = tally_of(b_records[start : start + 40], start)
        pair.merge(PairStats.of_matrices(game_matrix(tally_a, 3), game_matrix(tally_b, 3), 3, 3))
    found = paired_ratio(a, b, pair, "actions", GAMES)
    diffs = [y.result.actions - x.result.actions for x, y in zip(a_records, b_records, strict=True)]
    mean = sum(diffs) / len(diffs)
    variance = sum((d - mean) ** 2 for d in diffs) / (len(diffs) - 1) / len(diffs)
    assert math.isclose(found.difference, mean)
    assert math.isclose(found.variance, variance, rel_tol=1e-12)
    # A ratio of counters: the linearized per-game differences, computed directly.
    found = paired_ratio(a, b, pair, counter("lies_caught"), counter("lies"))

    def parts(records):
        n = [r.stats.counters["lies"] for r in records]
        s = [r.stats.counters.get("lies_caught", 0) for r in records]
        rate, mean_n = sum(s) / sum(n), sum(n) / len(n)
        return rate, [(si - rate * ni) / mean_n for si, ni in zip(s, n, strict=True)]

    (rate_a, u_a), (rate_b, u_b) = parts(a_records), parts(b_records)
    g = len(u_a)
    expected = sum((y - x) ** 2 for x, y in zip(u_a, u_b, strict=True)) / (g * (g - 1))
    assert math.isclose(found.difference, rate_b - rate_a)
    assert math.isclose(found.variance, expected, rel_tol=1e-9)


# -------------------------------------------------------------------------- comparing


def paired(a_records, b_records, players=3):
    tally_a, tally_b = tally_of(a_records), tally_of(b_records)
    matrix_a, matrix_b = game_matrix(tally_a, players), game_matrix(tally_b, players)
    return (
        RunStats.of_matrix(matrix_a, tally_a, players),
        RunStats.of_matrix(matrix_b, tally_b, players),
        PairStats.of_matrices(matrix_a, matrix_b, players, players),
    )


def test_the_same_games_are_told_and_every_difference_is_zero():
    rng = random.Random(11)
    records = [game(i, rng) for i in range(120)]
    a, b, pair = paired(records, records)
    comparison = compare_runs(a, b, pair)
    assert comparison.same_games and comparison.identical == 120
    assert all(item.difference == 0 and item.ci95 == (0.0, 0.0) for item in comparison.differences)
    assert not comparison.significant
    names = ("Stokket (2026)", "Kraft-stokken (2024-01)")
    sentence = verdict("idiot", names, comparison)
    assert sentence == (
        "Kraft-stokken (2024-01) and Stokket (2026) play alike in Idiot (the same games: "
        "Idiot reads only suits and values)."
    )


def test_a_clear_difference_is_named_with_its_interval_after_holm():
    rng = random.Random(12)
    a_records = [game(i, rng) for i in range(400)]
    b_records = []
    for record in a_records:  # B: one more burn in every game, nothing else changes
        counters = dict(record.stats.counters, burns=record.stats.counters["burns"] + 1)
        stats = Stats(
            counters=counters,
            samples=record.stats.samples,
            cards_played=record.stats.cards_played,
            playability=record.stats.playability,
            branching=record.stats.branching,
        )
        b_records.append(GameRecord({}, record.seed, [], record.result, stats, record.loser_cards))
    a, b, pair = paired(a_records, b_records)
    comparison = compare_runs(a, b, pair)
    burns = next(item for item in comparison.differences if item.metric == "burns_per_game")
    assert burns.difference == 1.0 and burns.ci95 == (1.0, 1.0) and burns.significant
    assert [item.metric for item in comparison.significant] == ["burns_per_game"]
    assert comparison.identical == 0 and not comparison.same_games
    assert change(burns) == "1.0 more burns per game"
    sentence = verdict("stromkrig", ("A deck (1)", "B deck (2)"), comparison)
    assert sentence.startswith(
        "In Strømkrig, B deck (2) has 1.0 more burns per game than A deck (1) "
        "(95 % interval +1.00 to +1.00), a difference that holds after correcting for the "
        f"{comparison.family} metrics compared."
    )


def test_holm_over_the_family_holds_back_what_one_test_alone_would_call():
    def item(p_value):
        return Difference("m", "per_game", 1.0, 1.1, 0.1, (0.0, 0.2), p_value, 1.0)

    # Three of four below 0.05 alone; over the family of four only the first holds, and
    # the family is every comparison's metrics together (as in a sweep).
    held = corrected([[item(0.001), item(0.02)], [item(0.04), item(0.5)]], 0.95)
    assert [[d.significant for d in family] for family in held] == [[True, False], [False, False]]
    rng = random.Random(13)
    a, b, pair = paired([game(i, rng) for i in range(300)], [game(i, rng) for i in range(300)])
    comparison = compare_runs(a, b, pair)  # two samples of the same kind of games
    assert not comparison.significant
    sentence = verdict("idiot", ("A (1)", "B (2)"), comparison)
    assert sentence.startswith(
        f"B (2) and A (1) play alike in Idiot: none of the {comparison.family} metrics "
        "compared differs after correcting for testing them all (the largest difference: "
    )


def test_decks_with_the_same_title_and_edition_are_told_apart_by_file():
    deck = {"title": "Kraft-stokken", "edition": "2024-01"}
    assert deck_names({**deck, "path": "a/deck.json"}, {**deck, "path": "b/deck.json"}) == (
        "Kraft-stokken (2024-01) [a/deck.json]",
        "Kraft-stokken (2024-01) [b/deck.json]",
    )
