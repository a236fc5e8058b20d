"""Kraftidioten's rules as pure functions, constants and parameters (RULES.md KI-1..KI-9).

The state (``state.py``), the bots and the native core (through the game's tables and
``parameters``, handed over by ``fast.py``) use these, so a rule is written once: what a
claim must reach, what makes it a lie, what burns, what the joker costs. The rule
parameters are :class:`KraftidiotenRules` (the main rules: :data:`RULES`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from kraftstokk.cardfacts import TOP_NR  # KI-8, D-3: nr. 1-3 (the deck's top-3 flag uses it too)
from kraftstokk.errors import GameError
from kraftstokk.games.parameters import RuleParameters


@dataclass(frozen=True)
class KraftidiotenRules(RuleParameters):
    """The rule parameters of one game of Kraftidioten; the defaults are the main rules."""

    hand_size: int = 3  # KI-1, KI-2: cards dealt each, drawn back up to
    joker_penalty: int = 3  # KI-7: burned cards drawn for a joker laid too late
    joker_limit: int = 2  # KI-7: a joker laid while holding this many cards or fewer costs

    def __post_init__(self) -> None:
        if self.hand_size < 1:
            raise GameError(f"kraftidioten: hand_size is at least 1, not {self.hand_size}")
        if self.joker_penalty < 0 or self.joker_limit < 0:
            raise GameError("kraftidioten: joker_penalty and joker_limit are at least 0")


#: The main rules (seed 000).
RULES: Final = KraftidiotenRules()

MAX_CLAIM_FIGURE: Final = 1_000_000  # a stated figure is a whole number up to this (KI-4c)
NO_CATEGORY: Final = -1  # a new pile: the next card chooses the category (KI-2, KI-5)
BURNED: Final = -1  # where a shown card went when it left the game
NOT_SHOWN: Final = -2  # a card never shown


def reaches(figure: float, floor: float) -> bool:
    """KI-3: a claim must be at least the previous claim's figure (equal allowed)."""
    return figure >= floor


def is_lie(card: int, plant: int, stated: float, printed: Sequence[float]) -> bool:
    """KI-6: a lie if the card is not the plant named or the figure is not its printed one."""
    return card != plant or stated != printed[plant]


def is_top3(nr: int) -> bool:
    """KI-8: nr. 1, 2 or 3 in the category (a joker has no nr., 0)."""
    return 0 < nr <= TOP_NR


def lowest_figure_lie(floor: float, printed: float) -> int:
    """KI-4c: the lowest whole figure that reaches ``floor`` and is not ``printed``."""
    lowest = max(0, math.ceil(floor))
    return lowest + 1 if lowest == printed else lowest


def joker_costs(held: int, rules: KraftidiotenRules) -> bool:
    """KI-7: laying a joker while holding two cards or fewer (the joker counted) costs."""
    return held <= rules.joker_limit


def penalty_size(burned: int, rules: KraftidiotenRules) -> int:
    """KI-7: three random burned cards, or as many as there are."""
    return min(rules.joker_penalty, burned)
