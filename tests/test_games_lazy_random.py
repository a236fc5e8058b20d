"""``LazyRandom(seed)`` draws exactly what ``random.Random(seed)`` draws, seeding on first use."""

from __future__ import annotations

import random

import pytest

from kraftstokk.games.core import LazyRandom

SEEDS = [0, 1, 123456789, 2**64 - 1]


@pytest.mark.parametrize("seed", SEEDS)
def test_same_stream_as_random(seed: int) -> None:
    plain, lazy = random.Random(seed), LazyRandom(seed)
    for rng in (plain, lazy):
        assert isinstance(rng, random.Random)
    cards_plain, cards_lazy = list(range(30)), list(range(30))
    plain.shuffle(cards_plain)
    lazy.shuffle(cards_lazy)
    assert cards_lazy == cards_plain
    for bound in (3, 7, 1000, 3**30):  # randrange may reject and draw again
        assert [lazy.randrange(bound) for _ in range(40)] == [
            plain.randrange(bound) for _ in range(40)
        ]
    assert [lazy.random() for _ in range(5)] == [plain.random() for _ in range(5)]
    assert lazy.sample(range(50), 6) == plain.sample(range(50), 6)
    assert lazy.getstate() == plain.getstate()


@pytest.mark.parametrize("first", ["random", "getrandbits", "choice", "getstate"])
def test_any_first_use_seeds_it(first: str) -> None:
    plain, lazy = random.Random(42), LazyRandom(42)
    if first == "getstate":
        assert lazy.getstate() == plain.getstate()
    elif first == "getrandbits":
        assert lazy.getrandbits(70) == plain.getrandbits(70)
    elif first == "choice":
        assert lazy.choice("abcdefg") == plain.choice("abcdefg")
    else:
        assert lazy.random() == plain.random()
    assert lazy.random() == plain.random()


def test_reseeding_and_setstate_replace_the_pending_seed() -> None:
    lazy = LazyRandom(5)
    lazy.seed(9)
    assert lazy.random() == random.Random(9).random()
    other = LazyRandom(5)
    other.setstate(random.Random(11).getstate())
    assert other.random() == random.Random(11).random()
