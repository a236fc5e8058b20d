"""``kraftstokk simulate``: play many seeded games and report how the deck plays."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from kraftstokk.cli.app import app, fail, handle_errors, writes_into
from kraftstokk.cli.options import (
    DEFAULT_DECK,
    DEFAULT_OUT,
    DeckArgument,
    bots_option,
    count,
    game_option,
    number,
    out_option,
    players_option,
    seed_option,
    skill_games_option,
    skill_option,
    variant_option,
)
from kraftstokk.limits import MAX_ACTION_CAP

if TYPE_CHECKING:
    from kraftstokk.sim.pace import Pace

#: Bounds of the number options (a run of more games is many runs).
MAX_GAMES = 10_000_000
MAX_WORKERS = 256
#: The series' games are numbered from 0 (a game's seed is derived from its number).
MAX_FIRST_GAME = 10**12


@app.command()
@handle_errors
@writes_into(lambda a: a["out"])
def simulate(
    game: Annotated[str, game_option("{games}.")],
    deck: DeckArgument = DEFAULT_DECK,
    players: Annotated[int, players_option("Players per game.")] = 4,
    games: Annotated[
        int,
        typer.Option(
            "--games",
            "-n",
            metavar="N",
            parser=count("--games", 1, MAX_GAMES),
            help="How many games to play.",
        ),
    ] = 1000,
    seed: Annotated[int, seed_option("Seed of the series; game i uses (seed, i).")] = 1,
    workers: Annotated[
        int | None,
        typer.Option(
            "--workers",
            "-w",
            metavar="N",
            parser=count("--workers", 1, MAX_WORKERS),
            help="Processes playing games, this one included (default: all cores).",
        ),
    ] = None,
    bots: Annotated[
        str | None,
        bots_option(
            "One bot kind for every seat, or one per seat: 'heuristic,greedy,greedy,random' "
            "(kinds: random, greedy, heuristic, expert; expert:ms=50 or expert:playouts=N "
            "sets its budget). Default: the game's default bot for every seat.",
        ),
    ] = None,
    variants: Annotated[
        list[str] | None,
        variant_option("Rule variant flag(s), comma-separated or repeated."),
    ] = None,
    action_cap: Annotated[
        int,
        typer.Option(
            "--action-cap",
            metavar="N",
            parser=count("--action-cap", 1, MAX_ACTION_CAP),
            help="Stop a game after this many actions (counted unfinished).",
        ),
    ] = 5000,
    compare: Annotated[
        Path | None,
        typer.Option("--compare", help="A second deck to play on the same seeds and compare."),
    ] = None,
    first_game: Annotated[
        int,
        typer.Option(
            "--first-game",
            metavar="I",
            parser=count("--first-game", 0, MAX_FIRST_GAME),
            help="Start at game I of the series (with -n 1: play that one game again).",
        ),
    ] = 0,
    confidence: Annotated[
        float,
        typer.Option(
            "--confidence",
            metavar="C",
            parser=number("--confidence", float, 0.5, 1.0, above=True, below=True),
            help="Confidence of the report's findings (0.95: a 5 % chance of a false alarm).",
        ),
    ] = 0.95,
    out: Annotated[Path, out_option("Folder for the outputs.")] = DEFAULT_OUT,
    no_report: Annotated[bool, typer.Option("--no-report", help="Skip the PDF report.")] = False,
    html: Annotated[
        bool,
        typer.Option(
            "--html",
            help="Also write the report as OUT/sim-GAME.html: one self-contained file (charts "
            "inline, nothing fetched), for reading on a screen.",
        ),
    ] = False,
    pace: Annotated[
        str | None,
        typer.Option(
            "--pace",
            metavar="KEY=S,...|FILE",
            help="The time model of the minutes at a table: seconds per step, e.g. "
            "'choice=8,card=3' (steps: deal, card, choice, forced, answer, pickup, challenge), "
            "or a TOML file with a [time] table. Default: kraftstokk/sim/pace.toml.",
        ),
    ] = None,
    skill: Annotated[
        bool,
        skill_option(
            "Also measure the skill gradient: expert, heuristic, greedy and random in one "
            "seat against heuristic bots, on the same games (with --compare: both decks)."
        ),
    ] = False,
    skill_games: Annotated[int, skill_games_option()] = 200,
) -> None:
    """Play many games with bots and measure how the deck plays.

    Writes OUT/sim-GAME.json (lengths, unfinished games, win and loser rate by seat with
    95% intervals, the game's counters, per-card figures, and the playability metrics:
    seat gap, minutes at a table, decision share and branching, lead changes, comebacks,
    how early a game is settled) and the report OUT/sim-GAME.pdf, whose page 1 answers
    six questions in words (fair? how long? how much choice? does skill matter? exciting?
    anything broken?) with one chart. When a game reaches the action cap, the first such
    game is written as OUT/sim-GAME-unfinished.json, to watch with play --load ... --replay.
    With --html, the report is also OUT/sim-GAME.html. With --compare, both decks play the
    same seeds, game i against game i: page 1 puts the six answers side by side, the
    largest differences first, and the verdict; each metric's difference with its 95%
    interval, corrected for testing them all (Holm), is in OUT/sim-GAME-compare.json.
    With --skill, OUT/sim-GAME-skill.json holds the skill gradient: each level's win
    rate (loser rate in Idiot) with its 95% interval and a sentence per deck saying how
    much the game rewards good play; page 1 answers "does skill matter?" with it.

    Examples:

    \b
        kraftstokk simulate output/deck.json --game stromkrig --players 4 --games 2000
        kraftstokk simulate output/deck.csv -g idiot -n 500 --compare print-2024/deck.json
    """
    import dataclasses

    from kraftstokk.cli import engine_note
    from kraftstokk.cli.progress import Display
    from kraftstokk.errors import SimulationError
    from kraftstokk.sim.finding_rules import FindingRules
    from kraftstokk.sim.runner import SimSettings, check_arguments, default_bots
    from kraftstokk.sim.session import simulate as run

    if games < 1:
        raise SimulationError(f"--games must be at least 1, not {games}")
    if workers is not None and workers < 1:
        raise SimulationError(f"--workers must be at least 1, not {workers}")
    flags = tuple(
        sorted({f.strip() for item in variants or () for f in item.split(",") if f.strip()})
    )
    settings = SimSettings(
        game=game.lower(),
        players=players,
        games=games,
        seed=seed,
        bots=bots or "greedy",
        variants=flags,
        action_cap=action_cap,
        first=first_game,
        pace=_pace(pace),
    )
    check_arguments(settings)
    from kraftstokk.atomic import refuse_overwriting

    ends = (
        ".json",
        ".pdf",
        "-compare.json",
        "-unfinished.json",
        "-unfinished-b.json",
        *((".html",) if html else ()),
        *(("-skill.json",) if skill else ()),
    )
    outputs = [out / f"sim-{settings.game}{end}" for end in ends]
    refuse_overwriting([deck, *([compare] if compare else [])], outputs)
    if bots is None:
        settings = dataclasses.replace(settings, bots=default_bots(settings.game))
    engine_note.say([settings.game])
    with Display() as display:
        files = run(
            deck,
            settings,
            out,
            workers=workers,
            compare_path=compare,
            report=not no_report,
            html=html,
            skill_games=skill_games if skill else 0,
            progress=display.factory("games", f"{settings.game} "),
            skill_progress=display.factory("games", f"{settings.game} skill: ", keep=False),
            rules=FindingRules(confidence=confidence),
        )

    summary = files.main.summary
    if summary["games"]:
        typer.echo(
            f"{summary['games']} games of {settings.game}, {summary['unfinished']} unfinished, "
            f"{summary['games_per_second']:.0f} games/s with {summary['workers']} worker(s)"
        )
    if summary["games"] and not files.table:  # a comparison's table has its own verdict
        from kraftstokk.sim.overall import overall_lines

        for line in overall_lines(summary.get("overall")):
            typer.echo(line)
    if files.json_path is not None:
        typer.echo(f"wrote {files.json_path}")
    if files.table:
        typer.echo(files.table)
        typer.echo(f"wrote {files.compare_path}")
    for sentence in files.skill_sentences:
        typer.echo(sentence)
    for path in (files.skill_path, files.report_path, files.html_path):
        if path is not None:
            typer.echo(f"wrote {path}")
    for deck_run in (files.main, files.other):
        example = deck_run.summary.get("example_replay") if deck_run is not None else None
        if example:
            typer.echo(f"wrote {example['path']} (an unfinished game: {example['command']})")
    if files.skill_interrupted:
        raise fail(
            "interrupted while measuring the skill gradient; the run's files are written "
            "without it",
            130,
        )
    if files.main.interrupted:
        done = files.main.summary
        held = [str(path) for path in (files.json_path, files.compare_path) if path is not None]
        kept = f"{' and '.join(held)} hold the games played" if held else "nothing written"
        if len(held) == 1:
            kept = kept.replace(" hold ", " holds ")
        raise fail(
            f"interrupted after {done['games']} of {done['games_requested']} games; {kept}", 130
        )


def _pace(given: str | None) -> Pace | None:
    """``--pace`` read (its module loads numpy: only when given)."""
    if given is None:
        return None
    from kraftstokk.sim.pace import parse_pace

    return parse_pace(given)
