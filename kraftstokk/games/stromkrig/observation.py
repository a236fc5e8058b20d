"""What one seat may know in Strømkrig (a frozen copy; no way back to the state).

Every card but the hands and the stock lies face up, so a seat sees: its own hand, the
pile and the card to beat (with whose it is), the cards beside the pile, the burned
cards, everyone's hand count, the stock count, who is out, a turned sjanse card, and the
war in progress (challenger, players, category, the war cards laid this round).
"""

from __future__ import annotations

from dataclasses import dataclass

from kraftstokk.games.frozen import refuse_delete, set_once
from kraftstokk.games.observation import Observation
from kraftstokk.games.stromkrig.actions import StromkrigPhase


@dataclass(init=False)
class WarView:
    """The war in progress: who challenged, who is in, the category once named."""

    challenger: int
    players: tuple[int, ...]  # in the war (in a re-fight: in this round), seating order
    category: int  # -1 until the challenger names it
    laid: tuple[tuple[int, int], ...]  # (seat, card) of this round's war cards, in order
    cards: tuple[int, ...]  # every war card laid so far (they go to the loser)

    def __init__(
        self,
        challenger: int,
        players: tuple[int, ...],
        category: int,
        laid: tuple[tuple[int, int], ...],
        cards: tuple[int, ...],
    ) -> None:
        self.challenger = challenger
        self.players = players
        self.category = category
        self.laid = laid
        self.cards = cards

    def __setattr__(self, name: str, value: object) -> None:
        set_once(self, name, value)

    def __delattr__(self, name: str) -> None:
        refuse_delete(self, name)


@dataclass(init=False)
class StromkrigObservation(Observation):
    num_players: int
    phase: StromkrigPhase
    current_player: int
    hand: tuple[int, ...]  # own hand: jokers first, then lowest production first
    top: int  # the card to beat; -1 when any card may be laid (empty pile, after a reset)
    top_owner: int  # who laid ``top``; -1 when none
    pile: tuple[int, ...]  # bottom first
    beside: tuple[int, ...]  # invisible cards beside the pile (SK-12)
    burned: tuple[int, ...]
    hand_counts: tuple[int, ...]
    stock_count: int
    out: tuple[bool, ...]  # per seat
    chance_card: int  # the turned sjanse card while its use is chosen, else -1
    war: WarView | None  # the war in progress, None outside a war

    def __init__(
        self,
        seat: int,
        num_players: int,
        phase: StromkrigPhase,
        current_player: int,
        hand: tuple[int, ...],
        top: int,
        top_owner: int,
        pile: tuple[int, ...],
        beside: tuple[int, ...],
        burned: tuple[int, ...],
        hand_counts: tuple[int, ...],
        stock_count: int,
        out: tuple[bool, ...],
        chance_card: int,
        war: WarView | None,
    ) -> None:
        self.seat = seat
        self.num_players = num_players
        self.phase = phase
        self.current_player = current_player
        self.hand = hand
        self.top = top
        self.top_owner = top_owner
        self.pile = pile
        self.beside = beside
        self.burned = burned
        self.hand_counts = hand_counts
        self.stock_count = stock_count
        self.out = out
        self.chance_card = chance_card
        self.war = war

    def __setattr__(self, name: str, value: object) -> None:
        set_once(self, name, value)

    def __delattr__(self, name: str) -> None:
        refuse_delete(self, name)

    @property
    def pile_size(self) -> int:
        """The cards whoever takes the pile gets: the pile and the cards beside it."""
        return len(self.pile) + len(self.beside)

    @property
    def war_category(self) -> int:
        return self.war.category if self.war else -1

    @property
    def war_players(self) -> tuple[int, ...]:
        return self.war.players if self.war else ()

    @property
    def war_laid(self) -> tuple[tuple[int, int], ...]:
        return self.war.laid if self.war else ()
