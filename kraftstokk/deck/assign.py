"""Suit and value of each plant (RULES.md D-6): production ladder, seeded shuffle, or table.

Production ladder: the 52 plants in production order (nr. 1 first) go four at a time to
the values 1 (ace), 13, 12, ..., 2. Within each group of four the suits are dealt so that
each suit's running production total stays as even as possible: of the 24 ways to deal
the group, the one with the smallest spread (highest suit total minus lowest) wins, then
the smallest sum of squared totals, then the first in suit order spar, hjerter, kløver,
ruter.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence

from kraftstokk.deck.spec import DeckSpec
from kraftstokk.errors import SpecError
from kraftstokk.models import DECK_SIZE, SUITS, Plant, Suit, card_id

#: Values in ladder order: the four highest producers are aces, the four lowest are 2s.
LADDER_VALUES: tuple[int, ...] = (1, *range(13, 1, -1))
ALL_SLOTS: tuple[tuple[Suit, int], ...] = tuple(
    (suit, value) for suit in SUITS for value in range(1, 14)
)

Assignment = dict[str, tuple[Suit, int]]


def production_ladder(plants_by_production: Sequence[Plant]) -> Assignment:
    """Deal values by production rank and balance suit totals group by group."""
    if len(plants_by_production) != DECK_SIZE:
        raise SpecError(f"policy: the ladder needs {DECK_SIZE} plants")
    totals: dict[Suit, float] = dict.fromkeys(SUITS, 0.0)
    result: Assignment = {}
    for group_index, value in enumerate(LADDER_VALUES):
        group = plants_by_production[group_index * 4 : group_index * 4 + 4]
        best: tuple[float, float, int] | None = None
        best_deal: tuple[Suit, ...] = SUITS
        for order, deal in enumerate(itertools.permutations(SUITS)):
            trial = dict(totals)
            for plant, suit in zip(group, deal, strict=True):
                trial[suit] += plant.gwh
            spread = max(trial.values()) - min(trial.values())
            score = (round(spread, 6), round(sum(t * t for t in trial.values()), 6), order)
            if best is None or score < best:
                best, best_deal = score, deal
        for plant, suit in zip(group, best_deal, strict=True):
            totals[suit] += plant.gwh
            result[plant.id] = (suit, value)
    return result


def seeded_shuffle(plants: Sequence[Plant], seed: int) -> Assignment:
    """Deal the 52 cards at random, reproducibly: same plants and seed, same deal."""
    slots = list(ALL_SLOTS)
    random.Random(seed).shuffle(slots)
    ordered = sorted(plants, key=lambda plant: plant.id)
    return {plant.id: slot for plant, slot in zip(ordered, slots, strict=True)}


def explicit_table(plants: Sequence[Plant], spec: DeckSpec) -> Assignment:
    """The spec's table, which must give each of the 52 cards to one selected plant."""
    table = spec.table_suit_values()
    wanted = {card_id(suit, value) for suit, value in ALL_SLOTS}
    given = set(spec.policy.table)
    if len(spec.policy.table) != len(table):
        counts: dict[str, list[str]] = {}
        for key, plant_id in spec.policy.table.items():
            counts.setdefault(plant_id, []).append(key)
        plant_id, keys = next((p, k) for p, k in counts.items() if len(k) > 1)
        raise SpecError(f"policy.table: plant {plant_id!r} is on several cards ({', '.join(keys)})")
    missing = [key for key in (card_id(s, v) for s, v in ALL_SLOTS) if key not in given]
    if missing or given - wanted:
        per_suit = {suit: sum(1 for s, _ in table.values() if s == suit) for suit in SUITS}
        counts_text = ", ".join(f"{suit} {count}" for suit, count in per_suit.items())
        raise SpecError(
            f"policy.table: cannot give 13 cards per suit ({counts_text}); "
            f"missing {', '.join(missing[:8])}{' …' if len(missing) > 8 else ''}"
        )
    selected = {plant.id for plant in plants}
    stray = sorted(set(table) - selected)
    if stray:
        raise SpecError(f"policy.table: plant {stray[0]!r} is not among the selected plants")
    return {plant.id: table[plant.id] for plant in plants}


def assign_suits_and_values(
    plants: Sequence[Plant], plants_by_production: Sequence[Plant], spec: DeckSpec
) -> Assignment:
    kind = spec.policy.kind
    if kind == "production-ladder":
        assignment = production_ladder(plants_by_production)
    elif kind == "shuffle":
        assignment = seeded_shuffle(plants, spec.policy.seed)
    else:
        assignment = explicit_table(plants, spec)
    if sorted(assignment.values()) != sorted(ALL_SLOTS):
        raise SpecError(f"policy.kind = {kind!r}: cannot give 13 cards per suit")
    return assignment


def suit_totals(plants: Sequence[Plant], assignment: Assignment) -> dict[Suit, float]:
    totals: dict[Suit, float] = dict.fromkeys(SUITS, 0.0)
    for plant in plants:
        totals[assignment[plant.id][0]] += plant.gwh
    return totals
