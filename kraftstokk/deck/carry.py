"""Carry what a new snapshot lacks — a plant's place and type — from where it is known.

NVE's API has no coordinates, and its ``VannKVType`` ("Kraftverk") does not say
reservoir or run-of-river, so a deck built from it would lose every card's map and type
picture. A build fills a plant's missing ``lat``/``lon`` and ``type`` by plant key from,
in order: the kept previous deck, then each file of the spec's ``carry_from`` (a place
table from ``kraftstokk places``, or an older snapshot). The snapshot's own values always
win. The report says what came from where and which plants none of them knew, and the
deck credits every source it carried from on the cards' small print.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from kraftstokk.errors import listed
from kraftstokk.models import Deck, Plant, SnapshotInfo
from kraftstokk.sources.places import Place, is_places_csv, places_credit, read_places
from kraftstokk.sources.plant_keys import plant_key
from kraftstokk.textfile import read_input_bytes

#: Plants a report line names before it counts the rest.
NAMED = 12


@dataclass(frozen=True)
class PlaceSource:
    """Places and types by plant key, where they come from, and the credit they need."""

    label: str
    places: dict[str, Place]
    attribution: str | None = None
    attribution_nb: str | None = None
    licence: str | None = None


def deck_places(deck: Deck, label: str) -> PlaceSource:
    """The places and types a (previous) deck's cards show."""
    places = {
        plant_key(card.plant_id): Place(card.lat, card.lon, card.type)
        for card in deck.plant_cards
        if card.plant_id and (card.type is not None or card.lat is not None)
    }
    snapshot = deck.snapshot
    return PlaceSource(
        label=label,
        places=places,
        attribution=snapshot.places_attribution or _credit(snapshot.attribution),
        attribution_nb=snapshot.places_attribution_nb or _credit(snapshot.attribution_nb, True),
        licence=snapshot.places_licence or snapshot.licence,
    )


def _credit(attribution: str | None, nb: bool = False) -> str | None:
    return places_credit(attribution, nb) if attribution else None


def file_places(path: Path) -> PlaceSource:
    """A place table or an older snapshot, told apart by its header."""
    from kraftstokk.deck.snapshot_info import read_plants

    head = read_input_bytes(path, "place table or snapshot").split(b"\n", 1)[0]
    header = next(csv.reader(io.StringIO(head.decode("utf-8-sig", "replace"))), [])
    if is_places_csv(header):
        table = read_places(path)
        return PlaceSource(
            label=path.as_posix(),
            places=table.places,
            attribution=table.provenance.attribution,
            attribution_nb=table.provenance.attribution_nb,
            licence=table.provenance.licence,
        )
    plants, info, _ = read_plants(path)
    return PlaceSource(
        label=path.as_posix(),
        places={plant_key(p.id): Place(p.lat, p.lon, p.type) for p in plants},
        attribution=_credit(info.attribution),
        attribution_nb=_credit(info.attribution_nb or info.attribution, True),
        licence=info.licence,
    )


@dataclass
class CarryReport:
    """For the deck's plants: what each source gave, and what none knew."""

    #: source label -> "place" / "type" -> plants ("Tonstad (448)")
    carried: dict[str, dict[str, list[str]]] = field(default_factory=dict)
    #: "place" / "type" -> plants no source knew
    missing: dict[str, list[str]] = field(default_factory=dict)
    #: Sources given (so that "none given" can be said).
    sources: list[str] = field(default_factory=list)

    @property
    def empty(self) -> bool:
        return not self.carried and not self.missing

    def lines(self) -> list[str]:
        if self.empty:
            return []
        out = ["places and types the snapshot lacks, carried by plant key:"]
        for label, fields in self.carried.items():
            what = "; ".join(f"{name} of {len(plants)}" for name, plants in fields.items())
            out.append(f"  from {label}: {what}")
            out.extend(
                f"    {name}: {listed(plants, first=NAMED)}"
                for name, plants in fields.items()
                if len(plants) <= NAMED
            )
        for name, plants in self.missing.items():
            where = ", ".join(self.sources) if self.sources else "no source given"
            out.append(
                f"  warning: no {name} for {len(plants)} plant{'s' if len(plants) > 1 else ''} "
                f"({where}): {listed(plants, first=NAMED)}"
            )
        if self.missing:
            out.append(
                "  (their cards show no map or no type picture; add a place table to the spec's "
                'carry_from, e.g. carry_from = ["plant-places.csv"], made by kraftstokk places)'
            )
        return out


def carry_places(
    plants: Sequence[Plant], sources: Sequence[PlaceSource]
) -> tuple[list[Plant], CarryReport, list[PlaceSource]]:
    """``plants`` with a missing place or type filled from the first source that knows it.

    Returns the plants (same order), the report, and the sources something was taken
    from (their credit belongs on the cards).
    """
    report = CarryReport(sources=[source.label for source in sources])
    used: list[PlaceSource] = []
    result: list[Plant] = []
    for plant in plants:
        key, who = plant_key(plant.id), f"{plant.name} ({plant.id})"
        update: dict[str, object] = {}
        for name, wanted in (("place", plant.lat is None or plant.lon is None),
                             ("type", plant.type is None)):  # fmt: skip
            if not wanted:
                continue
            source = next((s for s in sources if _knows(s.places.get(key), name)), None)
            if source is None:
                report.missing.setdefault(name, []).append(who)
                continue
            place = source.places[key]
            if name == "place":
                update.update(lat=place.lat, lon=place.lon)
            else:
                update["type"] = place.type
            report.carried.setdefault(source.label, {}).setdefault(name, []).append(who)
            if source not in used:
                used.append(source)
        result.append(plant.model_copy(update=update) if update else plant)
    return result, report, used


def _knows(place: Place | None, name: str) -> bool:
    if place is None:
        return False
    return place.has_place if name == "place" else place.type is not None


def credited(info: SnapshotInfo, used: Sequence[PlaceSource]) -> SnapshotInfo:
    """The deck's snapshot info with the credit of every source places were carried from."""
    english = _joined([s.attribution for s in used])
    bokmal = _joined([s.attribution_nb or s.attribution for s in used])
    if not english:
        return info
    licence = _joined([s.licence for s in used], "; ")
    return info.model_copy(
        update={
            "attribution": _joined([info.attribution, english]),
            "attribution_nb": _joined([info.attribution_nb or info.attribution, bokmal]),
            "licence": _joined([info.licence, licence], "; "),
            "places_attribution": english,
            "places_attribution_nb": bokmal,
            "places_licence": licence,
        }
    )


def _joined(parts: Sequence[str | None], separator: str = " ") -> str | None:
    unique: list[str] = []
    for part in parts:
        if part and part not in unique:
            unique.append(part)
    return separator.join(unique) or None
