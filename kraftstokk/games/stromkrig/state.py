"""Strømkrig's game and state (RULES.md SK-1..SK-14): dealing, legal actions, carrying them out.

Cards are the 55 indices of the :class:`~kraftstokk.games.core.DeckTable`. The stock's top
card is the last element of its list. Actions and phases are in ``actions.py``; the card
rules (what beats what, what starts a war and why, burns, resets, invisible cards) are the
predicates of ``rules.py``, turned into per-card tables once per game. Every action appends
what the table sees to ``state.events`` (``events.py``); the counters are those events
counted (:meth:`StromkrigState.final_stats`).

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
* SK-3 sjanse ("chance draw"), as RULES.md corrects it: the stock's top card is turned and
  keeps its special use. If it has any legal use (an ordinary card that beats the top or
  starts a war by SK-6b, a burn, a reset, an invisible card beside the pile) it must be
  used, and the player chooses the use in a follow-up decision; only a card with no legal
  use is taken home with the pile. A joker, a 2 and an invisible card always have a use.
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
runs, take and sjanse. ``observation(seat)`` is a frozen copy of what that seat may know
(``observation.py``). ``StromkrigGame(..., dealer=k)`` sets the dealer, who starts (SK-1);
the simulation passes the loser of one game as the next dealer if it wants SK-1's "the
loser deals". :func:`from_position` sets up a position card by card (tests, puzzles).

Counters (from the events): ``pile_pickups`` (pile taken on a turn or by a sjanse card
with no use; a lost war is counted under ``wars`` instead), ``burns``, ``resets``,
``wars``, ``war_rounds`` (every round, re-fights included), ``runs``, ``invisible_plays``,
``chance_draws``, ``chance_draws_played``; samples ``war_sizes`` and ``run_lengths``.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, Final, overload

from kraftstokk.cardfacts import CATEGORIES, SUITS
from kraftstokk.errors import GameError
from kraftstokk.games.core import (
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
from kraftstokk.games.events import Event, GameOver, SeatOut, tally
from kraftstokk.games.ordering import insert_sorted, remove_card, sort_by
from kraftstokk.games.playability import Meter
from kraftstokk.games.stromkrig import rules
from kraftstokk.games.stromkrig.actions import (
    ASK,
    BURN,
    CHANCE,
    CHANCE_ACTION,
    CHOOSE,
    INVISIBLE,
    JOIN,
    JOIN_ACTION,
    LAY,
    NAME_ACTIONS,
    NAMING,
    OVER,
    PLAY,
    RESET,
    RUN,
    STAY_OUT_ACTION,
    TAKE,
    TAKE_ACTION,
    WAR,
    WAR_LAY,
    StromkrigPhase,
)
from kraftstokk.games.stromkrig.events import (
    Burned,
    ChanceDrawn,
    Laid,
    LaidBeside,
    PileTaken,
    Reset,
    RunLaid,
    WarAnswered,
    WarCardLaid,
    WarLost,
    WarNamed,
    WarStarted,
    WarTied,
)
from kraftstokk.games.stromkrig.observation import StromkrigObservation, WarView
from kraftstokk.games.stromkrig.rules import CardFace, WarReason
from kraftstokk.games.stromkrig.spec import SPEC

if TYPE_CHECKING:
    from kraftstokk.games.narration import Narrator

_EN = "en"
#: Phase number to member: calling the enum costs more than building the rest of a view.
_PHASES: dict[int, StromkrigPhase] = {int(phase): phase for phase in StromkrigPhase}
#: The kinds whose action names one card (the rest: none, a run's cards, a category).
_CARD_KINDS: Final = frozenset({LAY, BURN, RESET, INVISIBLE, WAR_LAY})


def _table_faces(table: DeckTable) -> tuple[CardFace, ...]:
    """Each card of an engine table (by card index) as the rules read it."""
    faces = []
    for c in range(table.size):
        if table.joker[c]:
            faces.append(CardFace(joker=True))
            continue
        figures = (table.figures[0][c], table.figures[1][c], table.figures[2][c])
        nr = (table.nr[0][c], table.nr[1][c], table.nr[2][c])
        faces.append(CardFace(False, SUITS[table.suit[c]], table.value[c], figures, nr))
    return tuple(faces)


class StromkrigGame(Game):
    """Strømkrig for 2-6 players with all 55 cards; ``dealer`` deals and starts."""

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
        dealer: int = 0,
    ) -> None:
        super().__init__(table, num_players, variants, action_cap)
        #: The rule parameters: the main rules with the variants applied.
        self.parameters: rules.StromkrigRules = SPEC.rules_for(self.variants)
        if not 0 <= dealer < num_players:
            raise GameError(f"dealer must be a seat 0-{num_players - 1}, not {dealer}")
        if table.size != 55 or len(table.joker_cards) != 3:
            raise GameError(f"stromkrig needs 52 plant cards and 3 jokers, not {table.size} cards")
        self.dealer = dealer
        size = table.size
        joker = table.joker
        #: What the rules read on each card; every table below comes from rules.py.
        self.faces: tuple[CardFace, ...] = _table_faces(table)
        faces = self.faces
        self.production: tuple[float, ...] = table.figures[GWH]
        self.gwh_nr: tuple[int, ...] = table.nr[GWH]
        self.war_club: tuple[bool, ...] = tuple(rules.war_club(face) for face in faces)
        self.burner: tuple[bool, ...] = tuple(rules.burns(face) for face in faces)
        self.resetter: tuple[bool, ...] = tuple(rules.resets(face) for face in faces)
        categories = rules.invisible_categories(self.parameters)
        self.invisible: tuple[bool, ...] = tuple(
            rules.invisible(face, categories) for face in faces
        )
        #: The categories (indices) in which a card is invisible, as the variant counts.
        self.invisible_categories: tuple[tuple[int, ...], ...] = tuple(
            tuple(CATEGORIES.index(c) for c in rules.invisible_in(face) if c in categories)
            for face in faces
        )
        #: War figures per category; jokers count lowest (SK-7).
        self.war_figure: tuple[tuple[float, ...], ...] = tuple(
            tuple(rules.war_figure(face, category) for face in faces) for category in CATEGORIES
        )
        #: beats[under][card]: SK-2, ``card`` may be laid on ``under`` (jokers beat nothing).
        self.beats: tuple[tuple[bool, ...], ...] = tuple(
            tuple(rules.beats(face, under) for face in faces) for under in faces
        )
        #: may_lay[under][card]: SK-2 or SK-6b (a lower card of the same tens starts a war);
        #: the engine reads it only where a war is possible.
        self.may_lay: tuple[tuple[bool, ...], ...] = tuple(
            tuple(rules.may_lay(face, under) for face in faces) for under in faces
        )
        #: war_reasons[under][card]: why ``card`` laid on ``under`` starts a war (SK-6).
        self.war_reasons: tuple[tuple[tuple[WarReason, ...], ...], ...] = tuple(
            tuple(rules.war_reasons(face, under) for face in faces) for under in faces
        )
        #: Any plant card may be laid on an empty pile or after a reset.
        self.beats_nothing: tuple[bool, ...] = tuple(not face.joker for face in faces)
        #: Hands are kept in this order: jokers first, then lowest production first.
        self.hand_order: tuple[int, ...] = tuple(
            -1 if joker[c] else 100 - table.nr[GWH][c] for c in range(size)
        )
        #: The card next in a run (SK-5: production nr. one lower), or -1.
        self.run_next: tuple[int, ...] = tuple(
            next((d for d in range(size) if rules.continues_run(faces[d], face)), -1)
            for face in faces
        )
        # Precomputed action tuples and per-card uses keep the inner loop allocation-free.
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
        for _ in range(self.parameters.hand_size):
            for offset in range(1, n + 1):
                hands[(self.dealer + offset) % n].append(cards.pop())
        for hand in hands:
            sort_by(hand, self.hand_order)
        return StromkrigState(self, rng, hands, cards, current=self.dealer)

    def rules(self) -> dict[str, Any]:
        rules = super().rules()
        rules["dealer"] = self.dealer
        return rules


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
        self.hand_size = game.parameters.hand_size  # SK-3: drawn back up to this
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
        self.events: list[Event] = []
        self._legal: list[Action] | _TurnLegal | None = None

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
            sort_by(hand, game.hand_order)
        state.pile = list(pile)
        state.beside = list(beside)
        if state.pile and not reset:
            state.top = state.pile[-1]
            state.top_owner = top_owner
        used = {card for place in state.card_locations().values() for card in place}
        state.burned = [card for card in range(game.table.size) if card not in used]
        state.check_invariants()  # a card given twice is one clear error
        state._mark_out()
        state.events = []  # the set-up is no part of the story
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
            raise GameError(f"stromkrig: {list(action)} is not legal for seat {self.current + 1}")
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
            self._special_or_lay(p, kind, action[1], from_hand=False)
        elif phase == ASK:
            self.ask_queue.pop(0)
            joined = kind == JOIN
            if joined:
                self.war_players.append(p)
            self.events.append(WarAnswered(p, joined))
            self._next_asked()
        elif phase == NAMING:
            self.war_category = action[1]
            players = self._seating_from(self.challenger, self.war_players)
            self.events.append(WarNamed(p, action[1], tuple(players)))
            self._start_round(players)
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

    def reseed(self, rng: random.Random) -> None:
        self.rng = rng

    def redeal_unseen(self, rng: random.Random) -> None:
        # SK-1: only the stock is unseen by all (a hand is its seat's, every laid card open).
        rng.shuffle(self.stock)
        self.rng = rng
        self._legal = None

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
        other.events = list(self.events)
        return other

    def final_stats(self) -> Stats:
        """The simulation's counters: the events counted."""
        return tally(self.events, Stats(cards_played=[0] * self.game.table.size))

    def card_counts(self) -> list[int]:
        """The pile's cards, then each seat's hand: counts every seat sees (the turning
        points of a finished game weigh them, web/turning.py)."""
        return [len(self.pile), *[len(hand) for hand in self.hands]]

    def observation(self, seat: int) -> StromkrigObservation:
        """A frozen copy of what ``seat`` may know (no reference to this state)."""
        war = None
        phase = self.phase
        if phase in (ASK, NAMING, WAR):
            players = self.round_players if phase == WAR else self.war_players
            war = WarView(
                challenger=self.challenger,
                players=tuple(players),
                category=self.war_category,
                laid=tuple(self.round_laid),
                cards=tuple(self.war_cards),
            )
        return StromkrigObservation(
            seat=seat,
            num_players=self.n,
            phase=_PHASES[phase],
            current_player=self.current,
            hand=tuple(self.hands[seat]),
            top=self.top,
            top_owner=self.top_owner,
            pile=tuple(self.pile),
            beside=tuple(self.beside),
            burned=tuple(self.burned),
            hand_counts=tuple([len(hand) for hand in self.hands]),
            stock_count=len(self.stock),
            out=tuple(self.out),
            chance_card=self.chance_card,
            war=war,
        )

    def play_out(
        self,
        bots: Sequence[Bot],
        bot_rngs: Sequence[random.Random],
        actions: list[Action],
        meter: Meter | None = None,
    ) -> None:
        """The bots' loop; on a turn the legal list is listed past the lays on demand.

        Most turns a bot lays one of the ordinary lays, which come first: the special
        uses, runs, take and sjanse are worked out only if the bot looks past them
        (:class:`_TurnLegal`). ``apply`` checks the action against the same list.

        A bot that declares ``reads_observation = False`` decides a regular turn from
        the legal list alone, so no observation is built for it there (it is handed
        ``None``); outside regular turns (a sjanse card, a war) every bot gets one.
        """
        acts = [bot.act for bot in bots]
        looks = [getattr(bot, "reads_observation", True) is not False for bot in bots]
        # Method calls spelled out, not bound to locals: compiled, they are direct calls.
        cap = self.game.action_cap
        while self.phase != OVER and self.actions < cap:
            seat = self.current
            legal: Sequence[Action]
            view: StromkrigObservation | None
            if self.phase == PLAY:
                turn = _TurnLegal(self)
                legal = self._legal = turn
                if meter is not None:
                    meter.decision(self._distinct(turn.full()), False, seat)
                view = self.observation(seat) if looks[seat] else None
            else:
                legal = self._legal = self._compute_legal()
                if meter is not None:
                    meter.decision(self._distinct(legal), self.phase == ASK, seat)
                view = self.observation(seat)
            action = acts[seat](view, legal, bot_rngs[seat])
            self.apply(action)
            actions.append(action)
            if meter is not None:
                meter.moved(self, len(actions))

    # -- what the simulation measures (``games/playability.py``) ------------------

    def progress(self, seat: int) -> int:
        """Minus the cards ``seat`` still has to get rid of (its hand)."""
        return -len(self.hands[seat])

    def seats_out(self) -> int:
        return len(self.order)

    def answering(self) -> bool:
        """A seat asked whether it joins a war (SK-7) answers out of turn."""
        return self.phase == ASK

    def distinct_moves(self) -> int:
        return 0 if self.is_terminal() else self._distinct(self.legal_actions())

    def _distinct(self, legal: Sequence[Action]) -> int:
        """The legal actions, a joker's counted once per kind: the jokers are alike, so
        burning (or laying in a war) one or another is one move."""
        joker = self.game.table.joker
        kinds = 0
        alike = 0
        for action in legal:
            kind = action[0]
            if len(action) == 2 and kind in _CARD_KINDS and joker[action[1]]:
                bit = 1 << (kind - LAY)
                if kinds & bit:
                    alike += 1
                kinds |= bit
        return len(legal) - alike

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

    def action_text(self, action: Action, narrator: Narrator) -> str:
        # (the words load when first asked for: a simulation's workers never say a move)
        from kraftstokk.games.stromkrig.narration import action_text

        size = len(self.pile) + len(self.beside)
        return action_text(action, narrator, self.war_category, size)

    def action_to_string(self, action: Action) -> str:
        from kraftstokk.games.narration import Narrator

        return self.action_text(action, Narrator(self.game.table, _EN, game=self.game.name))

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
        may = game.may_lay[top] if self._war_possible(left_after) else game.beats[top]
        if may[card]:
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
            left_after = bool(self.hands[self.current] or self.stock)
            self._uses(self.chance_card, legal, left_after=left_after)
        elif phase == ASK:
            legal.extend((JOIN_ACTION, STAY_OUT_ACTION))
        elif phase == NAMING:
            legal.extend(NAME_ACTIONS)
        else:
            war_lay = self.game.war_lay_action
            legal.extend([war_lay[card] for card in self.hands[self.current]])
        return legal

    def _turn_actions(self) -> list[Action]:
        legal, beats = self._turn_lays()
        return self._turn_rest(legal, beats)

    def _turn_lays(self) -> tuple[list[Action], tuple[bool, ...]]:
        """A turn's ordinary lays, and per card whether it beats the top card (a run's
        first card must).

        Hands are sorted by production (jokers first), so the ordinary lays are a tail
        of the hand and come out lowest production first. The war test is inlined.
        """
        game = self.game
        hand = self.hands[self.current]
        top = self.top
        lay = game.lay_action
        if top < 0:
            beats = game.beats_nothing
            return [lay[card] for card in hand if beats[card]], beats
        beats = game.beats[top]
        owner = self.top_owner
        if (
            (len(hand) > 1 or self.stock)
            and owner >= 0
            and owner != self.current
            and not self.out[owner]
        ):  # _war_possible: SK-6b, a lower card of the same tens starts a war
            may = game.may_lay[top]
            return [lay[card] for card in hand if may[card]], beats
        return [lay[card] for card in hand if beats[card]], beats

    def _turn_rest(self, legal: list[Action], beats: tuple[bool, ...]) -> list[Action]:
        """``legal`` (the lays) with the special uses, runs, take and sjanse added."""
        game = self.game
        hand = self.hands[self.current]
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
                if not beats[card]:
                    continue
                run: Action = (RUN, card, hand[i + 1])
                legal.append(run)
                j = i + 1
                while j in linked:
                    j += 1
                    run = (*run, hand[j])
                    legal.append(run)
        if self.pile or self.beside:
            legal.append(TAKE_ACTION)
        if self.stock:
            legal.append(CHANCE_ACTION)
        return legal

    # ----------------------------------------------------------------- moves

    def _draw_up(self, seat: int) -> None:
        hand = self.hands[seat]
        stock = self.stock
        while len(hand) < self.hand_size and stock:
            insert_sorted(hand, stock.pop(), self.game.hand_order)

    def _take(self, seat: int) -> None:
        """SK-4: the whole pile with the cards beside it; the next player starts."""
        self.events.append(PileTaken(seat, len(self.pile) + len(self.beside)))
        self._pick_up(seat)
        self._end_turn(seat, again=False)

    def _pick_up(self, seat: int) -> None:
        hand = self.hands[seat]
        hand.extend(self.pile)
        hand.extend(self.beside)
        hand.extend(self.war_cards)
        self.war_cards.clear()
        sort_by(hand, self.game.hand_order)
        self.pile.clear()
        self.beside.clear()
        self.top = -1
        self.top_owner = -1

    def _chance(self, seat: int) -> None:
        """SK-3 sjanse: turn the stock's top card. It keeps its special use; only a card
        with no legal use at all goes home with the pile."""
        card = self.stock.pop()
        uses: list[Action] = []
        self._uses(card, uses, left_after=bool(self.hands[seat] or self.stock))
        self.events.append(ChanceDrawn(seat, card, bool(uses)))
        if uses:
            self.chance_card = card
            self.phase = CHOOSE
            return
        self.events.append(PileTaken(seat, len(self.pile) + len(self.beside), chance_card=card))
        self.hands[seat].append(card)
        self._pick_up(seat)
        self._end_turn(seat, again=False)

    def _special_or_lay(self, seat: int, kind: int, card: int, *, from_hand: bool) -> None:
        from_chance = not from_hand
        if from_hand:
            remove_card(self.hands[seat], card)
        if kind == LAY:
            self.events.append(Laid(seat, card, from_chance))
            self._lay_on_pile(seat, (card,), from_hand)
            return
        self.phase = PLAY
        if from_hand:
            self._draw_up(seat)
        if kind == BURN:  # SK-10
            size = len(self.pile) + len(self.beside) + 1
            self.burned.extend(self.pile)
            self.burned.extend(self.beside)
            self.burned.append(card)
            self.pile.clear()
            self.beside.clear()
            self.top = -1
            self.top_owner = -1
            again = bool(self.stock or self.hands[seat])  # else out with the burn (SK-10)
            self.events.append(Burned(seat, card, size, again, from_chance))
            self._end_turn(seat, again=True)
            return
        if kind == RESET:  # SK-11
            self.events.append(Reset(seat, card, self.top, from_chance))
            self.pile.append(card)
            self.top = -1
            self.top_owner = -1
        else:  # SK-12 INVISIBLE
            categories = self.game.invisible_categories[card]
            self.events.append(LaidBeside(seat, card, categories, from_chance))
            self.beside.append(card)
        self._end_turn(seat, again=False)

    def _run(self, seat: int, cards: Sequence[int]) -> None:
        hand = self.hands[seat]
        for card in cards:
            remove_card(hand, card)
        self.events.append(RunLaid(seat, tuple(cards)))
        self._lay_on_pile(seat, cards, True)

    def _lay_card(self, seat: int, card: int) -> None:
        """The common move, kept short: one ordinary card from the hand (SK-2, SK-3, SK-6)."""
        hand = self.hands[seat]
        remove_card(hand, card)
        self.events.append(Laid(seat, card))
        stock = self.stock
        if stock and len(hand) < self.hand_size:
            order = self.game.hand_order
            while len(hand) < self.hand_size and stock:
                insert_sorted(hand, stock.pop(), order)
        under = self.top
        if under >= 0:
            reasons = self.game.war_reasons[under][card]
            if reasons and self._war_possible(bool(hand or stock)):
                owner = self.top_owner
                self.pile.append(card)
                self.top = card
                self.top_owner = seat
                self._start_war(seat, owner, card, under, reasons)
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
        first = cards[0]
        under = self.top
        owner = self.top_owner
        if from_hand and self.stock and len(self.hands[seat]) < self.hand_size:
            self._draw_up(seat)
        reasons = self.game.war_reasons[under][first] if under >= 0 else ()
        war = bool(reasons) and self._war_possible(bool(self.hands[seat] or self.stock))
        self.pile.extend(cards)
        self.top = cards[-1]
        self.top_owner = seat
        self.phase = PLAY
        if war:
            self._start_war(seat, owner, first, under, reasons)
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
            self._go_out(seat)
            if self._over_check():
                return
        if again and not out[seat]:
            self.current = seat
            return
        n = self.n
        nxt = (seat + 1) % n
        while out[nxt]:
            nxt = (nxt + 1) % n
        self.current = nxt

    def _go_out(self, seat: int) -> None:
        """SK-14: ``seat`` is out."""
        self.out[seat] = True
        self.order.append(seat)
        self.events.append(SeatOut(seat, len(self.order)))

    def _over_check(self) -> bool:
        """With one player left (or none) the game is over: True then."""
        if self.out.count(False) > 1:
            return False
        self.phase = OVER
        self.events.append(GameOver(self._loser(), tuple(self.order)))
        return True

    def _loser(self) -> int:
        left = [seat for seat in range(self.n) if not self.out[seat]]
        return left[0] if left else self.order[-1]

    def _mark_out(self) -> bool:
        """Mark players out (SK-14); True when the game is over."""
        if self.stock:
            return False
        for seat in range(self.n):
            if not self.out[seat] and not self.hands[seat]:
                self._go_out(seat)
        return self._over_check()

    def _seating_from(self, first: int, seats: Iterable[int]) -> list[int]:
        n = self.n
        return sorted(seats, key=lambda seat: (seat - first) % n)

    # ----------------------------------------------------------------- war (SK-6..SK-9)

    def _start_war(
        self,
        challenger: int,
        under_owner: int,
        card: int,
        under: int,
        reasons: tuple[WarReason, ...],
    ) -> None:
        tens = rules.production_tens(self.game.production[card])
        self.events.append(WarStarted(challenger, under_owner, card, under, reasons, tens))
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
        self.round_players = players
        self.round_laid = []
        self._next_war_layer()

    def _next_war_layer(self) -> None:
        laid = len(self.round_laid)
        if laid < len(self.round_players):
            seat = self.round_players[laid]
            if not self.hands[seat]:  # SK-9
                self._end_war(seat, -1)
                return
            self.phase = WAR
            self.current = seat
            return
        faces = self.game.faces
        category = self.war_category
        losers = rules.war_losers(
            [(seat, faces[card]) for seat, card in self.round_laid], CATEGORIES[category]
        )
        if len(losers) == 1:
            loser = losers[0]
            card = next(card for seat, card in self.round_laid if seat == loser)
            self._end_war(loser, card)
        else:
            self.events.append(WarTied(-1, tuple(losers), category))
            self._start_round(losers)

    def _war_lay(self, seat: int, card: int) -> None:
        remove_card(self.hands[seat], card)
        self.war_cards.append(card)
        self.round_laid.append((seat, card))
        self.events.append(WarCardLaid(seat, card, self.war_category))
        self._draw_up(seat)
        self._next_war_layer()

    def _end_war(self, loser: int, card: int) -> None:
        """SK-7/SK-8: the loser takes the pile, the cards beside it and the war cards.

        ``card``: the loser's war card, -1 when the loser had none to lay (SK-9).
        """
        size = len(self.pile) + len(self.beside) + len(self.war_cards)
        category = self.war_category
        self.events.append(WarLost(loser, category, size, card))
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

    __slots__ = ("_full", "_state", "beats", "lays")

    def __init__(self, state: StromkrigState) -> None:
        self._state = state
        self.lays, self.beats = state._turn_lays()
        self._full: list[Action] | None = None

    def full(self) -> list[Action]:
        full = self._full
        if full is None:
            full = self._full = self._state._turn_rest(list(self.lays), self.beats)
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


def from_position(
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
    """A position for a test or an outside tool (see ``StromkrigState.from_position``)."""
    return StromkrigState.from_position(
        game,
        hands,
        stock,
        pile=pile,
        top_owner=top_owner,
        beside=beside,
        current=current,
        reset=reset,
        rng=rng,
    )


GAME = StromkrigGame
