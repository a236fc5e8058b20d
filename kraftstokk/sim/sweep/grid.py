"""From the sweep file to the list of configurations, each with its deck loaded.

A configuration is one deck, game, player count, bot line-up and variant set. Its key
is a hash of everything that decides its games (the deck's cards included, not its
file name), so stored chunks are found again only for the very same games.
"""

from __future__ import annotations

import dataclasses
import hashlib
import itertools
import json
from dataclasses import dataclass
from pathlib import Path

from kraftstokk.errors import KraftstokkError
from kraftstokk.games.core import DeckTable
from kraftstokk.models import Deck
from kraftstokk.sim.runner import SimSettings, check_arguments, check_settings, default_bots
from kraftstokk.sim.sweep.model import DeckSource, SweepError, SweepFile, SweepValidationError
from kraftstokk.sim.sweep.work import keep_game

#: The parameters a configuration varies, in table order.
PARAMETERS: tuple[str, ...] = ("deck", "game", "players", "bots", "variants")


@dataclass(frozen=True)
class Configuration:
    """One cell of the grid: what is played, and the settings ``simulate`` would use."""

    number: int  # 1-based, in the order of the sweep file
    deck: str  # the deck's label
    deck_path: str  # as simulate would name it: the deck file or the built spec
    settings: SimSettings
    key: str  # hash of the games this configuration plays

    @property
    def label(self) -> str:
        variants = "+".join(self.settings.variants) or "no variants"
        return (
            f"{self.deck} · {self.settings.game} · {self.settings.players} players · "
            f"{self.settings.bots} · {variants}"
        )

    def value(self, parameter: str) -> str:
        """The configuration's value of one of :data:`PARAMETERS`, as text."""
        if parameter == "deck":
            return self.deck
        if parameter == "variants":
            return "+".join(self.settings.variants) or "none"
        return str(getattr(self.settings, parameter))

    def words(self, parameter: str) -> str:
        """Its value of ``parameter`` in a sentence: ``4 players``, ``deck deck-head``,
        ``bots greedy``, ``no variants``."""
        value = self.value(parameter)
        if parameter == "players":
            return f"{value} players"
        if parameter == "variants":
            return "no variants" if value == "none" else f"variants {value}"
        return f"{parameter} {value}"


@dataclass(frozen=True)
class LoadedDeck:
    label: str
    path: str
    deck: Deck
    table: DeckTable


def _resolve(base: Path, location: str) -> Path:
    path = Path(location)
    return path if path.is_absolute() else base / path


def load_decks(sweep: SweepFile, base: Path) -> dict[str, LoadedDeck]:
    """Every deck the sweep names, loaded (files) or built (specs), by label."""
    from kraftstokk.deck.build import build_from_spec_file
    from kraftstokk.deck.validate import require_valid
    from kraftstokk.sim.session import load_deck

    sources: list[DeckSource] = [d for grid in sweep.grid for d in grid.decks]
    sources += [entry.deck for entry in sweep.configurations]
    loaded: dict[str, LoadedDeck] = {}
    labels: dict[str, str] = {}
    built: dict[str, Deck] = {}
    for source in sources:
        if source.name in loaded and labels[source.name] == source.location:
            continue
        if labels.get(source.name, source.location) != source.location:
            raise SweepError(
                f"two decks are both called {source.name!r} ({labels[source.name]} and "
                f"{source.location}): give one a label"
            )
        labels[source.name] = source.location
        path = _resolve(base, source.location)
        if source.location in built:
            deck = built[source.location]
        elif source.spec is not None:
            if not path.is_file():
                raise SweepError(f"{path}: no such deck spec")
            deck = build_from_spec_file(path).deck
            require_valid(deck, str(path))
        else:
            deck = load_deck(path)
        built[source.location] = deck
        loaded[source.name] = LoadedDeck(source.name, str(path), deck, DeckTable.from_deck(deck))
    return loaded


def _fingerprint(table: DeckTable) -> str:
    cards = [table.ids, table.suit, table.value, table.joker, table.figures, table.nr]
    text = json.dumps([*cards, table.printed, table.decimals], ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def configuration_key(table: DeckTable, settings: SimSettings) -> str:
    """A short hash of the deck's cards and every setting that decides the games."""
    text = json.dumps(
        {
            "deck": _fingerprint(table),
            "game": settings.game,
            "players": settings.players,
            "bots": settings.bots,
            "variants": list(settings.variants),
            "action_cap": settings.action_cap,
            "seed": settings.seed,
        },
        sort_keys=True,
    )
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:20]


@dataclass(frozen=True)
class Cell:
    """A configuration as the sweep file names it, before its deck and rules are checked."""

    deck: str
    game: str
    players: int
    bots: str  # as the file gives it ("default": the game's default bot)
    variants: tuple[str, ...]
    where: str  # grid[0], configurations[2]: where the file names it


def configuration_count(sweep: SweepFile) -> int:
    """How many configurations the file names (without listing them: a grid of millions
    is counted at once)."""
    count = len(sweep.configurations)
    for grid in sweep.grid:
        count += (
            len(grid.decks)
            * len(grid.games)
            * len(grid.players)
            * len(grid.bots)
            * len(grid.variants)
        )
    return count


def estimated_comparisons(sweep: SweepFile) -> int:
    """About how many pairs :func:`planned_pairs` will compare (each configuration with
    its neighbour at the baseline value of each parameter it does not share with it)."""
    pairs = 0.0
    for grid in sweep.grid:
        cells = len(grid.decks) * len(grid.games) * len(grid.players) * len(grid.bots)
        cells *= len(grid.variants)
        for values in (grid.decks, grid.players, grid.bots, grid.variants):
            pairs += cells * (1 - 1 / len(values))
    return round(pairs) + len(sweep.configurations) * (len(PARAMETERS) - 1)


def cells(sweep: SweepFile) -> list[Cell]:
    """Every configuration the file names, in file order (grids first)."""
    found: list[Cell] = []
    for number, grid in enumerate(sweep.grid):
        where = f"grid[{number}]" if len(sweep.grid) > 1 else "grid"
        for deck, game, players, bots, variants in itertools.product(
            grid.decks, grid.games, grid.players, grid.bots, grid.variants
        ):
            found.append(Cell(deck.name, game.lower(), players, bots, tuple(variants), where))
    for number, entry in enumerate(sweep.configurations):
        found.append(
            Cell(
                entry.deck.name,
                entry.game.lower(),
                entry.players,
                entry.bots,
                tuple(entry.variants),
                f"configurations[{number}]",
            )
        )
    return found


def expand(sweep: SweepFile, decks: dict[str, LoadedDeck]) -> list[Configuration]:
    """The configurations in file order (grids first), each checked as simulate would."""
    found: list[Configuration] = []
    seen: dict[str, str] = {}
    for cell in cells(sweep):
        loaded = decks[cell.deck]
        settings = settings_of(sweep, cell)
        try:
            built = check_settings(loaded.table, settings)
        except KraftstokkError as exc:
            raise SweepError(
                f"{cell.where} ({loaded.label}, {cell.game}, {cell.players} players): {exc}"
            ) from None
        key = configuration_key(loaded.table, settings)
        if key in seen:
            raise SweepError(
                f"{cell.where}: the same configuration as {seen[key]} ({loaded.label}, "
                f"{cell.game}, {cell.players} players, {settings.bots})"
            )
        seen[key] = cell.where
        keep_game(key, built)  # what the chunks of this process, or its forked workers, play
        found.append(Configuration(len(found) + 1, loaded.label, loaded.path, settings, key))
    return found


def settings_of(sweep: SweepFile, cell: Cell) -> SimSettings:
    """The settings ``simulate`` would use for the cell (its bots resolved)."""
    settings = SimSettings(
        game=cell.game,
        players=cell.players,
        games=sweep.games,
        seed=sweep.seed,
        bots=cell.bots,
        variants=tuple(sorted(cell.variants)),
        action_cap=sweep.action_cap,
        pace=sweep.pace(),
    )
    if cell.bots != "default":
        return settings
    try:
        check_arguments(settings)
    except KraftstokkError as exc:
        where = f"{cell.where} ({cell.deck}, {cell.game}, {cell.players} players)"
        raise SweepError(f"{where}: {exc}") from None
    return dataclasses.replace(settings, bots=default_bots(cell.game))


def varied_parameters(configurations: list[Configuration]) -> list[str]:
    """The parameters that take more than one value over the sweep."""
    return [p for p in PARAMETERS if len({c.value(p) for c in configurations}) > 1]


#: The parameters a configuration is compared along (never across games).
COMPARED: tuple[str, ...] = ("deck", "players", "bots", "variants")


def baseline_text(parameter: str, raw: object, game: str) -> str:
    """A baseline value as :meth:`Configuration.value` writes it, for a game."""
    if parameter == "variants":
        flags = sorted(str(flag) for flag in raw) if isinstance(raw, list | tuple) else []
        return "+".join(flags) or "none"
    if parameter == "bots" and raw == "default":
        return default_bots(game)
    return str(raw)


def baseline(sweep: SweepFile) -> dict[str, object]:
    """Each compared parameter's baseline as the file names it: the ``[baseline]`` value,
    else the first value the file gives (of its first grid, or first configuration)."""
    if sweep.grid:
        grid = sweep.grid[0]
        first: dict[str, object] = {
            "deck": grid.decks[0].name,
            "players": grid.players[0],
            "bots": grid.bots[0],
            "variants": grid.variants[0],
        }
    else:
        entry = sweep.configurations[0]
        first = {
            "deck": entry.deck.name,
            "players": entry.players,
            "bots": entry.bots,
            "variants": entry.variants,
        }
    named = sweep.baseline.model_dump()
    return {p: named[p] if named[p] is not None else first[p] for p in COMPARED}


@dataclass(frozen=True)
class PlannedPair:
    """Configuration ``b`` compared with ``a``, which has ``parameter``'s baseline value and
    every other parameter of ``b``."""

    a: Configuration
    b: Configuration
    parameter: str


def planned_pairs(
    configurations: list[Configuration], values: dict[str, object], source: str
) -> list[PlannedPair]:
    """Along each parameter, every configuration against its neighbour at the baseline.

    A grid of n configurations gives fewer than n pairs per parameter (not every pair of
    configurations that differ in one parameter, which grows with n squared).
    """
    for parameter in COMPARED:
        shown = {c.value(parameter) for c in configurations}
        wanted = {
            baseline_text(parameter, values[parameter], c.settings.game) for c in configurations
        }
        if len(shown) > 1 and not wanted & shown:
            raise SweepValidationError(
                f"{source}: baseline.{parameter} {values[parameter]!r}: no configuration has "
                f"it ({parameter}: {', '.join(sorted(shown))})"
            )
    by_values = {tuple(c.value(p) for p in PARAMETERS): c for c in configurations}
    pairs: list[PlannedPair] = []
    for b in configurations:
        for parameter in COMPARED:
            base = baseline_text(parameter, values[parameter], b.settings.game)
            if b.value(parameter) == base:
                continue
            key = tuple(base if p == parameter else b.value(p) for p in PARAMETERS)
            a = by_values.get(key)
            if a is not None:
                pairs.append(PlannedPair(a, b, parameter))
    return pairs
