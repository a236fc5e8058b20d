"""Page 1's answers: every band's sentence, labels that span two bands, verdicts, the
comparison's side-by-side verdict, the time model and the HTML report."""

from __future__ import annotations

import copy
import re
from typing import Any

import pytest

from kraftstokk.errors import InputFileError, SimulationError
from kraftstokk.sim import compare_answers
from kraftstokk.sim.answers import answers, band, label
from kraftstokk.sim.findings import answer_findings, texts
from kraftstokk.sim.overall import SHOWN, overall, overall_lines
from kraftstokk.sim.pace import default_pace, parse_pace, weights
from kraftstokk.sim.playability import METRICS, QUESTIONS, skill_edge
from kraftstokk.sim.stream import ACTIONS, CARDS_LAID, GAMES, counter, play_column


def interval(value: float, half: float = 0.0) -> dict[str, Any]:
    return {"value": value, "ci95": [value - half, value + half]}


def metrics(
    *,
    gap: float = 0.02,
    minutes: float = 25.0,
    share: float = 0.5,
    settled: float = 0.7,
    unfinished: float = 0.0,
    early: float = 0.0,
    loser: bool = False,
    half: float = 0.001,
) -> dict[str, Any]:
    """A run's ``playability`` with the headline figures given, each with a narrow
    interval (``half`` either side)."""
    return {
        "games": 1000,
        "finished": 1000,
        "fair": {
            "measure": "loser_rate" if loser else "win_rate",
            **interval(gap, half),
            "rates": [0.25 + gap / 2, 0.25, 0.25, 0.25 - gap / 2],
            "highest_seat": 1,
            "lowest_seat": 4,
            "fair_share": 0.25,
            "finished": 1000,
        },
        "duration": {
            "actions": {"median": 100.0, "p90": 150.0},
            "rounds": {"median": 25.0, "p90": 38.0},
            "turns_per_person": {"median": 25.0, "p90": 37.5},
            "minutes": {**interval(minutes, half), "median": minutes, "p90": 1.5 * minutes},
        },
        "choice": {
            "decision_share": interval(share, half),
            "branching": {**interval(3.2, 0.1), "p90": 6},
            "decisions": 100_000,
            "choices": int(100_000 * share),
            "answers_share": interval(0.0),
        },
        "drama": {
            "lead_changes": interval(2.5, 0.1),
            "comebacks": {**interval(0.6, 0.02), "hits": 600, "of": 1000},
            "settled": interval(settled, half),
        },
        "broken": {
            "unfinished": {
                **interval(unfinished, half),
                "hits": int(1000 * unfinished),
                "of": 1000,
            },
            "settled_early": {**interval(early, half), "hits": int(1000 * early), "of": 1000},
        },
    }


def summary(**figures: Any) -> dict[str, Any]:
    return {"players": 4, "action_cap": 5000, "playability": metrics(**figures)}


def by_question(found: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    return {answer["question"]: answer for answer in found}


# ----------------------------------------------------------------------- bands, labels


def test_every_question_has_a_label_per_band_and_a_phrase_per_span():
    said = texts()["questions"]
    assert list(said) == list(QUESTIONS)
    for key in QUESTIONS:
        question = said[key]
        bands = len(question["edges"]) + 1
        assert len(question["labels"]) == bands, key
        spans = {f"{a}-{b}" for a in range(bands) for b in range(a + 1, bands)}
        assert set(question["between"]) == spans, key
        assert set(question["good"]) <= set(range(bands))
        assert question["edges"] == sorted(question["edges"])


def test_a_value_on_an_edge_is_in_the_band_above():
    assert [band(v, [0.3, 0.6]) for v in (0.0, 0.299, 0.3, 0.5, 0.6, 1.0)] == [0, 0, 1, 1, 2, 2]


def test_a_label_never_claims_more_than_its_interval():
    skill = texts()["questions"]["skill"]
    assert label(skill, 0.30, 0.50) == ("luck and skill both count", 1, 1)
    # The example: 80 games, an interval from 2.7 % to 13.8 % of edge over the
    # fair share... reaching the next band: the label says both.
    assert label(skill, 0.10, 0.40)[0] == "between luck and skill"
    assert label(skill, 0.10, 0.90)[0] == "too few games to tell luck from skill"
    fair = texts()["questions"]["fair"]
    assert label(fair, 0.01, 0.04)[0] == "fair"
    assert label(fair, 0.04, 0.07)[0] == "fair or slightly uneven (the games cannot tell which)"


@pytest.mark.parametrize(
    ("key", "figures", "expected"),
    [
        ("fair", {"gap": 0.02}, "fair"),
        ("fair", {"gap": 0.08}, "slightly uneven between seats"),
        ("fair", {"gap": 0.2}, "unfair between seats"),
        ("duration", {"minutes": 6.0}, "short"),
        ("duration", {"minutes": 25.0}, "a good length"),
        ("duration", {"minutes": 60.0}, "long"),
        ("duration", {"minutes": 100.0}, "very long"),
        ("choice", {"share": 0.1}, "little choice"),
        ("choice", {"share": 0.45}, "some choice"),
        ("choice", {"share": 0.9}, "plenty of choice"),
        ("drama", {"settled": 0.3}, "often decided early"),
        ("drama", {"settled": 0.7}, "open for a good while"),
        ("drama", {"settled": 0.9}, "open to the end"),
        ("broken", {"unfinished": 0.002}, "nothing broken"),
        ("broken", {"unfinished": 0.03}, "a few games stall"),
        ("broken", {"unfinished": 0.3}, "broken"),
    ],
)
def test_each_band_has_its_sentence(key, figures, expected):
    answer = by_question(answers(summary(**figures)))[key]
    assert answer["label"] == expected
    sentence = answer["sentence"]
    assert sentence.startswith(expected[0].upper() + expected[1:] + ":")
    assert "{" not in sentence and "95 % interval" in sentence
    good = set(texts()["questions"][key]["good"])
    assert answer["verdict"] == ("good" if answer["bands"][0] in good else "poor")


def test_the_sentence_states_the_figure_and_its_interval():
    found = by_question(answers(summary(share=0.45, half=0.02, minutes=25.0)))
    assert (
        "45.0 % of decisions offer two or more distinct moves (95 % interval 43.0 % to 47.0 %)"
        in (found["choice"]["sentence"])
    )
    assert (
        "a game for 4 takes 25.0 minutes at a table on average (95 % interval 25.0 to 25.0; "
        "median 25," in (found["duration"]["sentence"])
    )
    # An interval that rounds to one figure gets a decimal more: "13 to 13" says nothing.
    narrow = by_question(answers(summary(minutes=12.93, half=0.13)))["duration"]["sentence"]
    assert "takes 12.9 minutes at a table on average (95 % interval 12.8 to 13.1;" in narrow


def test_answers_out_of_turn_are_named_as_the_game_has_them():
    for game, named in (("kraftidioten", "(challenge a claim or not)"), ("stromkrig", "(join")):
        found = summary()
        found["game"] = game
        found["playability"]["choice"]["answers_share"] = interval(0.6)
        sentence = by_question(answers(found))["choice"]["sentence"]
        assert "; 60.0 % of decisions are answers out of turn " + named in sentence
        assert ("war" in sentence) == (game == "stromkrig")


def test_an_interval_across_bands_is_unclear_and_says_both():
    answer = by_question(answers(summary(share=0.3, half=0.05)))["choice"]
    assert answer["label"] == "little to some choice"
    assert answer["verdict"] == "unclear"


def test_idiot_is_told_as_the_race_not_to_be_last():
    found = by_question(answers(summary(loser=True)))
    assert "shares of being the Idiot" in found["fair"]["sentence"]
    assert "the seat that ends as the Idiot falls last for good" in found["drama"]["sentence"]


def test_skill_unmeasured_says_how_to_measure_it_and_measured_says_the_edge():
    found = by_question(answers(summary()))
    assert found["skill"]["verdict"] == "unmeasured" and "--skill" in found["skill"]["sentence"]
    gradient = {
        "measure": "win_rate",
        "fair_share": 0.25,
        "levels": [
            {"level": "expert", "rate": 0.40, "ci95": [0.33, 0.47], "finished": 200},
            {"level": "heuristic", "rate": 0.25, "ci95": [0.2, 0.3], "finished": 200},
        ],
    }
    edge = skill_edge(gradient)
    assert edge is not None
    assert edge["value"] == pytest.approx(0.6) and edge["ci95"] == pytest.approx([0.32, 0.88])
    measured = summary()
    measured["playability"]["skill"] = edge
    answer = by_question(answers(measured))["skill"]
    assert answer["label"] == "skill counts, perhaps most"  # 0.32 to 0.88 spans two bands
    assert "an expert in one seat wins 40.0 %" in answer["sentence"]
    # Idiot: the expert's rate of being the Idiot, lower is better.
    idiot = dict(gradient, measure="loser_rate")
    idiot["levels"] = [dict(gradient["levels"][0], rate=0.1, ci95=[0.06, 0.15])]
    found_edge = skill_edge(idiot)
    assert found_edge is not None and found_edge["value"] == pytest.approx(0.6)
    assert found_edge["ci95"] == pytest.approx([0.4, 0.76])


def test_a_game_decided_by_the_deal_is_called_broken_with_the_replay_command():
    stalled = summary(unfinished=0.3, early=0.7)
    stalled["example_replay"] = {"command": "kraftstokk play --load out/x.json --replay"}
    answer = by_question(answers(stalled))["broken"]
    assert answer["label"] == "broken" and answer["verdict"] == "poor"
    assert answer["decided_by_the_deal"]
    assert "Decided by the deal: in 70.0 % of finished games" in answer["sentence"]
    assert answer["sentence"].endswith("kraftstokk play --load out/x.json --replay")


# --------------------------------------------------------- fair and fun, what to change


def with_answers(found: dict[str, Any], findings: list[dict[str, Any]] = ()) -> dict[str, Any]:
    found["games"] = 1000
    found["findings"] = list(findings)
    found["answers"] = answers(found)
    found["answer_findings"] = [item.as_dict() for item in answer_findings(found["answers"])]
    return found


def seat_finding() -> dict[str, Any]:
    return {"kind": "seat_advantage", "title": "Seat advantage", "advice": "Rotate.", "says": ""}


def test_a_fair_and_fun_game_is_called_so_and_nothing_needs_changing():
    said = overall(with_answers(summary()))
    assert said["fair"] == (
        "Fair: the seats' shares of wins lie within 2.1 points of each other (95 % interval)."
    )
    assert said["fun"] == (
        "Fun: a good length; some choice; open for a good while. Not measured: skill."
    )
    assert said["broken"] == "Nothing broken." and said["changes"] == []
    assert said["unsettled"] == ["skill"]  # page 1: "Nothing yet: ... 1 not settled (skill)"
    assert said["surer"] == "To be surer: --skill would answer whether skill matters."


def test_what_spoils_the_fun_is_named_and_the_changes_come_broken_first():
    found = with_answers(
        summary(minutes=60.0, settled=0.3, unfinished=0.3, gap=0.2), [seat_finding()]
    )
    said = overall(found)
    assert said["fun"] == (
        "Of the finished games only (the rest never end): Fun in part: some choice. "
        "Against the fun: long; often decided early. Not measured: skill."
    )
    assert said["fair"].startswith("Not fair: unfair between seats, a gap of 20.0 points")
    assert said["broken"] == "Broken: 30.0 % of games reach the action cap; fix this first."
    deal = with_answers(summary(early=0.7))
    assert overall(deal)["broken"] == (
        "Broken: 70.0 % of games are decided by the deal; fix this first."
    )
    assert [item["title"] for item in overall(deal)["changes"]] == ["Games decided by the deal"]
    both = with_answers(summary(early=0.7, unfinished=0.3))
    assert overall(both)["changes"][0]["title"] == texts()["answer_findings"]["broken"]["title"]
    titles = texts()["answer_findings"]
    # Broken, then unfair, then page order; the seat finding says again what the unfair
    # answer says, so it is not listed twice.
    assert [item["title"] for item in said["changes"]] == [
        titles["broken"]["title_stalls"],  # stalls only: not "decided by the deal" too
        titles["fair"]["title"],
        titles["duration"]["title"],
        titles["drama"]["title"],
    ]
    # With fair seats the statistical seat finding is the change to make.
    fair = overall(with_answers(summary(gap=0.02), [seat_finding()]))
    assert [item["kind"] for item in fair["changes"]] == ["seat_advantage"]


def test_the_terminal_says_the_verdict_and_the_first_changes_numbered():
    found = overall(
        with_answers(summary(minutes=60.0, settled=0.3, unfinished=0.3, gap=0.2), [seat_finding()])
    )
    lines = overall_lines(found)
    assert lines[:3] == [found["fair"], found["fun"], found["broken"]]
    assert lines[3] == "What to change:"
    first = found["changes"][0]
    assert lines[4] == f"  1. {first['title']}. {first['advice']}"
    assert [line[:5] for line in lines[4 : 4 + SHOWN]] == ["  1. ", "  2. ", "  3. "]
    extra = len(found["changes"]) - SHOWN
    assert lines[4 + SHOWN] == f'  {extra} more in the report (and under "findings" in its JSON).'
    calm = overall(with_answers(summary()))
    assert overall_lines(calm) == [calm["fair"], calm["fun"], calm["broken"], calm["surer"]]
    assert overall_lines(None) == []


def test_an_unsettled_answer_asks_for_more_games():
    found = with_answers(summary(gap=0.05, share=0.3, half=0.02))
    said = overall(found)
    assert said["fair"] == (
        "Fairness not settled: a gap of 5.0 points between seats (95 % interval 3.0 to 7.0): "
        "fair or slightly uneven (the games cannot tell which)."
    )
    # No game stalled, but 1,000 games cannot rule out 2 %: said as it is.
    assert said["broken"] == "No game of 1,000 stalled (at 95 % confidence, up to 2.0 % may)."
    some = overall(with_answers(summary(unfinished=0.01, half=0.005)))
    assert some["broken"] == (
        "Almost nothing: a few games may stall (1.0 % of games reach the action cap)."
    )
    assert "Not yet settled: little to some choice." in said["fun"]
    assert said["surer"] == (
        "To be surer: 4,000 games (-n 4000) would about halve the intervals of fairness, "
        "choice and stalling; --skill would answer whether skill matters."
    )


# ------------------------------------------------------------------------ comparisons


def compared(a: dict[str, Any], b: dict[str, Any]) -> list[dict[str, Any]]:
    first, second = copy.deepcopy(a), copy.deepcopy(b)
    first["answers"], second["answers"] = answers(first), answers(second)
    return compare_answers.rows(first, second, None)


def test_a_comparison_leads_with_the_largest_relative_difference():
    found = compared(summary(gap=0.12, minutes=40), summary(gap=0.02, minutes=30))
    assert [row["question"] for row in found[:2]] == ["fair", "duration"]
    assert found[0]["better"] == "b" and found[1]["better"] == "b"
    sentence = compare_answers.verdict(found, "Strømkrig", ("A", "B"))
    assert sentence == (
        "In Strømkrig, B plays fairer and shorter than A; no other of the six answers "
        "differs beyond what chance gives. For fair seats and shorter games, choose B."
    )


def test_a_comparison_with_trade_offs_names_both_purposes():
    found = compared(summary(share=0.8, minutes=50), summary(share=0.4, minutes=30))
    sentence = compare_answers.verdict(found, "Idiot", ("A", "B"))
    assert sentence == (
        "In Idiot, B plays shorter than A, while A plays with more choice. For shorter "
        "games, choose B; for more choice, A."
    )


def test_a_broken_deck_decides_the_comparison():
    # B stalls in 12 % of games (the tie-heavy deck) but is longer-lived in
    # suspense: the verdict says B is broken and names A, then what else differs,
    # without recommending B for anything.
    found = compared(summary(settled=0.7), summary(settled=0.9, unfinished=0.12))
    sentence = compare_answers.verdict(found, "Strømkrig", ("A", "B"))
    assert sentence == (
        "In Strømkrig, B is broken (12.0 % of its games reach the action cap) and A is not: "
        "choose A. Beside that, B plays more open to the end than A; no other of the six "
        "answers differs beyond what chance gives."
    )
    both = compared(summary(unfinished=0.2), summary(early=0.7, unfinished=0.3))
    assert compare_answers.verdict(both, "Strømkrig", ("A", "B")) == (
        "In Strømkrig, both decks are broken (A: 20.0 % of its games reach the action cap; "
        "B: 30.0 % of its games reach the action cap, decided by the deal): neither is "
        "ready."
    )


def test_a_sweep_never_names_a_broken_configuration_best_but_for_stalls():
    from types import SimpleNamespace

    from kraftstokk.sim.sweep.report import best_by_question

    def run(number: int, **figures: Any) -> SimpleNamespace:
        found = with_answers(summary(**figures))
        return SimpleNamespace(complete=True, summary=found, configuration=SimpleNamespace(
            number=number, label=f"#{number}"
        ))  # fmt: skip

    # #2 has the most choice but stalls in 12 % of games: #1 is the best for choice.
    best = {
        item["question"]: [r.configuration.number for r, _ in item["ranked"]]
        for item in best_by_question([run(1, share=0.5), run(2, share=0.9, unfinished=0.12)])
    }
    assert best["choice"] == [1] and best["broken"] == [1, 2]


def test_decks_within_each_others_intervals_play_alike():
    found = compared(summary(half=0.2), summary(gap=0.03, half=0.2))
    assert not any(row["counts"] for row in found)
    assert compare_answers.verdict(found, "Idiot", ("A", "B")).startswith(
        "In Idiot, A and B play alike"
    )


# ------------------------------------------------------------------------ time model


def test_the_time_model_is_data_and_pace_changes_it():
    pace = default_pace()
    assert pace.counted("pickup", "stromkrig") == ("pile_pickups", "wars")
    assert pace.counted("pickup", "idiot") == ("pile_pickups",)
    faster = parse_pace("choice=8, card=3", pace)
    assert (faster.choice, faster.card, faster.deal) == (8.0, 3.0, pace.deal)
    columns = (GAMES, ACTIONS, CARDS_LAID, play_column("choices"), counter("pile_pickups"))
    ms = weights(faster, columns, "idiot").tolist()
    assert ms == [
        1000 * pace.deal,
        1000 * pace.forced,
        3000,
        8000 - 1000 * pace.forced,
        1000 * pace.pickup,
    ]


def test_a_pace_file_and_its_errors(tmp_path):
    path = tmp_path / "slow.toml"
    path.write_text("[time]\nchoice = 12\n[counted.idiot]\npickup = ['pile_pickups', 'burns']\n")
    slow = parse_pace(str(path))
    assert slow.choice == 12.0 and slow.counted("pickup", "idiot") == ("pile_pickups", "burns")
    with pytest.raises(SimulationError, match="no pace thinking"):
        parse_pace("thinking=3")
    with pytest.raises(SimulationError, match="seconds from 0 to 3600"):
        parse_pace("card=-1")
    with pytest.raises(SimulationError, match="KEY=SECONDS"):
        parse_pace("card=fast")
    with pytest.raises(InputFileError, match="no such file"):
        parse_pace(str(tmp_path / "missing.toml"))
    (tmp_path / "bad.toml").write_text("[time\n")
    with pytest.raises(InputFileError, match="not TOML"):
        parse_pace(str(tmp_path / "bad.toml"))


def test_every_metric_is_in_the_docs_beside_ludii():
    from pathlib import Path

    docs = (Path(__file__).resolve().parent.parent / "docs" / "metrics.md").read_text("utf-8")
    for metric in METRICS:
        assert re.search(rf"`{metric.name}`", docs), metric.name
    assert "Ludii" in docs


def test_a_sweep_finding_knows_which_way_is_better_for_the_answers_metrics():
    from kraftstokk.sim.compare import PLAY_METRICS

    better = texts()["difference"]["better"]
    names = {metric.name for metric in PLAY_METRICS} | {"unfinished_rate"}
    assert set(better) <= names  # every direction names a metric a comparison has
    assert better["comeback_rate"] == "higher" and better["unfinished_rate"] == "lower"


def test_a_comparison_shows_minutes_in_the_tenths_its_difference_has():
    found = compared(summary(minutes=23.4), summary(minutes=23.8))
    row = next(row for row in found if row["question"] == "duration")
    a, b = compare_answers.figure(row["a"]), compare_answers.figure(row["b"])
    assert a.endswith(" min") and b.endswith(" min") and a != b
    shown = float(b.removesuffix(" min")) - float(a.removesuffix(" min"))
    said_difference = float(compare_answers.difference_text(row).split(" min")[0])
    assert abs(shown - said_difference) <= 0.1 + 1e-9


def test_a_difference_that_rounds_to_nothing_is_never_negative_zero():
    row = {
        "difference": -0.00004,
        "ci95": (-0.0003, 0.0002),
        "a": {"unit": "points"},
    }
    assert compare_answers.difference_text(row) == "+0.0 points (+0.0 to +0.0)"
    minutes = {"difference": -0.04, "ci95": (-0.04, 0.03), "a": {"unit": "minutes"}}
    assert compare_answers.difference_text(minutes) == "+0.0 min (+0.0 to +0.0)"
