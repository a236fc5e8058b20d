"""PDF/X keys reportlab cannot set, added afterwards with pypdf (byte-reproducibly).

PDF/X-1a:2003 (ISO 15930-4) asks for: ``GTS_PDFXVersion`` "PDF/X-1:2003" and
``GTS_PDFXConformance`` "PDF/X-1a:2003" in the document information, ``Trapped`` True or
False, a title, creation and modification dates, a file identifier, PDF 1.4 or earlier,
and one ``/GTS_PDFX`` OutputIntent naming the printing condition. The drawing side (CMYK
or grey only, fonts embedded, no transparency, TrimBox and BleedBox on every page) is
reportlab's with a CMYK canvas; ``kraftstokk preflight`` checks both.

The OutputIntent names a registered characterization (FOGRA39, CGATS TR 001) by its
identifier in the ICC registry (RegistryName http://www.color.org), which PDF/X-1a
allows in place of an embedded profile, so an X-1a file embeds none.

PDF/X-4 (ISO 15930-7), for shops that ask for it: ``GTS_PDFXVersion`` "PDF/X-4" in the
document information and in XMP metadata (``pdfxid:GTS_PDFXVersion``, with the dates,
title, trapping and the xmpMM document, version and rendition keys), PDF 1.6, and the
OutputIntent embedding the CMYK output profile the preset names (``DestOutputProfile``;
found by :mod:`kraftstokk.render.profiles`, as the project ships none).
"""

from __future__ import annotations

import hashlib
import io
from xml.sax.saxutils import escape

from pypdf import PdfReader, PdfWriter
from pypdf.generic import (
    ArrayObject,
    DictionaryObject,
    NameObject,
    NumberObject,
    StreamObject,
    TextStringObject,
)

from kraftstokk.design.presets import Preset
from kraftstokk.errors import RenderError
from kraftstokk.render.profiles import read_output_profile

#: The Info-dictionary keys per standard: (GTS_PDFXVersion, GTS_PDFXConformance).
PDFX_KEYS: dict[str, tuple[str, str | None]] = {
    "PDF/X-1a:2003": ("PDF/X-1:2003", "PDF/X-1a:2003"),
    "PDF/X-4": ("PDF/X-4", None),
}
#: The PDF version each standard's files are written as.
PDF_VERSIONS = {"PDF/X-1a:2003": "1.4", "PDF/X-4": "1.6"}


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
    if preset.pdf_standard == "PDF/X-4":
        profile = StreamObject()
        profile.set_data(read_output_profile(preset))
        profile[NameObject("/N")] = NumberObject(4)
        profile.flate_encode()
        intent[NameObject("/DestOutputProfile")] = writer._add_object(profile)
        _add_xmp(writer, title, version)
    writer._root_object[NameObject("/OutputIntents")] = ArrayObject([writer._add_object(intent)])
    writer.pdf_header = f"%PDF-{PDF_VERSIONS[preset.pdf_standard]}".encode()
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def _xmp_date(pdf_date: str) -> str:
    """D:20000101000000+00'00' as 2000-01-01T00:00:00+00:00."""
    digits = pdf_date.removeprefix("D:")
    zone = digits[14:].replace("'", "")
    if zone in ("", "Z"):
        zone = "+0000"
    zone = zone if zone[0] in "+-" else "+0000"
    return (
        f"{digits[0:4]}-{digits[4:6]}-{digits[6:8]}T{digits[8:10]}:{digits[10:12]}:"
        f"{digits[12:14]}{zone[:3]}:{zone[3:5] or '00'}"
    )


def _add_xmp(writer: PdfWriter, title: str, version: str) -> None:
    """The XMP metadata PDF/X-4 asks for, agreeing with the document information."""
    found = writer._info.get_object() if writer._info is not None else None
    info = found if isinstance(found, DictionaryObject) else DictionaryObject()
    created = _xmp_date(str(info.get("/CreationDate", "D:20000101000000Z")))
    modified = _xmp_date(str(info.get("/ModDate", "D:20000101000000Z")))
    digest = hashlib.md5(f"{title}|{created}".encode(), usedforsecurity=False).hexdigest()
    packet = f"""<?xpacket begin="\ufeff" id="W5M0MpCehiHzreSzNTczkc9d"?>
<x:xmpmeta xmlns:x="adobe:ns:meta/">
 <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
  <rdf:Description rdf:about=""
    xmlns:dc="http://purl.org/dc/elements/1.1/"
    xmlns:xmp="http://ns.adobe.com/xap/1.0/"
    xmlns:pdf="http://ns.adobe.com/pdf/1.3/"
    xmlns:xmpMM="http://ns.adobe.com/xap/1.0/mm/"
    xmlns:pdfxid="http://www.npes.org/pdfx/ns/id/">
   <dc:title><rdf:Alt><rdf:li xml:lang="x-default">{escape(title)}</rdf:li></rdf:Alt></dc:title>
   <dc:format>application/pdf</dc:format>
   <xmp:CreateDate>{created}</xmp:CreateDate>
   <xmp:ModifyDate>{modified}</xmp:ModifyDate>
   <xmp:MetadataDate>{modified}</xmp:MetadataDate>
   <xmp:CreatorTool>kraftstokk</xmp:CreatorTool>
   <pdf:Producer>{escape(str(info.get("/Producer", "kraftstokk")))}</pdf:Producer>
   <pdf:Trapped>False</pdf:Trapped>
   <xmpMM:DocumentID>uuid:{_uuid(digest)}</xmpMM:DocumentID>
   <xmpMM:InstanceID>uuid:{_uuid(digest)}</xmpMM:InstanceID>
   <xmpMM:VersionID>1</xmpMM:VersionID>
   <xmpMM:RenditionClass>default</xmpMM:RenditionClass>
   <pdfxid:GTS_PDFXVersion>{version}</pdfxid:GTS_PDFXVersion>
  </rdf:Description>
 </rdf:RDF>
</x:xmpmeta>
<?xpacket end="w"?>"""
    metadata = StreamObject()
    metadata.set_data(packet.encode("utf-8"))
    metadata[NameObject("/Type")] = NameObject("/Metadata")
    metadata[NameObject("/Subtype")] = NameObject("/XML")
    writer._root_object[NameObject("/Metadata")] = writer._add_object(metadata)


def _uuid(digest: str) -> str:
    return f"{digest[:8]}-{digest[8:12]}-{digest[12:16]}-{digest[16:20]}-{digest[20:32]}"
