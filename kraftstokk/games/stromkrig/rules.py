"""Strømkrig's card rules as pure predicates (RULES.md SK-2, SK-5, SK-6, SK-7, SK-10..SK-12).

Each rule about cards is written here once, and the rule parameters are one dataclass
(:class:`StromkrigRules`: the main rules in :data:`RULES`, which the variants of
``spec.py`` change). The engine builds its per-card tables from these functions and
parameters (the native core plays by the same tables), the deck builder and validator
take their flags from them
(:mod:`kraftstokk.deck.flags`), and the booklet chooses its worked examples with them
(:mod:`kraftstokk.render.booklet_examples`). A card is described by a :class:`CardFace`,
what the rules look at: suit, value, production and nr. per category.

Nothing here knows about a position (whose card lies on top, who is still in, the
stock); the engine adds that (for example, a war needs two different players).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING

from kraftstokk.cardfacts import CATEGORIES, DECK_SIZE, INVISIBLE_FROM_NR, Category
from kraftstokk.errors import GameError
from kraftstokk.games.parameters import RuleParameters

if TYPE_CHECKING:
    from kraftstokk.models import Card


@dataclass(frozen=True)
class StromkrigRules(RuleParameters):
    """The rule parameters of one game of Strømkrig; the defaults are the main rules."""

    hand_size: int = 3  # SK-1, SK-3: cards each; drawn back up to while the stock lasts
    invisible_current_category: bool = False  # SK-12: only the category being played

    def __post_init__(self) -> None:
        if self.hand_size < 1:
            raise GameError(f"stromkrig: hand_size is at least 1, not {self.hand_size}")


#: The main rules (seed 001); the variants of ``spec.py`` change some parameters.
RULES = StromkrigRules()

CLUBS = "kløver"
BURN_MAX_VALUE = 4  # SK-10: the clubs with value 1-4 (and the jokers) burn the pile
RESET_VALUE = 2  # SK-11: the four 2s
TENS = 10  # SK-6b: production rounded down to the nearest 10 GWh
PRODUCTION: Category = "gwh"  # SK-2: cards are compared by production outside a war


class WarReason(Enum):
    """Why a card laid on another starts a war (SK-6)."""

    CLUB_ON_CLUB = "club_on_club"  # SK-6a
    SAME_TENS = "same_tens"  # SK-6b


@dataclass(frozen=True)
class CardFace:
    """What Strømkrig's rules read on a card. Jokers have no suit, value or figures."""

    joker: bool
    suit: str | None = None
    value: int | None = None
    figures: tuple[float, float, float] = (0.0, 0.0, 0.0)  # in the order of CATEGORIES
    nr: tuple[int, int, int] = (0, 0, 0)  # nr. per category, 1 = highest; 0 for jokers

    @classmethod
    def of(cls, card: Card) -> CardFace:
        if card.joker:
            return cls(joker=True)
        figures = (card.figure("mw"), card.figure("gwh"), card.figure("head_m"))
        nr = (card.nr.mw, card.nr.gwh, card.nr.head_m) if card.nr else (0, 0, 0)
        return cls(joker=False, suit=card.suit, value=card.value, figures=figures, nr=nr)

    def figure(self, category: Category) -> float:
        return self.figures[CATEGORIES.index(category)]

    def rank(self, category: Category) -> int:
        return self.nr[CATEGORIES.index(category)]

    @property
    def production(self) -> float:
        return self.figure(PRODUCTION)


def production_tens(gwh: float) -> int:
    """Production rounded down to the nearest 10 GWh (SK-6b: 879 and 871 are both 870)."""
    return int(gwh // TENS) * TENS


def beats(laid: CardFace, under: CardFace) -> bool:
    """SK-2: strictly higher production. A joker beats nothing (it only burns)."""
    return not laid.joker and (under.joker or laid.production > under.production)


def burns(card: CardFace) -> bool:
    """SK-10: a joker or a club with value 1-4 burns the pile."""
    if card.joker:
        return True
    return card.suit == CLUBS and card.value is not None and 1 <= card.value <= BURN_MAX_VALUE


def resets(card: CardFace) -> bool:
    """SK-11: a 2 makes the card under it count as zero."""
    return not card.joker and card.value == RESET_VALUE


def invisible_nr(nr: int) -> bool:
    """D-4: nr. 50, 51 and 52 are "usynlige kort"."""
    return INVISIBLE_FROM_NR <= nr <= DECK_SIZE


def invisible_in(card: CardFace) -> tuple[Category, ...]:
    """The categories in which ``card`` is invisible (D-4, SK-12)."""
    if card.joker:
        return ()
    return tuple(c for c, nr in zip(CATEGORIES, card.nr, strict=True) if invisible_nr(nr))


def invisible(card: CardFace, categories: Iterable[Category] = CATEGORIES) -> bool:
    """SK-12: may go beside the pile, as invisible in one of ``categories``."""
    wanted = set(categories)
    return any(category in wanted for category in invisible_in(card))


def invisible_categories(rules: StromkrigRules) -> tuple[Category, ...]:
    """SK-12: the categories whose nr. 50-52 are invisible cards: all three, or with
    ``invisible_current_category`` only the one being played (production)."""
    return (PRODUCTION,) if rules.invisible_current_category else CATEGORIES


def special(card: CardFace, categories: Iterable[Category] = CATEGORIES) -> bool:
    """A card with a special use (SK-10 burn, SK-11 reset, SK-12 invisible)."""
    return burns(card) or resets(card) or invisible(card, categories)


def war_club(card: CardFace) -> bool:
    """SK-6a: a club that can start a war (clubs 1-4 burn instead, SK-10)."""
    return not card.joker and card.suit == CLUBS and not burns(card)


def war_reasons(laid: CardFace, under: CardFace) -> tuple[WarReason, ...]:
    """Why laying ``laid`` on ``under`` starts a war (SK-6); empty if it does not.

    Whether ``laid`` may be laid at all is :func:`may_lay`; the engine also asks that the
    two cards belong to two different players still in the game.
    """
    if laid.joker or under.joker:
        return ()
    reasons: list[WarReason] = []
    if war_club(laid) and war_club(under):
        reasons.append(WarReason.CLUB_ON_CLUB)
    if production_tens(laid.production) == production_tens(under.production):
        reasons.append(WarReason.SAME_TENS)
    return tuple(reasons)


def may_lay(laid: CardFace, under: CardFace, *, war_possible: bool = True) -> bool:
    """SK-2 and SK-6b: ``laid`` beats ``under``, or has the same production tens and so
    starts a war (the one case where a lower card may be laid)."""
    if beats(laid, under):
        return True
    return war_possible and WarReason.SAME_TENS in war_reasons(laid, under)


def continues_run(card: CardFace, previous: CardFace) -> bool:
    """SK-5: ``card`` follows ``previous`` in a run: production nr. one lower (it produces
    more), e.g. nr. 14 after nr. 15."""
    if card.joker or previous.joker:
        return False
    return card.rank(PRODUCTION) == previous.rank(PRODUCTION) - 1


def war_figure(card: CardFace, category: Category) -> float:
    """SK-7: the figure a war card counts with; a joker counts lowest."""
    return -1.0 if card.joker else card.figure(category)


def war_losers(laid: Iterable[tuple[int, CardFace]], category: Category) -> list[int]:
    """SK-7: the seats with the lowest figure in ``category`` (several: fought again)."""
    figures = [(seat, war_figure(card, category)) for seat, card in laid]
    lowest = min(figure for _, figure in figures)
    return [seat for seat, figure in figures if figure == lowest]
