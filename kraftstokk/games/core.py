"""The engine's common API, after OpenSpiel: a Game holds the rules, a State one position.

Public API: :class:`Game` (rules, immutable; ``new_initial_state(rng)``), :class:`State`
(``current_player``, ``legal_actions``, ``apply``, ``is_terminal``, ``result``,
``clone``, ``observation``, and ``events``: what happened, see ``games/events.py``),
each game's ``from_position(game, ...)`` to set up a position, and bots as policies
(:class:`Bot`) that see only their seat's observation. This is the bottom of the engine:
playing a game through (``play_game``, ``replay``) is ``games/runner.py``'s, telling it
in words ``games/narration.py``'s, replay logs ``games/replay.py``'s.
``games/README.md`` describes a game package.

The inner data is plain (ints, tuples, lists) for speed, and the engine runs without
pydantic (the static web edition runs it on Pyodide in the browser): a deck enters as a
:class:`DeckTable`, made once from the :class:`~kraftstokk.models.Deck` model or from the
plain JSON of ``deck.json`` (a test checks the two agree).

Cards are identified by their index in the table (0..54). An action is a small tuple of
ints whose first element is a game-specific kind; ``State.action_to_string`` gives its
readable form. Every random choice a game makes comes from the ``random.Random`` passed
to ``Game.new_initial_state``, and each bot gets its own seeded generator, so the same
seed gives the same game, action for action.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

from kraftstokk.cardfacts import CATEGORIES, SUITS, decimals_for, format_number, printed_figure
from kraftstokk.errors import GameError
from kraftstokk.games.events import Event, tally
from kraftstokk.games.playability import Meter
from kraftstokk.games.stats import Stats as Stats  # re-exported: games import it from here

if TYPE_CHECKING:
    from kraftstokk.models import Deck

Action = tuple[int, ...]

#: Category indices used inside the engine (order of ``models.CATEGORIES``).
MW, GWH, HEAD = 0, 1, 2
CATEGORY_UNITS: tuple[str, ...] = ("MW", "GWh", "m")

DEFAULT_ACTION_CAP = 5000


@dataclass(frozen=True)
class DeckTable:
    """A deck as plain tuples indexed by card index; jokers have suit -1 and value 0."""

    ids: tuple[str, ...]
    names: tuple[str, ...]
    suit: tuple[int, ...]  # index into models.SUITS, -1 for jokers
    value: tuple[int, ...]  # 1..13, 0 for jokers
    joker: tuple[bool, ...]
    figures: tuple[tuple[float, ...], ...]  # figures[category][card]; 0.0 for jokers
    nr: tuple[tuple[int, ...], ...]  # nr[category][card]; 0 for jokers
    gwh_tens: tuple[int, ...]  # production rounded down to tens; -1 for jokers
    #: printed[category][card]: the figure as the card prints it, as a number; 0.0 for
    #: jokers. Text is made of it only where a sentence is written (figure_text).
    printed: tuple[tuple[float, ...], ...]
    decimals: tuple[int, ...]  # per category: the decimals every card prints (0 or 1)

    @property
    def size(self) -> int:
        return len(self.ids)

    @property
    def plant_cards(self) -> tuple[int, ...]:
        return tuple(i for i, is_joker in enumerate(self.joker) if not is_joker)

    @property
    def joker_cards(self) -> tuple[int, ...]:
        return tuple(i for i, is_joker in enumerate(self.joker) if is_joker)

    def index_of(self, card_id: str) -> int:
        return self.ids.index(card_id)

    def describe(self, card: int) -> str:
        """Readable card: 'Tonstad (spar 7)' or 'joker 2'."""
        if self.joker[card]:
            return self.ids[card].replace("-", " ")
        return f"{self.names[card]} ({SUITS[self.suit[card]]} {self.value[card]})"

    def figure_text(self, category: int, card: int) -> str:
        """The figure as the card prints it, with its unit: '4 357 GWh' (made once per
        card and category: the views and the narration ask for it all game long)."""
        texts: dict[tuple[int, int], str] | None = self.__dict__.get("_figure_texts")
        if texts is None:
            texts = {}
            object.__setattr__(self, "_figure_texts", texts)  # a cache, not a field
        text = texts.get((category, card))
        if text is None:
            shown = format_number(self.printed[category][card], self.decimals[category], " ")
            text = texts[(category, card)] = f"{shown} {CATEGORY_UNITS[category]}"
        return text

    @classmethod
    def from_deck(cls, deck: Deck) -> DeckTable:
        """The table of a validated deck model."""
        cards = []
        for card in deck.cards:
            if card.joker:
                cards.append(_PlainCard(card.id, None, True, 0, 0, (0.0, 0.0, 0.0), (0, 0, 0)))
                continue
            if card.suit is None or card.value is None or card.nr is None:
                raise GameError(f"card {card.id} lacks suit, value or nr.; validate the deck")
            cards.append(
                _PlainCard(
                    card.id,
                    card.name,
                    False,
                    SUITS.index(card.suit),
                    card.value,
                    tuple(card.figure(c) for c in CATEGORIES),
                    tuple(card.nr.get(c) for c in CATEGORIES),
                )
            )
        return cls._of(cards)

    @classmethod
    def from_json(cls, deck: Any) -> DeckTable:
        """The table of ``deck.json``'s content as plain JSON (a deck that passed
        ``validate``: what the static edition's page carries, read without pydantic).
        A card missing what the engine needs is a GameError naming it."""
        cards = []
        for number, card in enumerate(_items(deck, "cards"), start=1):
            if not isinstance(card, dict):
                raise GameError(f"deck: card {number} is not an object")
            name = str(card.get("id", number))
            if card.get("joker") is True:
                cards.append(_PlainCard(name, None, True, 0, 0, (0.0, 0.0, 0.0), (0, 0, 0)))
                continue
            ranks = card.get("nr")
            try:
                figures = tuple(float(card[c]) for c in CATEGORIES)
                suit = SUITS.index(card["suit"])
                value = card["value"]
                nr = tuple(int(ranks[c]) for c in CATEGORIES) if isinstance(ranks, dict) else ()
            except (KeyError, TypeError, ValueError):
                nr = ()
            if not nr or not isinstance(value, int) or isinstance(value, bool):
                raise GameError(f"card {name} lacks suit, value, figures or nr.; validate the deck")
            cards.append(_PlainCard(name, card.get("name"), False, suit, value, figures, nr))
        return cls._of(cards)

    @classmethod
    def _of(cls, cards: Sequence[_PlainCard]) -> DeckTable:
        plants = [card for card in cards if not card.joker]
        decimals = [decimals_for(card.figures[c] for card in plants) for c in range(3)]
        if not plants:
            decimals = [0, 0, 0]
        return cls(
            ids=tuple(card.id for card in cards),
            names=tuple("Joker" if card.joker else card.name or card.id for card in cards),
            suit=tuple(-1 if card.joker else card.suit for card in cards),
            value=tuple(card.value for card in cards),
            joker=tuple(card.joker for card in cards),
            figures=tuple(tuple(card.figures[c] for card in cards) for c in range(3)),
            nr=tuple(tuple(card.nr[c] for card in cards) for c in range(3)),
            gwh_tens=tuple(
                -1 if card.joker else int(card.figures[GWH] // 10) * 10 for card in cards
            ),
            printed=tuple(
                tuple(
                    0.0 if card.joker else printed_figure(card.figures[c], decimals[c])
                    for card in cards
                )
                for c in range(3)
            ),
            decimals=tuple(decimals),
        )


@dataclass(frozen=True)
class _PlainCard:
    """One card as the table is made of it (from the model or from plain JSON)."""

    id: str
    name: str | None
    joker: bool
    suit: int  # index into SUITS; 0 for a joker (the table gives it -1)
    value: int  # 0 for a joker
    figures: tuple[float, ...]  # per category; 0.0 for a joker
    nr: tuple[int, ...]  # per category; 0 for a joker


def _items(data: Any, key: str) -> list[Any]:
    found = data.get(key) if isinstance(data, dict) else None
    if not isinstance(found, list):
        raise GameError(f"deck: no list of {key}")
    return found


@dataclass
class Result:
    """How a game ended: the seats in the order they went out, and the loser."""

    finished: bool  # False when the action cap stopped the game
    order: list[int]  # seats that went out, first out (the winner) first
    loser: int | None  # the last seat with cards; None when unfinished
    actions: int
    rounds: int


class Game(ABC):
    """The rules of one game with its variant flags; immutable once made."""

    name: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    allowed_variants: ClassVar[frozenset[str]] = frozenset()
    #: What a player plays for (``GameSpec.objective``): ``win`` or ``not_loser``.
    objective: ClassVar[str] = "win"

    def __init__(
        self,
        table: DeckTable,
        num_players: int,
        variants: Sequence[str] = (),
        action_cap: int = DEFAULT_ACTION_CAP,
    ) -> None:
        if not self.min_players <= num_players <= self.max_players:
            raise GameError(
                f"{self.name} is for {self.min_players}-{self.max_players} players, "
                f"not {num_players}"
            )
        unknown = sorted(set(variants) - self.allowed_variants)
        if unknown:
            allowed = ", ".join(sorted(self.allowed_variants)) or "none"
            raise GameError(f"{self.name} has no variant {', '.join(unknown)} (allowed: {allowed})")
        if action_cap < 1:
            raise GameError(f"action cap must be at least 1, not {action_cap}")
        self.table = table
        self.num_players = num_players
        self.variants = frozenset(variants)
        self.action_cap = action_cap

    @abstractmethod
    def new_initial_state(self, rng: random.Random) -> State:
        """Shuffle and deal with ``rng``; the state keeps ``rng`` for later chance events."""

    def rules(self) -> dict[str, Any]:
        """The rule settings, for replay logs and reports."""
        return {
            "game": self.name,
            "players": self.num_players,
            "variants": sorted(self.variants),
            "action_cap": self.action_cap,
        }


class State(ABC):
    """One position of a game. ``apply`` mutates; ``clone`` gives an independent copy.

    ``events`` lists what every ``apply`` so far made happen, in order (``Event``
    subclasses of the game's ``events`` module).
    """

    game: Game
    events: list[Event]

    @abstractmethod
    def current_player(self) -> int:
        """The seat to act (also for decisions out of turn, such as a challenge)."""

    @abstractmethod
    def legal_actions(self) -> list[Action]:
        """The actions the current player may take; empty only when terminal."""

    @abstractmethod
    def apply(self, action: Action) -> None:
        """Carry out a legal action; raises GameError for an illegal one."""

    def is_legal(self, action: Action) -> bool:
        """Whether ``apply`` takes ``action`` here.

        Usually membership of ``legal_actions``; a game whose choices cannot all be
        listed (a Kraftidioten claim may state any whole figure) accepts more.
        """
        return action in self.legal_actions()

    def typed_action(self, text: str, legal: Sequence[Action]) -> Action | None:
        """A move a person typed that is not one of the numbered ``legal`` ones, or None.

        For choices that cannot all be listed (a Kraftidioten claim of any whole figure);
        a state that takes one tells a person so with ``typed_hint(legal, narrator)``
        (``narration.HintsTyping``).
        """
        return None

    @abstractmethod
    def is_terminal(self) -> bool:
        """True when the game is over or the action cap was reached."""

    @abstractmethod
    def result(self) -> Result:
        """The finishing order and loser (valid at any time; final when terminal)."""

    @abstractmethod
    def clone(self) -> State:
        """An independent copy, including the random generator's state."""

    def reseed(self, rng: random.Random) -> None:
        """Draw the game's chance events from now on (a penalty drawn at random, ...) from
        ``rng``: how a playout (``games/playouts.py``) plays a position on from a seed."""
        raise GameError(f"{self.game.name} cannot play a position on from a new seed")

    def redeal_unseen(self, rng: random.Random) -> None:
        """Deal the cards no seat has seen (the stock, face-down cards) again from ``rng``
        among the places they lie in, and draw later chance events from ``rng``.

        What every seat may know stays as it was (each ``observation``, the legal
        actions): the served game does this when a game is resumed from a save, so a
        player who peeked at a card and went back to an earlier save finds the hidden
        cards dealt anew (``web/sessions.py``); a replay applies it where it happened
        (:func:`replay`'s ``redeals``).
        """
        raise GameError(f"{self.game.name} cannot deal its unseen cards again")

    @abstractmethod
    def observation(self, seat: int) -> Any:
        """What ``seat`` may know: its own cards and public information only."""

    @abstractmethod
    def action_to_string(self, action: Action) -> str:
        """The action in words (English), for logs. In a language, as the player choosing
        it sees it: ``action_text(action, narrator)`` (``narration.TellsActions``)."""

    def event_log(self) -> Sequence[Event]:
        """Every event so far, in order (read-only)."""
        return self.events

    def final_stats(self) -> Stats:
        """The simulation's counters of this game: its events counted (``events.tally``)."""
        return tally(self.events, Stats(cards_played=[0] * self.game.table.size))

    def public_action_string(self, action: Action) -> str:
        """The action as the other seats see it; '' when they see nothing of it.

        The default suits games where every move is public; a game with hidden moves
        (a card laid face down) overrides it.
        """
        return self.action_to_string(action)

    @abstractmethod
    def card_locations(self) -> dict[str, list[int]]:
        """Every place a card can be (stock, hand:0, pile, burned, ...) and its cards."""

    @abstractmethod
    def remaining_cards(self, seat: int) -> list[int]:
        """The cards ``seat`` still holds (hand and table), for the loser's leftovers."""

    def check_invariants(self) -> None:
        """Debug check: every card of the game is in exactly one place."""
        seen: dict[int, str] = {}
        for place, cards in self.card_locations().items():
            for card in cards:
                if card in seen:
                    raise GameError(f"card {card} is both in {seen[card]} and {place}")
                seen[card] = place
        expected = set(self.cards_in_play())
        if set(seen) != expected:
            missing = sorted(expected - set(seen))
            extra = sorted(set(seen) - expected)
            raise GameError(f"cards missing {missing}, cards not in the game {extra}")

    def cards_in_play(self) -> Sequence[int]:
        """The card indices this game uses (all 55, or the 52 plants for Idiot)."""
        return range(self.game.table.size)

    # -- what the simulation measures of play (``games/playability.py``) ------------

    def progress(self, seat: int) -> int:
        """The game's progress measure: how near ``seat`` is to its goal, higher nearer;
        only its order among the seats counts. Here, and in the three games: minus the
        cards the seat still has to get rid of."""
        return -len(self.remaining_cards(seat))

    def seats_out(self) -> int:
        """How many seats have gone out so far."""
        return len(self.result().order)

    def distinct_moves(self) -> int:
        """How many of the legal actions lead to positions the player can tell apart
        (moves that differ only in cards the rules treat alike, or in which unseen card
        is turned, count once). Here: the distinct actions."""
        return len(set(self.legal_actions()))

    def answering(self) -> bool:
        """Whether the seat to act answers out of turn (another seat's claim or call)."""
        return False

    def play_out(
        self,
        bots: Sequence[Bot],
        bot_rngs: Sequence[random.Random],
        actions: list[Action],
        meter: Meter | None = None,
    ) -> None:
        """Let the bots play to the end (or the action cap), appending each action.

        Each bot sees only its seat's observation and the legal actions (read-only: a
        game may hand over its own cached list). A game may override this with a faster
        loop that takes exactly the same actions; ``play_game(debug=True)`` keeps the
        plain loop, so tests can compare the two. ``meter``: told of every decision and
        of the position after every action (``play_game`` measures the game with it).
        """
        is_terminal = self.is_terminal
        current_player = self.current_player
        legal_actions = self.legal_actions
        observation = self.observation
        apply = self.apply
        append = actions.append
        acts = [bot.act for bot in bots]
        while not is_terminal():
            seat = current_player()
            if meter is not None:
                meter.decision(self.distinct_moves(), self.answering(), seat)
            action = acts[seat](observation(seat), legal_actions(), bot_rngs[seat])
            apply(action)
            append(action)
            if meter is not None:
                meter.moved(self, len(actions))


class Bot(Protocol):
    """A policy: picks one of the legal actions from its seat's observation only.

    The observation is the game's frozen dataclass for that seat. A bot that decides
    from the legal actions alone may say so with a class attribute
    ``reads_observation = False``; a game's fast loop then builds no observation for it
    and hands it ``None``.
    """

    def act(self, observation: Any, legal: Sequence[Action], rng: random.Random) -> Action: ...


BotFactory = Callable[[Game, dict[str, Any]], Bot]


class _SeededRandom(random.Random):
    """What a :class:`LazyRandom` becomes once seeded: a plain ``random.Random``."""


class LazyRandom(random.Random):
    """``random.Random(seed)`` that seeds itself only when first drawn from.

    Seeding costs about as much as ten decisions of a game, and many bots never draw
    (the greedy Idiot bot) or draw rarely; the stream is the same as ``Random(seed)``'s.
    The first ``random()`` or ``getrandbits()`` (which every other draw goes through)
    seeds and turns the instance into a plain generator, so later draws cost nothing extra.
    """

    def __init__(self, seed: int) -> None:
        self._pending = seed
        self.gauss_next = None

    def _start(self) -> None:
        # A method bound before the switch (random's _randbelow keeps one) may come back.
        if type(self) is LazyRandom:
            object.__setattr__(self, "__class__", _SeededRandom)
            random.Random.seed(self, self._pending)

    def random(self) -> float:
        LazyRandom._start(self)
        return random.Random.random(self)

    def getrandbits(self, k: int, /) -> int:
        LazyRandom._start(self)
        return random.Random.getrandbits(self, k)

    def seed(self, a: Any = None, version: int = 2) -> None:
        LazyRandom._start(self)
        random.Random.seed(self, a, version)

    def getstate(self) -> tuple[Any, ...]:
        LazyRandom._start(self)
        return random.Random.getstate(self)

    def setstate(self, state: tuple[Any, ...]) -> None:
        LazyRandom._start(self)
        random.Random.setstate(self, state)


def derive_seed(seed: int, *parts: int) -> int:
    """A seed for a sub-stream (a bot, a game of a series) independent of worker count."""
    value = seed & 0xFFFFFFFFFFFFFFFF
    for part in parts:
        value = (value * 6364136223846793005 + 1442695040888963407 + part) & 0xFFFFFFFFFFFFFFFF
        value ^= value >> 29
    return value


#: Where a game's unseen cards were dealt again (``State.redeal_unseen``): after this
#: many actions, from ``random.Random(seed)``.
Redeal = tuple[int, int]  # (at, seed)
