"""PDF/X keys reportlab cannot set, added afterwards with pypdf (byte-reproducibly).

PDF/X-1a:2003 (ISO 15930-4) asks for: ``GTS_PDFXVersion`` "PDF/X-1:2003" and
``GTS_PDFXConformance`` "PDF/X-1a:2003" in the document information, ``Trapped`` True or
False, a title, creation and modification dates, a file identifier, PDF 1.4 or earlier,
and one ``/GTS_PDFX`` OutputIntent naming the printing condition. The drawing side (CMYK
or grey only, fonts embedded, no transparency, TrimBox and BleedBox on every page) is
reportlab's with a CMYK canvas; ``kraftstokk preflight`` checks both.

The OutputIntent names a registered characterization (FOGRA39, CGATS TR 001) by its
identifier in the ICC registry (RegistryName http://www.color.org), which PDF/X-1a
allows in place of an embedded profile. No ICC profile is embedded: the registry's
profiles (e.g. ISO Coated v2, US Web Coated SWOP v2) come with licences that do not let
this project redistribute them inside the package, and the printer's RIP holds them.
"""

from __future__ import annotations

import io

from pypdf import PdfReader, PdfWriter
from pypdf.generic import ArrayObject, DictionaryObject, NameObject, TextStringObject

from kraftstokk.design.presets import Preset
from kraftstokk.errors import RenderError

#: The Info-dictionary keys per standard: (GTS_PDFXVersion, GTS_PDFXConformance).
PDFX_KEYS: dict[str, tuple[str, str | None]] = {
    "PDF/X-1a:2003": ("PDF/X-1:2003", "PDF/X-1a:2003"),
}


def make_pdfx(pdf: bytes, preset: Preset, title: str) -> bytes:
    """``pdf`` with the PDF/X keys and OutputIntent of ``preset``'s standard."""
    if preset.pdf_standard not in PDFX_KEYS:
        raise RenderError(
            f"preset {preset.name}: writing {preset.pdf_standard} is not supported "
            f"(kraftstokk writes {', '.join(PDFX_KEYS)})"
        )
    if not preset.output_condition_identifier:
        raise RenderError(f"preset {preset.name}: a PDF/X file needs output_condition_identifier")
    version, conformance = PDFX_KEYS[preset.pdf_standard]
    reader = PdfReader(io.BytesIO(pdf))
    writer = PdfWriter(clone_from=reader)
    info: dict[str, str] = {
        "/Title": title,
        "/GTS_PDFXVersion": version,
        "/Trapped": "/False",
    }
    if conformance:
        info["/GTS_PDFXConformance"] = conformance
    writer.add_metadata(info)
    # add_metadata writes strings; Trapped is a name.
    metadata = writer._info.get_object() if writer._info is not None else None
    if isinstance(metadata, DictionaryObject):
        metadata[NameObject("/Trapped")] = NameObject("/False")
    intent = DictionaryObject(
        {
            NameObject("/Type"): NameObject("/OutputIntent"),
            NameObject("/S"): NameObject("/GTS_PDFX"),
            NameObject("/OutputConditionIdentifier"): TextStringObject(
                preset.output_condition_identifier
            ),
            NameObject("/OutputCondition"): TextStringObject(preset.output_condition or ""),
            NameObject("/RegistryName"): TextStringObject(preset.registry_name),
            NameObject("/Info"): TextStringObject(
                preset.output_condition or preset.output_condition_identifier
            ),
        }
    )
    writer._root_object[NameObject("/OutputIntents")] = ArrayObject([writer._add_object(intent)])
    writer.pdf_header = b"%PDF-1.4"
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()
