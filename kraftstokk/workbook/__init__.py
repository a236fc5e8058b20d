"""Excel workbooks (.xlsx): the one bounded reader, and deterministic writing."""

from kraftstokk.workbook.cells import Cell, DateValue, ErrorValue, NoValue, Row, cell_text
from kraftstokk.workbook.limits import WorkbookLimits
from kraftstokk.workbook.reader import Sheet, chosen_sheet, first_sheet, read_sheets

__all__ = [
    "Cell",
    "DateValue",
    "ErrorValue",
    "NoValue",
    "Row",
    "Sheet",
    "WorkbookLimits",
    "cell_text",
    "chosen_sheet",
    "first_sheet",
    "read_sheets",
]
