"""The base of every game's rule parameters: the frozen dataclass of its ``rules.py``.

A game's parameters (hand size, burn count, the switches of its variants) are one frozen
dataclass deriving from :class:`RuleParameters` (a game package is compiled by mypyc;
a game defined elsewhere, say a test's, uses a plain frozen dataclass, since interpreted
classes cannot derive from compiled ones); ``GameSpec.rules`` holds the main rules
and ``GameSpec.rules_for`` a game's with its variants applied. The engine, the bots and
the native core (``_csrc/ks_rules.h``, by the fields' names) read them.
"""

from __future__ import annotations

import dataclasses
from typing import Any


class RuleParameters:
    """Pickles by its fields, as worker processes receive a game: compiled by mypyc, a
    frozen dataclass has no ``__dict__`` and cannot be restored field by field."""

    def __reduce__(self) -> tuple[Any, ...]:
        fields = dataclasses.fields(self)  # type: ignore[arg-type]
        return (type(self), tuple(getattr(self, field.name) for field in fields))
