"""The bounds every entry point holds a plant to (files, the API, decks, saves, options).

Kept free of imports so the CLI can declare its options with them and stay quick to start.
"""

from __future__ import annotations

#: Lowest and highest figure accepted anywhere (ingest, fetch, snapshots, decks, saves):
#: beyond these no plant on Earth lies (the largest has 22 500 MW, about 100 000 GWh a year
#: and 1 900 m of head), and below the minimum a figure would print as 0.
FIGURE_LIMITS: dict[str, tuple[float, float]] = {
    "mw": (0.05, 25_000.0),
    "gwh": (0.05, 150_000.0),
    "head_m": (0.05, 2_500.0),
}
#: Longest plant name (and id) accepted before fitting it on a card is even tried.
MAX_NAME_LENGTH = 120
#: Most actions one game may take before it stops unfinished: ``simulate --action-cap``,
#: a sweep's ``action_cap`` and a replay log's rules all hold to it (each action is a few
#: microseconds; a million is already seconds per game).
MAX_ACTION_CAP = 1_000_000
#: Seconds ``preflight`` spends on one file by default (``--max-time``).
PREFLIGHT_SECONDS = 60.0
#: Seeds are stored in replay logs and reports as JSON numbers: 64-bit is plenty.
SEED_RANGE = (-(2**63), 2**63 - 1)
#: What a replay log's seed may be: a seed given (SEED_RANGE) or one a series derived for
#: its game (``games/core.py``'s ``derive_seed``: 0 to 2**64 - 1), as ``simulate`` writes
#: for an unfinished game.
REPLAY_SEED_RANGE = (SEED_RANGE[0], 2**64 - 1)
