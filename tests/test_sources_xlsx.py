"""NVE exports as Excel workbooks read like the same data as CSV."""

import csv
import io
import zipfile
from datetime import datetime
from pathlib import Path

import openpyxl
import pytest
from typer.testing import CliRunner

from kraftstokk.cli import app
from kraftstokk.errors import InputFileError
from kraftstokk.models import Plant
from kraftstokk.sources.formats import read_source
from kraftstokk.sources.ingest import ingest_files
from kraftstokk.sources.snapshot import read_snapshot
from kraftstokk.workbook import DateValue, ErrorValue, NoValue, cell_text
from tests.test_cli_bad_input_sources import assert_ingest_refuses

FIXTURES = Path(__file__).parent / "fixtures" / "sources"
SEMICOLON = FIXTURES / "nve-export-semicolon.csv"
runner = CliRunner()

HEADER = [
    "VannKraftverkID",
    "Navn",
    "HovedEier",
    "Fylke",
    "Kommune",
    "MaksYtelse",
    "MidProd_91_20",
    "BruttoFallhoyde_M",
    "ElspotomraadeNummer",
    "ErIDrift",
    "IDriftDato",
]
# The plants of nve-export-semicolon.csv as an Excel export holds them: numbers as
# numbers, dates as dates, ErIDrift as a boolean.
SEMICOLON_AS_CELLS: list[list[object]] = [
    [448, "Tonstad", "Sira-Kvina Kraftselskap", "Agder", "Sirdal", 960, 3800.5, 442, 2, True,
     datetime(1968, 1, 1)],
    [222, " Kvilldal ", "Statkraft Energi AS", "Rogaland", "Suldal", 1240.0, 3500, 536.5, 2,
     True, datetime(1981, 6, 1)],
    [1001, "Fjell; nedre", "Eksempel Kraft AS", "Vestland", "Luster", 12.75, 48.25, 210.4, 5,
     True, datetime(1999, 3, 15)],
    [1002, "Osen", "Eksempel Kraft AS", "Innlandet", "Ringsaker", 12.5, 40, 30.2, 1, True,
     datetime(1955, 1, 1)],
    [1003, "Osen", "Annen Kraft AS", "Rogaland", "Bjerkreim", 8, 31, 95, 2, True,
     datetime(1960, 1, 1)],
    [1004, "Bekkeverk", "Småkraft AS", "Vestland", "Voss", 1.2, "ukjent", 80, 5, True,
     datetime(2012, 1, 1)],
    [1005, "Nedlagt", "Gammel Kraft AS", "Telemark", "Tinn", 5, 20, 100, 2, False,
     datetime(1920, 1, 1)],
    [1006, "Minusfoss", "Feil Kraft AS", "Nordland", "Rana", -3, 15, 40, 4, True,
     datetime(2001, 1, 1)],
]  # fmt: skip


def workbook(path: Path, *sheets: tuple[str, list[list[object]]]) -> Path:
    book = openpyxl.Workbook()
    book.remove(book.active)
    for title, rows in sheets:
        sheet = book.create_sheet(title)
        for row in rows:
            sheet.append(row)
    book.save(path)
    return path


def nve_workbook(path: Path, rows: list[list[object]], above: int = 0) -> Path:
    title_rows: list[list[object]] = [["Vannkraftverk i drift, NVE"], []][:above]
    return workbook(path, ("Vannkraftverk", [*title_rows, HEADER, *rows]))


def csv_text(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, datetime):
        return value.date().isoformat()
    return str(value)


def comma_csv(path: Path, rows: list[list[object]]) -> Path:
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(HEADER)
        writer.writerows([[csv_text(value) for value in row] for row in rows])
    return path


def figures(plant: Plant) -> tuple[float, float, float]:
    return (plant.mw, plant.gwh, plant.head_m)


def test_workbook_gives_the_records_of_the_same_data_as_csv(tmp_path: Path):
    rows: list[list[object]] = [
        [448, "Tonstad", None, "Agder", "Sirdal", 960, 3800.5, 442, 2, True, datetime(1968, 1, 1)],
        [7, "Fjell, nedre", "Kraft AS", None, "Luster", 1234.5, None, 0.25, 5, False, None],
    ]
    from_csv = read_source(comma_csv(tmp_path / "nve.csv", rows))
    from_xlsx = read_source(nve_workbook(tmp_path / "nve.xlsx", rows))
    assert (from_csv.format, from_xlsx.format) == ("nve-csv", "nve-xlsx")
    assert from_xlsx.records == from_csv.records
    first, second = from_xlsx.records
    assert (first.id, first.mw, first.gwh, first.year) == ("448", "960", "3800.5", "1968-01-01")
    assert (second.mw, second.gwh, second.head_m, second.owner) == (
        "1234.5",
        "",
        "0.25",
        "Kraft AS",
    )
    assert second.skip_reason == "not in operation"


def test_workbook_snapshot_equals_the_semicolon_csv_snapshot(tmp_path: Path):
    book = nve_workbook(tmp_path / "vannkraftverk.xlsx", SEMICOLON_AS_CELLS)
    from_xlsx = ingest_files([book], created="2026-01-01")
    from_csv = ingest_files([SEMICOLON], created="2026-01-01")
    assert from_xlsx.plants == from_csv.plants
    assert from_xlsx.provenance.quality == from_csv.provenance.quality
    assert figures(from_xlsx.plant("1001")) == (12.75, 48.25, 210.4)
    assert from_xlsx.plant("222").name == "Kvilldal"
    assert from_xlsx.provenance.source_kind == "nve-xlsx"
    assert from_xlsx.provenance.licence.startswith("NLOD")


def test_header_below_title_rows_on_a_later_sheet(tmp_path: Path):
    rows = [[*HEADER[:2], "MaksYtelse", "MidProd_91_20", "BruttoFallhoyde_M"],
            [5, "Åbjøra", 95.5, 400, 480.2]]  # fmt: skip
    book = workbook(
        tmp_path / "eksport.xlsx",
        ("Om data", [["Kilde: NVE"], ["Lisens: NLOD"]]),
        ("Kraftverk", [["Vannkraftverk i drift"], [], ["Uttrekk 2026-11-29"], *rows]),
    )
    snapshot = ingest_files([book], created="2026-01-01")
    assert [(p.id, p.name, figures(p)) for p in snapshot.plants] == [
        ("5", "Åbjøra", (95.5, 400.0, 480.2))
    ]
    assert snapshot.provenance.quality.rows_read == 1


def test_empty_cells_blank_rows_and_short_rows(tmp_path: Path):
    rows: list[list[object]] = [
        [1, "Tom", None, None, None, 10, None, 50],
        [],
        [2, "Kort", None, None, None, 20.5, 80, 60],  # ends before the header does
        [3, "Lang", None, None, None, 30, 90, 70, 1, True, None, None, "ekstra"],
    ]
    book = nve_workbook(tmp_path / "nve.xlsx", rows, above=2)
    records = read_source(book).records
    assert [record.id for record in records] == ["1", "2", "3"]
    assert (records[0].gwh, records[0].owner) == ("", "")
    assert records[1].skip_reason is None
    assert records[2].skip_reason == "malformed row (13 fields, header has 11)"
    snapshot = ingest_files([book], created="2026-01-01")
    assert [(p.id, figures(p)) for p in snapshot.plants] == [("2", (20.5, 80.0, 60.0))]
    assert snapshot.provenance.quality.dropped == {
        "gwh missing": 1,
        "malformed row (13 fields, header has 11)": 1,
    }


def test_figures_typed_as_text_with_decimal_comma_beside_numbers(tmp_path: Path):
    # A number cell has no decimal mark; text cells decide it, and 1.5 must stay 1.5.
    rows: list[list[object]] = [
        [1, "Tekstverk", None, None, None, 1.5, "3 800,5", "12,25"],
        [2, "Tallverk", None, None, None, 1.234, 48.25, 210],
    ]
    snapshot = ingest_files([nve_workbook(tmp_path / "nve.xlsx", rows)], created="2026-01-01")
    assert [(p.id, figures(p)) for p in snapshot.plants] == [
        ("1", (1.5, 3800.5, 12.25)),
        ("2", (1.234, 48.25, 210.0)),
    ]


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (None, ""),
        (1234.5, "1234.5"),
        (1234.0, "1234"),
        (960, "960"),
        (0.1, "0.1"),
        (1e-7, "0.0000001"),
        (1.5e16, "15000000000000000"),
        (-3.25, "-3.25"),
        (True, "True"),
        (False, "False"),
        (DateValue(24838.0, datetime(1968, 1, 1)), "1968-01-01"),
        (DateValue(24838.5, datetime(1968, 1, 1, 12, 30), True, True), "1968-01-01T12:30:00"),
        (DateValue(0.25, datetime(1899, 12, 31, 6, 0), False, True), "06:00:00"),
        (ErrorValue("#DIV/0!"), "#DIV/0!"),
        (NoValue("A1*2"), ""),
        ("Tonstad", "Tonstad"),
    ],
)
def test_cell_text(value: object, text: str):
    assert cell_text(value) == text


def test_cell_text_writes_the_decimal_mark_it_is_given():
    assert cell_text(12.75, ",") == "12,75"
    assert cell_text(1234.0, ",") == "1234"


def rewrite_part(path: Path, part: str, old: str, new: str) -> None:
    with zipfile.ZipFile(path) as archive:
        parts = {name: archive.read(name) for name in archive.namelist()}
    assert old in parts[part].decode()
    parts[part] = parts[part].decode().replace(old, new).encode()
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in parts.items():
            archive.writestr(name, data)


def test_integer_valued_floats_read_as_whole_numbers(tmp_path: Path):
    # openpyxl writes 1234.0 as 1234; other writers keep the ".0", and it reads as a float.
    book = nve_workbook(tmp_path / "nve.xlsx", [[1234, "Flyt", None, None, None, 10, 40, 50]])
    sheet = "xl/worksheets/sheet1.xml"
    rewrite_part(book, sheet, "<v>1234</v>", "<v>1234.0</v>")
    rewrite_part(book, sheet, "<v>10</v>", "<v>10.0</v>")
    loaded = openpyxl.load_workbook(book, read_only=True, data_only=True)
    (row,) = loaded.worksheets[0].iter_rows(min_row=2, values_only=True)
    assert row[0] == 1234.0 and isinstance(row[0], float)
    loaded.close()
    (record,) = read_source(book).records
    assert (record.id, record.mw) == ("1234", "10")
    (plant,) = ingest_files([book], created="2026-01-01").plants
    assert (plant.id, plant.mw) == ("1234", 10.0)


def zip_without_workbook(path: Path) -> Path:
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("plants.csv", "VannKraftverkID,Navn\n1,A\n")
    return path


def valid_book_bytes(tmp_path: Path) -> bytes:
    return nve_workbook(tmp_path / "whole.xlsx", SEMICOLON_AS_CELLS).read_bytes()


BAD_WORKBOOKS = {
    "truncated": (
        lambda t: write(t / "cut.xlsx", valid_book_bytes(t)[:900]),
        "not an XLSX workbook (not a ZIP archive, or cut short)",
    ),
    "garbage named .xlsx": (
        lambda t: write(t / "garbage.xlsx", b"VannKraftverkID;Navn\n1;A\n"),
        "not an XLSX workbook (not a ZIP archive, or cut short)",
    ),
    "ZIP that is not a workbook": (
        lambda t: zip_without_workbook(t / "plants.zip"),
        "not an XLSX workbook (a part is missing: xl/workbook.xml)",
    ),
    "damaged inside": (
        lambda t: write(t / "damaged.xlsx", flip_middle(valid_book_bytes(t))),
        "is damaged: ",
    ),
    "no NVE columns": (
        lambda t: workbook(t / "other.xlsx", ("Ark1", [["Kolonne", "Annen"], [1, 2]])),
        "no worksheet with NVE columns (VannKraftverkID, Navn, MaksYtelse, ...)",
    ),
    "NVE header without a figure column": (
        lambda t: workbook(
            t / "short.xlsx", ("Ark1", [["VannKraftverkID", "Navn", "MaksYtelse"], [1, "A", 3]])
        ),
        "missing required columns MidProd_91_20, BruttoFallhoyde_M",
    ),
    "empty": (lambda t: write(t / "empty.xlsx", b""), "file is empty"),
    "legacy .xls": (
        lambda t: write(t / "old.xls", b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\x00" * 600),
        "an Excel 97-2003 (.xls) or password-protected workbook; save it as .xlsx",
    ),
}


def write(path: Path, data: bytes) -> Path:
    path.write_bytes(data)
    return path


def flip_middle(data: bytes) -> bytes:
    """Damage the compressed bytes of the worksheet but keep the ZIP directory intact."""
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        first = archive.getinfo("xl/worksheets/sheet1.xml")
    start = first.header_offset + 30 + len(first.filename.encode()) + len(first.extra)
    damaged = bytearray(data)
    for index in range(start, start + min(first.compress_size, 40)):
        damaged[index] ^= 0xFF
    return bytes(damaged)


@pytest.mark.parametrize("case", list(BAD_WORKBOOKS))
def test_unusable_workbook_is_one_clear_error(tmp_path: Path, case: str):
    build, reason = BAD_WORKBOOKS[case]
    source = build(tmp_path)
    with pytest.raises(InputFileError) as caught:
        read_source(source)
    assert caught.value.path == str(source)
    assert reason in caught.value.reason


@pytest.mark.parametrize("case", list(BAD_WORKBOOKS))
def test_cli_unusable_workbook_exits_2_naming_the_file(tmp_path: Path, case: str):
    build, reason = BAD_WORKBOOKS[case]
    assert_ingest_refuses(tmp_path, build(tmp_path), [], reason)


def test_workbook_is_detected_by_signature_whatever_its_name(tmp_path: Path):
    book = nve_workbook(tmp_path / "nve.xlsx", SEMICOLON_AS_CELLS)
    renamed = write(tmp_path / "nedlasting.dat", book.read_bytes())
    rows = read_source(renamed)
    assert rows.format == "nve-xlsx" and len(rows.records) == 8


def test_explicit_format_nve_xlsx_on_the_cli(tmp_path: Path):
    book = nve_workbook(tmp_path / "nve.xlsx", SEMICOLON_AS_CELLS)
    renamed = write(tmp_path / "nedlasting", book.read_bytes())
    out = tmp_path / "snap.csv"
    args = ["ingest", str(renamed), "--format", "nve-xlsx", "--out", str(out)]
    result = runner.invoke(app, [*args, "--created", "2026-11-29"])
    assert result.exit_code == 0, result.output
    assert "rows read: 8" in result.stdout
    snapshot = read_snapshot(out)
    assert snapshot.provenance.source_kind == "nve-xlsx"
    assert snapshot.provenance.sources == ["nedlasting"]
    assert figures(snapshot.plant("448")) == (960.0, 3800.5, 442.0)


def test_workbook_read_as_csv_is_a_binary_file_error(tmp_path: Path):
    book = nve_workbook(tmp_path / "nve.xlsx", SEMICOLON_AS_CELLS)
    result = runner.invoke(app, ["ingest", str(book), "--format", "nve-csv"])
    assert result.exit_code == 2
    assert result.stderr == f"kraftstokk: error: {book}: binary file, not CSV or JSON\n"


def test_cli_ingest_workbook_is_reproducible(tmp_path: Path):
    book = nve_workbook(tmp_path / "nve.xlsx", SEMICOLON_AS_CELLS, above=1)
    outputs = []
    for name in ("a", "b"):
        out = tmp_path / name / "snap.csv"
        result = runner.invoke(
            app, ["ingest", str(book), "--out", str(out), "--created", "2026-11-29"]
        )
        assert result.exit_code == 0, result.output
        outputs.append(out.read_bytes())
    assert outputs[0] == outputs[1]
    assert "kept: 5" in result.stdout


def test_format_help_names_nve_xlsx():
    result = runner.invoke(app, ["ingest", "--help"])
    assert result.exit_code == 0
    assert "nve-xlsx" in result.stdout
