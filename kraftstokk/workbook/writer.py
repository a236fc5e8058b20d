"""A workbook's bytes, the same for the same content on every run.

openpyxl stamps the time of saving into the document properties and into every ZIP
entry; here both are fixed, so a workbook written twice from one deck is one file, byte
for byte, like the project's PDFs.
"""

from __future__ import annotations

import io
import zipfile
from datetime import datetime
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from openpyxl import Workbook

#: The timestamp of every entry and of the document properties (ZIP's earliest date).
FIXED_TIME = datetime(1980, 1, 1)


def workbook_bytes(workbook: Workbook) -> bytes:
    """The .xlsx file of ``workbook`` with no time of writing in it."""
    from openpyxl.writer.excel import ExcelWriter

    workbook.properties.created = FIXED_TIME
    workbook.properties.modified = FIXED_TIME
    written = io.BytesIO()
    with zipfile.ZipFile(written, "w", zipfile.ZIP_DEFLATED) as archive:
        ExcelWriter(workbook, archive).write_data()
    fixed = io.BytesIO()
    with (
        zipfile.ZipFile(io.BytesIO(written.getvalue())) as source,
        zipfile.ZipFile(fixed, "w", zipfile.ZIP_DEFLATED) as target,
    ):
        for info in source.infolist():
            entry = zipfile.ZipInfo(info.filename, date_time=FIXED_TIME.timetuple()[:6])
            entry.compress_type = zipfile.ZIP_DEFLATED
            entry.external_attr = 0o644 << 16
            target.writestr(entry, source.read(info))
    return fixed.getvalue()
