"""The simulation report as one self-contained HTML file (``simulate --html``).

The HTML is the PDF's story (:func:`kraftstokk.sim.report.report_story`) written for a
screen: each paragraph in its style, each table as a table, and each chart as the same
drawing rendered to inline SVG. Nothing is fetched: the styles are in the file, the
charts are in the page, and there is no script, so the file reads offline, in any
browser, and prints. Written atomically; the same summary gives the same bytes.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from typing import Any
from xml.sax.saxutils import escape

from reportlab.graphics import renderSVG
from reportlab.graphics.shapes import Drawing
from reportlab.platypus import Flowable, KeepTogether, PageBreak, Paragraph, Spacer, Table

from kraftstokk.atomic import write_text
from kraftstokk.sim.compare import Comparison
from kraftstokk.sim.report import report_story
from kraftstokk.sim.verdict import game_title

STYLE = """
body { font-family: "DejaVu Sans", "Segoe UI", Arial, sans-serif; color: #222;
  max-width: 52rem; margin: 2rem auto; padding: 0 1rem; line-height: 1.45; }
h1 { font-size: 1.6rem; margin: 2.2rem 0 0.4rem; }
h2 { font-size: 1.15rem; margin: 1.6rem 0 0.3rem; }
p { margin: 0.35rem 0; }
h3 { font-size: 1rem; margin: 1rem 0 0.2rem; }
p.note { color: #555; font-size: 0.9rem; }
p.lead { font-size: 1.05rem; }
table { border-collapse: collapse; margin: 0.4rem 0; font-size: 0.92rem; }
td, th { padding: 0.2rem 0.6rem 0.2rem 0; vertical-align: top; text-align: left;
  border-bottom: 1px solid #ddd; }
th { border-bottom: 1px solid #222; }
figure { margin: 0.6rem 0; }
figure svg { width: 100%; height: auto; }
svg text { font-family: "DejaVu Sans", "Segoe UI", Arial, sans-serif; }
hr { border: 0; border-top: 1px solid #bbb; margin: 2.4rem 0; }
@media (max-width: 40rem) {
  body { margin: 1rem auto; padding: 0 0.6rem; }
  table { display: block; overflow-x: auto; }
}
code, .mono { font-family: "DejaVu Sans Mono", Consolas, monospace; font-size: 0.85rem; }
"""

_TAGS = {"title": "h1", "heading": "h2", "subheading": "h3"}
_CLASSES = {"note": "note", "lead": "lead"}
_FONT = re.compile(r"<font face=['\"]Courier['\"][^>]*>(.*?)</font>", re.S)
_OTHER_FONT = re.compile(r"</?font[^>]*>")
_SVG_FONT = re.compile(r"font-family: ([\w-]*);")


def _paragraph(paragraph: Paragraph) -> str:
    """A reportlab paragraph's markup (``<b>``, ``<i>``, ``<br/>``, ``<font>``) as HTML."""
    text = _FONT.sub(r"<code>\1</code>", paragraph.text)
    text = _OTHER_FONT.sub("", text).replace("<br/>", "<br>")
    style = paragraph.style.name
    tag = _TAGS.get(style, "p")
    css = f' class="{_CLASSES[style]}"' if style in _CLASSES else ""
    return f"<{tag}{css}>{text}</{tag}>"


def _svg(drawing: Drawing) -> str:
    """A drawing as inline SVG, its text in the page's fonts (the PDF's embedded font
    names mean nothing to a browser, which would fall back to a serif)."""
    text = renderSVG.drawToString(drawing)
    start = text.index("<svg")
    text = _SVG_FONT.sub(
        lambda found: (
            "font-family: inherit;" + (" font-weight: bold;" if "Bold" in found[1] else "")
        ),
        text[start:],
    )
    return f"<figure>{text}</figure>"


def _cell(value: Any) -> str:
    if isinstance(value, Flowable):
        return "".join(_html(value))
    if isinstance(value, list | tuple):
        return "".join(_cell(item) for item in value)
    return escape(str(value))


def _table(grid: Table) -> str:
    rows = grid._cellvalues  # reportlab keeps a table's cells here; there is no accessor
    header = any(
        command[0] == "LINEBELOW" and command[1] == (0, 0) and command[2] == (-1, 0)
        for command in getattr(grid, "_linecmds", [])
    )
    lines = ["<table>"]
    for number, row in enumerate(rows):
        tag = "th" if header and number == 0 else "td"
        lines.append("<tr>" + "".join(f"<{tag}>{_cell(c)}</{tag}>" for c in row) + "</tr>")
    lines.append("</table>")
    return "\n".join(lines)


def _html(flowable: Flowable) -> Iterable[str]:
    if isinstance(flowable, Paragraph):
        yield _paragraph(flowable)
    elif isinstance(flowable, Drawing):
        yield _svg(flowable)
    elif isinstance(flowable, Table):
        yield _table(flowable)
    elif isinstance(flowable, KeepTogether):
        for part in flowable._content:
            yield from _html(part)
    elif isinstance(flowable, PageBreak):
        yield "<hr>"
    elif isinstance(flowable, Spacer):
        return
    else:  # a flowable this writer does not know: say so rather than lose it silently
        yield f'<p class="note">({escape(type(flowable).__name__)} not shown here)</p>'


def report_html(
    summary: dict[str, Any],
    comparison: Comparison | None = None,
    other: dict[str, Any] | None = None,
    verdict: str = "",
) -> str:
    """The whole report as an HTML document."""
    story = report_story(summary, comparison, other, verdict)
    title = escape(f"Kraft-stokken simulation: {game_title(summary['game'])}")
    body = "\n".join(part for flowable in story for part in _html(flowable))
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{title}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n"
        f"{body}\n</body>\n</html>\n"
    )


def write_html(
    path: str | os.PathLike[str],
    summary: dict[str, Any],
    comparison: Comparison | None = None,
    other: dict[str, Any] | None = None,
    verdict: str = "",
) -> None:
    """Write the report as a self-contained HTML file, atomically."""
    write_text(path, report_html(summary, comparison, other, verdict))
