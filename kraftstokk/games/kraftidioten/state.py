"""Kraftidioten's game and state (RULES.md KI-1..KI-9): claims, bluffs, challenges, burns.

Actions are described in ``actions.py``. After every claim each other seat still in the
game is asked, one decision each, in seating order after the layer (KI-6, KI-8): the
first to challenge does. Taking the pile and drawing from the stock are allowed only on
a running pile (on an empty pile there is no claim to beat). A joker drawn from the
stock is laid as a joker without the penalty (it did not come from the hand). A drawn
card that falls below the claim is shown when it goes to the hand with the pile.

Lies (KI-4c). A lie names another plant than the card with that plant's printed figure,
or any plant, the card's own included, with a whole figure that is not its printed one.
The listed lies by figure are, per plant, the lowest whole figure that beats the claim
(at most 52); ``apply`` and ``is_legal`` take any whole figure from the claim to beat up
to :data:`~kraftstokk.games.kraftidioten.rules.MAX_CLAIM_FIGURE`, as a person may state
one. Two steps (``LIE``, then the claim) keep each list short: about two per hand card,
then at most 103 claims, instead of hand size x 52 x figures.

Claims are made and judged in the figures as the cards print them (``DeckTable.printed``):
"Tonstad, 4 405 GWh" is the truth when Tonstad's card prints 4 405, whatever decimals
lie behind it; the printed rounding keeps the order of the exact figures, so it changes
no comparison between two plants.

A wrong figure is an open lie to anyone who knows the deck, since every figure is
printed on a card; the seed (000) still lists it as a lie ("enten kraftverkets navn
eller den oppgitte verdien"), and at a real table few players know 52 figures by heart.
So it is allowed and stands, like any lie, unless someone challenges; a challenge shows
the card and a wrong name or a wrong figure is upheld (KI-6). A claim naming a plant
with nr. 1-3 in the category is a top-3 claim (KI-8) whatever figure it states. The
heuristic bot notices a wrong figure with the chance ``knowledge`` (how well it knows
the deck) and then challenges; it lies by figure itself only as a clumsy bluff, with
the chance ``1 - knowledge``. The greedy bot never challenges and never lies.

The joker (KI-7). The penalty draws three random cards from all the burned cards,
jokers included (the joker just laid among them), or all of them when there are fewer,
so a player never goes out by laying a joker. One position cannot go on under that
rule: a player left with only jokers after the penalty, while no plant card is burned,
would draw the same jokers back for ever; then the next player starts the new pile.

Every decision on a player's own turn counts as a turn for ``Result.rounds``; naming
the claim after ``LIE`` and answering a claim do not. Every action appends its events
(``events.py``) to ``state.events``; the simulation's counters are those events counted.
"""

from __future__ import annotations

import random
from bisect import bisect_left
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from kraftstokk.errors import GameError
from kraftstokk.games.core import (
    DEFAULT_ACTION_CAP,
    Action,
    Bot,
    DeckTable,
    Game,
    Result,
    State,
    Stats,
)
from kraftstokk.games.events import Event, GameOver, SeatOut, tally
from kraftstokk.games.kraftidioten.actions import (
    CHALLENGE_ACTION,
    DRAW,
    DRAW_ACTION,
    JOKER,
    LAY,
    LIE,
    PASS_ACTION,
    PHASE_CHALLENGE,
    PHASE_CLAIM,
    PHASE_TURN,
    TAKE,
    TAKE_ACTION,
    KraftidiotenPhase,
)
from kraftstokk.games.kraftidioten.events import (
    Challenged,
    Claimed,
    DrawOutcome,
    JokerLaid,
    JokersOnly,
    PenaltyDrawn,
    PileStarted,
    PileTaken,
    StockDrawn,
    TakeReason,
    TopBurned,
)
from kraftstokk.games.kraftidioten.observation import (
    Claim,
    KraftidiotenObservation,
    KraftidiotenTurnView,
)
from kraftstokk.games.kraftidioten.rules import (
    BURNED,
    MAX_CLAIM_FIGURE,
    NO_CATEGORY,
    NOT_SHOWN,
    KraftidiotenRules,
    is_lie,
    is_top3,
    joker_costs,
    lowest_figure_lie,
    penalty_size,
    reaches,
)
from kraftstokk.games.kraftidioten.spec import SPEC
from kraftstokk.games.ordering import remove_card
from kraftstokk.games.playability import Meter

if TYPE_CHECKING:
    from kraftstokk.games.narration import Narrator

_EN = "en"
_PHASES = {phase.value: phase for phase in KraftidiotenPhase}


def _figure_key(figures: tuple[float, ...]) -> Callable[[int], tuple[float, int]]:
    def key(card: int) -> tuple[float, int]:
        return figures[card], card

    return key


class KraftidiotenGame(Game):
    """KI-1..KI-9 for 2-10 players with all 55 cards (jokers in)."""

    name = SPEC.name
    min_players = SPEC.min_players
    max_players = SPEC.max_players
    allowed_variants = SPEC.variant_names
    objective = SPEC.objective

    def __init__(
        self,
        table: DeckTable,
        num_players: int,
        variants: Sequence[str] = (),
        action_cap: int = DEFAULT_ACTION_CAP,
    ) -> None:
        super().__init__(table, num_players, variants, action_cap)
        #: The rule parameters: the main rules with the variants applied.
        self.parameters: KraftidiotenRules = SPEC.rules_for(self.variants)
        dealt = self.parameters.hand_size * num_players
        plants = table.plant_cards
        if len(plants) < dealt:
            raise GameError(
                f"kraftidioten with {num_players} players needs at least "
                f"{dealt} plant cards, the deck has {len(plants)}"
            )
        self.plants = plants
        self.jokers = table.joker_cards
        #: Per category each card's figure as the card prints it (jokers 0.0).
        self.claim_figures: tuple[tuple[float, ...], ...] = table.printed
        #: Per category each card's printed figure, -inf for a joker (never under a claim).
        self.plant_figures: tuple[tuple[float, ...], ...] = tuple(
            tuple(float("-inf") if table.joker[c] else figs[c] for c in range(table.size))
            for figs in self.claim_figures
        )
        #: The highest whole figure a claim may state (far above every plant of a deck).
        self.max_claim_figure = max(
            MAX_CLAIM_FIGURE, *(int(max(figs)) + 1 for figs in self.claim_figures)
        )
        self.top3 = tuple(
            tuple(is_top3(nr) and not table.joker[i] for i, nr in enumerate(ranks))
            for ranks in table.nr
        )
        # Per category: the plants by rising figure and their figures (for bisect); per
        # card its truthful claim, its lie opener, and the claims of another plant with
        # that plant's figure it can be laid under, in rising order (so a running pile's
        # name lies are one slice).
        cards = range(table.size)
        printed = self.claim_figures
        by_figure = [sorted(plants, key=_figure_key(printed[c])) for c in range(3)]
        self.by_figure: tuple[tuple[int, ...], ...] = tuple(tuple(order) for order in by_figure)
        self.sorted_figures: tuple[tuple[float, ...], ...] = tuple(
            tuple(printed[c][p] for p in by_figure[c]) for c in range(3)
        )
        self.truth_actions: tuple[tuple[Action, ...], ...] = tuple(
            tuple((LAY, card, c, card) for card in cards) for c in range(3)
        )
        self.lie_actions: tuple[tuple[Action, ...], ...] = tuple(
            tuple((LIE, card, c) for card in cards) for c in range(3)
        )
        #: Every claim of a plant's printed figure, [seat][category][plant][from_stock]:
        #: made once, not per lay (a claim of another figure is made when laid).
        self.claim_table: tuple[tuple[tuple[tuple[Claim, Claim], ...], ...], ...] = tuple(
            tuple(
                tuple(
                    (Claim(seat, p, False, printed[c][p]), Claim(seat, p, True, printed[c][p]))
                    for p in cards
                )
                for c in range(3)
            )
            for seat in range(num_players)
        )
        self.false_claims: tuple[tuple[list[Action], ...], ...] = tuple(
            tuple([(LAY, card, c, p) for p in by_figure[c] if p != card] for card in cards)
            for c in range(3)
        )
        self.false_figures: tuple[tuple[tuple[float, ...], ...], ...] = tuple(
            tuple(tuple(printed[c][p] for p in by_figure[c] if p != card) for card in cards)
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
        self.hand_size = game.parameters.hand_size  # KI-2: drawn back up to this
        self.hands: list[list[int]] = [[] for _ in range(n)]
        self.stock: list[int] = []  # the top is the end
        self.pile: list[int] = []  # face down, aligned with claims
        self.claims: list[Claim] = []
        self.burned: list[int] = []
        #: Public and immutable, so an observation shares them without a copy.
        self.shown: tuple[tuple[int, int], ...] = ()  # (card, seat it went to or BURNED)
        self.last_shown: tuple[int, ...] = (NOT_SHOWN,) * game.table.size
        self.category = NO_CATEGORY
        self.floor = -1.0  # figure of the last claim on the pile
        self.active = [True] * n
        self.num_active = n
        self.out_order: list[int] = []
        self.active_view: tuple[bool, ...] = (True,) * n  # immutable copies for observations
        self.out_view: tuple[int, ...] = ()
        self.phase = PHASE_TURN
        self.player = 0
        self.layer = -1  # seat whose claim is open to challenge
        self.layer_emptied = False  # KI-9: out once this claim stands
        self.top3_claim = False
        self.lie_card = -1  # PHASE_CLAIM: the card chosen to lie with
        self.lie_category = NO_CATEGORY
        self.finished = False
        self.cap = game.action_cap
        self.actions = 0
        self.turns = 0
        self.events: list[Event] = []
        if deal:
            self._deal()

    def _deal(self) -> None:
        """KI-1: three plant cards each; the jokers are shuffled into the rest."""
        # A shuffle by random sort keys: as fair as rng.shuffle and several times faster.
        random_key = self.rng.random
        keys = [random_key() for _ in range(self.game.table.size)]
        plants = sorted(self.game.plants, key=keys.__getitem__)
        hand_size = self.hand_size
        for round_ in range(hand_size):
            for seat in range(self.n):
                self.hands[seat].append(plants[round_ * self.n + seat])
        stock = plants[hand_size * self.n :]  # already in random order
        for joker in self.game.jokers:  # a uniform place each: the stock stays uniform
            stock.insert(self.rng.randrange(len(stock) + 1), joker)
        self.stock = stock

    @classmethod
    def from_position(
        cls,
        game: KraftidiotenGame,
        *,
        hands: Sequence[Sequence[int]],
        stock: Sequence[int] = (),
        pile: Sequence[tuple[int, ...]] = (),
        category: int = NO_CATEGORY,
        player: int = 0,
        seed: int = 0,
    ) -> KraftidiotenState:
        """A turn position (for tests and puzzles); unlisted cards count as burned.

        ``pile`` lists the claims bottom first as ``(seat, card, plant)``, or ``(seat,
        card, plant, figure)`` for a stated whole figure; the last card of ``stock`` is
        the top. Nothing has been shown yet.
        """
        n = game.num_players
        if len(hands) != n:
            raise GameError(f"a position of {n} players needs {n} hands")
        if not 0 <= player < n:
            raise GameError(f"player {player} is not a seat of a {n}-player game")
        if pile and category not in (0, 1, 2):
            raise GameError("a pile with claims needs its category (0, 1 or 2)")
        state = cls(game, random.Random(seed), deal=False)
        state.hands = [list(hand) for hand in hands]
        state.stock = list(stock)
        state.pile = [claim[1] for claim in pile]
        printed = game.claim_figures[category] if pile else ()
        state.claims = [
            Claim(c[0], c[2], False, float(c[3]) if len(c) > 3 else printed[c[2]]) for c in pile
        ]
        placed = {card for hand in hands for card in hand} | set(stock) | set(state.pile)
        state.burned = [card for card in range(game.table.size) if card not in placed]
        state.category = category if pile else NO_CATEGORY
        state.floor = state.claims[-1].figure if pile else -1.0
        state.player = player
        state.check_invariants()
        return state

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
            # The first claim that reaches the floor (rules.reaches: equal allowed).
            start = bisect_left(game.false_figures[category][card], self.floor)
            return game.false_claims[category][card][start:] + self._figure_lies(card, category)
        hand = self.hands[self.player]
        joker = game.table.joker
        actions: list[Action] = []
        category = self.category
        jokers: list[Action] = []  # one per joker held, listed last
        if category == NO_CATEGORY:
            opening = game.opening_actions
            for card in hand:
                if joker[card]:
                    jokers.append(game.joker_actions[card])
                else:
                    actions += opening[card]
        else:
            floor = self.floor
            figures = game.claim_figures[category]
            truth = game.truth_actions[category]
            lie = game.lie_actions[category]
            for card in hand:
                if joker[card]:
                    jokers.append(game.joker_actions[card])
                    continue
                if reaches(figures[card], floor):
                    actions.append(truth[card])
                actions.append(lie[card])  # a lie by figure beats any claim (KI-4c)
            actions.append(TAKE_ACTION)
            if self.stock:
                actions.append(DRAW_ACTION)
        if jokers:
            actions += jokers
        return actions

    def is_legal(self, action: Action) -> bool:
        """Listed, or a claim after ``LIE`` stating another whole figure (KI-4c)."""
        if self.phase == PHASE_CLAIM and len(action) == 5 and not self.is_terminal():
            if action[:3] != (LAY, self.lie_card, self.lie_category):
                return False
            try:
                self._check_claim(self.player, action, truthful=False)
            except GameError:
                return False
            return True
        return action in self.legal_actions()

    def typed_action(self, text: str, legal: Sequence[Action]) -> Action | None:
        """KI-4c for a person: 'N FIGURE' claims move N's plant with any whole figure."""
        number, _, figure = text.strip().partition(" ")
        if self.phase != PHASE_CLAIM or not number.isdigit() or not figure.strip().isdigit():
            return None
        index = int(number) - 1
        if not 0 <= index < len(legal) or legal[index][0] != LAY:
            return None
        _, card, category, plant = legal[index][:4]
        stated = int(figure.strip())
        if stated == self.game.claim_figures[category][plant]:
            action: Action = (LAY, card, category, plant)  # its printed figure after all
        else:
            action = (LAY, card, category, plant, stated)
        return action if self.is_legal(action) else None

    def typed_hint(self, legal: Sequence[Action], narrator: Narrator) -> str:
        from kraftstokk.games.kraftidioten.narration import typed_hint

        return typed_hint(narrator) if self.phase == PHASE_CLAIM else ""

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
                raise GameError(
                    f"seat {self.player + 1} must challenge or pass, not {list(action)}"
                )
            return
        kind = action[0] if action else -1
        seat = self.player
        if self.phase == PHASE_CLAIM:
            if (
                kind != LAY
                or len(action) not in (4, 5)
                or action[1:3]
                != (
                    self.lie_card,
                    self.lie_category,
                )
            ):
                raise GameError(
                    f"seat {seat + 1} must name a false claim for card {self.lie_card}, "
                    f"not {list(action)}"
                )
            self._check_claim(seat, action, truthful=False)
            self.actions += 1
            figure = action[4] if len(action) == 5 else None
            self._lay(seat, action[1], action[2], action[3], from_stock=False, figure=figure)
        elif kind == LAY and len(action) == 4:
            _, card, category, plant = action
            current = self.category
            if (
                card != plant
                or not (category == current or (current == NO_CATEGORY and 0 <= category <= 2))
                or card not in self.hands[seat]
                or self.game.table.joker[card]
                or not reaches(self.game.claim_figures[category][card], self.floor)
            ):
                self._check_claim(seat, action, truthful=True)  # raises with the reason
            self.actions += 1
            self.turns += 1
            self._lay(seat, card, category, plant, from_stock=False)
        elif kind == LIE and len(action) == 3:
            _, card, category = action
            if not 0 <= card < self.game.table.size or card not in self.hands[seat]:
                raise GameError(f"seat {seat + 1} does not hold card {card}")
            if self.game.table.joker[card]:
                raise GameError("a joker is laid as a joker, never under a false claim")
            if category not in (0, 1, 2) or self.category not in (NO_CATEGORY, category):
                raise GameError(f"category {category} cannot be claimed on this pile")
            self.actions += 1
            self.turns += 1
            self.phase = PHASE_CLAIM
            self.lie_card = card
            self.lie_category = category
        elif kind == JOKER and len(action) == 2:
            card = action[1]
            if card not in self.hands[seat] or not self.game.table.joker[card]:
                raise GameError(f"seat {seat + 1} holds no joker {card}")
            self.actions += 1
            self.turns += 1
            hand = self.hands[seat]
            penalty = joker_costs(len(hand), self.game.parameters)
            remove_card(hand, card)
            self._joker(seat, card, penalty=penalty, from_stock=False)
            self._draw_up(hand)
            if penalty and self._jokers_only(hand):
                # The same jokers would come back for ever: the next player starts.
                self.events.append(JokersOnly(seat))
                self._new_pile(self._next_active(seat))
        elif kind == TAKE and len(action) == 1:
            if not self.pile:
                raise GameError("there is no pile to take")
            self.actions += 1
            self.turns += 1
            self._take_pile(seat, TakeReason.CHOSE)
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

    def final_stats(self) -> Stats:
        return tally(self.events, Stats(cards_played=[0] * self.game.table.size))

    def reseed(self, rng: random.Random) -> None:
        self.rng = rng

    def redeal_unseen(self, rng: random.Random) -> None:
        # KI-1: only the stock is unseen by all (a hand, a card laid face down: its seat saw it).
        rng.shuffle(self.stock)
        self.rng = rng

    def clone(self) -> KraftidiotenState:
        rng = random.Random()
        rng.setstate(self.rng.getstate())
        other = KraftidiotenState(self.game, rng, deal=False)
        other.hands = [list(hand) for hand in self.hands]
        other.stock = list(self.stock)
        other.pile = list(self.pile)
        other.claims = list(self.claims)
        other.burned = list(self.burned)
        other.shown = self.shown
        other.last_shown = self.last_shown
        other.category = self.category
        other.floor = self.floor
        other.active = list(self.active)
        other.num_active = self.num_active
        other.out_order = list(self.out_order)
        other.active_view = self.active_view
        other.out_view = self.out_view
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
        other.events = list(self.events)
        return other

    def card_counts(self) -> list[int]:
        """The pile's cards, then each seat's hand: counts every seat sees (the turning
        points of a finished game weigh them, web/turning.py)."""
        return [len(self.pile), *[len(hand) for hand in self.hands]]

    def observation(self, seat: int) -> KraftidiotenObservation:
        phase = self.phase
        player = self.player
        lie_card = -1
        if phase == PHASE_CLAIM:
            if player == seat:
                lie_card = self.lie_card
            else:
                phase = PHASE_TURN  # the others cannot see that a lie is being made
        claims = self.claims
        pile = self.pile
        own: tuple[tuple[int, int], ...] = ()
        if claims:
            own = tuple([(i, pile[i]) for i, claim in enumerate(claims) if claim[0] == seat])
        return KraftidiotenObservation(
            seat,
            self.n,
            _PHASES[phase],
            player,
            tuple(self.hands[seat]),
            lie_card,
            self.category,
            self.floor if claims else None,
            tuple(claims),
            own,
            self.top3_claim,
            self.layer,
            tuple(map(len, self.hands)),
            len(self.stock),
            len(pile),
            len(self.burned),
            self.shown,
            self.last_shown,
            self.active_view,
            self.out_view,
        )

    def turn_view(self, seat: int) -> KraftidiotenTurnView:
        """What a turn is decided from (a part of ``observation(seat)``)."""
        return KraftidiotenTurnView(
            seat,
            tuple(self.hands[seat]),
            self.category,
            self.floor if self.claims else None,
            len(self.stock),
        )

    def play_out(
        self,
        bots: Sequence[Bot],
        bot_rngs: Sequence[random.Random],
        actions: list[Action],
        meter: Meter | None = None,
    ) -> None:
        """The bots' loop, without asking what a bot has declared it always does.

        Two thirds of a game's decisions are answers to a claim (KI-6). A bot whose
        ``always_passes`` is True (the greedy bot) answers PASS without looking, so its
        answers are recorded without asking it: the same actions and random streams.
        A bot whose ``needs_legal`` is False chooses its turn from the observation alone
        and gets an empty legal list; one whose ``reads_turn_view`` is True gets on its
        turn only ``turn_view(seat)``, the part of its observation a turn needs; one
        whose ``reads_observation`` is False decides
        from the legal list alone and gets no observation (None), which saves building
        one per turn. Every action goes through ``apply``.
        """
        passes = [getattr(bot, "always_passes", False) is True for bot in bots]
        blind = [getattr(bot, "needs_legal", True) is False for bot in bots]
        looks = [getattr(bot, "reads_observation", True) is not False for bot in bots]
        small = [getattr(bot, "reads_turn_view", False) is True for bot in bots]
        acts = [bot.act for bot in bots]
        # Method calls spelled out, not bound to locals: compiled, they are direct calls.
        while not self.finished and self.actions < self.cap:
            seat = self.player
            if meter is not None:
                meter.decision(self.distinct_moves(), self.phase == PHASE_CHALLENGE, seat)
            if self.phase == PHASE_CHALLENGE and passes[seat]:
                action = PASS_ACTION
            else:
                turn = self.phase == PHASE_TURN
                legal = () if turn and blind[seat] else self.legal_actions()
                if turn and small[seat]:
                    action = acts[seat](self.turn_view(seat), legal, bot_rngs[seat])
                else:
                    seen = self.observation(seat) if looks[seat] else None
                    action = acts[seat](seen, legal, bot_rngs[seat])
            self.apply(action)
            actions.append(action)
            if meter is not None:
                meter.moved(self, len(actions))

    # -- what the simulation measures (``games/playability.py``) ------------------

    def progress(self, seat: int) -> int:
        """Minus the cards ``seat`` still has to get rid of (its hand)."""
        return -len(self.hands[seat])

    def seats_out(self) -> int:
        return len(self.out_order)

    def answering(self) -> bool:
        """A seat asked whether it challenges the last claim (KI-6) answers out of turn."""
        return self.phase == PHASE_CHALLENGE

    def distinct_moves(self) -> int:
        """The legal actions counted without listing them; all are distinct but a joker's
        (the jokers are alike: laying one or another is one move)."""
        if self.is_terminal():
            return 0
        phase = self.phase
        if phase == PHASE_CHALLENGE:
            return 2
        game = self.game
        if phase == PHASE_CLAIM:
            card, category = self.lie_card, self.lie_category
            start = bisect_left(game.false_figures[category][card], self.floor)
            return len(game.false_figures[category][card]) - start + len(game.plants)
        joker = game.table.joker
        count = 0
        jokers = 0
        if self.category == NO_CATEGORY:
            opening = game.opening_actions
            for card in self.hands[self.player]:
                if joker[card]:
                    jokers = 1
                else:
                    count += len(opening[card])
        else:
            floor = self.floor
            figures = game.claim_figures[self.category]
            for card in self.hands[self.player]:
                if joker[card]:
                    jokers = 1
                else:
                    count += 2 if reaches(figures[card], floor) else 1  # the truth, a lie
            count += 2 if self.stock else 1  # take, draw
        return count + jokers

    def action_text(self, action: Action, narrator: Narrator) -> str:
        # (the words load when first asked for: a simulation's workers never say a move)
        from kraftstokk.games.kraftidioten.narration import action_text

        printed = None
        if action and action[0] == LAY and len(action) in (4, 5):
            category, plant = action[2], action[3]
            if 0 <= category <= 2 and 0 <= plant < self.game.table.size:
                printed = self.game.claim_figures[category][plant]
        return action_text(action, narrator, len(self.pile), printed)

    def action_to_string(self, action: Action) -> str:
        return self.action_text(action, self._english())

    def public_action_string(self, action: Action) -> str:
        """The action as the other players see it: a laid card is 'a card'; a lie unseen."""
        kind = action[0] if action else -1
        if kind == LIE:
            return ""  # choosing to lie is not visible: the claim that follows is
        if kind == LAY and len(action) in (4, 5):
            category, plant = action[2], action[3]
            stated = float(action[4]) if len(action) == 5 else None
            from kraftstokk.games.kraftidioten.narration import unseen_lay_text

            return unseen_lay_text(self._english(), category, plant, stated)
        return self.action_to_string(action)

    def card_locations(self) -> dict[str, list[int]]:
        places = {"stock": list(self.stock), "pile": list(self.pile)}
        for seat, hand in enumerate(self.hands):
            places[f"hand:{seat}"] = list(hand)
        places["burned"] = list(self.burned)
        return places

    def remaining_cards(self, seat: int) -> list[int]:
        return list(self.hands[seat])

    # ----------------------------------------------------------------- rules

    def _check_claim(self, seat: int, action: Action, *, truthful: bool) -> None:
        """A lay is legal: the truth (plant == card, its printed figure) or a lie.

        A lie (KI-4c) is ``(LAY, card, category, plant)`` with another plant than the card
        and that plant's printed figure, or ``(LAY, card, category, plant, figure)`` with
        any plant and a whole figure that is not the plant's printed one.
        """
        _, card, category, plant, *stated = action
        game = self.game
        table = game.table
        if not 0 <= card < table.size or card not in self.hands[seat]:
            raise GameError(f"seat {seat + 1} does not hold card {card}")
        if table.joker[card]:
            raise GameError(f"a joker is laid as a joker, not under a claim ({list(action)})")
        if not 0 <= plant < table.size or table.joker[plant]:
            raise GameError(f"claim names no plant card: {plant}")
        if self.category == NO_CATEGORY:
            if category not in (0, 1, 2):
                raise GameError(f"no category {category}")
        elif category != self.category:
            raise GameError(f"the pile is played in {self._category_name(self.category)}")
        if stated:
            figure = stated[0]
            if truthful:
                raise GameError(f"a truthful claim states the printed figure: {list(action)}")
            if type(figure) is not int or not 0 <= figure <= game.max_claim_figure:
                raise GameError(
                    f"claim {list(action)}: a stated figure is a whole number from 0 to "
                    f"{game.max_claim_figure}"
                )
            if figure == game.claim_figures[category][plant]:
                raise GameError(
                    f"claim {list(action)} states the plant's printed figure: "
                    "claim it without a figure"
                )
            if not reaches(figure, self.floor):
                raise GameError(f"claim {list(action)} is below the last claim")
            return
        if (plant == card) != truthful:
            wanted = "the card laid" if truthful else "another plant than the card laid"
            raise GameError(f"claim {list(action)} must name {wanted}")
        if not reaches(game.claim_figures[category][plant], self.floor):
            raise GameError(f"claim {list(action)} is below the last claim")

    def _category_name(self, category: int) -> str:
        return self._english().category(category)

    def _english(self) -> Narrator:
        from kraftstokk.games.narration import Narrator

        return Narrator(self.game.table, _EN, game=self.game.name)

    def _figure_lies(self, card: int, category: int) -> list[Action]:
        """KI-4c: per plant the lowest whole figure, not its printed one, that beats the claim."""
        floor = self.floor
        printed = self.game.claim_figures[category]
        return [
            (LAY, card, category, plant, lowest_figure_lie(floor, printed[plant]))
            for plant in self.game.plants
        ]

    def _jokers_only(self, hand: list[int]) -> bool:
        """KI-7 cannot go on: only jokers in hand and no plant among the burned cards."""
        joker = self.game.table.joker
        return all(joker[card] for card in hand) and all(joker[card] for card in self.burned)

    def _lay(
        self,
        seat: int,
        card: int,
        category: int,
        plant: int,
        *,
        from_stock: bool,
        figure: int | None = None,
    ) -> None:
        """KI-2, KI-3, KI-4b/c: a card goes face down under a claim; the window opens.

        ``figure`` is a stated whole figure (a lie by figure), None for the printed one.
        """
        game = self.game
        hand = self.hands[seat]
        if not from_stock:
            remove_card(hand, card)
        self.pile.append(card)
        if figure is None:
            claim = game.claim_table[seat][category][plant][from_stock]
            stated = None
            lie = card != plant
        else:
            stated = float(figure)
            claim = Claim(seat, plant, False, stated)
            lie = True
        self.claims.append(claim)
        if self.category == NO_CATEGORY:
            self.events.append(PileStarted(seat))
        self.category = category
        self.floor = claim.figure
        top3 = game.top3[category][plant]
        self.events.append(Claimed(seat, card, category, plant, stated, from_stock, top3, lie))
        stock = self.stock
        while len(hand) < self.hand_size and stock:  # draw back up (inlined: hot path)
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
        while len(hand) < self.hand_size and stock:
            hand.append(stock.pop())

    def _joker(self, seat: int, card: int, *, penalty: bool, from_stock: bool) -> None:
        """KI-7: shown, the pile burns, the same player lays again (penalty if <= 2 held)."""
        self._show(card, BURNED)
        burned = self.burned
        burned.extend(self.pile)
        burned.append(card)
        self.events.append(JokerLaid(seat, card, len(self.pile) + 1, from_stock, penalty))
        self.pile.clear()
        self.claims.clear()
        if penalty:
            # Three random cards from all the burned cards, jokers included (this one
            # too), or as many as there are.
            size = penalty_size(len(burned), self.game.parameters)
            drawn = list(burned) if size == len(burned) else self.rng.sample(burned, size)
            for burned_card in drawn:
                burned.remove(burned_card)
            self.hands[seat].extend(drawn)
            self.events.append(PenaltyDrawn(seat, tuple(drawn)))
        self._new_pile(seat)

    def _draw_chance(self, seat: int) -> None:
        """KI-4b: the top stock card is claimed truthfully, or it goes home with the pile."""
        card = self.stock.pop()
        if self.game.table.joker[card]:
            self.events.append(StockDrawn(seat, card, DrawOutcome.JOKER))
            self._joker(seat, card, penalty=False, from_stock=True)
            return
        if reaches(self.game.claim_figures[self.category][card], self.floor):
            self.events.append(StockDrawn(seat, card, DrawOutcome.CLAIMED))
            self._lay(seat, card, self.category, card, from_stock=True)
            return
        self.events.append(StockDrawn(seat, card, DrawOutcome.TOO_LOW))
        self._show(card, seat)
        self.hands[seat].append(card)
        self._take_pile(seat, TakeReason.DRAWN_LOW)
        self._new_pile(self._next_active(seat))

    def _challenge(self) -> None:
        """KI-6, KI-8: the card is shown; a lie goes home to the layer, else to the challenger."""
        challenger = self.player
        layer = self.layer
        card = self.pile[-1]
        claim = self.claims[-1]
        if is_lie(card, claim.plant, claim.figure, self.game.claim_figures[self.category]):
            self.events.append(Challenged(challenger, layer, card, True))
            self._show(card, layer)
            self._take_pile(layer, TakeReason.LIE_EXPOSED)
            self._new_pile(challenger)
            return
        self.events.append(Challenged(challenger, layer, card, False))
        self._show(card, challenger)
        self._take_pile(challenger, TakeReason.GROUNDLESS)
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
            self.events.append(TopBurned(layer, len(self.pile)))
            self.burned.extend(self.pile)
            self.pile.clear()
            self.claims.clear()
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

    def _show(self, card: int, destination: int) -> None:
        self.shown = (*self.shown, (card, destination))
        last = list(self.last_shown)
        last[card] = destination
        self.last_shown = tuple(last)

    def _take_pile(self, seat: int, reason: TakeReason) -> None:
        self.events.append(PileTaken(seat, len(self.pile), reason))
        self.hands[seat].extend(self.pile)
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
        self.active[seat] = False
        self.num_active -= 1
        self.out_order.append(seat)
        self.active_view = tuple(self.active)
        self.out_view = tuple(self.out_order)
        self.events.append(SeatOut(seat, len(self.out_order)))
        if self.num_active <= 1:
            self.finished = True
            self.phase = PHASE_TURN
            self.player = next(s for s in range(self.n) if self.active[s])
            self.events.append(GameOver(self.player, tuple(self.out_order)))

    def _next_active(self, seat: int) -> int:
        active = self.active
        seat = seat + 1 if seat + 1 < self.n else 0
        while not active[seat]:
            seat = seat + 1 if seat + 1 < self.n else 0
        return seat


GAME = KraftidiotenGame


def from_position(
    game: KraftidiotenGame,
    *,
    hands: Sequence[Sequence[int]],
    stock: Sequence[int] = (),
    pile: Sequence[tuple[int, ...]] = (),
    category: int = NO_CATEGORY,
    player: int = 0,
    seed: int = 0,
) -> KraftidiotenState:
    """A turn position for a test or a tool (:meth:`KraftidiotenState.from_position`)."""
    return KraftidiotenState.from_position(
        game, hands=hands, stock=stock, pile=pile, category=category, player=player, seed=seed
    )
