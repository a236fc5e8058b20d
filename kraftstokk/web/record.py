"""Every action of a game, packed for the sealed save so that its length tells nothing.

The save carries every action taken — the bots' too — so that a resume replays them and
asks no bot anything (an expert's search is never run again). It is sealed (``seal.py``),
but the length of a sealed text is the length of what it holds, and the page sees that:
it must follow from what the person knows. Two things in the actions do not:

- a hidden number's size: an action is packed at the width its largest number needs (one
  byte, two or four), and the only numbers a seat may not know are cards (below 256, so
  they never widen an action: its width follows from its kind and what was said aloud,
  such as a claim's figure);
- actions the other seats do not see happen (Kraftidioten's choice to lie, ``LIE``, before
  the claim everyone hears: ``State.public_action_string`` is empty for them), whose
  number would count a bot's lies. After each public action of a kind a hidden action may
  come right before (the game's view says which, ``HIDDEN_BEFORE``; every kind when it
  does not) there is a slot of :data:`HIDDEN_SLOT` bytes, holding the hidden action or
  nothing, whether used or not.

An action is ``[width and count][its numbers]``. The record grows by one entry per action
as the game is played, so the save is packed once per action, not once per answer.
"""

from __future__ import annotations

import struct
from collections.abc import Collection

from kraftstokk.errors import GameError
from kraftstokk.games.core import Action, State

MAX_NUMBERS = 31  # numbers in one action (the bounds of a save allow 16)
#: Each width's struct code and range, by its code in an entry's first byte.
WIDTHS = (("B", 0, 2**8), ("h", -(2**15), 2**15), ("i", -(2**31), 2**31))
HIDDEN_NUMBERS = 3  # numbers in a hidden action (Kraftidioten's (LIE, card, category))
HIDDEN_SLOT = 1 + HIDDEN_NUMBERS  # its numbers one byte each (a kind below 256, cards)

_hidden_kinds: dict[tuple[str, int], bool] = {}
_structs: dict[tuple[int, int], struct.Struct] = {}


def has_hidden_actions(state: State) -> bool:
    """Whether the game may take actions the other seats do not see (its state says what
    the others see of an action: ``public_action_string``)."""
    return type(state).public_action_string is not State.public_action_string


def is_hidden(state: State, action: Action) -> bool:
    """Whether the other seats do not see ``action`` happen (asked of the state it is
    taken in; a game's hidden actions are hidden by their kind, which a test checks)."""
    key = (state.game.name, action[0])
    hidden = _hidden_kinds.get(key)
    if hidden is None:
        hidden = _hidden_kinds[key] = state.public_action_string(action) == ""
    return hidden


class ActionRecord:
    """The packed actions of one game, added one by one as they are taken.

    ``room``: the kinds of public action a hidden one may come right before (each gets a
    slot); None for a game without hidden actions, empty for "every kind"."""

    def __init__(self, room: Collection[int] | None) -> None:
        self.room = None if room is None else frozenset(room)
        self._data = bytearray()
        self._pending: Action | None = None  # a hidden action, until its public one comes

    def add(self, action: Action, hidden: bool) -> None:
        if hidden:
            if self.room is None or self._pending is not None:
                raise GameError(f"record: a hidden action {list(action)} it has no room for")
            _slot(action)  # refused now if it does not fit a slot
            self._pending = action
            return
        self._data += _packed(action)
        if self.room is not None and (not self.room or action[0] in self.room):
            self._data += _slot(self._pending)
            self._pending = None
        elif self._pending is not None:
            raise GameError(f"record: a hidden action before {list(action)}, which has no room")

    def data(self) -> bytes:
        """The record as it stands (a hidden action still waiting gets an empty entry)."""
        if self._pending is None:
            return bytes(self._data)
        return bytes(self._data) + _packed(()) + _slot(self._pending)


def unpack(data: bytes, room: Collection[int] | None) -> list[Action]:
    """The actions of a record, in the order they were taken; GameError when malformed."""
    kinds = None if room is None else frozenset(room)
    actions: list[Action] = []
    at = 0
    while at < len(data):
        public, at = _read(data, at)
        if kinds is not None and (not public or not kinds or public[0] in kinds):
            if at + HIDDEN_SLOT > len(data):
                raise GameError("record: ends inside a hidden action's slot")
            hidden, _ = _read(data[at : at + HIDDEN_SLOT], 0)
            if hidden:
                actions.append(hidden)
            at += HIDDEN_SLOT
        if public:
            actions.append(public)
    return actions


def _packed(action: Action) -> bytes:
    if len(action) > MAX_NUMBERS:
        raise GameError(f"record: an action of {len(action)} numbers")
    low, high = min(action, default=0), max(action, default=0)
    for code, (_, least, most) in enumerate(WIDTHS):
        if least <= low and high < most:
            return _struct(code, len(action)).pack(code << 5 | len(action), *action)
    raise GameError(f"record: a number of {list(action)} is out of range")


def _slot(action: Action | None) -> bytes:
    if action is None:
        return bytes(HIDDEN_SLOT)
    if len(action) > HIDDEN_NUMBERS or any(not 0 <= number < 256 for number in action):
        raise GameError(f"record: a hidden action {list(action)} does not fit its slot")
    packed = _struct(0, len(action)).pack(len(action), *action)
    return packed + bytes(HIDDEN_SLOT - len(packed))


def _struct(code: int, count: int) -> struct.Struct:
    made = _structs.get((code, count))
    if made is None:
        made = _structs[(code, count)] = struct.Struct(f">B{count}{WIDTHS[code][0]}")
    return made


def _read(data: bytes, at: int) -> tuple[Action, int]:
    head = data[at]
    code, count = head >> 5, head & 31
    if code >= len(WIDTHS):
        raise GameError(f"record: an entry of width {code}")
    layout = _struct(code, count)
    if at + layout.size > len(data):
        raise GameError("record: ends inside an action")
    return tuple(layout.unpack_from(data, at)[1:]), at + layout.size
