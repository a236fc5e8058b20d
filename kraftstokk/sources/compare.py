"""What changed in a source between two snapshots, deck or not: new plants, plants gone,
plants renamed, owners merged, figures revised.

``kraftstokk diff OLD.csv NEW.csv`` shows the deck's changes; this says in a few lines
what happened in the source around it, so a deck maker sees a new large plant that did
not enter, a plant that went out of operation, or a renamed plant whose card keeps its
old name through the spec's ``[names]``. Plants are matched by plant key.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence
from collections.abc import Set as AbstractSet

from pydantic import BaseModel, ConfigDict

from kraftstokk.errors import listed
from kraftstokk.models import CATEGORIES, Plant
from kraftstokk.sources.plant_keys import plant_key
from kraftstokk.sources.snapshot import format_number

#: Plants a line names before it counts the rest.
NAMED = 4


class SourcePlant(BaseModel):
    model_config = ConfigDict(extra="forbid")

    plant_id: str
    name: str
    gwh: float
    #: Whether the plant is (or was) on a card of the deck compared.
    in_deck: bool = False


class Renamed(BaseModel):
    model_config = ConfigDict(extra="forbid")

    plant_id: str
    old: str
    new: str
    in_deck: bool = False


class OwnersMerged(BaseModel):
    model_config = ConfigDict(extra="forbid")

    old: str
    new: str
    plants: int


class SourceChanges(BaseModel):
    """The source's changes between two snapshots."""

    model_config = ConfigDict(extra="forbid")

    old: str
    new: str
    plants_before: int
    plants_after: int
    new_plants: list[SourcePlant]
    gone: list[SourcePlant]
    renamed: list[Renamed]
    owners_merged: list[OwnersMerged]
    #: Plants in both whose capacity, production or head changed.
    revised: int
    revised_in_deck: int

    def lines(self) -> list[str]:
        counts = [
            f"{len(self.new_plants)} new",
            f"{len(self.gone)} gone",
            f"{len(self.renamed)} renamed",
            f"figures revised for {self.revised} ({self.revised_in_deck} in the deck)",
        ]
        out = [
            f"in the source ({self.old} -> {self.new}): {self.plants_before:,} plants -> "
            f"{self.plants_after:,}: {', '.join(counts)}"
        ]
        if self.new_plants:
            entering = [_plant(p, "enters the deck") for p in self.new_plants]
            out.append("  new, largest first: " + listed(entering, first=NAMED))
        if self.gone:
            out.append(
                "  gone (out of operation, or left out by the source): "
                + listed([_plant(p, "was in the deck") for p in self.gone], first=NAMED)
            )
        if self.renamed:
            names = [
                f"{r.old} -> {r.new} ({r.plant_id}{', in the deck' if r.in_deck else ''})"
                for r in self.renamed
            ]
            out.append("  renamed: " + listed(names, first=NAMED))
        if self.owners_merged:
            merged = [f"{m.old} -> {m.new} ({m.plants} plants)" for m in self.owners_merged]
            out.append("  owners merged: " + listed(merged, first=NAMED))
        return out


def _plant(plant: SourcePlant, deck_words: str) -> str:
    deck = f", {deck_words}" if plant.in_deck else ""
    return f"{plant.name} ({plant.plant_id}, {format_number(plant.gwh)} GWh{deck})"


def source_changes(
    old_name: str,
    old: Sequence[Plant],
    new_name: str,
    new: Sequence[Plant],
    old_deck: AbstractSet[str] = frozenset(),
    new_deck: AbstractSet[str] = frozenset(),
) -> SourceChanges:
    """The changes from the snapshot ``old`` to ``new``; ``old_deck`` and ``new_deck`` are
    the plant keys on the cards of the decks built from them."""
    before = {plant_key(p.id): p for p in old}
    after = {plant_key(p.id): p for p in new}
    by_production = sorted(after, key=lambda key: -after[key].gwh)
    entered = [_source_plant(after[k], k in new_deck) for k in by_production if k not in before]
    gone = [
        _source_plant(p, k in old_deck)
        for k, p in sorted(before.items(), key=lambda item: -item[1].gwh)
        if k not in after
    ]
    both = [k for k in before if k in after]
    renamed = [
        Renamed(plant_id=after[k].id, old=before[k].name, new=after[k].name, in_deck=k in new_deck)
        for k in both
        if before[k].name != after[k].name
    ]  # fmt: skip
    revised = [
        k for k in both if any(before[k].figure(c) != after[k].figure(c) for c in CATEGORIES)
    ]
    return SourceChanges(
        old=old_name,
        new=new_name,
        plants_before=len(before),
        plants_after=len(after),
        new_plants=entered,
        gone=gone,
        renamed=renamed,
        owners_merged=owners_merged(before, after),
        revised=len(revised),
        revised_in_deck=sum(1 for k in revised if k in new_deck or k in old_deck),
    )


def _source_plant(plant: Plant, in_deck: bool) -> SourcePlant:
    return SourcePlant(plant_id=plant.id, name=plant.name, gwh=plant.gwh, in_deck=in_deck)


def owners_merged(before: dict[str, Plant], after: dict[str, Plant]) -> list[OwnersMerged]:
    """Owners of the old snapshot that are gone from the new one, all of whose plants now
    belong to one other owner (a merger or a takeover), largest first."""
    owners_after = {p.owner for p in after.values() if p.owner}
    moved: dict[str, Counter[str]] = defaultdict(Counter)
    for key, plant in before.items():
        now = after.get(key)
        if plant.owner and now is not None and now.owner and now.owner != plant.owner:
            moved[plant.owner][now.owner] += 1
    merged = []
    for owner, to in moved.items():
        if owner in owners_after or len(to) != 1:
            continue
        ((new_owner, count),) = to.items()
        merged.append(OwnersMerged(old=owner, new=new_owner, plants=count))
    return sorted(merged, key=lambda m: (-m.plants, m.old))
