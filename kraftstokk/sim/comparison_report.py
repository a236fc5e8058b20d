"""The comparison pages: the six answers side by side, a verdict, and every metric's
paired difference.

Page 1 of ``simulate --compare``'s report names both decks, gives the verdict for a
purpose (:mod:`kraftstokk.sim.compare_answers`: "B plays shorter and fairer than A"),
puts the six answers of A and B side by side with the largest relative differences
first, and draws both on page 1's chart. Page 2 draws every metric's difference B − A
with its 95 % interval, in percent of deck A's value, the differences that hold after
the correction (:mod:`kraftstokk.sim.verdict`) in colour; page 3 is the table of figures.
The sweep report draws its decks' differences with :func:`difference_chart` too.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any
from xml.sax.saxutils import escape

from reportlab.graphics.shapes import Drawing, Line, Polygon, Rect, String
from reportlab.lib import colors
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import Flowable, PageBreak, Paragraph, Spacer, Table, TableStyle

from kraftstokk.sim import compare_answers
from kraftstokk.sim.compare import Comparison, Difference
from kraftstokk.sim.page_one import answers_chart
from kraftstokk.sim.pdf_style import FRAME_WIDTH, GRID, INK, Styles, pct, section, table
from kraftstokk.sim.playability import QUESTIONS
from kraftstokk.sim.verdict import deck_names, game_title

HELD = colors.HexColor("#2f6f9f")
CHANCE = colors.HexColor("#a8a8a8")
#: The chart's scale never goes past this share of A's value (longer lines get arrows).
LARGEST_SCALE = 1.0
_SCALES = (0.01, 0.02, 0.05, 0.1, 0.2, 0.25, 0.5, 1.0)
#: The share of rows whose whole interval the scale shows.
SHOWN_WHOLE = 0.8


def _signed(value: float) -> str:
    size = abs(value)
    return f"{value:+z.0f}" if size >= 100 else f"{value:+z.1f}" if size >= 10 else f"{value:+z.2f}"


def absolute(item: Difference) -> str:
    """B − A as the table shows it: percentage points for rates."""
    return f"{100 * item.difference:+z.1f} pp" if item.is_rate else _signed(item.difference)


def _scale(items: Sequence[Difference]) -> float:
    """A scale that shows most rows whole: the one or two that reach far get arrows
    rather than squeeze every other line to a dot."""
    reaches = sorted(max(abs(i.ci95[0]), abs(i.ci95[1])) / abs(i.a) for i in items)
    if not reaches:
        return LARGEST_SCALE
    reach = reaches[max(0, math.ceil(SHOWN_WHOLE * len(reaches)) - 1)]
    return next((step for step in _SCALES if step >= reach), LARGEST_SCALE)


def difference_chart(
    items: Sequence[Difference], styles: Styles, family: int, correction: str = "Holm"
) -> Drawing:
    """One row per metric: B − A and its 95 % interval, in percent of A's value.

    Metrics whose value on A is zero have no percentage and are left to the table.
    """
    rows = [item for item in items if item.a]
    row_h, top, axis_h, legend_h = 12.0, 6.0, 30.0, 16.0
    label_w, value_w = 150.0, 92.0
    plot_x, plot_w = label_w, FRAME_WIDTH - label_w - value_w
    height = top + row_h * max(1, len(rows)) + axis_h + legend_h
    drawing = Drawing(FRAME_WIDTH, height)
    scale = _scale(rows)
    bottom = legend_h + axis_h

    def x_of(share: float) -> float:
        clipped = max(-scale, min(scale, share))
        return float(plot_x + plot_w * (0.5 + clipped / (2 * scale)))

    for step in range(5):
        share = scale * (step - 2) / 2
        x = x_of(share)
        dashed = [2, 2] if step == 2 else None
        drawing.add(
            Line(
                x,
                bottom,
                x,
                height - top,
                strokeColor=INK if step == 2 else GRID,
                strokeWidth=0.7 if step == 2 else 0.4,
                strokeDashArray=dashed,
            )
        )
        label = f"{100 * share:+z.0f} %" if share else "0"
        drawing.add(
            String(x, bottom - 10, label, fontName=styles.font, fontSize=7, textAnchor="middle")
        )
    drawing.add(
        String(
            plot_x + plot_w / 2,
            bottom - 22,
            "B − A in % of A's value; lines: 95 % intervals",
            fontName=styles.font,
            fontSize=7.5,
            textAnchor="middle",
            fillColor=INK,
        )
    )
    for number, item in enumerate(rows):
        y = height - top - row_h * (number + 0.5)
        base = abs(item.a)
        colour = HELD if item.significant else CHANCE
        if number % 2 == 0:
            drawing.add(
                Rect(
                    0,
                    y - row_h / 2,
                    FRAME_WIDTH,
                    row_h,
                    fillColor=colors.HexColor("#f4f4f4"),
                    strokeColor=None,
                )
            )
        drawing.add(
            String(
                label_w - 6,
                y - 2.5,
                item.metric.replace("_", " "),
                fontName=styles.bold if item.significant else styles.font,
                fontSize=7.5,
                textAnchor="end",
            )
        )
        low, high = item.ci95[0] / base, item.ci95[1] / base
        drawing.add(Line(x_of(low), y, x_of(high), y, strokeColor=colour, strokeWidth=1.3))
        for end, outward in ((low, -1), (high, 1)):
            if abs(end) > scale:  # an arrow where the line runs past the scale
                tip = x_of(end)
                drawing.add(
                    Polygon(
                        [tip + 4 * outward, y, tip, y + 2.6, tip, y - 2.6],
                        fillColor=colour,
                        strokeColor=None,
                    )
                )
        centre = x_of(item.difference / base)
        drawing.add(Rect(centre - 2.2, y - 2.2, 4.4, 4.4, fillColor=colour, strokeColor=None))
        text = f"{absolute(item)} ({100 * item.difference / base:+z.0f} %)"
        drawing.add(
            String(
                plot_x + plot_w + 6,
                y - 2.5,
                text,
                fontName=styles.font,
                fontSize=7.5,
                fillColor=INK,
            )
        )
    x = 0.0
    for colour, words in (
        (HELD, f"holds after {correction}'s correction for the {family} metrics compared"),
        (CHANCE, "within what chance gives"),
    ):
        drawing.add(Rect(x, 3, 7, 7, fillColor=colour, strokeColor=None))
        drawing.add(String(x + 11, 4, words, fontName=styles.font, fontSize=7.5))
        x += 11 + stringWidth(words, styles.font, 7.5) + 18
    return drawing


def _decimals(*values: float) -> int:
    """Decimals for a row of figures: four significant digits of its largest (1,405.575
    actions is 1406; 8.179 stays), so that large counts fit their columns."""
    largest = max((abs(value) for value in values), default=0.0)
    if largest < 1:
        return 3
    return max(0, min(3, 3 - math.floor(math.log10(largest))))


def comparison_table(comparison: Comparison, styles: Styles) -> Flowable:
    """Every metric on A and B, B − A, its interval and p-value; * where it holds."""
    rows: list[list[Any]] = [["metric", "A", "B", "B − A", "95 % interval", "p", ""]]
    for item in comparison.differences:
        if item.is_rate:
            shown = [
                pct(item.a),
                pct(item.b),
                f"{100 * item.difference:+z.1f} pp",
                f"{100 * item.ci95[0]:+z.1f} … {100 * item.ci95[1]:+z.1f} pp",
            ]
        else:
            digits = _decimals(item.a, item.b, *item.ci95)
            shown = [
                f"{item.a:.{digits}f}",
                f"{item.b:.{digits}f}",
                f"{item.difference:+z.{digits}f}",
                f"{item.ci95[0]:+z.{digits}f} … {item.ci95[1]:+z.{digits}f}",
            ]
        p_value = f"{item.p_value:.3f}" if item.p_value >= 0.001 else "< 0.001"
        mark = "*" if item.significant else ""
        rows.append([item.metric.replace("_", " "), *shown, p_value, mark])
    return table(rows, styles, (150, 58, 58, 56, 104, 40, 10))


def side_by_side(found: list[dict[str, Any]], styles: Styles) -> Table:
    """The six answers of A and B, a row each, the largest relative differences first."""
    cell = styles.body
    rows: list[list[Any]] = [["", "A", "B", "B − A (95 % interval)"]]
    for row in found:
        a, b = row["a"], row["b"]
        difference = compare_answers.difference_text(row)
        if row["counts"]:
            difference = f"<b>{escape(difference)}</b>"
        elif difference:
            difference = escape(difference) + " <i>alike</i>"
        rows.append(
            [
                Paragraph(f"<b>{escape(row['title'])}</b>", cell),
                Paragraph(escape(compare_answers.said(a)), cell),
                Paragraph(escape(compare_answers.said(b)), cell),
                Paragraph(difference, cell),
            ]
        )
    grid = Table(rows, colWidths=[112, 118, 118, FRAME_WIDTH - 348], hAlign="LEFT")
    grid.setStyle(
        TableStyle(
            [
                ("FONTNAME", (0, 0), (-1, 0), styles.bold),
                ("FONTSIZE", (0, 0), (-1, 0), 8.5),
                ("LINEBELOW", (0, 0), (-1, 0), 0.6, INK),
                ("LINEBELOW", (0, 1), (-1, -2), 0.3, GRID),
                ("VALIGN", (0, 0), (-1, -1), "TOP"),
                ("LEFTPADDING", (0, 0), (-1, -1), 0),
            ]
        )
    )
    return grid


def comparison_story(
    summary_a: dict[str, Any],
    summary_b: dict[str, Any],
    comparison: Comparison,
    verdict: str,
    styles: Styles,
) -> list[Flowable]:
    """Pages 1 to 3 of a comparison's report (each ends with a page break); ``verdict``:
    the sentence over every metric compared (Holm's)."""
    game = game_title(summary_a["game"])
    name_a, name_b = deck_names(summary_a["deck"], summary_b["deck"])
    confidence = comparison.confidence
    found = compare_answers.rows(summary_a, summary_b, comparison)
    story: list[Flowable] = [
        Paragraph(escape(f"Deck comparison: {game}"), styles.title),
        Spacer(1, 4),
        Paragraph(
            escape(
                f"A = {name_a} ({summary_a['deck']['path']}); B = {name_b} "
                f"({summary_b['deck']['path']}). {comparison.games} games each, game i of both "
                f"decks from the same seed; {summary_a['players']} players; bots "
                f"{', '.join(summary_a['bots'])}; variants "
                f"{', '.join(summary_a['variants']) or 'none'}; seed {summary_a['seed']}."
            ),
            styles.body,
        ),
        Paragraph("Verdict", styles.heading),
        Paragraph(
            f"<b>{escape(compare_answers.verdict(found, game, ('A', 'B')))}</b>", styles.body
        ),
        Spacer(1, 3),
        Paragraph(escape(f"Over every metric compared: {verdict}"), styles.note),
    ]
    if summary_a["interrupted"] or summary_b["interrupted"]:
        story.append(
            Paragraph(
                escape(
                    f"Interrupted: {comparison.games} of {summary_a['games_requested']} games "
                    "played with both decks; the comparison covers those."
                ),
                styles.body,
            )
        )
    story += [
        Paragraph("Six answers side by side", styles.heading),
        Paragraph(
            escape(
                "The differences that hold first, each group by size (B − A as a share of "
                "A); bold where a difference holds after the correction for testing many "
                "(game by game, Holm over every metric compared; the seat gap and skill edge "
                "as two independent estimates, Bonferroni over the six)."
            ),
            styles.note,
        ),
        Spacer(1, 3),
        side_by_side(found, styles),
        Spacer(1, 6),
        answers_chart(
            [[row["a"], row["b"]] for key in QUESTIONS for row in found if row["question"] == key],
            styles,
            ("A", "B"),
            row=44,
        ),
        PageBreak(),
    ]
    how = Paragraph(
        escape(
            "How: every metric is compared game by game (game i with deck A against game i "
            "with deck B), so what the seed decides cancels out; each difference B − A "
            "has a 95 % interval with the game as the unit and a p-value, and Holm's "
            f"correction over the {comparison.family} metrics compared keeps the chance "
            f"of any false alarm among them at {pct(1 - confidence)}. "
            f"{comparison.identical} of the {comparison.games} games gave the same figures "
            "with both decks."
        ),
        styles.note,
    )
    if comparison.same_games:
        story += [
            Paragraph("Every metric compared", styles.heading),
            how,
            Spacer(1, 6),
            Paragraph(
                escape(
                    "Every difference is exactly zero, so there is no chart: the two decks "
                    "play the same games."
                ),
                styles.body,
            ),
        ]
    elif comparison.differences:
        uncharted = [item.metric.replace("_", " ") for item in comparison.differences if not item.a]
        note = (
            "Each line is one metric: the square is B − A in percent of A's value, the line "
            "its 95 % interval (an arrow where it runs past the scale), coloured where the "
            "difference holds after the correction; "
            "the right column gives B − A in the metric's own unit (rates in percentage "
            "points)."
        )
        if uncharted:
            note += f" Zero on A, so only in the table: {', '.join(uncharted)}."
        story += [
            Paragraph("Every metric compared", styles.heading),
            how,
            section(
                "Paired differences, B − A",
                escape(note),
                difference_chart(
                    comparison.differences, styles, comparison.family, comparison.correction
                ),
                styles,
            ),
        ]
    story.append(PageBreak())
    story.append(
        section(
            "The metrics compared",
            escape(
                f"Deck A, {name_a}, and deck B, {name_b}, on the same seeds; p is each "
                f"difference's two-sided p-value before the correction; * marks a difference "
                f"that holds after {comparison.correction}'s correction for all "
                f"{comparison.family}."
            ),
            comparison_table(comparison, styles),
            styles,
        )
    )
    story.append(PageBreak())
    return story
