"""Specs of the games still in their first-edition modules (``kraftidioten.py``, ...).

Transitional: a game converted into its package (``games/<name>/spec.py``) is found
there and its entry here is no longer used; delete the entry with the old module.
"""

from __future__ import annotations

from kraftstokk.games.spec import CounterSpec, GameSpec

#: A first-edition module still numbers its kinds as version-1 logs do.
UNCHANGED = {kind: kind for kind in range(16)}

LEGACY_SPECS: tuple[GameSpec, ...] = (
    GameSpec(
        name="kraftidioten",
        title_nb="Kraftidioten",
        title_en="Kraftidioten",
        min_players=2,
        max_players=10,
        variants=(),
        bots=("heuristic", "greedy", "random"),
        counters=(
            CounterSpec("pile_pickups", "times a player took the pile into hand"),
            CounterSpec("burns", "times the pile was burned"),
            CounterSpec("claims", "cards laid under a claim"),
            CounterSpec("lies", "claims that were lies"),
            CounterSpec("challenges", "claims challenged"),
            CounterSpec("challenges_upheld", "challenges that exposed a lie"),
            CounterSpec("challenges_groundless", "challenges of a true claim"),
            CounterSpec("top3_claims", "claims of a top-3 card"),
            CounterSpec("top3_burns", "burns by an unchallenged top-3 claim"),
            CounterSpec("joker_burns", "burns by a joker"),
            CounterSpec("joker_penalties", "jokers laid with two cards or fewer in hand"),
            CounterSpec("stock_draws", "cards drawn from the stock and claimed"),
        ),
        highlights=(
            "pile_pickups_per_game",
            "burns_per_game",
            "lies_per_game",
            "challenges_per_game",
            "challenges_upheld_rate",
            "lie_caught_rate",
            "top3_burns_per_game",
            "joker_burns_per_game",
        ),
        booklet_section="kraftidioten",
        game_module="kraftstokk.games.kraftidioten",
        bots_module="kraftstokk.games.kraftidioten_bots",
        v1_action_kinds=UNCHANGED,
    ),
)
