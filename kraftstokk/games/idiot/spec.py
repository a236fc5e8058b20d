"""Idiot declares itself: the one place the rest of kraftstokk learns about this game."""

from __future__ import annotations

from kraftstokk.games.idiot.actions import V1_KINDS, IdiotAction, IdiotPhase
from kraftstokk.games.idiot.rules import RULES
from kraftstokk.games.spec import CounterSpec, GameSpec, VariantSpec

SPEC = GameSpec(
    name="idiot",
    title_nb="Idiot",
    title_en="Idiot",
    min_players=2,
    max_players=5,
    variants=(
        VariantSpec(
            "two_same_player",
            "Den som legger en toer, legger igjen (hva som helst).",
            "The player who lays a 2 plays again, any rank.",
        ),
        VariantSpec(
            "no_finish_on_two",
            "En toer kan ikke være det siste kortet man legger.",
            "A 2 may not be the last card played.",
        ),
        VariantSpec("no_swap", "Ingen bytting før spillet.", "No swapping before play."),
        VariantSpec(
            "sequences",
            "Serier: 3-4-5 kan legges i én tur, over tieren (9 så knekt); ingen 2 eller 10 "
            "i en serie; et skjult bordkort som fortsetter serien, kan legges i den.",
            "Runs: 3-4-5 may be laid in one turn, stepping over the 10 (9 then jack); no 2 "
            "or 10 inside a run; a face-down card that continues the run may be played in it.",
        ),
        VariantSpec(
            "sneak_three",
            "En treer kan legges under bunken i stedet for oppå.",
            "A 3 may go under the pile instead of on top.",
        ),
    ),
    bots=("heuristic", "greedy", "random", "expert"),
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
    booklet_section="idiot",
    game_module="kraftstokk.games.idiot.state",
    bots_module="kraftstokk.games.idiot.bots",
    action_kinds=IdiotAction,
    phases=IdiotPhase,
    v1_action_kinds=V1_KINDS,
    rules=RULES,
    objective="not_loser",
)
