"""nr. per category (RULES.md D-3) and the tie-break rule.

nr. 1 is the highest figure among the deck's 52 plants, nr. 52 the lowest. Equal figures
are ties; they get consecutive nr. in the order of the deck spec's ``tie_break`` rule:

* ``other-figures-then-id`` (default): the tied plant with the higher figure in the other
  categories first, compared in the order production, capacity, head (skipping the
  category being ranked); if still equal, the lower plant id first.
* ``id``: the lower plant id first.

Plant ids compare by their numbers, not as plain text: N3 before N264, 999 before 1000
(:func:`id_order`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from kraftstokk.models import CATEGORIES, Category

#: Order in which the other categories break a tie (production first, D-6's main figure).
TIE_ORDER: tuple[Category, ...] = ("gwh", "mw", "head_m")
DEFAULT_TIE_BREAK = "other-figures-then-id"
TIE_BREAK_RULES = ("other-figures-then-id", "id")
#: What each tie-break rule says, for messages (a rule's id alone explains nothing).
TIE_BREAK_WORDS = {
    "other-figures-then-id": "the higher other figures first (production, capacity, head), "
    "then the lower plant id",
    "id": "the lower plant id first",
}


def tie_break_words(rule: str) -> str:
    """'tie-break rule other-figures-then-id (the higher other figures first, ...)'"""
    return f"tie-break rule {rule} ({TIE_BREAK_WORDS.get(rule, 'unknown rule')})"


@dataclass(frozen=True)
class RankItem:
    """What ranking needs of a card or plant: a key, a tie-break id and the figures."""

    key: str
    plant_id: str
    figures: dict[Category, float]


@dataclass(frozen=True)
class Tie:
    """Cards with equal figures in one category, in tie-break order, with their nr."""

    category: Category
    figure: float
    keys: tuple[str, ...]
    nrs: tuple[int, ...]


@dataclass(frozen=True)
class Ranking:
    nr: dict[Category, dict[str, int]]
    ties: list[Tie]

    def ranks_of(self, key: str) -> dict[Category, int]:
        return {category: self.nr[category][key] for category in CATEGORIES}


IdOrder = tuple[str | int, ...]
SortKey = tuple[float | str | IdOrder, ...]
_DIGIT_RUNS = re.compile(r"(\d+)")
_JRC_PREFIX = re.compile(r"^[Nn](?=\d)")


def id_order(plant_id: str) -> IdOrder:
    """Sort key of a plant id: digit runs compare as numbers (``N3`` < ``N264`` < ``N1000``),
    JRC's ``N`` before a number is ignored, so that ``N448`` and NVE's ``448`` sort alike."""
    parts = _DIGIT_RUNS.split(_JRC_PREFIX.sub("", plant_id.strip()))
    return tuple(int(part) if index % 2 else part for index, part in enumerate(parts))


def sort_key(item: RankItem, category: Category, tie_break: str) -> SortKey:
    """Ascending sort key: first element is the nr. 1 candidate."""
    if tie_break not in TIE_BREAK_RULES:
        raise ValueError(f'unknown tie-break rule "{tie_break}"')
    key: list[float | str | IdOrder] = [-item.figures[category]]
    if tie_break == "other-figures-then-id":
        key.extend(-item.figures[other] for other in TIE_ORDER if other != category)
    key.append(id_order(item.plant_id))
    key.append(item.plant_id)
    key.append(item.key)
    return tuple(key)


def rank_category(
    items: Sequence[RankItem], category: Category, tie_break: str = DEFAULT_TIE_BREAK
) -> tuple[dict[str, int], list[Tie]]:
    """nr. of every item in one category, and the ties the rule broke."""
    ordered = sorted(items, key=lambda item: sort_key(item, category, tie_break))
    nr = {item.key: position for position, item in enumerate(ordered, start=1)}
    ties: list[Tie] = []
    start = 0
    while start < len(ordered):
        end = start
        figure = ordered[start].figures[category]
        while end + 1 < len(ordered) and ordered[end + 1].figures[category] == figure:
            end += 1
        if end > start:
            group = ordered[start : end + 1]
            ties.append(
                Tie(
                    category=category,
                    figure=figure,
                    keys=tuple(item.key for item in group),
                    nrs=tuple(range(start + 1, end + 2)),
                )
            )
        start = end + 1
    return nr, ties


def rank_all(items: Sequence[RankItem], tie_break: str = DEFAULT_TIE_BREAK) -> Ranking:
    """nr. per category for every item (each category a permutation of 1..len(items))."""
    nr: dict[Category, dict[str, int]] = {}
    ties: list[Tie] = []
    for category in CATEGORIES:
        nr[category], category_ties = rank_category(items, category, tie_break)
        ties.extend(category_ties)
    return Ranking(nr=nr, ties=ties)


def nr_bounds(items: Sequence[RankItem], category: Category) -> dict[str, tuple[int, int]]:
    """Per item, the lowest and highest nr. its figure allows (equal only without a tie)."""
    figures = sorted((item.figures[category] for item in items), reverse=True)
    bounds: dict[str, tuple[int, int]] = {}
    for item in items:
        figure = item.figures[category]
        higher = sum(1 for other in figures if other > figure)
        equal = sum(1 for other in figures if other == figure)
        bounds[item.key] = (higher + 1, higher + equal)
    return bounds
