"""How deck.csv is written: the separator, decimal mark and true/false words a spreadsheet
expects, so that opening the file changes no figure.

``en`` is the file the project has always written (``,`` between cells, ``.`` decimals,
``true``/``false``), which an English spreadsheet reads as it is. ``nb`` is what a
Norwegian spreadsheet expects (``;`` between cells, decimal commas, ``SANN``/``USANN``):
opened in Excel or LibreOffice set to Norwegian, ``20,5`` stays 20.5, where the ``en``
file's ``20.5`` would become the 20th of May. Both are UTF-8 with a byte-order mark (so
æøå show) and CRLF line ends. ``repair`` writes the style of the file it read.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from kraftstokk.sources.numbers import DecimalMark


@dataclass(frozen=True)
class CsvStyle:
    delimiter: str
    decimal: DecimalMark
    true: str
    false: str

    def describe(self) -> str:
        """``';', decimal comma, SANN/USANN``."""
        name = {",": "','", ";": "';'", "\t": "tab"}.get(self.delimiter, repr(self.delimiter))
        mark = "decimal comma" if self.decimal == "," else "decimal point"
        return f"{name} between cells, {mark}, {self.true}/{self.false}"


CSV_STYLES: dict[str, CsvStyle] = {
    "en": CsvStyle(",", ".", "true", "false"),
    "nb": CsvStyle(";", ",", "SANN", "USANN"),
}
DEFAULT_CSV_STYLE = "en"

#: True/false pairs spreadsheets write; one word found gives the other.
_PAIRS = (
    ("true", "false"),
    ("TRUE", "FALSE"),
    ("True", "False"),
    ("SANN", "USANN"),
    ("Sann", "Usann"),
    ("sann", "usann"),
    ("ja", "nei"),
    ("JA", "NEI"),
    ("yes", "no"),
    ("1", "0"),
    ("WAHR", "FALSCH"),
    ("VRAI", "FAUX"),
)


def flag_words(true_cells: Iterable[str], false_cells: Iterable[str]) -> tuple[str, str] | None:
    """The true and false words a file's flag cells use (the commonest), or None when it
    has none a spreadsheet would write."""
    trues = Counter(cell.strip() for cell in true_cells if cell.strip())
    falses = Counter(cell.strip() for cell in false_cells if cell.strip())
    for pair in sorted(_PAIRS, key=lambda p: -(trues[p[0]] + falses[p[1]])):
        if trues[pair[0]] + falses[pair[1]] > 0:
            return pair
    return None


def style_read(delimiter: str, decimal: DecimalMark, words: tuple[str, str] | None) -> CsvStyle:
    """The style of a deck.csv as read; what it does not show is taken from the named
    style its separator suggests (``;``: nb)."""
    base = CSV_STYLES["nb" if delimiter == ";" else "en"]
    true, false = words or (base.true, base.false)
    return CsvStyle(delimiter, decimal, true, false)
