"""Page 1 of a simulation report: six questions answered in words, and one chart of all six.

The answers come from the summary (``sim-<game>.json``'s ``answers``,
:mod:`kraftstokk.sim.answers`), so a report can be drawn again from a saved run. The chart
gives each question a row on its own scale: the good range as a grey band, the estimate
as a black diamond and its 95 % interval as a black line, with the answer's label beside
it. It reads in greyscale: nothing depends on colour, and every mark is named in the
legend. A comparison draws both decks on each row (:func:`answers_chart` with two).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any
from xml.sax.saxutils import escape

from reportlab.graphics.shapes import Drawing, Line, Polygon, Rect, String
from reportlab.lib import colors
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import Flowable, Paragraph, Spacer

from kraftstokk.sim.answers import band, chart_position
from kraftstokk.sim.findings import texts
from kraftstokk.sim.overall import SHOWN, overall
from kraftstokk.sim.pdf_style import FRAME_WIDTH, GRID, INK, Styles

GOOD_BAND = colors.HexColor("#d6d6d6")
#: The second deck's marks in a comparison: hollow, so the two read apart in greyscale.
HOLLOW = colors.white
ROW = 35.0
LABEL_WIDTH = 150.0


def _tick(value: float, unit: str) -> str:
    if unit in ("share", "points", "edge"):
        return f"{100 * value:.0f}" + (" %" if unit != "points" else "")
    return f"{value:.0f}"


def _diamond(x: float, y: float, size: float, fill: colors.Color) -> Polygon:
    return Polygon(
        [x - size, y, x, y + size, x + size, y, x, y - size],
        fillColor=fill,
        strokeColor=INK,
        strokeWidth=0.9,
    )


def _fit(text: str, font: str, size: float, width: float) -> str:
    """``text`` cut with an ellipsis to fit ``width`` points."""
    if stringWidth(text, font, size) <= width:
        return text
    while text and stringWidth(text + "…", font, size) > width:
        text = text[:-1]
    return text.rstrip() + "…"


def _lines(text: str, font: str, size: float, width: float, most: int) -> list[str]:
    """``text`` wrapped to ``width`` points, at most ``most`` lines (the last cut short)."""
    lines: list[str] = []
    for word in text.split():
        if lines and stringWidth(f"{lines[-1]} {word}", font, size) <= width:
            lines[-1] = f"{lines[-1]} {word}"
        else:
            lines.append(word)
    if len(lines) > most:
        lines = [*lines[: most - 1], _fit(" ".join(lines[most - 1 :]), font, size, width)]
    return lines


def _good_spans(edges: list[float], answer: dict[str, Any]) -> list[tuple[float, float]]:
    """The good range between ``edges`` as spans, neighbouring good bands joined (two
    rectangles side by side show a seam on screen)."""
    spans: list[tuple[float, float]] = []
    for start, end in itertools.pairwise(edges):
        if band((start + end) / 2, answer["edges"]) not in answer["good"]:
            continue
        if spans and spans[-1][1] == start:
            spans[-1] = (spans[-1][0], end)
        else:
            spans.append((start, end))
    return spans


def answers_chart(
    rows: Sequence[Sequence[dict[str, Any]]],
    styles: Styles,
    names: Sequence[str] = (),
    row: float = ROW,
) -> Drawing:
    """One row per question, ``row`` points high; ``rows[q]`` holds that question's answer
    for each deck (one, or A and B of a comparison, ``names`` naming them)."""
    legend_h = 22.0
    height = row * len(rows) + legend_h
    drawing = Drawing(FRAME_WIDTH, height)
    plot_x = LABEL_WIDTH + 12
    plot_w = FRAME_WIDTH - plot_x - 14
    for number, answers in enumerate(rows):
        first = answers[0]
        top = height - row * number
        axis_y = top - row + 18
        if number:
            drawing.add(Line(0, top, FRAME_WIDTH, top, strokeColor=GRID, strokeWidth=0.4))
        drawing.add(String(0, top - 10, first["title"], fontName=styles.bold, fontSize=8.5))
        said = [
            (f"{names[which]}: " if names else "") + answer["label"]
            for which, answer in enumerate(answers)
        ]
        y = top - 19
        for words in said:
            for line in _lines(words, styles.font, 7.5, LABEL_WIDTH, 3 - len(said)):
                drawing.add(String(0, y, line, fontName=styles.font, fontSize=7.5, fillColor=INK))
                y -= 8.5
        low, high = chart_position(first)
        for answer in answers[1:]:
            other_low, other_high = chart_position(answer)
            low, high = min(low, other_low), max(high, other_high)

        def x_of(value: float, low: float = low, high: float = high) -> float:
            clipped = max(low, min(high, value))
            return float(plot_x + plot_w * (clipped - low) / (high - low))

        plot_h = row - 22
        edges = [low, *(e for e in first["edges"] if low < e < high), high]
        for start, end in _good_spans(edges, first):
            drawing.add(
                Rect(
                    x_of(start),
                    axis_y,
                    x_of(end) - x_of(start),
                    plot_h,
                    fillColor=GOOD_BAND,
                    strokeColor=None,
                )
            )
        drawing.add(Line(plot_x, axis_y, plot_x + plot_w, axis_y, strokeColor=INK, strokeWidth=0.6))
        shown = -1e9
        for position, value in enumerate(edges):
            x = x_of(value)
            drawing.add(Line(x, axis_y, x, axis_y - 3, strokeColor=INK, strokeWidth=0.6))
            last = position == len(edges) - 1
            if x - shown < 22 or (not last and x_of(edges[-1]) - x < 22):
                continue  # too close to a figure already written (or to the scale's end)
            shown = x
            drawing.add(
                String(
                    x,
                    axis_y - 8,
                    _tick(value, first["unit"]),
                    fontName=styles.font,
                    fontSize=6.5,
                    textAnchor="middle",
                )
            )
        axis = _fit(first["axis"], styles.font, 6.5, plot_w)
        drawing.add(
            String(
                plot_x + plot_w / 2,
                axis_y - 16,
                axis,
                fontName=styles.font,
                fontSize=6.5,
                textAnchor="middle",
                fillColor=INK,
            )
        )
        marks = len(answers)
        unmeasured = [which for which, answer in enumerate(answers) if answer.get("ci95") is None]
        if unmeasured:
            whose = "" if len(unmeasured) == marks or not names else f" ({names[unmeasured[0]]})"
            drawing.add(
                String(
                    plot_x + 4,
                    axis_y + plot_h / 2 - 3,
                    "not measured" + whose,
                    fontName=styles.font,
                    fontSize=7.5,
                    fillColor=INK,
                )
            )
        for which, answer in enumerate(answers):
            y = axis_y + plot_h * (marks - which) / (marks + 1)
            fill = INK if which == 0 else HOLLOW
            if answer.get("ci95") is None:
                continue
            start, end = answer["ci95"]
            drawing.add(Line(x_of(start), y, x_of(end), y, strokeColor=INK, strokeWidth=2.2))
            for end_value in (start, end):
                drawing.add(Line(x_of(end_value), y - 3, x_of(end_value), y + 3, strokeColor=INK))
            drawing.add(_diamond(x_of(answer["value"]), y, 4.2, fill))
            if names:
                drawing.add(
                    String(
                        x_of(end) + 6,
                        y - 2.5,
                        names[which],
                        fontName=styles.bold,
                        fontSize=7,
                    )
                )
    _legend(drawing, styles, bool(names), names)
    return drawing


def _legend(drawing: Drawing, styles: Styles, paired: bool, names: Sequence[str]) -> None:
    y = 6.0
    x = 0.0
    drawing.add(Rect(x, y - 1, 14, 8, fillColor=GOOD_BAND, strokeColor=None))
    x += 18
    words = "the good range"
    drawing.add(String(x, y, words, fontName=styles.font, fontSize=7))
    x += stringWidth(words, styles.font, 7) + 14
    drawing.add(Line(x, y + 3, x + 16, y + 3, strokeColor=INK, strokeWidth=2.2))
    drawing.add(_diamond(x + 8, y + 3, 3.6, INK))
    x += 20
    words = "estimate and its 95 % interval" + (f" ({names[0]})" if paired else "")
    drawing.add(String(x, y, words, fontName=styles.font, fontSize=7))
    x += stringWidth(words, styles.font, 7) + 14
    if paired:
        drawing.add(_diamond(x + 8, y + 3, 3.6, HOLLOW))
        x += 20
        drawing.add(String(x, y, f"the same for {names[1]}", fontName=styles.font, fontSize=7))


def answers_list(answers: Sequence[dict[str, Any]], styles: Styles) -> list[Flowable]:
    """The six answers, each a paragraph: the question in bold, then its sentence."""
    story: list[Flowable] = []
    for answer in answers:
        story.append(
            Paragraph(
                f"<b>{escape(answer['title'])}</b> {escape(answer['sentence'])}", styles.answer
            )
        )
    return story


def verdict_story(summary: dict[str, Any], styles: Styles) -> list[Flowable]:
    """Page 1's top: fair and fun in three sentences, then what to change (the first
    :data:`~kraftstokk.sim.overall.SHOWN` changes, each its title and advice) and what
    would make the answers surer."""
    found = summary.get("overall") or overall(summary)
    words = texts()["overall"]
    said = " ".join(part for part in (found["fair"], found["fun"], found["broken"]) if part)
    story: list[Flowable] = [
        Paragraph(escape(words["heading"]), styles.heading),
        Paragraph(escape(said), styles.lead),
        Paragraph(escape(words["changes_heading"]), styles.subheading),
    ]
    changes = found["changes"]
    unsettled = found.get("unsettled", [])
    if not changes and unsettled:
        nothing = words["nothing_unsettled"].format(
            count=len(unsettled), names=", ".join(unsettled)
        )
        story.append(Paragraph(escape(nothing), styles.body))
    elif not changes:
        story.append(Paragraph(escape(words["nothing"]), styles.body))
    for number, item in enumerate(changes[:SHOWN], start=1):
        story.append(
            Paragraph(
                f"{number}. <b>{escape(item['title'])}.</b> {escape(item['advice'])}",
                styles.compact,
            )
        )
    notes = []
    if len(changes) > SHOWN:
        notes.append(words["more"].format(count=len(changes) - SHOWN))
    if found["surer"]:
        notes.append(found["surer"])
    if notes:
        story.append(Paragraph(escape(" ".join(notes)), styles.note))
    return story


def page_one(summary: dict[str, Any], styles: Styles) -> list[Flowable]:
    """The verdict (fair? fun? what to change), the six answers, the chart, and the time
    model the minutes rest on."""
    answers = summary["answers"]
    story: list[Flowable] = [
        *verdict_story(summary, styles),
        Paragraph("Six answers", styles.heading),
        *answers_list(answers, styles),
        Spacer(1, 3),
        answers_chart([[answer] for answer in answers], styles),
        Spacer(1, 2),
        Paragraph(
            escape(
                "Labels claim only what the whole 95 % interval shows. Minutes at a table "
                f"assume {summary['pace']['assumptions']} (--pace or a [time] table changes "
                "them)."
            ),
            styles.note,
        ),
    ]
    return story
