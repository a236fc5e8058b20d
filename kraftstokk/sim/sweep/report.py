"""``sweep.pdf``: findings in words first, then the configurations, the metrics against
each swept parameter with intervals, and a heat map of the cards left with the loser.

Drawn from the sweep's results only; byte-identical for the same games (reportlab
``invariant=1``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path
from xml.sax.saxutils import escape

from reportlab.graphics.shapes import Drawing, Line, PolyLine, Rect, String
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.platypus import Flowable, PageBreak, Paragraph, SimpleDocTemplate, Spacer

from kraftstokk.atomic import atomic_path
from kraftstokk.sim.findings import Finding, glossary, pct, z_two_sided
from kraftstokk.sim.report import (
    FRAME_WIDTH,
    GRID,
    INK,
    MARGIN,
    _section,
    _Styles,
    _table,
    game_title,
)
from kraftstokk.sim.stats import ratio_interval, wilson
from kraftstokk.sim.sweep.outputs import MAX_DIFFERENCE_FINDINGS, SweepResults
from kraftstokk.sim.sweep.run import ConfigurationRun

SERIES = ["#2f6f9f", "#c0504d", "#4a8a5c", "#8064a2", "#d08a2e", "#4bacc6", "#7f7f7f", "#9b2d5b"]
MAX_CHART_METRICS = 6
HEAT_LOW = (1.0, 1.0, 1.0)
HEAT_HIGH = (0.62, 0.13, 0.12)

Point = tuple[float, float, float]  # value, interval low, interval high


def metric_points(run: ConfigurationRun, metric: str, z: float) -> Point | None:
    """A configuration's value of ``metric`` with its interval, from its games."""
    rows = run.tally.rows
    n = len(rows)
    if not n:
        return None
    if metric == "unfinished_rate":
        unfinished = sum(1 for row in rows if not row.finished)
        low, high = wilson(unfinished, n, z)
        return unfinished / n, low, high
    if metric in run.summary["rates"]:
        rate = run.summary["rates"][metric]
        if rate["rate"] is None:
            return None
        pairs = [
            (row.counters.get(rate["denominator"], 0), row.counters.get(rate["numerator"], 0))
            for row in rows
        ]
        low, high = ratio_interval(pairs)
        return rate["rate"], low, high
    if metric == "actions_per_game":
        values = [float(row.actions) for row in rows]
    elif metric == "rounds_per_game":
        values = [float(row.rounds) for row in rows]
    elif metric.endswith("_per_game"):
        name = metric.removesuffix("_per_game")
        values = [float(row.counters.get(name, 0)) for row in rows]
    else:
        return None
    mean = sum(values) / n
    spread = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1)) if n > 1 else 0.0
    half = z * spread / math.sqrt(n)
    return mean, mean - half, mean + half


def chart_metrics(runs: list[ConfigurationRun]) -> list[str]:
    """Length, unfinished share and the game's highlights, in that order."""
    names = ["actions_per_game", "unfinished_rate"]
    for run in runs:
        for key in run.summary["highlights"]:
            if (key.endswith("_per_game") or key.endswith("_rate")) and key not in names:
                names.append(key)
    return names[:MAX_CHART_METRICS]


def _nice_ceiling(value: float) -> float:
    if value <= 0:
        return 1.0
    power = 10.0 ** math.floor(math.log10(value))
    for step in (1, 2, 2.5, 5, 10):
        if step * power >= value:
            return step * power
    return 10 * power


def parameter_chart(
    runs: list[ConfigurationRun], parameter: str, metric: str, z: float, styles: _Styles
) -> Drawing:
    """``metric`` against the values of ``parameter``: one line per group of the others."""
    values: list[str] = []
    for run in runs:
        if run.configuration.value(parameter) not in values:
            values.append(run.configuration.value(parameter))
    groups: dict[str, list[tuple[int, Point]]] = {}
    from kraftstokk.sim.sweep.grid import PARAMETERS

    others = [p for p in PARAMETERS if p not in (parameter, "game")]
    for run in runs:
        point = metric_points(run, metric, z)
        if point is None:
            continue
        label = ", ".join(
            f"{p} {run.configuration.value(p)}"
            for p in others
            if len({r.configuration.value(p) for r in runs}) > 1
        )
        groups.setdefault(label, []).append(
            (values.index(run.configuration.value(parameter)), point)
        )
    is_rate = metric.endswith("_rate")
    top = _nice_ceiling(max((p[2] for points in groups.values() for _, p in points), default=1))
    height = 150
    left, bottom, legend_w = 50, 34, 150 if len(groups) > 1 else 0
    plot_w = FRAME_WIDTH - left - 10 - legend_w
    plot_h = height - bottom - 12
    drawing = Drawing(FRAME_WIDTH, height)

    def y_of(value: float) -> float:
        return float(bottom + plot_h * max(0.0, min(value, top)) / top)

    def x_of(slot: int) -> float:
        return float(left + plot_w * (slot + 0.5) / len(values))

    for tick in range(5):
        value = top * tick / 4
        drawing.add(
            Line(left, y_of(value), left + plot_w, y_of(value), strokeColor=GRID, strokeWidth=0.4)
        )
        text = (
            f"{100 * value:.0f} %"
            if is_rate and top >= 0.04
            else (f"{100 * value:.1f} %" if is_rate else f"{value:g}")
        )
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
    for slot, name in enumerate(values):
        shown = name if len(name) <= 28 else name[:27] + "…"
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
    drawing.add(
        String(
            left + plot_w / 2,
            4,
            parameter,
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
        for slot, (value, low, high) in sorted(points):
            x = x_of(slot) + offset
            coords += [x, y_of(value)]
            drawing.add(Line(x, y_of(low), x, y_of(high), strokeColor=colour, strokeWidth=0.8))
            for y in (y_of(low), y_of(high)):
                drawing.add(Line(x - 2.5, y, x + 2.5, y, strokeColor=colour, strokeWidth=0.8))
            drawing.add(Rect(x - 2, y_of(value) - 2, 4, 4, fillColor=colour, strokeColor=None))
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


def heat_map(runs: list[ConfigurationRun], styles: _Styles) -> Drawing:
    """Rows: cards (highest average first); columns: configurations; colour: the rate."""
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
    findings: Sequence[Finding], styles: _Styles, where: str = ""
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


def sweep_story(results: SweepResults) -> list[Flowable]:
    styles = _Styles()
    run = results.run
    sweep = run.sweep
    runs = run.runs
    confidence = sweep.findings.confidence
    z = z_two_sided(confidence)
    games = sorted({r.configuration.settings.game for r in runs})
    story: list[Flowable] = [
        Paragraph(escape(f"Sweep: {sweep.title}"), styles.title),
        Spacer(1, 4),
        Paragraph(
            escape(
                f"{len(runs)} configurations of {', '.join(game_title(g) for g in games)}, "
                f"{sweep.games} games each from seed {sweep.seed} (game i of every configuration "
                f"starts from the same seed); varied: {', '.join(results.varied) or 'nothing'}; "
                f"tests at {pct(confidence)} confidence."
            ),
            styles.body,
        ),
    ]
    if run.interrupted or not all(r.complete for r in runs):
        done = sum(r.tally.games for r in runs)
        story.append(
            Paragraph(
                escape(
                    f"Incomplete: {done} of {sweep.games * len(runs)} games played; run the "
                    "same command again to play the rest."
                ),
                styles.body,
            )
        )
    story.append(Paragraph("Findings", styles.heading))
    story.append(
        Paragraph(
            "Each finding is a statistical test at the sweep's confidence (corrected for the "
            "number of tests: Holm over all comparisons, Bonferroni over a run's seats, cards "
            "and specials). "
            "Configurations are compared when they differ in one parameter only, game i against "
            "game i (the same seed).",
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
        _section(
            "Configurations",
            "Every configuration with its share of unfinished games and its mean length; "
            "each one's full figures are in configurations/*/sim-GAME.json.",
            _table(rows, styles, (18, 90, 60, 40, 96, 64, 60, 48)),
            styles,
        )
    )
    for game in games:
        of_game = [r for r in runs if r.configuration.settings.game == game]
        for parameter in [p for p in results.varied if p != "game"]:
            if len({r.configuration.value(parameter) for r in of_game}) < 2:
                continue
            story.append(PageBreak())
            story.append(
                Paragraph(
                    escape(f"{game_title(game)}: the metrics against {parameter}"), styles.heading
                )
            )
            story.append(
                Paragraph(
                    "Each point is a configuration; lines join configurations that differ only in "
                    f"{parameter}; whiskers are {pct(confidence)} intervals.",
                    styles.note,
                )
            )
            for metric in chart_metrics(of_game):
                story.append(
                    _section(
                        metric.replace("_", " "),
                        "",
                        parameter_chart(of_game, parameter, metric, z, styles),
                        styles,
                    )
                )
    story.append(PageBreak())
    story.append(
        _section(
            "Cards left with the loser",
            "Share of finished games in which each card is still with the loser at the end, per "
            "configuration (columns by number); dark rows are cards that are hard to get rid of.",
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
