"""``kraftstokk play``: a person against bots in the terminal, for any of the games."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from kraftstokk.cli.app import app, handle_errors
from kraftstokk.cli.options import (
    DECK_HELP,
    DEFAULT_DECK,
    MAX_PLAYERS,
    bots_option,
    count,
    game_option,
    language_option,
    players_option,
    seed_option,
    variant_option,
)
from kraftstokk.errors import GameError

if TYPE_CHECKING:
    from kraftstokk.games.play_session import Screen
from kraftstokk.games.packages import package_names


@app.command()
@handle_errors
def play(
    deck: Annotated[
        Path | None,
        typer.Argument(metavar="DECK", help=f"{DECK_HELP} [default: {DEFAULT_DECK}]"),
    ] = None,
    game: Annotated[
        str | None,
        game_option("{games} (from --load if given)."),
    ] = None,
    players: Annotated[int, players_option("Number of seats, the person included.")] = 4,
    deck_option: Annotated[
        Path | None,
        typer.Option(
            "--deck", metavar="DECK", help="The deck, as DECK says (kept for older scripts)."
        ),
    ] = None,
    seat: Annotated[
        int,
        typer.Option(
            "--seat",
            metavar="N",
            parser=count("--seat", 1, MAX_PLAYERS),
            help="The person's seat (1 is the first).",
        ),
    ] = 1,
    bots: Annotated[
        str | None,
        bots_option(
            "Bots for the other seats: one kind for all, or one per seat, "
            "comma-separated (random, greedy, heuristic, expert; settings as kind:key=value). "
            "Default: the game's default bot in every other seat.",
        ),
    ] = None,
    seed: Annotated[int | None, seed_option("Seed of the deal (random when left out).")] = None,
    variant: Annotated[
        list[str] | None,
        variant_option("A rule variant, e.g. no_swap (repeatable)."),
    ] = None,
    load: Annotated[
        Path | None, typer.Option("--load", help="Continue a game saved with --save.")
    ] = None,
    save: Annotated[
        Path | None, typer.Option("--save", help="Write the game as a replay log on exit.")
    ] = None,
    replay: Annotated[
        bool,
        typer.Option(
            "--replay", help="With --load: print the saved game as its story, move by move."
        ),
    ] = False,
    lang: Annotated[
        str,
        language_option(
            "The language the table speaks: {languages} (the folders of kraftstokk/locales)."
        ),
    ] = "en",
) -> None:
    """Play a game against bots: read your view, type the number of your move.

    Your legal moves are listed numbered; type a number and Enter. Everything that
    happens (cards laid, burns, chance cards, who is out) is told once, as it happens,
    in --lang. End of input (Ctrl-D) or "q" ends the session; with --save the game so
    far is written as a replay log, which --load continues later and --load --replay
    prints as the story of the game.

    Example:

    \b
        kraftstokk play output/deck.json --game idiot --players 3 --bots greedy --seed 7
        kraftstokk play --game idiot --players 3 --bots greedy --seed 7 --save game.json
        kraftstokk play --load game.json
        kraftstokk play --load game.json --replay --lang nb
    """
    from kraftstokk.cli import engine_note
    from kraftstokk.games.play_session import PlaySetup, run_session, tell_replay

    if replay:
        if load is None:
            raise GameError("--replay needs --load SAVE: the game to tell")
        tell_replay(load, lang, echo=typer.echo)
        return
    said = engine_note.say([game] if game else package_names())

    if deck is not None and deck_option is not None and deck != deck_option:
        raise GameError(f"two decks given: {deck} and --deck {deck_option}; give one")
    setup = PlaySetup(
        game=game,
        players=players,
        deck=deck or deck_option or DEFAULT_DECK,
        seat=seat - 1,
        bots=bots,
        seed=seed,
        variants=list(variant or []),
        load=load,
        save=save,
        lang=lang,
    )
    run_session(setup, echo=typer.echo, screen=table_screen(lang, [said] if said else []))


def table_screen(lang: str, notes: list[str]) -> Screen | None:
    """The redrawn table when a person plays at a terminal (else None: lines); ``notes``,
    said on stderr before, stay above the table (a redraw would wipe them)."""
    import sys

    from kraftstokk.cli.progress import wants_bars

    if not (sys.stdin.isatty() and wants_bars(sys.stdout)):
        return None
    from kraftstokk.cli.table_screen import TableScreen
    from kraftstokk.games.narration import language

    return TableScreen(language(lang).suits, notes=notes)
