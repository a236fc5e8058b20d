"""Two decks (or rule sets) on page 1's six questions: side by side, the largest
differences first, and a verdict for a purpose.

Each question's headline metric (its answer's figure) is compared B − A: where both decks
played the same games, game by game (the minutes, the decision share, how far into a game
the lead is settled, the unfinished share: :mod:`kraftstokk.sim.compare`'s paired
differences); the seat gap (a largest-minus-smallest, not a ratio) and the skill edge (each
deck's own expert games) as two independent estimates, whose interval is the wider. A
difference counts when it holds after a correction for testing many: a paired one
after the comparison's Holm correction over every metric, an independent one after
Bonferroni's over the six questions. The rows are ordered by the size
of B − A relative to A. The verdict names, for each deck, what it does better
("shorter and fairer") and the purposes it serves; the words are ``findings.toml``'s
``[compare_answers]``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from statistics import NormalDist
from typing import Any, Protocol

from kraftstokk.sim.compare import Difference
from kraftstokk.sim.findings import texts
from kraftstokk.sim.playability import QUESTIONS

#: How much wider a 95 % interval gets under Bonferroni's correction over six questions.
BONFERRONI_SIX = NormalDist().inv_cdf(1 - 0.05 / 12) / NormalDist().inv_cdf(0.975)

#: The paired metric of each question's answer (sim/compare.py's names); None: compared
#: as two independent estimates from the summaries.
PAIRED: dict[str, str | None] = {
    "fair": None,
    "duration": "minutes_at_a_table_mean",
    "choice": "decision_share",
    "skill": None,
    "drama": "settled_share_mean",
    "broken": "unfinished_rate",
}


def _independent(a: dict[str, Any], b: dict[str, Any]) -> tuple[float, tuple[float, float]]:
    half_a = (a["ci95"][1] - a["ci95"][0]) / 2
    half_b = (b["ci95"][1] - b["ci95"][0]) / 2
    difference = b["value"] - a["value"]
    half = math.hypot(half_a, half_b)
    return difference, (difference - half, difference + half)


class Paired(Protocol):
    """A comparison game by game (``simulate --compare``'s, or a sweep's pair)."""

    @property
    def differences(self) -> list[Difference]: ...


def rows(
    summary_a: dict[str, Any], summary_b: dict[str, Any], comparison: Paired | None
) -> list[dict[str, Any]]:
    """One row per question: both answers, B − A with its interval, the relative size,
    whether it counts and which deck is better; the largest relative differences first."""
    paired = {item.metric: item for item in comparison.differences} if comparison else {}
    words = texts()["compare_answers"]
    found = []
    for number, (a, b) in enumerate(zip(summary_a["answers"], summary_b["answers"], strict=True)):
        key = QUESTIONS[number]
        row: dict[str, Any] = {"question": key, "title": a["title"], "a": a, "b": b}
        if a.get("ci95") is None or b.get("ci95") is None:
            row.update(difference=None, ci95=None, relative=-1.0, counts=False, better=None)
            found.append(row)
            continue
        name = PAIRED[key]
        item = paired.get(name) if name else None
        if item is not None:
            difference, interval = item.difference, item.ci95
            method = "paired by seed"
            # Counts only when it holds after the comparison's correction over every
            # metric it compared (Holm), as the report's own table says.
            counts = item.significant
        else:
            difference, interval = _independent(a, b)
            method = "independent"
            # Two independent estimates, Bonferroni over the six questions: the half
            # interval widened from 95 % to 1 - 5 %/6 two-sided.
            middle, half = difference, (interval[1] - interval[0]) / 2 * BONFERRONI_SIX
            counts = middle - half > 0 or middle + half < 0
        base = abs(a["value"])
        relative = abs(difference) / base if base else (math.inf if difference else 0.0)
        lower_better = words[key]["better"] == "lower"
        if key == "duration" and b["value"] < a["value"] and b["value"] < a["edges"][0]:
            lower_better = False  # shorter than a good length is not better
        better = None
        if counts:
            better = "b" if (difference < 0) == lower_better else "a"
        row.update(
            difference=difference,
            ci95=list(interval),
            relative=relative,
            counts=counts,
            better=better,
            method=method,
        )
        found.append(row)
    return sorted(found, key=lambda r: (not r["counts"], -r["relative"]))


def _deck_words(key: str, row: dict[str, Any], deck: str) -> tuple[str, str]:
    """What ``deck`` ("a" or "b") does better on ``row``'s question, and the purpose."""
    said = texts()["compare_answers"][key]
    if key == "duration":
        shorter = row[deck]["value"] < row["b" if deck == "a" else "a"]["value"]
        if not shorter:
            return said["longer"], said["purpose_longer"]
    return said["words"], said["purpose"]


def _joined(items: Sequence[str]) -> str:
    """``a, b and c``, the phrases that start with "with" last (``shorter and with more
    choice`` reads; ``with more choice and shorter`` does not)."""
    items = sorted(items, key=lambda item: item.startswith("with "))
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _broken_what(answer: dict[str, Any]) -> str:
    said = texts()["compare_answers"]
    parts = []
    if answer["bands"][0] > 0:
        parts.append(str(said["broken_what"]).format(share=figure(answer)))
    if answer.get("decided_by_the_deal"):
        parts.append(str(said["broken_deal"]))
    return ", ".join(parts)


def _broken_sentence(found: list[dict[str, Any]], game: str, names: tuple[str, str]) -> str:
    """When a deck is broken, the sentence saying so and naming the other ("" when
    neither is)."""
    said = texts()["compare_answers"]
    row = next((row for row in found if row["question"] == "broken"), None)
    if row is None:
        return ""
    broken = [deck for deck in ("a", "b") if row[deck].get("verdict") == "poor"]
    a, b = names
    if len(broken) == 2:
        return str(said["broken_both"]).format(
            game=game, a=a, b=b, a_what=_broken_what(row["a"]), b_what=_broken_what(row["b"])
        )
    if len(broken) == 1:
        other = "b" if broken[0] == "a" else "a"
        name = {"a": a, "b": b}
        return str(said["broken_one"]).format(
            game=game,
            broken=name[broken[0]],
            other=name[other],
            what=_broken_what(row[broken[0]]),
        )
    return ""


def verdict(found: list[dict[str, Any]], game: str, names: tuple[str, str]) -> str:
    """The comparison's page-1 verdict: which deck plays better for what, or alike. A
    broken deck decides it: the verdict says so first and names the other deck (or that
    neither is ready), then what else differs, without purposes."""
    said = texts()["compare_answers"]
    a, b = names
    broken = _broken_sentence(found, game, names)
    lead = str(said["broken_rest"] if broken else said["lead"]).format(game=game)
    sides: dict[str, list[tuple[str, str]]] = {"a": [], "b": []}
    for row in found:
        if row["better"] and not (broken and row["question"] == "broken"):
            sides[row["better"]].append(_deck_words(row["question"], row, row["better"]))
    if not sides["a"] and not sides["b"]:
        return broken or str(said["alike"]).format(game=game, a=a, b=b)
    if sides["a"] and sides["b"]:
        sentence = str(said["both_sides"]).format(
            lead=lead,
            a=a,
            b=b,
            a_words=_joined([w for w, _ in sides["a"]]),
            b_words=_joined([w for w, _ in sides["b"]]),
        )
    else:
        better = "a" if sides["a"] else "b"
        sentence = str(said["one_side"]).format(
            lead=lead,
            better=a if better == "a" else b,
            other=b if better == "a" else a,
            words=_joined([w for w, _ in sides[better]]),
        )
    if broken:
        return f"{broken} {sentence}"
    purposes = []
    for deck, name in (("b", b), ("a", a)):
        if sides[deck]:
            purposes.append((_joined([p for _, p in sides[deck]]), name))
    text = str(said["purpose"]).format(purposes=purposes[0][0], deck=purposes[0][1])
    for purpose, deck in purposes[1:]:
        text = text[:-1] + str(said["purposes_join"]).format(purposes=purpose, deck=deck) + "."
    return f"{sentence} {text}"


def figure(answer: dict[str, Any]) -> str:
    """An answer's figure as a comparison shows it, in its unit: minutes in tenths, as
    their difference is (``23 min`` beside ``+0.4 min`` would hide which way it went)."""
    if answer.get("value") is None:
        return "not measured"
    value, unit = answer["value"], answer["unit"]
    if unit == "minutes":
        return f"{value:.1f} min"
    if unit == "points":
        return f"{100 * value:.1f} points"
    return f"{100 * value:.1f} %"


def said(answer: dict[str, Any]) -> str:
    """An answer in a cell: its figure and label (``23 min: a good length``)."""
    if answer.get("value") is None:
        return "not measured"
    return f"{figure(answer)}: {answer['label']}"


def difference_text(row: dict[str, Any]) -> str:
    """B − A with its interval, in the question's unit ('' when not measured)."""
    if row["difference"] is None:
        return ""
    unit = row["a"]["unit"]
    low, high = row["ci95"]
    if unit == "minutes":
        return f"{row['difference']:+z.1f} min ({low:+z.1f} to {high:+z.1f})"
    return f"{100 * row['difference']:+z.1f} points ({100 * low:+z.1f} to {100 * high:+z.1f})"


def row_data(row: dict[str, Any]) -> dict[str, Any]:
    """A row as ``sim-<game>-compare.json`` keeps it: the figures and labels of both."""
    relative = row["relative"]
    return {
        "question": row["question"],
        "a": {key: row["a"].get(key) for key in ("value", "ci95", "label", "verdict")},
        "b": {key: row["b"].get(key) for key in ("value", "ci95", "label", "verdict")},
        "difference": row["difference"],
        "ci95": row["ci95"],
        "relative": relative if relative is not None and math.isfinite(relative) else None,
        "counts": row["counts"],
        "better": row["better"],
        "method": row.get("method"),
    }
