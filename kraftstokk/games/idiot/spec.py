"""Idiot declares itself: the one place the rest of kraftstokk learns about this game."""

from __future__ import annotations

from kraftstokk.games.idiot.actions import V1_KINDS, IdiotAction, IdiotPhase
from kraftstokk.games.idiot.rules import RULES
from kraftstokk.games.spec import CounterSpec, GameSpec, VariantSpec

SPEC = GameSpec(
    name="idiot",
    min_players=2,
    max_players=5,
    variants=(
        VariantSpec("two_same_player"),
        VariantSpec("no_finish_on_two"),
        VariantSpec("no_swap"),
        VariantSpec("sequences"),
        VariantSpec("sneak_three"),
    ),
    bots=("heuristic", "greedy", "random", "expert"),
    default_bot="heuristic",
    menu_place=1,
    counters=(
        CounterSpec("pile_pickups", "times a player took the pile into hand"),
        CounterSpec("burns", "times the pile was burned"),
        CounterSpec("ten_burns", "burns by a 10"),
        CounterSpec("four_burns", "burns by cards of one rank on top (four, or burn_count)"),
        CounterSpec("resets", "2s laid"),
        CounterSpec("chance_draws", "chance draws (the top card of the stock turned)"),
        CounterSpec("chance_draws_played", "chance draws that could be laid"),
        CounterSpec("face_down_plays", "face-down cards turned"),
        CounterSpec("face_down_fails", "face-down cards that could not be laid"),
        CounterSpec("sneaks", "threes slipped under the pile (sneak_three)"),
    ),
    highlights=(
        "pile_pickups_per_game",
        "burns_per_game",
        "chance_draws_per_game",
        "chance_draws_played_rate",
        "face_down_fail_rate",
    ),
    game_module="kraftstokk.games.idiot.state",
    bots_module="kraftstokk.games.idiot.bots",
    action_kinds=IdiotAction,
    phases=IdiotPhase,
    v1_action_kinds=V1_KINDS,
    rules=RULES,
    objective="not_loser",
)
