"""The engine's hand ordering gives exactly what list.sort and bisect.insort give."""

from __future__ import annotations

import bisect
import random

import pytest

from kraftstokk.games.ordering import insert_sorted, remove_card, sort_by


def test_sort_by_is_a_stable_sort_by_key() -> None:
    rng = random.Random(4)
    for size in range(0, 55):
        keys = tuple(rng.randrange(6) - 1 for _ in range(55))  # many equal keys
        cards = rng.sample(range(55), min(size, 55))
        expected = sorted(cards, key=keys.__getitem__)
        sort_by(cards, keys)
        assert cards == expected


def test_insert_sorted_is_insort() -> None:
    rng = random.Random(5)
    for _ in range(300):
        keys = tuple(rng.randrange(8) for _ in range(55))
        pool = rng.sample(range(55), 12)
        cards = sorted(pool[:-1], key=keys.__getitem__)
        expected = list(cards)
        bisect.insort(expected, pool[-1], key=keys.__getitem__)
        insert_sorted(cards, pool[-1], keys)
        assert cards == expected


def test_remove_card_is_list_remove() -> None:
    cards = [5, 3, 9, 3, 1]
    remove_card(cards, 3)
    assert cards == [5, 9, 3, 1]
    remove_card(cards, 1)
    assert cards == [5, 9, 3]
    with pytest.raises(ValueError, match="card 7"):
        remove_card(cards, 7)
