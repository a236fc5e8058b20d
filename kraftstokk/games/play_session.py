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
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

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


class Screen(Protocol):
    """Where the session is shown: lines one after the other (:class:`PlainScreen`, on a
    pipe and in tests), or a table redrawn at each turn (``kraftstokk/cli/table_screen``)."""

    def say(self, line: str) -> None:
        """A line of the session's own (its header, the result, where it was saved)."""

    def event(self, line: str) -> None:
        """Something that happened at the table."""

    def turn(self, view: Sequence[str], moves: Sequence[str], hint: str) -> None:
        """The person's turn: the table as they see it, the moves offered, a hint."""

    def ask(self, prompt: str) -> str:
        """A line typed after ``prompt`` ('' at the end of input)."""


@dataclass
class PlainScreen:
    """Everything as lines, one after the other."""

    echo: Echo = print
    asker: Ask | None = None

    def say(self, line: str) -> None:
        self.echo(line)

    def event(self, line: str) -> None:
        self.echo(line)

    def turn(self, view: Sequence[str], moves: Sequence[str], hint: str) -> None:
        self.echo("")
        for line in [*view, *moves]:
            self.echo(line)
        if hint:
            self.echo(hint)

    def ask(self, prompt: str) -> str:
        return (self.asker or ask_terminal)(prompt)


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


def run_session(
    setup: PlaySetup,
    echo: Echo = print,
    ask: Ask = ask_terminal,
    screen: Screen | None = None,
) -> State:
    """Play until the game ends or the input does; returns the last state. Shown on
    ``screen``, else as lines through ``echo``, answers read with ``ask``."""
    check_language(setup.lang)
    shown: Screen = screen if screen is not None else PlainScreen(echo, ask)
    table = _load_table(setup) if setup.load else _new_table(setup)
    game = table.game
    lang = setup.lang
    teller = Narrator(
        game.table,
        lang,
        viewer=table.seat,
        seat_names=_names(table.seat_names, lang),
        game=game.name,
        own_numbers=True,
    )
    shown.say(
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
        _tell(state.event_log(), teller, shown)  # what the deal itself made happen
    left = False
    while not state.is_terminal():
        player = state.current_player()
        legal = state.legal_actions()
        bot = table.bots[player]
        if bot is None:
            chosen = choose(state, player, legal, teller, shown)
            if chosen is None:
                left = True
                break
        else:
            chosen = [bot.act(state.observation(player), legal, rngs[player])]
        for action in chosen:  # a person's choice can be several actions (Idiot's swaps)
            told = len(state.event_log())
            state.apply(action)
            table.actions.append(action)
            _tell(state.event_log()[told:], teller, shown)
    if left:
        shown.say(say_cli(lang, "play.left"))
    else:
        _show_result(state, shown, lang)
    if setup.save is not None:
        result = state.result() if state.is_terminal() else None
        log = make_replay(
            table.deck, game, table.seat_names, table.seed, table.actions, result, table.redeals
        )
        save_replay(setup.save, log)
        shown.say(say_cli(lang, "play.saved", path=setup.save))
    if state.is_terminal():  # a finished game can be told again, move by move
        hint = "play.replay_hint" if setup.save is not None else "play.save_hint"
        shown.say(say_cli(lang, hint, path=setup.save))
    return state


def _tell(events: Sequence[Event], teller: Narrator, shown: Screen) -> None:
    for event in events:
        shown.event(teller.tell(event))


def choose(
    state: State,
    player: int,
    legal: Sequence[Action],
    teller: Narrator,
    shown: Screen,
) -> list[Action] | None:
    """The person's move (or moves: Idiot's swaps in one step); None: they leave."""
    lang = teller.lang
    view = render_view(state.observation(player), state.game, lang)
    swaps = swap_choice(state, player, legal, teller)
    if swaps is not None:
        return _choose_face_up(swaps, view, shown, lang)
    moves = [teller.move(state, action) for action in legal]
    by_name = named_moves(moves)
    if by_name is not None:
        return _choose_by_name(state, legal, moves, by_name, view, shown, lang)
    listed = [say_cli(lang, "play.moves")]
    listed += [f"  {number:>2}. {text}" for number, text in enumerate(moves, start=1)]
    shown.turn(view, listed, teller.typed_hint(state, legal))
    while True:
        raw = shown.ask(say_cli(lang, "play.prompt", count=len(legal)))
        if not raw:
            return None  # end of input
        text = raw.strip().lower()
        if text in QUIT:
            return None
        if text.isdigit() and 1 <= int(text) <= len(legal):
            return [legal[int(text) - 1]]
        typed = state.typed_action(text, legal)
        if typed is not None:
            return [typed]
        shown.say(say_cli(lang, "play.not_a_move", typed=raw.strip(), count=len(legal)))


QUIT = ("q", "quit", "exit")


# Idiot's swap in one step ----------------------------------------------------------------


@dataclass(frozen=True)
class Swaps:
    """The person's six cards before play (hand, then face-up row), as the game names
    them, and the swap and ready actions of that game."""

    hand: tuple[int, ...]
    up: tuple[int, ...]
    names: tuple[str, ...]
    swap_kind: int
    ready: Action


def swap_choice(
    state: State, player: int, legal: Sequence[Action], teller: Narrator
) -> Swaps | None:
    """The swap phase of Idiot (ID-3) as one choice, when it is one: every legal action a
    swap of a hand card with a face-up card, or ready."""
    swaps = [a for a in legal if len(a) == 3]
    ready = [a for a in legal if len(a) == 1]
    if state.game.name != "idiot" or not swaps or len(ready) != 1:
        return None
    if len(swaps) + 1 != len(legal) or len({a[0] for a in swaps}) != 1:
        return None
    hand = tuple(dict.fromkeys(a[1] for a in swaps))
    up = tuple(dict.fromkeys(a[2] for a in swaps))
    names = tuple(teller.card(card) for card in (*hand, *up))
    return Swaps(hand, up, names, swaps[0][0], ready[0])


def _choose_face_up(
    swaps: Swaps, view: Sequence[str], shown: Screen, lang: str
) -> list[Action] | None:
    cards = (*swaps.hand, *swaps.up)
    where = len(swaps.hand)
    listed = [say_cli(lang, "play.swap_intro")]
    in_hand, face_up = say_cli(lang, "play.swap_hand"), say_cli(lang, "play.swap_up")
    width = max(len(name) for name in swaps.names)
    listed += [
        f"  {number}. {name:<{width}}  ({face_up if number > where else in_hand})"
        for number, name in enumerate(swaps.names, start=1)
    ]
    shown.turn(view, listed, "")
    while True:
        raw = shown.ask(say_cli(lang, "play.swap_prompt"))
        if not raw:
            return None
        text = raw.strip().lower()
        if text in QUIT:
            return None
        if not text:
            return [swaps.ready]  # as they lie
        numbers = text.replace(",", " ").split()
        picked = {int(n) for n in numbers if n.isdigit() and 1 <= int(n) <= len(cards)}
        if len(numbers) != len(swaps.up) or len(picked) != len(swaps.up):
            shown.say(say_cli(lang, "play.swap_bad", typed=raw.strip()))
            continue
        wanted = {cards[n - 1] for n in picked}
        going_up = [card for card in swaps.hand if card in wanted]
        going_down = [card for card in swaps.up if card not in wanted]
        actions: list[Action] = [
            (swaps.swap_kind, hand_card, up_card)
            for hand_card, up_card in zip(going_up, going_down, strict=True)
        ]
        return [*actions, swaps.ready]


# A long list chosen by name (Kraftidioten's claims) ---------------------------------------

#: A list of more moves than this, that differ only after a common beginning (a claim of
#: each plant), is offered by name instead of as numbered lines.
LONG_MENU = 16


@dataclass(frozen=True)
class NamedMoves:
    """Moves told as one beginning and a name each: 'claim Rendalen, 100.5 MW'."""

    names: tuple[str, ...]  # each move's part after the common beginning


def named_moves(moves: Sequence[str]) -> NamedMoves | None:
    """The moves as names, when the list is long and they differ only at the end."""
    if len(moves) <= LONG_MENU:
        return None
    common = moves[0]
    for move in moves[1:]:
        while not move.startswith(common):
            common = common[:-1]
    common = common[: common.rfind(" ") + 1]  # at a word's start
    if len(common) < 8:
        return None
    return NamedMoves(tuple(move[len(common) :] for move in moves))


def folded(text: str) -> str:
    """Text as typed or named, compared: case, accents and æ/ø/å put aside."""
    text = text.casefold().replace("æ", "ae").replace("ø", "o").replace("å", "a")
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def _choose_by_name(
    state: State,
    legal: Sequence[Action],
    moves: Sequence[str],
    by_name: NamedMoves,
    view: Sequence[str],
    shown: Screen,
    lang: str,
) -> list[Action] | None:
    names = by_name.names
    plant = [name.rsplit(",", 1)[0] for name in names]  # 'Mår' of 'Mår, 180.0 MW'
    firsts = list(dict.fromkeys(plant))  # each plant's first claim: its printed figure
    example = firsts[len(firsts) // 2].split()[0]
    intro = say_cli(lang, "play.name_intro", count=len(firsts), first=firsts[0],
                    last=firsts[-1], example=example)  # fmt: skip
    shown.turn(view, [intro], "")
    while True:
        raw = shown.ask(say_cli(lang, "play.name_prompt"))
        if not raw:
            return None
        text = raw.strip()
        if text.lower() in QUIT:
            return None
        if text.isdigit() and 1 <= int(text) <= len(legal):
            return [legal[int(text) - 1]]
        typed = state.typed_action(text, legal)  # a number and a figure: '3 4500'
        if typed is not None:
            return [typed]
        words = text.split()
        figure = words[-1] if len(words) > 1 and words[-1].isdigit() else None
        prefix = folded(" ".join(words[:-1] if figure else words))
        exact = [i for i, name in enumerate(plant) if folded(name) == prefix]
        found = exact or [i for i, name in enumerate(plant) if folded(name).startswith(prefix)]
        found = [i for i in found if plant.index(plant[i]) == i]  # a plant once: as printed
        if prefix and len(found) == 1:
            if figure is None:
                return [legal[found[0]]]
            typed = state.typed_action(f"{found[0] + 1} {figure}", legal)
            if typed is not None:
                return [typed]
            shown.say(say_cli(lang, "play.name_figure", typed=text))
        elif not found or not prefix:
            shown.say(say_cli(lang, "play.name_none", typed=text))
        else:
            shown.say(say_cli(lang, "play.name_several", typed=text))
            for i in found[:LONG_MENU]:
                shown.say(f"  {i + 1:>3}. {moves[i]}")


def render_view(observation: Observation, game: Game, lang: str = "en") -> list[str]:
    """The observation in words, as its seat sees it."""
    teller = Narrator(game.table, lang, viewer=observation.seat, game=game.name, own_numbers=True)
    return teller.view(observation)


def _show_result(state: State, shown: Screen, lang: str) -> None:
    result = state.result()
    shown.say("")
    if not result.finished:
        shown.say(say_cli(lang, "play.unfinished", actions=result.actions))
        return
    shown.say(say_cli(lang, "play.over", actions=result.actions, rounds=result.rounds))


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
    teller = Narrator(
        game.table, lang, seat_names=_names(log.bots, lang), game=game.name, own_numbers=True
    )
    bots = ", ".join(f"{seat}: {name}" for seat, name in enumerate(log.bots, start=1))
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
