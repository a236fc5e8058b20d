"""From raw source records to normalized plants, counting every row that is dropped.

Rules: the three figures (MW, GWh, head in m) must be present, numeric and above zero;
names are trimmed; a repeated id keeps its first record; different plants that share a
name stay apart and get a qualifier (municipality when known and distinct, else the
source id); optional selection minimums drop plants below them.
"""

from __future__ import annotations

import math
import re
from collections import Counter, defaultdict
from dataclasses import dataclass, field

from pydantic import ValidationError

from kraftstokk.errors import KraftstokkError
from kraftstokk.limits import FIGURE_LIMITS, MAX_NAME_LENGTH
from kraftstokk.models import CATEGORIES, Category, Plant, PlantType
from kraftstokk.sources.numbers import AmbiguousNumber, DecimalMark, NotANumber, parse_number
from kraftstokk.sources.plant_keys import key_clashes, plant_key
from kraftstokk.sources.quality import QualityReport, figure_ranges, sorted_reasons
from kraftstokk.sources.snapshot import format_number

_YEAR = re.compile(r"(1[89]\d\d|20\d\d)")
_WHITESPACE = re.compile(r"\s+")


@dataclass
class RawRecord:
    """One source row, before any figure is parsed. Values are as the source gave them."""

    source: str
    id: object
    name: object
    mw: object
    gwh: object
    head_m: object
    county: object = None
    municipality: object = None
    owner: object = None
    year: object = None
    lat: object = None
    lon: object = None
    price_area: object = None
    type: object = None
    decimal: DecimalMark = "."
    #: Set by a reader for rows it leaves out on purpose (e.g. not Norwegian).
    skip_reason: str | None = None
    #: Where the row is, for a message naming it (``nve.csv row 3``).
    where: str = ""


@dataclass(frozen=True)
class Filters:
    """Selection minimums; a plant below any of them is dropped (and counted)."""

    min_mw: float | None = None
    min_gwh: float | None = None
    min_head_m: float | None = None

    def __post_init__(self) -> None:
        for name, value in self.as_dict().items():
            if not math.isfinite(value) or value < 0:
                raise KraftstokkError(f"{name} {value}: must be a finite figure of at least 0")

    def as_dict(self) -> dict[str, float]:
        values = {"min_mw": self.min_mw, "min_gwh": self.min_gwh, "min_head_m": self.min_head_m}
        return {key: value for key, value in values.items() if value is not None}

    def minimum(self, category: Category) -> float | None:
        value: float | None = getattr(self, f"min_{category}")
        return value


@dataclass
class NormalizeResult:
    plants: list[Plant]
    quality: QualityReport
    dropped_ids: dict[str, str] = field(default_factory=dict)


def clean_text(value: object) -> str | None:
    """Trimmed text with inner whitespace collapsed; ``None`` for missing or blank."""
    if value is None:
        return None
    text = _WHITESPACE.sub(" ", str(value)).strip()
    return text or None


def clean_id(value: object) -> str | None:
    """Ids as text; whole numbers written as ``123`` even when read as ``123.0``."""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    text = clean_text(value)
    if text is not None and re.fullmatch(r"\d+\.0+", text):
        text = text.split(".")[0]
    return text


def _figure_problem(record: RawRecord, category: Category) -> tuple[float | None, str | None]:
    try:
        value = parse_number(getattr(record, category), record.decimal)
    except AmbiguousNumber:
        return None, f"{category} ambiguous (one mark before three digits: decimal or thousands?)"
    except NotANumber:
        return None, f"{category} not a number"
    if value is None:
        return None, f"{category} missing"
    if value == 0:
        return None, f"{category} zero"
    if value < 0:
        return None, f"{category} negative"
    low, high = FIGURE_LIMITS[category]
    if not low <= value <= high:
        return None, f"{category} out of range ({format_number(low)} to {format_number(high)})"
    return value, None


def _optional_number(value: object, decimal: DecimalMark) -> float | None:
    try:
        return parse_number(value, decimal)
    except NotANumber:
        return None


def _year(value: object) -> int | None:
    if isinstance(value, int) and not isinstance(value, bool):
        return value if 1800 <= value <= 2100 else None
    text = clean_text(value)
    if text is None:
        return None
    match = _YEAR.search(text)
    return int(match.group(1)) if match else None


def _price_area(value: object) -> str | None:
    text = clean_text(value)
    if text is None:
        return None
    if re.fullmatch(r"\d+(\.0+)?", text):
        return f"NO{text.split('.')[0]}"
    return text.upper().replace(" ", "")


#: JRC's Dispa-SET codes, NVE's ``VannKVType`` names and ``VannKVTypeID`` codes, and the
#: words people use for the three kinds of plant. NVE's "Kraftverk" (K) is any generating
#: plant and "Pumpe" (P) a pump alone: neither says reservoir or run-of-river, so neither
#: gives a type (a build carries it from elsewhere, see kraftstokk.deck.carry).
_TYPE_CODES: dict[str, PlantType | None] = {
    "hdam": "reservoir",
    "hror": "run-of-river",
    "hphs": "pumped-storage",
    "reservoir": "reservoir",
    "run-of-river": "run-of-river",
    "pumped-storage": "pumped-storage",
    "kraftverk": None,
    "k": None,
    "pumpe": None,
    "p": None,
    "pumpekraftverk": "pumped-storage",
    "pk": "pumped-storage",
}
_TYPE_WORDS: tuple[tuple[str, PlantType], ...] = (
    ("pump", "pumped-storage"),
    ("elv", "run-of-river"),
    ("river", "run-of-river"),
    ("magasin", "reservoir"),
    ("reservoir", "reservoir"),
)


def plant_type(value: object) -> PlantType | None:
    """``HDAM`` -> reservoir, ``HROR`` -> run-of-river, ``HPHS`` -> pumped-storage; NVE's
    ``Pumpekraftverk`` (``PK``) -> pumped-storage, its ``Kraftverk`` and ``Pumpe`` -> ``None``;
    words (``Elvekraftverk``, ``Magasinkraftverk``) likewise. A code this does not know
    gives ``None``: a plant type is never guessed.
    """
    text = clean_text(value)
    if text is None:
        return None
    key = text.casefold()
    if key in _TYPE_CODES:
        return _TYPE_CODES[key]
    return next((kind for word, kind in _TYPE_WORDS if word in key), None)


def _to_plant(record: RawRecord, figures: dict[Category, float], plant_id: str) -> Plant:
    lat = _optional_number(record.lat, record.decimal)
    lon = _optional_number(record.lon, record.decimal)
    return Plant(
        id=plant_id,
        name=clean_text(record.name) or plant_id,
        mw=figures["mw"],
        gwh=figures["gwh"],
        head_m=figures["head_m"],
        county=clean_text(record.county),
        municipality=clean_text(record.municipality),
        owner=clean_text(record.owner),
        year=_year(record.year),
        lat=lat if lat is not None and -90 <= lat <= 90 else None,
        lon=lon if lon is not None and -180 <= lon <= 180 else None,
        price_area=_price_area(record.price_area),
        type=plant_type(record.type),
        source=record.source,
        source_id=plant_id,
    )


def _name_key(name: str) -> str:
    return name.casefold()


def keep_names_apart(plants: list[Plant]) -> tuple[list[Plant], dict[str, list[str]]]:
    """Qualify repeated names so different plants never look like one.

    Each plant of a repeated name gets its municipality when known and not shared by
    another plant of that name (``Osen (Ringsaker)``), else its source id (``Osen (N323)``).
    Returns the plants (same order) and the repeated names with their plant ids.
    """
    groups: dict[str, list[int]] = defaultdict(list)
    for index, plant in enumerate(plants):
        groups[_name_key(plant.name)].append(index)
    result = list(plants)
    repeated: dict[str, list[str]] = {}
    for indices in groups.values():
        if len(indices) < 2:
            continue
        members = [plants[index] for index in indices]
        shared = Counter(plant.municipality for plant in members)
        repeated[members[0].name] = sorted(plant.id for plant in members)
        for index, plant in zip(indices, members, strict=True):
            unique_place = plant.municipality is not None and shared[plant.municipality] == 1
            qualifier = plant.municipality if unique_place else plant.source_id
            result[index] = plant.model_copy(update={"name": f"{plant.name} ({qualifier})"})
    return result, dict(sorted(repeated.items()))


class OnePlantTwice(KraftstokkError):
    """Two rows of the sources are one plant under two spellings of its id."""

    def __init__(self, rows: str, advice: str) -> None:
        super().__init__(f"{rows}: {advice}")
        self.rows = rows


def _refuse_one_plant_twice(kept: dict[str, Plant], where: dict[str, str]) -> None:
    """Refuse two kept rows that are one plant (``448`` and ``N448``, ``0448`` and ``448``):
    a snapshot must hold each plant once, and which row is right is not a guess."""
    for first, second in key_clashes(kept)[:1]:
        a, b = kept[first], kept[second]
        here, there = where.get(first, ""), where.get(second, "")
        files = {w.rsplit(" ", 2)[0] for w in (here, there) if w}
        advice = (
            "read one file per plant: ingest them apart (build carries places and types from "
            "another file through the spec's carry_from)"
            if len(files) > 1
            else "keep one of the two rows"
        )
        raise OnePlantTwice(
            f"{here or 'a row'} ({a.id} {a.name}) and {there or 'another'} ({b.id} {b.name}) "
            f"are one plant (key {plant_key(first)})",
            advice,
        )


def normalize(records: list[RawRecord], filters: Filters | None = None) -> NormalizeResult:
    """Turn raw records into plants sorted by id, with the quality report."""
    filters = filters or Filters()
    reasons: Counter[str] = Counter()
    dropped_ids: dict[str, str] = {}
    kept: dict[str, Plant] = {}
    whereabouts: dict[str, str] = {}

    def drop(reason: str, plant_id: str | None) -> None:
        reasons[reason] += 1
        if plant_id is not None and plant_id not in dropped_ids:
            dropped_ids[plant_id] = reason

    for record in records:
        plant_id = clean_id(record.id)
        if record.skip_reason is not None:
            drop(record.skip_reason, plant_id)
            continue
        if plant_id is None:
            drop("id missing", None)
            continue
        if clean_text(record.name) is None:
            drop("name missing", plant_id)
            continue
        if len(plant_id) > MAX_NAME_LENGTH:
            drop(f"id longer than {MAX_NAME_LENGTH} characters", None)
            continue
        if len(clean_text(record.name) or "") > MAX_NAME_LENGTH:
            drop(f"name longer than {MAX_NAME_LENGTH} characters", plant_id)
            continue
        figures: dict[Category, float] = {}
        problem: str | None = None
        for category in CATEGORIES:
            value, problem = _figure_problem(record, category)
            if problem is not None:
                break
            assert value is not None
            figures[category] = value
        if problem is not None:
            drop(problem, plant_id)
            continue
        below = next(
            (
                category
                for category in CATEGORIES
                if (minimum := filters.minimum(category)) is not None
                and figures[category] < minimum
            ),
            None,
        )
        if below is not None:
            minimum = filters.minimum(below)
            assert minimum is not None
            drop(f"{below} below {format_number(minimum)} (filter)", plant_id)
            continue
        if plant_id in kept:
            drop("repeated id (first kept)", plant_id)
            continue
        try:
            kept[plant_id] = _to_plant(record, figures, plant_id)
        except ValidationError as exc:
            drop(f"invalid: {exc.errors()[0]['msg']}", plant_id)
            continue
        whereabouts[plant_id] = record.where

    _refuse_one_plant_twice(kept, whereabouts)
    plants = sorted(kept.values(), key=lambda plant: plant.id)
    plants, repeated = keep_names_apart(plants)
    quality = QualityReport(
        rows_read=len(records),
        rows_kept=len(plants),
        dropped=sorted_reasons(reasons),
        repeated_names=repeated,
        figure_ranges=figure_ranges(plants),
    )
    return NormalizeResult(plants=plants, quality=quality, dropped_ids=dropped_ids)
