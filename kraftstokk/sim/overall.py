"""The top of page 1: is the game fair, is it fun, and what to change.

Drawn from the six answers (:mod:`kraftstokk.sim.answers`) and the findings
(:mod:`kraftstokk.sim.findings`) of a run's summary; the words are data
(``findings.toml``, ``[overall]``). Fairness is the fair answer; fun is the answers on
length, choice, skill and drama, each named by its label under its verdict; broken is the
broken answer. What to change lists the poor answers' advice first (broken, then unfair,
then the rest in page order), then what the statistical tests found that those do not
already say; "to be surer" names what more games (or ``--skill``) would settle.
"""

from __future__ import annotations

from typing import Any

from kraftstokk.sim.answers import GOAL
from kraftstokk.sim.findings import pct, texts

FUN = ("duration", "choice", "skill", "drama")
#: Statistical findings that say again what a poor answer already says.
SAID_BY = {"fair": ("seat_advantage", "seat_loses"), "broken": ("unfinished",)}
#: The questions whose intervals shrink with more games (skill has its own --skill-games).
SHRINK = ("fair", "duration", "choice", "drama", "broken")
#: How many changes page 1 lists; the rest follow in the findings.
SHOWN = 3


def _points(value: float) -> str:
    return f"{100 * value:.1f}"


def _and(names: list[str]) -> str:
    """``names`` as a list in words: "a", "a and b", "a, b and c" ("" for none)."""
    return " and ".join([", ".join(names[:-1]), names[-1]] if len(names) > 1 else names)


def _by_question(answers: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    return {answer["question"]: answer for answer in answers}


def _fair(answer: dict[str, Any], goal: str) -> str:
    words = texts()["overall"]
    template = words[f"fair_{answer['verdict']}"]
    if answer["verdict"] == "unmeasured":
        return str(template)
    low, high = answer["ci95"]
    return str(template).format(
        goal=goal,
        label=answer["label"],
        gap=_points(answer["value"]),
        low=_points(low),
        high=_points(high),
    )


def _fun(answers: dict[str, dict[str, Any]]) -> str:
    words = texts()["overall"]
    names = words["names"]
    grouped: dict[str, list[str]] = {"good": [], "poor": [], "unclear": [], "unmeasured": []}
    for key in FUN:
        answer = answers[key]
        said = names[key] if answer["verdict"] == "unmeasured" else answer["label"]
        grouped[answer["verdict"]].append(said)
    sentences = []
    if grouped["good"]:
        lead = "fun_good" if not grouped["poor"] and not grouped["unclear"] else "fun_some"
        sentences.append(words[lead].format(items="; ".join(grouped["good"])))
    for verdict in ("poor", "unclear", "unmeasured"):
        if grouped[verdict]:
            sentences.append(words[f"fun_{verdict}"].format(items="; ".join(grouped[verdict])))
    return " ".join(sentences)


def _broken(answer: dict[str, Any], summary: dict[str, Any]) -> str:
    words = texts()["overall"]
    if answer["verdict"] == "unmeasured":
        return str(words["broken_unmeasured"])
    unfinished = pct(answer["value"])
    stalls = summary["playability"]["broken"]["unfinished"]
    if answer["verdict"] == "unclear" and not stalls.get("hits"):
        return str(words["broken_none"]).format(
            games=f"{summary.get('games', 0):,}", high=pct(answer["ci95"][1])
        )
    what = []
    if answer["bands"][0] > 0:  # not even the interval's low end is "nothing broken"
        what.append(words["broken_stalls"].format(unfinished=unfinished))
    if answer.get("decided_by_the_deal"):
        early = summary["playability"]["broken"]["settled_early"]["value"]
        what.append(words["broken_deal"].format(early=pct(early)))
    return str(words[f"broken_{answer['verdict']}"]).format(
        label=answer["label"],
        Label=answer["label"][:1].upper() + answer["label"][1:],
        unfinished=unfinished,
        what=_and(what),
    )


def changes(summary: dict[str, Any]) -> list[dict[str, Any]]:
    """What to change, most pressing first: the poor answers' findings (broken, unfair,
    then page order), then the statistical findings a poor answer does not already say."""
    found = list(summary.get("answer_findings", []))
    rank = {"answer_broken": 0, "answer_fair": 1}
    found.sort(key=lambda item: rank.get(item["kind"], 2))  # stable: page order after
    covered = {
        kind for item in found for kind in SAID_BY.get(item["kind"].removeprefix("answer_"), ())
    }
    found += [item for item in summary.get("findings", []) if item["kind"] not in covered]
    return found


def _surer(summary: dict[str, Any], answers: dict[str, dict[str, Any]]) -> str:
    words = texts()["overall"]
    names = words["names"]
    steps = []
    open_questions = [names[key] for key in SHRINK if answers[key]["verdict"] == "unclear"]
    if open_questions:
        games = 4 * int(summary.get("games", 0) or 0)
        steps.append(
            words["more_games"].format(
                games=f"{games:,}",
                games_plain=games,
                questions=_and(open_questions),
            )
        )
    if answers["skill"]["verdict"] == "unmeasured" and summary.get("games"):
        steps.append(words["measure_skill"])
    edge = summary["playability"].get("skill")
    if answers["skill"]["verdict"] == "unclear" and edge:
        steps.append(words["more_skill_games"].format(games=4 * int(edge["games"])))
    return str(words["surer"]).format(steps="; ".join(steps)) if steps else ""


def overall(summary: dict[str, Any]) -> dict[str, Any]:
    """Page 1's verdict of a summary with ``answers``: the fair, fun and broken sentences,
    what to change (all of it; page 1 shows the first :data:`SHOWN`) and what would make
    the answers surer."""
    answers = _by_question(summary["answers"])
    goal = GOAL[summary["playability"]["fair"]["measure"]]
    fun = _fun(answers)
    if answers["broken"]["verdict"] == "poor" and answers["broken"]["bands"][0] > 0:
        # Length, choice and drama come from the games that finished: say so when many
        # did not, lest a broken deck read as "a good length".
        fun = texts()["overall"]["finished_only"] + fun
    return {
        "fair": _fair(answers["fair"], goal),
        "fun": fun,
        "broken": _broken(answers["broken"], summary),
        "changes": [
            {"kind": item["kind"], "title": item["title"], "advice": item["advice"]}
            for item in changes(summary)
        ],
        "surer": _surer(summary, answers),
        "unsettled": [
            texts()["overall"]["names"][key]
            for key, answer in answers.items()
            if answer["verdict"] in ("unclear", "unmeasured")
        ],
    }


def overall_lines(found: dict[str, Any] | None) -> list[str]:
    """Page 1's verdict as lines for a terminal: fair, fun and broken, what to change
    (the first :data:`SHOWN`, numbered) and what would make the answers surer."""
    if not found:
        return []
    words = texts()["overall"]
    lines = [part for part in (found["fair"], found["fun"], found["broken"]) if part]
    changes = found["changes"]
    if changes:
        lines.append(f"{words['changes_heading']}:")
        lines += [
            f"  {number}. {item['title']}. {item['advice']}"
            for number, item in enumerate(changes[:SHOWN], start=1)
        ]
        if len(changes) > SHOWN:
            lines.append("  " + words["more_listed"].format(count=len(changes) - SHOWN))
    if found["surer"]:
        lines.append(found["surer"])
    return lines
