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

from kraftstokk.errors import GameError
from kraftstokk.games.core import Action
from kraftstokk.games.events import Narrator
from kraftstokk.games.idiot.rules import rank_name


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


def action_text(
    action: Action, n: Narrator, ranks: tuple[int, ...], from_face_up: bool, pile_size: int
) -> str:
    """The action in words for the player choosing it (their own cards are named)."""
    kind = action[0]
    nb = n.nb
    if kind in (PLAY, SNEAK):
        cards = action[1:]
        count = f"{len(cards)} × " if len(cards) > 1 else ""
        rank = rank_name(ranks[cards[0]])
        if nb:
            where = " fra de åpne bordkortene" if from_face_up else ""
            if kind == SNEAK:
                return f"legg {count}{rank}{where} under bunken: {n.cards(cards)}"
            return f"legg {count}{rank}{where}: {n.cards(cards)}"
        where = " from the face-up row" if from_face_up else ""
        if kind == SNEAK:
            return f"slip {count}{rank}{where} under the pile: {n.cards(cards)}"
        return f"play {count}{rank}{where}: {n.cards(cards)}"
    if kind == FACE_DOWN:
        if nb:
            return f"snu skjult bordkort {action[1] + 1} (usett)"
        return f"turn face-down card {action[1] + 1} (unseen)"
    if kind == TAKE:
        return (
            f"ta bunken ({n.cards_count(pile_size)})"
            if nb
            else (f"take the pile ({n.cards_count(pile_size)})")
        )
    if kind == CHANCE:
        if nb:
            return "ta sjansen: snu øverste kort i trekkbunken"
        return "take a chance: turn the top card of the stock"
    if kind == SWAP:
        if nb:
            return f"bytt {n.card(action[1])} fra hånda med {n.card(action[2])} fra de åpne"
        return f"swap {n.card(action[1])} from hand with {n.card(action[2])} from the face-up row"
    if kind == READY:
        return "ferdig med å bytte" if nb else "done swapping"
    if kind == END_RUN:
        return "avslutt serien" if nb else "end the run"
    if kind == PASS:
        return "stå over (ingen trekk mulig)" if nb else "pass (no move possible)"
    raise GameError(f"idiot: unknown action {list(action)}")
