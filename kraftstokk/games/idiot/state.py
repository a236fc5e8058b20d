"""Idiot's game and state (RULES.md ID-1..ID-13): dealing, legal actions, carrying them out.

The state keeps plain lists of card indices: per seat a hand, a face-up row and a
face-down row of three fixed slots (-1 once played, so a slot number stays the same
for a person choosing it), plus the stock (top = last), the pile (top = last) and the
burned cards. Legal actions are computed once per position and cached until the next
``apply``; that cache also validates the action, so a bot game costs one generation
per step. Every action appends its events (``events.py``) to ``state.events``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Final

from kraftstokk.errors import GameError
from kraftstokk.games.core import (
    DEFAULT_ACTION_CAP,
    Action,
    Bot,
    DeckTable,
    Game,
    Result,
    State,
)
from kraftstokk.games.events import Event, GameOver, SeatOut
from kraftstokk.games.idiot.actions import (
    CHANCE,
    CHANCE_ACTION,
    END_RUN,
    END_RUN_ACTION,
    FACE_DOWN,
    PASS_ACTION,
    PHASE_OVER,
    PHASE_PLAY,
    PHASE_SWAP,
    PHASES,
    PLAY,
    READY,
    READY_ACTION,
    SNEAK,
    SWAP,
    TAKE,
    TAKE_ACTION,
)
from kraftstokk.games.idiot.events import (
    BurnCause,
    Burned,
    ChanceDrawn,
    FaceDownTurned,
    Laid,
    Passed,
    PileTaken,
    Reset,
    RunEnded,
    SneakedUnder,
    Starts,
    Swapped,
    SwapsDone,
)
from kraftstokk.games.idiot.observation import IdiotObservation
from kraftstokk.games.idiot.rules import (
    ACE,
    TWO,
    IdiotRules,
    burns,
    burns_on_top,
    counts_for_start,
    lowest_reaching,
    may_finish_on,
    may_sneak,
    need_after,
    next_in_run,
    next_seat,
    rank_of,
    reach,
    resets,
    top_count,
)
from kraftstokk.games.idiot.spec import SPEC
from kraftstokk.games.ordering import remove_card
from kraftstokk.games.playability import Meter

if TYPE_CHECKING:
    from kraftstokk.games.narration import Narrator

_EN = "en"

#: A card's sort key is ``rank << CARD_BITS | card`` (``IdiotGame.sort_key``): unique per
#: card, with the card in its low bits, so a hand sorts as plain ints, without a key
#: function called for every card (hands are sorted after nearly every move).
CARD_BITS: Final = 6
CARD_MASK: Final = (1 << CARD_BITS) - 1


def sort_cards(cards: list[int], keys: tuple[int, ...]) -> None:
    """Sort ``cards`` in place by rank, then card index (``keys`` is the game's sort key)."""
    ordered = sorted([keys[card] for card in cards])
    for i, key in enumerate(ordered):
        cards[i] = key & CARD_MASK


def sorted_cards(cards: Sequence[int], keys: tuple[int, ...]) -> list[int]:
    """``cards`` sorted by rank, then card index."""
    return [key & CARD_MASK for key in sorted([keys[card] for card in cards])]


def _listed(action: Action, legal: list[Action]) -> bool:
    """``action in legal``, first by identity: a bot hands back one of the listed tuples,
    and comparing it with the others' contents first costs more than the search."""
    for listed in legal:
        if listed is action:
            return True
    return action in legal


def insert_card(cards: list[int], card: int, keys: tuple[int, ...]) -> None:
    """Insert ``card`` into the sorted ``cards`` where it belongs (a hand holds few)."""
    key = keys[card]
    i = len(cards)
    cards.append(card)
    while i > 0 and keys[cards[i - 1]] > key:
        cards[i] = cards[i - 1]
        i -= 1
    cards[i] = card


class IdiotGame(Game):
    """Idiot for 2-5 players; ace is high (14), 2 resets, 10 burns.

    The game's rule parameters (``parameters``: the main rules with the variants applied,
    ``SPEC.rules_for``) and its per-card tables, each built from a predicate of
    ``rules.py``, are everything the state, the bots and the native core play by.
    """

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
        rules: IdiotRules = SPEC.rules_for(self.variants)
        self.parameters = rules
        plants = table.plant_cards
        if len(plants) != 52:
            raise GameError(f"idiot needs the 52 plant cards of a deck, this one has {len(plants)}")
        dealt = 3 * rules.hand_size * num_players
        if dealt > len(plants):
            raise GameError(
                f"idiot with {num_players} players and {rules.hand_size} cards a row deals "
                f"{dealt} cards, more than the deck's {len(plants)}"
            )
        #: ID-1: rank per card index, ace high; 0 for jokers (never in play).
        self.ranks: tuple[int, ...] = tuple(
            0 if table.joker[c] else rank_of(table.value[c]) for c in range(table.size)
        )
        ranks = self.ranks
        self.plant_cards: tuple[int, ...] = plants
        most = max(sum(1 for c in plants if self.ranks[c] == r) for r in range(TWO, ACE + 1))
        if most > 4:
            raise GameError(f"idiot needs at most four cards of a value, this deck has {most}")
        # Sorting key: rank first, card index second, so play lists read low to high.
        if table.size > 1 << CARD_BITS:
            raise GameError(f"idiot sorts at most {1 << CARD_BITS} cards, not {table.size}")
        self.sort_key: tuple[int, ...] = tuple(r << CARD_BITS | c for c, r in enumerate(self.ranks))
        # Per card, each rule of rules.py as the engine asks it (jokers never play).
        #: ID-5: a card may be laid when need <= reach (2 and 10 on anything).
        self.reach: tuple[int, ...] = tuple(reach(r) for r in ranks)
        #: ID-7: the card burns the pile.
        self.burns: tuple[bool, ...] = tuple(burns(r) for r in ranks)
        #: ID-6: the card resets (the next card may be anything).
        self.resets: tuple[bool, ...] = tuple(resets(r) for r in ranks)
        #: ID-6: what the next card must reach with this card on top.
        self.need_after: tuple[int, ...] = tuple(need_after(r) for r in ranks)
        #: ID-4: the card counts when the seats compare their lowest cards.
        self.counts_for_start: tuple[bool, ...] = tuple(counts_for_start(r) for r in ranks)
        #: ID-13 ``no_finish_on_two``: the card may be the last one played.
        self.may_finish: tuple[bool, ...] = tuple(may_finish_on(r, rules) for r in ranks)
        #: ID-13 ``sneak_three``: the card may go under the pile.
        self.may_sneak: tuple[bool, ...] = tuple(may_sneak(r, rules) for r in ranks)
        #: ID-13 ``sequences``: the rank that continues a run after the card (0: none).
        self.run_next: tuple[int, ...] = tuple(next_in_run(r) if r else 0 for r in ranks)
        #: Per need (0..ACE) and rank, where a sorted hand's search for a card that may be
        #: laid goes on from a card too low (``rules.lowest_reaching``).
        self.search_from: tuple[tuple[int, ...], ...] = tuple(
            tuple(lowest_reaching(r, need) for r in range(ACE + 1)) for need in range(ACE + 1)
        )
        self.single_plays: tuple[Action, ...] = tuple((PLAY, c) for c in range(table.size))
        self.face_down_actions: tuple[Action, ...] = tuple(
            (FACE_DOWN, slot) for slot in range(rules.hand_size)
        )

    def new_initial_state(self, rng: random.Random) -> IdiotState:
        return IdiotState(self, rng)


class IdiotState(State):
    """One position of an Idiot game."""

    game: IdiotGame

    def __init__(self, game: IdiotGame, rng: random.Random) -> None:
        self.game = game
        n = game.num_players
        rules = game.parameters
        self._rng = rng
        self._ranks = game.ranks
        self._reach = game.reach
        self._single = game.single_plays
        self._keys = game.sort_key
        self._cap = game.action_cap
        self._rules = rules
        self._burns = game.burns
        self._resets = game.resets
        self._need_after = game.need_after
        self._row = row = rules.hand_size
        self._two_same = rules.two_same_player
        self._sequences = rules.sequences
        # Variants off the fast path of _generate.
        self._special = rules.no_finish_on_two or rules.sneak_three
        self.events: list[Event] = []
        # A shuffle by random sort keys: as fair as rng.shuffle and several times faster.
        plants = game.plant_cards
        keys = [rng.random() for _ in plants]
        deck = [plants[i] for i in sorted(range(len(plants)), key=keys.__getitem__)]
        # ID-2: deal a row face down, a row face up and a hand each; the rest is the stock.
        self._down: list[list[int]] = []
        self._up: list[list[int]] = []
        self._hands: list[list[int]] = []
        for seat in range(n):
            base = seat * 3 * row
            self._down.append(deck[base : base + row])
            self._up.append(sorted_cards(deck[base + row : base + 2 * row], self._keys))
            self._hands.append(sorted_cards(deck[base + 2 * row : base + 3 * row], self._keys))
        self._down_left = [row] * n
        # The cards each seat holds in hand that every seat saw go there (picked up from
        # the pile, turned over and taken with it, swapped in from the face-up row), until
        # they leave the hand: public, so every seat's observation shows them.
        self._known: list[list[int]] = [[] for _ in range(n)]
        self._stock: list[int] = deck[n * 3 * row :]
        self._pile: list[int] = []
        self._burned: list[int] = []
        self._need = 0  # lowest ordinary rank that may go on the pile (0: anything)
        self._out = [False] * n
        self._order: list[int] = []
        self._active = n
        self._loser: int | None = None
        self._run = 0  # sequences: the rank that continues the run, 0 when none
        self._actions = 0
        self._turns = 0
        self._over = False  # game over or action cap reached
        self._legal: list[Action] | None = None
        if rules.no_swap:
            self._phase = PHASE_PLAY
            self._player = self._starting_player()
            self.events.append(Starts(self._player))
        else:
            self._phase = PHASE_SWAP
            self._player = 0  # ID-3: seats swap in order from the dealer's left

    @classmethod
    def from_position(
        cls,
        game: IdiotGame,
        *,
        hands: Sequence[Sequence[int]],
        face_up: Sequence[Sequence[int]],
        face_down: Sequence[Sequence[int]],
        stock: Sequence[int] = (),
        pile: Sequence[int] = (),
        player: int = 0,
        seed: int = 0,
    ) -> IdiotState:
        """A play-phase position (for tests and puzzles); unlisted cards count as burned.

        ``face_down`` rows may hold -1 for slots already played; the last card of
        ``stock`` and of ``pile`` is the top.
        """
        n = game.num_players
        if not (len(hands) == len(face_up) == len(face_down) == n):
            raise GameError(f"a position of {n} players needs {n} hands and rows")
        slots = game.parameters.hand_size
        if any(len(row) > slots for row in face_down):
            raise GameError(f"a face-down row has at most {slots} slots")
        if not 0 <= player < n:
            raise GameError(f"player {player} is not a seat of a {n}-player game")
        state = cls(game, random.Random(seed))
        keys = state._keys
        state.events = []
        state._hands = [sorted_cards(h, keys) for h in hands]
        state._up = [sorted_cards(u, keys) for u in face_up]
        state._down = [list(d) for d in face_down]
        state._down_left = [sum(1 for c in d if c >= 0) for d in face_down]
        state._known = [[] for _ in range(n)]
        state._stock = list(stock)
        state._pile = list(pile)
        placed = {c for row in (*hands, *face_up, *face_down, stock, pile) for c in row}
        state._burned = [c for c in game.plant_cards if c not in placed]
        state._need = game.need_after[pile[-1]] if pile else 0
        state._phase = PHASE_PLAY
        state._player = player
        for seat in range(n):
            if state._is_empty(seat):
                state._go_out(seat)
        state.check_invariants()
        return state

    # -- the State API -------------------------------------------------------------

    def current_player(self) -> int:
        return self._player

    def is_terminal(self) -> bool:
        return self._over

    def legal_actions(self) -> list[Action]:
        if self._over:
            return []
        legal = self._legal
        if legal is None:
            legal = self._legal = self._generate()
        return list(legal)

    def apply(self, action: Action) -> None:
        if self._over:
            raise GameError(f"idiot: action {list(action)} after the game ended")
        legal = self._legal
        if legal is None:
            legal = self._generate()
        if not _listed(action, legal):
            raise GameError(f"idiot: action {list(action)} is not legal here")
        self._legal = None
        self._actions += 1
        if self._actions >= self._cap:
            self._over = True
        kind = action[0]
        if kind == PLAY:
            self._play(action)
        elif kind == TAKE:
            self._take()
        elif kind == CHANCE:
            self._chance()
        elif kind == FACE_DOWN:
            self._face_down(action[1])
        elif kind == SWAP:
            self._swap(action[1], action[2])
        elif kind == READY:
            self._ready()
        elif kind == SNEAK:
            self._sneak_under(action)
        elif kind == END_RUN:
            self.events.append(RunEnded(self._player))
            self._end_turn()
        else:  # PASS
            self.events.append(Passed(self._player))
            self._end_turn()

    def result(self) -> Result:
        finished = self._phase == PHASE_OVER
        turns = self._turns
        players = self.game.num_players
        return Result(
            finished=finished,
            order=list(self._order),
            loser=self._loser if finished else None,
            actions=self._actions,
            rounds=-(-turns // players),
        )

    def reseed(self, rng: random.Random) -> None:
        self._rng = rng

    def redeal_unseen(self, rng: random.Random) -> None:
        # ID-2, ID-11: the stock and every face-down card still down are seen by no seat.
        slots = [
            (seat, slot)
            for seat in range(self.game.num_players)
            for slot, card in enumerate(self._down[seat])
            if card >= 0
        ]
        cards = [*self._stock, *(self._down[seat][slot] for seat, slot in slots)]
        rng.shuffle(cards)
        stock = len(self._stock)
        self._stock = cards[:stock]
        for (seat, slot), card in zip(slots, cards[stock:], strict=True):
            self._down[seat][slot] = card
        self._rng = rng
        self._legal = None

    def clone(self) -> IdiotState:
        # A fresh state has the game's settings; every field of the position is copied.
        other = IdiotState(self.game, random.Random())
        other._rng.setstate(self._rng.getstate())
        other.events = list(self.events)
        other._down = [list(row) for row in self._down]
        other._up = [list(row) for row in self._up]
        other._hands = [list(hand) for hand in self._hands]
        other._down_left = list(self._down_left)
        other._known = [list(known) for known in self._known]
        other._stock = list(self._stock)
        other._pile = list(self._pile)
        other._burned = list(self._burned)
        other._need = self._need
        other._out = list(self._out)
        other._order = list(self._order)
        other._active = self._active
        other._loser = self._loser
        other._run = self._run
        other._actions = self._actions
        other._turns = self._turns
        other._over = self._over
        other._phase = self._phase
        other._player = self._player
        return other

    def card_counts(self) -> list[int]:
        """The pile's cards, then each seat's (hand, face up, face down): counts every
        seat sees (the turning points of a finished game weigh them, web/turning.py)."""
        counts = [len(self._pile)]
        for hand, up, down in zip(self._hands, self._up, self._down_left, strict=True):
            counts.append(len(hand) + len(up) + down)
        return counts

    def observation(self, seat: int) -> IdiotObservation:
        ranks = self._ranks
        pile = self._pile
        return IdiotObservation(
            seat=seat,
            num_players=self.game.num_players,
            phase=PHASES[self._phase],
            current_player=self._player,
            hand=tuple(self._hands[seat]),
            face_up_rows=tuple(tuple(row) for row in self._up),
            face_down_slots=tuple(slot for slot, c in enumerate(self._down[seat]) if c >= 0),
            face_down_counts=tuple(self._down_left),
            hand_counts=tuple(len(hand) for hand in self._hands),
            known_in_hand=tuple(tuple(sorted(known)) for known in self._known),
            pile=tuple(pile),
            top_count=top_count(pile, ranks),
            need=self._need,
            run_rank=self._run,
            stock_count=len(self._stock),
            burned_count=len(self._burned),
            out=tuple(self._order),
            ranks=ranks,
        )

    def play_out(
        self,
        bots: Sequence[Bot],
        bot_rngs: Sequence[random.Random],
        actions: list[Action],
        meter: Meter | None = None,
    ) -> None:
        """The plain loop, handing each bot the cached legal list rather than a copy.

        A bot that declares ``reads_observation = False`` decides from the legal list
        alone, so no observation is built for it (it is handed ``None``).
        """
        acts = [bot.act for bot in bots]
        looks = [getattr(bot, "reads_observation", True) is not False for bot in bots]
        # Method calls spelled out, not bound to locals: compiled, they are direct calls.
        while not self._over:
            legal = self._legal
            if legal is None:
                legal = self._legal = self._generate()
            seat = self._player
            if meter is not None:
                meter.decision(self._distinct(legal), False, seat)
            view = self.observation(seat) if looks[seat] else None
            action = acts[seat](view, legal, bot_rngs[seat])
            self.apply(action)
            actions.append(action)
            if meter is not None:
                meter.moved(self, len(actions))

    # -- what the simulation measures (``games/playability.py``) ------------------

    def progress(self, seat: int) -> int:
        """Minus the cards ``seat`` still has to get rid of: hand, face-up and face-down."""
        return -(len(self._hands[seat]) + len(self._up[seat]) + self._down_left[seat])

    def seats_out(self) -> int:
        return len(self._order)

    def distinct_moves(self) -> int:
        if self._over:
            return 0
        legal = self._legal
        if legal is None:
            legal = self._legal = self._generate()
        return self._distinct(legal)

    def _distinct(self, legal: list[Action]) -> int:
        """The legal moves a player can tell apart: plays are listed once per rank and
        count already; a swap counts once per pair of ranks (every swap of equal ranks
        leaves the same hand), and the face-down cards, turned unseen, once."""
        if self._phase == PHASE_SWAP:
            ranks = self._ranks
            pairs: set[int] = set()
            for action in legal:
                if action[0] == SWAP:
                    given, taken = ranks[action[1]], ranks[action[2]]
                    pairs.add(0 if given == taken else given << 8 | taken)
            return len(pairs) + 1  # and READY
        blind = 0
        for action in legal:
            if action[0] == FACE_DOWN:
                blind += 1
        return len(legal) - blind + 1 if blind > 1 else len(legal)

    def card_locations(self) -> dict[str, list[int]]:
        places: dict[str, list[int]] = {
            "stock": list(self._stock),
            "pile": list(self._pile),
            "burned": list(self._burned),
        }
        for seat in range(self.game.num_players):
            places[f"hand:{seat}"] = list(self._hands[seat])
            places[f"face_up:{seat}"] = list(self._up[seat])
            places[f"face_down:{seat}"] = [c for c in self._down[seat] if c >= 0]
        return places

    def remaining_cards(self, seat: int) -> list[int]:
        down = [c for c in self._down[seat] if c >= 0]
        return [*self._hands[seat], *self._up[seat], *down]

    def cards_in_play(self) -> Sequence[int]:
        return self.game.plant_cards

    def check_invariants(self) -> None:
        super().check_invariants()
        for seat in range(self.game.num_players):
            left = sum(1 for c in self._down[seat] if c >= 0)
            if left != self._down_left[seat]:
                raise GameError(
                    f"seat {seat + 1}: {left} face-down cards, counted {self._down_left[seat]}"
                )
            if self._out[seat] and self.remaining_cards(seat):
                raise GameError(f"seat {seat + 1} is out but still holds cards")
            if any(card not in self._hands[seat] for card in self._known[seat]):
                raise GameError(f"seat {seat + 1}: a card known in hand is not there")

    def action_text(self, action: Action, narrator: Narrator) -> str:
        # (the words load when first asked for: a simulation's workers never say a move)
        from kraftstokk.games.idiot.narration import action_text

        from_face_up = False
        if action[0] in (PLAY, SNEAK):
            from_face_up = action[1] not in self._hands[self._player]
        return action_text(action, narrator, self._ranks, from_face_up, len(self._pile))

    def action_to_string(self, action: Action) -> str:
        from kraftstokk.games.narration import Narrator

        return self.action_text(action, Narrator(self.game.table, _EN, game=self.game.name))

    # -- legal actions -------------------------------------------------------------

    def _generate(self) -> list[Action]:
        """Legal actions; the common case (a play from hand or face-up) inline for speed."""
        p = self._player
        if self._phase != PHASE_PLAY or self._run or self._special:
            return self._generate_general()
        src = self._hands[p] or self._up[p]
        acts: list[Action] = []
        if src:
            need = self._need
            reach_ = self._reach
            size = len(src)
            if size == 1:
                card = src[0]
                if reach_[card] >= need:
                    acts.append(self._single[card])
            else:
                ranks = self._ranks
                single = self._single
                i = 0
                while i < size:
                    card = src[i]
                    if reach_[card] < need:
                        # Too low: jump to the next rank that may be laid (a 10 on the
                        # way, or the need itself; rules.lowest_reaching).
                        target = self.game.search_from[need][ranks[card]]
                        # The first card from i + 1 of at least the target rank (src is
                        # sorted, and a hand is short: a scan beats a bisection's calls).
                        bound = target << CARD_BITS
                        keys = self._keys
                        i += 1
                        while i < size and keys[src[i]] < bound:
                            i += 1
                        continue
                    r = ranks[card]
                    j = i + 1
                    while j < size and ranks[src[j]] == r:
                        j += 1
                    acts.append(single[card])
                    if j - i > 1:  # at most four of a rank (checked by IdiotGame)
                        second = src[i + 1]
                        acts.append((PLAY, card, second))
                        if j - i > 2:
                            third = src[i + 2]
                            acts.append((PLAY, card, second, third))
                            if j - i > 3:
                                acts.append((PLAY, card, second, third, src[i + 3]))
                    i = j
            if not acts and self._stock:
                acts.append(CHANCE_ACTION)
        else:
            acts = self._face_down_moves(p)
        if self._pile:
            acts.append(TAKE_ACTION)
        elif not acts:
            acts.append(PASS_ACTION)
        return acts

    def _generate_general(self) -> list[Action]:
        p = self._player
        if self._phase == PHASE_SWAP:
            acts: list[Action] = [(SWAP, h, u) for h in self._hands[p] for u in self._up[p]]
            acts.append(READY_ACTION)
            return acts
        hand = self._hands[p]
        if self._run:
            # ID-13 sequences: the run goes on from hand, else the face-up row, else
            # with a face-down card turned unseen (it must continue the run).
            src = hand if hand else self._up[p]
            if src:
                acts = self._plays(src, self._run, only_rank=self._run)
            else:
                acts = self._face_down_moves(p)
            acts.append(END_RUN_ACTION)
            return acts
        if hand or self._up[p]:
            acts = self._plays(hand if hand else self._up[p], self._need, only_rank=0)
            if not acts and self._stock:
                acts.append(CHANCE_ACTION)
        else:
            acts = self._face_down_moves(p)
        if self._pile:
            acts.append(TAKE_ACTION)
        if not acts:
            acts.append(PASS_ACTION)
        return acts

    def _face_down_moves(self, p: int) -> list[Action]:
        """ID-11: a face-down card, chosen by its slot, for every slot still holding one."""
        moves = self.game.face_down_actions
        return [moves[slot] for slot, card in enumerate(self._down[p]) if card >= 0]

    def _plays(self, src: list[int], need: int, only_rank: int) -> list[Action]:
        """PLAY (and SNEAK) actions with variants or in a run (``_generate`` has the rest).

        Per rank, one card up to all its cards; ``src`` is kept sorted by rank, so equal
        ranks are neighbours.
        """
        ranks = self._ranks
        reach_ = self._reach
        game = self.game
        acts: list[Action] = []
        size = len(src)
        p = self._player
        # With the stock empty, laying all the cards the player has left is going out.
        total = len(self._hands[p]) + len(self._up[p]) + self._down_left[p]
        stock_empty = not self._stock
        i = 0
        while i < size:
            card = src[i]
            r = ranks[card]
            j = i + 1
            while j < size and ranks[src[j]] == r:
                j += 1
            if (only_rank == 0 or r == only_rank) and reach_[card] >= need:
                for n in range(1, j - i + 1):
                    if stock_empty and n == total and not game.may_finish[card]:
                        continue  # ID-13 no_finish_on_two: a 2 may not be the last card
                    acts.append((PLAY, *src[i : i + n]))
            if game.may_sneak[card] and self._pile and not only_rank:
                for n in range(1, j - i + 1):
                    acts.append((SNEAK, *src[i : i + n]))
            i = j
        return acts

    # -- carrying out actions ------------------------------------------------------

    def _swap(self, hand_card: int, up_card: int) -> None:
        hand = self._hands[self._player]
        up = self._up[self._player]
        hand[hand.index(hand_card)] = up_card
        up[up.index(up_card)] = hand_card
        known = self._known[self._player]
        if hand_card in known:
            known.remove(hand_card)
        known.append(up_card)
        sort_cards(hand, self._keys)
        sort_cards(up, self._keys)
        self.events.append(Swapped(self._player, hand_card, up_card))

    def _ready(self) -> None:
        self.events.append(SwapsDone(self._player))
        if self._player + 1 < self.game.num_players:
            self._player += 1
            return
        self._phase = PHASE_PLAY
        self._player = self._starting_player()
        self.events.append(Starts(self._player))

    def _starting_player(self) -> int:
        """ID-4: the lowest ordinary hand card (2 and 10 don't count), then the next."""
        ranks = self._ranks
        counts = self.game.counts_for_start
        best_seat = 0
        best_key: list[int] | None = None
        for seat, hand in enumerate(self._hands):
            key = sorted(ranks[c] for c in hand if counts[c])
            key.append(ACE + 1)  # above every rank: no further ordinary card ranks after any
            if best_key is None or key < best_key:
                best_seat, best_key = seat, key
        return best_seat

    def _play(self, action: Action) -> None:
        p = self._player
        hand = self._hands[p]
        src = hand if hand else self._up[p]
        pile = self._pile
        for card in action[1:]:
            remove_card(src, card)
            pile.append(card)
        known = self._known[p]
        if known and src is hand:
            self._forget(known, action)
        self.events.append(Laid(p, action[1:], src is not hand))
        card = action[1]
        burn = self._burn_cause(card)
        if burn is not None or self._resets[card] or self._sequences:
            self._after_lay(p, card, burn, src is hand, allow_run=True)
            return
        # The common case inline: no burn, no 2, no run possible.
        self._need = self._need_after[card]
        if src is hand:
            stock = self._stock
            while len(hand) < self._row and stock:
                insert_card(hand, stock.pop(), self._keys)
        if not hand and not self._up[p] and not self._down_left[p]:
            self._go_out(p)
            if self._phase == PHASE_OVER:
                return
        self._end_turn()

    def _sneak_under(self, action: Action) -> None:
        p = self._player
        hand = self._hands[p]
        src = hand if hand else self._up[p]
        for card in action[1:]:
            remove_card(src, card)
            self._pile.insert(0, card)
        known = self._known[p]
        if known and src is hand:
            self._forget(known, action)
        self.events.append(SneakedUnder(p, action[1:]))
        if src is hand:
            self._draw(hand)
        if self._is_empty(p):
            self._go_out(p)
            if self._phase == PHASE_OVER:
                return
        self._end_turn()

    @staticmethod
    def _forget(known: list[int], action: Action) -> None:
        """The cards of ``action`` laid from the hand are no longer known to be in it."""
        for card in action[1:]:
            if card in known:
                known.remove(card)

    def _burn_cause(self, card: int) -> BurnCause | None:
        """Whether ``card``, just laid on top, burns the pile (ID-7, ID-8), and why.

        Returns the member itself: calling ``BurnCause(n)`` is slow.
        """
        if self._burns[card]:
            return BurnCause.TEN
        if burns_on_top(self._pile, self._ranks, self._rules):
            return BurnCause.SAME_RANK
        return None

    def _after_lay(
        self, p: int, card: int, burn: BurnCause | None, from_hand: bool, allow_run: bool
    ) -> None:
        """Effects of cards just laid on top (``card`` the first of them, ``burn`` what
        ``_burn_cause`` found): burns (ID-7, ID-8), 2 (ID-6), going out, runs."""
        again = False
        size = 0
        reset = self._resets[card]
        if burn is not None:
            size = len(self._pile)
            self._burn()
            again = True
        else:
            self._need = self._need_after[card]
            if reset:
                again = self._two_same
        hand = self._hands[p]
        if from_hand and len(hand) < self._row and self._stock:
            self._draw(hand)
        out = not hand and not self._up[p] and not self._down_left[p]
        if burn is not None:
            stacked = self._rules.burn_count if burn == BurnCause.SAME_RANK else 0
            self.events.append(Burned(p, size, burn, not out, stacked))
        elif reset:
            self.events.append(Reset(p, again and not out))
        if out:
            self._go_out(p)  # ID-12: after a burn the next player starts the new pile
            if self._phase != PHASE_OVER:
                self._end_turn()
            return
        if again:
            self._run = 0
            return
        if self._sequences and allow_run:
            # ID-13 sequences: continue with the next rank up, stepping over the 10;
            # no 2 or 10 in a run. With hand and face-up row empty, a face-down card
            # may continue it (turned unseen).
            following = self.game.run_next[card]
            if following:
                src = hand if hand else self._up[p]
                if src:
                    ranks = self._ranks
                    for c in src:
                        if ranks[c] == following:
                            self._run = following
                            return
                elif self._down_left[p]:
                    self._run = following
                    return
        self._end_turn()

    def _burn(self) -> None:
        self._burned.extend(self._pile)
        self._pile.clear()
        self._need = 0

    def _draw(self, hand: list[int]) -> None:
        """ID-9: draw back up to the hand size while the stock lasts."""
        stock = self._stock
        while len(hand) < self._row and stock:
            insert_card(hand, stock.pop(), self._keys)

    def _is_empty(self, p: int) -> bool:
        return not self._hands[p] and not self._up[p] and not self._down_left[p]

    def _take(self) -> None:
        p = self._player
        hand = self._hands[p]
        self.events.append(PileTaken(p, len(self._pile)))
        hand.extend(self._pile)
        self._known[p].extend(self._pile)
        sort_cards(hand, self._keys)
        self._pile.clear()
        self._need = 0
        self._end_turn()

    def _chance(self) -> None:
        """ID-10 sjanse: the top stock card is played if legal, else taken with the pile."""
        p = self._player
        card = self._stock.pop()
        if self._reach[card] >= self._need:
            self.events.append(ChanceDrawn(p, card, True))
            self._pile.append(card)
            self._after_lay(p, card, self._burn_cause(card), from_hand=False, allow_run=False)
        else:
            self.events.append(ChanceDrawn(p, card, False))
            self._pick_up(p, card)

    def _face_down(self, slot: int) -> None:
        """ID-11: the chosen face-down card is played if legal, else taken with the pile.

        In a run (ID-13 ``sequences``) the card is legal only when it continues the run.
        """
        p = self._player
        card = self._down[p][slot]
        self._down[p][slot] = -1
        self._down_left[p] -= 1
        last_card = not self._down_left[p]
        in_run = self._run
        playable = self._ranks[card] == in_run if in_run else self._reach[card] >= self._need
        if last_card and not self.game.may_finish[card]:
            playable = False  # ID-13 no_finish_on_two: a 2 may not be the last card
        self.events.append(FaceDownTurned(p, card, playable))
        if playable:
            self._pile.append(card)
            burn = self._burn_cause(card)
            self._after_lay(p, card, burn, from_hand=False, allow_run=bool(in_run))
        else:
            self._pick_up(p, card)

    def _pick_up(self, p: int, card: int) -> None:
        hand = self._hands[p]
        self.events.append(PileTaken(p, len(self._pile), with_card=True))
        if self._pile:
            hand.extend(self._pile)
            self._known[p].extend(self._pile)
            self._pile.clear()
        hand.append(card)
        self._known[p].append(card)  # turned over for all to see
        sort_cards(hand, self._keys)
        self._need = 0
        self._end_turn()

    def _go_out(self, p: int) -> None:
        self._out[p] = True
        self._order.append(p)
        self._active -= 1
        self._run = 0
        self.events.append(SeatOut(p, len(self._order)))
        if self._active == 1:
            self._turns += 1
            self._loser = self._out.index(False)
            self._phase = PHASE_OVER
            self._over = True
            self.events.append(GameOver(self._loser, tuple(self._order)))

    def _end_turn(self) -> None:
        """The turn passes on (``rules.next_seat``), and a run ends with it."""
        self._turns += 1
        self._run = 0
        self._player = next_seat(self._out, self._player)


def from_position(
    game: IdiotGame,
    *,
    hands: Sequence[Sequence[int]],
    face_up: Sequence[Sequence[int]],
    face_down: Sequence[Sequence[int]],
    stock: Sequence[int] = (),
    pile: Sequence[int] = (),
    player: int = 0,
    seed: int = 0,
) -> IdiotState:
    """A play-phase position for a test or an outside tool (see ``IdiotState.from_position``)."""
    return IdiotState.from_position(
        game,
        hands=hands,
        face_up=face_up,
        face_down=face_down,
        stock=stock,
        pile=pile,
        player=player,
        seed=seed,
    )


GAME = IdiotGame
