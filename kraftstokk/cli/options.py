"""Options and arguments several commands share, declared once.

Each command uses these in its signature (``out: Annotated[Path, out_option("...")]``), so
a flag is spelled, abbreviated and explained the same way everywhere: ``--out`` is always
``-o``, the deck is always the first argument ``DECK``, ``--game`` is always ``-g``.
Only the sentence saying what the option means for one command may differ.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

DEFAULT_DECK = Path("output/deck.json")
DEFAULT_OUT = Path("output")
DEFAULT_SPEC = Path("sources/deck.toml")

DECK_HELP = "The deck: deck.json, deck.csv or deck.xlsx."

DeckArgument = Annotated[Path, typer.Argument(metavar="DECK", help=DECK_HELP)]
"""The deck a command reads, always the first argument (default output/deck.json)."""


def out_option(help: str, metavar: str = "DIR") -> Any:
    """``--out``/``-o``: where a command writes (a folder, or a file for fetch/ingest)."""
    return typer.Option("--out", "-o", metavar=metavar, help=help)


def spec_option(help: str) -> Any:
    """``--spec``: the deck spec (TOML)."""
    return typer.Option("--spec", metavar="SPEC.toml", help=help)


def json_option(help: str = "Print the result as JSON for machines.") -> Any:
    """``--json``: machine-readable output instead of lines for people."""
    return typer.Option("--json", help=help)


#: Letters a game's name may be typed with, as the registry spells them.
_ASCII = str.maketrans({"ø": "o", "å": "a", "æ": "ae"})


def game_name(typed: str | None) -> str | None:
    """A game's name as a person types it (``Strømkrig``) as the registry spells it."""
    if typed is None:
        return None
    return typed.strip().lower().translate(_ASCII).replace(" ", "").replace("-", "")


def game_option(help: str) -> Any:
    """``--game``/``-g``: which of the three games (``strømkrig`` is ``stromkrig``)."""
    return typer.Option("--game", "-g", metavar="GAME", help=help, callback=game_name)


def players_option(help: str) -> Any:
    """``--players``/``-p``: seats at the table."""
    return typer.Option("--players", "-p", metavar="N", help=help)


def seed_option(help: str) -> Any:
    """``--seed``/``-s``: the seed of the deal or the series."""
    return typer.Option("--seed", "-s", metavar="N", help=help)


def bots_option(help: str) -> Any:
    """``--bots``/``-b``: one bot kind for every seat, or one per seat."""
    return typer.Option("--bots", "-b", metavar="KINDS", help=help)


def variant_option(help: str) -> Any:
    """``--variant`` (or ``--variants``): rule variant flags, repeated or comma-separated."""
    return typer.Option("--variant", "--variants", metavar="NAME", help=help)
