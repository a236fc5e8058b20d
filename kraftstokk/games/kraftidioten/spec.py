"""Kraftidioten declares itself: the one place the rest of kraftstokk learns about it."""

from __future__ import annotations

from kraftstokk.games.kraftidioten.actions import KraftidiotenAction, KraftidiotenPhase
from kraftstokk.games.kraftidioten.rules import RULES
from kraftstokk.games.spec import CounterSpec, GameSpec

SPEC = GameSpec(
    name="kraftidioten",
    min_players=2,
    max_players=10,
    variants=(),
    bots=("heuristic", "greedy", "random", "expert"),
    default_bot="heuristic",
    menu_place=2,
    counters=(
        CounterSpec("pile_pickups", "times a player took the pile into hand"),
        CounterSpec("burns", "times the pile was burned (by a joker or a top-3 claim)"),
        CounterSpec("claims", "cards laid face down under a claim"),
        CounterSpec("lies", "claims that were lies (a wrong name or a wrong figure)"),
        CounterSpec("figure_lies", "lies that stated a figure the plant's card does not print"),
        CounterSpec("challenges", "claims challenged"),
        CounterSpec("challenges_upheld", "challenges that exposed a lie"),
        CounterSpec("challenges_groundless", "challenges of a true claim"),
        CounterSpec("top3_claims", "claims of a plant with nr. 1-3 in the category"),
        CounterSpec("top3_burns", "top-3 claims that stood and burned the pile"),
        CounterSpec("joker_burns", "jokers laid (each burns the pile)"),
        CounterSpec("joker_penalties", "jokers laid with two cards or fewer in hand"),
        CounterSpec("stock_draws", "chances drawn from the stock"),
    ),
    highlights=(
        "pile_pickups_per_game",
        "burns_per_game",
        "lies_per_game",
        "figure_lies_per_game",
        "challenges_per_game",
        "challenges_upheld_rate",
        "lie_caught_rate",
        "top3_burns_per_game",
        "joker_burns_per_game",
    ),
    game_module="kraftstokk.games.kraftidioten.state",
    bots_module="kraftstokk.games.kraftidioten.bots",
    action_kinds=KraftidiotenAction,
    phases=KraftidiotenPhase,
    v1_action_kinds=None,
    v1_refusal="lies by figure, KI-4c, and a joker penalty that draws jokers too, KI-7",
    rules=RULES,
)
