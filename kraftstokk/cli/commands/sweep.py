"""``kraftstokk sweep`` and ``kraftstokk sweep-schema``: many configurations at once."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from kraftstokk.cli.app import app, fail, handle_errors, writes_into
from kraftstokk.cli.options import (
    DEFAULT_OUT,
    count,
    out_option,
    skill_games_option,
    skill_option,
)

if TYPE_CHECKING:
    from kraftstokk.sim.sweep.budget import Estimate

#: Bounds of the limit options: a limit can be raised, not removed.
MAX_LIMIT = 100_000_000


@app.command()
@handle_errors
@writes_into(lambda a: a["out"])
def sweep(
    sweep_file: Annotated[
        Path, typer.Argument(metavar="SWEEP.toml", help="The sweep file (see sweep-schema).")
    ],
    out: Annotated[Path, out_option("Folder for the outputs and the stored chunks.")] = (
        DEFAULT_OUT / "sweep"
    ),
    scheduler: Annotated[
        str,
        typer.Option(
            "--scheduler",
            metavar="local|local:N|tcp://HOST:PORT",
            help="local: worker processes here; local:N: a Dask LocalCluster of N workers "
            "(127.0.0.1 only); tcp://HOST:PORT: a running Dask scheduler.",
        ),
    ] = "local",
    workers: Annotated[
        int | None,
        typer.Option(
            "--workers",
            "-w",
            metavar="N",
            parser=count("--workers", 1, 256),
            help="Processes of the local backend (default: all cores).",
        ),
    ] = None,
    no_report: Annotated[bool, typer.Option("--no-report", help="Skip sweep.pdf.")] = False,
    max_configurations: Annotated[
        int,
        typer.Option(
            "--max-configurations",
            metavar="N",
            parser=count("--max-configurations", 1, MAX_LIMIT),
            help="Refuse a sweep of more configurations (raise it to run a larger grid).",
        ),
    ] = 1_000,
    max_comparisons: Annotated[
        int,
        typer.Option(
            "--max-comparisons",
            metavar="N",
            parser=count("--max-comparisons", 1, MAX_LIMIT),
            help="Refuse a sweep that compares more pairs of configurations.",
        ),
    ] = 5_000,
    max_stored_mb: Annotated[
        int,
        typer.Option(
            "--max-stored-mb",
            metavar="MB",
            parser=count("--max-stored-mb", 1, MAX_LIMIT),
            help="Refuse a sweep that would store more (chunks and outputs), in MB.",
        ),
    ] = 2_000,
    skill: Annotated[
        bool,
        skill_option(
            "Also measure each deck's skill gradient for each rule set played (expert, "
            "heuristic, greedy, random in one seat against heuristic bots), side by side in "
            "words, in OUT/skill.json."
        ),
    ] = False,
    skill_games: Annotated[int, skill_games_option()] = 200,
) -> None:
    """Play every configuration of a sweep file and compare them.

    The configurations are the product of the file's [grid] lists (decks, games, players,
    bots, variants) and any [[configurations]]; each plays the same games simulate would
    for its deck, rules, bots and seed, whatever the backend, and is compared, game by
    game, with its neighbour at the [baseline] value of each parameter. Before anything
    is played the sweep is measured and refused when it is over a limit (--max-*), with
    what it would cost. Writes OUT/sweep.csv, OUT/sweep.json,
    OUT/configurations/*/sim-GAME.json and OUT/sweep.pdf (the verdict on the decks
    first). Completed chunks are kept in OUT/chunks: run the same command again after
    Ctrl-C and only the missing games are played. One sweep at a time per OUT. With
    --skill, each deck's skill gradient per rule set (played here, on local processes)
    goes to OUT/skill.json, the decks side by side in words.

    Example: kraftstokk sweep sources/sweep-example.toml --out output/sweep --scheduler local:2
    """
    from kraftstokk.cli import engine_note
    from kraftstokk.cli.progress import Display, SweepDisplay
    from kraftstokk.sim.sweep import Limits
    from kraftstokk.sim.sweep import sweep as run

    with Display() as display:
        progress = SweepDisplay(display)

        def announce(found: Estimate) -> None:
            progress.announce(found.describe())
            engine_note.say(games_of(sweep_file))

        try:
            files = run(
                sweep_file,
                out,
                scheduler=scheduler,
                workers=workers,
                progress=progress,
                report=not no_report,
                limits=Limits(max_configurations, max_comparisons, max_stored_mb),
                announce=announce,
            )
        finally:
            progress.close()
    done = files.run
    games = sum(r.stats.games for r in done.runs)
    typer.echo(
        f"{len(done.runs)} configurations, {games} games ({done.chunks_played} chunks played, "
        f"{done.chunks_stored} found stored) on {done.backend}"
    )
    for path in files.written:
        typer.echo(f"wrote {path}")
    for found in files.results.verdicts:
        typer.echo(f"  {found.sentence}")
    for finding in files.results.comparison_findings[:5]:
        typer.echo(f"  {finding.says}")
    if skill and not done.interrupted and done.runs:
        from kraftstokk.sim.skill import sweep_gradients

        with Display() as display:
            gradients, compared, skill_file = sweep_gradients(
                done.runs,
                out,
                games=skill_games,
                workers=workers,
                progress=display.factory("games", "skill: ", keep=False),
            )
        for gradient in gradients:
            typer.echo(f"  {gradient.sentence()}")
        for line in compared:
            typer.echo(f"  {line}")
        typer.echo(f"wrote {skill_file}")
    if done.interrupted:
        raise fail(
            f"interrupted after {done.chunks_stored + done.chunks_played} of {done.chunks_total} "
            f"chunks; run the same command again to resume",
            130,
        )


def games_of(sweep_file: Path) -> set[str]:
    """The games a sweep file plays (read again once the sweep has checked it)."""
    from kraftstokk.sim.sweep import load_sweep

    found = load_sweep(sweep_file)
    return {game for grid in found.grid for game in grid.games} | {
        entry.game for entry in found.configurations
    }


@app.command("sweep-schema")
@handle_errors
def sweep_schema() -> None:
    """Print the JSON Schema of the sweep file."""
    from kraftstokk.sim.sweep.model import sweep_schema as schema

    typer.echo(schema(), nl=False)
