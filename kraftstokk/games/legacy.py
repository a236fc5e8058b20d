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
from kraftstokk.games.spec import CounterSpec, GameSpec

#: A first-edition module still numbers its kinds as version-1 logs do.
UNCHANGED = {kind: kind for kind in range(16)}

LEGACY_SPECS: tuple[GameSpec, ...] = (
    GameSpec(
        name="stromkrig",
        title_nb="Strømkrig",
        title_en="Strømkrig",
        min_players=2,
        max_players=6,
        variants=(
            VariantSpec(
                "invisible_current_category",
                "Bare nr. 50–52 i kategorien som spilles, er usynlige.",
                "Only nr. 50-52 in the category being played are invisible.",
            ),
        ),
        bots=("heuristic", "greedy", "random"),
        counters=(
            CounterSpec("pile_pickups", "times a player took the pile into hand"),
            CounterSpec("burns", "times the pile was burned"),
            CounterSpec("wars", "wars started"),
            CounterSpec("war_rounds", "rounds of war fought (ties fight again)"),
            CounterSpec("runs", "runs laid"),
            CounterSpec("invisible_plays", "invisible cards laid beside the pile"),
            CounterSpec("resets", "2s laid as a reset"),
            CounterSpec("chance_draws", "sjanse cards turned"),
            CounterSpec("chance_draws_played", "sjanse cards that could be used"),
        ),
        highlights=(
            "pile_pickups_per_game",
            "burns_per_game",
            "wars_per_game",
            "war_sizes_mean",
            "runs_per_game",
            "run_lengths_mean",
            "invisible_plays_per_game",
            "resets_per_game",
        ),
        booklet_section="stromkrig",
        game_module="kraftstokk.games.stromkrig",
        bots_module="kraftstokk.games.stromkrig_bots",
        v1_action_kinds=UNCHANGED,
    ),
)


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
