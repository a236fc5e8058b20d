"""Idiot's rules as pure predicates and tables (RULES.md ID-1, ID-5..ID-8, ID-13).

Everything here is a function of ranks alone, so the engine, the bots, the booklet's
examples and the tests ask the same questions the same way.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

TWO: Final = 2
TEN: Final = 10
ACE: Final = 14
ROW: Final = 3  # ID-2: three face-down, three face-up and three hand cards each
FOUR: Final = 4  # ID-8: four of a rank on top burn the pile
ANYTHING: Final = 99  # the reach of a 2 or a 10: they go on any card (ID-5)
RANK_NAMES: Final = {11: "J", 12: "Q", 13: "K", 14: "A"}


def rank_of(value: int) -> int:
    """ID-1: the Idiot rank of a card value; the ace (1) is high, 14."""
    return ACE if value == 1 else value


def rank_name(rank: int) -> str:
    return RANK_NAMES.get(rank, str(rank))


def reach(rank: int) -> int:
    """ID-5: the highest pile requirement a card meets (2 and 10 go on anything)."""
    return ANYTHING if rank in (TWO, TEN) else rank


def may_lay(rank: int, need: int) -> bool:
    """ID-5: a card may be laid when it is at least the top card's rank (``need``)."""
    return reach(rank) >= need


def need_after(rank: int) -> int:
    """ID-6: what the next card must reach after ``rank`` lies on top (0 after a 2)."""
    return 0 if rank == TWO else rank


def burns(rank: int) -> bool:
    """ID-7: a 10 burns the pile."""
    return rank == TEN


def four_on_top(pile_ranks: Sequence[int]) -> bool:
    """ID-8: the top four cards of the pile (top = last) are of one rank."""
    if len(pile_ranks) < FOUR:
        return False
    top = pile_ranks[-1]
    return pile_ranks[-2] == top and pile_ranks[-3] == top and pile_ranks[-4] == top


def top_count(pile_ranks: Sequence[int]) -> int:
    """How many cards of the top card's rank lie stacked on top of the pile."""
    if not pile_ranks:
        return 0
    top = pile_ranks[-1]
    count = 0
    for rank in reversed(pile_ranks):
        if rank != top:
            break
        count += 1
    return count


def next_in_run(rank: int) -> int:
    """ID-13 ``sequences``: the rank that continues a run after ``rank``; 0 for none.

    No 2 or 10 inside a run; the run steps over the 10, so a 9 is followed by a jack.
    """
    if rank in (TWO, TEN) or rank >= ACE:
        return 0
    following = rank + 1
    if following == TEN:
        following = 11
    return following
