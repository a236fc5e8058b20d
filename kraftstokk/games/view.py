"""What a game package's ``view.py`` gives the web app: one seat's table as plain JSON.

Each game's ``view.py`` (found by :meth:`GameSpec.module`) defines ``table_view(state,
seat, plant_ids)`` and ``moves(state, seat)``, and a game whose moves include a claim
(a card laid under a plant and a figure said aloud) ``claim_actions``. The page
(``web/static/app.js``) draws any game from these building blocks and names no game:

- ``phase`` (the game's phase name, told by ``web.toml``'s ``[games.<game>.phases]``),
  ``current`` (the seat to move), ``players`` (each seat's counts and face-up cards);
- ``hand`` (the person's cards in the order shown), ``cards`` ("rank": a card is told by
  its suit and rank; "figure": by its plant and figure), ``category`` (the figure shown,
  None: all three);
- ``pile`` (``count``, the face-up ``cards`` top last, ``face_down``: the pile lies face
  down, ``figure``: the caption of the top card);
- ``counts`` (labelled numbers; ``word``: a category's word instead), ``notes`` (short
  texts under the counts), ``rows`` (the person's own table cards, face up or as face-down
  slots), ``panels`` (claims, cards shown, a war, a warning), ``question`` (what the person
  is asked now, in the page's words).

Every text is a key of ``web.toml``: ``games.<game>.<key>`` when the game has its own,
else ``ui.<key>``. Cards travel as their deck ids (``spar-7``), so a test can search any
answer for a card the seat may not see; a view holds only what the seat's observation
holds, and never an engine action.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from kraftstokk import locales
from kraftstokk.errors import RequestRefused
from kraftstokk.games.core import DeckTable

Json = dict[str, Any]

#: Engine category index -> the key the browser uses (deck.json's figure names).
CATEGORY_KEYS: tuple[str, ...] = ("mw", "gwh", "head_m")


class MoveRefused(RequestRefused):
    """A move a browser sent that is not legal now."""

    status = 422


@dataclass(frozen=True)
class ClaimChoice:
    """A claim as a person makes it: the card laid, the category, the plant and figure said."""

    card: str
    category: str
    plant_id: str
    figure: float | None = None  # None: the named plant's own figure


def refusal(
    key: str, error: type[RequestRefused] = MoveRefused, **values: object
) -> RequestRefused:
    """A refusal a person may meet, told in every language (``said``; the words are
    ``web.toml``'s ``key``, e.g. ``games.kraftidioten.refusals.below``) and in English as
    its message; a value that differs by language is a function of the language's code."""
    said = locales.in_every_language("web", key, **values)
    return error(said.get("en") or next(iter(said.values())), said=said)


def card_ids(table: DeckTable, cards: Sequence[int]) -> list[str]:
    return [table.ids[c] for c in cards if c >= 0]


def category_key(category: int) -> str | None:
    return CATEGORY_KEYS[category] if 0 <= category < len(CATEGORY_KEYS) else None


def figure_order(table: DeckTable, category: int, card: int) -> tuple[int, float, int]:
    """Hand order in the power-plant games: jokers first, then by the category's figure."""
    if table.joker[card] or category < 0:
        return (0 if table.joker[card] else 1, 0.0, card)
    return (1, table.figures[category][card], card)


def in_figure_order(table: DeckTable, category: int, cards: Iterable[int]) -> list[int]:
    """``cards`` sorted by :func:`figure_order`, from each card's place in that order,
    made once per table and category (a view sorts the hand at every step of a game)."""
    places: dict[int, list[int]] | None = table.__dict__.get("_hand_places")
    if places is None:
        places = {}
        object.__setattr__(table, "_hand_places", places)  # a cache, not a field
    place = places.get(category)
    if place is None:
        order = sorted(range(table.size), key=lambda card: figure_order(table, category, card))
        place = [0] * table.size
        for position, card in enumerate(order):
            place[card] = position
        places[category] = place
    return sorted(cards, key=place.__getitem__)


def players(
    hand_counts: Sequence[int],
    out: Sequence[bool],
    face_up: Sequence[Sequence[str]] = (),
    face_down: Sequence[int] = (),
) -> list[Json]:
    """Every seat as the table sees it: its hand count, face-up cards, face-down count."""
    return [
        {
            "seat": seat,
            "hand": count,
            "face_up": list(face_up[seat]) if face_up else [],
            "face_down": face_down[seat] if face_down else 0,
            "out": bool(out[seat]),
        }
        for seat, count in enumerate(hand_counts)
    ]


def count(label: str, value: int) -> Json:
    return {"label": label, "value": value}


def category_count(category: int) -> Json:
    """The count box naming the category played (None: not chosen yet)."""
    return {"label": "category", "word": category_key(category)}


__all__ = [
    "CATEGORY_KEYS",
    "ClaimChoice",
    "Json",
    "MoveRefused",
    "card_ids",
    "category_count",
    "category_key",
    "count",
    "figure_order",
    "in_figure_order",
    "players",
    "refusal",
]
