"""What happens in a game of Kraftidioten, as data: what a player at the table sees or is told.

An event holds the whole truth (the card under a claim, whether it was a lie); the
narration (``narration.py``, words in ``locales/<code>/events.toml``) tells a face-down
card only to whoever may see it (its layer, or everyone in a replay read afterwards).
The counters the simulation reports (``spec.py``) are these events counted: a claim adds
to ``claims`` (and to ``lies``, ``figure_lies``, ``top3_claims``), a challenge to
``challenges`` and to ``challenges_upheld`` or ``challenges_groundless``, a burn to
``burns`` and to ``top3_burns`` or ``joker_burns``, and so on.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

from kraftstokk.games.core import Stats
from kraftstokk.games.events import Event


class DrawOutcome(IntEnum):
    """KI-4b: what became of a card drawn from the stock."""

    CLAIMED = 270  # it reaches the claim: laid face down under its own name
    TOO_LOW = 271  # below the claim: it goes to the hand with the pile
    JOKER = 272  # a joker: laid as a joker (KI-7)


class TakeReason(IntEnum):
    """Why a seat takes the pile into hand."""

    CHOSE = 280  # KI-4a
    LIE_EXPOSED = 281  # KI-6: the layer's claim was a lie
    GROUNDLESS = 282  # KI-6: the challenger's challenge was groundless
    DRAWN_LOW = 283  # KI-4b: the drawn card was below the claim


@dataclass(init=False)
class Claimed(Event):
    """KI-2, KI-3, KI-4: a card laid face down under a claim (a plant and a figure)."""

    card: int  # face down: told only to its layer (and in a replay)
    category: int
    plant: int
    stated: float | None  # None: the plant's printed figure; else the whole figure stated
    from_stock: bool  # KI-4b: drawn from the stock, true by rule
    top3: bool  # KI-8: the plant named has nr. 1-3 in the category
    lie: bool  # KI-6: the card is not the plant named, or the figure is not its own

    def __init__(
        self,
        seat: int,
        card: int,
        category: int,
        plant: int,
        stated: float | None,
        from_stock: bool,
        top3: bool,
        lie: bool,
    ) -> None:
        self.seat = seat
        self.card = card
        self.category = category
        self.plant = plant
        self.stated = stated
        self.from_stock = from_stock
        self.top3 = top3
        self.lie = lie

    def count(self, stats: Stats) -> None:
        stats.count("claims")
        stats.cards_played[self.card] += 1
        if self.lie:
            stats.count("lies")
            if self.stated is not None:
                stats.count("figure_lies")
        if self.top3:
            stats.count("top3_claims")


@dataclass(init=False)
class StockDrawn(Event):
    """KI-4b: the top card of the stock, which the seat must claim truthfully."""

    card: int
    outcome: DrawOutcome

    def __init__(self, seat: int, card: int, outcome: DrawOutcome) -> None:
        self.seat = seat
        self.card = card
        self.outcome = outcome

    def count(self, stats: Stats) -> None:
        stats.count("stock_draws")


@dataclass(init=False)
class Challenged(Event):
    """KI-6, KI-8: a seat challenges the last claim; the card is shown."""

    #: ``seat``: the challenger
    layer: int
    card: int  # shown to everyone
    upheld: bool  # the claim was a lie

    def __init__(self, seat: int, layer: int, card: int, upheld: bool) -> None:
        self.seat = seat
        self.layer = layer
        self.card = card
        self.upheld = upheld

    def count(self, stats: Stats) -> None:
        stats.count("challenges")
        stats.count("challenges_upheld" if self.upheld else "challenges_groundless")


@dataclass(init=False)
class PileTaken(Event):
    """KI-4a, KI-4b, KI-6: the pile (``size`` cards) goes into a seat's hand."""

    size: int
    reason: TakeReason

    def __init__(self, seat: int, size: int, reason: TakeReason) -> None:
        self.seat = seat
        self.size = size
        self.reason = reason

    def count(self, stats: Stats) -> None:
        stats.count("pile_pickups")


@dataclass(init=False)
class TopBurned(Event):
    """KI-8: nobody challenged a claim of nr. 1-3: the pile burns."""

    #: ``seat``: the layer
    size: int  # cards burned

    def __init__(self, seat: int, size: int) -> None:
        self.seat = seat
        self.size = size

    def count(self, stats: Stats) -> None:
        stats.count("burns")
        stats.count("top3_burns")


@dataclass(init=False)
class JokerLaid(Event):
    """KI-7: a joker is shown and the pile burns (``size`` cards, the joker included)."""

    card: int
    size: int
    from_stock: bool  # KI-4b: drawn, so no penalty
    penalty: bool  # laid while holding two cards or fewer

    def __init__(self, seat: int, card: int, size: int, from_stock: bool, penalty: bool) -> None:
        self.seat = seat
        self.card = card
        self.size = size
        self.from_stock = from_stock
        self.penalty = penalty

    def count(self, stats: Stats) -> None:
        stats.count("burns")
        stats.count("joker_burns")
        stats.cards_played[self.card] += 1


@dataclass(init=False)
class PenaltyDrawn(Event):
    """KI-7: random cards from all the burned cards, jokers included, as a penalty."""

    cards: tuple[int, ...]  # seen by the seat that draws them (and in a replay)

    def __init__(self, seat: int, cards: tuple[int, ...]) -> None:
        self.seat = seat
        self.cards = cards

    def count(self, stats: Stats) -> None:
        stats.count("joker_penalties")


@dataclass(init=False)
class JokersOnly(Event):
    """KI-7 cannot go on: only jokers in hand and no plant burned; the next seat starts."""

    def __init__(self, seat: int) -> None:
        self.seat = seat


@dataclass(init=False)
class PileStarted(Event):
    """KI-5: a seat starts a new pile and chooses the category."""

    def __init__(self, seat: int) -> None:
        self.seat = seat
