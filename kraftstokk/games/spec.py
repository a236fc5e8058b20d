"""A game declares itself once: its :class:`GameSpec`.

Every reader of game facts (the registry, ``simulate``, the report, ``play``, the web
app, the compiled-engine build) takes them from the spec, so adding a game is adding a
package ``kraftstokk/games/<name>/`` whose ``spec.py`` defines ``SPEC``; no other module
changes. The spec names its modules as strings and imports them only when asked, so
reading every spec (``registry.specs()``) stays cheap.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import IntEnum
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from kraftstokk.games.core import BotFactory, Game


@dataclass(frozen=True)
class VariantSpec:
    """A variant flag and what it changes, in both languages."""

    name: str
    nb: str
    en: str


@dataclass(frozen=True)
class CounterSpec:
    """A counter the simulation reports, counted from the game's events."""

    name: str
    meaning: str  # English, for the report and the JSON's readers


@dataclass(frozen=True)
class GameSpec:
    """Everything the rest of kraftstokk needs to know about one game."""

    name: str  # the command-line name: ``--game idiot``
    title_nb: str
    title_en: str
    min_players: int
    max_players: int
    variants: tuple[VariantSpec, ...]
    bots: tuple[str, ...]  # bot kinds of the bots module's ``BOTS``, default first
    counters: tuple[CounterSpec, ...]
    #: Figures a designer looks at first: ``<counter>_per_game``, ``<rate>``, ``<sample>_mean``.
    highlights: tuple[str, ...]
    booklet_section: str  # the id of the game's section in the rules booklet
    game_module: str  # defines ``GAME``, the Game subclass
    bots_module: str  # defines ``BOTS``: bot kind -> factory ``(game, settings) -> Bot``
    #: Action kinds and phases (``IntEnum``); their values never clash across games.
    action_kinds: type[IntEnum] | None = None
    phases: type[IntEnum] | None = None
    #: Replay logs of version 1 (before the kinds were renumbered): old kind -> new kind.
    #: ``None``: version-1 logs of this game are refused (its rules changed).
    v1_action_kinds: Mapping[int, int] | None = None
    #: Why version-1 logs are refused, when they are.
    v1_refusal: str = ""
    extras: Mapping[str, Any] = field(default_factory=dict)

    @property
    def variant_names(self) -> frozenset[str]:
        return frozenset(v.name for v in self.variants)

    def title(self, lang: str) -> str:
        return self.title_nb if lang == "nb" else self.title_en

    def game_class(self) -> type[Game]:
        cls: type[Game] = importlib.import_module(self.game_module).GAME
        return cls

    def bot_factories(self) -> dict[str, BotFactory]:
        factories: dict[str, BotFactory] = importlib.import_module(self.bots_module).BOTS
        return factories

    @property
    def default_bot(self) -> str:
        return self.bots[0]

    def counter_names(self) -> tuple[str, ...]:
        return tuple(c.name for c in self.counters)
