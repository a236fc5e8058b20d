"""A person against bots at the terminal, for any game of the registry.

Generic over the State API: the person's view comes from the observation (its
``describe()`` when it has one, else its public attributes), the moves from
``legal_actions`` and ``action_to_string``. The game can be saved as a replay log and
continued later.
"""

from __future__ import annotations

import importlib.util
import random
import secrets
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kraftstokk.errors import GameError
from kraftstokk.games.core import Action, Bot, DeckTable, Game, State, derive_seed, replay
from kraftstokk.games.replay import (
    check_result,
    game_from_log,
    load_replay,
    log_deck,
    make_replay,
    save_replay,
)
from kraftstokk.models import Deck

PERSON = "person"
RECENT = 12  # moves shown again before the person's turn

Echo = Callable[[str], Any]
Ask = Callable[[str], str]  # shows a prompt, returns the line typed ('' at end of input)


def ask_terminal(prompt: str) -> str:
    """Prompt on stdout and read a line from stdin; piped input is echoed for the log."""
    sys.stdout.write(prompt)
    sys.stdout.flush()
    line = sys.stdin.readline()
    if not sys.stdin.isatty():
        sys.stdout.write(line if line.endswith("\n") else line + "\n")
    return line


@dataclass
class PlaySetup:
    """What ``play`` was asked for; ``seat`` counts from 0 (people read seat + 1)."""

    game: str | None
    players: int = 4
    deck: Path = Path("output/deck.json")
    seat: int = 0
    bots: str = "heuristic"
    seed: int | None = None
    variants: list[str] = field(default_factory=list)
    load: Path | None = None
    save: Path | None = None


@dataclass
class Table:
    """A game in progress: the state and who sits where."""

    deck: Deck
    game: Game
    seed: int
    seat: int
    seat_names: list[str]  # bot spec per seat, PERSON for the person
    bots: list[Bot | None]
    state: State
    actions: list[Action]


def run_session(setup: PlaySetup, echo: Echo = print, ask: Ask = ask_terminal) -> State:
    """Play until the game ends or the input does; returns the last state."""
    table = _load_table(setup) if setup.load else _new_table(setup)
    game = table.game
    echo(
        f"{game.name}: {game.num_players} players, you are seat {table.seat + 1}, "
        f"seed {table.seed}"
        + (f", variants {', '.join(sorted(game.variants))}" if game.variants else "")
    )
    state = table.state
    rngs = [random.Random(derive_seed(table.seed, s + 1)) for s in range(game.num_players)]
    recent: list[str] = []
    left = False
    while not state.is_terminal():
        player = state.current_player()
        legal = state.legal_actions()
        bot = table.bots[player]
        if bot is None:
            choice = _choose(state, player, legal, recent, echo, ask)
            if choice is None:
                left = True
                break
            action = legal[choice]
            who = "You"
        else:
            action = bot.act(state.observation(player), legal, rngs[player])
            who = f"Seat {player + 1} ({table.seat_names[player]})"
        # A bot's face-down card must stay hidden from the person at the table.
        words = (
            state.action_to_string(action) if bot is None else state.public_action_string(action)
        )
        state.apply(action)
        table.actions.append(action)
        outcome = getattr(state, "outcome_text", None)
        revealed = outcome() if callable(outcome) else None
        if not words and not revealed:
            continue
        line = f"{who}: {words}" if words else f"{who}:"
        if revealed:
            line += f" -> {revealed}"
        echo(line)
        recent.append(line)
        del recent[:-RECENT]
    if left:
        echo("Game left unfinished.")
    else:
        _show_result(state, table, echo)
    if setup.save is not None:
        result = state.result() if state.is_terminal() else None
        log = make_replay(table.deck, game, table.seat_names, table.seed, table.actions, result)
        save_replay(setup.save, log)
        echo(f"Saved the game to {setup.save} (continue with --load {setup.save}).")
    return state


def _choose(
    state: State,
    player: int,
    legal: Sequence[Action],
    recent: list[str],
    echo: Echo,
    ask: Ask,
) -> int | None:
    echo("")
    if recent:
        echo("Recent moves:")
        for line in recent:
            echo(f"  {line}")
        recent.clear()
    for line in render_view(state.observation(player), state.game.table):
        echo(line)
    echo("Your moves:")
    for number, action in enumerate(legal, start=1):
        echo(f"  {number:>2}. {state.action_to_string(action)}")
    while True:
        raw = ask(f"Your move (1-{len(legal)}, q to quit): ")
        if not raw:
            return None  # end of input
        text = raw.strip().lower()
        if text in ("q", "quit", "exit"):
            return None
        if text.isdigit() and 1 <= int(text) <= len(legal):
            return int(text) - 1
        echo(f"'{raw.strip()}' is not a move: type a number from 1 to {len(legal)}.")


CARD_ENDINGS = ("hand", "pile", "cards", "card", "top", "beside", "burned", "shown", "seen", "up")
NOT_CARDS = ("count", "size", "owner", "player", "category", "seat")
PLAIN = (int, float, str, bool, list, tuple, dict, type(None))


def render_view(observation: Any, table: DeckTable) -> list[str]:
    """The observation in words: its ``describe()``, or its public plain attributes."""
    describe = getattr(observation, "describe", None)
    if callable(describe):
        return [str(line) for line in describe()]
    lines = []
    for name in sorted(dir(observation)):
        if name.startswith("_"):
            continue
        try:
            value = getattr(observation, name)
        except Exception:  # a property that does not apply at this moment
            continue
        if callable(value) or not isinstance(value, PLAIN):
            continue
        lines.append(f"{name.replace('_', ' ')}: {_format_value(name, value, table)}")
    return lines


def _is_card(value: Any, table: DeckTable) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and -1 <= value < table.size


def _format_value(name: str, value: Any, table: DeckTable) -> str:
    cardish = name.endswith(CARD_ENDINGS) and not any(word in name for word in NOT_CARDS)
    if cardish and _is_card(value, table):
        return table.describe(value) if value >= 0 else "-"
    if cardish and isinstance(value, list | tuple) and all(_is_card(v, table) for v in value):
        return ", ".join(table.describe(v) for v in value if v >= 0) or "-"
    return str(value)


def _show_result(state: State, table: Table, echo: Echo) -> None:
    result = state.result()
    echo("")
    if not result.finished:
        echo(f"The game stopped at the action cap ({result.actions} actions), unfinished.")
        return

    def name(seat: int) -> str:
        return "you" if seat == table.seat else f"seat {seat + 1} ({table.seat_names[seat]})"

    order = ", ".join(f"{place}. {name(s)}" for place, s in enumerate(result.order, start=1))
    echo(f"Game over after {result.actions} actions ({result.rounds} rounds).")
    echo(f"Out in this order: {order}")
    if result.loser is not None:
        echo(f"Last with cards (the loser): {name(result.loser)}")


def _check_available(name: str) -> None:
    from kraftstokk.games.registry import GAME_MODULES

    module = GAME_MODULES.get(name)
    if module is None:
        known = ", ".join(GAME_MODULES)
        raise GameError(f"unknown game {name!r} (choose from {known})")
    if importlib.util.find_spec(module) is None:
        raise GameError(f"{name} is not available in this version of kraftstokk")


def seat_specs(spec: str, players: int, seat: int) -> list[str]:
    """One bot spec per seat, PERSON at ``seat``; ``spec`` names all or only the bots."""
    if not 0 <= seat < players:
        raise GameError(f"--seat {seat + 1} is not a seat of a {players}-player game (1-{players})")
    parts = [part.strip() for part in spec.split(",") if part.strip()]
    if not parts:
        raise GameError("--bots is empty")
    if len(parts) == 1:
        parts = parts * (players - 1)
    if len(parts) == players - 1:
        parts.insert(seat, PERSON)
    elif len(parts) == players:
        parts[seat] = PERSON
    else:
        raise GameError(
            f"--bots names {len(parts)} bots; give one kind, or {players - 1} "
            f"(the other seats), or {players} (one per seat)"
        )
    return parts


def _make_bots(game: Game, names: list[str]) -> list[Bot | None]:
    from kraftstokk.games.registry import make_bots

    stand_in = [("random" if name == PERSON else name) for name in names]
    made = make_bots(game, ",".join(stand_in))
    return [None if name == PERSON else bot for name, bot in zip(names, made, strict=True)]


def _new_table(setup: PlaySetup) -> Table:
    from kraftstokk.deck.io import load_valid_deck
    from kraftstokk.games.registry import make_game

    if not setup.game:
        raise GameError("--game is required (idiot, kraftidioten or stromkrig) unless --load")
    _check_available(setup.game)
    deck = load_valid_deck(setup.deck)
    game = make_game(setup.game, DeckTable.from_deck(deck), setup.players, setup.variants)
    names = seat_specs(setup.bots, game.num_players, setup.seat)
    bots = _make_bots(game, names)
    seed = setup.seed if setup.seed is not None else secrets.randbelow(2**31)
    state = game.new_initial_state(random.Random(seed))
    return Table(deck, game, seed, setup.seat, names, bots, state, [])


def _load_table(setup: PlaySetup) -> Table:
    assert setup.load is not None
    source = str(setup.load)
    log = load_replay(setup.load)
    _check_available(log.rules.game)
    if setup.game and setup.game != log.rules.game:
        raise GameError(f"{source}: is a game of {log.rules.game}, not {setup.game}")
    game = game_from_log(log, source)
    if len(log.bots) != game.num_players:
        raise GameError(f"{source}: names {len(log.bots)} seats for {game.num_players} players")
    names = list(log.bots)
    seat = names.index(PERSON) if PERSON in names else setup.seat
    if not 0 <= seat < game.num_players:
        raise GameError(
            f"--seat {seat + 1} is not a seat of this {game.num_players}-player game "
            f"(1-{game.num_players})"
        )
    names[seat] = PERSON
    bots = _make_bots(game, names)
    try:
        state = replay(game, log.seed, log.actions)
    except GameError as exc:
        raise GameError(f"{source}: {exc.message}") from None
    check_result(log, state, source)
    actions: list[Action] = [tuple(a) for a in log.actions]
    return Table(log_deck(log, source), game, log.seed, seat, names, bots, state, actions)
