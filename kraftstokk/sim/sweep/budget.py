"""What a sweep would cost, measured before it starts, and the limits it must keep.

Before any configuration is checked or any worker started, the sweep file's
configurations and comparisons are counted (a grid of ten thousand is counted, not
listed), a few games of each game, player count and bot line-up are played here to
measure what a game costs (CPU seconds, and bytes in the chunk store), and the whole
sweep is estimated from those: games, time on the workers, comparisons, bytes stored.
A sweep over any of its :class:`Limits` is refused with all of these figures, in a few
seconds, whatever its size; one within them starts with the estimate printed.
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import time
from dataclasses import dataclass
from statistics import fmean

from kraftstokk.errors import KraftstokkError
from kraftstokk.games.core import Game
from kraftstokk.sim.progress import format_duration
from kraftstokk.sim.runner import (
    SimSettings,
    build_game,
    check_settings,
    default_bots,
    play_chunk,
)
from kraftstokk.sim.stream import RunStats
from kraftstokk.sim.sweep.grid import LoadedDeck, configuration_count, estimated_comparisons
from kraftstokk.sim.sweep.model import SweepFile, SweepValidationError
from kraftstokk.sim.tally import Tally

#: A probe plays games until it has used this much CPU time, or played PROBE_GAMES.
PROBE_SECONDS = 0.05
PROBE_GAMES = 40
#: ... and at least this many.
MIN_GAMES = 4
#: All probes together stop after this many seconds; the rest are estimated from them.
PROBE_BUDGET = 1.5
#: A kind of game whose MIN_GAMES games would take more than PROBE_SECONDS (an expert bot
#: thinks for milliseconds a move) is not played whole: a first game is played for this
#: many actions to learn what an action costs, then for as many more as fit in
#: PROBE_SECONDS (at most PROBE_ACTIONS); the length of a game is learnt from the game's
#: default bots, which play in microseconds.
FIRST_ACTIONS = 2
PROBE_ACTIONS = 40
#: Outputs besides the chunks: a configuration's sim-GAME.json and a comparison's metrics.
SUMMARY_BYTES = 30_000
COMPARISON_BYTES = 8_000


@dataclass(frozen=True)
class Limits:
    """What a sweep may do unless the person raises it (``--max-*`` options)."""

    configurations: int = 1_000
    comparisons: int = 5_000
    stored_mb: int = 2_000


@dataclass(frozen=True)
class Cost:
    """One game of a kind, measured: CPU seconds to play and reduce it, bytes to store it."""

    seconds: float
    stored_bytes: float


ProbeKey = tuple[str, int, str]  # game, players, bots (resolved)


def probe(deck: LoadedDeck, settings: SimSettings, chunk: int) -> Cost:
    """What a game of ``settings`` costs: its first games played here until PROBE_SECONDS
    of CPU or PROBE_GAMES games (stored as chunks of ``chunk`` games). A kind whose whole
    games would take longer (expert bots) is not played whole: a few of its actions are,
    times the length of a game as the game's default bots play it."""
    game = check_settings(deck.table, settings)
    stand_in = dataclasses.replace(settings, bots=default_bots(settings.game))
    if stand_in.bots == settings.bots:
        played = _whole_games(deck, settings, game, chunk)
        return Cost(played.seconds, played.stored_bytes)
    length = _whole_games(deck, stand_in, check_settings(deck.table, stand_in), chunk)
    started = time.process_time()
    first = _capped(deck, settings, FIRST_ACTIONS)
    per_action = (time.process_time() - started) / max(1, first.actions[0])
    if per_action * length.actions * MIN_GAMES <= PROBE_SECONDS:  # whole games are cheap
        played = _whole_games(deck, settings, game, chunk)
        return Cost(played.seconds, played.stored_bytes)
    room = max(FIRST_ACTIONS, min(PROBE_ACTIONS, round(PROBE_SECONDS / per_action)))
    if room > FIRST_ACTIONS:
        started = time.process_time()
        more = _capped(deck, settings, room)
        per_action = (time.process_time() - started) / max(1, more.actions[0])
    return Cost(per_action * length.actions, length.stored_bytes)


def _capped(deck: LoadedDeck, settings: SimSettings, actions: int) -> Tally:
    """The first game of ``settings`` played for at most ``actions`` actions."""
    capped = dataclasses.replace(settings, action_cap=min(settings.action_cap, actions))
    return play_chunk(deck.table, capped, build_game(deck.table, capped), 0, 1)


@dataclass(frozen=True)
class _Played:
    seconds: float
    stored_bytes: float
    #: Actions a game takes, on average.
    actions: float


def _whole_games(deck: LoadedDeck, settings: SimSettings, game: Game, chunk: int) -> _Played:
    from kraftstokk.sim.sweep.store import tally_to_json

    def stored(tally: Tally) -> int:
        return len(json.dumps(tally_to_json(tally), separators=(",", ":")))

    started = time.process_time()
    merged = Tally(num_cards=deck.table.size)
    first = 0
    while merged.games < PROBE_GAMES and (
        merged.games < MIN_GAMES or time.process_time() - started < PROBE_SECONDS
    ):
        tally = play_chunk(deck.table, settings, game, merged.games, merged.games + 2)
        RunStats.of_tally(tally, settings.players, settings.time_model, settings.game)
        first = first or stored(tally)
        merged.merge(tally)
    played = merged.games
    seconds = (time.process_time() - started) / played
    # A chunk file is a fixed part (names, card totals) and a part per game.
    per_game = max(0.0, (stored(merged) - first) / (played - 2))
    return _Played(
        seconds, per_game + max(0.0, first - 2 * per_game) / chunk, fmean(merged.actions)
    )


@dataclass(frozen=True)
class Estimate:
    """The whole sweep, before it starts."""

    configurations: int
    games: int  # still to play (stored chunks left out)
    comparisons: int
    cpu_seconds: float  # of play, on one core
    stored_bytes: float  # chunks still to store and every output
    workers: int | None  # None: a remote cluster, counted once it answers

    @property
    def seconds(self) -> float:
        return self.cpu_seconds / (self.workers or 1)

    @property
    def cost_per_game(self) -> float:
        return self.cpu_seconds / self.games if self.games else 0.0

    def duration(self) -> str:
        """``about 4 min 10 s on 2 workers at 0.52 ms a game (measured here)``."""
        per_game = f"at {1000 * self.cost_per_game:.2g} ms a game (measured here)"
        if self.workers is None:
            return f"about {format_duration(self.cpu_seconds)} of CPU {per_game}"
        plural = "s" if self.workers != 1 else ""
        return f"about {format_duration(self.seconds)} on {self.workers} worker{plural} {per_game}"

    def describe(self) -> str:
        return (
            f"{self.configurations:,} configurations, {self.games:,} games to play, "
            f"{self.duration()}; {self.comparisons:,} comparisons; about "
            f"{_size(self.stored_bytes)} to store"
        )


def _size(count: float) -> str:
    megabytes = count / 1e6
    return f"{megabytes / 1000:.1f} GB" if megabytes >= 1000 else f"{megabytes:.1f} MB"


def _probe_cells(sweep: SweepFile) -> list[tuple[ProbeKey, str, tuple[str, ...], int]]:
    """What to probe: per game, player count and bots of each grid block (with the
    block's first deck and variant set), the configurations named outright, and how many
    configurations each stands for."""
    found: list[tuple[ProbeKey, str, tuple[str, ...], int]] = []
    for grid in sweep.grid:
        alike = len(grid.decks) * len(grid.variants)
        for game, players, bots in itertools.product(grid.games, grid.players, grid.bots):
            name = game.lower()
            key = (name, players, bots)
            found.append((key, grid.decks[0].name, tuple(grid.variants[0]), alike))
    for entry in sweep.configurations:
        key = (entry.game.lower(), entry.players, entry.bots)
        found.append((key, entry.deck.name, tuple(entry.variants), 1))
    return found


def measure_costs(sweep: SweepFile, decks: dict[str, LoadedDeck]) -> dict[ProbeKey, Cost]:
    """A cost per kind of game the sweep plays, probed within PROBE_BUDGET seconds; the
    kinds left over cost what the probed ones of their game cost on average."""
    costs: dict[ProbeKey, Cost] = {}
    started = time.perf_counter()
    wanted = _probe_cells(sweep)
    for key, deck, variants, _ in wanted:
        if key in costs or time.perf_counter() - started > PROBE_BUDGET:
            continue
        game, players, bots = key
        settings = SimSettings(
            game=game,
            players=players,
            games=PROBE_GAMES,
            seed=sweep.seed,
            bots=bots,
            variants=tuple(sorted(variants)),
            action_cap=sweep.action_cap,
        )
        try:
            if bots == "default":
                settings = dataclasses.replace(settings, bots=default_bots(game))
            costs[key] = probe(decks[deck], settings, sweep.chunk)
        except KraftstokkError:
            continue  # planning the configurations names what is wrong with it
    if not costs:
        return {}
    for key, *_ in wanted:
        if key not in costs:
            same = [cost for (game, *_), cost in costs.items() if game == key[0]]
            pool = same or list(costs.values())
            costs[key] = Cost(fmean(c.seconds for c in pool), fmean(c.stored_bytes for c in pool))
    return costs


def estimate(
    sweep: SweepFile,
    costs: dict[ProbeKey, Cost],
    workers: int | None,
    stored_games: int = 0,
    comparisons: int | None = None,
) -> Estimate:
    """The sweep's size and cost from the measured ``costs`` (``stored_games``: games an
    earlier run stored already; ``comparisons``: the planned count, else an estimate)."""
    games = 0
    cpu = 0.0
    stored = 0.0
    for key, _, _, alike in _probe_cells(sweep):
        cost = costs.get(key, Cost(0.0, 0.0))
        games += alike * sweep.games
        cpu += alike * sweep.games * cost.seconds
        stored += alike * sweep.games * cost.stored_bytes
    share = (games - stored_games) / games if games else 0.0
    count = configuration_count(sweep)
    pairs = estimated_comparisons(sweep) if comparisons is None else comparisons
    outputs = count * SUMMARY_BYTES + pairs * COMPARISON_BYTES
    return Estimate(
        configurations=count,
        games=games - stored_games,
        comparisons=pairs,
        cpu_seconds=cpu * share,
        stored_bytes=stored * share + outputs,
        workers=workers,
    )


def check(found: Estimate, limits: Limits, source: str) -> None:
    """Refuse a sweep over any limit, in one line with every figure (exit 1)."""
    over = []
    if found.configurations > limits.configurations:
        over.append(
            f"{found.configurations:,} configurations (--max-configurations "
            f"{limits.configurations:,})"
        )
    if found.comparisons > limits.comparisons:
        over.append(
            f"about {found.comparisons:,} comparisons (--max-comparisons {limits.comparisons:,})"
        )
    if found.stored_bytes > limits.stored_mb * 1e6:
        over.append(
            f"about {_size(found.stored_bytes)} to store (--max-stored-mb {limits.stored_mb:,})"
        )
    if not over:
        return
    raise SweepValidationError(
        f"{source}: refused, over its limits: {'; '.join(over)}. It would play "
        f"{found.games:,} games, {found.duration()}; raise the limit"
        f"{'s' if len(over) > 1 else ''} named to run it, or make the grid smaller"
    )
