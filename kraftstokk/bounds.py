"""Physical ranges for the measures in data files (card layouts, printer presets).

Every length, size and resolution a designer writes has a range it can physically take:
a card's bleed is not a metre, a font is not 1e308 points. A measure declared as
``Annotated[float, Range(low, high, unit)]`` is checked on load, and one outside its
range (or NaN) is refused with the range in words — ``1e+308 mm is outside 0–300 mm`` —
which the loaders prefix with the file and the key.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from pydantic import GetCoreSchemaHandler
from pydantic.fields import FieldInfo
from pydantic_core import core_schema


@dataclass(frozen=True)
class Range:
    """Where a measure may lie, inclusive, and its unit ("mm", "pt", "em", "%", "dpi")."""

    low: float
    high: float
    unit: str

    def words(self) -> str:
        return f"{shown(self.low)}–{shown(self.high)} {self.unit}".rstrip()

    def __get_pydantic_core_schema__(
        self, source: Any, handler: GetCoreSchemaHandler
    ) -> core_schema.CoreSchema:
        return core_schema.no_info_after_validator_function(self.check, handler(source))

    def check(self, value: float) -> float:
        if not self.low <= value <= self.high:  # NaN is never inside
            found = f"{shown(value)} {self.unit}".rstrip()
            raise ValueError(f"{found} is outside {self.words()}")
        return value


def shown(value: float) -> str:
    """A number as a person writes it: ``1 000 000``, ``0.05``, ``1e+308``, ``nan``."""
    if math.isfinite(value) and float(value).is_integer() and abs(value) < 1e15:
        return f"{int(value):,}".replace(",", " ")
    return f"{value:g}"


def range_of(field: FieldInfo) -> Range | None:
    """The range a model field was declared with, if it was."""
    return next((item for item in field.metadata if isinstance(item, Range)), None)
