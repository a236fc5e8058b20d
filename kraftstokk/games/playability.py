"""What a game's play says about choice and drama: measured as it is played, per game.

Compiled with the games (``native.FRAMEWORK``). ``play_game`` hands a :class:`Meter` to
the state's ``play_out`` loop, which tells it of every decision (how many distinct moves
the seat had, and whether it answered out of turn) and of every position after an action
(each seat's progress, the game's own measure: ``State.progress``). The native cores
count exactly the same in C (``_csrc/ks_playability.h``, written after this module), so
a game gives the same figures whichever engine played it; ``tests/test_games_fastcore.py``
compares them game by game.

The figures of one game (:data:`FIGURES`, in this order; ``kraftstokk/sim/playability.py``
turns the sums over a run into the report's metrics, and ``docs/metrics.md`` has every
formula):

``choices``
    decisions with at least two distinct moves (a real choice);
``options``
    the distinct moves of those decisions, added up (their mean is the branching factor);
``answers``
    decisions out of turn: answering another seat's claim or call (Kraftidioten's
    challenge, Strømkrig's join-the-war), which a table answers at once;
``answer_choices``
    those of the answers that were a real choice;
``lead_changes``
    how often the lead passed from one seat to another at a round end (see below);
``comeback``
    1 when the seat whose result the game is about (the winner; in a game played not to
    be the loser, the loser) was behind at a round end: the winner had been strictly
    behind the leader, or the loser had been strictly ahead of the seat then last;
``settled``
    the action after which the lead never changed again: the round end from which the
    last leader kept the lead (0: no seat was ever alone on top at a round end);
``decided``
    the action at which the result was decided: the winner went out (the last action in
    a game played not to be the loser);
``cards_laid``
    the cards played, every card counted (``Stats.cards_played`` added up).

The lead is compared only where the seats' standings are comparable: at the end of
each round, when every seat still in has had its turn since the last comparison (in the
middle of a round the seats that have not yet played look behind by the cards the others
have laid, which says nothing about the game). A seat's turn is its decisions in its own
right, one after another (an answer out of turn is no turn); a round ends as a seat
begins a turn when it has had one since the last comparison, and the position it begins
from is compared (the deal and the end of the game are not round ends). There each
seat's standing is its progress (its negative in a game played not to be the loser, so
that the "leader" is the seat heading for last place). The seat whose standing is above
every other seat's leads; on a tie for the top the lead stays where it was (no one has
passed the leader), and while no seat has been alone on top there is no leader.
A lead change is a new seat alone on top after another
had led. Moves are distinct when the player can tell their outcomes apart: moves that
differ only in cards the rules treat alike (two 7s in Idiot, two jokers) or in which of
the seat's unseen cards is turned lead to the same position as far as anyone can tell,
and count once (each game's ``State.distinct_moves``).
"""

from __future__ import annotations

from array import array
from collections.abc import Sequence
from typing import Final, Protocol

#: The figures of one game, in the order a :class:`Meter` (and a core) gives them.
FIGURES: Final[tuple[str, ...]] = (
    "choices",
    "options",
    "answers",
    "answer_choices",
    "lead_changes",
    "comeback",
    "settled",
    "decided",
    "cards_laid",
)


class Measured(Protocol):
    """What a meter reads of a position (``core.State`` has it)."""

    def progress(self, seat: int) -> int: ...

    def seats_out(self) -> int: ...


class Meter:
    """One game's choice and drama, counted decision by decision (see the module)."""

    __slots__ = (
        "_actions",
        "_answer_choices",
        "_answers",
        "_behind",
        "_branching",
        "_decided",
        "_had_turn",
        "_lead_changes",
        "_leader",
        "_loser_stake",
        "_players",
        "_settled",
        "_standing",
        "_turn_seat",
    )

    def __init__(self, players: int, loser_stake: bool) -> None:
        self._players = players
        self._loser_stake = loser_stake
        self._answers = 0
        self._answer_choices = 0
        self._lead_changes = 0
        self._leader = -1
        self._settled = 0
        self._decided = -1
        self._behind = [False] * players
        self._standing = [0] * players
        #: The actions behind the position measured last.
        self._actions = 0
        #: Which seats have had a turn since the last comparison, and whose turn it is.
        self._had_turn = [False] * players
        self._turn_seat = -1
        #: Per count of distinct moves, how many decisions with a real choice had it.
        self._branching: list[int] = []

    def decision(self, distinct: int, answer: bool, seat: int) -> None:
        """``seat`` is to act with ``distinct`` distinct moves; ``answer``: out of turn.
        (The choices and their options are the branching counts added up, at the end.)"""
        if answer:
            self._answers += 1
        elif seat != self._turn_seat:
            self._turn(seat)
        if distinct < 2:
            return
        if answer:
            self._answer_choices += 1
        branching = self._branching
        if distinct >= len(branching):
            branching.extend([0] * (distinct + 1 - len(branching)))
        branching[distinct] += 1

    def _turn(self, seat: int) -> None:
        """``seat`` begins a turn: a round has ended if it has had one since the last
        comparison, and the position measured last is compared."""
        self._turn_seat = seat
        had_turn = self._had_turn
        if had_turn[seat]:
            self._compare()
            for other in range(self._players):
                had_turn[other] = False
        had_turn[seat] = True

    def _compare(self) -> None:
        """The standings at a round end: who is behind, and whether the lead changed."""
        standing = self._standing
        best = 0
        on_top = 0
        top = -1
        for seat in range(self._players):
            value = standing[seat]
            if top < 0 or value > best:
                best, on_top, top = value, 1, seat
            elif value == best:
                on_top += 1
        behind = self._behind
        for seat in range(self._players):
            if standing[seat] < best:
                behind[seat] = True
        if on_top == 1 and top != self._leader:
            if self._leader >= 0:
                self._lead_changes += 1
            self._leader = top
            self._settled = self._actions

    def moved(self, state: Measured, actions: int) -> None:
        """The position after ``actions`` actions (0: as dealt)."""
        standing = self._standing
        sign = -1 if self._loser_stake else 1
        for seat in range(self._players):
            standing[seat] = sign * state.progress(seat)
        self._actions = actions
        if self._decided < 0 and not self._loser_stake and state.seats_out() > 0:
            self._decided = actions

    def figures(
        self,
        finished: bool,
        order: Sequence[int],
        loser: int | None,
        actions: int,
        cards_played: Sequence[int],
    ) -> list[int]:
        """The game's :data:`FIGURES` once it has ended (or the action cap stopped it)."""
        if self._loser_stake:
            target = loser if finished and loser is not None else -1
            decided = actions if finished else 0
        else:
            target = order[0] if order else -1
            decided = max(self._decided, 0)
        comeback = 1 if finished and target >= 0 and self._behind[target] else 0
        branching = self._branching
        return [
            sum(branching),
            sum(distinct * count for distinct, count in enumerate(branching)),
            self._answers,
            self._answer_choices,
            self._lead_changes,
            comeback,
            self._settled,
            decided,
            sum(cards_played),
        ]

    def branching(self) -> bytes:
        """The decisions with a real choice by their count of distinct moves: a pair
        (distinct moves, decisions) per count that occurred, rising, as the bytes of an
        ``array("q")`` (native 64-bit integers: a core makes them without a Python number
        per entry); empty when no decision was a real choice."""
        pairs = array("q")
        for distinct, count in enumerate(self._branching):
            if count:
                pairs.extend((distinct, count))
        return pairs.tobytes()
