"""Page 1's six answers: each question answered in a sentence, with its figure, interval,
verdict and a label that never claims more than the interval allows.

The questions, their bands, labels and sentences are data (``findings.toml``,
``[questions.*]``); the figures come from a run's ``playability`` metrics
(:mod:`kraftstokk.sim.playability`). A question's scale is cut into bands; the label is the
band holding the whole 95 % interval, or the question's ``between`` phrase for the bands
the interval reaches ("between luck and skill"); the verdict is ``good`` when the whole
interval lies in the good bands, ``poor`` when none of it does, else ``unclear``.
"""

from __future__ import annotations

import math
from typing import Any

from kraftstokk.sim.findings import pct, texts
from kraftstokk.sim.playability import QUESTIONS

GOAL = {"win_rate": "wins", "loser_rate": "being the Idiot"}


def band(value: float, edges: list[float]) -> int:
    """The band of ``value``: 0 below the first edge, then one more per edge reached."""
    return sum(1 for edge in edges if value >= edge)


def label(question: dict[str, Any], low: float, high: float) -> tuple[str, int, int]:
    """The label an interval earns, and the bands of its ends."""
    edges = question["edges"]
    first, last = band(low, edges), band(high, edges)
    if first == last:
        return str(question["labels"][first]), first, last
    return str(question["between"][f"{first}-{last}"]), first, last


def verdict(question: dict[str, Any], first: int, last: int) -> str:
    good = set(question["good"])
    reached = set(range(first, last + 1))
    if reached <= good:
        return "good"
    if not reached & good:
        return "poor"
    return "unclear"


def _number(value: float) -> str:
    size = abs(value)
    return f"{value:.0f}" if size >= 10 else f"{value:.1f}"


def _numbers(*values: float) -> list[str]:
    """``values`` written as :func:`_number` does, with a decimal more for all when two
    would read the same (an interval "13 to 13" says less than "12.8 to 13.1")."""
    said = [_number(value) for value in values]
    if len(set(said)) < len(set(values)):
        said = [f"{value:.{2 if abs(value) < 10 else 1}f}" for value in values]
    return said


def _points(value: float) -> str:
    return f"{100 * value:.1f}"


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _answer(
    key: str,
    value: float | None,
    interval: list[float] | None,
    words: dict[str, Any],
    template: str,
    **fields: Any,
) -> dict[str, Any]:
    """One answer: the label and verdict of ``interval`` and the filled ``template``."""
    question = texts()["questions"][key]
    found: dict[str, Any] = {
        "question": key,
        "title": question["title"],
        "axis": str(question["axis"]).format(**words),
        "unit": question["unit"],
        "edges": list(question["edges"]),
        "labels": list(question["labels"]),
        "good": list(question["good"]),
        "scale": list(question["scale"]),
    }
    if value is None or interval is None:
        found.update(
            label="not measured",
            verdict="unmeasured",
            value=None,
            ci95=None,
            sentence=str(question["unmeasured"]),
        )
        return found
    low, high = interval
    text, first, last = label(question, low, high)
    if key == "skill" and low <= 0 and last == 0:
        text = str(question["no_sign"])
    found.update(
        label=text,
        verdict=verdict(question, first, last),
        bands=[first, last],
        value=value,
        ci95=[low, high],
        sentence=template.format(label=text, Label=_capital(text), **fields),
    )
    return found


def answers(summary: dict[str, Any]) -> list[dict[str, Any]]:
    """The six answers of a run's summary (``sim-<game>.json`` with ``playability``)."""
    metrics = summary["playability"]
    said = texts()["questions"]
    loser = metrics["fair"]["measure"] == "loser_rate"
    words = {"goal": GOAL[metrics["fair"]["measure"]], "players": summary["players"]}
    found = []
    for key in QUESTIONS:
        found.append(_ANSWERS[key](metrics, said[key], words, summary, loser))
    return found


def _fair(
    metrics: dict[str, Any],
    said: dict[str, Any],
    words: dict[str, Any],
    summary: dict[str, Any],
    loser: bool,
) -> dict[str, Any]:
    fair = metrics["fair"]
    if not fair["finished"]:
        return _answer("fair", None, None, words, "")
    rates = fair["rates"]
    low, high = fair["ci95"]
    return _answer(
        "fair",
        fair["value"],
        fair["ci95"],
        words,
        said["sentence"],
        goal=words["goal"],
        lowest=pct(rates[fair["lowest_seat"] - 1]),
        lowest_seat=fair["lowest_seat"],
        highest=pct(rates[fair["highest_seat"] - 1]),
        highest_seat=fair["highest_seat"],
        gap=_points(fair["value"]),
        low=_points(low),
        high=_points(high),
        fair=pct(fair["fair_share"]),
    )


def _duration(
    metrics: dict[str, Any],
    said: dict[str, Any],
    words: dict[str, Any],
    summary: dict[str, Any],
    loser: bool,
) -> dict[str, Any]:
    found = metrics["duration"]
    minutes = found["minutes"]
    if minutes is None or minutes["value"] is None:
        return _answer("duration", None, None, words, "")
    low, high = minutes["ci95"]
    mean, low_said, high_said = _numbers(minutes["value"], low, high)
    return _answer(
        "duration",
        minutes["value"],
        minutes["ci95"],
        words,
        said["sentence"],
        players=words["players"],
        median=_number(minutes["median"]),
        mean=mean,
        low=low_said,
        high=high_said,
        p90=_number(minutes["p90"]),
        turns=_number(found["turns_per_person"]["median"]),
        actions=_number(found["actions"]["median"]),
        rounds=_number(found["rounds"]["median"]),
    )


def _choice(
    metrics: dict[str, Any],
    said: dict[str, Any],
    words: dict[str, Any],
    summary: dict[str, Any],
    loser: bool,
) -> dict[str, Any]:
    found = metrics["choice"]
    share = found["decision_share"]
    if share["value"] is None:
        return _answer("choice", None, None, words, "")
    branching = found["branching"]
    answered = found["answers_share"]["value"] or 0.0
    low, high = share["ci95"]
    return _answer(
        "choice",
        share["value"],
        share["ci95"],
        words,
        said["sentence"],
        share=pct(share["value"]),
        low=pct(low),
        high=pct(high),
        branching=_number(branching["value"] or 0.0),
        p90=f"{branching.get('p90', 0):g}",
        answers=said.get(f"answers_{summary.get('game')}", said["answers"]).format(
            answers=pct(answered)
        )
        if answered
        else "",
    )


def _skill(
    metrics: dict[str, Any],
    said: dict[str, Any],
    words: dict[str, Any],
    summary: dict[str, Any],
    loser: bool,
) -> dict[str, Any]:
    edge = metrics.get("skill")
    if not edge:
        return _answer("skill", None, None, words, "")
    low, high = edge["ci95"]
    rate_low, rate_high = edge["rate_ci95"]
    others = ", ".join(f"{level} {pct(rate)}" for level, rate in edge["others"].items())
    return _answer(
        "skill",
        edge["value"],
        edge["ci95"],
        words,
        said["loser_sentence" if loser else "win_sentence"],
        rate=pct(edge["rate"]),
        rate_low=pct(rate_low),
        rate_high=pct(rate_high),
        games=edge["games"],
        fair=pct(edge["fair_share"]),
        edge=pct(edge["value"]),
        low=pct(low),
        high=pct(high),
        others=others or "no other level measured",
    )


def _drama(
    metrics: dict[str, Any],
    said: dict[str, Any],
    words: dict[str, Any],
    summary: dict[str, Any],
    loser: bool,
) -> dict[str, Any]:
    found = metrics["drama"]
    settled = found["settled"]
    if settled["value"] is None or not metrics["finished"]:
        return _answer("drama", None, None, words, "")
    low, high = settled["ci95"]
    return _answer(
        "drama",
        settled["value"],
        settled["ci95"],
        words,
        said["loser_sentence" if loser else "win_sentence"],
        settled=pct(settled["value"]),
        low=pct(low),
        high=pct(high),
        changes=_number(found["lead_changes"]["value"] or 0.0),
        comebacks=pct(found["comebacks"]["value"] or 0.0),
    )


def _broken(
    metrics: dict[str, Any],
    said: dict[str, Any],
    words: dict[str, Any],
    summary: dict[str, Any],
    loser: bool,
) -> dict[str, Any]:
    found = metrics["broken"]
    unfinished, early = found["unfinished"], found["settled_early"]
    if unfinished["value"] is None:
        return _answer("broken", None, None, words, "")
    low, high = unfinished["ci95"]
    answer = _answer(
        "broken",
        unfinished["value"],
        unfinished["ci95"],
        words,
        said["sentence"],
        unfinished=pct(unfinished["value"]),
        cap=f"{summary['action_cap']:,}",
        low=pct(low),
        high=pct(high),
        early=pct(early["value"] or 0.0),
    )
    extra = []
    if early["value"] is not None and early["ci95"][0] > float(said["early_threshold"]):
        answer["label"], answer["verdict"] = said["labels"][-1], "poor"
        answer["decided_by_the_deal"] = True
        extra.append(
            said["early"].format(
                early=pct(early["value"]), low=pct(early["ci95"][0]), high=pct(early["ci95"][1])
            )
        )
    example = summary.get("example_replay")
    if example and unfinished["hits"]:
        extra.append(said["example"].format(command=example["command"]))
    if extra:
        answer["sentence"] = " ".join([answer["sentence"], *extra])
    return answer


_ANSWERS = {
    "fair": _fair,
    "duration": _duration,
    "choice": _choice,
    "skill": _skill,
    "drama": _drama,
    "broken": _broken,
}


def chart_position(answer: dict[str, Any]) -> tuple[float, float]:
    """The chart's range for an answer: its scale, widened to show its interval."""
    low, high = answer["scale"]
    if answer.get("ci95"):
        high = max(high, answer["ci95"][1])
        low = min(low, answer["ci95"][0])
    if high <= low:
        high = low + 1
    return low, high if math.isfinite(high) else low + 1
