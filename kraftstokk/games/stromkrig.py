"""Strømkrig (RULES.md SK-1..SK-14): lay higher production, runs, wars, burns and resets.

Cards are the 55 indices of the :class:`~kraftstokk.games.core.DeckTable`. The stock's top
card is the last element of its list. An action is a tuple whose first element is one of
the kinds below; ``action_to_string`` gives the words.

Decisions where the seeds and RULES.md leave room (each is what the engine does):

* Special cards (SK-10 burn, SK-11 reset, SK-12 invisible) are separate actions of their
  own (SK-13): a card with several functions offers each of them, and a plant card may
  also be laid as an ordinary card when it beats the top card. A joker is only a burn.
  Burns, resets and invisible cards may be laid whatever the top card is (also on an
  empty pile).
* SK-11: after a reset the next player may lay any card; the 2 does not count as the card
  under the next one, so it cannot start a war with it.
* SK-12: invisible cards lie beside the pile; several may lie there at once. The card to
  beat, and the card a war is checked against, stay the card under them. Whoever takes
  the pile (on a turn, by a failed sjanse, or by losing a war) takes the cards beside it
  too, and a burn burns them with the pile. Variant ``invisible_current_category``: only
  nr. 50-52 in production (outside wars production is always the category played).
* SK-5 runs: nr. in production consecutive, laid lowest production first; the first card
  must beat the top card strictly (no run starts from an SK-6b lower card). Only the run's
  first card is checked against the top card for a war; inside a run the cards are laid
  as one move and have no special effect.
* SK-3 sjanse ("chance draw"): the stock's top card is turned; if it has any legal use (as
  an ordinary card, a burn, a reset or an invisible card) the player chooses the use in a
  follow-up decision; if it has none, the player takes the pile with it.
* SK-6b: a card lower than the top card but with the same production tens may be laid
  only where it starts a war (see below); otherwise SK-2 applies.
* SK-7: jokers count as the lowest figure (two jokers tie, and fight again); equal figures
  in the named category are a tie too.
* SK-4: the pile can only be taken when there is something to take; a player starting a
  new pile always has a legal card (any plant card beats an empty pile, a joker burns).
* SK-6/SK-7: a war needs two different players still in the game: a card laid on one's
  own card, or on the card of a player who is already out, starts no war, and neither
  does a card that was the layer's last (hand and stock empty: the layer is out, SK-14).
  Players who are out are never asked to join. Joining is asked in seating order after
  the challenger; the challenger then names the category; war cards are laid face up in
  seating order from the challenger; a re-fight keeps the category and the order.
* SK-9: players in a war stay in it until it ends even with an empty hand; one who must
  lay a war card and has none takes the whole pile (with the war cards and the cards
  beside it) at once, which ends the war, and starts the new pile (SK-8).
* SK-10: a player who burns with the last card (stock empty) is out; the next player
  starts the new pile.
* SK-14: out means no cards in hand while the stock is empty; it is checked after every
  regular turn and after every war. The game ends when one player is left: the loser.

Engine conventions: hands are kept sorted by production (jokers first), and
``legal_actions`` lists ordinary lays first, lowest production first, then special uses,
runs, take and sjanse. ``observation(seat)`` is a live read-only view made once per seat
(O(1)); ``describe()`` puts it in words. ``StromkrigGame(..., dealer=k)`` sets the dealer,
who starts (SK-1); the simulation passes the loser of one game as the next dealer if it
wants SK-1's "the loser deals". ``StromkrigState.from_position`` sets up a position card
by card (tests, puzzles).

Counters in :class:`~kraftstokk.games.core.Stats`: ``pile_pickups`` (pile taken on a turn or
by a failed sjanse; a lost war is counted under ``wars`` instead), ``burns``, ``resets``,
``wars``, ``war_rounds`` (every round, re-fights included), ``runs``, ``invisible_plays``,
``chance_draws``, ``chance_draws_played``; samples ``war_sizes`` and ``run_lengths``.
"""

from __future__ import annotations

import random
from bisect import insort
from collections.abc import Iterable, Iterator, Sequence
from typing import Any, overload

from kraftstokk.errors import GameError
from kraftstokk.games.core import (
    CATEGORY_NAMES,
    DEFAULT_ACTION_CAP,
    GWH,
    Action,
    Bot,
    DeckTable,
    Game,
    Result,
    State,
    Stats,
)
from kraftstokk.models import INVISIBLE_FROM_NR, SUITS

# Action kinds (first element of an action tuple).
LAY = 0  # (LAY, card): an ordinary card on the pile
RUN = 1  # (RUN, card, card, ...): lowest production first (SK-5)
BURN = 2  # (BURN, card): joker or clubs 1-4 (SK-10)
RESET = 3  # (RESET, card): a 2 (SK-11)
INVISIBLE = 4  # (INVISIBLE, card): beside the pile (SK-12)
TAKE = 5  # (TAKE,): take the pile (SK-4)
CHANCE = 6  # (CHANCE,): sjanse, turn the stock's top card (SK-3)
JOIN = 7  # (JOIN,): join the war (SK-7)
STAY_OUT = 8  # (STAY_OUT,)
NAME = 9  # (NAME, category): the challenger names the war's category
WAR_LAY = 10  # (WAR_LAY, card): one war card

# Phases of a state.
PLAY = 0  # a regular turn
CHOOSE = 1  # the sjanse card is turned; the player chooses its use
ASK = 2  # a player is asked to join the war
NAMING = 3  # the challenger names the category
WAR = 4  # a player in the war lays a war card
OVER = 5

PHASE_NAMES = ("play", "chance", "join", "name", "war", "over")
HAND_SIZE = 3
CLUBS = SUITS.index("kløver")

_TAKE: Action = (TAKE,)
_CHANCE: Action = (CHANCE,)
_JOIN: Action = (JOIN,)
_STAY_OUT: Action = (STAY_OUT,)
_NAMES: tuple[Action, ...] = tuple((NAME, c) for c in range(3))


class StromkrigGame(Game):
    """Strømkrig for 2-6 players with all 55 cards; ``dealer`` deals and starts."""

    name = "stromkrig"
    min_players = 2
    max_players = 6
    allowed_variants = frozenset({"invisible_current_category"})

    def __init__(
        self,
        table: DeckTable,
        num_players: int,
        variants: Sequence[str] = (),
        action_cap: int = DEFAULT_ACTION_CAP,
        dealer: int = 0,
    ) -> None:
        super().__init__(table, num_players, variants, action_cap)
        if not 0 <= dealer < num_players:
            raise GameError(f"dealer must be a seat 0-{num_players - 1}, not {dealer}")
        if table.size != 55 or len(table.joker_cards) != 3:
            raise GameError(f"stromkrig needs 52 plant cards and 3 jokers, not {table.size} cards")
        self.dealer = dealer
        size = table.size
        joker = table.joker
        self.production: tuple[float, ...] = table.figures[GWH]
        self.tens: tuple[int, ...] = table.gwh_tens
        self.gwh_nr: tuple[int, ...] = table.nr[GWH]
        club = tuple(table.suit[c] == CLUBS for c in range(size))
        self.war_club: tuple[bool, ...] = tuple(club[c] and table.value[c] > 4 for c in range(size))
        self.burner: tuple[bool, ...] = tuple(
            joker[c] or (club[c] and table.value[c] <= 4) for c in range(size)
        )
        self.resetter: tuple[bool, ...] = tuple(
            not joker[c] and table.value[c] == 2 for c in range(size)
        )
        categories = (GWH,) if "invisible_current_category" in self.variants else (0, 1, 2)
        self.invisible: tuple[bool, ...] = tuple(
            not joker[c] and any(table.nr[k][c] >= INVISIBLE_FROM_NR for k in categories)
            for c in range(size)
        )
        #: War figures per category; jokers count lowest (SK-7).
        self.war_figure: tuple[tuple[float, ...], ...] = tuple(
            tuple(-1.0 if joker[c] else table.figures[k][c] for c in range(size)) for k in range(3)
        )
        #: Hands are kept in this order: jokers first, then lowest production first.
        self.hand_order: tuple[int, ...] = tuple(
            -1 if joker[c] else 100 - table.nr[GWH][c] for c in range(size)
        )
        by_nr = {table.nr[GWH][c]: c for c in range(size) if not joker[c]}
        #: The card next in a run (production nr. one lower, i.e. higher production), or -1.
        self.run_next: tuple[int, ...] = tuple(
            -1 if joker[c] else by_nr.get(table.nr[GWH][c] - 1, -1) for c in range(size)
        )
        # Precomputed action tuples and per-card uses keep the inner loop allocation-free.
        #: Production for SK-2 comparisons; a joker never beats anything.
        self.beat_production: tuple[float, ...] = tuple(
            -1.0 if joker[c] else self.production[c] for c in range(size)
        )
        self.lay_action: tuple[Action, ...] = tuple(
            () if joker[c] else (LAY, c) for c in range(size)
        )
        self.war_lay_action: tuple[Action, ...] = tuple((WAR_LAY, c) for c in range(size))
        self.special_uses: tuple[tuple[Action, ...], ...] = tuple(
            tuple(
                (kind, c)
                for kind, flag in (
                    (BURN, self.burner),
                    (RESET, self.resetter),
                    (INVISIBLE, self.invisible),
                )
                if flag[c]
            )
            for c in range(size)
        )
        #: Every use of a card on an empty pile or after a reset.
        self.open_uses: tuple[tuple[Action, ...], ...] = tuple(
            ((self.lay_action[c],) if not joker[c] else ()) + self.special_uses[c]
            for c in range(size)
        )

    def new_initial_state(self, rng: random.Random) -> StromkrigState:
        """SK-1: shuffle all 55 cards, deal three each from the dealer's left."""
        # A shuffle by random sort keys: as fair as rng.shuffle and several times faster.
        random_key = rng.random
        keys = [random_key() for _ in range(self.table.size)]
        cards = sorted(range(self.table.size), key=keys.__getitem__)
        n = self.num_players
        hands: list[list[int]] = [[] for _ in range(n)]
        for _ in range(HAND_SIZE):
            for offset in range(1, n + 1):
                hands[(self.dealer + offset) % n].append(cards.pop())
        for hand in hands:
            hand.sort(key=self.hand_order.__getitem__)
        return StromkrigState(self, rng, hands, cards, current=self.dealer)

    def rules(self) -> dict[str, Any]:
        rules = super().rules()
        rules["dealer"] = self.dealer
        return rules


class StromkrigObservation:
    """A read-only view of what one seat may know, built in O(1); fields copy on access."""

    __slots__ = ("_state", "seat")

    def __init__(self, state: StromkrigState, seat: int) -> None:
        self._state = state
        self.seat = seat

    @property
    def game(self) -> StromkrigGame:
        return self._state.game

    @property
    def phase(self) -> int:
        return self._state.phase

    @property
    def current_player(self) -> int:
        return self._state.current

    @property
    def hand(self) -> tuple[int, ...]:
        return tuple(self._state.hands[self.seat])

    @property
    def top(self) -> int:
        """The card to beat, -1 when any card may be laid (empty pile or after a reset)."""
        return self._state.top

    @property
    def top_owner(self) -> int:
        return self._state.top_owner

    @property
    def pile(self) -> tuple[int, ...]:
        return tuple(self._state.pile)

    @property
    def beside(self) -> tuple[int, ...]:
        return tuple(self._state.beside)

    @property
    def pile_size(self) -> int:
        return len(self._state.pile) + len(self._state.beside)

    @property
    def burned(self) -> tuple[int, ...]:
        return tuple(self._state.burned)

    @property
    def hand_counts(self) -> tuple[int, ...]:
        return tuple(len(hand) for hand in self._state.hands)

    @property
    def stock_count(self) -> int:
        return len(self._state.stock)

    @property
    def out(self) -> tuple[bool, ...]:
        return tuple(self._state.out)

    @property
    def chance_card(self) -> int:
        """The turned sjanse card while its use is being chosen, else -1."""
        return self._state.chance_card

    @property
    def war_category(self) -> int:
        """The named war category, -1 before it is named or outside a war."""
        return self._state.war_category

    @property
    def war_challenger(self) -> int:
        return self._state.challenger

    @property
    def war_players(self) -> tuple[int, ...]:
        """Players in the war (or, in a re-fight, in the current round)."""
        state = self._state
        return tuple(state.round_players if state.phase == WAR else state.war_players)

    @property
    def war_laid(self) -> tuple[tuple[int, int], ...]:
        """(seat, card) of the war cards laid in the current round, in order."""
        return tuple(self._state.round_laid)

    @property
    def war_cards(self) -> tuple[int, ...]:
        return tuple(self._state.war_cards)

    def describe(self) -> list[str]:
        """The view in words, for a person at the table."""
        state = self._state
        game = state.game
        table = game.table

        def show(card: int, category: int = GWH) -> str:
            if table.joker[card]:
                return table.describe(card)
            if category < 0:  # a war before its category is named: all three figures
                figures = " / ".join(table.figure_text(k, card) for k in range(3))
                return f"{table.describe(card)} {figures}"
            return f"{table.describe(card)} {table.figure_text(category, card)}"

        at_war = state.phase in (ASK, NAMING, WAR)
        hand_category = state.war_category if at_war else GWH
        hand = ", ".join(show(card, hand_category) for card in state.hands[self.seat])
        lines = [f"Your hand: {hand or '-'}"]
        if state.pile:
            size = len(state.pile)
            noun = "card" if size == 1 else "cards"
            lines.append(f"Pile: {size} {noun}, last laid {show(state.pile[-1])}")
        else:
            lines.append("Pile: empty, a new pile starts")
        if state.beside:
            lines.append(f"Beside the pile: {', '.join(show(c) for c in state.beside)}")
        if at_war:
            pass
        elif state.top >= 0:
            lines.append(f"To beat: {show(state.top)}")
        elif state.pile:
            lines.append("To beat: nothing, any card (the pile was reset)")
        if state.chance_card >= 0:
            lines.append(f"Sjanse card: {show(state.chance_card)}")
        counts = ", ".join(
            f"seat {seat + 1}: {'out' if state.out[seat] else len(hand)}"  # people count from 1
            for seat, hand in enumerate(state.hands)
        )
        lines.append(f"Cards in hand: {counts}; stock: {len(state.stock)}")
        if at_war:
            players = ", ".join(str(seat + 1) for seat in self.war_players)
            category = state.war_category
            named = CATEGORY_NAMES[category] if category >= 0 else "not named yet"
            lines.append(f"War ({named}), seats {players}; challenger seat {state.challenger + 1}")
            for seat, card in state.round_laid:
                lines.append(f"  seat {seat + 1} laid {show(card, category)}")
        lines.append(f"Turn: seat {state.current + 1} ({PHASE_NAMES[state.phase]})")
        return lines


class StromkrigState(State):
    """One position of Strømkrig; every field is plain data."""

    game: StromkrigGame

    def __init__(
        self,
        game: StromkrigGame,
        rng: random.Random,
        hands: list[list[int]],
        stock: list[int],
        current: int,
    ) -> None:
        self.game = game
        self.rng = rng
        self.n = game.num_players
        self.hands = hands
        self.stock = stock
        self.pile: list[int] = []
        self.beside: list[int] = []
        self.burned: list[int] = []
        self.war_cards: list[int] = []
        self.top = -1
        self.top_owner = -1
        self.chance_card = -1
        self.current = current
        self.phase = PLAY
        self.out = [False] * self.n
        self.order: list[int] = []
        self.actions = 0
        self.turns = 0
        self.challenger = -1
        self.war_players: list[int] = []
        self.ask_queue: list[int] = []
        self.war_category = -1
        self.round_players: list[int] = []
        self.round_laid: list[tuple[int, int]] = []
        self.stats = Stats(cards_played=[0] * game.table.size)
        self._legal: list[Action] | _TurnLegal | None = None
        self._views: list[StromkrigObservation] | None = None

    # ----------------------------------------------------------------- set-up for tests

    @classmethod
    def from_position(
        cls,
        game: StromkrigGame,
        hands: Sequence[Iterable[int]],
        stock: Iterable[int] = (),
        *,
        pile: Iterable[int] = (),
        top_owner: int = -1,
        beside: Iterable[int] = (),
        current: int = 0,
        reset: bool = False,
        rng: random.Random | None = None,
    ) -> StromkrigState:
        """A position given card by card (stock top last); every other card is burned."""
        if len(hands) != game.num_players:
            raise GameError(f"{len(hands)} hands for {game.num_players} players")
        state = cls(game, rng or random.Random(0), [list(h) for h in hands], list(stock), current)
        for hand in state.hands:
            hand.sort(key=game.hand_order.__getitem__)
        state.pile = list(pile)
        state.beside = list(beside)
        if state.pile and not reset:
            state.top = state.pile[-1]
            state.top_owner = top_owner
        used = {card for place in state.card_locations().values() for card in place}
        state.burned = [card for card in range(game.table.size) if card not in used]
        state._mark_out()
        return state

    # ----------------------------------------------------------------- the State API

    def current_player(self) -> int:
        return self.current

    def is_terminal(self) -> bool:
        return self.phase == OVER or self.actions >= self.game.action_cap

    def legal_actions(self) -> list[Action]:
        legal = self._legal
        if legal is None:
            if self.phase == PLAY and self.actions < self.game.action_cap:
                legal = self._legal = self._turn_actions()
            else:
                legal = self._legal = self._compute_legal()
        elif isinstance(legal, _TurnLegal):
            legal = self._legal = legal.full()
        return legal

    def apply(self, action: Action) -> None:
        legal = self._legal
        if legal is None:
            legal = self.legal_actions()
        if action not in legal:
            if self.is_terminal():
                raise GameError("stromkrig: the game is over")
            raise GameError(f"stromkrig: {list(action)} is not legal for seat {self.current}")
        self._legal = None
        self.actions += 1
        phase = self.phase
        kind = action[0]
        p = self.current
        if phase == PLAY:
            self.turns += 1
            if kind == LAY:
                self._lay_card(p, action[1])
            elif kind == TAKE:
                self._take(p)
            elif kind == CHANCE:
                self._chance(p)
            elif kind == RUN:
                self._run(p, action[1:])
            else:
                self._special_or_lay(p, kind, action[1], from_hand=True)
        elif phase == CHOOSE:
            self.chance_card = -1
            self.stats.count("chance_draws_played")
            self._special_or_lay(p, kind, action[1], from_hand=False)
        elif phase == ASK:
            self.ask_queue.pop(0)
            if kind == JOIN:
                self.war_players.append(p)
            self._next_asked()
        elif phase == NAMING:
            self.war_category = action[1]
            self.stats.sample("war_sizes", len(self.war_players))
            self._start_round(self._seating_from(self.challenger, self.war_players))
        else:  # WAR
            self._war_lay(p, action[1])

    def result(self) -> Result:
        finished = self.phase == OVER
        loser = None
        if finished:
            left = [seat for seat in range(self.n) if not self.out[seat]]
            loser = left[0] if left else self.order[-1]
        rounds = -(-self.turns // self.n)
        return Result(finished, list(self.order), loser, self.actions, rounds)

    def clone(self) -> StromkrigState:
        rng = random.Random()
        rng.setstate(self.rng.getstate())
        hands = [list(hand) for hand in self.hands]
        other = StromkrigState(self.game, rng, hands, list(self.stock), self.current)
        other.pile = list(self.pile)
        other.beside = list(self.beside)
        other.burned = list(self.burned)
        other.war_cards = list(self.war_cards)
        other.top = self.top
        other.top_owner = self.top_owner
        other.chance_card = self.chance_card
        other.phase = self.phase
        other.out = list(self.out)
        other.order = list(self.order)
        other.actions = self.actions
        other.turns = self.turns
        other.challenger = self.challenger
        other.war_players = list(self.war_players)
        other.ask_queue = list(self.ask_queue)
        other.war_category = self.war_category
        other.round_players = list(self.round_players)
        other.round_laid = list(self.round_laid)
        other.stats = self.stats.copy()
        return other

    def observation(self, seat: int) -> StromkrigObservation:
        """A live read-only view (made once per seat): it always shows the current position."""
        views = self._views
        if views is None:
            views = self._views = [StromkrigObservation(self, k) for k in range(self.n)]
        return views[seat]

    def play_out(
        self, bots: Sequence[Bot], bot_rngs: Sequence[random.Random], actions: list[Action]
    ) -> None:
        """The bots' loop; on a turn the legal list is listed past the lays on demand.

        Most turns a bot lays one of the ordinary lays, which come first: the special
        uses, runs, take and sjanse are worked out only if the bot looks past them
        (:class:`_TurnLegal`). ``apply`` checks the action against the same list.
        """
        acts = [bot.act for bot in bots]
        views = [self.observation(seat) for seat in range(self.n)]
        compute_legal = self._compute_legal
        apply = self.apply
        append = actions.append
        cap = self.game.action_cap
        while self.phase != OVER and self.actions < cap:
            seat = self.current
            legal: Sequence[Action]
            if self.phase == PLAY:
                legal = self._legal = _TurnLegal(self)
            else:
                legal = self._legal = compute_legal()
            action = acts[seat](views[seat], legal, bot_rngs[seat])
            apply(action)
            append(action)

    def card_locations(self) -> dict[str, list[int]]:
        places = {f"hand:{seat}": list(hand) for seat, hand in enumerate(self.hands)}
        places["stock"] = list(self.stock)
        places["pile"] = list(self.pile)
        places["beside"] = list(self.beside)
        places["war"] = list(self.war_cards)
        places["burned"] = list(self.burned)
        places["chance"] = [self.chance_card] if self.chance_card >= 0 else []
        return places

    def remaining_cards(self, seat: int) -> list[int]:
        return list(self.hands[seat])

    def action_to_string(self, action: Action) -> str:
        table = self.game.table
        kind = action[0]
        if kind == LAY:
            card = action[1]
            return f"lay {table.names[card]} {table.figure_text(GWH, card)}"
        if kind == RUN:
            return "lay run " + ", ".join(table.names[card] for card in action[1:])
        if kind == BURN:
            return f"lay {table.describe(action[1])} to burn the pile"
        if kind == RESET:
            return f"lay {table.describe(action[1])} to reset"
        if kind == INVISIBLE:
            return f"lay {table.names[action[1]]} beside the pile (invisible)"
        if kind == TAKE:
            return "take the pile"
        if kind == CHANCE:
            return "chance draw"
        if kind == JOIN:
            return "join the war"
        if kind == STAY_OUT:
            return "stay out"
        if kind == NAME:
            return f"name category {CATEGORY_NAMES[action[1]]}"
        if kind == WAR_LAY:
            card = action[1]
            if table.joker[card]:
                return f"lay {table.describe(card)} in the war"
            category = self.war_category if self.war_category >= 0 else GWH
            return f"lay {table.names[card]} {table.figure_text(category, card)} in the war"
        raise GameError(f"stromkrig: unknown action {list(action)}")

    # ----------------------------------------------------------------- legal actions

    def _uses(self, card: int, legal: list[Action], *, left_after: bool) -> None:
        """Every single-card use of ``card`` on the current pile (SK-2, SK-6b, SK-10..13).

        ``left_after``: the player still has cards after laying it (for SK-6b: a lower
        card of the same tens is legal only because it starts a war).
        """
        game = self.game
        top = self.top
        if top < 0:
            legal.extend(game.open_uses[card])
            return
        production = game.beat_production
        if production[card] > production[top] or (
            game.tens[card] == game.tens[top] and self._war_possible(left_after)
        ):
            legal.append(game.lay_action[card])
        legal.extend(game.special_uses[card])

    def _compute_legal(self) -> list[Action]:
        """Ordinary lays first, then special uses, runs, take and sjanse (bots rely on it)."""
        if self.is_terminal():
            return []
        phase = self.phase
        if phase == PLAY:
            return self._turn_actions()
        legal: list[Action] = []
        if phase == CHOOSE:
            self._uses(self.chance_card, legal, left_after=True)
        elif phase == ASK:
            legal.extend((_JOIN, _STAY_OUT))
        elif phase == NAMING:
            legal.extend(_NAMES)
        else:
            war_lay = self.game.war_lay_action
            legal.extend([war_lay[card] for card in self.hands[self.current]])
        return legal

    def _turn_actions(self) -> list[Action]:
        legal, floor = self._turn_lays()
        return self._turn_rest(legal, floor)

    def _turn_lays(self) -> tuple[list[Action], float]:
        """A turn's ordinary lays, and the production a run's first card must beat.

        Hands are sorted by production (jokers first), so the ordinary lays are a tail
        of the hand and come out lowest production first. The war test is inlined.
        """
        game = self.game
        hand = self.hands[self.current]
        top = self.top
        lay = game.lay_action
        production = game.beat_production
        if top < 0:
            legal = [lay[card] for card in hand if lay[card]]
            floor = -1.0
        else:
            floor = production[top]
            owner = self.top_owner
            if (
                (len(hand) > 1 or self.stock)
                and owner >= 0
                and owner != self.current
                and not self.out[owner]
            ):  # _war_possible: SK-6b, a lower card of the same tens starts a war
                tens = game.tens
                top_tens = tens[top]
                legal = [
                    lay[card] for card in hand if production[card] > floor or tens[card] == top_tens
                ]
            else:
                legal = [lay[card] for card in hand if production[card] > floor]
        return legal, floor

    def _turn_rest(self, legal: list[Action], floor: float) -> list[Action]:
        """``legal`` (the lays) with the special uses, runs, take and sjanse added."""
        game = self.game
        hand = self.hands[self.current]
        production = game.beat_production
        # One pass adds the special uses and finds the links of runs (SK-5): positions i
        # where hand[i + 1] is the next card of a run after hand[i].
        special = game.special_uses
        run_next = game.run_next
        links: list[int] | None = None
        follows = -1
        i = -1
        for card in hand:
            if special[card]:
                legal += special[card]
            if card == follows:
                if links is None:
                    links = [i]
                else:
                    links.append(i)
            follows = run_next[card]
            i += 1
        if links is not None:
            # SK-5: every run of consecutive production nr. whose first card beats the top.
            linked = set(links)
            for i in links:
                card = hand[i]
                if production[card] <= floor:
                    continue
                run: Action = (RUN, card, hand[i + 1])
                legal.append(run)
                j = i + 1
                while j in linked:
                    j += 1
                    run = (*run, hand[j])
                    legal.append(run)
        if self.pile or self.beside:
            legal.append(_TAKE)
        if self.stock:
            legal.append(_CHANCE)
        return legal

    # ----------------------------------------------------------------- moves

    def _draw_up(self, seat: int) -> None:
        hand = self.hands[seat]
        stock = self.stock
        while len(hand) < HAND_SIZE and stock:
            insort(hand, stock.pop(), key=self.game.hand_order.__getitem__)

    def _take(self, seat: int) -> None:
        """SK-4: the whole pile with the cards beside it; the next player starts."""
        self._pick_up(seat)
        self.stats.count("pile_pickups")
        self._end_turn(seat, again=False)

    def _pick_up(self, seat: int) -> None:
        hand = self.hands[seat]
        hand.extend(self.pile)
        hand.extend(self.beside)
        hand.extend(self.war_cards)
        self.war_cards.clear()
        hand.sort(key=self.game.hand_order.__getitem__)
        self.pile.clear()
        self.beside.clear()
        self.top = -1
        self.top_owner = -1

    def _chance(self, seat: int) -> None:
        """SK-3 sjanse: turn the stock's top card; no legal use takes the pile with it."""
        card = self.stock.pop()
        self.stats.count("chance_draws")
        uses: list[Action] = []
        self._uses(card, uses, left_after=True)
        if uses:
            self.chance_card = card
            self.phase = CHOOSE
            return
        self.hands[seat].append(card)
        self._pick_up(seat)
        self.stats.count("pile_pickups")
        self._end_turn(seat, again=False)

    def _special_or_lay(self, seat: int, kind: int, card: int, *, from_hand: bool) -> None:
        if from_hand:
            self.hands[seat].remove(card)
        self.stats.cards_played[card] += 1
        if kind == LAY:
            self._lay_on_pile(seat, (card,), from_hand)
            return
        again = False
        if kind == BURN:  # SK-10
            self.burned.extend(self.pile)
            self.burned.extend(self.beside)
            self.burned.append(card)
            self.pile.clear()
            self.beside.clear()
            self.top = -1
            self.top_owner = -1
            self.stats.count("burns")
            again = True
        elif kind == RESET:  # SK-11
            self.pile.append(card)
            self.top = -1
            self.top_owner = -1
            self.stats.count("resets")
        else:  # SK-12 INVISIBLE
            self.beside.append(card)
            self.stats.count("invisible_plays")
        self.phase = PLAY
        if from_hand:
            self._draw_up(seat)
        self._end_turn(seat, again=again)

    def _run(self, seat: int, cards: Sequence[int]) -> None:
        hand = self.hands[seat]
        played = self.stats.cards_played
        for card in cards:
            hand.remove(card)
            played[card] += 1
        self.stats.count("runs")
        self.stats.sample("run_lengths", len(cards))
        self._lay_on_pile(seat, cards, True)

    def _lay_card(self, seat: int, card: int) -> None:
        """The common move, kept short: one ordinary card from the hand (SK-2, SK-3, SK-6)."""
        hand = self.hands[seat]
        hand.remove(card)
        self.stats.cards_played[card] += 1
        stock = self.stock
        if stock and len(hand) < HAND_SIZE:
            order = self.game.hand_order.__getitem__
            while len(hand) < HAND_SIZE and stock:
                insort(hand, stock.pop(), key=order)
        under = self.top
        if under >= 0:
            game = self.game
            if (
                game.tens[card] == game.tens[under]
                or (game.war_club[card] and game.war_club[under])
            ) and self._war_possible(bool(hand or stock)):
                owner = self.top_owner
                self.pile.append(card)
                self.top = card
                self.top_owner = seat
                self._start_war(seat, owner)
                return
        self.pile.append(card)
        self.top = card
        self.top_owner = seat
        if not hand and not stock:
            self._end_turn(seat, again=False)
            return
        # _end_turn without the out check (the player still has cards): the next seat.
        out = self.out
        n = self.n
        seat = seat + 1 if seat + 1 < n else 0
        while out[seat]:
            seat = seat + 1 if seat + 1 < n else 0
        self.current = seat

    def _lay_on_pile(self, seat: int, cards: Sequence[int], from_hand: bool) -> None:
        """SK-2/SK-5: lay ordinary card(s); SK-6 checks the first against the card under."""
        game = self.game
        first = cards[0]
        under = self.top
        owner = self.top_owner
        if from_hand and self.stock and len(self.hands[seat]) < HAND_SIZE:
            self._draw_up(seat)
        war = (
            under >= 0
            and (
                game.tens[first] == game.tens[under]
                or (game.war_club[first] and game.war_club[under])
            )
            and self._war_possible(bool(self.hands[seat] or self.stock))
        )
        self.pile.extend(cards)
        self.top = cards[-1]
        self.top_owner = seat
        self.phase = PLAY
        if war:
            self._start_war(seat, owner)
        else:
            self._end_turn(seat, again=False)

    def _war_possible(self, layer_left: bool) -> bool:
        """A war on the top card needs its owner, another player still in, and a layer
        who keeps cards (SK-14: who lays the last card with the stock empty is out)."""
        owner = self.top_owner
        return layer_left and owner >= 0 and owner != self.current and not self.out[owner]

    def _end_turn(self, seat: int, *, again: bool) -> None:
        """SK-14 out check; then the same player again (after a burn) or the next one."""
        self.phase = PLAY
        out = self.out
        # Only the player who acted can have run out of cards on a regular turn.
        if not self.stock and not self.hands[seat]:
            out[seat] = True
            self.order.append(seat)
            if out.count(False) <= 1:
                self.phase = OVER
                return
        if again and not out[seat]:
            self.current = seat
            return
        n = self.n
        nxt = (seat + 1) % n
        while out[nxt]:
            nxt = (nxt + 1) % n
        self.current = nxt

    def _mark_out(self) -> bool:
        """Mark players out (SK-14); True when the game is over."""
        if self.stock:
            return False
        for seat in range(self.n):
            if not self.out[seat] and not self.hands[seat]:
                self.out[seat] = True
                self.order.append(seat)
        if self.out.count(False) <= 1:
            self.phase = OVER
            return True
        return False

    def _next_seat(self, seat: int) -> int:
        n = self.n
        nxt = (seat + 1) % n
        while self.out[nxt]:
            nxt = (nxt + 1) % n
        return nxt

    def _seating_from(self, first: int, seats: Iterable[int]) -> list[int]:
        n = self.n
        return sorted(seats, key=lambda seat: (seat - first) % n)

    # ----------------------------------------------------------------- war (SK-6..SK-9)

    def _start_war(self, challenger: int, under_owner: int) -> None:
        self.stats.count("wars")
        self.challenger = challenger
        self.war_players = [challenger, under_owner]
        self.war_category = -1
        n = self.n
        queue = []
        for k in range(1, n):
            seat = (challenger + k) % n
            if seat != under_owner and not self.out[seat]:
                queue.append(seat)
        self.ask_queue = queue
        self._next_asked()

    def _next_asked(self) -> None:
        if self.ask_queue:
            self.phase = ASK
            self.current = self.ask_queue[0]
        else:
            self.phase = NAMING
            self.current = self.challenger

    def _start_round(self, players: list[int]) -> None:
        self.stats.count("war_rounds")
        self.round_players = players
        self.round_laid = []
        self._next_war_layer()

    def _next_war_layer(self) -> None:
        laid = len(self.round_laid)
        if laid < len(self.round_players):
            seat = self.round_players[laid]
            if not self.hands[seat]:  # SK-9
                self._end_war(seat)
                return
            self.phase = WAR
            self.current = seat
            return
        figure = self.game.war_figure[self.war_category]
        lowest = min(figure[card] for _, card in self.round_laid)
        losers = [seat for seat, card in self.round_laid if figure[card] == lowest]
        if len(losers) == 1:
            self._end_war(losers[0])
        else:
            self._start_round(losers)

    def _war_lay(self, seat: int, card: int) -> None:
        self.hands[seat].remove(card)
        self.war_cards.append(card)
        self.round_laid.append((seat, card))
        self.stats.cards_played[card] += 1
        self._draw_up(seat)
        self._next_war_layer()

    def _end_war(self, loser: int) -> None:
        """SK-7/SK-8: the loser takes the pile, the cards beside it and the war cards."""
        self._pick_up(loser)
        self.challenger = -1
        self.war_players = []
        self.round_players = []
        self.round_laid = []
        self.war_category = -1
        self.phase = PLAY
        if self._mark_out():
            return
        self.current = loser


class _TurnLegal(Sequence[Action]):
    """A turn's legal actions, in ``legal_actions`` order, listed past the lays on demand.

    Valid until the next ``apply`` (as an observation is): the rest is read from the state.
    """

    __slots__ = ("_full", "_state", "floor", "lays")

    def __init__(self, state: StromkrigState) -> None:
        self._state = state
        self.lays, self.floor = state._turn_lays()
        self._full: list[Action] | None = None

    def full(self) -> list[Action]:
        full = self._full
        if full is None:
            full = self._full = self._state._turn_rest(list(self.lays), self.floor)
        return full

    @overload
    def __getitem__(self, index: int) -> Action: ...

    @overload
    def __getitem__(self, index: slice) -> list[Action]: ...

    def __getitem__(self, index: int | slice) -> Action | list[Action]:
        if index == 0 and self.lays:
            return self.lays[0]
        return self.full()[index]

    def __len__(self) -> int:
        return len(self.full())

    def __iter__(self) -> Iterator[Action]:
        return iter(self.full())

    def __contains__(self, action: object) -> bool:
        # Every ordinary lay is in ``lays``; the rest holds no ordinary lay.
        return action in self.lays or action in self.full()


GAME = StromkrigGame
