"""A game declares itself once: its :class:`GameSpec`.

Every reader of game facts (the registry, ``simulate``, the report, ``play``, the web
app, the booklet, the compiled-engine build) takes them from the spec, so adding a game is
adding a package ``kraftstokk/games/<name>/`` whose ``spec.py`` defines ``SPEC``; no other
module changes. The spec names its modules as strings and imports them only when asked, so
reading every spec (``registry.specs()``) stays cheap. The other modules of the package are
found by their names (:meth:`GameSpec.module`): ``narration`` (what the table says),
``view`` (the web app's view of a seat), ``chapter`` (the booklet's chapter), ``fast`` (a
native core). What a person reads of the game (its title, what each variant changes) is in
the locale files (``locales/<code>/words.toml``, ``[games.<name>]``), not here.

A game's rule parameters (hand size, burn count, the switches of its variants) are one
frozen dataclass in its ``rules.py``; the spec holds the main rules (``GameSpec.rules``)
and each variant says which parameters it sets (``VariantSpec.sets``), so a variant is
data here and nowhere else: :meth:`GameSpec.rules_for` gives the parameters of a game
with its variants, which the engine, the bots and the native core all read.
"""

from __future__ import annotations

import dataclasses
import importlib
import importlib.util
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from enum import IntEnum
from types import ModuleType
from typing import TYPE_CHECKING, Any

from kraftstokk.errors import GameError, LocaleError

if TYPE_CHECKING:
    from kraftstokk.games.core import BotFactory, Game


@dataclass(frozen=True)
class VariantSpec:
    """A variant: the rule parameters it sets (what it changes is told in each language's
    ``words.toml``)."""

    name: str
    #: Rule parameters (fields of the game's rules dataclass) and the values this variant
    #: gives them, e.g. ``{"burn_count": 3}``; empty: the parameter named like the variant
    #: is switched on (``two_same_player`` sets ``two_same_player=True``).
    sets: Mapping[str, int] = field(default_factory=dict)

    def settings(self) -> dict[str, int]:
        """The parameters this variant sets, with their values."""
        return dict(self.sets) if self.sets else {self.name: True}


@dataclass(frozen=True)
class CounterSpec:
    """A counter the simulation reports, counted from the game's events."""

    name: str
    meaning: str  # English, for the report and the JSON's readers


OBJECTIVES = ("win", "not_loser")


@dataclass(frozen=True)
class GameSpec:
    """Everything the rest of kraftstokk needs to know about one game."""

    name: str  # the command-line name: ``--game idiot``
    min_players: int
    max_players: int
    variants: tuple[VariantSpec, ...]
    bots: tuple[str, ...]  # bot kinds of the bots module's ``BOTS``
    counters: tuple[CounterSpec, ...]
    #: Figures a designer looks at first: ``<counter>_per_game``, ``<rate>``, ``<sample>_mean``.
    highlights: tuple[str, ...]
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
    #: The main rules' parameters: an instance of the frozen dataclass of the game's
    #: ``rules.py`` (ints and bools). None for a game without parameters, whose engine
    #: reads its variants by name (``game.variants``).
    rules: Any = None
    #: What a player plays for: ``win`` (to go out first) or ``not_loser`` (not to be the
    #: last with cards, as in Idiot). The expert plays for it; the skill gradient measures it.
    objective: str = "win"
    #: The bots ``simulate`` plays, ``play`` seats and the web page offers first, when no
    #: other is asked for: one of ``bots``; "" (the default) is the first of them.
    default_bot: str = ""
    #: Where the game stands in every list of games a person sees (``play``'s, the web
    #: page's menu, the booklet's cover and chapters): by this number, then by name; a game
    #: without one comes after those with one.
    menu_place: int | None = None
    #: A game from elsewhere (``registry.register``, a test's) whose ``locales/`` has no
    #: folder for some language the project has: that language takes this language's
    #: texts of the game ("en"). "" (the default): every language needs its own.
    borrows_words_of: str = ""

    def __post_init__(self) -> None:
        if self.objective not in OBJECTIVES:
            raise GameError(
                f"{self.name}: objective {self.objective!r} is not one of {', '.join(OBJECTIVES)}"
            )
        if not self.bots:
            raise GameError(f"{self.name}: a game offers at least one bot")
        if not self.default_bot:
            object.__setattr__(self, "default_bot", self.bots[0])  # frozen: set once, here
        elif self.default_bot not in self.bots:
            raise GameError(
                f"{self.name}: default_bot {self.default_bot!r} is not one of its bots "
                f"({', '.join(self.bots)})"
            )
        if self.rules is not None:  # without rule parameters, a variant is a name alone
            for variant in self.variants:
                self._check_settings(variant)

    def _check_settings(self, variant: VariantSpec) -> None:
        """A variant sets only parameters the rules have, each to a value of its type."""
        defaults = self.rule_defaults()
        for key, value in variant.settings().items():
            if key not in defaults:
                known = ", ".join(defaults) or "none"
                raise GameError(
                    f"{self.name}: variant {variant.name} sets {key!r}, which is no rule "
                    f"parameter (the parameters: {known})"
                )
            if type(value) is not type(defaults[key]):
                raise GameError(
                    f"{self.name}: variant {variant.name} sets {key} to {value!r}, not a "
                    f"{type(defaults[key]).__name__}"
                )

    def rule_defaults(self) -> dict[str, Any]:
        """The main rules' parameters by name, in the order of the dataclass's fields."""
        if self.rules is None:
            return {}
        return {f.name: getattr(self.rules, f.name) for f in dataclasses.fields(self.rules)}

    def rules_for(self, variants: Iterable[str]) -> Any:
        """The rule parameters of a game with ``variants``: the main rules with every
        variant's settings applied (two variants may not set one parameter differently)."""
        chosen = set(variants)
        settings: dict[str, int] = {}
        set_by: dict[str, str] = {}
        for variant in self.variants:
            if variant.name not in chosen:
                continue
            for key, value in variant.settings().items():
                if key in settings and settings[key] != value:
                    raise GameError(
                        f"{self.name}: variants {set_by[key]} and {variant.name} both set "
                        f"{key}, to {settings[key]!r} and {value!r}"
                    )
                settings[key], set_by[key] = value, variant.name
        if self.rules is None:
            return None
        return dataclasses.replace(self.rules, **settings) if settings else self.rules

    @property
    def variant_names(self) -> frozenset[str]:
        return frozenset(v.name for v in self.variants)

    @property
    def package(self) -> str:
        """The game's package: where ``game_module`` lives (``kraftstokk.games.idiot``)."""
        return self.game_module.rpartition(".")[0]

    def module(self, kind: str) -> ModuleType | None:
        """The package's module ``kind`` (``view``, ``chapter``, ...), or None without one."""
        name = f"{self.package}.{kind}"
        try:
            found = importlib.util.find_spec(name)
        except ModuleNotFoundError:
            return None
        return None if found is None else importlib.import_module(name)

    def words(self, lang: str) -> Mapping[str, object]:
        """``[games.<name>]`` of the language's ``words.toml`` (title, variants)."""
        from kraftstokk import locales

        games = locales.load(lang).part("words").get("games", {})
        found = games.get(self.name)
        if not isinstance(found, dict):
            raise LocaleError(f"locales/{lang}/words.toml: no [games.{self.name}] (its title)")
        return found

    def title(self, lang: str) -> str:
        """The game's name in ``lang``, as its players call it."""
        return str(self.words(lang)["title"])

    @property
    def title_en(self) -> str:
        """The English title (the simulation report's); a game without texts (a test's
        toy) is called by its name."""
        try:
            return self.title("en")
        except LocaleError:
            return self.name

    def variant_text(self, variant: str, lang: str) -> str:
        """What ``variant`` changes, in ``lang``."""
        texts = self.words(lang).get("variants", {})
        text = texts.get(variant) if isinstance(texts, dict) else None
        if not isinstance(text, str):
            raise LocaleError(
                f"locales/{lang}/words.toml: games.{self.name}.variants.{variant}: missing"
            )
        return text

    def game_class(self) -> type[Game]:
        cls: type[Game] = importlib.import_module(self.game_module).GAME
        return cls

    def bot_factories(self) -> dict[str, BotFactory]:
        factories: dict[str, BotFactory] = importlib.import_module(self.bots_module).BOTS
        return factories

    def counter_names(self) -> tuple[str, ...]:
        return tuple(c.name for c in self.counters)

    @property
    def menu_key(self) -> tuple[bool, int, str]:
        """The key games are listed by (:attr:`menu_place`, then the name)."""
        return (self.menu_place is None, self.menu_place or 0, self.name)
