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

from kraftstokk.errors import GameError
from kraftstokk.games.core import GWH, Action
from kraftstokk.games.events import Narrator


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


def action_text(action: Action, n: Narrator, war_category: int, pile_size: int) -> str:
    """The action in words for the player choosing it, figures as the cards print them."""
    kind = action[0]
    nb = n.nb
    if kind == LAY:
        card = action[1]
        laid = f"{n.card(card)} · {n.figure(GWH, card)}"
        return f"legg {laid}" if nb else f"lay {laid}"
    if kind == RUN:
        cards = ", ".join(f"{n.card(c)} · {n.figure(GWH, c)}" for c in action[1:])
        return f"legg rekke: {cards}" if nb else f"lay a run: {cards}"
    if kind == BURN:
        named = n.card(action[1])
        return f"legg {named} og brenn bunken" if nb else f"lay {named} to burn the pile"
    if kind == RESET:
        named = n.card(action[1])
        return f"legg {named} og null ut" if nb else f"lay {named} to reset"
    if kind == INVISIBLE:
        named = n.card(action[1])
        if nb:
            return f"legg {named} ved siden av bunken (usynlig)"
        return f"lay {named} beside the pile (invisible)"
    if kind == TAKE:
        size = n.cards_count(pile_size)
        return f"ta inn bunken ({size})" if nb else f"take the pile ({size})"
    if kind == CHANCE:
        if nb:
            return "ta en sjanse: snu øverste kort i trekkbunken"
        return "take a chance: turn the top card of the stock"
    if kind == JOIN:
        return "bli med i krigen" if nb else "join the war"
    if kind == STAY_OUT:
        return "stå utenfor krigen" if nb else "stay out of the war"
    if kind == NAME:
        category = n.category(action[1])
        return f"velg {category}" if nb else f"name {category}"
    if kind == WAR_LAY:
        card = action[1]
        shown = n.card(card)
        if not n.table.joker[card]:
            shown += f" · {n.figure(war_category if war_category >= 0 else GWH, card)}"
        return f"legg {shown} i krigen" if nb else f"lay {shown} in the war"
    raise GameError(f"stromkrig: unknown action {list(action)}")
