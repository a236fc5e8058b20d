"""nr. per category (D-3): permutation, agreement with figures, documented tie-break."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from kraftstokk.deck.rank import RankItem, id_order, nr_bounds, rank_all, rank_category
from kraftstokk.models import CATEGORIES

# Few distinct values, so that tables are full of ties.
tie_heavy = st.sampled_from([1.0, 2.0, 2.5, 10.0, 100.0])
figures = st.one_of(tie_heavy, st.floats(min_value=0.1, max_value=5000, allow_nan=False))


@st.composite
def tables(draw: st.DrawFn) -> list[RankItem]:
    size = draw(st.integers(min_value=1, max_value=60))
    ids = draw(st.lists(st.text("ABN0123456789", min_size=1, max_size=4), min_size=size,
                        max_size=size, unique=True))  # fmt: skip
    return [
        RankItem(key=f"k{i}", plant_id=plant_id, figures={c: draw(figures) for c in CATEGORIES})
        for i, plant_id in enumerate(ids)
    ]


@settings(max_examples=150, deadline=None)
@given(tables(), st.sampled_from(["other-figures-then-id", "id"]))
def test_nr_is_a_permutation_consistent_with_the_figures(items, rule):
    ranking = rank_all(items, rule)
    for category in CATEGORIES:
        nr = ranking.nr[category]
        assert sorted(nr.values()) == list(range(1, len(items) + 1))
        for a in items:
            for b in items:
                if a.figures[category] > b.figures[category]:
                    assert nr[a.key] < nr[b.key]
        bounds = nr_bounds(items, category)
        for item in items:
            low, high = bounds[item.key]
            assert low <= nr[item.key] <= high


@settings(max_examples=100, deadline=None)
@given(tables(), st.randoms(use_true_random=False))
def test_ranking_does_not_depend_on_input_order(items, rng):
    shuffled = list(items)
    rng.shuffle(shuffled)
    assert rank_all(items).nr == rank_all(shuffled).nr


@settings(max_examples=100, deadline=None)
@given(tables())
def test_every_tie_is_listed_with_consecutive_nr(items):
    for category in CATEGORIES:
        nr, ties = rank_category(items, category)
        tied_keys = {key for tie in ties for key in tie.keys}
        values = [item.figures[category] for item in items]
        for item in items:
            assert (values.count(item.figures[category]) > 1) == (item.key in tied_keys)
        for tie in ties:
            assert [nr[key] for key in tie.keys] == list(tie.nrs)
            assert list(tie.nrs) == list(range(tie.nrs[0], tie.nrs[0] + len(tie.keys)))


def _item(plant_id: str, mw: float, gwh: float, head: float) -> RankItem:
    return RankItem(plant_id, plant_id, {"mw": mw, "gwh": gwh, "head_m": head})


def test_tie_break_rule_other_figures_then_id():
    items = [
        _item("N3", 100, 500, 40),
        _item("N1", 100, 500, 40),
        _item("N2", 100, 700, 10),
        _item("N4", 100, 500, 90),
    ]
    nr, ties = rank_category(items, "mw", "other-figures-then-id")
    # Production first (N2), then head (N4), then plant id (N1 before N3).
    assert [k for k, _ in sorted(nr.items(), key=lambda kv: kv[1])] == ["N2", "N4", "N1", "N3"]
    assert len(ties) == 1 and ties[0].nrs == (1, 2, 3, 4)


def test_tie_break_rule_id_ignores_other_figures():
    items = [_item("N3", 100, 900, 40), _item("N1", 100, 500, 40), _item("N2", 100, 700, 10)]
    nr, _ = rank_category(items, "mw", "id")
    assert nr == {"N1": 1, "N2": 2, "N3": 3}


def test_lower_plant_id_is_by_number_not_plain_text():
    # Plain text order would put N1334 before N228 and N264 before N3.
    items = [_item("N1334", 230, 700, 40), _item("N228", 230, 700, 40),
             _item("N264", 150, 800, 40), _item("N3", 150, 800, 40),
             _item("1000", 80, 900, 40), _item("999", 80, 900, 40)]  # fmt: skip
    for rule in ("id", "other-figures-then-id"):
        nr, _ = rank_category(items, "mw", rule)
        assert nr["N228"] < nr["N1334"] and nr["N3"] < nr["N264"] and nr["999"] < nr["1000"]


def test_id_order_keeps_ids_that_read_the_same_apart():
    assert id_order("N3") < id_order("N10") < id_order("N10b") < id_order("N100")
    assert id_order("N010") == id_order("N10")  # then the plain id decides, see sort_key
    items = [_item("N010", 1, 1, 1), _item("N10", 1, 1, 1)]
    nr, _ = rank_category(items, "mw", "id")
    assert nr == {"N010": 1, "N10": 2}


def test_highest_figure_is_nr_1():
    rng = random.Random(5)
    items = [_item(f"P{i}", rng.uniform(1, 99), i + 1.0, 5.0) for i in range(52)]
    ranking = rank_all(items)
    assert ranking.nr["gwh"]["P51"] == 1 and ranking.nr["gwh"]["P0"] == 52
    assert ranking.nr["head_m"]["P51"] == 1  # all heads equal: production breaks the tie
