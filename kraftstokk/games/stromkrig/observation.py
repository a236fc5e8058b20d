"""What one seat may know in Strømkrig (a frozen copy; no way back to the state).

Every card but the hands and the stock lies face up, so a seat sees: its own hand, the
pile and the card to beat (with whose it is), the cards beside the pile, the burned
cards, everyone's hand count, the stock count, who is out, a turned sjanse card, and the
war in progress (challenger, players, category, the war cards laid this round).
"""

from __future__ import annotations

from dataclasses import dataclass

from kraftstokk.games.core import GWH
from kraftstokk.games.events import Narrator
from kraftstokk.games.frozen import refuse_delete, set_once
from kraftstokk.games.observation import Observation
from kraftstokk.games.stromkrig.actions import StromkrigPhase

_PHASE_WORDS = {
    StromkrigPhase.PLAY: ("din tur", "your turn"),
    StromkrigPhase.CHOOSE: ("sjanse: velg bruk", "chance: choose the use"),
    StromkrigPhase.ASK: ("krig: bli med?", "war: join?"),
    StromkrigPhase.NAMING: ("krig: velg kategori", "war: name the category"),
    StromkrigPhase.WAR: ("krig: legg et kort", "war: lay a card"),
    StromkrigPhase.OVER: ("slutt", "over"),
}


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

    def lines(self, n: Narrator) -> list[str]:
        """The view in words, for the person in ``seat``."""
        nb = n.nb
        category = self.war.category if self.war else GWH

        def show(card: int, shown_category: int = GWH) -> str:
            if n.table.joker[card]:
                return n.card(card)
            if shown_category < 0:  # a war before its category is named: all three
                figures = " / ".join(n.figure(k, card) for k in range(3))
                return f"{n.card(card)} · {figures}"
            return f"{n.card(card)} · {n.figure(shown_category, card)}"

        phase = _PHASE_WORDS[self.phase][0 if nb else 1]
        turn = n.seat(self.current_player)
        lines = [
            f"Du er plass {self.seat + 1}. Tur: {turn} ({phase})."
            if nb
            else f"You are seat {self.seat + 1}. Turn: {turn} ({phase})."
        ]
        hand = ", ".join(show(card, category) for card in self.hand) or "-"
        lines.append(f"Hånda di: {hand}" if nb else f"Your hand: {hand}")
        if self.pile:
            size = n.cards_count(len(self.pile))
            last = show(self.pile[-1])
            lines.append(
                f"Bunken: {size}, sist lagt {last}" if nb else f"Pile: {size}, last laid {last}"
            )
        else:
            lines.append("Bunken: tom, en ny bunke begynner" if nb else "Pile: empty, a new pile")
        if self.beside:
            beside = ", ".join(show(card) for card in self.beside)
            lines.append(f"Ved siden av bunken: {beside}" if nb else f"Beside the pile: {beside}")
        if self.war is None:
            if self.top >= 0:
                lines.append(f"Slå: {show(self.top)}" if nb else f"To beat: {show(self.top)}")
            elif self.pile:
                lines.append(
                    "Slå: ingenting, hva som helst (bunken er nullet ut)"
                    if nb
                    else "To beat: nothing, any card (the pile was reset)"
                )
        if self.chance_card >= 0:
            card = show(self.chance_card)
            lines.append(f"Sjansekort: {card}" if nb else f"Chance card: {card}")
        counts = ", ".join(
            f"{n.seat(seat)}: {('ute' if nb else 'out') if self.out[seat] else count}"
            for seat, count in enumerate(self.hand_counts)
        )
        stock = self.stock_count
        lines.append(
            f"Kort på hånda: {counts}; trekkbunken: {stock}"
            if nb
            else f"Cards in hand: {counts}; stock: {stock}"
        )
        if self.war is not None:
            war = self.war
            players = ", ".join(n.seat(seat) for seat in war.players)
            if war.category >= 0:
                named = n.category(war.category)
            else:
                named = "ikke valgt ennå" if nb else "not named yet"
            challenger = n.seat(war.challenger)
            lines.append(
                f"Krig ({named}): {players}; utfordrer {challenger}"
                if nb
                else f"War ({named}): {players}; challenger {challenger}"
            )
            for seat, war_card in war.laid:
                lines.append(f"  {n.seat(seat)}: {show(war_card, war.category)}")
        return lines
