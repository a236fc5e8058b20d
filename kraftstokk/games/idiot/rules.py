"""Idiot's rules: its parameters, and its predicates of ranks (RULES.md ID-1..ID-13).

Each rule is written here once. :class:`IdiotRules` holds the rule parameters (the
burn count, the hand size, the switches of the variants); ``spec.py`` holds the main
rules (:data:`RULES`) and says which parameters each variant sets. The functions are
of ranks and parameters alone: :class:`~kraftstokk.games.idiot.state.IdiotGame` builds
its per-card tables from them (which the state reads, and which ``fast.py`` hands to
the native core with the parameters), and the bots, the booklet's worked examples and
the tests ask the same functions. A rule the tables cannot carry has its one twin in
``_fastcore.c``, marked with the function's name (``/* rules.burns_on_top */``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from kraftstokk.errors import GameError
from kraftstokk.games.parameters import RuleParameters

TWO: Final = 2
TEN: Final = 10
ACE: Final = 14
SNEAK_RANK: Final = 3  # ID-13 sneak_three: the rank that may go under the pile
ANYTHING: Final = 99  # the reach of a 2 or a 10: they go on any card (ID-5)
RANK_NAMES: Final = {11: "J", 12: "Q", 13: "K", 14: "A"}


@dataclass(frozen=True)
class IdiotRules(RuleParameters):
    """The rule parameters of one game of Idiot; the defaults are the main rules."""

    hand_size: int = 3  # ID-2, ID-9: cards face down, face up and in hand; drawn back up to
    burn_count: int = 4  # ID-8: this many cards of one rank on top burn the pile
    two_same_player: bool = False  # ID-6: the player who laid a 2 plays again
    no_finish_on_two: bool = False  # ID-13: a 2 may not be the last card played
    no_swap: bool = False  # ID-13: no swapping before play (ID-3 off)
    sequences: bool = False  # ID-13: runs (serie)
    sneak_three: bool = False  # ID-13: a 3 may go under the pile

    def __post_init__(self) -> None:
        if self.hand_size < 1:
            raise GameError(f"idiot: hand_size is at least 1, not {self.hand_size}")
        if self.burn_count < 2:
            raise GameError(f"idiot: burn_count is at least 2, not {self.burn_count}")


#: The main rules (seed 002); the variants of ``spec.py`` change some parameters.
RULES: Final = IdiotRules()


def next_seat(out: Sequence[bool], seat: int) -> int:
    """ID-12: the turn passes to the left, to the next seat still in (``out``: by seat)."""
    seats = len(out)
    seat = (seat + 1) % seats
    while out[seat]:
        seat = (seat + 1) % seats
    return seat


def rank_of(value: int) -> int:
    """ID-1: the Idiot rank of a card value; the ace (1) is high, 14."""
    return ACE if value == 1 else value


def rank_name(rank: int) -> str:
    return RANK_NAMES.get(rank, str(rank))


def burns(rank: int) -> bool:
    """ID-7: a 10 burns the pile."""
    return rank == TEN


def resets(rank: int) -> bool:
    """ID-6: a 2 resets: the next card may be anything."""
    return rank == TWO


def reach(rank: int) -> int:
    """ID-5: the highest pile requirement a card meets (2 and 10 go on anything)."""
    return ANYTHING if resets(rank) or burns(rank) else rank


def may_lay(rank: int, need: int) -> bool:
    """ID-5: a card may be laid when it is at least the top card's rank (``need``)."""
    return reach(rank) >= need


def need_after(rank: int) -> int:
    """ID-6: what the next card must reach after ``rank`` lies on top (0 after a 2)."""
    return 0 if resets(rank) else rank


def counts_for_start(rank: int) -> bool:
    """ID-4: the ranks that decide who starts (2 and 10 don't count)."""
    return not resets(rank) and not burns(rank)


def top_count(pile: Sequence[int], ranks: Sequence[int]) -> int:
    """How many cards of the top card's rank lie stacked on top of ``pile`` (card
    indices, top = last; ``ranks`` is each card's rank)."""
    size = len(pile)
    if not size:
        return 0
    top = ranks[pile[size - 1]]
    count = 1
    while count < size and ranks[pile[size - 1 - count]] == top:
        count += 1
    return count


def burns_on_top(pile: Sequence[int], ranks: Sequence[int], rules: IdiotRules) -> bool:
    """ID-8: the top ``burn_count`` cards of ``pile`` (card indices, top = last) are of one
    rank, laid by one player or several: they burn the pile."""
    count = rules.burn_count
    size = len(pile)
    if size < count:
        return False
    top = ranks[pile[size - 1]]
    return all(ranks[pile[i]] == top for i in range(size - count, size - 1))


def may_finish_on(rank: int, rules: IdiotRules) -> bool:
    """ID-13 ``no_finish_on_two``: whether a card of ``rank`` may be the last one played."""
    return not (rules.no_finish_on_two and resets(rank))


def may_sneak(rank: int, rules: IdiotRules) -> bool:
    """ID-13 ``sneak_three``: whether a card of ``rank`` may go under the pile."""
    return rules.sneak_three and rank == SNEAK_RANK


def next_in_run(rank: int) -> int:
    """ID-13 ``sequences``: the rank that continues a run after ``rank``; 0 for none.

    No 2 or 10 inside a run; the run steps over the 10, so a 9 is followed by a jack.
    """
    if resets(rank) or burns(rank) or rank >= ACE:
        return 0
    following = rank + 1
    while burns(following) or resets(following):
        following += 1
    return following if following <= ACE else 0


def lowest_reaching(rank: int, need: int) -> int:
    """The lowest rank above ``rank`` that may be laid when ``need`` is to be reached
    (``need`` itself when no special rank lies between): how far a sorted hand's
    search for a legal card may jump."""
    for higher in range(rank + 1, need):
        if may_lay(higher, need):
            return higher
    return need
