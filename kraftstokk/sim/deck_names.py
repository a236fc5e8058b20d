"""How a run's reports and progress name a deck (``sim/verdict.py`` re-exports these):
apart, so that ``simulate`` names its deck before the summaries' code (numpy) is loaded."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def deck_name(deck: Mapping[str, Any]) -> str:
    """A deck as people tell it apart: ``Kraft-stokken (2024-01)``."""
    return f"{deck['title']} ({deck['edition']})"


def deck_names(deck_a: Mapping[str, Any], deck_b: Mapping[str, Any]) -> tuple[str, str]:
    """Both decks' names; their files are added when title and edition are the same."""
    a, b = deck_name(deck_a), deck_name(deck_b)
    if a == b:
        a, b = f"{a} [{deck_a['path']}]", f"{b} [{deck_b['path']}]"
    return a, b
