"""Workbooks built part by part, for the reader's tests and the attacks on it.

A minimal .xlsx is five XML parts in a ZIP archive; :func:`workbook_bytes` writes them
(any part replaced or added), so each test states exactly the XML it feeds the reader.
:func:`streamed_part` compresses a huge repetitive part chunk by chunk, so a bomb of
hundreds of MB costs the test a fraction of a second and no memory.
"""

from __future__ import annotations

import io
import struct
import zipfile
from collections.abc import Iterable
from pathlib import Path

MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
RELS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
PACKAGE_RELS = "http://schemas.openxmlformats.org/package/2006/relationships"

CONTENT_TYPES = (
    '<?xml version="1.0" encoding="UTF-8"?>'
    '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
    '<Default Extension="rels" '
    'ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
    '<Default Extension="xml" ContentType="application/xml"/></Types>'
)
ROOT_RELS = (
    f'<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="{PACKAGE_RELS}">'
    f'<Relationship Id="rId1" Type="{RELS}/officeDocument" Target="xl/workbook.xml"/>'
    "</Relationships>"
)
WORKBOOK = (
    f'<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="{MAIN}" xmlns:r="{RELS}">'
    '<sheets><sheet name="Ark1" sheetId="1" r:id="rId1"/></sheets></workbook>'
)
WORKBOOK_RELS = (
    f'<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="{PACKAGE_RELS}">'
    f'<Relationship Id="rId1" Type="{RELS}/worksheet" Target="worksheets/sheet1.xml"/>'
    f'<Relationship Id="rId2" Type="{RELS}/sharedStrings" Target="sharedStrings.xml"/>'
    f'<Relationship Id="rId3" Type="{RELS}/styles" Target="styles.xml"/>'
    "</Relationships>"
)
STYLES = (
    f'<?xml version="1.0" encoding="UTF-8"?><styleSheet xmlns="{MAIN}">'
    '<cellXfs count="1"><xf numFmtId="0"/></cellXfs></styleSheet>'
)
STRINGS = f'<?xml version="1.0" encoding="UTF-8"?><sst xmlns="{MAIN}"></sst>'


def sheet_xml(rows: str) -> str:
    """A worksheet whose ``<sheetData>`` holds ``rows`` (``<row>`` elements)."""
    return (
        f'<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="{MAIN}">'
        f"<sheetData>{rows}</sheetData></worksheet>"
    )


def base_parts(sheet: str = "") -> dict[str, str | bytes]:
    return {
        "[Content_Types].xml": CONTENT_TYPES,
        "_rels/.rels": ROOT_RELS,
        "xl/workbook.xml": WORKBOOK,
        "xl/_rels/workbook.xml.rels": WORKBOOK_RELS,
        "xl/styles.xml": STYLES,
        "xl/sharedStrings.xml": STRINGS,
        "xl/worksheets/sheet1.xml": sheet_xml(sheet),
    }


def workbook_bytes(parts: dict[str, str | bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, content in parts.items():
            archive.writestr(name, content.encode("utf-8") if isinstance(content, str) else content)
    return buffer.getvalue()


def write_workbook(path: Path, sheet: str = "", **replaced: str | bytes) -> Path:
    """A workbook at ``path`` with the worksheet ``sheet`` (rows) and parts replaced by
    keyword (``styles``, ``strings``, ``workbook``, ``sheet_xml``: the whole worksheet)."""
    parts = base_parts(sheet)
    names = {
        "styles": "xl/styles.xml",
        "strings": "xl/sharedStrings.xml",
        "workbook": "xl/workbook.xml",
        "sheet_xml": "xl/worksheets/sheet1.xml",
        "workbook_rels": "xl/_rels/workbook.xml.rels",
    }
    for key, content in replaced.items():
        parts[names[key]] = content
    path.write_bytes(workbook_bytes(parts))
    return path


def streamed_part(
    path: Path, name: str, head: bytes, repeated: bytes, times: int, tail: bytes
) -> Path:
    """A workbook whose part ``name`` is ``head + repeated * times + tail``, compressed
    without ever holding it whole (the other parts are the minimal workbook's)."""
    parts = base_parts()
    parts.pop(name, None)
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        for other, content in parts.items():
            archive.writestr(other, content)
        block = repeated * max(1, 65536 // len(repeated))
        blocks, rest = divmod(times, len(block) // len(repeated))
        with archive.open(name, "w", force_zip64=True) as stream:
            stream.write(head)
            for _ in range(blocks):
                stream.write(block)
            stream.write(repeated * rest)
            stream.write(tail)
    return path


def declare_size(path: Path, name: str, size: int) -> Path:
    """Rewrite the unpacked size the archive declares for ``name`` (local header and
    central directory), leaving the data as it is: an archive that lies about a part."""
    data = bytearray(path.read_bytes())
    encoded = name.encode()
    # (signature, offset of the unpacked size, of the name's length, of the name)
    headers = ((b"PK\x03\x04", 22, 26, 30), (b"PK\x01\x02", 24, 28, 46))
    for signature, size_at, length_at, name_at in headers:
        start = 0
        while (at := data.find(signature, start)) >= 0:
            (length,) = struct.unpack_from("<H", data, at + length_at)
            if bytes(data[at + name_at : at + name_at + length]) == encoded:
                struct.pack_into("<I", data, at + size_at, size)
            start = at + 4
    path.write_bytes(bytes(data))
    return path


def rows_xml(rows: Iterable[Iterable[str]]) -> str:
    """``<row>`` elements of inline-string cells."""
    return "".join(
        f'<row r="{n}">'
        + "".join(f'<c t="inlineStr"><is><t>{cell}</t></is></c>' for cell in row)
        + "</row>"
        for n, row in enumerate(rows, start=1)
    )
