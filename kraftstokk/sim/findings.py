"""Findings in words: what a run (or two configurations) shows, tested, with advice.

Each finding comes from a statistical test at the configured confidence, with a
Bonferroni correction inside its family (the seats of a run, the cards of a run, the
specials of a run), so that a report with many figures does not cry wolf (comparisons of
decks and configurations are corrected by Holm's method, :mod:`kraftstokk.sim.compare`).
The sentences and the advice are data (``findings.toml``); this module only fills in the
figures.
"""

from __future__ import annotations

import math
import tomllib
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from statistics import NormalDist
from typing import Any

from kraftstokk.sim.finding_rules import FindingRules as FindingRules  # re-exported
from kraftstokk.sim.metrics import seat_counts
from kraftstokk.sim.stats import wilson
from kraftstokk.sim.stream import ACTIONS, RunStats, counter, ratio

NORMAL = NormalDist()
MAX_CARDS_NAMED = 3


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


def _seat_findings(stats: RunStats, rules: FindingRules, game: str) -> list[Finding]:
    found: list[Finding] = []
    finished = stats.finished
    players = stats.players
    if not finished or players < 2:
        return found
    fair = 1 / players
    z = z_two_sided(rules.confidence, players)
    for kind, counts in zip(("seat_advantage", "seat_loses"), seat_counts(stats), strict=True):
        outside = []
        for seat, count in enumerate(counts):
            low, high = wilson(count, finished, z)
            if low > fair:
                outside.append((count / finished - fair, seat, low, high))
        if not outside:
            continue
        _, seat, low, high = max(outside)
        share = counts[seat] / finished
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
    stats: RunStats, rules: FindingRules, game: str, action_cap: int
) -> list[Finding]:
    found = []
    games = stats.games
    unfinished = games - stats.finished
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
    lengths = stats.length(ACTIONS, finished=True)
    if lengths.count:
        median = lengths.describe()["median"]
        long = lengths.above(rules.long_game_factor * median)
        low, high = wilson(long, lengths.count, z)
        if low > rules.long_game_share:
            found.append(
                _finding(
                    "long_games",
                    game,
                    {"share": long / lengths.count, "interval": [low, high], "median": median},
                    share=pct(long / lengths.count),
                    factor=f"{rules.long_game_factor:g}",
                    median=f"{median:g}",
                    low=pct(low),
                    high=pct(high),
                    threshold=pct(rules.long_game_share),
                )
            )
    return found


def _special_findings(stats: RunStats, rules: FindingRules, game: str) -> list[Finding]:
    found: list[Finding] = []
    specials = list(texts()["specials"].get(game, []))
    games = stats.games
    if not games:
        return found
    z = z_one_sided(rules.confidence, max(1, len(specials)))
    for name in specials:
        label = name.replace("_", " ")
        seen = stats.positive_games(counter(name))
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
        share = ratio(stats, counter(name), ACTIONS)
        if share is None:
            continue
        lower = share.value - z * math.sqrt(share.variance)
        if lower > rules.often_share:
            found.append(
                _finding(
                    "often_special",
                    game,
                    {"counter": name, "share_of_actions": share.value, "lower": lower},
                    counter=label,
                    share=pct(share.value),
                    low=pct(lower),
                    threshold=pct(rules.often_share),
                )
            )
    return found


def _card_findings(
    stats: RunStats,
    rules: FindingRules,
    game: str,
    card_labels: dict[int, str],
) -> list[Finding]:
    with_loser = sum(seat_counts(stats)[1])
    if not with_loser or not card_labels:
        return []
    rates = {card: stats.loser_cards[card] / with_loser for card in card_labels}
    average = sum(rates.values()) / len(rates)
    z = z_one_sided(rules.confidence, len(card_labels))
    far = []
    for card, rate in rates.items():
        low, _ = wilson(stats.loser_cards[card], with_loser, z)
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
    stats: RunStats,
    *,
    game: str,
    action_cap: int,
    card_labels: dict[int, str],
    rules: FindingRules | None = None,
) -> list[Finding]:
    """Everything one run's games show at the rules' confidence, most pressing first."""
    rules = rules or FindingRules()
    return [
        *_length_findings(stats, rules, game, action_cap),
        *_seat_findings(stats, rules, game),
        *_special_findings(stats, rules, game),
        *_card_findings(stats, rules, game, card_labels),
    ]


def answer_findings(answers: list[dict[str, Any]]) -> list[Finding]:
    """A finding for each of page 1's answers whose whole interval lies outside the good
    range (a poor verdict), with its sentence and the advice of ``[answer_findings]``."""
    advice = texts()["answer_findings"]
    found = []
    for answer in answers:
        if answer["verdict"] != "poor" or answer["question"] not in advice:
            continue
        words = advice[answer["question"]]
        which = ""
        if answer["question"] == "broken":  # say which of stalls and the deal happened
            stalls = answer["bands"][0] > 0
            deal = bool(answer.get("decided_by_the_deal"))
            which = "" if stalls and deal else "_stalls" if stalls else "_deal"
        found.append(
            Finding(
                f"answer_{answer['question']}",
                words[f"title{which}"],
                answer["sentence"],
                words[f"advice{which}"],
                {"value": answer["value"], "interval": answer["ci95"], "label": answer["label"]},
            )
        )
    return found


def glossary(counter_names: list[str], game: str = "") -> list[str]:
    """The sentences that tell apart look-alike counters the run has."""
    present = set(counter_names)
    sentences = {**texts()["glossary"], **texts().get(f"glossary_{game}", {})}
    lines = []
    for name, sentence in sentences.items():
        if sentence and name in present:
            lines.append(sentence)
    return lines
