"""Values that cannot be changed once made: the base of events and observations.

The dataclass-generated ``__init__`` of a compiled class runs as interpreted Python (and a
frozen one sets each field through ``object.__setattr__``), several microseconds for an
observation; the engine makes one per decision. So events and observations are
``@dataclass(init=False)`` classes (for their fields, ``==`` and ``repr``) with a written
``__init__``, which mypyc compiles to direct stores, and they derive from
:class:`Frozen`, which refuses any later change: an attribute may be set only while it is
not yet set (that is, in ``__init__``), and never deleted.
"""

from __future__ import annotations


class Frozen:
    def __setattr__(self, name: str, value: object) -> None:
        if hasattr(self, name):
            raise AttributeError(f"{type(self).__name__} is frozen: {name} cannot be changed")
        object.__setattr__(self, name, value)

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"{type(self).__name__} is frozen: {name} cannot be deleted")
