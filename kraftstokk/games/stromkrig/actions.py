"""Strømkrig's actions: their kinds (numbers no other game uses), phases, and their words.

An action is a tuple of ints whose first element is its kind:

* ``(LAY, card)`` an ordinary card on the pile (SK-2, SK-6b);
* ``(RUN, card, card, ...)`` a run, lowest production first (SK-5);
* ``(BURN, card)`` a joker or a club 1-4 (SK-10); ``(RESET, card)`` a 2 (SK-11);
  ``(INVISIBLE, card)`` beside the pile (SK-12);
* ``(TAKE,)`` the pile (SK-4); ``(CHANCE,)`` sjanse, turn the stock's top card (SK-3);
* ``(JOIN,)`` / ``(STAY_OUT,)`` when asked to join a war; ``(NAME, category)`` the
  challenger names the war's category; ``(WAR_LAY, card)`` one war card (SK-7).

In the chance phase the turned card is used with ``LAY``, ``BURN``, ``RESET`` or
``INVISIBLE`` of that card. The ``Final`` ints are the enum's values for the compiled hot
paths (a test checks that they agree).
"""

from __future__ import annotations

from enum import IntEnum
from typing import Final

from kraftstokk.games.core import Action


class StromkrigAction(IntEnum):
    LAY = 300
    RUN = 301
    BURN = 302
    RESET = 303
    INVISIBLE = 304
    TAKE = 305
    CHANCE = 306
    JOIN = 307
    STAY_OUT = 308
    NAME = 309
    WAR_LAY = 310


class StromkrigPhase(IntEnum):
    PLAY = 350  # a regular turn
    CHOOSE = 351  # the sjanse card is turned; the player chooses its use
    ASK = 352  # a player is asked to join the war
    NAMING = 353  # the challenger names the category
    WAR = 354  # a player in the war lays a war card
    OVER = 355


LAY: Final = 300
RUN: Final = 301
BURN: Final = 302
RESET: Final = 303
INVISIBLE: Final = 304
TAKE: Final = 305
CHANCE: Final = 306
JOIN: Final = 307
STAY_OUT: Final = 308
NAME: Final = 309
WAR_LAY: Final = 310

PLAY: Final = 350
CHOOSE: Final = 351
ASK: Final = 352
NAMING: Final = 353
WAR: Final = 354
OVER: Final = 355

#: Kinds of a version-1 replay log (0..10 in this order) to today's. The rules a v1 log
#: was played under are today's (SK-3 as corrected is what the engine already did).
V1_KINDS: Final = {old: int(kind) for old, kind in enumerate(StromkrigAction)}

TAKE_ACTION: Final[Action] = (TAKE,)
CHANCE_ACTION: Final[Action] = (CHANCE,)
JOIN_ACTION: Final[Action] = (JOIN,)
STAY_OUT_ACTION: Final[Action] = (STAY_OUT,)
NAME_ACTIONS: Final[tuple[Action, ...]] = tuple((NAME, c) for c in range(3))
