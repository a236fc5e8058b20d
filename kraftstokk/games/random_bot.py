"""The random-legal bot every game offers, compiled with the framework (``native.FRAMEWORK``).

It decides from the legal actions alone (``reads_observation = False``), so the games'
loops build no observation for it, and it draws its index as ``rng.randrange(n)`` does
(:func:`draw_below`), without randrange's interpreted argument checks: the same stream,
a few hundred nanoseconds less per action.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from kraftstokk.games.core import Action, Game


def draw_below(rng: random.Random, n: int) -> int:
    """``rng.randrange(n)`` for ``n >= 1``: draw ``n.bit_length()`` bits until below ``n``.

    This is CPython's ``Random._randbelow_with_getrandbits``, which ``randrange(n)``
    calls; ``tests/test_games_random_bot.py`` checks that both give the same numbers.
    """
    k = n.bit_length()
    r = rng.getrandbits(k)
    while r >= n:
        r = rng.getrandbits(k)
    return r


class RandomBot:
    """Picks a legal action uniformly at random."""

    reads_observation = False

    def act(self, observation: Any, legal: Sequence[Action], rng: random.Random) -> Action:
        return legal[draw_below(rng, len(legal))]


def random_bot(game: Game, settings: dict[str, Any]) -> RandomBot:
    """The factory of the random-legal bot: it plays every game and takes no settings."""
    if settings:
        raise ValueError(f"random takes no settings, got {', '.join(sorted(settings))}")
    return RandomBot()
