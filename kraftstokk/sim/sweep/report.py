"""``sweep.pdf``: the verdicts on the decks first, each with a chart of its paired
differences, then the findings in words, the configurations, each swept parameter's
paired differences from its baseline, and a heat map of the cards left with the loser.

Drawn from the sweep's results only; byte-identical for the same games (reportlab
``invariant=1``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape

from reportlab.graphics.shapes import Drawing, Group, Line, PolyLine, Rect, String
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import (
    Flowable,
    KeepTogether,
    PageBreak,
    Paragraph,
    SimpleDocTemplate,
    Spacer,
    Table,
    TableStyle,
)

from kraftstokk.atomic import atomic_path
from kraftstokk.sim import compare_answers
from kraftstokk.sim.compare import CORRECTION, Difference
from kraftstokk.sim.comparison_report import difference_chart
from kraftstokk.sim.findings import Finding, glossary, pct, texts
from kraftstokk.sim.pdf_style import FRAME_WIDTH, GRID, INK, MARGIN, Styles, section, table
from kraftstokk.sim.playability import QUESTIONS
from kraftstokk.sim.sweep.compare import DeckVerdict, PairComparison, deck_line
from kraftstokk.sim.sweep.grid import PARAMETERS
from kraftstokk.sim.sweep.results import SweepResults
from kraftstokk.sim.sweep.run import ConfigurationRun
from kraftstokk.sim.verdict import game_title

MAX_DIFFERENCE_FINDINGS = 4  # per swept parameter

SERIES = ["#2f6f9f", "#c0504d", "#4a8a5c", "#8064a2", "#d08a2e", "#4bacc6", "#7f7f7f", "#9b2d5b"]
MAX_CHART_METRICS = 6
HEAT_LOW = (1.0, 1.0, 1.0)
HEAT_HIGH = (0.62, 0.13, 0.12)
#: Configurations shown as columns of the heat map (a larger sweep shows its first ones).
MAX_HEAT_COLUMNS = 40

Point = tuple[float, float, float]  # B - baseline, interval low, interval high


def chart_metrics(runs: list[ConfigurationRun]) -> list[str]:
    """Length, unfinished share and the game's highlights, in that order."""
    names = ["actions_per_game", "unfinished_rate"]
    for run in runs:
        for key in run.summary["highlights"]:
            if (key.endswith("_per_game") or key.endswith("_rate")) and key not in names:
                names.append(key)
    return names[:MAX_CHART_METRICS]


def _nice_step(span: float) -> float:
    """A tick step of 1, 2, 2.5 or 5 times a power of ten covering ``span`` in 4 steps."""
    if span <= 0:
        return 1.0
    power = 10.0 ** math.floor(math.log10(span / 4))
    for step in (1, 2, 2.5, 5, 10):
        if step * power * 4 >= span:
            return step * power
    return 10 * power


def _metric_of(pair: PairComparison, metric: str) -> Difference | None:
    return next((item for item in pair.differences if item.metric == metric), None)


def parameter_chart(
    runs: list[ConfigurationRun],
    comparisons: Sequence[PairComparison],
    parameter: str,
    metric: str,
    baseline: str,
    styles: Styles,
) -> Drawing | None:
    """``metric``'s paired difference from the baseline value of ``parameter``, per value:
    one line per group of the other parameters, the baseline at zero, whiskers the 95 %
    intervals of the differences; None when no comparison has the metric."""
    values: list[str] = []
    for run in runs:
        if run.configuration.value(parameter) not in values:
            values.append(run.configuration.value(parameter))
    others = [p for p in PARAMETERS if p not in (parameter, "game")]
    varied = [p for p in others if len({r.configuration.value(p) for r in runs}) > 1]
    groups: dict[str, list[tuple[int, Point, bool]]] = {}
    for pair in comparisons:
        if pair.parameter != parameter:
            continue
        item = _metric_of(pair, metric)
        if item is None:
            continue
        label = ", ".join(pair.b.configuration.words(p) for p in varied)
        points = groups.setdefault(label, [])
        if not points and baseline in values:
            points.append((values.index(baseline), (0.0, 0.0, 0.0), False))
        slot = values.index(pair.b.configuration.value(parameter))
        points.append((slot, (item.difference, *item.ci95), item.significant))
    if not groups:
        return None
    scale = 100.0 if metric.endswith("_rate") or "_rate_seat_" in metric else 1.0
    reach = max(abs(v) for points in groups.values() for _, point, _ in points for v in point)
    step = _nice_step(2 * reach * scale) / scale
    top = step * max(1, math.ceil(reach / step - 1e-9)) if reach else step
    left, legend_w = 56, 150 if len(groups) > 1 else 0
    plot_w = FRAME_WIDTH - left - 10 - legend_w
    names = [
        (name if len(name) <= 28 else name[:27] + "…") + (" (baseline)" if name == baseline else "")
        for name in values
    ]
    widths = [stringWidth(name, styles.font, 7.5) for name in names]
    # Values that do not fit side by side are written upwards, in a smaller type.
    upright = sum(widths) + 6 * len(names) <= plot_w
    label_height = 11 if upright else 8 + max(stringWidth(n, styles.font, 6.5) for n in names)
    bottom = 23 + label_height
    height = 116 + bottom
    plot_h = height - bottom - 12
    drawing = Drawing(FRAME_WIDTH, height)

    def y_of(value: float) -> float:
        return float(bottom + plot_h * (0.5 + max(-top, min(value, top)) / (2 * top)))

    def x_of(slot: int) -> float:
        return float(left + plot_w * (slot + 0.5) / len(values))

    ticks = round(2 * top / step)
    for tick in range(ticks + 1):
        value = -top + step * tick
        zero = abs(value) < step / 1000
        drawing.add(
            Line(
                left,
                y_of(value),
                left + plot_w,
                y_of(value),
                strokeColor=INK if zero else GRID,
                strokeWidth=0.7 if zero else 0.4,
                strokeDashArray=[2, 2] if zero else None,
            )
        )
        text = f"{scale * value:+g}" + (" pp" if scale == 100 else "") if not zero else "0"
        drawing.add(
            String(
                left - 4,
                y_of(value) - 2.5,
                text,
                fontName=styles.font,
                fontSize=7,
                textAnchor="end",
            )
        )
    for slot, shown in enumerate(names):
        if upright:
            drawing.add(
                String(
                    x_of(slot),
                    bottom - 11,
                    shown,
                    fontName=styles.font,
                    fontSize=7.5,
                    textAnchor="middle",
                )
            )
            continue
        label = Group(String(0, 0, shown, fontName=styles.font, fontSize=6.5, textAnchor="end"))
        label.transform = (0, 1, -1, 0, x_of(slot) + 2.3, bottom - 5)  # turned upwards
        drawing.add(label)
    drawing.add(
        String(
            left + plot_w / 2,
            4,
            f"{parameter}: each against the baseline {baseline}, game i against game i",
            fontName=styles.font,
            fontSize=7.5,
            textAnchor="middle",
            fillColor=INK,
        )
    )
    spread = 0.12 * plot_w / max(1, len(values)) / max(1, len(groups))
    for number, (label, points) in enumerate(sorted(groups.items())):
        colour = colors.HexColor(SERIES[number % len(SERIES)])
        offset = (number - (len(groups) - 1) / 2) * spread
        coords: list[float] = []
        for slot, (value, low, high), held in sorted(points, key=lambda p: p[0]):
            x = x_of(slot) + offset
            coords += [x, y_of(value)]
            drawing.add(Line(x, y_of(low), x, y_of(high), strokeColor=colour, strokeWidth=0.8))
            for y in (y_of(low), y_of(high)):
                drawing.add(Line(x - 2.5, y, x + 2.5, y, strokeColor=colour, strokeWidth=0.8))
            size = 5.0 if held else 3.4
            fill = colour if held else colors.white
            drawing.add(
                Rect(
                    x - size / 2,
                    y_of(value) - size / 2,
                    size,
                    size,
                    fillColor=fill,
                    strokeColor=colour,
                    strokeWidth=0.8,
                )
            )
        if len(coords) >= 4:
            drawing.add(PolyLine(coords, strokeColor=colour, strokeWidth=0.8))
        if legend_w:
            y = height - 14 - number * 11
            if y > bottom:
                drawing.add(Rect(left + plot_w + 12, y, 7, 7, fillColor=colour, strokeColor=None))
                shown = label if len(label) <= 30 else label[:29] + "…"
                drawing.add(
                    String(left + plot_w + 22, y + 0.5, shown, fontName=styles.font, fontSize=7)
                )
    return drawing


def _blend(share: float) -> colors.Color:
    t = max(0.0, min(1.0, share))
    return colors.Color(*(lo + (hi - lo) * t for lo, hi in zip(HEAT_LOW, HEAT_HIGH, strict=True)))


def heat_map(runs: list[ConfigurationRun], styles: Styles) -> Drawing:
    """Rows: cards (highest average first); columns: configurations; colour: the rate."""
    runs = runs[:MAX_HEAT_COLUMNS]
    names: dict[str, set[str]] = {}
    for run in runs:
        for card_id, card in run.summary["cards"].items():
            names.setdefault(card_id, set()).add(card["name"])
    # A card id is a suit and value; decks may put other plants on it.
    cards = {
        card_id: next(iter(found)) if len(found) == 1 else "" for card_id, found in names.items()
    }

    def rate(run: ConfigurationRun, card_id: str) -> float | None:
        card = run.summary["cards"].get(card_id)
        return None if card is None else float(card["left_with_loser_rate"])

    def average(card_id: str) -> float:
        found = [r for r in (rate(run, card_id) for run in runs) if r is not None]
        return sum(found) / len(found) if found else 0.0

    order = sorted(cards, key=lambda c: (-average(c), c))
    highest = max((rate(run, c) or 0.0 for run in runs for c in order), default=0.0) or 1.0
    label_w, top_pad, legend_h = 150, 26, 34
    row_h = min(11.0, (640 - top_pad - legend_h) / max(1, len(order)))
    col_w = min(40.0, (FRAME_WIDTH - label_w) / max(1, len(runs)))
    height = top_pad + row_h * len(order) + legend_h
    drawing = Drawing(FRAME_WIDTH, height)
    y_top = height - top_pad
    for column, run in enumerate(runs):
        drawing.add(
            String(
                label_w + col_w * (column + 0.5),
                y_top + 6,
                f"#{run.configuration.number}",
                fontName=styles.font,
                fontSize=7,
                textAnchor="middle",
            )
        )
    for row, card_id in enumerate(order):
        y = y_top - row_h * (row + 1)
        name = cards[card_id]
        readable = card_id.replace("-", " ")
        label = f"{name} ({readable})" if name and not card_id.startswith("joker") else readable
        drawing.add(
            String(
                label_w - 4,
                y + row_h * 0.25,
                label[:34],
                fontName=styles.font,
                fontSize=min(7.0, row_h * 0.8),
                textAnchor="end",
            )
        )
        for column, run in enumerate(runs):
            value = rate(run, card_id)
            fill = colors.HexColor("#eeeeee") if value is None else _blend(value / highest)
            drawing.add(
                Rect(
                    label_w + col_w * column,
                    y,
                    col_w - 0.6,
                    row_h - 0.6,
                    fillColor=fill,
                    strokeColor=None,
                )
            )
    # The colour scale.
    steps = 10
    scale_w = 160
    for step in range(steps):
        drawing.add(
            Rect(
                label_w + scale_w * step / steps,
                8,
                scale_w / steps,
                8,
                fillColor=_blend(step / (steps - 1)),
                strokeColor=None,
            )
        )
    drawing.add(String(label_w - 4, 9, "0 %", fontName=styles.font, fontSize=7, textAnchor="end"))
    drawing.add(
        String(
            label_w + scale_w + 4,
            9,
            f"{pct(highest)} of finished games (grey: card not dealt)",
            fontName=styles.font,
            fontSize=7,
        )
    )
    return drawing


def _finding_paragraphs(
    findings: Sequence[Finding], styles: Styles, where: str = ""
) -> list[Flowable]:
    items: list[Flowable] = []
    for finding in findings:
        items.append(
            Paragraph(
                f"<b>{escape(finding.title)}{escape(where)}.</b> {escape(finding.says)} "
                f"<i>What to change:</i> {escape(finding.advice)}",
                styles.body,
            )
        )
        items.append(Spacer(1, 3))
    return items


def _grouped_run_findings(runs: list[ConfigurationRun]) -> list[tuple[Finding, list[int]]]:
    """Per-configuration findings of one kind (and subject) together, first one's words."""
    groups: dict[tuple[str, str], tuple[Finding, list[int]]] = {}
    for run in runs:
        for item in run.summary["findings"]:
            subject = str(item["figures"].get("counter", item["figures"].get("seat", "")))
            key = (item["kind"], subject)
            if key not in groups:
                finding = Finding(
                    item["kind"], item["title"], item["says"], item["advice"], item["figures"]
                )
                groups[key] = (finding, [])
            groups[key][1].append(run.configuration.number)
    return list(groups.values())


def _broken(run: ConfigurationRun) -> bool:
    """Whether a configuration's own page 1 calls it broken (stalls, or decided by the
    deal): it is then never the best at anything else."""
    answers = run.summary.get("answers") or []
    return any(a["question"] == "broken" and a["verdict"] == "poor" for a in answers)


def best_by_question(runs: Sequence[ConfigurationRun]) -> list[dict[str, Any]]:
    """For each of page 1's questions, the complete configurations that answer it, the
    best first (see ``findings.toml``'s ``[sweep_best]``); a broken configuration only
    on the broken question."""
    found = []
    words = texts()["compare_answers"]
    for number, key in enumerate(QUESTIONS):
        measured = [
            (run, run.summary["answers"][number])
            for run in runs
            if run.complete
            and run.summary.get("answers")
            and run.summary["answers"][number].get("ci95")
            and (key == "broken" or not _broken(run))
        ]
        if key == "duration" and measured:
            good = measured[0][1]
            edges = [good["scale"][0], *good["edges"], good["scale"][1]]
            middle = sum((edges[band] + edges[band + 1]) / 2 for band in good["good"]) / len(
                good["good"]
            )
            measured.sort(
                key=lambda item: (abs(item[1]["value"] - middle), item[0].configuration.number)
            )
        else:
            sign = 1 if words[key]["better"] == "lower" else -1
            measured.sort(key=lambda item: (sign * item[1]["value"], item[0].configuration.number))
        found.append({"question": key, "ranked": measured})
    return found


def _best_story(results: SweepResults, styles: Styles) -> list[Flowable]:
    said = texts()["sweep_best"]
    rows: list[list[Any]] = []
    for item in best_by_question(results.run.runs):
        ranked = item["ranked"]
        title = texts()["questions"][item["question"]]["title"]
        if not ranked:
            text = str(said["unmeasured"])
        else:
            run, answer = ranked[0]
            text = str(said["sentence"]).format(
                number=run.configuration.number,
                label=run.configuration.label,
                said=compare_answers.said(answer),
            )
            if len(ranked) > 1:
                other, next_answer = ranked[1]
                apart = (
                    answer["ci95"][1] < next_answer["ci95"][0]
                    or next_answer["ci95"][1] < answer["ci95"][0]
                )
                text += str(said["clear" if apart else "close"]).format(
                    next=other.configuration.number,
                    next_said=compare_answers.said(next_answer),
                )
            else:
                text += str(said["alone"])
        rows.append(
            [
                Paragraph(f"<b>{escape(title)}</b>", styles.body),
                Paragraph(escape(text), styles.body),
            ]
        )
    grid = Table(rows, colWidths=[112, FRAME_WIDTH - 112], hAlign="LEFT")
    grid.setStyle(
        TableStyle(
            [
                ("VALIGN", (0, 0), (-1, -1), "TOP"),
                ("LEFTPADDING", (0, 0), (-1, -1), 0),
                ("LINEBELOW", (0, 0), (-1, -2), 0.3, GRID),
            ]
        )
    )
    broken = [run for run in results.run.runs if run.complete and _broken(run)]
    left_out: list[Flowable] = []
    if broken:
        named = "; ".join(
            f"#{run.configuration.number} ({run.configuration.label}): "
            + compare_answers.said(
                next(a for a in run.summary["answers"] if a["question"] == "broken")
            )
            for run in broken
        )
        left_out = [
            Spacer(1, 3),
            Paragraph(escape(said["broken"].format(named=named)), styles.body),
        ]
    return [
        Paragraph("The best configuration for each question", styles.heading),
        Paragraph(
            escape(
                "From each configuration's own page-1 answers (its 95 % intervals); the minutes "
                "are best nearest the middle of their good range."
            ),
            styles.note,
        ),
        Spacer(1, 3),
        grid,
        *left_out,
        Spacer(1, 6),
    ]


def _answers_verdict(found: DeckVerdict) -> str:
    """The deck verdict on page 1's six answers (which deck plays better for what, a broken
    deck first), for the configurations its chart compares."""
    pair = found.shown
    if not (pair.a.summary.get("answers") and pair.b.summary.get("answers")):
        return found.sentence
    rows = compare_answers.rows(pair.a.summary, pair.b.summary, pair)
    names = (
        f"{found.deck_a} (#{pair.a.configuration.number})",
        f"{found.deck_b} (#{pair.b.configuration.number})",
    )
    return compare_answers.verdict(rows, game_title(found.game), names)


def _verdict_story(results: SweepResults, styles: Styles) -> list[Flowable]:
    heading = Paragraph("Verdict on the decks", styles.heading)
    story: list[Flowable] = [heading]
    if not results.verdicts:
        story.append(
            Paragraph(
                "The sweep plays one deck (or compares none along decks): no verdict on decks.",
                styles.body,
            )
        )
        return story
    for found in results.verdicts:
        pair = found.shown
        parts: list[Flowable] = [
            Paragraph(f"<b>{escape(_answers_verdict(found))}</b>", styles.body),
            Paragraph(
                escape(texts()["sweep_best"]["counters"].format(sentence=found.sentence)),
                styles.note,
            ),
            Spacer(1, 3),
        ]
        chart: list[Flowable] = []
        if not pair.same_games and pair.differences:
            chart.append(
                Paragraph(
                    escape(
                        f"Paired differences of #{pair.b.configuration.number} "
                        f"({pair.b.configuration.label}) against #{pair.a.configuration.number} "
                        f"({pair.a.configuration.label}), B − A in % of A's value; coloured "
                        "where the difference holds after the correction."
                    ),
                    styles.note,
                )
            )
            chart.append(difference_chart(pair.differences, styles, found.family))
        # The heading stays with the first verdict's words, which may end page 1 while
        # the chart (with its note) starts the next.
        if story and story[-1] is heading:
            story[-1] = KeepTogether([heading, *parts])
        else:
            story.append(KeepTogether(parts))
        if chart:
            story.append(KeepTogether(chart))
        story.append(Spacer(1, 8))
    return story


def sweep_story(results: SweepResults) -> list[Flowable]:
    styles = Styles()
    run = results.run
    sweep = run.sweep
    runs = run.runs
    confidence = sweep.findings.confidence
    games = sorted({r.configuration.settings.game for r in runs})
    baseline = ", ".join(f"{p} {results.baseline_value(p)}" for p in results.varied if p != "game")
    story: list[Flowable] = [
        Paragraph(escape(f"Sweep: {sweep.title}"), styles.title),
        Spacer(1, 4),
        Paragraph(
            escape(
                f"{len(runs)} configurations of {', '.join(game_title(g) for g in games)}, "
                f"{sweep.games} games each from seed {sweep.seed} (game i of every configuration "
                f"starts from the same seed); varied: {', '.join(results.varied) or 'nothing'}. "
                f"Each configuration is compared with its neighbour at the baseline of each "
                f"parameter it varies ({baseline or 'nothing varied'}): "
                f"{len(results.comparisons)} comparisons of {results.family} metrics in all, "
                f"{CORRECTION}'s correction over all of them at {pct(confidence)} confidence."
            ),
            styles.body,
        ),
        Spacer(1, 2),
        Paragraph(
            "<br/>".join(
                escape(
                    deck_line(
                        label,
                        {
                            "deck": {
                                "title": d.deck.title,
                                "edition": d.deck.edition,
                                "path": d.path,
                            }
                        },
                    )
                )
                for label, d in run.decks.items()
            ),
            styles.note,
        ),
    ]
    paces = sorted({str(r.summary["pace"]["assumptions"]) for r in runs if r.summary.get("pace")})
    if paces:  # the minutes' assumptions (the sweep's [time] table, or the default)
        story.append(
            Paragraph(escape("Minutes at a table assume " + "; or ".join(paces) + "."), styles.note)
        )
    if run.interrupted or not all(r.complete for r in runs):
        played = sum(r.stats.games for r in runs)
        story.append(
            Paragraph(
                escape(
                    f"Incomplete: {played} of {sweep.games * len(runs)} games played; run the "
                    "same command again to play the rest. Only configurations played to the "
                    "end are compared."
                ),
                styles.body,
            )
        )
    story += _best_story(results, styles)
    story += _verdict_story(results, styles)
    story.append(Paragraph("Findings", styles.heading))
    story.append(
        Paragraph(
            "Each finding is a statistical test at the sweep's confidence (corrected for the "
            f"number of tests: {CORRECTION} over every metric of every comparison, Bonferroni "
            "over a run's seats, cards and specials). Configurations are compared game i "
            "against game i (the same seed).",
            styles.note,
        )
    )
    story.append(Spacer(1, 4))
    shown: list[Finding] = []
    for finding in results.comparison_findings:  # the largest few of each parameter
        alike = [f for f in shown if f.figures["parameter"] == finding.figures["parameter"]]
        if len(alike) < MAX_DIFFERENCE_FINDINGS:
            shown.append(finding)
    story += _finding_paragraphs(shown, styles)
    hidden = len(results.comparison_findings) - len(shown)
    if hidden > 0:
        story.append(
            Paragraph(
                f"{hidden} more metrics differ significantly; sweep.json lists them all "
                "(comparisons with significant: true).",
                styles.note,
            )
        )
    for finding, numbers in _grouped_run_findings(runs):
        where = (
            f" (configuration{'s' if len(numbers) > 1 else ''} "
            + ", ".join(f"#{n}" for n in numbers)
            + (f"; the figures of #{numbers[0]}" if len(numbers) > 1 else "")
            + ")"
        )
        story += _finding_paragraphs([finding], styles, where)
    if not results.comparison_findings and not any(r.summary["findings"] for r in runs):
        story.append(
            Paragraph(
                "No test found a difference, a seat advantage, a game that drags "
                "or an odd special at this confidence.",
                styles.body,
            )
        )
    names = sorted({name for r in runs for name in r.summary["counters"]})
    words = glossary(names, games[0] if len(games) == 1 else "")
    if words:
        story.append(Paragraph("Counters whose names look alike", styles.heading))
        for sentence in words:
            story.append(Paragraph(escape(sentence), styles.note))
    rows = [["#", "deck", "game", "players", "bots", "variants", "unfinished", "actions"]]
    for r in runs:
        c = r.configuration
        rows.append(
            [
                str(c.number),
                c.deck,
                c.settings.game,
                str(c.settings.players),
                c.settings.bots[:22],
                c.value("variants")[:18],
                pct(r.summary["unfinished_rate"]),
                f"{r.summary['actions']['mean']:.1f}",
            ]
        )
    story.append(
        section(
            "Configurations",
            "Every configuration with its share of unfinished games and its mean length; "
            "each one's full figures are in configurations/*/sim-GAME.json.",
            table(rows, styles, (18, 90, 60, 40, 96, 64, 60, 48)),
            styles,
        )
    )
    for game in games:
        of_game = [r for r in runs if r.configuration.settings.game == game]
        compared = [
            pair for pair in results.comparisons if pair.a.configuration.settings.game == game
        ]
        for parameter in [p for p in results.varied if p != "game"]:
            if len({r.configuration.value(parameter) for r in of_game}) < 2:
                continue
            charts = []
            for metric in chart_metrics(of_game):
                drawn = parameter_chart(
                    of_game,
                    compared,
                    parameter,
                    metric,
                    results.baseline_value(parameter, game),
                    styles,
                )
                if drawn is not None:
                    charts.append(section(metric.replace("_", " "), "", drawn, styles))
            if not charts:
                continue
            story.append(PageBreak())
            story.append(
                Paragraph(
                    escape(f"{game_title(game)}: the metrics against {parameter}"), styles.heading
                )
            )
            story.append(
                Paragraph(
                    escape(
                        f"Each point is a configuration's paired difference from its neighbour "
                        f"at the baseline {parameter} ({results.baseline_value(parameter, game)}, "
                        f"drawn at zero), game i against game i; whiskers are 95 % intervals; a "
                        f"filled square holds after {CORRECTION}'s correction; lines join "
                        f"configurations that differ only in {parameter}."
                    ),
                    styles.note,
                )
            )
            story += charts
    story.append(PageBreak())
    shown_runs = runs[:MAX_HEAT_COLUMNS]
    story.append(
        section(
            "Cards left with the loser",
            "Share of finished games in which each card is still with the loser at the end, per "
            "configuration (columns by number"
            + (
                f"; the first {MAX_HEAT_COLUMNS} of {len(runs)}"
                if len(runs) > len(shown_runs)
                else ""
            )
            + "); dark rows are cards that are hard to get rid of.",
            heat_map(runs, styles),
            styles,
        )
    )
    return story


def write_sweep_report(path: Path, results: SweepResults) -> None:
    story = sweep_story(results)
    with atomic_path(path) as tmp:
        document = SimpleDocTemplate(
            str(tmp),
            pagesize=A4,
            leftMargin=MARGIN,
            rightMargin=MARGIN,
            topMargin=MARGIN,
            bottomMargin=MARGIN,
            title=f"Kraft-stokken sweep: {results.run.sweep.title}",
            author="kraftstokk",
            invariant=1,
        )
        document.build(story)
