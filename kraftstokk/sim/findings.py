"""Findings in words: what a run (or two configurations) shows, tested, with advice.

Each finding comes from a statistical test at the configured confidence, with a
Bonferroni correction inside its family (the seats of a run, the cards of a run, the
specials of a run) and Holm's correction over all the comparisons of a sweep, so that
a report with many figures does not cry wolf. The sentences and the advice are data
(``findings.toml``); this module only fills in the figures.
"""

from __future__ import annotations

import math
import tomllib
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from statistics import NormalDist
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field

from kraftstokk.sim.compare import Difference
from kraftstokk.sim.metrics import Tally
from kraftstokk.sim.stats import Z95, ratio_estimate, wilson

NORMAL = NormalDist()
MAX_CARDS_NAMED = 3


class FindingRules(BaseModel):
    """When a figure becomes a finding: the confidence and the designer's thresholds."""

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


@dataclass(frozen=True)
class Finding:
    """One sentence of what the games show, and one of what a designer might change."""

    kind: str
    title: str
    says: str
    advice: str
    figures: dict[str, Any] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "title": self.title,
            "says": self.says,
            "advice": self.advice,
            "figures": self.figures,
        }


@cache
def texts() -> dict[str, Any]:
    """``findings.toml``: sentences, advice, the specials per game and the glossary."""
    source = resources.files("kraftstokk.sim").joinpath("findings.toml")
    return tomllib.loads(source.read_text(encoding="utf-8"))


def pct(value: float) -> str:
    """A share as people read it: '12.3 %' (one scale for every rate)."""
    return f"{100 * value:.1f} %"


def z_two_sided(confidence: float, tests: int = 1) -> float:
    return NORMAL.inv_cdf(1 - (1 - confidence) / (2 * max(1, tests)))


def z_one_sided(confidence: float, tests: int = 1) -> float:
    return NORMAL.inv_cdf(1 - (1 - confidence) / max(1, tests))


def _finding(kind: str, game: str, figures: dict[str, Any], **words: Any) -> Finding:
    entry = texts()[kind]
    advice = entry.get(f"advice_{game}", entry["advice"])
    return Finding(
        kind, entry["title"], entry["says"].format(**words), advice.format(**words), figures
    )


def _seat_findings(tally: Tally, players: int, rules: FindingRules, game: str) -> list[Finding]:
    found: list[Finding] = []
    finished = [row for row in tally.rows if row.finished]
    if not finished or players < 2:
        return found
    fair = 1 / players
    z = z_two_sided(rules.confidence, players)
    for kind, attribute in (("seat_advantage", "winner"), ("seat_loses", "loser")):
        counts = [0] * players
        for row in finished:
            seat = getattr(row, attribute)
            if 0 <= seat < players:
                counts[seat] += 1
        outside = []
        for seat, count in enumerate(counts):
            low, high = wilson(count, len(finished), z)
            if low > fair:
                outside.append((count / len(finished) - fair, seat, low, high))
        if not outside:
            continue
        _, seat, low, high = max(outside)
        share = counts[seat] / len(finished)
        found.append(
            _finding(
                kind,
                game,
                {"seat": seat + 1, "share": share, "interval": [low, high], "fair": fair},
                seat=seat + 1,
                share=pct(share),
                low=pct(low),
                high=pct(high),
                fair=pct(fair),
            )
        )
    return found


def _length_findings(
    tally: Tally, rules: FindingRules, game: str, action_cap: int
) -> list[Finding]:
    found = []
    games = tally.games
    unfinished = sum(1 for row in tally.rows if not row.finished)
    z = z_one_sided(rules.confidence)
    low, high = wilson(unfinished, games, z)
    if games and low > rules.unfinished_share:
        found.append(
            _finding(
                "unfinished",
                game,
                {"share": unfinished / games, "interval": [low, high]},
                share=pct(unfinished / games),
                cap=action_cap,
                low=pct(low),
                high=pct(high),
                threshold=pct(rules.unfinished_share),
            )
        )
    lengths = sorted(row.actions for row in tally.rows if row.finished)
    if lengths:
        middle = len(lengths) // 2
        median = (
            lengths[middle] if len(lengths) % 2 else (lengths[middle - 1] + lengths[middle]) / 2
        )
        long = sum(1 for value in lengths if value > rules.long_game_factor * median)
        low, high = wilson(long, len(lengths), z)
        if low > rules.long_game_share:
            found.append(
                _finding(
                    "long_games",
                    game,
                    {"share": long / len(lengths), "interval": [low, high], "median": median},
                    share=pct(long / len(lengths)),
                    factor=f"{rules.long_game_factor:g}",
                    median=f"{median:g}",
                    low=pct(low),
                    high=pct(high),
                    threshold=pct(rules.long_game_share),
                )
            )
    return found


def _special_findings(tally: Tally, rules: FindingRules, game: str) -> list[Finding]:
    found: list[Finding] = []
    specials = list(texts()["specials"].get(game, []))
    games = tally.games
    if not games:
        return found
    z = z_one_sided(rules.confidence, max(1, len(specials)))
    for name in specials:
        label = name.replace("_", " ")
        seen = sum(1 for row in tally.rows if row.counters.get(name, 0) > 0)
        if seen == 0:
            found.append(
                _finding("never_special", game, {"counter": name}, counter=label, games=games)
            )
            continue
        low, high = wilson(seen, games, z)
        if high < rules.rare_share:
            found.append(
                _finding(
                    "rare_special",
                    game,
                    {"counter": name, "share": seen / games, "interval": [low, high]},
                    counter=label,
                    share=pct(seen / games),
                    high=pct(high),
                    threshold=pct(rules.rare_share),
                )
            )
            continue
        pairs = [(row.actions, row.counters.get(name, 0)) for row in tally.rows]
        mean, variance = ratio_estimate(pairs)
        lower = mean - z * math.sqrt(variance)
        if lower > rules.often_share:
            found.append(
                _finding(
                    "often_special",
                    game,
                    {"counter": name, "share_of_actions": mean, "lower": lower},
                    counter=label,
                    share=pct(mean),
                    low=pct(lower),
                    threshold=pct(rules.often_share),
                )
            )
    return found


def _card_findings(
    tally: Tally,
    rules: FindingRules,
    game: str,
    card_labels: dict[int, str],
) -> list[Finding]:
    with_loser = sum(1 for row in tally.rows if row.finished and row.loser >= 0)
    if not with_loser or not card_labels:
        return []
    rates = {card: tally.loser_cards[card] / with_loser for card in card_labels}
    average = sum(rates.values()) / len(rates)
    z = z_one_sided(rules.confidence, len(card_labels))
    far = []
    for card, rate in rates.items():
        low, _ = wilson(tally.loser_cards[card], with_loser, z)
        if average > 0 and low > rules.loser_card_factor * average:
            far.append((-rate, card, low))
    if not far:
        return []
    far.sort()
    named = [f"{card_labels[card]} ({pct(-rate)})" for rate, card, _ in far[:MAX_CARDS_NAMED]]
    more = len(far) - MAX_CARDS_NAMED
    cards = ", ".join(named) + (f" and {more} more" if more > 0 else "")
    return [
        _finding(
            "loser_cards",
            game,
            {
                "cards": [card_labels[card] for _, card, _ in far],
                "rates": [-rate for rate, _, _ in far],
                "average": average,
            },
            cards=cards,
            average=pct(average),
        )
    ]


def run_findings(
    tally: Tally,
    *,
    game: str,
    players: int,
    action_cap: int,
    card_labels: dict[int, str],
    rules: FindingRules | None = None,
) -> list[Finding]:
    """Everything one run's games show at the rules' confidence, most pressing first."""
    rules = rules or FindingRules()
    return [
        *_length_findings(tally, rules, game, action_cap),
        *_seat_findings(tally, players, rules, game),
        *_special_findings(tally, rules, game),
        *_card_findings(tally, rules, game, card_labels),
    ]


@dataclass(frozen=True)
class CheckedDifference:
    """A metric's difference between two configurations, with its two-sided p-value."""

    difference: Difference
    p_value: float
    z_score: float


def with_p_value(difference: Difference) -> CheckedDifference:
    """The p-value of a difference from its 95 % interval (normal, symmetric half-width)."""
    low, high = difference.ci95
    se = (high - low) / (2 * Z95)
    flat = 0.0 if difference.difference == 0 else math.inf  # no spread at all
    z = difference.difference / se if se > 0 else flat
    return CheckedDifference(difference, 2 * (1 - NORMAL.cdf(abs(z))), z)


def holm(p_values: list[float], confidence: float) -> list[bool]:
    """Holm's step-down: which of the tests stay significant over the whole family."""
    alpha = 1 - confidence
    order = sorted(range(len(p_values)), key=lambda i: p_values[i])
    keep = [False] * len(p_values)
    for rank, index in enumerate(order):
        if p_values[index] > alpha / (len(p_values) - rank):
            break
        keep[index] = True
    return keep


def glossary(counter_names: list[str], game: str = "") -> list[str]:
    """The sentences that tell apart look-alike counters the run has."""
    present = set(counter_names)
    sentences = {**texts()["glossary"], **texts().get(f"glossary_{game}", {})}
    lines = []
    for name, sentence in sentences.items():
        if sentence and name in present:
            lines.append(sentence)
    return lines
