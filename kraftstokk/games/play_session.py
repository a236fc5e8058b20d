"""A person against bots at the terminal, for any game of the registry.

Generic over the State API: the person's view is their seat's observation rendered by
its game's narration (``Narrator.view``), the moves come from ``legal_actions`` told by
``Narrator.move``, and what happens is told once, as it happens, by the events each
action records (``State.events``), in any language there is (``locales/<code>/``: the
table's words in ``events.toml``, this session's own in ``cli.toml``). The game can be saved as a
replay log, continued later, or printed as the story of the game (:func:`tell_replay`).
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

from kraftstokk import locales
from kraftstokk.errors import GameError
from kraftstokk.games.core import Action, Bot, DeckTable, Game, Redeal, State, derive_seed
from kraftstokk.games.events import Event
from kraftstokk.games.narration import Narrator, say_cli
from kraftstokk.games.observation import Observation
from kraftstokk.games.packages import choices
from kraftstokk.games.replay import (
    check_result,
    game_from_log,
    load_replay,
    log_deck,
    make_replay,
    save_replay,
)
from kraftstokk.games.runner import replay
from kraftstokk.models import Deck

PERSON = "person"

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
    game: str | None
    players: int = 4
    deck: Path = Path("output/deck.json")
    seat: int = 0
    bots: str | None = None  # None: the game's default bot (its spec's) in every other seat
    seed: int | None = None
    variants: list[str] = field(default_factory=list)
    load: Path | None = None
    save: Path | None = None
    lang: str = "en"


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
    redeals: list[Redeal] = field(default_factory=list)  # a log's, kept when saved again


def check_language(lang: str) -> None:
    languages = locales.languages()
    if lang not in languages:
        raise GameError(f"--lang {lang}: unknown language (choose from {', '.join(languages)})")


def run_session(setup: PlaySetup, echo: Echo = print, ask: Ask = ask_terminal) -> State:
    """Play until the game ends or the input does; returns the last state."""
    check_language(setup.lang)
    table = _load_table(setup) if setup.load else _new_table(setup)
    game = table.game
    lang = setup.lang
    teller = Narrator(
        game.table,
        lang,
        viewer=table.seat,
        seat_names=_names(table.seat_names, lang),
        game=game.name,
    )
    echo(
        say_cli(
            lang,
            "play.header",
            game=game.name,
            players=game.num_players,
            seat=table.seat + 1,
            seed=table.seed,
            variants="some" if game.variants else "none",
            names=", ".join(sorted(game.variants)),
        )
    )
    state = table.state
    rngs = [random.Random(derive_seed(table.seed, s + 1)) for s in range(game.num_players)]
    if not table.actions:
        _tell(state.event_log(), teller, echo)  # what the deal itself made happen
    left = False
    while not state.is_terminal():
        player = state.current_player()
        legal = state.legal_actions()
        bot = table.bots[player]
        if bot is None:
            choice = _choose(state, player, legal, teller, echo, ask)
            if choice is None:
                left = True
                break
            action = choice
        else:
            action = bot.act(state.observation(player), legal, rngs[player])
        told = len(state.event_log())
        state.apply(action)
        table.actions.append(action)
        _tell(state.event_log()[told:], teller, echo)
    if left:
        echo(say_cli(lang, "play.left"))
    else:
        _show_result(state, echo, lang)
    if setup.save is not None:
        result = state.result() if state.is_terminal() else None
        log = make_replay(
            table.deck, game, table.seat_names, table.seed, table.actions, result, table.redeals
        )
        save_replay(setup.save, log)
        echo(say_cli(lang, "play.saved", path=setup.save))
    return state


def _tell(events: Sequence[Event], teller: Narrator, echo: Echo) -> None:
    for event in events:
        echo(teller.tell(event))


def _choose(
    state: State,
    player: int,
    legal: Sequence[Action],
    teller: Narrator,
    echo: Echo,
    ask: Ask,
) -> Action | None:
    lang = teller.lang
    echo("")
    for line in render_view(state.observation(player), state.game, lang):
        echo(line)
    echo(say_cli(lang, "play.moves"))
    for number, action in enumerate(legal, start=1):
        echo(f"  {number:>2}. {teller.move(state, action)}")
    hint = teller.typed_hint(state, legal)
    if hint:
        echo(hint)
    while True:
        raw = ask(say_cli(lang, "play.prompt", count=len(legal)))
        if not raw:
            return None  # end of input
        text = raw.strip().lower()
        if text in ("q", "quit", "exit"):
            return None
        if text.isdigit() and 1 <= int(text) <= len(legal):
            return legal[int(text) - 1]
        typed = state.typed_action(text, legal)
        if typed is not None:
            return typed
        echo(say_cli(lang, "play.not_a_move", typed=raw.strip(), count=len(legal)))


def render_view(observation: Observation, game: Game, lang: str = "en") -> list[str]:
    """The observation in words, as its seat sees it."""
    return Narrator(game.table, lang, viewer=observation.seat, game=game.name).view(observation)


def _show_result(state: State, echo: Echo, lang: str) -> None:
    result = state.result()
    echo("")
    if not result.finished:
        echo(say_cli(lang, "play.unfinished", actions=result.actions))
        return
    echo(say_cli(lang, "play.over", actions=result.actions, rounds=result.rounds))


def tell_replay(path: Path, lang: str = "en", echo: Echo = print) -> State:
    """Print a saved game as its story: each action and what it made happen.

    Told to nobody in particular, so every card is named (the game is over, or it is
    one's own log).
    """
    check_language(lang)
    source = str(path)
    log = load_replay(path)
    _check_available(log.rules.game)
    game = game_from_log(log, source)
    teller = Narrator(game.table, lang, seat_names=_names(log.bots, lang), game=game.name)
    bots = ", ".join(f"{seat}: {name}" for seat, name in enumerate(log.bots))
    echo(
        say_cli(
            lang,
            "replay.header",
            game=game.name,
            players=game.num_players,
            bots=bots,
            seed=log.seed,
        )
    )
    state = game.new_initial_state(random.Random(log.seed))
    for line in _story_lines(state.event_log(), teller):
        echo(line)
    redeals = dict(log.redeals)
    for number, raw in enumerate(log.actions, start=1):
        action = tuple(raw)
        if number - 1 in redeals:  # the browser dealt the unseen cards again here
            state.redeal_unseen(random.Random(redeals[number - 1]))
        if state.is_terminal() or not state.is_legal(action):
            raise GameError(f"{source}: action {number} {list(action)} is not legal here")
        who = teller.seat(state.current_player())
        words = teller.move(state, action)
        told = len(state.event_log())
        state.apply(action)
        echo(f"{number:>4}. {who[0].upper()}{who[1:]}: {words}")
        for line in _story_lines(state.event_log()[told:], teller):
            echo(line)
    if not state.is_terminal():
        echo(say_cli(lang, "replay.not_finished"))
    return state


def _story_lines(events: Sequence[Event], teller: Narrator) -> list[str]:
    return [f"        {teller.tell(event)}" for event in events]


def _names(bots: Sequence[str], lang: str) -> tuple[str, ...]:
    """'seat 2 (greedy)' per seat, so the story says which bot did what."""
    return tuple(
        say_cli(lang, "play.bot_seat", number=seat, bot=name)
        for seat, name in enumerate(bots, start=1)
    )


def _check_available(name: str) -> None:
    from kraftstokk.games.registry import specs

    spec = specs().get(name)
    if spec is None:
        known = ", ".join(specs())
        raise GameError(f"unknown game {name!r} (choose from {known})")
    if importlib.util.find_spec(spec.game_module) is None:
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
    from kraftstokk.games.registry import game_names, get_spec, make_game

    if not setup.game:
        raise GameError(f"--game is required ({choices(game_names())}) unless --load")
    _check_available(setup.game)
    from kraftstokk.deck.io import load_valid_deck

    deck = load_valid_deck(setup.deck)
    game = make_game(setup.game, DeckTable.from_deck(deck), setup.players, setup.variants)
    kinds = setup.bots if setup.bots is not None else get_spec(setup.game).default_bot
    names = seat_specs(kinds, game.num_players, setup.seat)
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
        state = replay(game, log.seed, log.actions, redeals=log.redeals)
    except GameError as exc:
        raise GameError(f"{source}: {exc.message}") from None
    check_result(log, state, source)
    actions: list[Action] = [tuple(a) for a in log.actions]
    deck = log_deck(log, source)
    return Table(deck, game, log.seed, seat, names, bots, state, actions, list(log.redeals))
