"""Suit and value of each plant (RULES.md D-6): production ladder, seeded shuffle, or table.

Production ladder: the 52 plants in production order (nr. 1 first) go four at a time to
the values 1 (ace), 13, 12, ..., 2. Within each group of four the suits are dealt so that
the suits' total production comes out as even as possible (smallest spread between the
highest and the lowest suit total); see :func:`production_ladder`.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field

from kraftstokk.deck.spec import DeckSpec
from kraftstokk.errors import SpecError
from kraftstokk.models import DECK_SIZE, SUITS, Deck, Plant, Suit, card_id
from kraftstokk.sources.plant_keys import keyed, plant_key

#: Values in ladder order: the four highest producers are aces, the four lowest are 2s.
LADDER_VALUES: tuple[int, ...] = (1, *range(13, 1, -1))
ALL_SLOTS: tuple[tuple[Suit, int], ...] = tuple(
    (suit, value) for suit in SUITS for value in range(1, 14)
)

Assignment = dict[str, tuple[Suit, int]]


def _score(totals: Sequence[float]) -> tuple[float, float]:
    return round(max(totals) - min(totals), 6), round(sum(t * t for t in totals), 6)


def production_ladder(plants_by_production: Sequence[Plant]) -> Assignment:
    """Deal values by production rank, and suits so that suit totals come out even.

    First each group of four is dealt greedily against the running totals; then, until
    nothing improves, each group in turn is re-dealt (all 24 ways) against the other
    groups' final totals. Scores compare spread, then the sum of squared totals; ties go
    to the first deal in suit order, so the result is deterministic.
    """
    if len(plants_by_production) != DECK_SIZE:
        raise SpecError(f"policy: the ladder needs {DECK_SIZE} plants")
    groups = [
        [plant.gwh for plant in plants_by_production[index * 4 : index * 4 + 4]]
        for index in range(len(LADDER_VALUES))
    ]
    deals = list(itertools.permutations(range(4)))
    chosen: list[int] = []
    running = [0.0] * 4
    for group in groups:
        best = min(
            range(len(deals)),
            key=lambda d: (_score(_add(running, group, deals[d])), d),
        )
        chosen.append(best)
        running = _add(running, group, deals[best])
    improved = True
    while improved:
        improved = False
        for index, group in enumerate(groups):
            rest = _add(running, [-g for g in group], deals[chosen[index]])
            best = min(
                range(len(deals)),
                key=lambda d: (_score(_add(rest, group, deals[d])), d),
            )
            if _score(_add(rest, group, deals[best])) < _score(running):
                chosen[index] = best
                running = _add(rest, group, deals[best])
                improved = True
    result: Assignment = {}
    for index, value in enumerate(LADDER_VALUES):
        members = plants_by_production[index * 4 : index * 4 + 4]
        for plant, suit_index in zip(members, deals[chosen[index]], strict=True):
            result[plant.id] = (SUITS[suit_index], value)
    return result


def _add(totals: Sequence[float], group: Sequence[float], deal: Sequence[int]) -> list[float]:
    """Totals after giving group[i] to suit deal[i]."""
    result = list(totals)
    for figure, suit_index in zip(group, deal, strict=True):
        result[suit_index] += figure
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
        raise SpecError(f'policy.table: plant "{plant_id}" is on several cards ({", ".join(keys)})')
    missing = [key for key in (card_id(s, v) for s, v in ALL_SLOTS) if key not in given]
    if missing or given - wanted:
        per_suit = {suit: sum(1 for s, _ in table.values() if s == suit) for suit in SUITS}
        counts_text = ", ".join(f"{suit} {count}" for suit, count in per_suit.items())
        raise SpecError(
            f"policy.table: cannot give 13 cards per suit ({counts_text}); "
            f"missing {', '.join(missing[:8])}{' …' if len(missing) > 8 else ''}"
        )
    by_key = keyed(table)
    selected = {plant_key(plant.id) for plant in plants}
    stray = sorted(plant_id for plant_id in table if plant_key(plant_id) not in selected)
    if stray:
        raise SpecError(f'policy.table: plant "{stray[0]}" is not among the selected plants')
    return {plant.id: by_key[plant_key(plant.id)] for plant in plants}


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
        raise SpecError(f'policy.kind = "{kind}": cannot give 13 cards per suit')
    return assignment


@dataclass
class KeepReport:
    """What a reprint with ``policy.keep`` kept, freed and filled, and why."""

    previous: str
    kept: int = 0
    #: (card, plant name, plant id, why it left)
    left: list[tuple[str, str, str, str]] = field(default_factory=list)
    #: (card, plant name, plant id, who held the card before)
    entered: list[tuple[str, str, str, str]] = field(default_factory=list)
    how: str = ""
    #: Why most of the deck left, when it did (the likely cause, said loudly).
    alarm: str = ""

    def lines(self) -> list[str]:
        out = [
            f"keep {self.previous}: {self.kept} plants keep their suit and value; "
            f"{len(self.left)} left, {len(self.entered)} entered"
        ]
        if self.alarm:
            out.append(
                f"WARNING: {len(self.left)} of the {self.kept + len(self.left)} plants of "
                f"{self.previous} left the deck, so most cards change: {self.alarm}"
            )
        out.extend(f"  left: {card} {name} ({pid}): {why}" for card, name, pid, why in self.left)
        out.extend(
            f"  entered: {name} ({pid}) takes {card}, freed by {before}, {self.how}"
            for card, name, pid, before in self.entered
        )
        return out


def keep_previous(
    chosen_by_production: Sequence[Plant],
    previous: Assignment,
    spec: DeckSpec,
) -> tuple[Assignment, list[Plant], list[tuple[Suit, int]]]:
    """Plants of ``previous`` keep their (suit, value); entering plants take the freed ones.

    ``previous`` is keyed by plant key (:func:`~kraftstokk.sources.plant_keys.plant_key`),
    so a deck of JRC ids (``N448``) keeps its places in a rebuild from NVE ids (``448``).

    Entering plants are dealt among the freed places by the spec's kind: the production
    ladder gives the highest producer the freed place highest on the ladder (value 1, 13,
    12, ... 2; suits in deck order), the shuffle deals the freed places at random with the
    spec's seed. Returns the assignment, the entering plants and the freed places.
    """
    if spec.policy.kind == "table":
        raise SpecError(
            "policy.keep: cannot be combined with kind = table (the table already fixes "
            "every card); leave one of them out"
        )
    kept: Assignment = {
        p.id: previous[plant_key(p.id)] for p in chosen_by_production if plant_key(p.id) in previous
    }
    taken = set(kept.values())
    if len(taken) != len(kept):
        raise SpecError("policy.keep: the previous deck gives one card to several plants")
    freed = [slot for slot in ALL_SLOTS if slot not in taken]
    entering = [p for p in chosen_by_production if plant_key(p.id) not in previous]
    if spec.policy.kind == "production-ladder":
        places = sorted(freed, key=lambda s: (LADDER_VALUES.index(s[1]), SUITS.index(s[0])))
        newcomers = list(entering)
    else:
        places = list(freed)
        random.Random(spec.policy.seed).shuffle(places)
        newcomers = sorted(entering, key=lambda plant: plant.id)
    assignment = dict(kept)
    for plant, place in zip(newcomers, places, strict=True):
        assignment[plant.id] = place
    return assignment, entering, freed


def suit_totals(plants: Sequence[Plant], assignment: Assignment) -> dict[Suit, float]:
    totals: dict[Suit, float] = dict.fromkeys(SUITS, 0.0)
    for plant in plants:
        totals[assignment[plant.id][0]] += plant.gwh
    return totals


VALUE_PLURALS = {1: "aces", 11: "jacks", 12: "queens", 13: "kings"}


@dataclass
class LadderCheck:
    """Cards whose value no longer follows their production (RULES.md D-6)."""

    #: Card id -> why, for a nr. two or more places outside its value's four.
    breaks: dict[str, str] = field(default_factory=dict)
    #: Cards one place outside (the nr. above them moved: a kept deck drifts so).
    drifting: list[str] = field(default_factory=list)

    def lines(self, cards: Collection[str] | None = None) -> list[str]:
        """The warning, for the cards ``cards`` names (all by default)."""
        breaks = [line for card, line in self.breaks.items() if cards is None or card in cards]
        drifting = [card for card in self.drifting if cards is None or card in cards]
        out: list[str] = []
        if breaks:
            out.append(
                f"warning: {len(breaks)} card(s) break the production ladder (a value no "
                "longer follows production, RULES.md D-6):"
            )
            out.extend(f"  {line}" for line in breaks)
        if drifting:
            out.append(
                f"ladder: {len(drifting)} kept card(s) one nr. outside their value's four "
                f"(their nr. moved by one): {', '.join(drifting)}"
            )
        return out


def ladder_breaks(deck: Deck) -> LadderCheck:
    """Where a deck built by the production ladder no longer follows it: a kept place
    keeps its value when production moves, and an entering plant takes a freed value."""
    policy = deck.spec.get("policy", {}) if isinstance(deck.spec, dict) else {}
    kind = policy.get("kind", "production-ladder") if isinstance(policy, dict) else None
    check = LadderCheck()
    if kind != "production-ladder":
        return check
    for card in deck.plant_cards:
        if card.nr is None or card.value not in LADDER_VALUES:
            continue
        first = 4 * LADDER_VALUES.index(card.value) + 1
        off = max(first - card.nr.gwh, card.nr.gwh - (first + 3), 0)
        if off == 1:
            check.drifting.append(card.id)
        elif off > 1:
            plural = VALUE_PLURALS.get(card.value, f"{card.value}s")
            check.breaks[card.id] = (
                f"{card.id} {card.name} ({card.plant_id}): production nr. {card.nr.gwh}, but "
                f"the ladder gives the {plural} nr. {first}-{first + 3}"
            )
    return check
