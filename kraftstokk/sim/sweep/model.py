"""The sweep file (``SWEEP.toml``) as a pydantic model, exportable as JSON Schema.

A sweep names decks, games, player counts, bots and variants; the configurations are
the product of a ``[grid]`` (or of each ``[[grid]]`` block) and any explicit
``[[configurations]]``. Every configuration plays ``games`` games from the same
``seed``, so game *i* of any two configurations starts from the same derived seed and
their per-game figures can be compared pair by pair: along each parameter, against the
``[baseline]`` value of that parameter.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from kraftstokk.bounds import Range
from kraftstokk.errors import InputFileError, KraftstokkError, SimulationError, clip, listed
from kraftstokk.games.core import DEFAULT_ACTION_CAP
from kraftstokk.games.packages import typed_name
from kraftstokk.limits import MAX_ACTION_CAP, SEED_RANGE
from kraftstokk.plain import reason
from kraftstokk.sim.finding_rules import FindingRules
from kraftstokk.sim.pace import Pace, default_pace, with_times
from kraftstokk.textfile import read_input_bytes, toml_table

#: A sweep file is a few dozen lines.
MAX_SWEEP_BYTES = 1024 * 1024


class SweepError(KraftstokkError):
    """A sweep file that cannot be used, or a configuration that cannot be played."""


class SweepValidationError(SweepError):
    """The sweep file was read but a key is wrong (exit code 1)."""

    exit_code = 1


class FindingThresholds(BaseModel):
    """``[findings]``: when a figure becomes a finding (:class:`FindingRules`, with the
    bounds of its ``RULE_BOUNDS``)."""

    model_config = ConfigDict(extra="forbid")

    confidence: Annotated[float, Field(gt=0.5, lt=1)] = Field(
        0.95, description="Confidence of every test (0.95: a 5 % chance of a false alarm)."
    )
    unfinished_share: Annotated[float, Field(ge=0, lt=1)] = Field(
        0.01, description="Games that reach the action cap: a finding above this share."
    )
    long_game_factor: Annotated[float, Field(gt=1)] = Field(
        3.0, description="A finished game is long when it takes this many times the median."
    )
    long_game_share: Annotated[float, Field(ge=0, lt=1)] = Field(
        0.05, description="Long games: a finding above this share of finished games."
    )
    rare_share: Annotated[float, Field(gt=0, lt=1)] = Field(
        0.05, description="A special is almost never seen below this share of games."
    )
    often_share: Annotated[float, Field(gt=0, lt=1)] = Field(
        0.20, description="A special happens too often above this share of all actions."
    )
    loser_card_factor: Annotated[float, Field(gt=1)] = Field(
        1.5,
        description="A card stays with the loser far more often at this many times the "
        "average card's rate.",
    )

    def rules(self) -> FindingRules:
        return FindingRules(**self.model_dump())


class DeckSource(BaseModel):
    """A deck to play: a deck file (``deck.json``/``deck.csv``) or a spec to build."""

    model_config = ConfigDict(extra="forbid")

    path: str | None = Field(None, description="A deck.json or deck.csv (relative to the sweep).")
    spec: str | None = Field(None, description="A deck spec TOML to build (relative to the sweep).")
    label: str | None = Field(None, description="Short name in tables and charts.")

    def model_post_init(self, _context: Any) -> None:
        if (self.path is None) == (self.spec is None):
            raise ValueError("give exactly one of path or spec")

    @property
    def location(self) -> str:
        return self.path if self.path is not None else str(self.spec)

    @property
    def name(self) -> str:
        return self.label or Path(self.location).stem


def _deck_source(value: Any) -> Any:
    """A plain string is a spec when it ends in .toml, else a deck file."""
    if isinstance(value, str):
        return {"spec": value} if value.endswith(".toml") else {"path": value}
    return value


def _game_name(value: Any) -> Any:
    """``Strømkrig`` as the registry spells it, as ``--game`` takes it."""
    return typed_name(value) if isinstance(value, str) else value


def _variant_set(value: Any) -> Any:
    """``"a,b"`` or ``["a", "b"]`` or ``[]``: one set of variant flags, sorted."""
    if isinstance(value, str):
        value = [part for part in value.split(",")]
    if isinstance(value, list):
        return sorted({str(part).strip() for part in value if str(part).strip()})
    return value


DeckList = Annotated[list[DeckSource], Field(min_length=1)]


class Grid(BaseModel):
    """Lists whose product is the configurations (every deck x game x players x ...)."""

    model_config = ConfigDict(extra="forbid")

    decks: DeckList = Field(description="Deck files or specs (a .toml string is a spec).")
    games: Annotated[list[str], Field(min_length=1)] = Field(
        description="Games: idiot, kraftidioten, stromkrig (Strømkrig as typed is stromkrig)."
    )
    players: Annotated[list[Annotated[int, Field(ge=2, le=12)]], Field(min_length=1)] = [4]
    bots: Annotated[list[str], Field(min_length=1)] = Field(
        default=["default"],
        description="Bot kinds per configuration: one kind for all seats or one per seat "
        "('heuristic,greedy,greedy,random'); 'default' is the game's own default.",
    )
    variants: Annotated[list[list[str]], Field(min_length=1)] = Field(
        default=[[]], description="Variant sets: each a list (or 'a,b' string); [] for none."
    )

    @field_validator("decks", mode="before")
    @classmethod
    def _decks(cls, value: Any) -> Any:
        return [_deck_source(item) for item in value] if isinstance(value, list) else value

    @field_validator("games", mode="before")
    @classmethod
    def _games(cls, value: Any) -> Any:
        return [_game_name(item) for item in value] if isinstance(value, list) else value

    @field_validator("variants", mode="before")
    @classmethod
    def _variants(cls, value: Any) -> Any:
        return [_variant_set(item) for item in value] if isinstance(value, list) else value


class ConfigurationEntry(BaseModel):
    """One configuration named outright (instead of, or besides, a grid)."""

    model_config = ConfigDict(extra="forbid")

    deck: DeckSource
    game: str
    players: Annotated[int, Field(ge=2, le=12)] = 4
    bots: str = "default"
    variants: list[str] = []

    @field_validator("deck", mode="before")
    @classmethod
    def _deck(cls, value: Any) -> Any:
        return _deck_source(value)

    @field_validator("game", mode="before")
    @classmethod
    def _game(cls, value: Any) -> Any:
        return _game_name(value)

    @field_validator("variants", mode="before")
    @classmethod
    def _variants(cls, value: Any) -> Any:
        return _variant_set(value)


class Baseline(BaseModel):
    """The value of each swept parameter that the others are compared against."""

    model_config = ConfigDict(extra="forbid")

    deck: str | None = Field(None, description="A deck's label (its file name without suffix).")
    players: Annotated[int, Field(ge=2, le=12)] | None = None
    bots: str | None = Field(None, description="A bots value as the grid names it.")
    variants: list[str] | None = Field(None, description="A variant set ([] for none).")

    @field_validator("variants", mode="before")
    @classmethod
    def _variants(cls, value: Any) -> Any:
        return _variant_set(value)


class SweepFile(BaseModel):
    """``SWEEP.toml``: what to play and how much (see ``kraftstokk sweep-schema``)."""

    model_config = ConfigDict(extra="forbid")

    title: str = Field("Sweep", description="Shown at the top of sweep.pdf.")
    games: Annotated[int, Field(ge=1, le=10_000_000)] = Field(
        1000, description="Games per configuration."
    )
    seed: Annotated[int, Range(*SEED_RANGE, "")] = Field(
        1, description="Game i of every configuration uses derive_seed(seed, i)."
    )
    chunk: Annotated[int, Field(ge=1, le=100_000)] = Field(
        500, description="Games per chunk (the unit of work and of resuming)."
    )
    action_cap: Annotated[int, Range(1, MAX_ACTION_CAP, "actions")] = Field(
        DEFAULT_ACTION_CAP,
        description="A game stops unfinished after this many actions (1 to 1000000, the "
        "bound of simulate --action-cap).",
        json_schema_extra={"minimum": 1, "maximum": MAX_ACTION_CAP},
    )
    grid: list[Grid] = Field(
        default=[], description="[grid] or [[grid]]: product of decks, games, players, ..."
    )
    configurations: list[ConfigurationEntry] = Field(
        default=[], description="[[configurations]]: explicit configurations."
    )
    baseline: Baseline = Field(
        default=Baseline(),
        description="[baseline]: each configuration is compared, along each parameter, with "
        "the one that has this parameter's baseline value (default: the first value the file "
        "names) and the same others.",
    )
    findings: FindingThresholds = FindingThresholds()
    time: dict[str, float] = Field(
        default={},
        description="[time]: the pace of the minutes at a table, seconds per step (deal, "
        "card, choice, forced, answer, pickup, challenge); the others as kraftstokk/sim/pace.toml.",
    )

    @field_validator("time")
    @classmethod
    def _time(cls, value: dict[str, float]) -> dict[str, float]:
        try:
            with_times(default_pace(), value, "time")
        except SimulationError as error:
            raise ValueError(str(error).removeprefix("time: ")) from None
        return value

    def pace(self) -> Pace | None:
        """The time model of the file's ``[time]`` (None: pace.toml's)."""
        return with_times(default_pace(), self.time, "time") if self.time else None

    @field_validator("grid", mode="before")
    @classmethod
    def _one_or_many(cls, value: Any) -> Any:
        return [value] if isinstance(value, dict) else value

    def model_post_init(self, _context: Any) -> None:
        if not self.grid and not self.configurations:
            raise ValueError("name a [grid] or at least one [[configurations]]")


def _where(location: tuple[int | str, ...]) -> str:
    parts: list[str] = []
    for item in location:
        if isinstance(item, int):
            parts.append(f"[{item}]")
        elif parts:
            parts.append(f".{item}")
        else:
            parts.append(item)
    return "".join(parts) or "(top level)"


def parse_sweep(text: str | bytes, source: str) -> SweepFile:
    """Validate TOML text; errors name the key (``grid[0].players[1]``) and the reason."""
    data = text.encode("utf-8") if isinstance(text, str) else text
    raw = toml_table(data, "sweep file", lambda why: InputFileError(source, why))
    try:
        return SweepFile.model_validate(raw)
    except ValidationError as exc:
        problems = []
        for error in exc.errors():
            location = tuple(
                item for item in error["loc"] if not str(item).startswith(("function-", "list["))
            )
            problems.append(f"{clip(_where(location), 60)}: {reason(error)}")
        raise SweepValidationError(f"{source}: {listed(problems, '; ')}") from None


def load_sweep(path: Path) -> SweepFile:
    """Read and validate ``SWEEP.toml``."""
    return parse_sweep(read_input_bytes(path, "sweep file", MAX_SWEEP_BYTES), str(path))


def sweep_schema() -> str:
    """The sweep file's JSON Schema, as text."""
    schema = SweepFile.model_json_schema()
    schema["title"] = "kraftstokk sweep file"
    return json.dumps(schema, ensure_ascii=False, indent=2) + "\n"
