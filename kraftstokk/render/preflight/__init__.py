"""Preflight: check a PDF (ours or anyone's) against a printer preset.

The page content is read the way a RIP reads it: every content stream (and every form
it draws) is interpreted with its graphics state — transformation, colours, line width,
text matrix — so each painted object is seen at its real size, colour and place. From
that come the checks a print shop's preflight makes: page boxes, colour spaces, total ink,
black text in four inks, fonts, text and line sizes, image resolution, transparency and
the PDF/X keys. Total ink is exact for opaque, non-overprinting CMYK paint (a painted
area shows the ink of the last colour painted there, so the page's maximum is the largest
ink of any colour painted); RGB paint has no ink until a profile converts it, and is
reported as RGB instead. The work one file may ask for is bounded (:mod:`budget`).
"""

from __future__ import annotations

import io
import logging
import zlib
from pathlib import Path

from pypdf import PdfReader
from pypdf.errors import DependencyError, PyPdfError
from pypdf.generic import ArrayObject, DictionaryObject

from kraftstokk.design.presets import Preset
from kraftstokk.errors import InputFileError, KraftstokkError
from kraftstokk.render.preflight.budget import WorkBudget
from kraftstokk.render.preflight.checks import (
    PageBoxes,
    box,
    check_annotations,
    check_black,
    check_boxes,
    check_colour,
    check_fonts,
    check_images,
    check_ink,
    check_lines,
    check_overprint,
    check_pdfx,
    check_register,
    check_safe,
    check_sheet,
    check_subset_tags,
    check_text,
    check_transparency,
)
from kraftstokk.render.preflight.content import PageReader, number
from kraftstokk.render.preflight.marks import PageFacts
from kraftstokk.render.preflight.paint import resolve
from kraftstokk.render.preflight.report import CheckResult, Failure, PreflightReport
from kraftstokk.render.preflight.space import BBox
from kraftstokk.textfile import MB, read_input_bytes

__all__ = ["CheckResult", "Failure", "PreflightReport", "WorkBudget", "preflight"]

#: The largest PDF read: a deck's print files are a few MB, a booklet with photographs
#: some tens; the file is held in memory while it is checked.
MAX_PDF_BYTES = 256 * MB
#: What the file's own errors are (pypdf's, and the decoders' it calls), as one line.
UNREADABLE = (
    PyPdfError,
    ValueError,
    TypeError,
    KeyError,
    AttributeError,
    IndexError,
    OverflowError,
    NotImplementedError,
    RecursionError,
    zlib.error,
)


def preflight(
    path: Path,
    preset: Preset,
    trim_mm: tuple[float, float] | None = None,
    budget: WorkBudget | None = None,
) -> PreflightReport:
    """Check the PDF at ``path`` against ``preset``; ``trim_mm`` is the card size expected.

    ``budget`` bounds the work (default: :class:`WorkBudget`'s limits); a file that needs
    more, is encrypted or cannot be read is an InputFileError naming it and the reason.
    """
    budget = budget or WorkBudget()
    budget.start()
    data = read_input_bytes(path, "PDF", MAX_PDF_BYTES)
    if not data[:1024].lstrip().startswith(b"%PDF-"):
        raise InputFileError(path, "not a PDF file (no %PDF- header)")
    logging.getLogger("pypdf").setLevel(logging.CRITICAL)  # its warnings are ours to word
    number = 0
    reader = _open(path, data)
    try:
        boxes: list[PageBoxes] = []
        facts: list[PageFacts] = []
        annotations: list[tuple[int, str, PageBoxes, BBox]] = []
        pages = PageReader(reader, budget)
        budget.pages(len(reader.pages))
        for number, page in enumerate(reader.pages, start=1):
            media = box(page, "/MediaBox") or (0.0, 0.0, 0.0, 0.0)
            boxes.append(PageBoxes(media, box(page, "/TrimBox"), box(page, "/BleedBox")))
            facts.append(pages.read(page, number))
            room = MAX_ANNOTATIONS - len(annotations)
            annotations.extend(
                (number, subtype, boxes[-1], rect) for subtype, rect in page_annotations(page, room)
            )
    except KraftstokkError as exc:
        where = f"page {number}: " if number else ""
        raise InputFileError(path, f"{where}{exc.message}") from None
    except UNREADABLE as exc:
        where = f"page {number}: " if number else ""
        raise InputFileError(
            path, f"{where}not a readable PDF ({type(exc).__name__}: {exc})"
        ) from None
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
        check_register(facts, preset),
        check_overprint(facts, preset),
        check_annotations(annotations),
        check_subset_tags(facts),
    ]
    return PreflightReport(str(path), preset.name, len(boxes), checks)


#: A file lists at most this many annotations (all pages) before it counts as unreadable.
MAX_ANNOTATIONS = 100_000


def page_annotations(page: DictionaryObject, room: int) -> list[tuple[str, BBox]]:
    """Each annotation's subtype and rectangle (one without a readable Rect is skipped);
    more than ``room`` of them is a ValueError (the file's annotations are bounded)."""
    listed = resolve(page.get("/Annots"))
    if not isinstance(listed, ArrayObject):
        return []
    if len(listed) > room:
        raise ValueError(f"more than {MAX_ANNOTATIONS} annotations in the file")
    found: list[tuple[str, BBox]] = []
    for item in listed:
        annotation = resolve(item)
        if not isinstance(annotation, DictionaryObject):
            continue
        rect = resolve(annotation.get("/Rect"))
        if not isinstance(rect, ArrayObject) or len(rect) != 4:
            continue
        x0, y0, x1, y1 = (number(value) for value in rect)
        subtype = resolve(annotation.get("/Subtype"))
        found.append((str(subtype), (min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1))))
    return found


def _open(path: Path, data: bytes) -> PdfReader:
    """The file read by pypdf; an encrypted one is refused, saying with what."""
    try:
        reader = PdfReader(io.BytesIO(data), strict=False)
    except DependencyError:  # pypdf tries the empty password, and AES needs a library
        raise InputFileError(path, _ENCRYPTED.format(how="AES")) from None
    except UNREADABLE as exc:
        raise InputFileError(path, f"not a readable PDF ({type(exc).__name__}: {exc})") from None
    if reader.is_encrypted:
        encrypt = resolve(reader.trailer.get("/Encrypt"))
        how = _encryption(encrypt) if isinstance(encrypt, DictionaryObject) else "unknown"
        raise InputFileError(path, _ENCRYPTED.format(how=how))
    return reader


_ENCRYPTED = (
    "the PDF is encrypted ({how}); print shops and PDF/X take no encrypted files and "
    "preflight reads none: save it without a password or restrictions "
    "(e.g. qpdf --decrypt IN.pdf OUT.pdf)"
)


def _encryption(encrypt: DictionaryObject) -> str:
    """The cipher an /Encrypt dictionary names, in words: "RC4, 40-bit", "AES-256"."""
    version = resolve(encrypt.get("/V", 0))
    if encrypt.get("/Filter") != "/Standard":
        return f"security handler {encrypt.get('/Filter')}"
    if version in (4, 5):
        filters = resolve(encrypt.get("/CF"))
        method = None
        if isinstance(filters, DictionaryObject):
            standard = resolve(filters.get(encrypt.get("/StmF", "/StdCF")))
            if isinstance(standard, DictionaryObject):
                method = standard.get("/CFM")
        named = {"/AESV2": "AES-128", "/AESV3": "AES-256", "/V2": "RC4, 128-bit"}
        return named.get(str(method), "AES-256" if version == 5 else "unknown cipher")
    length = resolve(encrypt.get("/Length", 40))
    bits = length if isinstance(length, int) and version in (2, 3) else 40
    return f"RC4, {bits}-bit"
