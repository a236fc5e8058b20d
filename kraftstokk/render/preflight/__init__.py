"""Preflight: check a PDF (ours or anyone's) against a printer preset.

The page content is read the way a RIP reads it: every content stream (and every form
it draws) is interpreted with its graphics state — transformation, colours, line width,
text matrix — so each painted object is seen at its real size, colour and place. From
that come the checks a print shop's preflight makes: page boxes, colour spaces, total ink,
black text in four inks, fonts, text and line sizes, image resolution, transparency and
the PDF/X keys. Total ink is exact for opaque, non-overprinting CMYK paint (a painted
area shows the ink of the last colour painted there, so the page's maximum is the largest
ink of any colour painted); RGB paint has no ink until a profile converts it, and is
reported as RGB instead.
"""

from __future__ import annotations

import logging
from pathlib import Path

from pypdf import PdfReader
from pypdf.errors import PyPdfError

from kraftstokk.design.presets import Preset
from kraftstokk.errors import InputFileError, KraftstokkError
from kraftstokk.render.preflight.checks import (
    PageBoxes,
    box,
    check_black,
    check_boxes,
    check_colour,
    check_fonts,
    check_images,
    check_ink,
    check_lines,
    check_pdfx,
    check_safe,
    check_sheet,
    check_text,
    check_transparency,
)
from kraftstokk.render.preflight.content import PageFacts, PageReader
from kraftstokk.render.preflight.report import CheckResult, Failure, PreflightReport

__all__ = ["CheckResult", "Failure", "PreflightReport", "preflight"]


def preflight(
    path: Path, preset: Preset, trim_mm: tuple[float, float] | None = None
) -> PreflightReport:
    """Check the PDF at ``path`` against ``preset``; ``trim_mm`` is the card size expected."""
    if not path.is_file():
        raise InputFileError(path, "no such file" if not path.exists() else "not a regular file")
    try:
        with path.open("rb") as handle:
            if not handle.read(1024).lstrip().startswith(b"%PDF-"):
                raise InputFileError(path, "not a PDF file (no %PDF- header)")
        logging.getLogger("pypdf").setLevel(logging.CRITICAL)  # its warnings are ours to word
        reader = PdfReader(str(path), strict=False)
        if reader.is_encrypted:
            raise InputFileError(path, "the PDF is encrypted; preflight needs an open file")
        boxes: list[PageBoxes] = []
        facts: list[PageFacts] = []
        for number, page in enumerate(reader.pages, start=1):
            media = box(page, "/MediaBox") or (0.0, 0.0, 0.0, 0.0)
            boxes.append(PageBoxes(media, box(page, "/TrimBox"), box(page, "/BleedBox")))
            facts.append(PageReader(reader, number).read(page))
    except KraftstokkError:
        raise
    except (PyPdfError, ValueError, TypeError, KeyError, AttributeError, RecursionError) as exc:
        raise InputFileError(path, f"not a readable PDF ({type(exc).__name__}: {exc})") from None
    if not boxes:
        raise InputFileError(path, "the PDF has no pages")
    checks = [
        check_boxes(boxes, preset, trim_mm),
        check_colour(facts, preset),
        check_ink(facts, preset),
        check_black(facts, preset),
        check_fonts(facts),
        check_text(facts, preset),
        check_lines(facts, preset),
        check_images(facts, preset),
        check_transparency(facts, preset),
        check_pdfx(reader, preset),
        check_safe(boxes, facts, preset),
        check_sheet(boxes, facts, preset),
    ]
    return PreflightReport(str(path), preset.name, len(boxes), checks)
