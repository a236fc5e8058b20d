"""Hand corrections of figures (the spec's ``[figures]``), kept across rebuilds.

A source can be wrong about a plant; a deck maker who knows better writes the figure
and the reason in the spec (``[figures.N448] head_m = 442.5, reason = "…"``). Every
build applies it over the snapshot's figure, before selection and ranking, and says so.
A correction recorded in a kept previous deck (``repair`` records figures edited by hand
in deck.csv) is carried too, loudly, unless the spec has an entry for that plant: a
later ``build --keep-from`` never puts the source's figure back without a word.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import PurePath
from typing import Any

from pydantic import ValidationError

from kraftstokk.deck.select import plant_id_in
from kraftstokk.deck.spec import DeckSpec, FigureCorrection
from kraftstokk.errors import InputFileError, clip
from kraftstokk.models import CATEGORIES, CATEGORY_UNITS, Category, Deck, Plant
from kraftstokk.plain import first_problem
from kraftstokk.sources.plant_keys import keyed, plant_key
from kraftstokk.sources.snapshot import format_number


@dataclass(frozen=True)
class Correction:
    """One corrected figure of one plant, and what the snapshot says."""

    plant: str  # "Tonstad (448)"
    category: Category
    value: float
    snapshot: float
    reason: str

    def words(self) -> str:
        unit = CATEGORY_UNITS[self.category]
        figure = f"{self.category} {format_number(self.value)} {unit}"
        if self.value == self.snapshot:
            return f"{self.plant}: {figure}; the snapshot now says the same, the entry can go"
        said = f"{format_number(self.snapshot)} {unit}"
        return f'{self.plant}: {figure} (the snapshot says {said}): "{clip(self.reason)}"'


@dataclass
class CorrectionReport:
    from_spec: list[Correction] = field(default_factory=list)
    #: Carried from the previous deck (label), which the spec's [figures] lacks.
    carried: list[Correction] = field(default_factory=list)
    previous: str = ""
    #: Corrections of the previous deck for plants no longer in the snapshot.
    unused: list[str] = field(default_factory=list)

    def lines(self) -> list[str]:
        out: list[str] = []
        if self.from_spec:
            out.append(f"hand corrections ([figures]): {len(self.from_spec)}")
            out.extend(f"  {c.words()}" for c in self.from_spec)
        if self.carried:
            out.append(
                f"warning: {len(self.carried)} hand correction(s) carried from {self.previous} "
                "(the spec's [figures] lacks them; copy them there to keep them, or give the "
                "plant an entry with a reason and no figure to take the snapshot's):"
            )
            out.extend(f"  {c.words()}" for c in self.carried)
        if self.unused:
            out.append(
                f"hand corrections of {self.previous} for plants no longer in the snapshot: "
                + ", ".join(self.unused)
            )
        return out


def previous_corrections(deck: Deck, label: str) -> dict[str, FigureCorrection]:
    """The corrections a deck records (in its spec), by plant key."""
    raw = deck.spec.get("figures") if isinstance(deck.spec, dict) else None
    if not isinstance(raw, Mapping):
        return {}
    result: dict[str, FigureCorrection] = {}
    for key, entry in raw.items():
        try:
            result[plant_key(str(key))] = FigureCorrection.model_validate(entry)
        except ValidationError as exc:
            raise InputFileError(
                label, f"spec.figures.{clip(str(key), 40)}: {first_problem(exc)}"
            ) from None
    return result


def apply_corrections(
    plants: Sequence[Plant],
    spec: DeckSpec,
    previous: Deck | None = None,
    previous_label: str = "the previous deck",
) -> tuple[list[Plant], CorrectionReport, dict[str, Any]]:
    """``plants`` with their corrected figures, the report, and the ``figures`` table the
    new deck records (the spec's entries and the carried ones, by the snapshot's ids)."""
    by_id = {plant.id: plant for plant in plants}
    report = CorrectionReport(previous=previous_label)
    wanted: dict[str, tuple[FigureCorrection, list[Correction]]] = {}
    recorded: dict[str, Any] = {}
    for entry, correction in spec.figures.items():
        plant_id = plant_id_in("figures", entry, by_id)
        wanted[plant_id] = (correction, report.from_spec)
        recorded[plant_id] = correction.model_dump(exclude_none=True)
    if previous is not None:
        in_spec = {plant_key(plant_id) for plant_id in wanted}
        by_key = keyed(by_id)
        for key, correction in previous_corrections(previous, previous_label).items():
            if key in in_spec or not correction.figures():
                continue
            plant = by_key.get(key)
            if plant is None:
                report.unused.append(key)
                continue
            wanted[plant.id] = (correction, report.carried)
            recorded[plant.id] = correction.model_dump(exclude_none=True)
    result: list[Plant] = []
    for plant in plants:
        if plant.id not in wanted:
            result.append(plant)
            continue
        correction, listing = wanted[plant.id]
        for category, value in correction.figures().items():
            listing.append(
                Correction(
                    plant=f"{plant.name} ({plant.id})",
                    category=category,
                    value=value,
                    snapshot=plant.figure(category),
                    reason=correction.reason,
                )
            )
        update: dict[str, float] = {str(c): v for c, v in correction.figures().items()}
        result.append(plant.model_copy(update=update))
    return result, report, recorded


HAND_EDIT = "edited by hand"


def record_hand_edits(
    deck: Deck, original: Deck | None, source: str
) -> tuple[dict[str, Any], list[str]]:
    """The deck's spec with the figures edited by hand against ``original`` recorded in
    its ``figures`` table, and a line for each."""
    spec = dict(deck.spec)
    if original is None:
        return spec, []
    before = {plant_key(c.plant_id): c for c in original.plant_cards if c.plant_id}
    table: dict[str, Any] = {k: dict(v) for k, v in (spec.get("figures") or {}).items()}
    recorded: list[str] = []
    for card in deck.plant_cards:
        old = before.get(plant_key(card.plant_id or ""))
        if old is None or card.plant_id is None:
            continue
        for category in CATEGORIES:
            was, now = getattr(old, category), getattr(card, category)
            if was is None or now is None or was == now:
                continue
            entry = next(
                (v for k, v in table.items() if plant_key(k) == plant_key(card.plant_id)), None
            )
            if entry is None:
                entry = table.setdefault(card.plant_id, {})
            unit = CATEGORY_UNITS[category]
            entry[category] = now
            if str(entry.get("reason", HAND_EDIT)).startswith(HAND_EDIT):
                where = PurePath(source).name
                entry["reason"] = f"{HAND_EDIT} in {where} (was {format_number(was)} {unit})"
            recorded.append(
                f"{card.id} {card.name} ({card.plant_id}) {category} "
                f"{format_number(was)} -> {format_number(now)} {unit}"
            )
    if recorded:
        spec["figures"] = table
    return spec, recorded
