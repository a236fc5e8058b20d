"""The quality report of one ingest or fetch: what was read, kept and dropped, and why."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from pydantic import BaseModel, ConfigDict, Field

from kraftstokk.models import CATEGORIES, CATEGORY_UNITS, Plant


class FigureRange(BaseModel):
    model_config = ConfigDict(extra="forbid")

    min: float
    max: float


class QualityReport(BaseModel):
    """Counts and ranges kept in the provenance file and printed after each ingest."""

    model_config = ConfigDict(extra="forbid")

    rows_read: int = Field(ge=0)
    rows_kept: int = Field(ge=0)
    #: Reason -> number of rows dropped for it (each dropped row counted once).
    dropped: dict[str, int] = Field(default_factory=dict)
    #: Name as in the source -> ids of the different plants that share it.
    repeated_names: dict[str, list[str]] = Field(default_factory=dict)
    #: Category (``mw``, ``gwh``, ``head_m``) -> lowest and highest kept figure.
    figure_ranges: dict[str, FigureRange] = Field(default_factory=dict)

    @property
    def rows_dropped(self) -> int:
        return sum(self.dropped.values())

    def lines(self) -> list[str]:
        """Human-readable report, one line each."""
        out = [
            f"rows read: {self.rows_read}",
            f"kept: {self.rows_kept}",
            f"dropped: {self.rows_dropped}",
        ]
        out.extend(f"  {count:>6}  {reason}" for reason, count in self.dropped.items())
        if self.repeated_names:
            out.append(f"repeated names (kept apart): {len(self.repeated_names)}")
            out.extend(f"  {name}: {', '.join(ids)}" for name, ids in self.repeated_names.items())
        else:
            out.append("repeated names: none")
        for category, span in self.figure_ranges.items():
            unit = next((u for c, u in CATEGORY_UNITS.items() if c == category), "")
            out.append(f"{category} range: {span.min:g} to {span.max:g} {unit}".rstrip())
        return out


def figure_ranges(plants: Iterable[Plant]) -> dict[str, FigureRange]:
    plants = list(plants)
    if not plants:
        return {}
    return {
        category: FigureRange(
            min=min(plant.figure(category) for plant in plants),
            max=max(plant.figure(category) for plant in plants),
        )
        for category in CATEGORIES
    }


def sorted_reasons(reasons: Counter[str]) -> dict[str, int]:
    """Most frequent reason first, then alphabetical, so reports are stable."""
    return dict(sorted(reasons.items(), key=lambda item: (-item[1], item[0])))
