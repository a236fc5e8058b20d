"""Keeping a hand in order by a per-card table, compiled with the framework.

``list.sort(key=table.__getitem__)`` and ``bisect.insort(..., key=...)`` call the key
function once per card, through Python's calling convention; hands are short and are
re-sorted after nearly every move, so in the compiled engine these loops over the table
are several times cheaper. Both keep the order ``sort``/``insort`` give: stable, and a
new card after those of an equal key.
"""

from __future__ import annotations

from typing import Final

#: Up to this many cards an insertion sort beats ``list.sort`` with a key function.
SHORT: Final = 12


def insert_sorted(cards: list[int], card: int, keys: tuple[int, ...]) -> None:
    """``bisect.insort(cards, card, key=keys.__getitem__)`` for a sorted ``cards``."""
    key = keys[card]
    i = len(cards)
    cards.append(card)
    while i > 0 and keys[cards[i - 1]] > key:
        cards[i] = cards[i - 1]
        i -= 1
    cards[i] = card


def sort_by(cards: list[int], keys: tuple[int, ...]) -> None:
    """``cards.sort(key=keys.__getitem__)``: a stable insertion sort for a short hand.

    A long one (a pile just taken, unsorted) is left to ``list.sort``, which gives the
    same order: both sorts are stable.
    """
    if len(cards) > SHORT:
        cards.sort(key=keys.__getitem__)
        return
    for j in range(1, len(cards)):
        card = cards[j]
        key = keys[card]
        i = j
        while i > 0 and keys[cards[i - 1]] > key:
            cards[i] = cards[i - 1]
            i -= 1
        cards[i] = card


def remove_card(cards: list[int], card: int) -> None:
    """``cards.remove(card)``, comparing as machine ints rather than through Python objects."""
    for i in range(len(cards)):
        if cards[i] == card:
            del cards[i]
            return
    raise ValueError(f"card {card} is not in the list")
