"""How an observation is frozen without slowing the engine down.

A frozen dataclass's generated ``__init__`` runs as interpreted Python and sets each field
through ``object.__setattr__``: several microseconds for an observation, and the engine
makes one per decision. A ``__setattr__`` inherited from a base class is as bad: mypyc
then sends every store of the compiled ``__init__`` through it. So a game's observation is
a ``@dataclass(init=False)`` class (for its fields, ``==`` and ``repr``) with a written
``__init__``, and it defines ``__setattr__`` and ``__delattr__`` itself, calling
:func:`set_once` and :func:`refuse_delete`: mypyc compiles the ``__init__``'s own stores
to direct ones, while any later change from Python is refused. (In pure Python the
``__init__``'s stores go through :func:`set_once`, which lets an unset attribute be set.)

Events are values in the same way but are not guarded at run time: a game records
thousands per second, and nothing but the engine makes them.
"""

from __future__ import annotations


def set_once(obj: object, name: str, value: object) -> None:
    """``__setattr__`` of a frozen class: only an attribute not yet set may be set."""
    if hasattr(obj, name):
        raise AttributeError(f"{type(obj).__name__} is frozen: {name} cannot be changed")
    object.__setattr__(obj, name, value)


def refuse_delete(obj: object, name: str) -> None:
    """``__delattr__`` of a frozen class."""
    raise AttributeError(f"{type(obj).__name__} is frozen: {name} cannot be deleted")
