"""Skill against luck: how much better a stronger bot does than a weaker one, on the same games.

For each level (expert, heuristic, greedy, random) one seat is played by that bot and the
others by the field (the heuristic bot); the level's seat turns round the table, a
``1 / players`` share of the games in each seat, and every level plays the same games
(the same seeds, seat by seat), so the levels differ only in how the seat plays. The
measure is the game's own goal (``GameSpec.objective``): the win rate (going out first),
or in Idiot the loser rate (being the Idiot). Each rate has its 95 % Wilson interval.

The verdict says how far the expert gets from the fair share (``1 / players``), as a
share of it: the thresholds and sentences are data (``findings.toml``, ``[skill]``).
"""

from __future__ import annotations

import dataclasses
import json
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kraftstokk.games import registry
from kraftstokk.games.core import DeckTable
from kraftstokk.sim.answers import label as band_label
from kraftstokk.sim.findings import pct, texts
from kraftstokk.sim.runner import SimSettings, run_simulation
from kraftstokk.sim.stats import Z95, wilson
from kraftstokk.sim.stream import FINISHED, lost, won
from kraftstokk.sim.verdict import deck_name, game_title

LEVELS: tuple[str, ...] = ("expert", "heuristic", "greedy", "random")
FIELD = "heuristic"
#: Games per level when the caller says nothing (the expert plays a game in seconds).
DEFAULT_GAMES = 200


@dataclass(frozen=True)
class LevelRate:
    """One level's rate in its seat: ``hits`` of ``finished`` games, with the interval."""

    level: str
    hits: int
    finished: int
    games: int

    @property
    def rate(self) -> float:
        return self.hits / self.finished if self.finished else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.hits, self.finished)


@dataclass(frozen=True)
class SkillGradient:
    """The levels' rates in one game with one deck and rules, and what they say."""

    game: str
    deck: str
    players: int
    variants: tuple[str, ...]
    loser: bool  # the measure is being the loser (lower is better), else winning
    levels: tuple[LevelRate, ...]

    @property
    def fair(self) -> float:
        return 1 / self.players

    @property
    def edge(self) -> float | None:
        """How far the best level gets from the fair share, as a share of it."""
        best = self.levels[0] if self.levels else None
        if best is None or not best.finished:
            return None
        gain = self.fair - best.rate if self.loser else best.rate - self.fair
        return gain / self.fair

    def words(self) -> str:
        """Page 1's label of the expert's edge (``mostly luck`` ... ``mostly skill``, or a
        phrase for two bands), or no sign of skill."""
        said = texts()["skill"]
        edge = self.edge
        best = self.levels[0] if self.levels else None
        if edge is None or best is None:
            return str(said["unmeasured"])
        low, high = best.interval
        if low <= self.fair <= high:
            return str(said["no_sign"])
        # Page 1's bands and labels, from the edge's whole interval (never the estimate
        # alone): "between luck and skill" when it reaches two bands.
        ends = sorted(
            (self.fair - rate if self.loser else rate - self.fair) / self.fair
            for rate in (low, high)
        )
        return band_label(texts()["questions"]["skill"], ends[0], ends[1])[0]

    def sentence(self) -> str:
        """The gradient in one sentence, ending in what it says: ``...: mostly luck.``"""
        said = texts()["skill"]
        best = self.levels[0]
        low, high = best.interval
        others = ", ".join(
            f"{item.level} {pct(item.rate)}" for item in self.levels[1:] if item.finished
        )
        template = said["loser_sentence" if self.loser else "win_sentence"]
        return str(template).format(
            game=game_title(self.game),
            deck=self.deck,
            level=best.level,
            rate=pct(best.rate),
            low=pct(low),
            high=pct(high),
            fair=pct(self.fair),
            others=others,
            games=best.finished,
            words=self.words(),
            loser=said["loser_names"].get(self.game, said["loser_names"]["default"]),
        )

    def as_dict(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "deck": self.deck,
            "players": self.players,
            "variants": list(self.variants),
            "measure": "loser_rate" if self.loser else "win_rate",
            "field": FIELD,
            "fair_share": self.fair,
            "levels": [
                {
                    "level": item.level,
                    "rate": item.rate,
                    "ci95": list(item.interval),
                    "hits": item.hits,
                    "finished": item.finished,
                    "games": item.games,
                }
                for item in self.levels
            ],
            "edge": self.edge,
            "sentence": self.sentence(),
        }


def seat_spec(level: str, seat: int, players: int) -> str:
    """The bots of a game where ``seat`` plays ``level`` and every other seat the field."""
    return ",".join(level if other == seat else FIELD for other in range(players))


def skill_gradient(
    table: DeckTable,
    settings: SimSettings,
    deck: str,
    *,
    games: int = DEFAULT_GAMES,
    levels: Sequence[str] = LEVELS,
    workers: int | None = None,
    progress: Callable[[str], Any] | None = None,
) -> SkillGradient:
    """Play ``games`` games per level (``settings``' game, players, variants, seed and
    cap), the level's seat turning round the table, and measure each level's rate."""
    players = settings.players
    loser = registry.get_spec(settings.game).objective == "not_loser"
    share = -(-games // players)  # games per seat, rounded up
    rates = []
    for level in levels:
        hits = finished = played = 0
        for seat in range(players):
            part = dataclasses.replace(
                settings,
                games=share,
                first=settings.first + seat * share,
                bots=seat_spec(level, seat, players),
            )
            bar = progress(f"{level} in seat {seat + 1}") if progress else None
            outcome = run_simulation(table, part, workers, bar)
            if outcome.interrupted:  # Ctrl-C or SIGTERM: no gradient from part of its games
                raise KeyboardInterrupt
            stats = outcome.stats
            hits += stats.total(lost(seat) if loser else won(seat))
            finished += stats.total(FINISHED)
            played += stats.games
        rates.append(LevelRate(level, hits, finished, played))
    return SkillGradient(settings.game, deck, players, settings.variants, loser, tuple(rates))


def side_by_side(gradients: Sequence[SkillGradient]) -> str:
    """Two or more decks (or rule variants) compared on how much they reward good play.

    The setup whose expert gets furthest from the fair share rewards skill more than the
    one whose expert gets least far, when the two rates differ by more than their 95 %
    interval (the two taken as independent, which on the same seeds is cautious);
    otherwise they reward it alike.
    """
    said = texts()["skill"]
    measured = [g for g in gradients if g.edge is not None and g.levels[0].finished]
    if len(measured) < 2:
        return ""
    ranked = sorted(measured, key=lambda g: g.edge or 0.0, reverse=True)
    first, last = ranked[0], ranked[-1]
    edges = "; ".join(
        f"{_setup(g)}: {g.levels[0].level} {pct(g.levels[0].rate)} against {pct(g.fair)} "
        f"fair share, {g.words()}"
        for g in measured
    )
    if not _apart(first.levels[0], last.levels[0]):
        return str(said["alike"]).format(game=game_title(first.game), edges=edges)
    return str(said["compared"]).format(
        game=game_title(first.game), more=_setup(first), less=_setup(last), edges=edges
    )


def _apart(a: LevelRate, b: LevelRate) -> bool:
    spread = a.rate * (1 - a.rate) / a.finished + b.rate * (1 - b.rate) / b.finished
    return abs(a.rate - b.rate) > Z95 * math.sqrt(spread)


def skill_path(out_dir: Path, game: str) -> Path:
    return out_dir / f"sim-{game}-skill.json"


def measure_decks(
    deck_paths: Sequence[Path],
    settings: SimSettings,
    out_dir: Path,
    *,
    games: int = DEFAULT_GAMES,
    workers: int | None = None,
    progress: Callable[[str], Any] | None = None,
) -> tuple[list[SkillGradient], str, Path]:
    """Each deck's skill gradient on the same games, the decks side by side in words, and
    ``OUT/sim-GAME-skill.json`` (written whole, atomically)."""
    from kraftstokk.deck.io import load_valid_deck
    from kraftstokk.sim.verdict import deck_names

    decks = [load_valid_deck(path) for path in deck_paths]
    described = [
        {"title": deck.title, "edition": deck.edition, "path": str(path)}
        for deck, path in zip(decks, deck_paths, strict=True)
    ]
    names = [deck_name(d) for d in described]
    if len(described) == 2:
        names = list(deck_names(described[0], described[1]))
    gradients = []
    for deck, name in zip(decks, names, strict=True):
        table = DeckTable.from_deck(deck)

        def labelled(label: str, deck_label: str = name) -> Any:
            return progress(f"{deck_label}: {label}") if progress else None

        gradients.append(
            skill_gradient(table, settings, name, games=games, workers=workers, progress=labelled)
        )
    compared = side_by_side(gradients)
    path = skill_path(out_dir, settings.game)
    _write(path, gradients, compared, games)
    return gradients, compared, path


def sweep_gradients(
    runs: Sequence[Any],
    out_dir: Path,
    *,
    games: int = DEFAULT_GAMES,
    workers: int | None = None,
    progress: Callable[[str], Any] | None = None,
) -> tuple[list[SkillGradient], list[str], Path]:
    """The skill gradient of every deck and rule set a sweep played (its bots aside), the
    decks of each rule set side by side in words, and ``OUT/skill.json``.

    ``runs``: the sweep's configuration runs (``sim/sweep/run.py``'s ``ConfigurationRun``:
    its configuration's settings and its loaded deck).
    """

    groups: dict[tuple[Any, ...], dict[str, tuple[DeckTable, SimSettings]]] = {}
    for run in runs:
        settings = run.configuration.settings
        rules = (settings.game, settings.players, settings.variants, settings.action_cap)
        groups.setdefault((*rules, settings.seed, settings.first), {}).setdefault(
            run.deck.label, (run.deck.table, settings)
        )
    gradients: list[SkillGradient] = []
    compared: list[str] = []
    for decks in groups.values():
        measured = []
        for label, (table, settings) in decks.items():

            def labelled(text: str, deck_label: str = label) -> Any:
                return progress(f"{deck_label}: {text}") if progress else None

            measured.append(
                skill_gradient(
                    table, settings, label, games=games, workers=workers, progress=labelled
                )
            )
        gradients.extend(measured)
        line = side_by_side(measured)
        if line:
            compared.append(line)
    path = out_dir / "skill.json"
    _write(path, gradients, compared, games)
    return gradients, compared, path


def _write(path: Path, gradients: Sequence[SkillGradient], compared: Any, games: int) -> None:
    """The gradients as JSON, the file replaced whole (``atomic.write_text``)."""
    from kraftstokk.atomic import write_text

    data = {
        "gradients": [g.as_dict() for g in gradients],
        "compared": compared,
        "games_per_level": games,
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    write_text(path, json.dumps(data, ensure_ascii=False, indent=2) + "\n")


def _setup(gradient: SkillGradient) -> str:
    variants = "+".join(gradient.variants)
    return f"{gradient.deck}" + (f" with {variants}" if variants else "")
