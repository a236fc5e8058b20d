"""The bounded workbook reader: what it reads from the XML a spreadsheet writes."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import pytest
from openpyxl import Workbook

from kraftstokk.errors import InputFileError
from kraftstokk.workbook import DateValue, ErrorValue, NoValue, WorkbookLimits, first_sheet
from kraftstokk.workbook.cells import format_shows, moment_of
from kraftstokk.workbook.reader import read_sheets
from kraftstokk.workbook.writer import workbook_bytes as fixed_bytes
from tests.workbook_parts import MAIN, write_workbook

LIMITS = WorkbookLimits()


def read(path: Path, limits: WorkbookLimits = LIMITS):
    return first_sheet(path, path.read_bytes(), limits)


def test_cells_of_every_kind(tmp_path: Path):
    strings = (
        f'<sst xmlns="{MAIN}"><si><t>Tonstad</t></si>'
        "<si><r><t>Nedre </t></r><r><rPr><b/></rPr><t>Røssåga</t></r>"
        "<rPh><t>fonetisk</t></rPh></si></sst>"
    )
    rows = (
        '<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c>'
        '<c r="C1" t="inlineStr"><is><t xml:space="preserve"> 960 </t></is></c>'
        '<c r="E1"><v>4357.37</v></c><c r="F1" t="n"><v>12</v></c></row>'
        '<row r="3"><c r="A3" t="b"><v>1</v></c><c r="B3" t="b"><v>0</v></c>'
        '<c r="C3" t="e"><v>#DIV/0!</v></c><c r="D3"><f>A1*2</f></c>'
        '<c r="E3" t="str"><f>"x"&amp;"y"</f><v>xy</v></c><c r="F3"><f>1+1</f><v>2</v></c></row>'
        '<row r="4"><c r="A4"/></row>'
    )
    sheet = read(write_workbook(tmp_path / "a.xlsx", rows, strings=strings))
    assert sheet.name == "Ark1"
    assert sheet.rows == [
        (1, ("Tonstad", "Nedre Røssåga", " 960 ", None, 4357.37, 12)),
        (3, (True, False, ErrorValue("#DIV/0!"), NoValue("A1*2"), "xy", 2)),
    ]  # row 2 is absent, row 4 has no value: neither is a row


def test_cells_without_references_follow_each_other(tmp_path: Path):
    rows = (
        '<row><c t="inlineStr"><is><t>a</t></is></c><c><v>1</v></c></row><row><c><v>2</v></c></row>'
    )
    assert read(write_workbook(tmp_path / "a.xlsx", rows)).rows == [(1, ("a", 1)), (2, (2,))]


STYLES_WITH_DATES = (
    f'<styleSheet xmlns="{MAIN}"><numFmts count="3">'
    '<numFmt numFmtId="164" formatCode="mm/dd/yyyy"/>'
    '<numFmt numFmtId="165" formatCode="#,##0.0##"/>'
    '<numFmt numFmtId="166" formatCode="[$-414]h:mm"/></numFmts>'
    '<cellStyleXfs><xf numFmtId="14"/></cellStyleXfs>'
    '<cellXfs count="6"><xf numFmtId="0"/><xf numFmtId="164"/><xf numFmtId="165"/>'
    '<xf numFmtId="14"/><xf numFmtId="166"/><xf numFmtId="22"/></cellXfs></styleSheet>'
)


def test_a_number_shown_as_a_date_is_a_date(tmp_path: Path):
    rows = (
        '<row r="1"><c r="A1" s="1"><v>46162</v></c><c r="B1" s="2"><v>20.5</v></c>'
        '<c r="C1" s="3"><v>46162</v></c><c r="D1" s="4"><v>0.5625</v></c>'
        '<c r="E1" s="5"><v>46162.5</v></c><c r="F1" s="0"><v>46162</v></c>'
        '<c r="G1" s="9"><v>7</v></c></row>'
    )
    ((_, row),) = read(write_workbook(tmp_path / "a.xlsx", rows, styles=STYLES_WITH_DATES)).rows
    may20 = datetime(2026, 5, 20)
    assert row[0] == DateValue(46162.0, may20, shows_date=True, shows_time=False)
    assert row[1] == 20.5  # a number format, not a date
    assert row[2] == DateValue(46162.0, may20)
    assert row[3] == DateValue(0.5625, datetime(1899, 12, 31, 13, 30), False, True)
    assert row[3].text() == "13:30" and row[3].kind == "a time"
    assert row[4].text() == "20.05.2026 12:00"
    assert row[5] == 46162 and row[6] == 7  # general format; a style the file lacks


def test_the_1904_date_system(tmp_path: Path):
    workbook = (
        f'<workbook xmlns="{MAIN}" xmlns:r="http://schemas.openxmlformats.org/officeDocument/'
        '2006/relationships"><workbookPr date1904="1"/><sheets>'
        '<sheet name="S" sheetId="1" r:id="rId1"/></sheets></workbook>'
    )
    rows = '<row r="1"><c r="A1" s="3"><v>44700</v></c></row>'
    path = write_workbook(tmp_path / "a.xlsx", rows, styles=STYLES_WITH_DATES, workbook=workbook)
    ((_, row),) = read(path).rows
    assert isinstance(row[0], DateValue) and row[0].moment == datetime(2026, 5, 20)


@pytest.mark.parametrize(
    ("serial", "moment"),
    [
        (1, datetime(1900, 1, 1)),
        (59, datetime(1900, 2, 28)),
        (61, datetime(1900, 3, 1)),
        (46162, datetime(2026, 5, 20)),
        (2_958_465, datetime(9999, 12, 31)),
        (2_958_466, None),
        (-1, None),
    ],
)
def test_date_numbers(serial: float, moment: datetime | None):
    assert moment_of(serial, date1904=False) == moment


@pytest.mark.parametrize(
    ("code", "date", "time"),
    [
        ("General", False, False),
        ("0.00", False, False),
        ("#,##0.0##", False, False),
        ("0.00E+00", False, False),
        ("0%", False, False),
        ("@", False, False),
        ('"TRUE";"TRUE";"FALSE"', False, False),
        ('0.0" m"', False, False),
        ("[Red]0.0", False, False),
        ("[$kr-414] #,##0.00", False, False),
        ("dd.mm.yyyy", True, False),
        ("mm/dd/yyyy", True, False),
        ("[$-414]d\\. mmm yyyy", True, False),
        ("mmm-yy", True, False),
        ("h:mm", False, True),
        ("mm:ss", False, True),
        ("[h]:mm:ss", False, True),
        ("[mm]", False, True),
        ("dd.mm.yyyy hh:mm", True, True),
        ("h:mm AM/PM", False, True),
    ],
)
def test_which_number_formats_show_dates(code: str, date: bool, time: bool):
    shows = format_shows(200, code)
    assert (shows.date, shows.time) == (date, time)


@pytest.mark.parametrize(
    ("format_id", "date", "time"),
    [(0, False, False), (2, False, False), (14, True, False), (17, True, False),
     (20, False, True), (22, True, True), (49, False, False)],
)  # fmt: skip
def test_built_in_formats(format_id: int, date: bool, time: bool):
    shows = format_shows(format_id, None)
    assert (shows.date, shows.time) == (date, time)


def test_sheets_in_the_workbooks_order_and_only_worksheets(tmp_path: Path):
    workbook = Workbook()
    first = workbook.active
    assert first is not None
    first.title = "Forside"
    first.append(["tittel"])
    workbook.create_chartsheet("Diagram")
    data = workbook.create_sheet("Data")
    data.append(["a", 1.5])
    path = tmp_path / "a.xlsx"
    path.write_bytes(fixed_bytes(workbook))
    sheets = list(read_sheets(path, path.read_bytes(), LIMITS))
    assert [(s.name, s.rows) for s in sheets] == [
        ("Forside", [(1, ("tittel",))]),
        ("Data", [(1, ("a", 1.5))]),
    ]


def test_strict_ooxml_namespaces_read_alike(tmp_path: Path):
    strict = "http://purl.oclc.org/ooxml/spreadsheetml/main"
    rows = '<row r="1"><c r="A1" t="inlineStr"><is><t>a</t></is></c></row>'
    path = write_workbook(
        tmp_path / "a.xlsx",
        sheet_xml=f'<worksheet xmlns="{strict}"><sheetData>{rows}</sheetData></worksheet>',
    )
    assert read(path).rows == [(1, ("a",))]


def test_cells_right_of_the_column_bound_are_not_read(tmp_path: Path):
    rows = '<row r="1"><c r="A1"><v>1</v></c><c r="C1"><v>3</v></c><c r="XFD1"><v>9</v></c></row>'
    path = write_workbook(tmp_path / "a.xlsx", rows)
    assert read(path, WorkbookLimits(columns=3)).rows == [(1, (1, None, 3))]


def test_the_same_workbook_is_the_same_bytes(tmp_path: Path):
    def book() -> bytes:
        workbook = Workbook()
        sheet = workbook.active
        assert sheet is not None
        sheet.append(["Tonstad", 960.0, True])
        return fixed_bytes(workbook)

    first = book()
    assert book() == first
    path = tmp_path / "a.xlsx"
    path.write_bytes(first)
    assert read(path).rows == [(1, ("Tonstad", 960, True))]


@pytest.mark.parametrize(
    ("rows", "reason"),
    [
        (
            '<row r="1"><c r="A1" t="s"><v>3</v></c></row>',
            "refer to shared string 3, but there are 0",
        ),
        ('<row r="1"><c r="A1"><v>12abc</v></c></row>', "hold '12abc' as a number"),
        ('<row r="1"><c r="A1"><v>1e999</v></c></row>', "hold '1e999' as a number"),
        ('<row r="1"><c r="A1" t="b"><v>2</v></c></row>', "as true or false"),
        ('<row r="1"><c r="A1" t="d"><v>20 mai</v></c></row>', "as a date"),
        ('<row r="x"><c r="A1"><v>1</v></c></row>', "row number 'x', not a whole number"),
        ('<row r="1"><c r="1A"><v>1</v></c></row>', "cell reference '1A', not a cell"),
        ('<row r="1"><c r="A1" s="k"><v>1</v></c></row>', "format 'k', not a whole number"),
    ],
)
def test_a_malformed_cell_names_the_part_and_the_cell(tmp_path: Path, rows: str, reason: str):
    path = write_workbook(tmp_path / "a.xlsx", rows)
    with pytest.raises(InputFileError) as caught:
        read(path)
    message = str(caught.value)
    assert message.startswith(f"{path}: not an XLSX workbook (xl/worksheets/sheet1.xml ")
    assert reason in message


def test_a_workbook_without_worksheets_says_so(tmp_path: Path):
    workbook = f'<workbook xmlns="{MAIN}"><sheets/></workbook>'
    path = write_workbook(tmp_path / "a.xlsx", workbook=workbook)
    with pytest.raises(InputFileError, match=r"xl/workbook.xml names no worksheet"):
        read(path)
