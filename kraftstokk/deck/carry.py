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
    #: A place table (``kraftstokk places``), where a missing place can be added.
    table: bool = False


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
            attribution=table.provenance.attribution or None,
            attribution_nb=table.provenance.attribution_nb or None,
            licence=table.provenance.licence or None,
            table=True,
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
    #: Plants whose place or type came from a row stating its own source: plant id (as
    #: the snapshot spells it, as the card does) -> the credits (English, bokmål) of what
    #: that plant's card carries.
    stated: dict[str, tuple[list[str], list[str]]] = field(default_factory=dict)
    #: Whether a place table is among the sources (to say what to do for the missing).
    has_place_table: bool = False

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
        if self.missing and self.has_place_table:
            out.append(
                "  (their cards show no map or no type picture; add each to the place table "
                "with its source: kraftstokk places --add PLANT --lat LAT --lon LON --type TYPE "
                '--source "who measured it" --out TABLE, then build again)'
            )
        elif self.missing:
            out.append(
                "  (their cards show no map or no type picture; add a place table to the spec's "
                'carry_from, e.g. carry_from = ["plant-places.csv"], made by kraftstokk places)'
            )
        if self.stated:
            out.append(
                f"  {len(self.stated)} plant(s) carry a place stated with its own source, "
                "credited on their own cards: "
                + listed([f"{key} ({'; '.join(en)})" for key, (en, _) in self.stated.items()])
            )
        return out


def carry_places(
    plants: Sequence[Plant], sources: Sequence[PlaceSource]
) -> tuple[list[Plant], CarryReport, list[PlaceSource]]:
    """``plants`` with a missing place or type filled from the first source that knows it.

    Returns the plants (same order), the report, and the sources something was taken
    from (their credit belongs on the cards).
    """
    report = CarryReport(
        sources=[source.label for source in sources],
        has_place_table=any(source.table for source in sources),
    )
    used: list[PlaceSource] = []
    result: list[Plant] = []
    for plant in plants:
        key, who = plant_key(plant.id), f"{plant.name} ({plant.id})"
        update: dict[str, object] = {}
        taken: list[tuple[PlaceSource, Place]] = []
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
            taken.append((source, place))
        if any(place.source for _, place in taken):
            report.stated[plant.id] = _card_credits(taken)
        else:
            used.extend(source for source, _ in taken if source not in used)
        result.append(plant.model_copy(update=update) if update else plant)
    return result, report, used


def _card_credits(taken: Sequence[tuple[PlaceSource, Place]]) -> tuple[list[str], list[str]]:
    """What one plant's card credits for what it carries (English, bokmål): a row's own
    source, else its table's."""
    english: list[str] = []
    bokmal: list[str] = []
    for source, place in taken:
        if place.source:
            en = f"{STATED_CREDIT}: {_sentence(place.source)}"
            nb = f"{STATED_CREDIT_NB}: {_sentence(place.source)}"
        else:
            en, nb = source.attribution or "", source.attribution_nb or source.attribution or ""
        english.extend([en] if en and en not in english else [])
        bokmal.extend([nb] if nb and nb not in bokmal else [])
    return english, bokmal


#: A place stated with its own source, credited on its card (bokmål, as cards print).
STATED_CREDIT = "Plant location and type"
STATED_CREDIT_NB = "Kart"


def _sentence(text: str) -> str:
    return text if text.endswith(".") else f"{text}."


def _knows(place: Place | None, name: str) -> bool:
    if place is None:
        return False
    return place.has_place if name == "place" else place.type is not None


def credited(
    info: SnapshotInfo, used: Sequence[PlaceSource], report: CarryReport | None = None
) -> SnapshotInfo:
    """The deck's snapshot info with the credit of every source places were carried from;
    a plant whose place a row states with its own source gets a credit of its own card
    (``card_credits``: the data credit and that source), and the deck's licence and
    English attribution name that source too."""
    data = _joined([info.attribution_nb or info.attribution])
    stated = report.stated if report is not None else {}
    cards = {key: _joined([data, *nb]) or "" for key, (_, nb) in stated.items()}
    info = info.model_copy(update={"card_credits": cards}) if cards else info
    used = [s for s in used if not _said(s, info)]
    english = _joined([s.attribution for s in used])
    bokmal = _joined([s.attribution_nb or s.attribution for s in used])
    extra = [credit for en, _ in stated.values() for credit in en]
    if extra:
        full = _joined([info.attribution, english, *extra])
        info = info.model_copy(update={"attribution": full})
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


def _said(source: PlaceSource, info: SnapshotInfo) -> bool:
    """Whether the snapshot's own credit already says what ``source``'s does (an NVE
    export's types carried into a deck of NVE's figures: NVE twice is too long)."""
    credit = source.attribution_nb or source.attribution or ""
    body = credit.split(": ", 1)[-1].rstrip(".")
    said = info.attribution_nb or info.attribution or ""
    return bool(body) and body in said


def _joined(parts: Sequence[str | None], separator: str = " ") -> str | None:
    unique: list[str] = []
    for part in parts:
        if part and part not in unique:
            unique.append(part)
    return separator.join(unique) or None
