"""Kraftidioten's actions: their kinds (numbers no other game uses), phases and words.

An action is a tuple of ints whose first element is its kind:

* ``(LAY, card, category, plant)``: lay ``card`` face down and claim ``plant`` with the
  figure its card prints in ``category`` (on a running pile the category is the pile's).
  On a turn only the truth is listed (``plant == card``).
* ``(LIE, card, category)``: lie with ``card`` (KI-4c). The same seat then names the
  claim: ``(LAY, card, category, plant)`` with ``plant != card`` (a wrong name with that
  plant's printed figure), or ``(LAY, card, category, plant, figure)`` with any plant,
  the card's own included, and a whole ``figure`` that is not the plant's printed one
  (a wrong figure).
* ``(JOKER, card)``: lay a joker from hand; it is shown and burns the pile (KI-7).
* ``(TAKE,)``: take the pile into hand (KI-4a); ``(DRAW,)``: draw from the stock (KI-4b).
* ``(CHALLENGE,)`` / ``(PASS,)``: the out-of-turn answer of one seat to the last claim.

The ``Final`` ints are the enums' values for the hot paths (a test checks that they
agree).
"""

from __future__ import annotations

from enum import IntEnum
from typing import Final

from kraftstokk.errors import GameError
from kraftstokk.games.core import Action
from kraftstokk.games.events import Narrator


class KraftidiotenAction(IntEnum):
    LAY = 200
    JOKER = 201
    TAKE = 202
    DRAW = 203
    CHALLENGE = 204
    PASS = 205
    LIE = 206


class KraftidiotenPhase(IntEnum):
    TURN = 250  # a seat's own turn
    CHALLENGE = 251  # a seat is asked whether it challenges the last claim
    CLAIM = 252  # after LIE: the liar names its claim (only the liar sees this phase)


LAY: Final = 200
JOKER: Final = 201
TAKE: Final = 202
DRAW: Final = 203
CHALLENGE: Final = 204
PASS: Final = 205
LIE: Final = 206

PHASE_TURN: Final = 250
PHASE_CHALLENGE: Final = 251
PHASE_CLAIM: Final = 252

TAKE_ACTION: Final[Action] = (TAKE,)
DRAW_ACTION: Final[Action] = (DRAW,)
CHALLENGE_ACTION: Final[Action] = (CHALLENGE,)
PASS_ACTION: Final[Action] = (PASS,)


def claim_text(n: Narrator, category: int, plant: int, stated: float | None) -> str:
    """'Tonstad, 4 405 GWh': the plant named and the figure stated (None: its printed one)."""
    name = n.table.names[plant]
    if stated is None:
        return f"{name}, {n.figure(category, plant)}"
    return f"{name}, {n.amount(category, stated)}"


def action_text(action: Action, n: Narrator, pile_size: int, printed: float | None) -> str:
    """The action in words for the player choosing it (their own card is named).

    ``printed`` is the claimed plant's printed figure for a ``LAY``, to tell a stated
    figure from the printed one; ``pile_size`` the cards a ``TAKE`` takes.
    """
    kind = action[0] if action else -1
    nb = n.nb
    if kind == LAY and len(action) in (4, 5):
        card, category, plant = action[1:4]
        stated = float(action[4]) if len(action) == 5 else None
        if stated is not None and stated == printed:
            stated = None
        claim = claim_text(n, category, plant, stated)
        if nb:
            return f"legg {n.card(card)} med baksiden opp og søk konsesjon for {claim}"
        return f"lay {n.card(card)} face down and claim {claim}"
    if kind == LIE and len(action) == 3:
        card, category = action[1:3]
        if nb:
            return f"lyv med {n.card(card)} i {n.category(category)}"
        return f"lie with {n.card(card)} in {n.category(category)}"
    if kind == JOKER and len(action) == 2:
        if nb:
            return "legg jokeren og brenn bunken"
        return "lay the joker and burn the pile"
    if kind == TAKE:
        if nb:
            return f"ta inn bunken ({n.cards_count(pile_size)})"
        return f"take the pile ({n.cards_count(pile_size)})"
    if kind == DRAW:
        if nb:
            return "trekk en sjanse: søk konsesjon for øverste kort i trekkbunken"
        return "draw a chance: claim the top card of the stock"
    if kind == CHALLENGE:
        return "anke søknaden" if nb else "challenge the claim"
    if kind == PASS:
        return "la søknaden stå" if nb else "let the claim stand"
    raise GameError(f"kraftidioten: unknown action {list(action)}")
