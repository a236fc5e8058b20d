"""The typed observation convention: what one seat may know, and nothing more.

Each game defines ``<game>/observation.py`` with a frozen class deriving from
:class:`Observation`. It is built from the state by copying (tuples of card indices,
numbers, enum members), and holds no reference to the state or to anything that leads
to it, so a bot cannot reach a hidden card even by introspection. It renders itself in
words for a person (:meth:`Observation.lines`), so ``play`` and the web app need no
knowledge of the game's fields.
"""

from __future__ import annotations

from dataclasses import dataclass

from kraftstokk.games.events import Narrator


@dataclass(init=False)
class Observation:
    """Base of every game's observation: the seat it belongs to.

    A subclass is a ``@dataclass(init=False)`` declaring its fields and setting each,
    ``seat`` first, in its own ``__init__``, and it defines ``__setattr__`` and
    ``__delattr__`` as ``set_once`` and ``refuse_delete`` of ``frozen.py`` (see there
    for why each class defines them itself); a test checks every game's.
    """

    seat: int

    def __init__(self, seat: int) -> None:
        self.seat = seat

    def lines(self, n: Narrator) -> list[str]:
        """The view in words, in the narrator's language, for the person in ``seat``."""
        raise NotImplementedError
