"""The playability report: ``sim-<game>.pdf``, a few pages of charts over the metrics.

Built only from the ``sim-<game>.json`` summary (and a comparison, when there is one:
its verdict and chart come first, :mod:`kraftstokk.sim.comparison_report`), so a report
can be drawn again from a saved run. Every chart has a heading and one line
that says what it shows and how to read it. The PDF is byte-identical for the same
summary (reportlab ``invariant=1``).
"""

from __future__ import annotations

import math
import os
from collections.abc import Sequence
from typing import Any
from xml.sax.saxutils import escape

from reportlab.graphics.charts.barcharts import HorizontalBarChart, VerticalBarChart
from reportlab.graphics.shapes import Drawing, Line, Rect, String
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
from kraftstokk.sim.compare import Comparison
from kraftstokk.sim.comparison_report import comparison_story
from kraftstokk.sim.findings import glossary
from kraftstokk.sim.histogram import EXACT_BELOW, RELATIVE_ERROR
from kraftstokk.sim.metrics import length_histogram
from kraftstokk.sim.page_one import page_one
from kraftstokk.sim.pdf_style import (
    BAR_COLOUR,
    FRAME_WIDTH,
    GRID,
    INK,
    LOSS_COLOUR,
    MARGIN,
    WIN_COLOUR,
    Styles,
    fmt,
    pct,
    section,
    table,
)
from kraftstokk.sim.verdict import game_title

MAX_SAMPLE_BARS = 40
UNFINISHED_SHOWN = 5


def _axis_number(value: float) -> str:
    """Axis figures: '80 000' for whole numbers, '0.25' for fractions."""
    if float(value).is_integer():
        return f"{int(value):,}".replace(",", " ")
    return f"{value:g}"


def _axis_fonts(chart: VerticalBarChart | HorizontalBarChart, styles: Styles, size: float) -> None:
    chart.categoryAxis.labels.fontName = styles.font
    chart.categoryAxis.labels.fontSize = size
    chart.valueAxis.labels.fontName = styles.font
    chart.valueAxis.labels.fontSize = 7.5
    chart.valueAxis.visibleGrid = True
    chart.valueAxis.gridStrokeColor = GRID
    chart.valueAxis.gridStrokeWidth = 0.4
    chart.valueAxis.valueMin = 0
    chart.valueAxis.rangeRound = "both"
    chart.valueAxis.labelTextFormat = _axis_number


def _with_x_title(
    drawing: Drawing,
    chart: VerticalBarChart | HorizontalBarChart,
    x_title: str,
    y: float,
    styles: Styles,
) -> Drawing:
    """The drawing with the horizontal axis's title centred under the chart at ``y``."""
    drawing.add(
        String(
            chart.x + chart.width / 2,
            y,
            x_title,
            fontName=styles.font,
            fontSize=8,
            textAnchor="middle",
            fillColor=INK,
        )
    )
    return drawing


def _vertical_bars(
    counts: Sequence[float], labels: Sequence[str], x_title: str, styles: Styles
) -> Drawing:
    rotated = len(labels) > 12 or max((len(label) for label in labels), default=0) > 6
    height = 190
    drawing = Drawing(FRAME_WIDTH, height)
    chart = VerticalBarChart()
    # Labels turned 45 degrees reach down by about 0.71 of their width: keep them above
    # the axis title.
    longest = max((stringWidth(label, styles.font, 7) for label in labels), default=0.0)
    chart.x, chart.y = 48, (16 + 0.71 * longest) if rotated else 24
    chart.width, chart.height = FRAME_WIDTH - 62, height - 14 - chart.y
    chart.data = [list(counts)]
    chart.bars[0].fillColor = BAR_COLOUR
    chart.bars[0].strokeColor = None
    chart.barSpacing = 1
    chart.groupSpacing = 2
    chart.categoryAxis.categoryNames = list(labels)
    chart.categoryAxis.labels.angle = 45 if rotated else 0
    chart.categoryAxis.labels.boxAnchor = "ne" if rotated else "n"
    chart.categoryAxis.labels.dy = -2
    _axis_fonts(chart, styles, 7)
    drawing.add(chart)
    return _with_x_title(drawing, chart, x_title, 2, styles)


def _histogram_chart(histogram: dict[str, Any], unit: str, styles: Styles) -> Flowable:
    if not histogram["counts"]:
        return Paragraph("No game finished, so there are no lengths to show.", styles.body)
    start, width = int(histogram["start"]), int(histogram["bin_width"])
    counts = list(histogram["counts"])
    step = max(1, len(counts) // 12)
    labels = [
        ""
        if i % step
        else f"{start + i * width}"
        if width == 1
        else f"{start + i * width}–{start + (i + 1) * width - 1}"
        for i in range(len(counts))
    ]
    if histogram["overflow"]:
        counts.append(histogram["overflow"])
        labels.append(f"≥ {start + (len(labels)) * width}")
    return _vertical_bars(counts, labels, f"{unit} per finished game (games per bin)", styles)


def _sample_chart(
    histogram: dict[str, int], styles: Styles, title: str = "size (how many times)"
) -> Drawing:
    """One bar per size, gaps included; binned like the lengths when there are many sizes
    (the first bin labelled from the smallest size seen)."""
    counts = {int(size): count for size, count in histogram.items()}
    low, high = min(counts), max(counts)
    if high - low < MAX_SAMPLE_BARS:
        sizes = range(low, high + 1)
        return _vertical_bars(
            [counts.get(size, 0) for size in sizes],
            [str(size) for size in sizes],
            title,
            styles,
        )
    values = [size for size, count in sorted(counts.items()) for _ in range(count)]
    binned = length_histogram(values)
    width, start = binned["bin_width"], binned["start"]
    bars = list(binned["counts"])
    labels = [
        f"{max(low, start + i * width)}–{start + (i + 1) * width - 1}" for i in range(len(bars))
    ]
    if binned["overflow"]:
        bars.append(binned["overflow"])
        labels.append(f"≥ {start + len(labels) * width}")
    return _vertical_bars(bars, labels, title, styles)


def _seat_chart(summary: dict[str, Any], styles: Styles) -> Drawing:
    """Win and loser rate per seat as paired bars with 95 % whiskers and the fair share."""
    players = int(summary["players"])
    series = [
        ("won", summary["win_rate_by_seat"], summary["win_rate_ci95_by_seat"], WIN_COLOUR),
        ("lost", summary["loser_rate_by_seat"], summary["loser_rate_ci95_by_seat"], LOSS_COLOUR),
    ]
    height = 200
    left, bottom, top = 44, 30, 14
    plot_w, plot_h = FRAME_WIDTH - left - 110, height - bottom - top
    highest = max([float(hi) for _, _, cis, _ in series for _, hi in cis] + [1 / players])
    step = 0.05 if highest <= 0.3 else 0.1 if highest <= 0.6 else 0.2
    ticks = min(round(1 / step), math.floor(highest / step + 1e-9) + 1)
    scale_max = step * ticks
    drawing = Drawing(FRAME_WIDTH, height)

    def y_of(rate: float) -> float:
        return bottom + plot_h * rate / scale_max

    for tick in range(ticks + 1):
        rate = scale_max * tick / ticks
        drawing.add(
            Line(left, y_of(rate), left + plot_w, y_of(rate), strokeColor=GRID, strokeWidth=0.4)
        )
        drawing.add(
            String(
                left - 4,
                y_of(rate) - 2.5,
                f"{100 * rate:.0f} %",
                fontName=styles.font,
                fontSize=7.5,
                textAnchor="end",
            )
        )
    group = plot_w / players
    bar = min(28.0, group / 3)
    for seat in range(players):
        centre = left + group * (seat + 0.5)
        for offset, (_, rates, cis, colour) in zip((-1, 0), series, strict=True):
            x = centre + offset * bar
            drawing.add(
                Rect(
                    x,
                    bottom,
                    bar * 0.92,
                    y_of(rates[seat]) - bottom,
                    fillColor=colour,
                    strokeColor=None,
                )
            )
            mid = x + bar * 0.46
            low, high = cis[seat]
            for y in (y_of(low), y_of(high)):
                drawing.add(Line(mid - 3, y, mid + 3, y, strokeColor=INK, strokeWidth=0.7))
            drawing.add(Line(mid, y_of(low), mid, y_of(high), strokeColor=INK, strokeWidth=0.7))
        drawing.add(
            String(
                centre,
                bottom - 11,
                f"seat {seat + 1}",
                fontName=styles.font,
                fontSize=8,
                textAnchor="middle",
            )
        )
    fair = y_of(1 / players)
    drawing.add(
        Line(
            left,
            fair,
            left + plot_w,
            fair,
            strokeColor=INK,
            strokeWidth=0.8,
            strokeDashArray=[3, 2],
        )
    )
    legend_x = left + plot_w + 14
    for row, (label, _, _, colour) in enumerate(series):
        y = height - top - 12 - row * 14
        drawing.add(Rect(legend_x, y, 9, 9, fillColor=colour, strokeColor=None))
        drawing.add(String(legend_x + 13, y + 1.5, label, fontName=styles.font, fontSize=8))
    y = height - top - 12 - 2 * 14
    drawing.add(
        Line(
            legend_x,
            y + 4,
            legend_x + 9,
            y + 4,
            strokeColor=INK,
            strokeWidth=0.8,
            strokeDashArray=[3, 2],
        )
    )
    drawing.add(
        String(legend_x + 13, y + 1.5, f"fair share 1/{players}", fontName=styles.font, fontSize=8)
    )
    drawing.add(
        String(
            left + plot_w / 2,
            2,
            "share of finished games",
            fontName=styles.font,
            fontSize=8,
            textAnchor="middle",
        )
    )
    return drawing


def _card_bars(
    cards: dict[str, Any], key: str, x_title: str, colour: colors.Color, styles: Styles
) -> Drawing:
    """One bar per card for the per-card figure ``key``, highest first."""
    labels = _card_labels(cards)
    ordered = sorted(cards, key=lambda c: (-cards[c][key], c))
    scale = 100 if key.endswith("_rate") else 1  # rates in percent, as everywhere
    return _horizontal_bars(
        [labels[c] for c in ordered],
        [scale * cards[c][key] for c in ordered],
        x_title,
        styles,
        colour,
    )


def _horizontal_bars(
    labels: Sequence[str],
    values: Sequence[float],
    x_title: str,
    styles: Styles,
    colour: colors.Color = BAR_COLOUR,
    value_labels: str | None = None,
) -> Drawing:
    """Bars with their labels on the left, top-down; ``value_labels`` formats the values."""
    row = 9.6 if len(labels) > 20 else 15.0
    label_width = 150
    height = row * len(labels) + 44
    drawing = Drawing(FRAME_WIDTH, height)
    chart = HorizontalBarChart()
    chart.x, chart.y = label_width, 30
    chart.width, chart.height = FRAME_WIDTH - label_width - 14, row * len(labels)
    # reportlab draws the first category at the bottom; the list reads top-down.
    chart.data = [list(reversed(values))]
    chart.categoryAxis.categoryNames = list(reversed(labels))
    chart.categoryAxis.labels.boxAnchor = "e"
    chart.categoryAxis.labels.dx = -3
    chart.bars[0].fillColor = colour
    chart.bars[0].strokeColor = None
    chart.barSpacing = 0
    chart.groupSpacing = 1.5 if len(labels) > 20 else 4
    _axis_fonts(chart, styles, 6.5 if len(labels) > 20 else 8)
    if not any(values):
        chart.valueAxis.valueMax = 1
    if value_labels:
        # Room at the right end for the largest bar's figure.
        chart.valueAxis.valueMax = max(values, default=0) * 1.12 or 1
        chart.valueAxis.rangeRound = "ceiling"
        chart.barLabelFormat = value_labels
        chart.barLabels.fontName = styles.font
        chart.barLabels.fontSize = 7.5
        chart.barLabels.boxAnchor = "w"
        chart.barLabels.dx = 3
    drawing.add(chart)
    return _with_x_title(drawing, chart, x_title, 4, styles)


def _summary_table(summary: dict[str, Any], styles: Styles) -> Table:
    actions, rounds = summary["actions"], summary["rounds"]
    low, high = summary["unfinished_ci95"]
    rows = [
        ["", "mean", "median", "p95", "max"],
        ["actions per game", *(fmt(actions[k], 1) for k in ("mean", "median", "p95", "max"))],
        ["rounds per game", *(fmt(rounds[k], 1) for k in ("mean", "median", "p95", "max"))],
    ]
    facts = [
        ["games played", f"{summary['games']}"],
        ["finished", f"{summary['finished']}"],
        [
            "unfinished (action cap)",
            f"{summary['unfinished']} ({pct(summary['unfinished_rate'])}; "
            f"95 % CI {pct(low)}–{pct(high)})",
        ],
        ["pile pick-ups per game", fmt(summary["pile_pickups_per_game"])],
        ["burns per game", fmt(summary["burns_per_game"])],
    ]
    for key, value in summary["highlights"].items():
        if key in ("pile_pickups_per_game", "burns_per_game"):
            continue
        shown = pct(value) if key.endswith("_rate") else fmt(value)
        facts.append([key.replace("_", " "), shown])
    outer = Table(
        [
            [table(facts, styles, (118, 180), header=False)],
            [Spacer(1, 6)],
            [table(rows, styles, (118, 60, 60, 60, 60))],
        ],
        hAlign="LEFT",
    )
    outer.setStyle(TableStyle([("LEFTPADDING", (0, 0), (-1, -1), 0)]))
    return outer


def _rates_table(summary: dict[str, Any], styles: Styles) -> Table | None:
    rates = summary["rates"]
    if not rates:
        return None
    rows = [["rate", "events", "out of", "rate", "95 % CI"]]
    for name, item in rates.items():
        if item["rate"] is None:
            rows.append([name.replace("_", " "), "0", "0", "–", "–"])
            continue
        low, high = item["ci95"]
        rows.append(
            [
                name.replace("_", " "),
                str(item["successes"]),
                str(item["trials"]),
                pct(item["rate"]),
                f"{pct(low)}–{pct(high)}",
            ]
        )
    return table(rows, styles, (170, 60, 60, 60, 100))


def _card_labels(cards: dict[str, Any]) -> dict[str, str]:
    """'Tonstad (spar 7)' for a plant card, 'joker 1' for a joker."""
    labels = {}
    for card_id, card in cards.items():
        readable = card_id.replace("-", " ")
        labels[card_id] = (
            readable if card_id.startswith("joker") else f"{card['name']} ({readable})"
        )
    return labels


def counter_meanings(game: str, names: list[str]) -> dict[str, str]:
    """What each counter of the run counts, as the game's spec declares it."""
    from kraftstokk.games.registry import known_spec

    spec = known_spec(game)
    declared = {counter.name: counter.meaning for counter in spec.counters} if spec else {}
    return {name: declared[name] for name in names if name in declared}


def replay_command(summary: dict[str, Any], index: int) -> str:
    """The ``simulate`` command that plays game ``index`` of the run again, alone."""
    bots = list(summary["bots"])
    parts = [
        "kraftstokk simulate",
        summary["deck"]["path"],
        f"--game {summary['game']}",
        f"-p {summary['players']}",
        f"-b {bots[0] if len(set(bots)) == 1 else ','.join(bots)}",
        *(f"--variant {flag}" for flag in summary["variants"]),
        f"--action-cap {summary['action_cap']}",
        f"-s {summary['seed']}",
        f"--first-game {index} -n 1 -w 1 --out output/replay",
    ]
    return " ".join(parts)


def findings_story(
    summary: dict[str, Any], styles: Styles, said_on_page_one: bool = False
) -> list[Flowable]:
    """The findings in words, each with what a designer might change: page 1's poor
    answers first, then what the statistical tests found. When page 1 already says that
    nothing needs changing, nothing more."""
    found = [*summary.get("answer_findings", []), *summary.get("findings", [])]
    confidence = float(summary.get("confidence", 0.95))
    heading = Paragraph(
        "What to change, with the figures" if said_on_page_one else "What to change",
        styles.heading,
    )
    story: list[Flowable] = []
    if not found and said_on_page_one:
        return []
    if not found:
        story.append(
            Paragraph(
                f"No answer above is outside its good range, and no test at {pct(confidence)} "
                "confidence found a seat advantage, games that drag, a special that (almost) "
                "never or too often happens, or cards that stay with the loser.",
                styles.body,
            )
        )
        return [KeepTogether([heading, *story])]
    story.append(
        Paragraph(
            f"The answers outside their good range (page 1), then what a statistical test at "
            f"{pct(confidence)} confidence found (Bonferroni over the seats, the specials and "
            "the cards).",
            styles.note,
        )
    )
    for item in found:
        story.append(Spacer(1, 3))
        story.append(
            Paragraph(
                f"<b>{escape(item['title'])}.</b> {escape(item['says'])} "
                f"<i>What to change:</i> {escape(item['advice'])}",
                styles.body,
            )
        )
    # The heading stays with the note and the first finding (never alone at a page foot).
    return [KeepTogether([heading, *story[:3]]), *story[3:]]


def _interval_text(item: dict[str, Any], as_share: bool = True) -> str:
    if item.get("value") is None:
        return "–"
    low, high = item["ci95"]
    if as_share:
        return f"{pct(item['value'])} ({pct(low)}–{pct(high)})"
    return f"{fmt(item['value'])} ({fmt(low)}–{fmt(high)})"


def details_of_play(summary: dict[str, Any], styles: Styles) -> list[Flowable]:
    """The figures behind page 1's answers: each metric with its interval, the distinct
    moves of the decisions, the time model and (with --skill) the skill gradient."""
    metrics = summary.get("playability")
    if not metrics:
        return []
    choice, drama, duration = metrics["choice"], metrics["drama"], metrics["duration"]
    broken, fair = metrics["broken"], metrics["fair"]
    minutes = duration["minutes"] or {}
    rows: list[list[Any]] = [["metric", "value (95 % interval)", "over"]]
    rows.append(
        [
            f"seat gap ({'Idiot rate' if fair['measure'] == 'loser_rate' else 'win rate'})",
            f"{_interval_text(fair)} points".replace(" %", ""),
            f"{fair['finished']:,} finished games",
        ]
    )
    if minutes:
        rows.append(
            [
                "minutes at a table (mean)",
                f"{_interval_text(minutes, False)}; median {fmt(minutes['median'], 1)}, "
                f"p90 {fmt(minutes['p90'], 1)}",
                "finished games",
            ]
        )
    for name, key in (
        ("actions", "actions"),
        ("rounds", "rounds"),
        ("turns per person", "turns_per_person"),
    ):
        spread = duration[key]
        if spread:
            rows.append(
                [
                    name,
                    f"median {fmt(spread['median'], 1)}, p90 {fmt(spread['p90'], 1)}",
                    "finished games",
                ]
            )
    rows.append(
        [
            "decision share",
            _interval_text(choice["decision_share"]),
            f"{choice['decisions']:,} decisions",
        ]
    )
    branching = choice["branching"]
    if branching.get("value") is not None:
        rows.append(
            [
                "branching factor (mean)",
                f"{_interval_text(branching, False)}; p90 {branching.get('p90', 0):g}",
                f"{choice['choices']:,} decisions with a choice",
            ]
        )
    rows.append(["answers out of turn", _interval_text(choice["answers_share"]), "of decisions"])
    rows.append(
        ["lead changes per game", _interval_text(drama["lead_changes"], False), "finished games"]
    )
    rows.append(["comebacks", _interval_text(drama["comebacks"]), "finished games"])
    rows.append(
        [
            "lead taken for good (share of the way)",
            _interval_text(drama["settled"]),
            "finished games",
        ]
    )
    rows.append(
        ["settled in the first tenth", _interval_text(broken["settled_early"]), "finished games"]
    )
    rows.append(["unfinished (action cap)", _interval_text(broken["unfinished"]), "games"])
    skill = metrics.get("skill")
    if skill:
        rows.append(["skill edge (expert)", _interval_text(skill), f"{skill['games']:,} games"])
    story: list[Flowable] = [
        section(
            "The playability metrics",
            "Every figure behind page 1, with its 95 % interval (the game as the unit); "
            "docs/metrics.md gives each formula beside Ludii's metric of the same name.",
            table(rows, styles, (150, 200, FRAME_WIDTH - 350)),
            styles,
        )
    ]
    histogram = choice.get("histogram")
    if histogram:
        story.append(
            section(
                "Distinct moves of the decisions with a choice",
                "How many decisions with two or more distinct moves had each count of them "
                "(moves that lead to the same position as far as the player can tell count "
                "once).",
                _sample_chart(histogram, styles, "distinct moves (decisions with that many)"),
                styles,
            )
        )
    pace = summary.get("pace")
    if pace:
        steps = [[step, f"{seconds:g} s"] for step, seconds in pace["seconds"].items()]
        steps.append(["pile pick-ups counted", ", ".join(pace["pickups"]) or "none"])
        steps.append(["challenges counted", ", ".join(pace["challenges"]) or "none"])
        story.append(
            section(
                "The time model",
                "Minutes at a table: each step of a game at its pace, added up (change it "
                "with --pace KEY=SECONDS,... or a [time] table in a file).",
                table(steps, styles, (150, FRAME_WIDTH - 150), header=False),
                styles,
            )
        )
    gradient = summary.get("skill")
    if gradient:
        levels = [["level in one seat", "rate", "95 % interval", "finished games"]]
        for level in gradient["levels"]:
            low, high = level["ci95"]
            levels.append(
                [
                    level["level"],
                    pct(level["rate"]),
                    f"{pct(low)}–{pct(high)}",
                    f"{level['finished']:,}",
                ]
            )
        story.append(
            section(
                "The skill gradient",
                escape(
                    f"Each level plays one seat against {gradient['field']} bots, the seat "
                    "turning round the table, on the same games; the rate is "
                    f"{'being the Idiot' if gradient['measure'] == 'loser_rate' else 'winning'} "
                    f"(fair share {pct(gradient['fair_share'])})."
                ),
                table(levels, styles, (130, 80, 120, 100)),
                styles,
            )
        )
    return story


def report_story(
    summary: dict[str, Any],
    comparison: Comparison | None = None,
    other: dict[str, Any] | None = None,
    verdict: str = "",
) -> list[Flowable]:
    """The report's flowables, in page order: with a comparison (and the other deck's
    summary), its verdict, chart and table first, then deck A's own report."""
    styles = Styles()
    game = game_title(summary["game"])
    deck = summary["deck"]
    story: list[Flowable] = []
    if comparison is not None and other is not None:
        story += comparison_story(summary, other, comparison, verdict, styles)
    story += [
        Paragraph(
            escape(f"Simulation report: {game}" + (", deck A" if story else "")), styles.title
        ),
        Spacer(1, 4),
        Paragraph(
            escape(
                f"{summary['games']:,} games with the deck “{deck['title']}” "
                f"({deck['edition']}, {deck['path']}); {summary['players']} players; bots "
                f"{', '.join(summary['bots'])}; variants "
                f"{', '.join(summary['variants']) or 'none'}; seed {summary['seed']}; action "
                f"cap {summary['action_cap']}."
            ),
            styles.body,
        ),
    ]
    if summary["interrupted"]:
        story.append(
            Paragraph(
                f"Interrupted: {summary['games']} of {summary['games_requested']} games played.",
                styles.body,
            )
        )
    if "answers" in summary:
        story += page_one(summary, styles)
        story.append(PageBreak())
    story += findings_story(summary, styles, said_on_page_one="answers" in summary)
    story.append(Spacer(1, 8))
    story.append(Paragraph("Details", styles.title))
    story += details_of_play(summary, styles)
    story.append(
        section(
            "Summary",
            "Games that reach the action cap are unfinished: they count in the lengths but "
            "not in the seat rates."
            + (
                ""
                if summary.get("quantiles_exact", True)
                else f" Lengths of {EXACT_BELOW:,} and more are counted in buckets, so the "
                f"medians and 95th percentiles are within {100 * RELATIVE_ERROR:.2f} % of "
                "the exact ones (means and maxima are exact)."
            ),
            _summary_table(summary, styles),
            styles,
        )
    )
    unfinished = summary.get("unfinished_games", [])[:UNFINISHED_SHOWN]
    if unfinished:
        story.append(Spacer(1, 4))
        story.append(
            Paragraph("Unfinished games: each command plays that one game again.", styles.note)
        )
        for game in unfinished:
            command = escape(replay_command(summary, int(game["index"])))
            story.append(
                Paragraph(f"<font face='Courier' size='7.5'>{command}</font>", styles.note)
            )
    words = glossary(list(summary["counters"]), summary["game"])
    meanings = counter_meanings(summary["game"], list(summary["counters"]))
    if words or meanings:
        rows = [
            [name.replace("_", " "), Paragraph(escape(text), styles.note)]
            for name, text in meanings.items()
        ]
        parts: list[Flowable] = []
        if rows:
            parts.append(table(rows, styles, (130, FRAME_WIDTH - 130), header=False))
        if words:
            parts.append(Spacer(1, 4))
            parts.append(
                Paragraph("<br/>".join(escape(sentence) for sentence in words), styles.note)
            )
        story.append(
            section(
                "What the counters count",
                "Each counter as the game declares it; counters whose names look alike told "
                "apart below.",
                KeepTogether(parts),
                styles,
            )
        )
    story.append(
        section(
            "Game length",
            f"How many actions each finished game took; a long right tail means games that drag on "
            f"(the cap is {summary['action_cap']}).",
            _histogram_chart(summary["actions_histogram"], "actions", styles),
            styles,
        )
    )
    if "rounds_histogram" in summary:
        story.append(
            section(
                "Rounds per game",
                "How many rounds (turns around the table) each finished game took.",
                _histogram_chart(summary["rounds_histogram"], "rounds", styles),
                styles,
            )
        )
    story.append(
        section(
            "Wins and losses by seat",
            "Share of finished games each seat won (out first) and lost; a bar far from the "
            "dashed fair share marks a seat advantage. Whiskers: 95 % intervals.",
            _seat_chart(summary, styles),
            styles,
        )
    )
    counters = summary["counters"]
    if counters:
        names = sorted(counters, key=lambda n: (-counters[n]["per_game"], n))
        story.append(
            section(
                "Special cards and events",
                "Average number of times each counted event happens in a game: pile "
                "pick-ups, burns and the game's own special plays.",
                _horizontal_bars(
                    [n.replace("_", " ") for n in names],
                    [counters[n]["per_game"] for n in names],
                    "times per game",
                    styles,
                    value_labels="%.2f",
                ),
                styles,
            )
        )
    rates = _rates_table(summary, styles)
    if rates is not None:
        story.append(
            section(
                "Success rates",
                "How often an attempt succeeds (events out of attempts over all games), with "
                "95 % intervals that take the game, not the event, as the unit.",
                rates,
                styles,
            )
        )
    for name, sample in summary["samples"].items():
        if not sample["count"]:
            continue
        story.append(
            section(
                name.replace("_", " ").capitalize(),
                f"Distribution of {name.replace('_', ' ')} over all games "
                f"(mean {fmt(sample['mean'])}, {fmt(sample['count'], 0)} in all).",
                _sample_chart(sample["histogram"], styles),
                styles,
            )
        )
    cards = summary["cards"]
    per_card = (
        (
            "Cards played",
            "How often each card is played in a game, on average; a card that is rarely "
            "played does little in this game.",
            "played_per_game",
            "times played per game",
            BAR_COLOUR,
        ),
        (
            "Cards left with the loser",
            "Share of finished games in which the card is still with the loser at the end; "
            "high bars mark cards that are hard to get rid of.",
            "left_with_loser_rate",
            "% of finished games",
            LOSS_COLOUR,
        ),
    )
    for heading, explanation, key, x_title, colour in per_card:
        story.append(PageBreak())
        story.append(
            section(heading, explanation, _card_bars(cards, key, x_title, colour, styles), styles)
        )
    return story


def write_report(
    path: str | os.PathLike[str],
    summary: dict[str, Any],
    comparison: Comparison | None = None,
    other: dict[str, Any] | None = None,
    verdict: str = "",
) -> None:
    """Write the report PDF atomically (with a comparison: its pages first)."""
    story = report_story(summary, comparison, other, verdict)
    game = game_title(summary["game"])
    with atomic_path(path) as tmp:
        document = SimpleDocTemplate(
            str(tmp),
            pagesize=A4,
            leftMargin=MARGIN,
            rightMargin=MARGIN,
            topMargin=MARGIN,
            bottomMargin=MARGIN,
            title=f"Kraft-stokken simulation: {game}",
            author="kraftstokk",
            invariant=1,
        )
        document.build(story)
