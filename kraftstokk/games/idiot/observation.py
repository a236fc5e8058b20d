"""What one seat may know in Idiot (a frozen copy; no way back to the state).

Own hand and own face-down slots that still hold a card (positions only: face-down
cards are unseen even by their owner), everyone's face-up rows, the counts of hidden
cards, the pile with how many cards of its top rank lie stacked, the stock and burned
counts, who is out.
"""

from __future__ import annotations

from dataclasses import dataclass

from kraftstokk.games.events import Narrator
from kraftstokk.games.frozen import refuse_delete, set_once
from kraftstokk.games.idiot.actions import IdiotPhase
from kraftstokk.games.idiot.rules import TWO, rank_name
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

    def lines(self, n: Narrator) -> list[str]:
        ranks = self.ranks

        def cards(seq: tuple[int, ...]) -> str:
            return ", ".join(f"{rank_name(ranks[c])} {n.card(c)}" for c in seq) or "-"

        nb = n.nb
        phase = {
            IdiotPhase.SWAPPING: ("bytte", "swap"),
            IdiotPhase.PLAYING: ("spill", "play"),
            IdiotPhase.OVER: ("slutt", "over"),
        }[self.phase][0 if nb else 1]
        lines = [
            f"Du er plass {self.seat + 1}. Fase: {phase}."
            if nb
            else f"You are seat {self.seat + 1}. Phase: {phase}."
        ]
        if self.pile:
            top = self.pile[-1]
            stacked = f" ({self.top_count} × {rank_name(ranks[top])})" if self.top_count > 1 else ""
            reset = ""
            if ranks[top] == TWO:
                reset = " (toer: hva som helst)" if nb else " (reset: anything goes)"
            head = "Bunken" if nb else "Pile"
            lines.append(
                f"{head}: {n.cards_count(len(self.pile))}, "
                + ("øverst" if nb else "top")
                + f" {rank_name(ranks[top])} {n.card(top)}{stacked}{reset}"
            )
        else:
            lines.append("Bunken: tom (hva som helst)" if nb else "Pile: empty (anything goes)")
        lines.append(
            f"Trekkbunken: {self.stock_count}   Brent: {self.burned_count}"
            if nb
            else f"Stock: {self.stock_count}   Burned: {self.burned_count}"
        )
        for seat in range(self.num_players):
            out = (" (ute)" if nb else " (out)") if seat in self.out else ""
            row = cards(self.face_up_rows[seat])
            if nb:
                lines.append(
                    f"  {n.seat(seat)}{out}: hånd {self.hand_counts[seat]}, "
                    f"skjulte {self.face_down_counts[seat]}, åpne {row}"
                )
            else:
                lines.append(
                    f"  {n.seat(seat)}{out}: hand {self.hand_counts[seat]}, "
                    f"face-down {self.face_down_counts[seat]}, face-up {row}"
                )
        lines.append(("Hånda di: " if nb else "Your hand: ") + cards(self.hand))
        if self.run_rank:
            rank = rank_name(self.run_rank)
            lines.append(
                f"Serie: du kan fortsette med {rank}"
                if nb
                else f"Run: you may continue with a {rank}"
            )
        return lines
