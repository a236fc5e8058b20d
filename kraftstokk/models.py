"""Pydantic models at the pipeline's boundaries: plants, cards, decks.

Units are fixed by the field name: ``mw`` installed capacity in MW, ``gwh`` mean annual
production in GWh, ``head_m`` gross head in metres.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

# The deck's plain facts (the engine's, which runs without pydantic), re-exported here.
from kraftstokk.cardfacts import CATEGORIES as CATEGORIES
from kraftstokk.cardfacts import CATEGORY_UNITS as CATEGORY_UNITS
from kraftstokk.cardfacts import DECK_SIZE as DECK_SIZE
from kraftstokk.cardfacts import INVISIBLE_FROM_NR as INVISIBLE_FROM_NR
from kraftstokk.cardfacts import JOKERS as JOKERS
from kraftstokk.cardfacts import SUITS as SUITS
from kraftstokk.cardfacts import TOP_NR as TOP_NR
from kraftstokk.cardfacts import Category as Category
from kraftstokk.cardfacts import Suit as Suit
from kraftstokk.limits import FIGURE_LIMITS, MAX_NAME_LENGTH

#: Norwegian label of each category, as printed on the cards.
CATEGORY_LABELS: dict[Category, str] = {"mw": "Effekt", "gwh": "Produksjon", "head_m": "Fallhøyde"}
RED_SUITS: frozenset[str] = frozenset({"hjerter", "ruter"})

#: Card value names in Norwegian (1 = ess, 11 knekt, 12 dame, 13 konge).
VALUE_NAMES: dict[int, str] = {1: "ess", 11: "knekt", 12: "dame", 13: "konge"}
#: Corner index printed on a card.
VALUE_INDEX: dict[int, str] = {1: "A", 11: "J", 12: "Q", 13: "K"}

#: What kind of hydropower plant (JRC ``type`` HDAM, HROR, HPHS; NVE ``VannKVType``).
PlantType = Literal["reservoir", "run-of-river", "pumped-storage"]
PLANT_TYPES: tuple[PlantType, ...] = ("reservoir", "run-of-river", "pumped-storage")


class Plant(BaseModel):
    """One hydropower plant in a normalized snapshot."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str = Field(min_length=1, max_length=MAX_NAME_LENGTH)
    name: str = Field(min_length=1, max_length=MAX_NAME_LENGTH)
    mw: float = Field(ge=FIGURE_LIMITS["mw"][0], le=FIGURE_LIMITS["mw"][1], allow_inf_nan=False)
    gwh: float = Field(ge=FIGURE_LIMITS["gwh"][0], le=FIGURE_LIMITS["gwh"][1], allow_inf_nan=False)
    head_m: float = Field(
        ge=FIGURE_LIMITS["head_m"][0], le=FIGURE_LIMITS["head_m"][1], allow_inf_nan=False
    )
    county: str | None = None
    municipality: str | None = None
    owner: str | None = None
    year: int | None = None
    lat: float | None = Field(None, ge=-90, le=90)
    lon: float | None = Field(None, ge=-180, le=180)
    price_area: str | None = None
    type: PlantType | None = None
    source: str = Field(min_length=1)
    source_id: str = Field(min_length=1)

    def figure(self, category: Category) -> float:
        return float(getattr(self, category))


#: Snapshot CSV column order (DESIGN.md "File contracts").
PLANT_COLUMNS: tuple[str, ...] = tuple(Plant.model_fields)


class CategoryFlags(BaseModel):
    """A yes/no per category."""

    model_config = ConfigDict(extra="forbid")

    mw: bool = False
    gwh: bool = False
    head_m: bool = False

    def get(self, category: Category) -> bool:
        return bool(getattr(self, category))


class Ranks(BaseModel):
    """nr. per category: 1 = highest figure in the deck, 52 = lowest (D-3)."""

    model_config = ConfigDict(extra="forbid")

    mw: int
    gwh: int
    head_m: int

    def get(self, category: Category) -> int:
        return int(getattr(self, category))


class CardFlags(BaseModel):
    """Derived flags, all computable from suit, value, figures and nr."""

    model_config = ConfigDict(extra="forbid")

    invisible: CategoryFlags = Field(default_factory=CategoryFlags)  # D-4, SK-12
    top3: CategoryFlags = Field(default_factory=CategoryFlags)  # KI-8
    burn: bool = False  # SK-10: jokers and clubs 1-4
    reset: bool = False  # SK-11: the four 2s
    gwh_tens: int | None = None  # SK-6b: production rounded down to tens
    war_partners: list[str] = Field(default_factory=list)  # card ids with equal gwh_tens


class Card(BaseModel):
    """One of the 55 cards: a plant card or a joker."""

    model_config = ConfigDict(extra="forbid")

    id: str
    joker: bool
    suit: Suit | None = None
    value: int | None = None
    plant_id: str | None = None
    name: str | None = None
    mw: float | None = None
    gwh: float | None = None
    head_m: float | None = None
    #: Where the plant lies (decimal degrees) and what kind it is; older decks lack them.
    lat: float | None = Field(default=None, ge=-90, le=90)
    lon: float | None = Field(default=None, ge=-180, le=180)
    type: PlantType | None = None
    nr: Ranks | None = None
    flags: CardFlags = Field(default_factory=CardFlags)

    def figure(self, category: Category) -> float:
        value = getattr(self, category)
        if value is None:
            raise ValueError(f"card {self.id} has no {category}")
        return float(value)

    @property
    def label(self) -> str:
        """Human name of the card: 'spar 7 (Tonstad)' or 'joker 1'."""
        if self.joker:
            return self.id.replace("-", " ")
        return f"{self.suit} {self.value} ({self.name})"


class SnapshotInfo(BaseModel):
    """Where a deck's figures come from, for the booklet and the cards' small print."""

    model_config = ConfigDict(extra="allow")

    path: str
    date: str | None = None
    source: str | None = None
    licence: str | None = None
    attribution: str | None = None
    #: The attribution in bokmål, as the cards print it (older decks lack it).
    attribution_nb: str | None = None
    #: Who the plants' places and types come from when a build carried them from
    #: elsewhere (a place table, the previous deck); ``attribution`` includes it.
    places_attribution: str | None = None
    places_attribution_nb: str | None = None
    places_licence: str | None = None
    #: Plant id -> the credit its card prints instead of the deck's, for a plant whose
    #: place was stated with its own source (``kraftstokk places --add``).
    card_credits: dict[str, str] = Field(default_factory=dict)


class Deck(BaseModel):
    """``deck.json``: 55 cards with their derived fields."""

    model_config = ConfigDict(extra="forbid")

    title: str
    edition: str
    snapshot: SnapshotInfo
    spec: dict[str, Any] = Field(default_factory=dict)
    cards: list[Card]
    #: The id shared by the files written together (deck.json, deck.csv, deck.xlsx): a
    #: digest of the deck as written, so a reader can tell files of two writes apart.
    #: Decks written before it lack it.
    build: str | None = None

    @property
    def plant_cards(self) -> list[Card]:
        return [card for card in self.cards if not card.joker]

    @property
    def jokers(self) -> list[Card]:
        return [card for card in self.cards if card.joker]

    def card(self, card_id: str) -> Card:
        for card in self.cards:
            if card.id == card_id:
                return card
        raise KeyError(card_id)

    def style(self) -> dict[str, Any]:
        """The spec's style table (colours, paper, language), empty when absent."""
        style = self.spec.get("style", {})
        return style if isinstance(style, dict) else {}

    def language(self, default: str = "nb") -> str:
        """The spec's ``[style] language`` (the booklet's and the web page's first), or
        ``default`` for a deck written without one."""
        language = self.style().get("language")
        return language if isinstance(language, str) and language else default


def card_id(suit: str, value: int) -> str:
    return f"{suit}-{value}"
