"""What a workbook may unpack to and hold before it is refused, per kind of reader."""

from __future__ import annotations

from dataclasses import dataclass

MB = 1024 * 1024


@dataclass(frozen=True)
class WorkbookLimits:
    """Bounds checked while a workbook is read, each before the memory it would take.

    The defaults fit NVE's whole register (1 700 rows of about 30 cells) many times over;
    the per-cell, per-format and per-style bounds are Excel's own, so no workbook a
    spreadsheet saved is refused by them.
    """

    #: Sum of the parts' unpacked sizes (a small file that unpacks to gigabytes is a bomb).
    unpacked_bytes: int = 32 * MB
    #: Parts in the archive.
    parts: int = 10_000
    #: Rows of one worksheet (the highest row number counts, not only the rows present).
    rows: int = 100_000
    #: Cells of one worksheet, empty ones included (NVE's register has about 55 000).
    cells: int = 500_000
    #: Cells right of this column are not read (Excel's last column, XFD, is 16 384).
    columns: int = 16_384
    #: Characters in one cell or shared string: Excel's own limit.
    cell_chars: int = 32_767
    #: Cell formats (``<xf>`` in ``cellXfs``): Excel's own limit.
    cell_formats: int = 65_490
    #: Number formats (``<numFmt>``) and the length of one format code (Excel: 255).
    number_formats: int = 1_000
    format_chars: int = 255
    #: Elements of the styles part: fonts, fills, borders and formats (65 490 cell formats
    #: with their alignment and protection take about 200 000).
    style_elements: int = 500_000
    #: Elements nested inside each other; a worksheet needs six.
    depth: int = 64
    #: Said after the rows bound, for the reader's kind of table (``"a deck has 56"``).
    rows_hint: str = ""

    @property
    def shared_strings(self) -> int:
        """More distinct strings than a sheet has cells cannot all be used."""
        return self.cells
