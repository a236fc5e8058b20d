"""What happens in a game of Kraftidioten, as a player at the table sees it (nb and en).

An event holds the whole truth (the card under a claim, whether it was a lie); the
narrator tells a face-down card only to whoever may see it (its layer, or everyone in a
replay read afterwards). The counters the simulation reports (``spec.py``) are these
events counted: a claim adds to ``claims`` (and to ``lies``, ``figure_lies``,
``top3_claims``), a challenge to ``challenges`` and to ``challenges_upheld`` or
``challenges_groundless``, a burn to ``burns`` and to ``top3_burns`` or ``joker_burns``,
and so on.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

from kraftstokk.games.core import Stats
from kraftstokk.games.events import Event, Narrator
from kraftstokk.games.kraftidioten.actions import claim_text


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

    def _truth(self, n: Narrator) -> str:
        if not n.sees(self.seat) or self.from_stock:
            return ""
        if n.nb:
            return f" (løgn: kortet er {n.card(self.card)})" if self.lie else " (sant)"
        return f" (a lie: the card is {n.card(self.card)})" if self.lie else " (true)"

    def nb(self, n: Narrator) -> str:
        claim = claim_text(n, self.category, self.plant, self.stated)
        drawn = " fra trekkbunken" if self.from_stock else ""
        top = "; nr. 1–3 brenner bunken hvis ingen anker" if self.top3 else ""
        return (
            f"{n.who(self.seat, 'legger', '', '')} et kort{drawn} med baksiden opp og "
            f"søker konsesjon for {claim}{self._truth(n)}{top}."
        )

    def en(self, n: Narrator) -> str:
        claim = claim_text(n, self.category, self.plant, self.stated)
        drawn = " from the stock" if self.from_stock else ""
        top = "; nr. 1–3 burns the pile unless challenged" if self.top3 else ""
        return (
            f"{n.who(self.seat, '', 'lays', 'lay')} a card{drawn} face down and "
            f"{'claims' if n.viewer != self.seat else 'claim'} {claim}{self._truth(n)}{top}."
        )

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

    def nb(self, n: Narrator) -> str:
        who = n.who(self.seat, "trekker", "", "")
        if self.outcome == DrawOutcome.JOKER:
            return f"{who} en sjanse: en joker."
        fate = (
            "høyt nok, og det legges under sitt eget navn"
            if self.outcome == DrawOutcome.CLAIMED
            else "lavere enn forrige søknad"
        )
        return f"{who} en sjanse: {n.card(self.card)}, {fate}."

    def en(self, n: Narrator) -> str:
        who = n.who(self.seat, "", "draws", "draw")
        if self.outcome == DrawOutcome.JOKER:
            return f"{who} a chance: a joker."
        fate = (
            "high enough, laid under its own name"
            if self.outcome == DrawOutcome.CLAIMED
            else "below the last claim"
        )
        return f"{who} a chance: {n.card(self.card)}, {fate}."

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

    def nb(self, n: Narrator) -> str:
        verdict = "løgn, anken tas til følge" if self.upheld else "sant, anken er grunnløs"
        return (
            f"{n.who(self.seat, 'anker', '', '')} søknaden til {n.seat(self.layer)}. "
            f"Kortet er {n.card(self.card)}: {verdict}."
        )

    def en(self, n: Narrator) -> str:
        verdict = (
            "a lie, the challenge is upheld" if self.upheld else "true, the challenge is groundless"
        )
        return (
            f"{n.who(self.seat, '', 'challenges', 'challenge')} the claim of "
            f"{n.seat(self.layer)}. The card is {n.card(self.card)}: {verdict}."
        )

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

    def nb(self, n: Narrator) -> str:
        why = {
            TakeReason.CHOSE: "",
            TakeReason.LIE_EXPOSED: " for løgnen",
            TakeReason.GROUNDLESS: " for den grunnløse anken",
            TakeReason.DRAWN_LOW: " med det trukne kortet",
        }[self.reason]
        return f"{n.who(self.seat, 'tar', '', '')} inn bunken ({n.cards_count(self.size)}){why}."

    def en(self, n: Narrator) -> str:
        why = {
            TakeReason.CHOSE: "",
            TakeReason.LIE_EXPOSED: " for the lie",
            TakeReason.GROUNDLESS: " for the groundless challenge",
            TakeReason.DRAWN_LOW: " with the drawn card",
        }[self.reason]
        who = n.who(self.seat, "", "takes", "take")
        return f"{who} the pile ({n.cards_count(self.size)}){why}."

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

    def nb(self, n: Narrator) -> str:
        claim = "din" if self.seat == n.viewer else f"til {n.seat(self.seat)}"
        return f"Ingen anker topp 3-søknaden {claim}: bunken brennes ({n.cards_count(self.size)})."

    def en(self, n: Narrator) -> str:
        claim = "your top-3 claim"
        if self.seat != n.viewer:
            claim = f"the top-3 claim of {n.seat(self.seat)}"
        return f"Nobody challenges {claim}: the pile burns ({n.cards_count(self.size)})."

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

    def nb(self, n: Narrator) -> str:
        late = " med to kort eller færre på hånden" if self.penalty else ""
        return (
            f"{n.who(self.seat, 'legger', '', '')} en joker{late}: bunken brennes "
            f"({n.cards_count(self.size)})."
        )

    def en(self, n: Narrator) -> str:
        late = " while holding two cards or fewer" if self.penalty else ""
        return (
            f"{n.who(self.seat, '', 'lays', 'lay')} a joker{late}: the pile burns "
            f"({n.cards_count(self.size)})."
        )

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

    def nb(self, n: Narrator) -> str:
        which = f": {n.cards(self.cards)}" if n.sees(self.seat) else ""
        return (
            f"{n.who(self.seat, 'trekker', '', '')} {n.cards_count(len(self.cards))} "
            f"fra de brente kortene som straff{which}."
        )

    def en(self, n: Narrator) -> str:
        which = f": {n.cards(self.cards)}" if n.sees(self.seat) else ""
        return (
            f"{n.who(self.seat, '', 'draws', 'draw')} {n.cards_count(len(self.cards))} "
            f"from the burned cards as a penalty{which}."
        )

    def count(self, stats: Stats) -> None:
        stats.count("joker_penalties")


@dataclass(init=False)
class JokersOnly(Event):
    """KI-7 cannot go on: only jokers in hand and no plant burned; the next seat starts."""

    def __init__(self, seat: int) -> None:
        self.seat = seat

    def nb(self, n: Narrator) -> str:
        return (
            f"{n.who(self.seat, 'har', '', '')} bare jokere, og ingen kraftverk er brent: "
            "neste spiller starter."
        )

    def en(self, n: Narrator) -> str:
        return (
            f"{n.who(self.seat, '', 'holds', 'hold')} only jokers and no plant is burned: "
            "the next player starts."
        )


@dataclass(init=False)
class PileStarted(Event):
    """KI-5: a seat starts a new pile and chooses the category."""

    def __init__(self, seat: int) -> None:
        self.seat = seat

    def nb(self, n: Narrator) -> str:
        return f"{n.who(self.seat, 'starter', '', '')} en ny bunke og velger kategori."

    def en(self, n: Narrator) -> str:
        who = n.who(self.seat, "", "starts", "start")
        return (
            f"{who} a new pile and {'chooses' if n.viewer != self.seat else 'choose'} the category."
        )
