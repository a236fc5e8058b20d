"""Options and arguments several commands share, declared once.

Each command uses these in its signature (``out: Annotated[Path, out_option("...")]``), so
a flag is spelled, abbreviated and explained the same way everywhere: ``--out`` is always
``-o``, the deck is always the first argument ``DECK``, ``--game`` is always ``-g``.
Only the sentence saying what the option means for one command may differ.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any, TypeVar

import typer

from kraftstokk.cli.app import fail
from kraftstokk.errors import clip
from kraftstokk.limits import SEED_RANGE
from kraftstokk.terminal import printable

DEFAULT_DECK = Path("output/deck.json")
DEFAULT_OUT = Path("output")
DEFAULT_SPEC = Path("sources/deck.toml")
#: Where fetch and ingest write a snapshot when --out names none.
SNAPSHOT_FOLDER = Path("sources")

DECK_HELP = "The deck: deck.json, deck.csv or deck.xlsx."

DeckArgument = Annotated[Path, typer.Argument(metavar="DECK", help=DECK_HELP)]
"""The deck a command reads, always the first argument (default output/deck.json)."""


def out_option(help: str, metavar: str = "DIR") -> Any:
    """``--out``/``-o``: where a command writes (a folder, or a file for fetch/ingest)."""
    return typer.Option("--out", "-o", metavar=metavar, help=help)


def spec_option(help: str) -> Any:
    """``--spec``: the deck spec (TOML)."""
    return typer.Option("--spec", metavar="SPEC.toml", help=help)


def created_option() -> Any:
    """``--created``: the provenance's time, fixed to make a rerun byte-identical."""
    return typer.Option(
        "--created",
        help="Creation time for the provenance (ISO date or date-time). Default: now, "
        "or SOURCE_DATE_EPOCH when set. Fix it to make reruns byte-identical.",
    )


def data_date_option(what: str) -> Any:
    """``--data-date``: the date the data describes, for the provenance."""
    return typer.Option("--data-date", help=f"Date {what} describe, e.g. 2024-01 (provenance).")


class CsvStyleChoice(StrEnum):
    """The styles of :data:`kraftstokk.deck.csv_style.CSV_STYLES`."""

    en = "en"
    nb = "nb"


def csv_style_option(help: str) -> Any:
    """``--csv-style``: how deck.csv is written (``en``: ',' and '.'; ``nb``: ';' and ',')."""
    return typer.Option("--csv-style", help=help)


def json_option(help: str = "Print the result as JSON for machines.") -> Any:
    """``--json``: machine-readable output instead of lines for people."""
    return typer.Option("--json", help=help)


def game_name(typed: str | None) -> str | None:
    """A game's name as a person types it (``Strømkrig``) as the registry spells it."""
    from kraftstokk.games.packages import typed_name  # no engine module

    return None if typed is None else typed_name(typed)


def game_option(help: str) -> Any:
    """``--game``/``-g``: which game (``strømkrig`` is ``stromkrig``); ``{games}`` in ``help``
    lists the game packages there are."""
    from kraftstokk.games.packages import choices, package_names  # no engine module

    games = choices(package_names())  # 'idiot, kraftidioten or stromkrig'
    return typer.Option(
        "--game", "-g", metavar="GAME", help=help.format(games=games), callback=game_name
    )


def language_option(help: str) -> Any:
    """``--lang``/``-l``: a language there are locale files for; ``{languages}`` in ``help``
    lists them."""
    from kraftstokk import locales
    from kraftstokk.games.packages import choices

    languages = choices(list(locales.languages()))  # 'en, nb or nn'
    return typer.Option("--lang", "-l", metavar="CODE", help=help.format(languages=languages))


def players_option(help: str) -> Any:
    """``--players``/``-p``: seats at the table."""
    return typer.Option(
        "--players", "-p", metavar="N", parser=count("--players", 1, MAX_PLAYERS), help=help
    )


def seed_option(help: str) -> Any:
    """``--seed``/``-s``: the seed of the deal or the series."""
    return typer.Option("--seed", "-s", metavar="N", parser=count("--seed", *SEED_RANGE), help=help)


def bots_option(help: str) -> Any:
    """``--bots``/``-b``: one bot kind for every seat, or one per seat."""
    return typer.Option("--bots", "-b", metavar="KINDS", help=help)


def skill_option(help: str) -> Any:
    """``--skill``: also measure the skill gradient (``sim/skill.py``)."""
    return typer.Option("--skill", help=help)


#: Bounds of ``--skill-games`` (the expert plays a game in seconds).
SKILL_GAMES_RANGE = (1, 1_000_000)


def skill_games_option() -> Any:
    """``--skill-games``: games per level of a skill gradient."""
    return typer.Option(
        "--skill-games",
        metavar="N",
        parser=count("--skill-games", *SKILL_GAMES_RANGE),
        help="Games per level of the skill gradient (the expert takes seconds a game).",
    )


def variant_option(help: str) -> Any:
    """``--variant`` (or ``--variants``): rule variant flags, repeated or comma-separated."""
    return typer.Option("--variant", "--variants", metavar="NAME", help=help)


# Number arguments ----------------------------------------------------------------------

Number = TypeVar("Number", int, float)


def number(
    option: str,
    kind: Callable[[str], Number],
    low: Number | None = None,
    high: Number | None = None,
    *,
    above: bool = False,
    below: bool = False,
    unit: str = "",
) -> Callable[[str], Number]:
    """A parser for a number option: finite, within ``low``..``high`` (``above``: more
    than ``low``; ``below``: less than ``high``), or one error line and exit 2 — never a
    traceback, never NaN."""
    whole = kind is int
    bounds = []
    if low is not None:
        bounds.append(f"{'more than' if above else 'at least'} {low:g}")
    if high is not None:
        bounds.append(f"{'less than' if below else 'at most'} {high:g}")
    wanted = ("a whole number" if whole else "a finite number") + (f" of {unit}" if unit else "")
    if whole and low is not None and high is not None and high - low > 10**12:
        wanted += f" that fits 64 bits ({low} to {high})"  # a seed: in full (:g rounds them)
    elif bounds:
        wanted += f", {' and '.join(bounds)}"

    def parse(text: str) -> Number:
        shown = printable(clip(str(text), 40))
        try:
            value = kind(str(text).strip())
        except (ValueError, OverflowError):
            raise fail(f"{option} {shown}: not {wanted}") from None
        if isinstance(value, float) and not math.isfinite(value):
            raise fail(f"{option} {shown}: not {wanted}")
        too_low = low is not None and (value <= low if above else value < low)
        too_high = high is not None and (value >= high if below else value > high)
        if too_low or too_high:
            raise fail(f"{option} {shown}: must be {wanted}")
        return value

    return parse


def seconds(option: str, high: float, *, low: float = 0.0, above: bool = True) -> Any:
    """Parser for a duration option in seconds."""
    return number(option, float, low, high, above=above, unit="seconds")


def count(option: str, low: int, high: int) -> Any:
    """Parser for a whole-number option."""
    return number(option, int, low, high)


#: More seats than any game has; each game's own range is checked where it is made.
MAX_PLAYERS = 100
