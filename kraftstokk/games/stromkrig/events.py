"""What happens in a game of Strømkrig, as a player at the table sees it (each in nb and en).

Every card in Strømkrig is laid face up, so every event is told in full to every seat.
The counters the simulation reports (``spec.py``) are these events counted: a run adds to
``runs`` and samples ``run_lengths``, a war to ``wars``, each war round (re-fights
included) to ``war_rounds``, and so on. Figures are told as the cards print them.
"""

from __future__ import annotations

from dataclasses import dataclass

from kraftstokk.games.core import GWH, Stats
from kraftstokk.games.events import Event, Narrator
from kraftstokk.games.stromkrig.rules import WarReason


def _laid(n: Narrator, card: int, category: int = GWH) -> str:
    """'Tonstad (spar 7) · 4 357 GWh'; a joker has no figure."""
    if n.table.joker[card]:
        return n.card(card)
    return f"{n.card(card)} · {n.figure(category, card)}"


def _seats(n: Narrator, seats: tuple[int, ...]) -> str:
    names = [n.seat(seat) for seat in seats]
    if len(names) <= 1:
        return "".join(names)
    last = " og " if n.nb else " and "
    return ", ".join(names[:-1]) + last + names[-1]


def _from_stock(n: Narrator, from_chance: bool) -> str:
    if not from_chance:
        return ""
    return " fra trekkbunken" if n.nb else " from the stock"


def _played(stats: Stats, cards: tuple[int, ...]) -> None:
    played = stats.cards_played
    for card in cards:
        played[card] += 1


@dataclass(init=False)
class Laid(Event):
    """SK-2: an ordinary card on the pile (from the hand, or turned by a sjanse)."""

    card: int
    from_chance: bool

    def __init__(self, seat: int, card: int, from_chance: bool = False) -> None:
        self.seat = seat
        self.card = card
        self.from_chance = from_chance

    def nb(self, n: Narrator) -> str:
        where = _from_stock(n, self.from_chance)
        return f"{n.who(self.seat, 'legger', '', '')} {_laid(n, self.card)}{where}."

    def en(self, n: Narrator) -> str:
        where = _from_stock(n, self.from_chance)
        return f"{n.who(self.seat, '', 'lays', 'lay')} {_laid(n, self.card)}{where}."

    def count(self, stats: Stats) -> None:
        stats.cards_played[self.card] += 1


@dataclass(init=False)
class RunLaid(Event):
    """SK-5: a run of consecutive production nr., lowest production first."""

    cards: tuple[int, ...]

    def __init__(self, seat: int, cards: tuple[int, ...]) -> None:
        self.seat = seat
        self.cards = cards

    def nb(self, n: Narrator) -> str:
        cards = ", ".join(_laid(n, card) for card in self.cards)
        return f"{n.who(self.seat, 'legger', '', '')} en rekke på {len(self.cards)}: {cards}."

    def en(self, n: Narrator) -> str:
        cards = ", ".join(_laid(n, card) for card in self.cards)
        return f"{n.who(self.seat, '', 'lays', 'lay')} a run of {len(self.cards)}: {cards}."

    def count(self, stats: Stats) -> None:
        stats.count("runs")
        stats.sample("run_lengths", len(self.cards))
        _played(stats, self.cards)


@dataclass(init=False)
class PileTaken(Event):
    """SK-4: the whole pile (with the cards beside it) into hand; the next player starts.

    ``chance_card``: the sjanse card that had no use and goes home with the pile (SK-3).
    """

    size: int
    chance_card: int

    def __init__(self, seat: int, size: int, chance_card: int = -1) -> None:
        self.seat = seat
        self.size = size
        self.chance_card = chance_card

    def nb(self, n: Narrator) -> str:
        also = f" med {n.card(self.chance_card)}" if self.chance_card >= 0 else ""
        size = n.cards_count(self.size)
        return f"{n.who(self.seat, 'tar', '', '')} inn bunken ({size}){also}."

    def en(self, n: Narrator) -> str:
        also = f" with {n.card(self.chance_card)}" if self.chance_card >= 0 else ""
        size = n.cards_count(self.size)
        return f"{n.who(self.seat, '', 'takes', 'take')} the pile ({size}){also}."

    def count(self, stats: Stats) -> None:
        stats.count("pile_pickups")


@dataclass(init=False)
class Burned(Event):
    """SK-10: a joker or a club 1-4 burns the pile (``size`` cards, the burner included)."""

    card: int
    size: int
    again: bool  # the same player starts the new pile (False: out with the burn)
    from_chance: bool

    def __init__(
        self,
        seat: int,
        card: int,
        size: int,
        again: bool,
        from_chance: bool = False,
    ) -> None:
        self.seat = seat
        self.card = card
        self.size = size
        self.again = again
        self.from_chance = from_chance

    def nb(self, n: Narrator) -> str:
        where = _from_stock(n, self.from_chance)
        who = n.who(self.seat, "legger", "", "")
        again = f" {n.who(self.seat, 'starter', '', '')} ny bunke." if self.again else ""
        return (
            f"{who} {n.card(self.card)}{where}: bunken brennes ({n.cards_count(self.size)}).{again}"
        )

    def en(self, n: Narrator) -> str:
        where = _from_stock(n, self.from_chance)
        who = n.who(self.seat, "", "lays", "lay")
        again = f" {n.who(self.seat, '', 'starts', 'start')} a new pile." if self.again else ""
        return (
            f"{who} {n.card(self.card)}{where}: the pile burns ({n.cards_count(self.size)}).{again}"
        )

    def count(self, stats: Stats) -> None:
        stats.count("burns")
        stats.cards_played[self.card] += 1


@dataclass(init=False)
class Reset(Event):
    """SK-11: a 2; the card under it counts as zero, the next player may lay any card."""

    card: int
    under: int  # the card that now counts as zero, -1 on an empty pile
    from_chance: bool

    def __init__(self, seat: int, card: int, under: int, from_chance: bool = False) -> None:
        self.seat = seat
        self.card = card
        self.under = under
        self.from_chance = from_chance

    def nb(self, n: Narrator) -> str:
        where = _from_stock(n, self.from_chance)
        zero = f" {n.table.names[self.under]} teller null," if self.under >= 0 else ""
        return (
            f"{n.who(self.seat, 'legger', '', '')} {n.card(self.card)}{where}:{zero} "
            "neste kan legge hva som helst."
        )

    def en(self, n: Narrator) -> str:
        where = _from_stock(n, self.from_chance)
        zero = f" {n.table.names[self.under]} counts as zero," if self.under >= 0 else ""
        return (
            f"{n.who(self.seat, '', 'lays', 'lay')} {n.card(self.card)}{where}:{zero} "
            "the next player may lay any card."
        )

    def count(self, stats: Stats) -> None:
        stats.count("resets")
        stats.cards_played[self.card] += 1


@dataclass(init=False)
class LaidBeside(Event):
    """SK-12: an invisible card beside the pile; the next must beat the card under it."""

    card: int
    categories: tuple[int, ...]  # the categories in which it is nr. 50-52 (and counts)
    from_chance: bool

    def __init__(
        self,
        seat: int,
        card: int,
        categories: tuple[int, ...],
        from_chance: bool = False,
    ) -> None:
        self.seat = seat
        self.card = card
        self.categories = categories
        self.from_chance = from_chance

    def _why(self, n: Narrator) -> str:
        nr = n.table.nr
        word = " i " if n.nb else " in "
        return ", ".join(f"nr. {nr[c][self.card]}{word}{n.category(c)}" for c in self.categories)

    def nb(self, n: Narrator) -> str:
        where = _from_stock(n, self.from_chance)
        return (
            f"{n.who(self.seat, 'legger', '', '')} {n.card(self.card)}{where} ved siden av "
            f"bunken (usynlig: {self._why(n)})."
        )

    def en(self, n: Narrator) -> str:
        where = _from_stock(n, self.from_chance)
        return (
            f"{n.who(self.seat, '', 'lays', 'lay')} {n.card(self.card)}{where} beside the "
            f"pile (invisible: {self._why(n)})."
        )

    def count(self, stats: Stats) -> None:
        stats.count("invisible_plays")
        stats.cards_played[self.card] += 1


@dataclass(init=False)
class ChanceDrawn(Event):
    """SK-3 sjanse: the stock's top card turned. ``played``: it has a use and is used (a
    2 may reset, a burn card burn, an invisible card go beside the pile); otherwise it
    goes home with the pile."""

    card: int
    played: bool

    def __init__(self, seat: int, card: int, played: bool) -> None:
        self.seat = seat
        self.card = card
        self.played = played

    def nb(self, n: Narrator) -> str:
        fate = "det skal brukes" if self.played else "det kan ikke brukes"
        who = n.who(self.seat, "tar", "", "")
        return f"{who} en sjanse og snur {_laid(n, self.card)}: {fate}."

    def en(self, n: Narrator) -> str:
        fate = "it must be used" if self.played else "it cannot be used"
        who = n.who(self.seat, "", "takes", "take")
        turns = "turn" if self.seat == n.viewer else "turns"
        return f"{who} a chance and {turns} up {_laid(n, self.card)}: {fate}."

    def count(self, stats: Stats) -> None:
        stats.count("chance_draws")
        if self.played:
            stats.count("chance_draws_played")


def _reasons(n: Narrator, reasons: tuple[WarReason, ...], tens: int) -> str:
    words = []
    for reason in reasons:
        if reason is WarReason.CLUB_ON_CLUB:
            words.append("kløver på kløver" if n.nb else "club on club")
        else:
            ten = f"{n.amount(GWH, tens)}"
            words.append(f"samme tier, {ten}" if n.nb else f"the same ten, {ten}")
    return (" og " if n.nb else " and ").join(words)


@dataclass(init=False)
class WarStarted(Event):
    """SK-6: a war, and why; the challenger (``seat``) and the owner of the card under."""

    defender: int
    card: int
    under: int
    reasons: tuple[WarReason, ...]
    tens: int  # the production both round down to (SK-6b)

    def __init__(
        self,
        seat: int,
        defender: int,
        card: int,
        under: int,
        reasons: tuple[WarReason, ...],
        tens: int,
    ) -> None:
        self.seat = seat
        self.defender = defender
        self.card = card
        self.under = under
        self.reasons = reasons
        self.tens = tens

    def nb(self, n: Narrator) -> str:
        who = n.seat(self.seat)
        return (
            f"Strømkrig! {_laid(n, self.card)} på {_laid(n, self.under)}: "
            f"{_reasons(n, self.reasons, self.tens)}. {who[0].upper() + who[1:]} utfordrer "
            f"{n.seat(self.defender)}."
        )

    def en(self, n: Narrator) -> str:
        who = n.who(self.seat, "", "challenges", "challenge")
        return (
            f"Power war! {_laid(n, self.card)} on {_laid(n, self.under)}: "
            f"{_reasons(n, self.reasons, self.tens)}. {who} {n.seat(self.defender)}."
        )

    def count(self, stats: Stats) -> None:
        stats.count("wars")


@dataclass(init=False)
class WarAnswered(Event):
    """SK-7: a player asked before the category is named joins the war or stays out."""

    joined: bool

    def __init__(self, seat: int, joined: bool) -> None:
        self.seat = seat
        self.joined = joined

    def nb(self, n: Narrator) -> str:
        if self.joined:
            return f"{n.who(self.seat, 'roper', '', '')} «krig!» og er med."
        return f"{n.who(self.seat, 'står', '', '')} utenfor krigen."

    def en(self, n: Narrator) -> str:
        if self.joined:
            joins = "join" if self.seat == n.viewer else "joins"
            return f"{n.who(self.seat, '', 'shouts', 'shout')} \u201cwar!\u201d and {joins} in."
        return f"{n.who(self.seat, '', 'stays', 'stay')} out of the war."


@dataclass(init=False)
class WarNamed(Event):
    """SK-7: the challenger names the category; ``players`` are in the war."""

    category: int
    players: tuple[int, ...]

    def __init__(self, seat: int, category: int, players: tuple[int, ...]) -> None:
        self.seat = seat
        self.category = category
        self.players = players

    def nb(self, n: Narrator) -> str:
        return (
            f"{n.who(self.seat, 'velger', '', '')} {n.category(self.category)}. "
            f"I krigen: {_seats(n, self.players)}."
        )

    def en(self, n: Narrator) -> str:
        return (
            f"{n.who(self.seat, '', 'names', 'name')} {n.category(self.category)}. "
            f"In the war: {_seats(n, self.players)}."
        )

    def count(self, stats: Stats) -> None:
        stats.count("war_rounds")
        stats.sample("war_sizes", len(self.players))


@dataclass(init=False)
class WarCardLaid(Event):
    """SK-7: one war card, face up; special cards have no power in a war."""

    card: int
    category: int

    def __init__(self, seat: int, card: int, category: int) -> None:
        self.seat = seat
        self.card = card
        self.category = category

    def nb(self, n: Narrator) -> str:
        shown = _laid(n, self.card, self.category)
        return f"{n.who(self.seat, 'legger', '', '')} {shown} i krigen."

    def en(self, n: Narrator) -> str:
        shown = _laid(n, self.card, self.category)
        return f"{n.who(self.seat, '', 'lays', 'lay')} {shown} in the war."

    def count(self, stats: Stats) -> None:
        stats.cards_played[self.card] += 1


@dataclass(init=False)
class WarTied(Event):
    """SK-7: a tie for the lowest figure; the war is fought again between ``players``."""

    players: tuple[int, ...]
    category: int

    def __init__(self, seat: int, players: tuple[int, ...], category: int) -> None:
        self.seat = seat
        self.players = players
        self.category = category

    def nb(self, n: Narrator) -> str:
        return (
            f"Likt laveste {n.category(self.category)}: krigen går om igjen mellom "
            f"{_seats(n, self.players)}."
        )

    def en(self, n: Narrator) -> str:
        return (
            f"A tie for the lowest {n.category(self.category)}: the war is fought again "
            f"between {_seats(n, self.players)}."
        )

    def count(self, stats: Stats) -> None:
        stats.count("war_rounds")


@dataclass(init=False)
class WarLost(Event):
    """SK-7..SK-9: the loser takes the pile with the war cards and starts the new pile.

    ``card``: the loser's lowest war card; -1 when the loser had no card to lay (SK-9).
    """

    category: int
    size: int
    card: int

    def __init__(self, seat: int, category: int, size: int, card: int = -1) -> None:
        self.seat = seat
        self.category = category
        self.size = size
        self.card = card

    def nb(self, n: Narrator) -> str:
        who = n.who(self.seat, "taper", "", "")
        lowest = f"har lavest {n.category(self.category)}"
        why = "har ikke noe kort å legge" if self.card < 0 else lowest
        size = n.cards_count(self.size)
        return f"{who} krigen ({why}) og tar inn bunken ({size})."

    def en(self, n: Narrator) -> str:
        who = n.who(self.seat, "", "loses", "lose")
        why = "no card to lay" if self.card < 0 else f"lowest {n.category(self.category)}"
        size = n.cards_count(self.size)
        take = "take" if self.seat == n.viewer else "takes"
        return f"{who} the war ({why}) and {take} the pile ({size})."
