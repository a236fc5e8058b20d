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

from kraftstokk.games.core import Action


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
