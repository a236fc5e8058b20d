"""What one seat may know in Kraftidioten (an immutable copy; no way back to the state).

Its own hand, the claims on the pile (never the cards under them, except its own), the
category and the figure to beat, who is asked to act, everyone's hand count, the stock,
pile and burned counts, every card shown so far and where it went, who is out.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from kraftstokk.games.frozen import refuse_delete, set_once
from kraftstokk.games.kraftidioten.actions import KraftidiotenPhase
from kraftstokk.games.kraftidioten.rules import NOT_SHOWN
from kraftstokk.games.observation import Observation


class Claim(NamedTuple):
    """A public claim on the current pile: a plant and the figure stated for it."""

    seat: int
    plant: int
    from_stock: bool  # KI-4b: drawn from the stock, so true by rule
    figure: float  # as stated: the plant's printed figure, or a whole number (KI-4c)


@dataclass(init=False)
class KraftidiotenObservation(Observation):
    """One seat's view: a frozen copy (``frozen.py``) built at every call."""

    num_players: int
    phase: KraftidiotenPhase  # as this seat sees it: another seat's CLAIM looks like TURN
    to_act: int  # the seat asked to decide now
    hand: tuple[int, ...]
    lie_card: int  # in CLAIM, the card this seat chose to lie with; else -1
    category: int  # the pile's category, or NO_CATEGORY (-1) for a new pile
    floor: float | None  # the figure of the last claim (None on a new pile)
    claims: tuple[Claim, ...]  # the pile's claims, bottom first
    own_cards_on_pile: tuple[tuple[int, int], ...]  # (claim index, card) this seat laid
    claim_is_top3: bool  # the claim open to challenge burns the pile if it stands
    layer: int  # the seat whose claim is open to challenge (-1 outside a window)
    hand_counts: tuple[int, ...]
    stock_count: int
    pile_count: int
    burned_count: int
    shown: tuple[tuple[int, int], ...]  # cards shown so far: (card, seat it went to or BURNED)
    last_shown: tuple[int, ...]  # per card, where it went when last shown, or NOT_SHOWN
    active: tuple[bool, ...]
    out_order: tuple[int, ...]

    def __init__(
        self,
        seat: int,
        num_players: int,
        phase: KraftidiotenPhase,
        to_act: int,
        hand: tuple[int, ...],
        lie_card: int,
        category: int,
        floor: float | None,
        claims: tuple[Claim, ...],
        own_cards_on_pile: tuple[tuple[int, int], ...],
        claim_is_top3: bool,
        layer: int,
        hand_counts: tuple[int, ...],
        stock_count: int,
        pile_count: int,
        burned_count: int,
        shown: tuple[tuple[int, int], ...],
        last_shown: tuple[int, ...],
        active: tuple[bool, ...],
        out_order: tuple[int, ...],
    ) -> None:
        self.seat = seat
        self.num_players = num_players
        self.phase = phase
        self.to_act = to_act
        self.hand = hand
        self.lie_card = lie_card
        self.category = category
        self.floor = floor
        self.claims = claims
        self.own_cards_on_pile = own_cards_on_pile
        self.claim_is_top3 = claim_is_top3
        self.layer = layer
        self.hand_counts = hand_counts
        self.stock_count = stock_count
        self.pile_count = pile_count
        self.burned_count = burned_count
        self.shown = shown
        self.last_shown = last_shown
        self.active = active
        self.out_order = out_order

    def __setattr__(self, name: str, value: object) -> None:
        set_once(self, name, value)

    def __delattr__(self, name: str) -> None:
        refuse_delete(self, name)

    @property
    def challenge_pending(self) -> bool:
        """True when this seat is asked whether to challenge the last claim."""
        return self.phase == KraftidiotenPhase.CHALLENGE and self.to_act == self.seat

    @property
    def last_claim(self) -> Claim | None:
        return self.claims[-1] if self.claims else None

    @property
    def own_cards_on_pile_set(self) -> frozenset[int]:
        return frozenset(card for _, card in self.own_cards_on_pile)

    @property
    def shown_cards(self) -> frozenset[int]:
        """Every card that has been shown at least once."""
        return frozenset(card for card, where in enumerate(self.last_shown) if where != NOT_SHOWN)

    def hand_count(self, seat: int) -> int:
        return self.hand_counts[seat]

    def where_shown(self, card: int) -> int | None:
        """Where ``card`` went when it was last shown (a seat or BURNED); None if never."""
        where = self.last_shown[card]
        return None if where == NOT_SHOWN else where


@dataclass(init=False)
class KraftidiotenTurnView(Observation):
    """The part of a seat's observation a turn is decided from: hand and claim to beat.

    For a bot that needs no more (``reads_turn_view = True``, the greedy bot): a frozen
    copy like the full observation, a fifth of its size, so a turn costs less.
    """

    hand: tuple[int, ...]
    category: int  # the pile's category, or NO_CATEGORY (-1) for a new pile
    floor: float | None  # the figure of the last claim (None on a new pile)
    stock_count: int

    def __init__(
        self, seat: int, hand: tuple[int, ...], category: int, floor: float | None, stock_count: int
    ) -> None:
        self.seat = seat
        self.hand = hand
        self.category = category
        self.floor = floor
        self.stock_count = stock_count

    def __setattr__(self, name: str, value: object) -> None:
        set_once(self, name, value)

    def __delattr__(self, name: str) -> None:
        refuse_delete(self, name)
