"""The columns of deck.csv and deck.xlsx, and what kind of value each holds."""

from __future__ import annotations

from kraftstokk.models import CATEGORIES

CSV_COLUMNS: tuple[str, ...] = (
    "id",
    "joker",
    "suit",
    "value",
    "plant_id",
    "name",
    "mw",
    "gwh",
    "head_m",
    "nr_mw",
    "nr_gwh",
    "nr_head_m",
    "invisible_mw",
    "invisible_gwh",
    "invisible_head_m",
    "top3_mw",
    "top3_gwh",
    "top3_head_m",
    "burn",
    "reset",
    "gwh_tens",
    "war_partners",
    "lat",
    "lon",
    "type",
    "build",
)
#: Columns a deck written before them lacks; such a deck still loads (the cells are empty).
LATER_CSV_COLUMNS: frozenset[str] = frozenset({"lat", "lon", "type", "build"})
#: Text columns: guarded against formulas on write, unguarded on read.
TEXT_COLUMNS = frozenset({"id", "suit", "plant_id", "name", "war_partners", "type", "build"})
#: Whole numbers.
WHOLE_COLUMNS = frozenset({"value", "gwh_tens", *(f"nr_{c}" for c in CATEGORIES)})
#: Numbers with decimals: the figures and the place.
DECIMAL_COLUMNS = frozenset({*CATEGORIES, "lat", "lon"})
NUMBER_COLUMNS = WHOLE_COLUMNS | DECIMAL_COLUMNS
#: True or false.
FLAG_COLUMNS = frozenset(
    {"joker", "burn", "reset"}
    | {f"{kind}_{c}" for kind in ("invisible", "top3") for c in CATEGORIES}
)


def column_letters(index: int) -> str:
    """The spreadsheet name of the 0-based column ``index``: 0 -> A, 25 -> Z, 26 -> AA."""
    letters = ""
    number = index + 1
    while number:
        number, rest = divmod(number - 1, 26)
        letters = chr(ord("A") + rest) + letters
    return letters
