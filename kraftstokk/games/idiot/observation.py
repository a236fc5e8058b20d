"""What one seat may know in Idiot (a frozen copy; no way back to the state).

Own hand and own face-down slots that still hold a card (positions only: face-down
cards are unseen even by their owner), everyone's face-up rows, the cards every seat saw
go into a hand and still there (picked up with the pile, swapped in from the face-up
row), the counts of hidden cards, the pile with how many cards of its top rank lie
stacked, the stock and burned counts, who is out.
"""

from __future__ import annotations

from dataclasses import dataclass

from kraftstokk.games.frozen import refuse_delete, set_once
from kraftstokk.games.idiot.actions import IdiotPhase
from kraftstokk.games.observation import Observation


@dataclass(init=False)
class IdiotObservation(Observation):
    num_players: int
    phase: IdiotPhase
    current_player: int
    hand: tuple[int, ...]  # own hand, sorted by rank
    face_up_rows: tuple[tuple[int, ...], ...]  # every seat's face-up cards
    face_down_slots: tuple[int, ...]  # own slots (0..2) that still hold a card
    face_down_counts: tuple[int, ...]
    hand_counts: tuple[int, ...]
    #: Per seat, the cards every seat saw go into its hand and still there (picked up
    #: with the pile, swapped in from the face-up row), sorted by card.
    known_in_hand: tuple[tuple[int, ...], ...]
    pile: tuple[int, ...]  # bottom first, top last
    top_count: int  # how many cards of the top card's rank lie stacked on top
    need: int  # the lowest ordinary rank that may be laid now (0: anything)
    run_rank: int  # in a run (``sequences``), the rank that continues it; else 0
    stock_count: int
    burned_count: int
    out: tuple[int, ...]  # seats that went out, first out first
    ranks: tuple[int, ...]  # public: the Idiot rank of every card index (ace 14)

    def __init__(
        self,
        seat: int,
        num_players: int,
        phase: IdiotPhase,
        current_player: int,
        hand: tuple[int, ...],
        face_up_rows: tuple[tuple[int, ...], ...],
        face_down_slots: tuple[int, ...],
        face_down_counts: tuple[int, ...],
        hand_counts: tuple[int, ...],
        known_in_hand: tuple[tuple[int, ...], ...],
        pile: tuple[int, ...],
        top_count: int,
        need: int,
        run_rank: int,
        stock_count: int,
        burned_count: int,
        out: tuple[int, ...],
        ranks: tuple[int, ...],
    ) -> None:
        self.seat = seat
        self.num_players = num_players
        self.phase = phase
        self.current_player = current_player
        self.hand = hand
        self.face_up_rows = face_up_rows
        self.face_down_slots = face_down_slots
        self.face_down_counts = face_down_counts
        self.hand_counts = hand_counts
        self.known_in_hand = known_in_hand
        self.pile = pile
        self.top_count = top_count
        self.need = need
        self.run_rank = run_rank
        self.stock_count = stock_count
        self.burned_count = burned_count
        self.out = out
        self.ranks = ranks

    def __setattr__(self, name: str, value: object) -> None:
        set_once(self, name, value)

    def __delattr__(self, name: str) -> None:
        refuse_delete(self, name)

    @property
    def face_up(self) -> tuple[int, ...]:
        return self.face_up_rows[self.seat]

    @property
    def pile_size(self) -> int:
        return len(self.pile)
