"""The deck spec (``sources/deck.toml``): which plants, which suits and values, which style.

Every table forbids unknown keys, so a typo in the spec is an error naming the key rather
than a silently ignored setting. :func:`load_spec` turns any problem into a
:class:`~kraftstokk.errors.SpecError` naming the file, the key and the reason.
"""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from kraftstokk.errors import InputFileError, SpecError, clip, listed
from kraftstokk.limits import FIGURE_LIMITS, MAX_NAME_LENGTH
from kraftstokk.models import CATEGORIES, SUITS, Category, Suit
from kraftstokk.plain import reason, where
from kraftstokk.sources.plant_keys import key_clashes, plant_key
from kraftstokk.textfile import MB, read_input_bytes

TieBreak = Literal["other-figures-then-id", "id"]
PolicyKind = Literal["production-ladder", "shuffle", "table"]

HEX_COLOUR = re.compile(r"^#[0-9a-fA-F]{6}$")
CARD_KEY = re.compile(r"^(spar|kløver|hjerter|ruter)-(\d{1,2})$")
#: A spec is a page of TOML; anything near this size is not one.
MAX_SPEC_BYTES = MB


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Selection(_Strict):
    """How the 52 plants are chosen from the snapshot."""

    by: Literal["gwh", "mw", "head_m"] = Field(
        "gwh", description="Rank the eligible plants by this figure and take the highest."
    )
    pinned: list[str] = Field(
        default_factory=list,
        description="Plants that must be in the deck: ids (N448 or 448) or names.",
    )
    excluded: list[str] = Field(
        default_factory=list,
        description="Plants that must not be in the deck: ids (N448 or 448) or names.",
    )
    min_per_price_area: int = Field(
        0, ge=0, le=52, description="At least this many plants from each price area (NO1-NO5)."
    )
    min_per_county: int = Field(
        0, ge=0, le=52, description="At least this many plants from each county."
    )


class Policy(_Strict):
    """Which plant gets which suit and value (RULES.md D-6)."""

    kind: PolicyKind = Field(
        "production-ladder",
        description="production-ladder (default), shuffle (seeded) or table (explicit).",
    )
    seed: int = Field(0, description="Seed of the shuffle policy.")
    table: dict[str, str] = Field(
        default_factory=dict,
        description='Table policy: card id ("spar-7") to plant id, 52 entries.',
    )
    keep: str | None = Field(
        None,
        description="A previous deck.json (relative to the spec file) to reprint from: every "
        "plant still in the deck keeps its suit and value; entering plants take the freed "
        "places, dealt by the policy's kind among those places.",
    )

    @field_validator("table")
    @classmethod
    def _card_keys(cls, table: dict[str, str]) -> dict[str, str]:
        for key in table:
            match = CARD_KEY.match(key)
            if not match or not 1 <= int(match.group(2)) <= 13:
                raise ValueError(f'"{key}" is not a card id like "spar-7" (suit-value, 1..13)')
        cards_of: dict[str, str] = {}
        for card, plant in table.items():
            other = cards_of.setdefault(plant_key(plant), card)
            if other != card:
                raise ValueError(
                    f'"{other}" = "{clip(table[other], 40)}" and "{card}" = "{clip(plant, 40)}" '
                    f"name one plant (key {clip(plant_key(plant), 40)}): give each card its own"
                )
        return table


class SuitColours(_Strict):
    """Suit inks. The card faces print as an ordinary deck: spar's ink for the black
    suits, hjerter's for the red ones."""

    spar: str = "#15191e"
    kløver: str = "#15191e"
    hjerter: str = "#c0182b"
    ruter: str = "#c0182b"

    @field_validator("spar", "kløver", "hjerter", "ruter")
    @classmethod
    def _hex(cls, value: str) -> str:
        return _check_colour(value)


class Style(_Strict):
    """What the renderer and the booklet read through ``Deck.style()``."""

    colours: SuitColours = Field(default_factory=SuitColours)
    accent: str = Field("#0b6e99", description="Accent colour (frames, card backs).")
    paper: Literal["a4", "letter"] = "a4"
    language: str = Field(
        "nb",
        description="The deck's language: the booklet's when `booklet --lang` is not given, "
        "and the web page's first (a folder of kraftstokk/locales: nb, en, ...).",
    )
    layout: str = Field(
        "poker",
        description="Card layout: a file in kraftstokk/design/layouts (poker, bridge, ...).",
    )

    @field_validator("accent")
    @classmethod
    def _hex(cls, value: str) -> str:
        return _check_colour(value)

    @field_validator("language")
    @classmethod
    def _known_language(cls, value: str) -> str:
        from kraftstokk import locales

        languages = locales.languages()
        if value not in languages:
            raise ValueError(f"{value!r} is not a language; choose from {', '.join(languages)}")
        return value

    @field_validator("layout")
    @classmethod
    def _known_layout(cls, value: str) -> str:
        from kraftstokk.design.layout import layout_names

        names = layout_names()
        if value not in names:
            raise ValueError(f"{value!r} is not a card layout; choose from {', '.join(names)}")
        return value


class PrintTable(_Strict):
    """``[print]``: which printer the files are made for."""

    preset: str | None = Field(
        None,
        description="Printer preset: a file in kraftstokk/design/presets "
        "(render --list-presets); none: home sheets and the offset print-shop file.",
    )

    @field_validator("preset")
    @classmethod
    def _known_preset(cls, value: str | None) -> str | None:
        from kraftstokk.design.presets import preset_names

        names = preset_names()
        if value is not None and value not in names:
            raise ValueError(f"{value!r} is not a printer preset; choose from {', '.join(names)}")
        return value


def _figure(category: Category, words: str) -> Any:
    low, high = FIGURE_LIMITS[category]
    return Field(None, ge=low, le=high, allow_inf_nan=False, description=words)


class FigureCorrection(_Strict):
    """``[figures.<plant>]``: figures put right by hand, kept across rebuilds.

    A table with a ``reason`` and no figure says the plant has no correction (a build
    with keep then takes the snapshot's figures, not the previous deck's corrections).
    """

    mw: float | None = _figure("mw", "Installed capacity in MW, instead of the snapshot's.")
    gwh: float | None = _figure("gwh", "Mean annual production in GWh, instead of the snapshot's.")
    head_m: float | None = _figure("head_m", "Gross head in m, instead of the snapshot's.")
    reason: str = Field(
        min_length=1,
        max_length=300,
        description="Why the source's figure is wrong: shown in the build report and diff.",
    )

    def figures(self) -> dict[Category, float]:
        """The corrected figures, by category."""
        return {c: value for c in CATEGORIES if (value := getattr(self, c)) is not None}


def _check_colour(value: str) -> str:
    if not HEX_COLOUR.match(value):
        raise ValueError(f'"{value}" is not a colour like "#1a1a1a"')
    return value


class DeckSpec(_Strict):
    """A deck spec: read from TOML, recorded in ``deck.json`` under ``spec``."""

    title: str = Field("Kraft-stokken", min_length=1, max_length=60)
    edition: str = Field("1", min_length=1, max_length=30)
    snapshot: str = Field(
        "jrc-2024-01.csv", min_length=1, description="Snapshot CSV, relative to the spec file."
    )
    tie_break: TieBreak = Field(
        "other-figures-then-id",
        description="How equal figures get distinct nr. (see README 'Tie-break rule').",
    )
    selection: Selection = Field(default_factory=Selection)
    policy: Policy = Field(default_factory=Policy)
    names: dict[str, str] = Field(
        default_factory=dict,
        description="Display-name overrides: plant id (N448 or 448) to card name.",
    )
    figures: dict[str, FigureCorrection] = Field(
        default_factory=dict,
        description="Hand corrections: plant id (N448 or 448) to corrected figures and a reason.",
    )
    carry_from: list[str] = Field(
        default_factory=list,
        description="Where a plant's place (lat, lon) and type come from when the snapshot "
        "lacks them, after the kept previous deck: place tables (kraftstokk places) or older "
        "snapshots, relative to the spec file, first match wins.",
    )
    style: Style = Field(default_factory=Style)
    print: PrintTable = Field(default_factory=PrintTable)

    @field_validator("names", "figures")
    @classmethod
    def _one_entry_per_plant(cls, table: dict[str, Any]) -> dict[str, Any]:
        """``[figures.448]`` and ``[figures.N448]`` (or ``[names]`` alike) are one plant:
        which would win is a guess, so neither does."""
        for first, second in key_clashes(table)[:1]:
            raise ValueError(
                f'"{clip(first, 40)}" and "{clip(second, 40)}" name one plant (key '
                f"{clip(plant_key(first), 40)}); keep one entry"
            )
        return table

    @field_validator("names")
    @classmethod
    def _names_not_blank(cls, names: dict[str, str]) -> dict[str, str]:
        for plant_id, name in names.items():
            if not name.strip():
                raise ValueError(f'the name for "{clip(plant_id, 40)}" is blank')
            if len(name) > MAX_NAME_LENGTH:
                raise ValueError(
                    f'the name for "{clip(plant_id, 40)}" has {len(name)} characters '
                    f"(at most {MAX_NAME_LENGTH})"
                )
        return names

    def table_suit_values(self) -> dict[str, tuple[Suit, int]]:
        """The table policy as plant id to (suit, value)."""
        result: dict[str, tuple[Suit, int]] = {}
        for key, plant_id in self.policy.table.items():
            suit, value = key.rsplit("-", 1)
            result[plant_id] = (_as_suit(suit), int(value))
        return result


def _as_suit(text: str) -> Suit:
    for suit in SUITS:
        if suit == text:
            return suit
    raise ValueError(f'unknown suit "{text}"')


def parse_spec(raw: dict[str, Any], source: str) -> DeckSpec:
    """Validate a spec mapping; the first problem becomes a SpecError naming key and reason."""
    try:
        return DeckSpec.model_validate(raw)
    except ValidationError as exc:
        problems = [f"{clip(where(error), 60)}: {reason(error)}" for error in exc.errors()]
        raise SpecError(f"{source}: invalid spec: {listed(problems, '; ')}") from None


def load_spec(path: str | Path) -> DeckSpec:
    """Read and validate a TOML deck spec."""
    path = Path(path)
    if not path.exists() and not path.is_symlink():
        raise InputFileError(path, "no such spec file")
    data = read_input_bytes(path, "spec file", MAX_SPEC_BYTES)
    try:
        raw = tomllib.loads(data.decode("utf-8"))
    except UnicodeDecodeError:
        raise InputFileError(path, "not a UTF-8 text file") from None
    except tomllib.TOMLDecodeError as exc:
        raise InputFileError(path, f"not valid TOML ({clip(str(exc))})") from None
    except RecursionError:
        raise InputFileError(path, "not a spec file (TOML nested too deeply)") from None
    return parse_spec(raw, str(path))


def spec_json_schema() -> str:
    """The spec's JSON Schema, pretty-printed."""
    return json.dumps(DeckSpec.model_json_schema(), indent=2, ensure_ascii=False) + "\n"
