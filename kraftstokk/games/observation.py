"""The typed observation convention: what one seat may know, and nothing more.

Each game defines ``<game>/observation.py`` with a frozen class deriving from
:class:`Observation`. It is built from the state by copying (tuples of card indices,
numbers, enum members), and holds no reference to the state or to anything that leads
to it, so a bot cannot reach a hidden card even by introspection. The game's
``narration.py`` tells it in words for a person (``play``), and its ``view.py`` turns it
into the web app's view, so neither needs to know the game's fields.
"""

from __future__ import annotations

from dataclasses import dataclass


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
