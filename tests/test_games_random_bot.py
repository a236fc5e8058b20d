"""The random bot draws what ``rng.randrange(len(legal))`` draws, from the legal list alone."""

from __future__ import annotations

import random

import pytest

from kraftstokk.games.core import LazyRandom
from kraftstokk.games.random_bot import RandomBot, draw_below


@pytest.mark.parametrize("seed", [0, 7, 2**64 - 1])
def test_draw_below_is_randrange(seed: int) -> None:
    plain, fast = random.Random(seed), random.Random(seed)
    bounds = [*range(1, 300), 2**31 - 1, 2**31, 2**32 + 1, 3**40]
    for bound in bounds * 3:  # bounds just above a power of two reject often
        assert draw_below(fast, bound) == plain.randrange(bound)
    assert fast.getstate() == plain.getstate()


def test_draw_below_seeds_a_lazy_generator() -> None:
    lazy, plain = LazyRandom(99), random.Random(99)
    assert [draw_below(lazy, 5) for _ in range(50)] == [plain.randrange(5) for _ in range(50)]


def test_random_bot_picks_as_randrange_and_needs_no_observation() -> None:
    legal = [(100 + i,) for i in range(9)]
    bot_rng, plain = random.Random(3), random.Random(3)
    picks = [RandomBot().act(None, legal, bot_rng) for _ in range(200)]
    assert picks == [legal[plain.randrange(len(legal))] for _ in range(200)]
    assert RandomBot().reads_observation is False
