"""Kraftidioten (RULES.md KI-1..KI-9): claim plants face down, bluff, challenge, burn.

Actions (tuples of ints, first element the kind):

- ``(LAY, card, category, plant)``: lay ``card`` face down and claim ``plant`` with the
  plant's true figure in ``category`` (on a running pile the category is the pile's).
  On a turn only the truth is listed (``plant == card``).
- ``(LIE, card, category)``: lie with ``card`` (KI-4c). The same seat then answers one
  more decision, which plant to claim: ``(LAY, card, category, plant)`` with
  ``plant != card``. A claim always states the named plant's true deck figure, so a lie
  is a wrong plant, never a wrong figure; the two steps keep each list of legal actions
  short (about two per hand card, then at most 51 claims) instead of hand size x 52.
- ``(JOKER, card)``: lay a joker from hand; it is shown and burns the pile (KI-7).
- ``(TAKE,)``: take the pile into hand (KI-4a); ``(DRAW,)``: draw from the stock (KI-4b).
- ``(CHALLENGE,)`` / ``(PASS,)``: the out-of-turn answer of one seat to the last claim.

After every claim each other seat still in the game is asked, one decision each, in
seating order after the layer (KI-6, KI-8): the first to challenge does. Taking the pile
and drawing from the stock are allowed only on a running pile (on an empty pile there is
no claim to beat). A joker drawn from the stock is laid as a joker without the penalty
(it did not come from the hand). A drawn card that falls below the claim is shown when
it goes to the hand with the pile. The KI-7 penalty draws from the burned plant cards: a
shown joker stays out of the game (otherwise a hand of jokers could draw its own joker
back for ever); with no burned plant to draw, a player left with no cards is out (KI-9).
Every decision on a player's own turn counts as a turn for ``Result.rounds``; naming the
claim after ``LIE`` and answering a claim do not.

Bots see a :class:`KraftidiotenObservation`: a live, read-only view of one seat's
knowledge (its hand, the public claims, counts, the cards shown so far).
"""

from __future__ import annotations

import random
from bisect import bisect_left
from collections.abc import Callable, Sequence
from typing import NamedTuple

from kraftstokk.errors import GameError
from kraftstokk.games.core import (
    CATEGORY_NAMES,
    DEFAULT_ACTION_CAP,
    Action,
    Bot,
    DeckTable,
    Game,
    Result,
    State,
    Stats,
)

LAY, JOKER, TAKE, DRAW, CHALLENGE, PASS, LIE = range(7)
KIND_NAMES: tuple[str, ...] = ("lay", "joker", "take", "draw", "challenge", "pass", "lie")

TAKE_ACTION: Action = (TAKE,)
DRAW_ACTION: Action = (DRAW,)
CHALLENGE_ACTION: Action = (CHALLENGE,)
PASS_ACTION: Action = (PASS,)

PHASE_TURN, PHASE_CHALLENGE, PHASE_CLAIM = 0, 1, 2
HAND_SIZE = 3  # KI-1, KI-2: deal three, draw back up to three
TOP_NR = 3  # KI-8
JOKER_PENALTY = 3  # KI-7
NO_CATEGORY = -1
BURNED = -1  # destination of a shown card that left the game

COUNTERS: tuple[str, ...] = (
    "pile_pickups",
    "burns",
    "claims",
    "lies",
    "challenges",
    "challenges_upheld",
    "challenges_groundless",
    "top3_claims",
    "top3_burns",
    "joker_burns",
    "joker_penalties",
    "stock_draws",
)


class Claim(NamedTuple):
    """A public claim on the current pile."""

    seat: int
    plant: int
    from_stock: bool  # KI-4b: drawn from the stock, so true by rule


def _figure_key(figures: tuple[float, ...]) -> Callable[[int], tuple[float, int]]:
    def key(card: int) -> tuple[float, int]:
        return figures[card], card

    return key


class KraftidiotenGame(Game):
    """KI-1..KI-9 for 2-10 players with all 55 cards (jokers in)."""

    name = "kraftidioten"
    min_players = 2
    max_players = 10

    def __init__(
        self,
        table: DeckTable,
        num_players: int,
        variants: Sequence[str] = (),
        action_cap: int = DEFAULT_ACTION_CAP,
    ) -> None:
        super().__init__(table, num_players, variants, action_cap)
        plants = table.plant_cards
        if len(plants) < HAND_SIZE * num_players:
            raise GameError(
                f"kraftidioten with {num_players} players needs at least "
                f"{HAND_SIZE * num_players} plant cards, the deck has {len(plants)}"
            )
        self.plants = plants
        self.jokers = table.joker_cards
        self.figures = table.figures
        #: Per category each card's figure, -inf for a joker (never laid under a claim).
        self.plant_figures: tuple[tuple[float, ...], ...] = tuple(
            tuple(float("-inf") if table.joker[c] else figs[c] for c in range(table.size))
            for figs in table.figures
        )
        self.top3 = tuple(
            tuple(0 < nr <= TOP_NR and not table.joker[i] for i, nr in enumerate(ranks))
            for ranks in table.nr
        )
        # Per category: the plants by rising figure and their figures (for bisect); per
        # card its truthful claim, its lie opener, and the false claims it can be laid
        # under in rising order (so a running pile's false claims are one slice).
        cards = range(table.size)
        by_figure = [sorted(plants, key=_figure_key(table.figures[c])) for c in range(3)]
        self.by_figure: tuple[tuple[int, ...], ...] = tuple(tuple(order) for order in by_figure)
        self.sorted_figures: tuple[tuple[float, ...], ...] = tuple(
            tuple(table.figures[c][p] for p in by_figure[c]) for c in range(3)
        )
        self.truth_actions: tuple[tuple[Action, ...], ...] = tuple(
            tuple((LAY, card, c, card) for card in cards) for c in range(3)
        )
        self.lie_actions: tuple[tuple[Action, ...], ...] = tuple(
            tuple((LIE, card, c) for card in cards) for c in range(3)
        )
        #: Every claim there can be, [seat][plant][from_stock]: made once, not per lay.
        self.claim_table: tuple[tuple[tuple[Claim, Claim], ...], ...] = tuple(
            tuple((Claim(seat, p, False), Claim(seat, p, True)) for p in cards)
            for seat in range(num_players)
        )
        self.false_claims: tuple[tuple[list[Action], ...], ...] = tuple(
            tuple([(LAY, card, c, p) for p in by_figure[c] if p != card] for card in cards)
            for c in range(3)
        )
        self.false_figures: tuple[tuple[tuple[float, ...], ...], ...] = tuple(
            tuple(tuple(table.figures[c][p] for p in by_figure[c] if p != card) for card in cards)
            for c in range(3)
        )
        self.joker_actions: tuple[Action, ...] = tuple((JOKER, card) for card in cards)
        # A new pile: per plant card its truth and lie opener in each category.
        self.opening_actions: tuple[tuple[Action, ...], ...] = tuple(
            ()
            if table.joker[card]
            else tuple(
                action
                for c in range(3)
                for action in (self.truth_actions[c][card], self.lie_actions[c][card])
            )
            for card in cards
        )
        self.best_false: tuple[tuple[float, ...], ...] = tuple(
            tuple(figs[-1] if figs else -1.0 for figs in self.false_figures[c]) for c in range(3)
        )

    def new_initial_state(self, rng: random.Random) -> KraftidiotenState:
        return KraftidiotenState(self, rng)


class KraftidiotenState(State):
    """One position. Inner data: lists of card indices, plain ints and floats."""

    game: KraftidiotenGame

    def __init__(self, game: KraftidiotenGame, rng: random.Random, *, deal: bool = True) -> None:
        self.game = game
        self.rng = rng
        n = game.num_players
        self.n = n
        self.hands: list[list[int]] = [[] for _ in range(n)]
        self.stock: list[int] = []  # the top is the end
        self.pile: list[int] = []  # face down, aligned with claims
        self.claims: list[Claim] = []  # as the observations hand them out
        self.burned: list[int] = []
        self.shown: list[tuple[int, int]] = []  # (card, seat it went to or BURNED)
        self.last_shown: dict[int, int] = {}  # card -> where it went when last shown
        self.category = NO_CATEGORY
        self.floor = -1.0  # figure of the last claim on the pile
        self.active = [True] * n
        self.num_active = n
        self.out_order: list[int] = []
        self.phase = PHASE_TURN
        self.player = 0
        self.layer = -1  # seat whose claim is open to challenge
        self.layer_emptied = False  # KI-9: out once this claim stands
        self.top3_claim = False
        self.lie_card = -1  # PHASE_CLAIM: the card chosen to lie with
        self.lie_category = NO_CATEGORY
        self.notes: list[tuple[str, int, int]] = []  # public outcomes of action noted_at
        self.noted_at = -1
        self.finished = False
        self.cap = game.action_cap
        self.actions = 0
        self.turns = 0
        self.stats = Stats(counters=dict.fromkeys(COUNTERS, 0), cards_played=[0] * game.table.size)
        self._counters = self.stats.counters
        self._cards_played = self.stats.cards_played
        self._views: list[KraftidiotenObservation] = [
            KraftidiotenObservation(self, seat) for seat in range(n)
        ]
        if deal:
            self._deal()

    def _deal(self) -> None:
        """KI-1: three plant cards each; the jokers are shuffled into the rest."""
        # A shuffle by random sort keys: as fair as rng.shuffle and several times faster.
        random_key = self.rng.random
        keys = [random_key() for _ in range(self.game.table.size)]
        plants = sorted(self.game.plants, key=keys.__getitem__)
        for round_ in range(HAND_SIZE):
            for seat in range(self.n):
                self.hands[seat].append(plants[round_ * self.n + seat])
        stock = plants[HAND_SIZE * self.n :]  # already in random order
        for joker in self.game.jokers:  # a uniform place each: the stock stays uniform
            stock.insert(self.rng.randrange(len(stock) + 1), joker)
        self.stock = stock

    # ----------------------------------------------------------------- State API

    def current_player(self) -> int:
        return self.player

    def is_terminal(self) -> bool:
        return self.finished or self.actions >= self.cap

    def legal_actions(self) -> list[Action]:
        phase = self.phase
        if phase == PHASE_CHALLENGE and self.actions < self.cap:  # never when finished
            return [CHALLENGE_ACTION, PASS_ACTION]
        if self.finished or self.actions >= self.cap:
            return []
        game = self.game
        if phase == PHASE_CLAIM:
            card, category = self.lie_card, self.lie_category
            start = bisect_left(game.false_figures[category][card], self.floor)
            return game.false_claims[category][card][start:]
        hand = self.hands[self.player]
        joker = game.table.joker
        actions: list[Action] = []
        append = actions.append
        category = self.category
        first_joker = -1
        if category == NO_CATEGORY:
            opening = game.opening_actions
            for card in hand:
                if not joker[card]:
                    actions += opening[card]
                elif first_joker < 0 or card < first_joker:
                    first_joker = card
        else:
            floor = self.floor
            figures = game.figures[category]
            truth = game.truth_actions[category]
            lie = game.lie_actions[category]
            best_false = game.best_false[category]
            for card in hand:
                if joker[card]:
                    if first_joker < 0 or card < first_joker:
                        first_joker = card
                elif figures[card] >= floor:
                    append(truth[card])
                    if best_false[card] >= floor:
                        append(lie[card])
                elif best_false[card] >= floor:
                    append(lie[card])
            append(TAKE_ACTION)
            if self.stock:
                append(DRAW_ACTION)
        if first_joker >= 0:
            append(game.joker_actions[first_joker])
        return actions

    def apply(self, action: Action) -> None:
        if self.finished or self.actions >= self.cap:
            raise GameError(f"action {list(action)} after the game ended")
        if self.phase == PHASE_CHALLENGE:
            # The hot path: most decisions of a game are answers to a claim.
            if action == PASS_ACTION:
                self.actions += 1
                active = self.active
                asker = self.player + 1
                if asker == self.n:
                    asker = 0
                while not active[asker]:
                    asker = asker + 1 if asker + 1 < self.n else 0
                if asker == self.layer:
                    self._claim_stands()
                else:
                    self.player = asker
            elif action == CHALLENGE_ACTION:
                self.actions += 1
                self._challenge()
            else:
                raise GameError(f"seat {self.player} must challenge or pass, not {list(action)}")
            return
        kind = action[0] if action else -1
        seat = self.player
        if self.phase == PHASE_CLAIM:
            if kind != LAY or len(action) != 4 or action[1:3] != (self.lie_card, self.lie_category):
                raise GameError(
                    f"seat {seat} must name a false claim for card {self.lie_card}, "
                    f"not {list(action)}"
                )
            self._check_claim(seat, action, truthful=False)
            self.actions += 1
            self._lay(seat, action[1], action[2], action[3], from_stock=False)
        elif kind == LAY and len(action) == 4:
            _, card, category, plant = action
            current = self.category
            if (
                card != plant
                or not (category == current or (current == NO_CATEGORY and 0 <= category <= 2))
                or card not in self.hands[seat]
                or self.game.table.joker[card]
                or self.game.figures[category][card] < self.floor
            ):
                self._check_claim(seat, action, truthful=True)  # raises with the reason
            self.actions += 1
            self.turns += 1
            self._lay(seat, card, category, plant, from_stock=False)
        elif kind == LIE and len(action) == 3:
            _, card, category = action
            if not 0 <= card < self.game.table.size or card not in self.hands[seat]:
                raise GameError(f"seat {seat} does not hold card {card}")
            if self.game.table.joker[card]:
                raise GameError("a joker is laid as a joker, never under a false claim")
            if category not in (0, 1, 2) or self.category not in (NO_CATEGORY, category):
                raise GameError(f"category {category} cannot be claimed on this pile")
            if self.game.best_false[category][card] < self.floor:
                raise GameError(f"no false claim beats the last claim with card {card}")
            self.actions += 1
            self.turns += 1
            self.phase = PHASE_CLAIM
            self.lie_card = card
            self.lie_category = category
        elif kind == JOKER and len(action) == 2:
            card = action[1]
            if card not in self.hands[seat] or not self.game.table.joker[card]:
                raise GameError(f"seat {seat} holds no joker {card}")
            self.actions += 1
            self.turns += 1
            hand = self.hands[seat]
            held = len(hand)
            hand.remove(card)
            self._joker(seat, card, penalty=held <= 2)
            self._draw_up(hand)
            if not hand:  # no burned plant to draw as a penalty: nothing left to play
                self._go_out(seat)
                if not self.finished:
                    self._new_pile(self._next_active(seat))
        elif kind == TAKE and len(action) == 1:
            if not self.pile:
                raise GameError("there is no pile to take")
            self.actions += 1
            self.turns += 1
            self._take_pile(seat)
            self._new_pile(self._next_active(seat))
        elif kind == DRAW and len(action) == 1:
            if not self.pile or not self.stock:
                raise GameError("a stock draw needs a claim to beat and a stock")
            self.actions += 1
            self.turns += 1
            self._draw_chance(seat)
        else:
            raise GameError(f"not a Kraftidioten action here: {list(action)}")

    def result(self) -> Result:
        loser = None
        if self.finished:
            loser = next(seat for seat in range(self.n) if self.active[seat])
        rounds = -(-self.turns // self.n)
        return Result(self.finished, list(self.out_order), loser, self.actions, rounds)

    def clone(self) -> KraftidiotenState:
        rng = random.Random()
        rng.setstate(self.rng.getstate())
        other = KraftidiotenState(self.game, rng, deal=False)
        other.hands = [list(hand) for hand in self.hands]
        other.stock = list(self.stock)
        other.pile = list(self.pile)
        other.claims = list(self.claims)
        other.burned = list(self.burned)
        other.shown = list(self.shown)
        other.last_shown = dict(self.last_shown)
        other.notes = list(self.notes)
        other.noted_at = self.noted_at
        other.category = self.category
        other.floor = self.floor
        other.active = list(self.active)
        other.num_active = self.num_active
        other.out_order = list(self.out_order)
        other.phase = self.phase
        other.player = self.player
        other.layer = self.layer
        other.layer_emptied = self.layer_emptied
        other.top3_claim = self.top3_claim
        other.lie_card = self.lie_card
        other.lie_category = self.lie_category
        other.finished = self.finished
        other.actions = self.actions
        other.turns = self.turns
        other.stats = self.stats.copy()
        other._counters = other.stats.counters
        other._cards_played = other.stats.cards_played
        return other

    def observation(self, seat: int) -> KraftidiotenObservation:
        return self._views[seat]

    def play_out(
        self, bots: Sequence[Bot], bot_rngs: Sequence[random.Random], actions: list[Action]
    ) -> None:
        """The bots' loop, without asking what a bot has declared it always does.

        Two thirds of a game's decisions are answers to a claim (KI-6). A bot whose
        ``always_passes`` is True (the greedy bot) answers PASS without looking, so its
        answers are recorded without asking it: the same actions and random streams.
        A bot whose ``needs_legal`` is False chooses its turn from the observation alone
        and gets an empty legal list. Every action goes through ``apply``.
        """
        passes = [getattr(bot, "always_passes", False) is True for bot in bots]
        blind = [getattr(bot, "needs_legal", True) is False for bot in bots]
        acts = [bot.act for bot in bots]
        views = self._views
        apply = self.apply
        append = actions.append
        while not self.finished and self.actions < self.cap:
            seat = self.player
            if self.phase == PHASE_CHALLENGE and passes[seat]:
                action = PASS_ACTION
            else:
                turn = self.phase == PHASE_TURN
                legal = () if turn and blind[seat] else self.legal_actions()
                action = acts[seat](views[seat], legal, bot_rngs[seat])
            apply(action)
            append(action)

    def action_to_string(self, action: Action) -> str:
        return self._describe(action, public=False)

    def public_action_string(self, action: Action) -> str:
        """The action as the other players see it: a laid card is 'a card'."""
        return self._describe(action, public=True)

    def card_locations(self) -> dict[str, list[int]]:
        places = {"stock": list(self.stock), "pile": list(self.pile)}
        for seat, hand in enumerate(self.hands):
            places[f"hand:{seat}"] = list(hand)
        places["burned"] = list(self.burned)
        return places

    def remaining_cards(self, seat: int) -> list[int]:
        return list(self.hands[seat])

    # ----------------------------------------------------------------- rules

    def _check_claim(self, seat: int, action: Action, *, truthful: bool | None) -> None:
        """A lay is legal; ``truthful`` True/False requires plant == card / != card."""
        _, card, category, plant = action
        table = self.game.table
        if not 0 <= card < table.size or card not in self.hands[seat]:
            raise GameError(f"seat {seat} does not hold card {card}")
        if table.joker[card]:
            raise GameError(f"a joker is laid as a joker, not under a claim ({list(action)})")
        if not 0 <= plant < table.size or table.joker[plant]:
            raise GameError(f"claim names no plant card: {plant}")
        if truthful is not None and (plant == card) != truthful:
            wanted = "the card laid" if truthful else "another plant than the card laid"
            raise GameError(f"claim {list(action)} must name {wanted}")
        if self.category == NO_CATEGORY:
            if category not in (0, 1, 2):
                raise GameError(f"no category {category}")
        elif category != self.category:
            raise GameError(f"the pile is played in {CATEGORY_NAMES[self.category]}")
        elif self.game.figures[category][plant] < self.floor:
            raise GameError(f"claim {list(action)} is below the last claim")

    def _lay(self, seat: int, card: int, category: int, plant: int, *, from_stock: bool) -> None:
        """KI-2, KI-3, KI-4b/c: a card goes face down under a claim; the window opens."""
        game = self.game
        hand = self.hands[seat]
        if not from_stock:
            hand.remove(card)
        self.pile.append(card)
        self.claims.append(game.claim_table[seat][plant][from_stock])
        self.category = category
        self.floor = game.figures[category][plant]
        self._cards_played[card] += 1
        counters = self._counters
        counters["claims"] += 1
        if card != plant:
            counters["lies"] += 1
        top3 = game.top3[category][plant]
        if top3:
            counters["top3_claims"] += 1
        stock = self.stock
        while len(hand) < HAND_SIZE and stock:  # draw back up (inlined: hot path)
            hand.append(stock.pop())
        self.layer = seat
        self.layer_emptied = not hand
        self.top3_claim = top3
        self.phase = PHASE_CHALLENGE
        active = self.active
        n = self.n
        seat = seat + 1 if seat + 1 < n else 0
        while not active[seat]:
            seat = seat + 1 if seat + 1 < n else 0
        self.player = seat

    def _draw_up(self, hand: list[int]) -> None:
        stock = self.stock
        while len(hand) < HAND_SIZE and stock:
            hand.append(stock.pop())

    def _joker(self, seat: int, card: int, *, penalty: bool) -> None:
        """KI-7: shown, the pile burns, the same player lays again (penalty if <= 2 held)."""
        counters = self.stats.counters
        self.stats.cards_played[card] += 1
        self._show(card, BURNED)
        self.burned.extend(self.pile)
        self.burned.append(card)
        counters["burns"] += 1
        counters["joker_burns"] += 1
        if penalty:
            # A shown joker stays out of the game: the penalty cards are burned plants.
            counters["joker_penalties"] += 1
            joker = self.game.table.joker
            burned = self.burned
            plants = [plant for plant in burned if not joker[plant]]
            drawn = plants if len(plants) <= JOKER_PENALTY else self.rng.sample(plants, 3)
            for plant in drawn:
                burned.remove(plant)
            self.hands[seat].extend(drawn)
            self._note("penalty", seat, len(drawn))
        else:
            self._note("joker", seat)
        self._new_pile(seat)

    def _draw_chance(self, seat: int) -> None:
        """KI-4b: the top stock card is claimed truthfully, or it goes home with the pile."""
        counters = self.stats.counters
        counters["stock_draws"] += 1
        card = self.stock.pop()
        if self.game.table.joker[card]:
            self._joker(seat, card, penalty=False)
            return
        if self.game.figures[self.category][card] >= self.floor:
            self._lay(seat, card, self.category, card, from_stock=True)
            return
        self._show(card, seat)
        self._note("drawn_low", seat, card)
        self.hands[seat].append(card)
        self._take_pile(seat)
        self._new_pile(self._next_active(seat))

    def _challenge(self) -> None:
        """KI-6, KI-8: the card is shown; a lie goes home to the layer, else to the challenger."""
        counters = self.stats.counters
        counters["challenges"] += 1
        challenger = self.player
        layer = self.layer
        card = self.pile[-1]
        if card != self.claims[-1][1]:
            counters["challenges_upheld"] += 1
            self._show(card, layer)
            self._note("lie", layer, card)
            self._take_pile(layer)
            self._new_pile(challenger)
            return
        counters["challenges_groundless"] += 1
        self._show(card, challenger)
        self._note("truth", challenger, card)
        self._take_pile(challenger)
        if self.layer_emptied:
            self._go_out(layer)
            if self.finished:
                return
            self._new_pile(self._next_active(layer))
        elif self.top3_claim:
            self._new_pile(layer)
        else:
            self._new_pile(self._next_active(layer))

    def _claim_stands(self) -> None:
        layer = self.layer
        if self.top3_claim:
            counters = self.stats.counters
            counters["burns"] += 1
            counters["top3_burns"] += 1
            self.burned.extend(self.pile)
            self.pile.clear()
            self.claims.clear()
            self._note("burned", layer)
        if self.layer_emptied:
            self._go_out(layer)
            if self.finished:
                return
            if self.top3_claim:
                self._new_pile(self._next_active(layer))
            else:
                self._next_turn(self._next_active(layer))
        elif self.top3_claim:
            self._new_pile(layer)
        else:
            self._next_turn(self._next_active(layer))

    def _note(self, event: str, seat: int, card: int = -1) -> None:
        """Remember a public outcome of the current action, for ``outcome_text``."""
        if self.noted_at != self.actions:
            self.notes = []
            self.noted_at = self.actions
        self.notes.append((event, seat, card))

    def outcome_text(self) -> str | None:
        """What the last action brought to light (cards shown, burns, who is out), or None."""
        if self.noted_at != self.actions or not self.notes:
            return None
        describe = self.game.table.describe
        words = {
            "lie": "shown {card}: a lie, seat {seat} takes the pile",
            "truth": "shown {card}: the truth, seat {seat} takes the pile",
            "burned": "the top-3 claim stands: the pile burns",
            "joker": "the pile burns",
            "penalty": "the pile burns; seat {seat} draws {card} burned card(s) as a penalty",
            "drawn_low": "drew {card}, below the claim: seat {seat} takes the pile",
            "out": "seat {seat} is out",
        }
        parts = []
        for event, seat, card in self.notes:
            shown = describe(card) if event in ("lie", "truth", "drawn_low") else str(card)
            parts.append(words[event].format(card=shown, seat=seat + 1))  # people count from 1
        return "; ".join(parts)

    def _show(self, card: int, destination: int) -> None:
        self.shown.append((card, destination))
        self.last_shown[card] = destination

    def _take_pile(self, seat: int) -> None:
        self.hands[seat].extend(self.pile)
        self.stats.counters["pile_pickups"] += 1
        self.pile.clear()
        self.claims.clear()

    def _new_pile(self, seat: int) -> None:
        """KI-5: ``seat`` starts a new pile (the pile is already taken or burned)."""
        self.pile.clear()
        self.claims.clear()
        self.category = NO_CATEGORY
        self.floor = -1.0
        self._next_turn(seat)

    def _next_turn(self, seat: int) -> None:
        self.phase = PHASE_TURN
        self.lie_card = -1
        self.lie_category = NO_CATEGORY
        self.player = seat
        self.layer = -1
        self.layer_emptied = False
        self.top3_claim = False

    def _go_out(self, seat: int) -> None:
        """KI-9: an empty hand with an empty stock, once the last claim stands."""
        self._note("out", seat)
        self.active[seat] = False
        self.num_active -= 1
        self.out_order.append(seat)
        if self.num_active <= 1:
            self.finished = True
            self.phase = PHASE_TURN
            self.player = next(s for s in range(self.n) if self.active[s])

    def _next_active(self, seat: int) -> int:
        active = self.active
        seat = seat + 1 if seat + 1 < self.n else 0
        while not active[seat]:
            seat = seat + 1 if seat + 1 < self.n else 0
        return seat

    # ----------------------------------------------------------------- words

    def claim_to_string(self, plant: int, category: int) -> str:
        table = self.game.table
        return f"{table.names[plant]} {table.figure_text(category, plant)}"

    def _describe(self, action: Action, *, public: bool) -> str:
        table = self.game.table
        kind = action[0]
        if kind == LAY:
            _, card, category, plant = action
            laid = "a card" if public else table.describe(card)
            return f"lay {laid} face down, claim {self.claim_to_string(plant, category)}"
        if kind == LIE:
            _, card, category = action
            if public:
                return ""  # choosing to lie is not visible: the claim that follows is
            return f"lie with {table.describe(card)} in {CATEGORY_NAMES[category]}"
        if kind == JOKER:
            return f"lay {table.describe(action[1])}, burning the pile"
        if kind == TAKE:
            return "take the pile"
        if kind == DRAW:
            return "draw from the stock"
        if kind == CHALLENGE:
            return "challenge"
        if kind == PASS:
            return "pass"
        raise GameError(f"not a Kraftidioten action: {list(action)}")


class KraftidiotenObservation:
    """A live read-only view of what one seat may know; valid until the next ``apply``.

    Built once per seat (O(1) per call); every property reads the state afresh and
    returns copies, so a bot can neither see face-down cards nor change the game.
    """

    __slots__ = ("_state", "seat")

    def __init__(self, state: KraftidiotenState, seat: int) -> None:
        self._state = state
        self.seat = seat

    @property
    def table(self) -> DeckTable:
        """The printed deck: every player knows what cards exist."""
        return self._state.game.table

    @property
    def num_players(self) -> int:
        return self._state.n

    @property
    def phase(self) -> int:
        """PHASE_TURN, PHASE_CHALLENGE, or PHASE_CLAIM (only ever seen by the liar)."""
        state = self._state
        phase = state.phase
        if phase == PHASE_CLAIM and state.player != self.seat:
            return PHASE_TURN
        return phase

    @property
    def lie_card(self) -> int:
        """In PHASE_CLAIM, the card this seat chose to lie with; else -1."""
        state = self._state
        if state.phase == PHASE_CLAIM and state.player == self.seat:
            return state.lie_card
        return -1

    @property
    def to_act(self) -> int:
        return self._state.player

    @property
    def challenge_pending(self) -> bool:
        """True when this seat is asked whether to challenge the last claim."""
        state = self._state
        return state.phase == PHASE_CHALLENGE and state.player == self.seat

    @property
    def hand(self) -> tuple[int, ...]:
        return tuple(self._state.hands[self.seat])

    @property
    def hand_size(self) -> int:
        return len(self._state.hands[self.seat])

    @property
    def category(self) -> int:
        """The pile's category, or NO_CATEGORY (-1) when a new pile is to be started."""
        return self._state.category

    @property
    def floor(self) -> float | None:
        """The figure of the last claim on the pile (None on a new pile)."""
        state = self._state
        return state.floor if state.claims else None

    @property
    def claims(self) -> tuple[Claim, ...]:
        return tuple(self._state.claims)

    @property
    def last_claim(self) -> Claim | None:
        claims = self._state.claims
        return claims[-1] if claims else None

    @property
    def own_cards_on_pile(self) -> tuple[tuple[int, int], ...]:
        """(claim index, card) for the cards this seat laid on the current pile."""
        state = self._state
        seat = self.seat
        return tuple((i, state.pile[i]) for i, claim in enumerate(state.claims) if claim[0] == seat)

    @property
    def own_cards_on_pile_set(self) -> frozenset[int]:
        """The cards this seat laid on the current pile."""
        state = self._state
        seat = self.seat
        pile = state.pile
        return frozenset(pile[i] for i, claim in enumerate(state.claims) if claim[0] == seat)

    def hand_count(self, seat: int) -> int:
        return len(self._state.hands[seat])

    @property
    def claim_is_top3(self) -> bool:
        """The claim open to challenge is nr. 1-3 and burns the pile if it stands."""
        return self._state.top3_claim

    @property
    def layer(self) -> int:
        """The seat whose claim is open to challenge (-1 outside a challenge window)."""
        return self._state.layer

    @property
    def hand_counts(self) -> tuple[int, ...]:
        return tuple(len(hand) for hand in self._state.hands)

    @property
    def stock_count(self) -> int:
        return len(self._state.stock)

    @property
    def pile_count(self) -> int:
        return len(self._state.pile)

    @property
    def burned_count(self) -> int:
        return len(self._state.burned)

    @property
    def shown(self) -> tuple[tuple[int, int], ...]:
        """Cards shown so far, in order: (card, seat it went to, or BURNED)."""
        return tuple(self._state.shown)

    def where_shown(self, card: int) -> int | None:
        """Where ``card`` went when it was last shown (a seat or BURNED); None if never."""
        return self._state.last_shown.get(card)

    @property
    def shown_cards(self) -> frozenset[int]:
        """Every card that has been shown at least once."""
        return frozenset(self._state.last_shown)

    @property
    def active(self) -> tuple[bool, ...]:
        return tuple(self._state.active)

    @property
    def out_order(self) -> tuple[int, ...]:
        return tuple(self._state.out_order)

    def describe(self) -> list[str]:
        """The view in words, for a person at the terminal."""
        state = self._state
        table = state.game.table
        category = state.category
        lines = [f"You are seat {self.seat + 1}."]  # people count seats from 1
        if state.claims:
            unit = CATEGORY_NAMES[category]
            lines.append(f"Pile: {len(state.pile)} card(s) face down, played in {unit}. Claims:")
            for claim in state.claims[-5:]:
                drawn = " (drawn from the stock)" if claim[2] else ""
                nr = table.nr[category][claim[1]]
                lines.append(
                    f"  seat {claim[0] + 1}: {state.claim_to_string(claim[1], category)} "
                    f"(nr. {nr}){drawn}"
                )
        else:
            lines.append("Pile: empty; the next card chooses the category")
        lines.append(f"Stock: {len(state.stock)}   Burned: {len(state.burned)}")
        for seat in range(state.n):
            who = "you" if seat == self.seat else f"seat {seat + 1}"
            status = "out" if not state.active[seat] else f"{len(state.hands[seat])} card(s)"
            lines.append(f"  {who}: {status}")
        categories = (category,) if category != NO_CATEGORY else (0, 1, 2)
        lines.append("Your hand:")
        for card in sorted(state.hands[self.seat]):
            if table.joker[card]:
                lines.append(f"  {table.describe(card)}")
                continue
            figures = ", ".join(
                f"{table.figure_text(c, card)} (nr. {table.nr[c][card]})" for c in categories
            )
            lines.append(f"  {table.describe(card)}: {figures}")
        if self.challenge_pending:
            claim = state.claims[-1]
            lines.append(
                f"Seat {claim[0] + 1} claims {state.claim_to_string(claim[1], category)}"
                + (" (nr. 1-3: the pile burns unless challenged)" if state.top3_claim else "")
                + ". Challenge or pass?"
            )
        return lines


GAME = KraftidiotenGame
