"""What happens in a game of Strømkrig, as data: what a player at the table sees.

Every card in Strømkrig is laid face up, so every event is told in full to every seat
(``narration.py`` gives each sentence's values, ``locales/<code>/events.toml`` its words).
The counters the simulation reports (``spec.py``) are these events counted: a run adds to
``runs`` and samples ``run_lengths``, a war to ``wars``, each war round (re-fights
included) to ``war_rounds``, and so on. Figures are told as the cards print them.
"""

from __future__ import annotations

from dataclasses import dataclass

from kraftstokk.games.core import Stats
from kraftstokk.games.events import Event
from kraftstokk.games.stromkrig.rules import WarReason


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

    def count(self, stats: Stats) -> None:
        stats.cards_played[self.card] += 1


@dataclass(init=False)
class RunLaid(Event):
    """SK-5: a run of consecutive production nr., lowest production first."""

    cards: tuple[int, ...]

    def __init__(self, seat: int, cards: tuple[int, ...]) -> None:
        self.seat = seat
        self.cards = cards

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

    def count(self, stats: Stats) -> None:
        stats.count("chance_draws")
        if self.played:
            stats.count("chance_draws_played")


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

    def count(self, stats: Stats) -> None:
        stats.count("wars")


@dataclass(init=False)
class WarAnswered(Event):
    """SK-7: a player asked before the category is named joins the war or stays out."""

    joined: bool

    def __init__(self, seat: int, joined: bool) -> None:
        self.seat = seat
        self.joined = joined


@dataclass(init=False)
class WarNamed(Event):
    """SK-7: the challenger names the category; ``players`` are in the war."""

    category: int
    players: tuple[int, ...]

    def __init__(self, seat: int, category: int, players: tuple[int, ...]) -> None:
        self.seat = seat
        self.category = category
        self.players = players

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
