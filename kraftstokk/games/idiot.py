"""Idiot, the classic shedding game (RULES.md ID-1..ID-13), on the 52 plant cards.

The state keeps plain lists of card indices: per seat a hand, a face-up row and a
face-down row of three fixed slots (-1 once played, so a slot number stays the same
for a person choosing it), plus the stock (top = last), the pile (top = last) and the
burned cards. Legal actions are computed once per position and cached until the next
``apply``; that cache also validates the action, so a bot game costs one generation
per step.

Actions (first element is the kind):

* ``(SWAP, hand_card, face_up_card)`` and ``(READY,)`` in the swap phase (ID-3);
* ``(PLAY, card, ...)`` one or more cards of one rank from hand or the face-up row;
* ``(SNEAK, card, ...)`` threes slipped under the pile (variant ``sneak_three``);
* ``(FACE_DOWN, slot)`` a face-down card chosen by slot, unseen (ID-11);
* ``(TAKE,)`` the pile into hand; ``(CHANCE,)`` turn the top of the stock (ID-10);
* ``(END_RUN,)`` stop a run (variant ``sequences``); ``(PASS,)`` only when nothing
  else is possible (a lone 2 under ``no_finish_on_two`` with an empty pile).
"""

from __future__ import annotations

import random
from bisect import bisect_left, insort
from collections.abc import Sequence

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

SWAP, READY, PLAY, SNEAK, FACE_DOWN, TAKE, CHANCE, END_RUN, PASS = range(9)

PHASE_SWAP, PHASE_PLAY, PHASE_OVER = 0, 1, 2
PHASE_NAMES = ("swap", "play", "over")

TWO, TEN, ACE = 2, 10, 14
ROW = 3  # ID-2: three face-down, three face-up and three hand cards each
RANK_NAMES = {11: "J", 12: "Q", 13: "K", 14: "A"}

_CHANCE: Action = (CHANCE,)
_TAKE: Action = (TAKE,)
_PASS: Action = (PASS,)
_FACE_DOWNS: tuple[Action, ...] = tuple((FACE_DOWN, slot) for slot in range(3))

VARIANTS = frozenset({"two_same_player", "no_finish_on_two", "no_swap", "sequences", "sneak_three"})


def rank_name(rank: int) -> str:
    return RANK_NAMES.get(rank, str(rank))


class IdiotGame(Game):
    """Idiot for 2-5 players; ace is high (14), 2 resets, 10 burns."""

    name = "idiot"
    min_players = 2
    max_players = 5
    allowed_variants = VARIANTS

    def __init__(
        self,
        table: DeckTable,
        num_players: int,
        variants: Sequence[str] = (),
        action_cap: int = DEFAULT_ACTION_CAP,
    ) -> None:
        super().__init__(table, num_players, variants, action_cap)
        plants = table.plant_cards
        if len(plants) != 52:
            raise GameError(f"idiot needs the 52 plant cards of a deck, this one has {len(plants)}")
        #: ID-1: rank per card index, ace high; 0 for jokers (never in play).
        self.ranks: tuple[int, ...] = tuple(
            0 if table.joker[c] else (ACE if table.value[c] == 1 else table.value[c])
            for c in range(table.size)
        )
        self.plant_cards: tuple[int, ...] = plants
        most = max(sum(1 for c in plants if self.ranks[c] == r) for r in range(TWO, ACE + 1))
        if most > 4:
            raise GameError(f"idiot needs at most four cards of a value, this deck has {most}")
        # Sorting key: rank first, card index second, so play lists read low to high.
        self.sort_key: tuple[int, ...] = tuple(r * 64 + c for c, r in enumerate(self.ranks))
        # ID-5: a card may be laid when need <= reach (2 and 10 on anything).
        self.reach: tuple[int, ...] = tuple(99 if r in (TWO, TEN) else r for r in self.ranks)
        self.single_plays: tuple[Action, ...] = tuple((PLAY, c) for c in range(table.size))
        #: For the bots: what a card is worth keeping, its rank with 2 and 10 dearest.
        self.keep_costs: tuple[int, ...] = tuple(
            16 if r == TEN else 15 if r == TWO else r for r in self.ranks
        )

    def new_initial_state(self, rng: random.Random) -> IdiotState:
        return IdiotState(self, rng)


class IdiotState(State):
    """One position of an Idiot game."""

    game: IdiotGame

    def __init__(self, game: IdiotGame, rng: random.Random) -> None:
        self.game = game
        n = game.num_players
        v = game.variants
        self._rng = rng
        self._ranks = game.ranks
        self._reach = game.reach
        self._single = game.single_plays
        self._key = game.sort_key.__getitem__
        self._cap = game.action_cap
        self._two_same = "two_same_player" in v
        self._no_finish_two = "no_finish_on_two" in v
        self._sequences = "sequences" in v
        self._sneak = "sneak_three" in v
        self._special = self._no_finish_two or self._sneak  # variants off the fast path
        self.stats = Stats(cards_played=[0] * game.table.size)
        self._played = self.stats.cards_played
        self._counters = self.stats.counters
        # A shuffle by random sort keys: as fair as rng.shuffle and several times faster.
        plants = game.plant_cards
        keys = [rng.random() for _ in plants]
        deck = [plants[i] for i in sorted(range(len(plants)), key=keys.__getitem__)]
        # ID-2: deal three face-down, three face-up, three in hand; the rest is the stock.
        self._down: list[list[int]] = []
        self._up: list[list[int]] = []
        self._hands: list[list[int]] = []
        for seat in range(n):
            base = seat * 9
            self._down.append(deck[base : base + 3])
            self._up.append(sorted(deck[base + 3 : base + 6], key=self._key))
            self._hands.append(sorted(deck[base + 6 : base + 9], key=self._key))
        self._down_left = [ROW] * n
        self._stock: list[int] = deck[n * 9 :]
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
        self._reveal: tuple[int, int, bool] | None = None
        self._views = [IdiotObservation(self, seat) for seat in range(n)]
        if "no_swap" in v:
            self._phase = PHASE_PLAY
            self._player = self._starting_player()
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
        if any(len(row) > ROW for row in face_down):
            raise GameError(f"a face-down row has at most {ROW} slots")
        state = cls(game, random.Random(seed))
        key = state._key
        state._hands = [sorted(h, key=key) for h in hands]
        state._up = [sorted(u, key=key) for u in face_up]
        state._down = [list(d) for d in face_down]
        state._down_left = [sum(1 for c in d if c >= 0) for d in face_down]
        state._stock = list(stock)
        state._pile = list(pile)
        placed = {c for row in (*hands, *face_up, *face_down, stock, pile) for c in row}
        state._burned = [c for c in game.plant_cards if c not in placed]
        state._need = 0
        if pile:
            top = game.ranks[pile[-1]]
            state._need = 0 if top == TWO else top
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
        if action not in legal:
            raise GameError(f"idiot: action {list(action)} is not legal here")
        self._legal = None
        self._reveal = None
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
        else:  # END_RUN, PASS
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

    def clone(self) -> IdiotState:
        # A fresh state has the game's settings; every field of the position is copied.
        other = IdiotState(self.game, random.Random())
        other._rng.setstate(self._rng.getstate())
        other.stats = self.stats.copy()
        other._played = other.stats.cards_played
        other._counters = other.stats.counters
        other._down = [list(row) for row in self._down]
        other._up = [list(row) for row in self._up]
        other._hands = [list(hand) for hand in self._hands]
        other._down_left = list(self._down_left)
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
        other._reveal = self._reveal
        other._phase = self._phase
        other._player = self._player
        return other

    def observation(self, seat: int) -> IdiotObservation:
        return self._views[seat]

    def play_out(
        self, bots: Sequence[Bot], bot_rngs: Sequence[random.Random], actions: list[Action]
    ) -> None:
        """The plain loop, handing each bot the cached legal list rather than a copy."""
        acts = [bot.act for bot in bots]
        views = self._views
        apply = self.apply
        append = actions.append
        while not self._over:
            legal = self._legal
            if legal is None:
                legal = self._legal = self._generate()
            seat = self._player
            action = acts[seat](views[seat], legal, bot_rngs[seat])
            apply(action)
            append(action)

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
                    f"seat {seat}: {left} face-down cards, counted {self._down_left[seat]}"
                )
            if self._out[seat] and self.remaining_cards(seat):
                raise GameError(f"seat {seat} is out but still holds cards")

    def action_to_string(self, action: Action) -> str:
        kind = action[0]
        describe = self.game.table.describe
        if kind in (PLAY, SNEAK):
            cards = action[1:]
            where = "" if cards[0] in self._hands[self._player] else " from the face-up row"
            names = ", ".join(describe(c) for c in cards)
            count = f"{len(cards)} × " if len(cards) > 1 else ""
            rank = rank_name(self._ranks[cards[0]])
            if kind == SNEAK:
                return f"slip {count}{rank}{where} under the pile: {names}"
            return f"play {count}{rank}{where}: {names}"
        if kind == FACE_DOWN:
            return f"turn face-down card {action[1] + 1} (unseen)"
        if kind == TAKE:
            size = len(self._pile)
            return f"take the pile ({size} card{'s' if size != 1 else ''})"
        if kind == CHANCE:
            return "take a chance: turn the top card of the stock"
        if kind == SWAP:
            return (
                f"swap {describe(action[1])} from hand with {describe(action[2])} "
                "from the face-up row"
            )
        if kind == READY:
            return "done swapping"
        if kind == END_RUN:
            return "end the run"
        if kind == PASS:
            return "pass (no move possible)"
        raise GameError(f"idiot: unknown action {list(action)}")

    def outcome_text(self) -> str | None:
        """What the last action revealed (a chance card or a face-down card), in words."""
        if self._reveal is None:
            return None
        _seat, card, played = self._reveal
        fate = "played on the pile" if played else "not playable: taken with the pile"
        return f"{self.game.table.describe(card)}: {fate}"

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
            reach = self._reach
            size = len(src)
            if size == 1:
                card = src[0]
                if reach[card] >= need:
                    acts.append(self._single[card])
            else:
                ranks = self._ranks
                single = self._single
                add = acts.append
                i = 0
                while i < size:
                    card = src[i]
                    if reach[card] < need:
                        # Too low: jump to the 10s (when they are next) or to the need.
                        target = TEN if ranks[card] < TEN < need else need
                        i = bisect_left(src, target << 6, i + 1, size, key=self._key)
                        continue
                    r = ranks[card]
                    j = i + 1
                    while j < size and ranks[src[j]] == r:
                        j += 1
                    add(single[card])
                    if j - i > 1:  # at most four of a rank (checked by IdiotGame)
                        second = src[i + 1]
                        add((PLAY, card, second))
                        if j - i > 2:
                            third = src[i + 2]
                            add((PLAY, card, second, third))
                            if j - i > 3:
                                add((PLAY, card, second, third, src[i + 3]))
                    i = j
            if not acts and self._stock:
                acts.append(_CHANCE)
        else:
            down = self._down[p]
            acts = [_FACE_DOWNS[slot] for slot, card in enumerate(down) if card >= 0]
        if self._pile:
            acts.append(_TAKE)
        elif not acts:
            acts.append(_PASS)
        return acts

    def _generate_general(self) -> list[Action]:
        p = self._player
        if self._phase == PHASE_SWAP:
            acts: list[Action] = [(SWAP, h, u) for h in self._hands[p] for u in self._up[p]]
            acts.append((READY,))
            return acts
        hand = self._hands[p]
        if self._run:
            src = hand if hand else self._up[p]
            acts = self._plays(src, self._run, only_rank=self._run)
            acts.append((END_RUN,))
            return acts
        if hand or self._up[p]:
            acts = self._plays(hand if hand else self._up[p], self._need, only_rank=0)
            if not acts and self._stock:
                acts.append((CHANCE,))
        else:
            acts = [(FACE_DOWN, slot) for slot, c in enumerate(self._down[p]) if c >= 0]
        if self._pile:
            acts.append((TAKE,))
        if not acts:
            acts.append((PASS,))
        return acts

    def _plays(self, src: list[int], need: int, only_rank: int) -> list[Action]:
        """PLAY (and SNEAK) actions with variants or in a run (``_generate`` has the rest).

        Per rank, one card up to all its cards; ``src`` is kept sorted by rank, so equal
        ranks are neighbours.
        """
        ranks = self._ranks
        reach = self._reach
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
            if (only_rank == 0 or r == only_rank) and reach[card] >= need:
                for n in range(1, j - i + 1):
                    if r == TWO and self._no_finish_two and stock_empty and n == total:
                        continue  # ID-13 no_finish_on_two: a 2 may not be the last card
                    acts.append((PLAY, *src[i : i + n]))
            if r == 3 and self._sneak and self._pile and not only_rank:
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
        hand.sort(key=self._key)
        up.sort(key=self._key)

    def _ready(self) -> None:
        if self._player + 1 < self.game.num_players:
            self._player += 1
            return
        self._phase = PHASE_PLAY
        self._player = self._starting_player()

    def _starting_player(self) -> int:
        """ID-4: the lowest ordinary hand card (2 and 10 don't count), then the next."""
        ranks = self._ranks
        best_seat = 0
        best_key: list[int] | None = None
        for seat, hand in enumerate(self._hands):
            key = sorted(ranks[c] for c in hand if ranks[c] != TWO and ranks[c] != TEN)
            key.append(99)  # no further ordinary card ranks after any card
            if best_key is None or key < best_key:
                best_seat, best_key = seat, key
        return best_seat

    def _play(self, action: Action) -> None:
        p = self._player
        hand = self._hands[p]
        src = hand if hand else self._up[p]
        pile = self._pile
        played = self._played
        for card in action[1:]:
            src.remove(card)
            pile.append(card)
            played[card] += 1
        ranks = self._ranks
        rank = ranks[action[1]]
        if rank in (TEN, TWO) or self._sequences or (len(pile) >= 4 and ranks[pile[-4]] == rank):
            self._after_lay(p, rank, src is hand, allow_run=True)
            return
        # The common case inline: no burn, no 2, no run possible.
        self._need = rank
        if src is hand:
            stock = self._stock
            while len(hand) < ROW and stock:
                insort(hand, stock.pop(), key=self._key)
        if not hand and not self._up[p] and not self._down_left[p]:
            self._go_out(p)
            if self._phase == PHASE_OVER:
                return
        self._turns += 1
        out = self._out
        n = len(out)
        p = (p + 1) % n
        while out[p]:
            p = (p + 1) % n
        self._player = p

    def _sneak_under(self, action: Action) -> None:
        p = self._player
        hand = self._hands[p]
        src = hand if hand else self._up[p]
        played = self.stats.cards_played
        for card in action[1:]:
            src.remove(card)
            self._pile.insert(0, card)
            played[card] += 1
        if src is hand:
            self._draw(hand)
        if self._is_empty(p):
            self._go_out(p)
            if self._phase == PHASE_OVER:
                return
        self._end_turn()

    def _after_lay(self, p: int, rank: int, from_hand: bool, allow_run: bool) -> None:
        """Effects of cards just laid on top: burns (ID-7, ID-8), 2 (ID-6), going out."""
        pile = self._pile
        again = False
        if rank == TEN:
            self._burn()
            self.stats.count("ten_burns")
            again = True
        elif len(pile) >= 4 and self._four_on_top(rank):
            self._burn()
            self.stats.count("four_burns")
            again = True
        else:
            self._need = 0 if rank == TWO else rank
            if rank == TWO and self._two_same:
                again = True
        hand = self._hands[p]
        if from_hand and len(hand) < ROW and self._stock:
            self._draw(hand)
        if not hand and not self._up[p] and not self._down_left[p]:
            self._go_out(p)  # ID-12: after a burn the next player starts the new pile
            if self._phase != PHASE_OVER:
                self._end_turn()
            return
        if again:
            self._run = 0
            return
        if self._sequences and allow_run:
            # ID-13 sequences: continue with the next rank up; no 2 or 10 in a run.
            nxt = rank + 1
            if rank != TWO and nxt != TEN and nxt <= ACE:
                src = hand if from_hand else self._up[p]
                if src:
                    ranks = self._ranks
                    for c in src:
                        if ranks[c] == nxt:
                            self._run = nxt
                            return
        self._end_turn()

    def _four_on_top(self, rank: int) -> bool:
        ranks = self._ranks
        pile = self._pile
        return ranks[pile[-2]] == rank and ranks[pile[-3]] == rank and ranks[pile[-4]] == rank

    def _burn(self) -> None:
        self._burned.extend(self._pile)
        self._pile.clear()
        self._need = 0
        self.stats.count("burns")

    def _draw(self, hand: list[int]) -> None:
        """ID-9: draw back up to three while the stock lasts."""
        stock = self._stock
        while len(hand) < ROW and stock:
            insort(hand, stock.pop(), key=self._key)

    def _is_empty(self, p: int) -> bool:
        return not self._hands[p] and not self._up[p] and not self._down_left[p]

    def _take(self) -> None:
        p = self._player
        hand = self._hands[p]
        hand.extend(self._pile)
        hand.sort(key=self._key)
        self._pile.clear()
        self._need = 0
        self.stats.count("pile_pickups")
        self._end_turn()

    def _chance(self) -> None:
        """ID-10 sjanse: the top stock card is played if legal, else taken with the pile."""
        p = self._player
        card = self._stock.pop()
        rank = self._ranks[card]
        self.stats.count("chance_draws")
        if self._reach[card] >= self._need:
            self._reveal = (p, card, True)
            self._pile.append(card)
            self.stats.cards_played[card] += 1
            self.stats.count("chance_draws_played")
            self._after_lay(p, rank, from_hand=False, allow_run=False)
        else:
            self._reveal = (p, card, False)
            self._pick_up(p, card)

    def _face_down(self, slot: int) -> None:
        """ID-11: the chosen face-down card is played if legal, else taken with the pile."""
        p = self._player
        card = self._down[p][slot]
        self._down[p][slot] = -1
        self._down_left[p] -= 1
        rank = self._ranks[card]
        self.stats.count("face_down_plays")
        last_card = not self._down_left[p]
        playable = self._reach[card] >= self._need
        if rank == TWO and self._no_finish_two and last_card:
            playable = False
        if playable:
            self._reveal = (p, card, True)
            self._pile.append(card)
            self.stats.cards_played[card] += 1
            self._after_lay(p, rank, from_hand=False, allow_run=False)
        else:
            self._reveal = (p, card, False)
            self.stats.count("face_down_fails")
            self._pick_up(p, card)

    def _pick_up(self, p: int, card: int) -> None:
        hand = self._hands[p]
        if self._pile:
            self.stats.count("pile_pickups")
            hand.extend(self._pile)
            self._pile.clear()
        hand.append(card)
        hand.sort(key=self._key)
        self._need = 0
        self._end_turn()

    def _go_out(self, p: int) -> None:
        self._out[p] = True
        self._order.append(p)
        self._active -= 1
        self._run = 0
        if self._active == 1:
            self._turns += 1
            self._loser = self._out.index(False)
            self._phase = PHASE_OVER
            self._over = True

    def _end_turn(self) -> None:
        self._turns += 1
        self._run = 0
        out = self._out
        n = len(out)
        p = (self._player + 1) % n
        while out[p]:
            p = (p + 1) % n
        self._player = p


class IdiotObservation:
    """What one seat may know, read from the live state (build cost O(1)).

    Own hand and face-up row, everyone's face-up rows, counts of hidden cards, the pile,
    the stock and burned counts. Face-down cards are never exposed, not even one's own:
    only the slots that still hold a card. Valid until the next ``apply``.
    """

    __slots__ = ("_state", "seat")

    def __init__(self, state: IdiotState, seat: int) -> None:
        self._state = state
        self.seat = seat

    @property
    def num_players(self) -> int:
        return self._state.game.num_players

    @property
    def ranks(self) -> tuple[int, ...]:
        """Public: the rank of every card index (ace 14)."""
        return self._state._ranks

    @property
    def phase(self) -> str:
        return PHASE_NAMES[self._state._phase]

    @property
    def current_player(self) -> int:
        return self._state._player

    @property
    def hand(self) -> tuple[int, ...]:
        return tuple(self._state._hands[self.seat])

    @property
    def face_up(self) -> tuple[int, ...]:
        return tuple(self._state._up[self.seat])

    @property
    def face_up_rows(self) -> tuple[tuple[int, ...], ...]:
        return tuple(tuple(row) for row in self._state._up)

    @property
    def face_down_slots(self) -> tuple[int, ...]:
        """Own face-down slots that still hold a card (positions only)."""
        return tuple(slot for slot, c in enumerate(self._state._down[self.seat]) if c >= 0)

    @property
    def face_down_counts(self) -> tuple[int, ...]:
        return tuple(self._state._down_left)

    @property
    def hand_counts(self) -> tuple[int, ...]:
        return tuple(len(hand) for hand in self._state._hands)

    @property
    def pile(self) -> tuple[int, ...]:
        return tuple(self._state._pile)

    @property
    def pile_size(self) -> int:
        return len(self._state._pile)

    @property
    def need(self) -> int:
        """The lowest ordinary rank that may be played now (0: anything)."""
        return self._state._need

    @property
    def run_rank(self) -> int:
        """In a run (variant ``sequences``), the rank that continues it; else 0."""
        return self._state._run

    @property
    def stock_count(self) -> int:
        return len(self._state._stock)

    @property
    def burned_count(self) -> int:
        return len(self._state._burned)

    @property
    def out(self) -> tuple[int, ...]:
        """Seats that went out, first out first."""
        return tuple(self._state._order)

    def describe(self) -> list[str]:
        """The view in words, for a person at the terminal."""
        state = self._state
        describe = state.game.table.describe
        ranks = state._ranks

        def cards(seq: Sequence[int]) -> str:
            ordered = sorted(seq, key=state.game.sort_key.__getitem__)
            return ", ".join(f"{rank_name(ranks[c])} {describe(c)}" for c in ordered) or "-"

        lines = [f"You are seat {self.seat + 1}. Phase: {self.phase}."]  # people count from 1
        pile = state._pile
        if pile:
            top = pile[-1]
            lines.append(
                f"Pile: {len(pile)} card(s), top {rank_name(ranks[top])} {describe(top)}"
                + (" (reset: anything goes)" if ranks[top] == TWO else "")
            )
        else:
            lines.append("Pile: empty (anything goes)")
        lines.append(f"Stock: {self.stock_count}   Burned: {self.burned_count}")
        for seat in range(self.num_players):
            who = "you" if seat == self.seat else f"seat {seat + 1}"
            status = " (out)" if state._out[seat] else ""
            lines.append(
                f"  {who}{status}: hand {len(state._hands[seat])}, "
                f"face-down {state._down_left[seat]}, face-up {cards(state._up[seat])}"
            )
        lines.append(f"Your hand: {cards(state._hands[self.seat])}")
        if self.run_rank:
            lines.append(f"Run: you may continue with a {rank_name(self.run_rank)}")
        return lines


GAME = IdiotGame
