"""From the sweep file to the list of configurations, each with its deck loaded.

A configuration is one deck, game, player count, bot line-up and variant set. Its key
is a hash of everything that decides its games (the deck's cards included, not its
file name), so stored chunks are found again only for the very same games.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

from kraftstokk.errors import KraftstokkError
from kraftstokk.games.core import DeckTable
from kraftstokk.models import Deck
from kraftstokk.sim.runner import SimSettings, check_arguments, check_settings, default_bots
from kraftstokk.sim.sweep.model import DeckSource, SweepError, SweepFile
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


def expand(sweep: SweepFile, decks: dict[str, LoadedDeck]) -> list[Configuration]:
    """The configurations in file order (grids first), each checked as simulate would."""
    cells: list[tuple[str, str, int, str, tuple[str, ...], str]] = []
    for number, grid in enumerate(sweep.grid):
        where = f"grid[{number}]" if len(sweep.grid) > 1 else "grid"
        for deck in grid.decks:
            for game in grid.games:
                for players in grid.players:
                    for bots in grid.bots:
                        for variants in grid.variants:
                            cells.append((deck.name, game, players, bots, tuple(variants), where))
    for number, entry in enumerate(sweep.configurations):
        cells.append(
            (
                entry.deck.name,
                entry.game,
                entry.players,
                entry.bots,
                tuple(entry.variants),
                f"configurations[{number}]",
            )
        )
    found: list[Configuration] = []
    seen: dict[str, str] = {}
    for label, game, players, bots, flags, where in cells:
        loaded = decks[label]
        name = game.lower()
        settings = SimSettings(
            game=name,
            players=players,
            games=sweep.games,
            seed=sweep.seed,
            bots=bots,
            variants=tuple(sorted(flags)),
            action_cap=sweep.action_cap,
        )
        try:
            if bots == "default":
                check_arguments(settings)
                settings = dataclasses.replace(settings, bots=default_bots(name))
            built = check_settings(loaded.table, settings)
        except KraftstokkError as exc:
            raise SweepError(
                f"{where} ({loaded.label}, {name}, {players} players): {exc}"
            ) from None
        key = configuration_key(loaded.table, settings)
        if key in seen:
            raise SweepError(
                f"{where}: the same configuration as {seen[key]} ({loaded.label}, "
                f"{name}, {players} players, {settings.bots})"
            )
        seen[key] = where
        keep_game(key, built)  # what the chunks of this process, or its forked workers, play
        found.append(Configuration(len(found) + 1, loaded.label, loaded.path, settings, key))
    return found


def varied_parameters(configurations: list[Configuration]) -> list[str]:
    """The parameters that take more than one value over the sweep."""
    return [p for p in PARAMETERS if len({c.value(p) for c in configurations}) > 1]
