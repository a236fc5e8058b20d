"""What a card of the deck is, in plain Python: the engine's and the page's part of it.

The suits, values and categories, the deck's size and the nr. thresholds the rules use,
and how a figure prints on a card (Norwegian format: 4 357 GWh, 1 240,5 MW). The
pydantic models (``models.py``) and the card designer (``design/numbers.py``) take them
from here, and so does the game engine, which must run without pydantic (the static web
edition runs it in the browser on Pyodide, where there is no pydantic).

Each field is shown the same way on every card of a deck: to whole numbers, unless
that would make two different figures of the deck look equal, then to one decimal.
Rounding is half up, but never up into the next ten (749.74 GWh prints as "749", not
"750"): the production a player reads must lie in the same ten as the exact figure that
decides a Strømkrig war (SK-6b). The rounding is monotone, so figures shown distinct keep
the order of the exact ones.
"""

from __future__ import annotations

from collections.abc import Iterable
from decimal import ROUND_DOWN, ROUND_HALF_UP, Decimal, localcontext
from typing import Literal

Category = Literal["mw", "gwh", "head_m"]
CATEGORIES: tuple[Category, ...] = ("mw", "gwh", "head_m")
#: The unit of each category, as printed on the cards.
CATEGORY_UNITS: dict[Category, str] = {"mw": "MW", "gwh": "GWh", "head_m": "m"}

Suit = Literal["spar", "kløver", "hjerter", "ruter"]
SUITS: tuple[Suit, ...] = ("spar", "hjerter", "kløver", "ruter")

DECK_SIZE = 52
JOKERS = 3
INVISIBLE_FROM_NR = 50  # D-4: nr. 50, 51 and 52 are "usynlige kort"
TOP_NR = 3  # KI-8: nr. 1-3 in the current category may burn the pile

#: Thousands separator. Vera has no thin space (U+2009/U+202F); the no-break space keeps
#: "4 357" on one line and extracts from the PDF as a space-like character.
THOUSANDS = "\u00a0"
DECIMAL_MARK = ","
MAX_DECIMALS = 1


def round_shown(value: float, decimals: int) -> Decimal:
    """The figure as printed: half up to ``decimals`` places, but not into the next ten."""
    quantum = Decimal(1).scaleb(-decimals)
    exact = Decimal(repr(value))
    # Enough digits for any float (1e308 has 309): the default 28 would make a figure of
    # 1e28 an InvalidOperation instead of a number too large to print.
    with localcontext(prec=max(28, exact.adjusted() + decimals + 3)):
        rounded = exact.quantize(quantum, rounding=ROUND_HALF_UP)
        if rounded // 10 != exact // 10:
            return exact.quantize(quantum, rounding=ROUND_DOWN)
    return rounded


def printed_figure(value: float, decimals: int = 0) -> float:
    """The figure as the card prints it, as a number: ``4357.2`` -> ``4357.0``,
    ``1240.45, 1`` -> ``1240.5``. Claims are made and judged in these (KI-2, KI-6);
    :func:`format_number` of it with the same decimals is the text on the card."""
    return float(round_shown(value, decimals))


def format_number(value: float, decimals: int = 0, thousands: str = THOUSANDS) -> str:
    """``4357.2`` -> ``'4 357'``; ``1240.45, 1`` -> ``'1 240,5'`` (no-break spaces, or
    ``thousands``: the game's narration groups with plain spaces)."""
    rounded = round_shown(value, decimals)
    sign = "−" if rounded < 0 else ""
    text = f"{abs(rounded):,.{decimals}f}"
    whole, _, frac = text.partition(".")
    whole = whole.replace(",", thousands)
    return sign + whole + (DECIMAL_MARK + frac if frac else "")


def decimals_for(values: Iterable[float]) -> int:
    """Fewest decimals (0 or 1) that keep every distinct figure distinct, and show no
    positive figure as 0 (a 0.3 MW plant prints "0,3", never "0")."""
    distinct = sorted(set(values))
    for decimals in range(MAX_DECIMALS + 1):
        shown = {round_shown(v, decimals) for v in distinct}
        shows_zero = any(v > 0 and round_shown(v, decimals) == 0 for v in distinct)
        if len(shown) == len(distinct) and not shows_zero:
            return decimals
    return MAX_DECIMALS
