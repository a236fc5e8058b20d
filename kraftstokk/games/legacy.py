"""Specs of the games still in their first-edition modules (``stromkrig.py``).

Transitional: a game converted into its package (``games/<name>/spec.py``) is found
there and its entry here is no longer used; delete the entry with the old module. The
functions at the end let ``play`` show such a game, whose observation is untyped and
which records no events; they go when the last old module does.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kraftstokk.games.core import Action, DeckTable, State
from kraftstokk.games.spec import GameSpec

#: A first-edition module still numbers its kinds as version-1 logs do.
UNCHANGED = {kind: kind for kind in range(16)}

LEGACY_SPECS: tuple[GameSpec, ...] = ()


def legacy_view(observation: Any, table: DeckTable) -> list[str]:
    """A first-edition observation in words: its ``describe()``."""
    describe = getattr(observation, "describe", None)
    return [str(line) for line in describe()] if callable(describe) else [str(observation)]


def legacy_told(state: State, action: Action, person: bool, who: str) -> Callable[[], str]:
    """Before ``apply``: a function giving, after it, the line a first-edition game told."""
    words = state.action_to_string(action) if person else state.public_action_string(action)

    def after() -> str:
        outcome = getattr(state, "outcome_text", None)
        revealed = outcome() if callable(outcome) else None
        if not words and not revealed:
            return ""
        line = f"{who}: {words}" if words else f"{who}:"
        return line + (f" -> {revealed}" if revealed else "")

    return after


def legacy_result_lines(state: State, seat: int, names: list[str]) -> list[str]:
    """The finishing order a first-edition game (which records no GameOver) ends with."""
    result = state.result()

    def name(s: int) -> str:
        return "you" if s == seat else f"seat {s} ({names[s]})"

    order = ", ".join(f"{place}. {name(s)}" for place, s in enumerate(result.order, start=1))
    lines = [f"Out in this order: {order}"]
    if result.loser is not None:
        lines.append(f"Last with cards (the loser): {name(result.loser)}")
    return lines
