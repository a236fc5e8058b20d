"""Between configurations: each against its neighbour at the baseline, paired by seed.

Along each parameter (deck, players, bots, variants), every configuration is compared
with the one that has that parameter's baseline value and all its other values
(:func:`kraftstokk.sim.sweep.grid.planned_pairs`), so a grid of n configurations makes
fewer than n comparisons per parameter. Game *i* of both starts from the same derived
seed, so every metric is compared game by game, as ``simulate --compare`` compares two
decks (:func:`kraftstokk.sim.compare.differences`), and one Holm correction over every
metric of every comparison of the sweep decides which differences hold. For each game
and each deck against the baseline deck, one sentence says whether and how they differ
(:func:`deck_verdicts`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from kraftstokk.sim.compare import Comparison, Difference, corrected, differences
from kraftstokk.sim.findings import Finding, pct, texts
from kraftstokk.sim.sweep.run import ConfigurationRun, PairRun
from kraftstokk.sim.verdict import deck_name, deck_names, largest, verdict

METHODS = {"paired by seed": "paired by seed, game as unit"}


@dataclass(frozen=True)
class PairComparison:
    """A comparison of the sweep with its differences, corrected over the whole sweep."""

    run: PairRun
    differences: list[Difference]

    @property
    def parameter(self) -> str:
        return self.run.parameter

    @property
    def a(self) -> ConfigurationRun:
        return self.run.a

    @property
    def b(self) -> ConfigurationRun:
        return self.run.b

    @property
    def same_games(self) -> bool:
        games = self.run.stats.games
        return games > 0 and self.run.stats.identical == games

    def as_dicts(self) -> list[dict[str, Any]]:
        a, b = self.a.configuration, self.b.configuration
        common = {
            "configuration_a": a.number,
            "configuration_b": b.number,
            "parameter": self.parameter,
            "a_value": a.value(self.parameter),
            "b_value": b.value(self.parameter),
            "same_games": self.same_games,
        }
        return [{**common, **item.as_dict()} for item in self.differences]


def compare_pairs(pairs: Sequence[PairRun], confidence: float) -> list[PairComparison]:
    """Every comparison's metrics, corrected as one family over the whole sweep."""
    found = corrected([differences(p.a.stats, p.b.stats, p.stats) for p in pairs], confidence)
    return [PairComparison(pair, items) for pair, items in zip(pairs, found, strict=True)]


def family(comparisons: Sequence[PairComparison]) -> int:
    """How many metrics the sweep's correction covered."""
    return sum(len(c.differences) for c in comparisons)


def _label(run: ConfigurationRun, parameter: str) -> str:
    return f"#{run.configuration.number} ({parameter} {run.configuration.value(parameter)})"


def context(pair: PairComparison, varied: Sequence[str]) -> str:
    """What the two configurations share among the swept parameters: ', with 4 players'."""
    shared = [pair.a.configuration.words(p) for p in varied if p not in (pair.parameter, "game")]
    return f", with {', '.join(shared)}" if shared else ""


def difference_finding(
    pair: PairComparison,
    item: Difference,
    significant: int,
    pairs: int,
    varied: Sequence[str],
) -> Finding:
    """The words for one held difference (the largest of ``significant`` alike)."""
    metric = item.metric.replace("_", " ")
    low, high = item.ci95
    if item.is_rate:
        a, b = pct(item.a), pct(item.b)
        change = f"{100 * item.difference:+z.1f} percentage points"
        low_text, high_text = f"{100 * low:+z.1f}", f"{100 * high:+z.1f} points"
    else:
        a, b = f"{item.a:.2f}", f"{item.b:.2f}"
        if item.a:
            change = f"{100 * item.difference / item.a:+z.1f} %"
            low_text = f"{100 * low / item.a:+z.1f} %"
            high_text = f"{100 * high / item.a:+z.1f} %"
        else:
            change = f"{item.difference:+z.2f}"
            low_text, high_text = f"{low:+z.2f}", f"{high:+z.2f}"
    a_label, b_label = _label(pair.a, pair.parameter), _label(pair.b, pair.parameter)
    shared = context(pair, varied).removeprefix(", with ")
    entry = texts()["difference"]
    better = str(entry["better"].get(item.metric, "lower"))
    words = {
        "metric": metric,
        "a_label": a_label,
        "b_label": b_label,
        "direction": "is higher" if item.difference > 0 else "is lower",
        "a": a,
        "b": b,
        "change": change,
        "low": low_text,
        "high": high_text,
        "method": METHODS.get(item.method, item.method),
        "context": f" (with {shared} in both)" if shared else "",
        "significant": significant,
        "pairs": pairs,
        "parameter": pair.parameter,
        "lower_or_higher": better,
        "choice": a_label if (item.a < item.b) == (better == "lower") else b_label,
    }
    figures = {
        "configuration_a": pair.a.configuration.number,
        "configuration_b": pair.b.configuration.number,
        "parameter": pair.parameter,
        "a_value": pair.a.configuration.value(pair.parameter),
        "b_value": pair.b.configuration.value(pair.parameter),
        **item.as_dict(),
        "significant_pairs": significant,
        "pairs": pairs,
    }
    return Finding(
        "difference",
        entry["title"],
        entry["says"].format(**words),
        entry["advice"].format(**words),
        figures,
    )


def parameter_findings(
    comparisons: Sequence[PairComparison], varied: Sequence[str]
) -> list[Finding]:
    """Per swept parameter and metric, the largest held difference, and in how many of
    that parameter's comparisons the metric differs; decks first, largest first."""
    groups: dict[tuple[str, str], list[tuple[PairComparison, Difference]]] = {}
    for pair in comparisons:
        for item in pair.differences:
            groups.setdefault((pair.parameter, item.metric), []).append((pair, item))
    order = ("deck", "players", "bots", "variants")
    ranked = []
    for (parameter, metric), found in groups.items():
        held = [(pair, item) for pair, item in found if item.significant]
        if not held:
            continue
        pair, item = max(
            held, key=lambda entry: (entry[1].effect, -entry[0].b.configuration.number)
        )
        ranked.append(
            (order.index(parameter), -item.effect, metric, pair, item, len(held), len(found))
        )
    ranked.sort(key=lambda entry: entry[:3])
    return [
        difference_finding(pair, item, hits, count, varied)
        for *_, pair, item, hits, count in ranked
    ]


@dataclass(frozen=True)
class DeckVerdict:
    """One game, one deck against the baseline deck: the sentence and the comparison whose
    differences the chart beside it draws."""

    game: str
    deck_a: str  # labels
    deck_b: str
    sentence: str
    shown: PairComparison
    family: int


def deck_verdicts(
    comparisons: Sequence[PairComparison], varied: Sequence[str]
) -> list[DeckVerdict]:
    """Per game, each deck against the baseline deck in one sentence (by title and edition)."""
    total = family(comparisons)
    groups: dict[tuple[str, str, str], list[PairComparison]] = {}
    for pair in comparisons:
        if pair.parameter == "deck":
            key = (
                pair.a.configuration.settings.game,
                pair.a.configuration.deck,
                pair.b.configuration.deck,
            )
            groups.setdefault(key, []).append(pair)
    found = []
    for (game, label_a, label_b), pairs in groups.items():
        summary_a, summary_b = pairs[0].a.summary, pairs[0].b.summary
        names = deck_names(summary_a["deck"], summary_b["deck"])
        games = sum(p.run.stats.games for p in pairs)
        identical = sum(p.run.stats.identical for p in pairs)
        held = [(p, item) for p in pairs for item in p.differences if item.significant]
        if held:
            named = largest([item for _, item in held])
            shown = next(p for p, item in held if item is named)
        else:
            everything = [(p, item) for p in pairs for item in p.differences]
            named = largest([item for _, item in everything])
            shown = next((p for p, item in everything if item is named), pairs[0])
        differing = sum(1 for p in pairs if any(item.significant for item in p.differences))
        summary = Comparison(
            games=games,
            identical=identical,
            differences=[named] if named is not None else [],
            confidence=0.95,
            family=total,
        )
        sentence = verdict(
            game,
            names,
            summary,
            context=context(shown, varied),
            differing=(differing, len(pairs)) if len(pairs) > 1 else None,
        )
        found.append(DeckVerdict(game, label_a, label_b, sentence, shown, total))
    return found


def deck_line(label: str, summary: dict[str, Any]) -> str:
    """``deck-head = Kraft-stokken: Fallhøyde (2024-01-fallhoyde), deck-head.toml``."""
    return f"{label} = {deck_name(summary['deck'])}, {summary['deck']['path']}"
