"""Which preset a PDF asks to be checked against, when ``preflight`` is not told.

First what the file itself declares: its PDF/X version and its PDF/X output intent's
condition (``PDF/X-1a:2003`` for ``FOGRA39`` is ``offset``; for ``CGATS TR 001``,
``drivethrucards``). A file that declares none (a home sheet is RGB and no PDF/X), or
one no preset matches, is known by the name ``render`` gave it: ``kraftstokk-a4.pdf`` is
the A4 sheets preset, ``kraftstokk-printshop.pdf`` the default print-shop preset,
``kraftstokk-NAME.pdf`` and ``kraftstokk-box-NAME.pdf`` the preset NAME (a box with any
card size), each with ``-reprint`` too. Otherwise the default print-shop preset, as
before. Every preset comes from the presets' own data: no list here to keep.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from pathlib import Path

from pypdf.generic import ArrayObject, DictionaryObject

from kraftstokk.design.presets import Preset, load_preset, preset_names
from kraftstokk.errors import InputFileError
from kraftstokk.render.preflight import MAX_PDF_BYTES, UNREADABLE, _open
from kraftstokk.render.preflight.checks import PDFX_INFO
from kraftstokk.render.preflight.paint import resolve
from kraftstokk.render.printshop import DEFAULT_PRESET
from kraftstokk.textfile import read_input_bytes

#: ``kraftstokk-a4.pdf``, ``kraftstokk-box-offset-dieline.pdf``, ``kraftstokk-x-reprint.pdf``.
_RENDERED = re.compile(r"kraftstokk-(?P<box>box-)?(?P<name>.+?)(?:-dieline)?(?:-reprint)?\.pdf")
#: What ``render`` calls the default print-shop file (``kraftstokk-printshop.pdf``).
_PRINTSHOP = "printshop"


@dataclass(frozen=True)
class Detected:
    """The preset to check against, why, and whether the file is a tuck box (whose
    TrimBox is the die's, not a card's)."""

    preset: str
    why: str
    box: bool = False


def declared(path: Path) -> tuple[str | None, str | None, str | None]:
    """The file's GTS_PDFXVersion, GTS_PDFXConformance and the condition identifier of
    its first PDF/X output intent (None where it declares none)."""
    data = read_input_bytes(path, "PDF", MAX_PDF_BYTES)
    if not data[:1024].lstrip().startswith(b"%PDF-"):
        raise InputFileError(path, "not a PDF file (no %PDF- header)")
    logging.getLogger("pypdf").setLevel(logging.CRITICAL)
    reader = _open(path, data)
    try:
        info = resolve(reader.trailer.get("/Info"))
        root = resolve(reader.trailer.get("/Root"))
        info = info if isinstance(info, DictionaryObject) else DictionaryObject()
        root = root if isinstance(root, DictionaryObject) else DictionaryObject()
        version = str(info.get("/GTS_PDFXVersion", "")) or None
        conformance = str(info.get("/GTS_PDFXConformance", "")) or None
        intents = resolve(root.get("/OutputIntents"))
        identifier = None
        for item in intents if isinstance(intents, ArrayObject) else []:
            intent = resolve(item)
            if isinstance(intent, DictionaryObject) and intent.get("/S") == "/GTS_PDFX":
                identifier = str(intent.get("/OutputConditionIdentifier", "")) or None
                break
    except UNREADABLE as exc:
        raise InputFileError(path, f"not a readable PDF ({type(exc).__name__}: {exc})") from None
    return version, conformance, identifier


def _standard(version: str | None, conformance: str | None) -> str | None:
    """The preset's ``pdf_standard`` a file's version and conformance keys name."""
    for standard, (expected, level) in PDFX_INFO.items():
        if version == expected and (level is None or conformance == level):
            return standard
    return None


def detect_preset(path: Path) -> Detected:
    """The preset ``path`` asks for (see the module's description)."""
    version, conformance, identifier = declared(path)
    presets = [load_preset(name) for name in preset_names()]
    named = _RENDERED.fullmatch(path.name)
    box = bool(named and named.group("box"))
    by_name = _by_name(named.group("name"), presets) if named else None
    standard = _standard(version, conformance)
    if standard is not None:
        matching = [
            p
            for p in presets
            if p.pdf_standard == standard and p.output_condition_identifier == identifier
        ]
        if by_name is not None and by_name in matching:
            matching = [by_name]
        if len(matching) == 1:
            return Detected(
                matching[0].name,
                f"the file is {standard} for the printing condition {identifier}",
                box,
            )
    if by_name is not None:
        return Detected(by_name.name, f"the file's name, {path.name}", box)
    said = f" ({standard} for {identifier}: no preset is)" if standard else ""
    return Detected(DEFAULT_PRESET, f"the default: the file names no preset{said}", box)


def _by_name(name: str, presets: list[Preset]) -> Preset | None:
    """The preset a rendered file's name part names: a preset, ``printshop``, or a paper
    (the sheets preset for it)."""
    found = {p.name: p for p in presets}
    if name in found:
        return found[name]
    if name == _PRINTSHOP:
        return found.get(DEFAULT_PRESET)
    sheets = [p for p in presets if p.pages == "sheets" and p.paper == name]
    return sheets[0] if len(sheets) == 1 else None
