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

DECK_HELP = "The deck: deck.json or deck.csv."

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


def game_option(help: str) -> Any:
    """``--game``/``-g``: which of the three games."""
    return typer.Option("--game", "-g", metavar="GAME", help=help)


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
