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
