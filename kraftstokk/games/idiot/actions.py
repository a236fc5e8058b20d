"""Idiot's actions: their kinds (numbers no other game uses), phases, and their words.

An action is a tuple of ints whose first element is its kind:

* ``(SWAP, hand_card, face_up_card)`` and ``(READY,)`` in the swap phase (ID-3);
* ``(PLAY, card, ...)`` one or more cards of one rank from hand or the face-up row;
* ``(SNEAK, card, ...)`` threes slipped under the pile (variant ``sneak_three``);
* ``(FACE_DOWN, slot)`` a face-down card chosen by slot, unseen (ID-11);
* ``(TAKE,)`` the pile into hand; ``(CHANCE,)`` turn the top of the stock (ID-10);
* ``(END_RUN,)`` stop a run (variant ``sequences``); ``(PASS,)`` only when nothing
  else is possible (a lone 2 under ``no_finish_on_two`` with an empty pile).

The ``Final`` ints are the enum's values for the compiled hot paths (a test checks that
they agree).
"""

from __future__ import annotations

from enum import IntEnum
from typing import Final

from kraftstokk.games.core import Action


class IdiotAction(IntEnum):
    SWAP = 100
    READY = 101
    PLAY = 102
    SNEAK = 103
    FACE_DOWN = 104
    TAKE = 105
    CHANCE = 106
    END_RUN = 107
    PASS = 108


class IdiotPhase(IntEnum):
    SWAPPING = 150
    PLAYING = 151
    OVER = 152


SWAP: Final = 100
READY: Final = 101
PLAY: Final = 102
SNEAK: Final = 103
FACE_DOWN: Final = 104
TAKE: Final = 105
CHANCE: Final = 106
END_RUN: Final = 107
PASS: Final = 108

PHASE_SWAP: Final = 150
PHASE_PLAY: Final = 151
PHASE_OVER: Final = 152
#: The phase member of each phase number (``IdiotPhase(n)`` is a slow call).
PHASES: Final[dict[int, IdiotPhase]] = {int(phase): phase for phase in IdiotPhase}

#: Kinds of a version-1 replay log (0..8 in this order) to today's.
V1_KINDS: Final = {old: int(kind) for old, kind in enumerate(IdiotAction)}

CHANCE_ACTION: Final[Action] = (CHANCE,)
TAKE_ACTION: Final[Action] = (TAKE,)
PASS_ACTION: Final[Action] = (PASS,)
READY_ACTION: Final[Action] = (READY,)
END_RUN_ACTION: Final[Action] = (END_RUN,)
