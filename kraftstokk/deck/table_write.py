"""Writing the deck as a table: deck.csv in a spreadsheet's style, and deck.xlsx.

deck.csv holds text that a spreadsheet interprets when it opens the file; deck.xlsx
holds typed cells that it shows as they are: figures as numbers with a format that shows
every decimal they have, nr. and values as whole numbers, flags as true/false, names and
ids as text (a name that looks like a formula is a text cell, never a formula). Opening
the workbook converts nothing, whatever the spreadsheet's language.
"""

from __future__ import annotations

import csv
import io
from decimal import Decimal
from typing import TYPE_CHECKING

from kraftstokk.deck.columns import (
    CSV_COLUMNS,
    DECIMAL_COLUMNS,
    FLAG_COLUMNS,
    TEXT_COLUMNS,
    WHOLE_COLUMNS,
    column_letters,
)
from kraftstokk.deck.csv_style import CSV_STYLES, DEFAULT_CSV_STYLE, CsvStyle
from kraftstokk.deck.spreadsheet import FORMULA_STARTS, guard_formula
from kraftstokk.models import CATEGORIES, Card, Deck
from kraftstokk.workbook import cell_text
from kraftstokk.workbook.writer import workbook_bytes

if TYPE_CHECKING:
    from openpyxl.worksheet.worksheet import Worksheet

Value = str | int | float | bool | None


def card_values(card: Card, build: str | None = None) -> dict[str, Value]:
    """The card as one typed value per deck column (None: an empty cell); ``build`` is
    the deck's build id, on every row."""
    values: dict[str, Value] = {
        "build": build,
        "id": card.id,
        "joker": card.joker,
        "suit": card.suit,
        "value": card.value,
        "plant_id": card.plant_id,
        "name": card.name,
        "lat": card.lat,
        "lon": card.lon,
        "type": card.type,
        "burn": card.flags.burn,
        "reset": card.flags.reset,
        "gwh_tens": card.flags.gwh_tens,
        "war_partners": " ".join(card.flags.war_partners),
    }
    for category in CATEGORIES:
        values[category] = getattr(card, category)
        values[f"nr_{category}"] = card.nr.get(category) if card.nr else None
        values[f"invisible_{category}"] = card.flags.invisible.get(category)
        values[f"top3_{category}"] = card.flags.top3.get(category)
    return values


def card_row(card: Card, style: CsvStyle | None = None, build: str | None = None) -> dict[str, str]:
    """The card as deck.csv cells in ``style`` (default ``en``)."""
    style = style or CSV_STYLES[DEFAULT_CSV_STYLE]
    row: dict[str, str] = {}
    for column, value in card_values(card, build).items():
        if column in FLAG_COLUMNS:
            row[column] = style.true if value else style.false
        elif column in TEXT_COLUMNS:
            row[column] = guard_formula(str(value or ""))
        else:
            row[column] = cell_text(value, style.decimal)
    return row


def deck_csv_text(deck: Deck, style: CsvStyle | None = None) -> str:
    """deck.csv: a byte-order mark, the header, one row per card, CRLF line ends."""
    style = style or CSV_STYLES[DEFAULT_CSV_STYLE]
    buffer = io.StringIO()
    writer = csv.DictWriter(
        buffer, fieldnames=CSV_COLUMNS, delimiter=style.delimiter, lineterminator="\r\n"
    )
    writer.writeheader()
    for card in deck.cards:
        writer.writerow(card_row(card, style, deck.build))
    return "\ufeff" + buffer.getvalue()


# --- deck.xlsx ---------------------------------------------------------------------------

#: Whole numbers, and text (a text-formatted cell keeps what is typed into it as text).
WHOLE_FORMAT = "0"
TEXT_FORMAT = "@"
#: The format LibreOffice gives true/false cells (without one it shows them as 1 and 0;
#: Excel shows true/false cells as such whatever their format).
FLAG_FORMAT = '"TRUE";"TRUE";"FALSE"'
#: Decimals shown at most; figures and places have far fewer.
MAX_DECIMALS = 10
SHEET_TITLE = "deck"


def _decimals(value: float) -> int:
    exponent = Decimal(repr(value)).normalize().as_tuple().exponent
    return min(MAX_DECIMALS, -exponent) if isinstance(exponent, int) and exponent < 0 else 0


def decimal_format(values: list[float], grouped: bool) -> str:
    """A format that shows every decimal of every value and at least one (``#,##0.0##``):
    exported "as shown" to CSV, no figure loses a digit, and none reads like a lone
    thousands group (``1,234`` could be either; ``1,234.0`` cannot)."""
    places = max([1, *(_decimals(value) for value in values)])
    whole = "#,##0" if grouped else "0"
    return f"{whole}.0{'#' * (places - 1)}"


def _column_formats(deck: Deck) -> dict[str, str]:
    formats = {column: TEXT_FORMAT for column in TEXT_COLUMNS}
    formats.update({column: WHOLE_FORMAT for column in WHOLE_COLUMNS})
    formats.update({column: FLAG_FORMAT for column in FLAG_COLUMNS})
    for column in DECIMAL_COLUMNS:
        values = [v for card in deck.cards if isinstance(v := card_values(card)[column], float)]
        formats[column] = decimal_format(values, grouped=column in CATEGORIES)
    return formats


def _shown_width(column: str, value: Value) -> int:
    """About how many characters the cell shows (numbers gain grouping and a decimal)."""
    if column in FLAG_COLUMNS:
        return len("FALSE")
    if isinstance(value, float):
        return len(cell_text(value)) + 3
    return len(cell_text(value))


def _fill(sheet: Worksheet, deck: Deck) -> None:
    from openpyxl.styles import Font

    formats = _column_formats(deck)
    widths = {column: len(column) for column in CSV_COLUMNS}
    bold = Font(name="Calibri", size=11, bold=True)  # openpyxl's default font, in bold
    for index, column in enumerate(CSV_COLUMNS, start=1):
        header = sheet.cell(row=1, column=index, value=column)
        header.data_type, header.number_format, header.font = "s", TEXT_FORMAT, bold
    for row, card in enumerate(deck.cards, start=2):
        values = card_values(card, deck.build)
        for index, column in enumerate(CSV_COLUMNS, start=1):
            value = values[column]
            cell = sheet.cell(row=row, column=index)
            if column in FLAG_COLUMNS:
                cell.value = bool(value)
            elif value is not None and value != "":
                cell.value = value
                if column in TEXT_COLUMNS:
                    cell.data_type = "s"  # never a formula, whatever the text starts with
                    cell.quotePrefix = str(value).startswith(FORMULA_STARTS)
            if column in formats:
                cell.number_format = formats[column]
            widths[column] = max(widths[column], _shown_width(column, value))
    for index, column in enumerate(CSV_COLUMNS, start=1):
        sheet.column_dimensions[column_letters(index - 1)].width = min(40, widths[column] + 2)
    sheet.freeze_panes = "A2"
    sheet.auto_filter.ref = f"A1:{column_letters(len(CSV_COLUMNS) - 1)}{len(deck.cards) + 1}"


def deck_xlsx_bytes(deck: Deck) -> bytes:
    """deck.xlsx: the columns of deck.csv as typed, formatted cells on one sheet."""
    from openpyxl import Workbook

    workbook = Workbook()
    sheet = workbook.active
    assert sheet is not None
    sheet.title = SHEET_TITLE
    _fill(sheet, deck)
    return workbook_bytes(workbook)
