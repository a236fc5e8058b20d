"""Every action of a game, packed for the sealed save so that its length tells nothing.

The save carries every action taken — the bots' too — so that a resume replays them and
asks no bot anything (an expert's search is never run again). It is sealed (``seal.py``),
but the length of a sealed text is the length of what it holds, and the page sees that:
it must follow from what the person knows. Two things in the actions do not:

- the numbers in them: a card's index (is it below 10?) would change a decimal text's
  length, so every number is four bytes, whatever its value;
- actions the other seats do not see happen (Kraftidioten's choice to lie, ``LIE``, before
  the claim everyone hears: ``State.public_action_string`` is empty for them), whose
  number would count a bot's lies. Each public action is followed by a slot of
  :data:`HIDDEN_SLOT` bytes that holds the hidden action taken before it, or nothing: one
  slot per public action, whether used or not, in a game that has hidden actions.

A public action is ``[n][n numbers]``; its number of numbers is part of what everyone saw
(Idiot's cards laid, a claim with its figure said aloud). The record grows by one entry
per action as the game is played, so the save is packed once per action, not per answer.
"""

from __future__ import annotations

import struct
from collections.abc import Iterable, Sequence

from kraftstokk.errors import GameError
from kraftstokk.games.core import Action, State

NUMBER = struct.Struct(">i")
MAX_NUMBERS = 255  # numbers in one action (the bounds of a save allow 16)
HIDDEN_NUMBERS = 3  # numbers in a hidden action (Kraftidioten's (LIE, card, category))
HIDDEN_SLOT = 1 + NUMBER.size * HIDDEN_NUMBERS

_hidden_kinds: dict[tuple[str, int], bool] = {}


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
    """The packed actions of one game, added one by one as they are taken."""

    def __init__(self, hidden_slots: bool) -> None:
        self.hidden_slots = hidden_slots
        self._data = bytearray()
        self._pending: Action | None = None  # a hidden action, until its public one comes

    def add(self, action: Action, hidden: bool) -> None:
        if hidden:
            if not self.hidden_slots or self._pending is not None:
                raise GameError(f"record: a hidden action {list(action)} it has no room for")
            if len(action) > HIDDEN_NUMBERS:
                raise GameError(f"record: a hidden action of {len(action)} numbers")
            self._pending = action
            return
        self._data += _packed(action)
        if self.hidden_slots:
            self._data += _slot(self._pending)
            self._pending = None

    def data(self) -> bytes:
        """The record as it stands (a hidden action still waiting gets an empty entry)."""
        if self._pending is None:
            return bytes(self._data)
        return bytes(self._data) + _packed(()) + _slot(self._pending)


def unpack(data: bytes, hidden_slots: bool) -> list[Action]:
    """The actions of a record, in the order they were taken; GameError when malformed."""
    actions: list[Action] = []
    at = 0
    while at < len(data):
        public, at = _read(data, at, "action")
        if hidden_slots:
            if at + HIDDEN_SLOT > len(data):
                raise GameError("record: ends inside a hidden action's slot")
            hidden, _ = _read(data[at : at + HIDDEN_SLOT], 0, "hidden action")
            if hidden:
                actions.append(hidden)
            at += HIDDEN_SLOT
        if public:
            actions.append(public)
    return actions


def pack(actions: Iterable[Action], hidden: Sequence[bool], hidden_slots: bool) -> bytes:
    record = ActionRecord(hidden_slots)
    for action, unseen in zip(actions, hidden, strict=True):
        record.add(action, unseen)
    return record.data()


def _packed(action: Action) -> bytes:
    if len(action) > MAX_NUMBERS:
        raise GameError(f"record: an action of {len(action)} numbers")
    return bytes([len(action)]) + b"".join(NUMBER.pack(number) for number in action)


def _slot(action: Action | None) -> bytes:
    packed = _packed(action or ())
    return packed + bytes(HIDDEN_SLOT - len(packed))


def _read(data: bytes, at: int, what: str) -> tuple[Action, int]:
    count = data[at]
    end = at + 1 + NUMBER.size * count
    if end > len(data):
        raise GameError(f"record: ends inside an {what}")
    numbers = tuple(NUMBER.unpack_from(data, at + 1 + NUMBER.size * i)[0] for i in range(count))
    return numbers, end
