"""Strømkrig declares itself: the one place the rest of kraftstokk learns about this game."""

from __future__ import annotations

from kraftstokk.games.spec import CounterSpec, GameSpec, VariantSpec
from kraftstokk.games.stromkrig.actions import V1_KINDS, StromkrigAction, StromkrigPhase
from kraftstokk.games.stromkrig.rules import RULES

SPEC = GameSpec(
    name="stromkrig",
    min_players=2,
    max_players=6,
    variants=(VariantSpec("invisible_current_category"),),
    bots=("heuristic", "greedy", "random", "expert"),
    default_bot="heuristic",
    menu_place=3,
    counters=(
        CounterSpec("pile_pickups", "times a player took the pile (a lost war not counted)"),
        CounterSpec("burns", "times the pile was burned by a joker or a club 1-4"),
        CounterSpec("resets", "2s laid to reset"),
        CounterSpec("wars", "wars started"),
        CounterSpec("war_rounds", "war rounds fought, re-fights after a tie included"),
        CounterSpec("runs", "runs laid"),
        CounterSpec("invisible_plays", "invisible cards laid beside the pile"),
        CounterSpec("chance_draws", "chance draws (the top card of the stock turned)"),
        CounterSpec("chance_draws_played", "chance draws whose card had a use"),
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
    game_module="kraftstokk.games.stromkrig.state",
    bots_module="kraftstokk.games.stromkrig.bots",
    action_kinds=StromkrigAction,
    phases=StromkrigPhase,
    v1_action_kinds=V1_KINDS,
    rules=RULES,
)
