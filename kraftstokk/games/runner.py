"""Playing a game through: one game with a bot per seat to its end (:func:`play_game`),
a recorded game again (:func:`replay`), and what a played game leaves (:class:`GameRecord`).

The runner stands over the State API (``games/core.py``) and the native cores
(``games/fastcore.py``): :func:`play_game` hands a game to its game's core where the
core can play it with those bots, and to the Python engine otherwise; both give the same
record.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from kraftstokk.errors import GameError
from kraftstokk.games.core import (
    Action,
    Bot,
    Game,
    LazyRandom,
    Redeal,
    Result,
    State,
    derive_seed,
)
from kraftstokk.games.events import Event
from kraftstokk.games.fastcore import MAX_SEED, NativeRun, native_core
from kraftstokk.games.playability import Meter
from kraftstokk.games.stats import Stats


class GameRecord:
    """A played game: its actions, how it ended, its events and their counters.

    A game a native core played (``games/fastcore.py``) comes with its game instead of
    its rules and events: ``rules`` asks the game, and ``events`` replays the actions
    through the Python engine, once, when first read.
    """

    __slots__ = ("_events", "_game", "_rules", "actions", "loser_cards", "result", "seed", "stats")

    def __init__(
        self,
        rules: dict[str, Any] | None,
        seed: int,
        actions: list[Action],
        result: Result,
        stats: Stats,
        loser_cards: list[int],
        events: Sequence[Event] | None = None,
        *,
        game: Game | None = None,
    ) -> None:
        if game is None and rules is None:
            raise GameError("a game record needs its rules or its game")
        self._rules = rules
        self.seed = seed
        self.actions = actions
        self.result = result
        self.stats = stats
        self.loser_cards = loser_cards
        self._events = events if events is not None or game is not None else ()
        self._game = game

    @property
    def rules(self) -> dict[str, Any]:
        if self._rules is None:
            if self._game is None:
                raise GameError("a game record without its rules or its game")
            self._rules = self._game.rules()
        return self._rules

    @property
    def events(self) -> Sequence[Event]:
        if self._events is None:
            if self._game is None:
                raise GameError("a native game record without its game cannot replay its events")
            self._events = replay(self._game, self.seed, self.actions).event_log()
        return self._events

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, GameRecord):
            return NotImplemented
        fields = ("rules", "seed", "actions", "result", "stats", "loser_cards")
        same = all(getattr(self, name) == getattr(other, name) for name in fields)
        return same and list(self.events) == list(other.events)

    def __repr__(self) -> str:
        return (
            f"GameRecord(seed={self.seed}, actions={len(self.actions)}, "
            f"result={self.result!r}, stats={self.stats!r})"
        )


def play_game(
    game: Game, bots: Sequence[Bot], seed: int, *, debug: bool = False, native: bool = True
) -> GameRecord:
    """Play one game to the end (or the action cap) with one bot per seat.

    Where the game has a native core for these bots (``games/fastcore.py``), it plays
    the game, unless ``native`` is False or ``debug`` (which checks the invariants after
    every action of the Python engine) is set; the game is the same either way.
    """
    if len(bots) != game.num_players:
        raise GameError(f"{game.name} with {game.num_players} players needs as many bots")
    if native and not debug and 0 <= seed <= MAX_SEED:
        core = native_core(game, bots)
        if core is not None:
            return native_record(game, seed, core.play(seed))
    state = game.new_initial_state(random.Random(seed))
    bot_rngs = [LazyRandom(derive_seed(seed, seat + 1)) for seat in range(game.num_players)]
    actions: list[Action] = []
    # The figures of play (games/playability.py), measured as the game is played.
    meter = Meter(game.num_players, game.objective == "not_loser")
    meter.moved(state, 0)
    if debug:
        state.check_invariants()
        while not state.is_terminal():
            seat = state.current_player()
            legal = state.legal_actions()
            meter.decision(state.distinct_moves(), state.answering(), seat)
            action = bots[seat].act(state.observation(seat), legal, bot_rngs[seat])
            state.apply(action)
            actions.append(action)
            meter.moved(state, len(actions))
            state.check_invariants()
    else:
        state.play_out(bots, bot_rngs, actions, meter)
    result = state.result()
    loser_cards = state.remaining_cards(result.loser) if result.loser is not None else []
    stats = state.final_stats()
    stats.playability = meter.figures(
        result.finished, result.order, result.loser, result.actions, stats.cards_played
    )
    stats.branching = meter.branching()
    return GameRecord(
        game.rules(),
        seed,
        actions,
        result,
        stats,
        loser_cards,
        state.event_log(),
    )


def native_record(game: Game, seed: int, run: NativeRun) -> GameRecord:
    """The record of a game a native core played (``games/fastcore.py``): its rules are
    asked of the game, and its events replayed by the Python engine, only when read."""
    (
        actions,
        finished,
        order,
        loser,
        rounds,
        counters,
        samples,
        cards_played,
        loser_cards,
        playability,
        branching,
    ) = run
    return GameRecord(
        None,
        seed,
        actions,
        Result(finished, order, loser, len(actions), rounds),
        Stats(counters, samples, cards_played, playability, branching),
        loser_cards,
        game=game,
    )


def replay(
    game: Game,
    seed: int,
    actions: Sequence[Sequence[int]],
    *,
    debug: bool = False,
    redeals: Sequence[Redeal] = (),
) -> State:
    """Apply a recorded action list to a fresh game with the same seed (and its unseen
    cards dealt again where ``redeals`` say)."""
    state = game.new_initial_state(random.Random(seed))
    pending = sorted(redeals)
    if pending and not 0 <= pending[-1][0] <= len(actions):
        raise GameError(f"replay: a redeal after action {pending[-1][0]}, not one of the game's")
    for number, action in enumerate(actions, start=1):
        while pending and pending[0][0] == number - 1:
            state.redeal_unseen(random.Random(pending.pop(0)[1]))
        if state.is_terminal():
            raise GameError(f"replay: action {number} comes after the game ended")
        move = tuple(action)
        if not state.is_legal(move):
            raise GameError(f"replay: action {number} {list(move)} is not legal here")
        state.apply(move)
        if debug:
            state.check_invariants()
    for _, redeal_seed in pending:
        state.redeal_unseen(random.Random(redeal_seed))
    return state


def run_of(record: GameRecord) -> NativeRun:
    """A played game as a :data:`~kraftstokk.games.fastcore.NativeRun`: what a core's
    ``play`` must return for it (the inverse of :func:`native_record`), to compare a core
    with the Python engine."""
    result, stats = record.result, record.stats
    return (
        record.actions,
        result.finished,
        result.order,
        result.loser,
        result.rounds,
        stats.counters,
        stats.samples,
        stats.cards_played,
        record.loser_cards,
        stats.playability,
        stats.branching,
    )
