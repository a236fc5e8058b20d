"""What every simulation PDF shares: page size, colours, fonts, text styles, tables.

The simulation report, the comparison pages and the sweep report draw with these, so
that they read as one family of documents.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.platypus import Flowable, KeepTogether, Paragraph, Spacer, Table, TableStyle

WIN_COLOUR = colors.HexColor("#2f6f9f")
LOSS_COLOUR = colors.HexColor("#c0504d")
BAR_COLOUR = colors.HexColor("#4a8a5c")
INK = colors.HexColor("#222222")
GRID = colors.HexColor("#d0d0d0")
MARGIN = 18 * mm
FRAME_WIDTH = A4[0] - 2 * MARGIN


def fonts() -> tuple[str, str]:
    """The project's embedded sans family, or reportlab's standard Helvetica."""
    try:
        from kraftstokk.design.fonts import SANS, SANS_BOLD, register_fonts
    except ImportError:
        return "Helvetica", "Helvetica-Bold"
    register_fonts()
    return SANS, SANS_BOLD


class Styles:
    def __init__(self) -> None:
        self.font, self.bold = fonts()
        self.title = ParagraphStyle("title", fontName=self.bold, fontSize=18, leading=22)
        self.heading = ParagraphStyle(
            "heading", fontName=self.bold, fontSize=12.5, leading=16, spaceBefore=10
        )
        self.subheading = ParagraphStyle(
            "subheading", fontName=self.bold, fontSize=10, leading=13, spaceBefore=5
        )
        self.lead = ParagraphStyle("lead", fontName=self.font, fontSize=9.5, leading=12.5)
        self.compact = ParagraphStyle("compact", fontName=self.font, fontSize=8.5, leading=11)
        self.body = ParagraphStyle("body", fontName=self.font, fontSize=9, leading=12)
        self.answer = ParagraphStyle(
            "answer", fontName=self.font, fontSize=8.5, leading=11, spaceAfter=3
        )
        self.note = ParagraphStyle(
            "note",
            fontName=self.font,
            fontSize=8.5,
            leading=11,
            textColor=colors.HexColor("#555555"),
        )


def fmt(value: float, digits: int = 2) -> str:
    """A figure with a space between thousands: ``12 345.68``."""
    return f"{value:,.{digits}f}".replace(",", " ")


def pct(value: float) -> str:
    """A share in percent: ``12.3 %``."""
    return f"{100 * value:.1f} %"


def table(
    rows: list[list[Any]], styles: Styles, widths: Sequence[float], header: bool = True
) -> Table:
    """A table of the reports' style (a bold header row unless ``header`` is False)."""
    grid = Table(rows, colWidths=list(widths), hAlign="LEFT")
    commands: list[tuple[Any, ...]] = [
        ("FONTNAME", (0, 0), (-1, -1), styles.font),
        ("FONTSIZE", (0, 0), (-1, -1), 8.5),
        ("LEADING", (0, 0), (-1, -1), 10.5),
        ("ALIGN", (1, 0), (-1, -1), "RIGHT"),
        ("LINEBELOW", (0, -1), (-1, -1), 0.4, GRID),
        ("TOPPADDING", (0, 0), (-1, -1), 1.5),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 1.5),
    ]
    if header:
        commands += [
            ("FONTNAME", (0, 0), (-1, 0), styles.bold),
            ("LINEBELOW", (0, 0), (-1, 0), 0.6, INK),
        ]
    else:
        commands.append(("LINEABOVE", (0, 0), (-1, 0), 0.4, GRID))
    grid.setStyle(TableStyle(commands))
    return grid


def section(heading: str, explanation: str, body: Flowable, styles: Styles) -> KeepTogether:
    """A heading, its one-line explanation and the chart or table, kept on one page."""
    return KeepTogether(
        [
            Paragraph(heading, styles.heading),
            Paragraph(explanation, styles.note),
            Spacer(1, 4),
            body,
        ]
    )
