"""Workbook attacks (issue 24.1) on every command that opens a workbook: one error line
naming the file and the bound or the reason, exit 2, never a traceback, a hang or a
blow-up of memory.

The attack files are generated here, small: a bomb's huge part is compressed as it is
written (:func:`tests.workbook_parts.streamed_part`) or only declared huge. The same file
goes to the deck loader (``validate``, ``repair``, ``render``, named deck.xlsx) and to
``ingest`` (named plants.xlsx), which read it with different bounds. The heaviest ones
run again as child processes under a 1 GB address-space limit, their peak resident
memory taken from the kernel (``VmHWM``): each stays far below 500 MB.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kraftstokk.cli import app
from kraftstokk.deck.io import write_deck
from tests.conftest import synthetic_deck
from tests.test_hostile_inputs import one_error_line
from tests.workbook_parts import (
    MAIN,
    base_parts,
    declare_size,
    rows_xml,
    sheet_xml,
    streamed_part,
    workbook_bytes,
    write_workbook,
)

runner = CliRunner()
MB = 1024 * 1024
SHEET = "xl/worksheets/sheet1.xml"
STRINGS = "xl/sharedStrings.xml"
STYLES = "xl/styles.xml"
SHEET_HEAD = f'<worksheet xmlns="{MAIN}"><sheetData>'.encode()
SHEET_TAIL = b"</sheetData></worksheet>"
DOCTYPE_HEAD = b'<?xml version="1.0"?>\n'
LAUGHS = (
    b'<!DOCTYPE lolz [<!ENTITY lol "lol">'
    + b"".join(
        f'<!ENTITY lol{n} "{("&lol" + str(n - 1 or "") + ";") * 10}">'.encode()
        for n in range(1, 10)
    )
    + b"]>"
)


def shared_strings_declared_huge(path: Path) -> Path:
    """3 kB on disk, 1.45 GB of shared strings by its own account."""
    write_workbook(path, rows_xml([["id"]]))
    return declare_size(path, STRINGS, 1_450_000_000)


def shared_strings_bomb(path: Path) -> Path:
    """64 MB of shared strings, really: refused by what it declares, before unpacking."""
    return streamed_part(path, STRINGS, f'<sst xmlns="{MAIN}">'.encode(),
                         b"<si><t>lol</t></si>", 64 * MB // 19, b"</sst>")  # fmt: skip


def shared_strings_count(path: Path) -> Path:
    """600 000 tiny strings in 7 MB: within every size bound, past the count of strings."""
    return streamed_part(path, STRINGS, f'<sst xmlns="{MAIN}">'.encode(),
                         b"<si><t/></si>", 600_000, b"</sst>")  # fmt: skip


def styles_bomb(path: Path) -> Path:
    """7.5 MB of styles: 1.1 million fonts."""
    head = f'<styleSheet xmlns="{MAIN}"><fonts>'.encode()
    return streamed_part(path, STYLES, head, b"<font/>", 1_100_000,
                         b'</fonts><cellXfs><xf numFmtId="0"/></cellXfs></styleSheet>')  # fmt: skip


def cell_formats_bomb(path: Path) -> Path:
    head = f'<styleSheet xmlns="{MAIN}"><cellXfs>'.encode()
    return streamed_part(path, STYLES, head, b'<xf numFmtId="14"/>', 100_000,
                         b"</cellXfs></styleSheet>")  # fmt: skip


def number_formats_bomb(path: Path) -> Path:
    formats = "".join(f'<numFmt numFmtId="{164 + n}" formatCode="0.{n}"/>' for n in range(2000))
    styles = f'<styleSheet xmlns="{MAIN}"><numFmts>{formats}</numFmts></styleSheet>'
    return write_workbook(path, rows_xml([["id"]]), styles=styles)


def billion_laughs(path: Path) -> Path:
    body = SHEET_HEAD + b'<row r="1"><c t="inlineStr"><is><t>&lol9;</t></is></c></row>' + SHEET_TAIL
    return write_workbook(path, sheet_xml=DOCTYPE_HEAD + LAUGHS + body)


def external_entity(path: Path) -> Path:
    """XXE: a shared string that would read /etc/passwd."""
    strings = (
        b'<?xml version="1.0"?><!DOCTYPE sst [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>'
        + f'<sst xmlns="{MAIN}"><si><t>&xxe;</t></si></sst>'.encode()
    )
    sheet = '<row r="1"><c r="A1" t="s"><v>0</v></c></row>'
    return write_workbook(path, sheet, strings=strings)


def external_dtd(path: Path) -> Path:
    sheet = (
        b'<?xml version="1.0"?><!DOCTYPE w SYSTEM "http://127.0.0.1:9/w.dtd">'
        + SHEET_HEAD
        + SHEET_TAIL
    )
    return write_workbook(path, sheet_xml=sheet)


def undeclared_entity(path: Path) -> Path:
    return write_workbook(path, '<row r="1"><c t="inlineStr"><is><t>&xxe;</t></is></c></row>')


def half_cut_sheet(path: Path) -> Path:
    whole = sheet_xml(rows_xml([["id", "joker"], ["spar-1", "false"]]))
    return write_workbook(path, sheet_xml=whole[: len(whole) // 2])


def cell_of_200_mb(path: Path) -> Path:
    """200 MB in one cell, in a file of about 200 kB."""
    head = SHEET_HEAD + b'<row r="1"><c t="inlineStr"><is><t>'
    return streamed_part(path, SHEET, head, b"A" * 1024, 200 * 1024,
                         b"</t></is></c></row>" + SHEET_TAIL)  # fmt: skip


def cell_of_200_mb_declared_small(path: Path) -> Path:
    """A part that unpacks to more than it declares: unpacking stops at the declared size
    and the part fails its checksum."""
    body = SHEET_HEAD + b'<row r="1"><c t="inlineStr"><is><t>' + b"A" * (3 * MB)
    parts = base_parts()
    parts[SHEET] = body + b"</t></is></c></row>" + SHEET_TAIL
    path.write_bytes(workbook_bytes(parts))
    return declare_size(path, SHEET, 64 * 1024)


def cell_over_excels_limit(path: Path) -> Path:
    return write_workbook(path, rows_xml([["id"], ["A" * 40_000]]))


def deep_nesting(path: Path) -> Path:
    return streamed_part(path, SHEET, SHEET_HEAD, b"<x>", 500_000, b"")


def rows_far_down(path: Path) -> Path:
    return write_workbook(path, '<row r="1048576"><c t="inlineStr"><is><t>x</t></is></c></row>')


def cells_bomb(path: Path) -> Path:
    """A row of 600 000 empty cells (3.6 MB)."""
    return streamed_part(path, SHEET, SHEET_HEAD + b'<row r="1">', b"<c/>", 600_000,
                         b"</row>" + SHEET_TAIL)  # fmt: skip


def many_parts(path: Path) -> Path:
    parts = base_parts(rows_xml([["id"]]))
    parts.update({f"xl/media/p{n}.xml": "" for n in range(10_001)})
    path.write_bytes(workbook_bytes(parts))
    return path


def not_a_zip(path: Path) -> Path:
    path.write_bytes(b"PK\x03\x04" + b"\x00" * 100)
    return path


def legacy_excel(path: Path) -> Path:
    path.write_bytes(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\x00" * 512)
    return path


#: attack -> (what the deck loader's line says, what ingest's line says)
ATTACKS: dict[str, tuple[Callable[[Path], Path], str, str]] = {
    "shared strings declared 1.45 GB": (
        shared_strings_declared_huge,
        "workbook too large: unpacks to 1383 MB in 7 parts (a workbook is read only up to 8 MB",
        "workbook too large: unpacks to 1383 MB in 7 parts (a workbook is read only up to 32 MB",
    ),
    "shared strings bomb": (shared_strings_bomb, "workbook too large: unpacks to 64 MB",
                            "workbook too large: unpacks to 64 MB"),
    "shared strings count": (
        shared_strings_count,
        "workbook too large: more than 100000 shared strings",
        "workbook too large: more than 500000 shared strings",
    ),
    "styles bomb": (styles_bomb, "workbook too large: styles with more than 500000 elements",
                    "workbook too large: styles with more than 500000 elements"),
    "cell formats bomb": (cell_formats_bomb, "more than 65490 cell formats",
                          "more than 65490 cell formats"),
    "number formats bomb": (number_formats_bomb, "more than 1000 number formats",
                            "more than 1000 number formats"),
    "billion laughs": (billion_laughs, "sheet1.xml declares a document type (DTD)",
                       "sheet1.xml declares a document type (DTD)"),
    "external entity (XXE)": (external_entity, "sharedStrings.xml declares a document type",
                              "sharedStrings.xml declares a document type"),
    "external DTD": (external_dtd, "sheet1.xml declares a document type (DTD)",
                     "sheet1.xml declares a document type (DTD)"),
    "undeclared entity": (undeclared_entity, "sheet1.xml is not well-formed XML: line 1",
                          "undefined entity"),
    "half-cut sheet": (half_cut_sheet, "sheet1.xml is not well-formed XML (cut short)",
                       "sheet1.xml is not well-formed XML (cut short)"),
    "200 MB cell": (cell_of_200_mb, "workbook too large: unpacks to 200 MB",
                    "workbook too large: unpacks to 200 MB"),
    "200 MB cell declared small": (cell_of_200_mb_declared_small,
                                   "sheet1.xml is damaged: Bad CRC-32",
                                   "sheet1.xml is damaged: Bad CRC-32"),
    "cell over Excel's limit": (cell_over_excels_limit, "holds more than 32767 characters",
                                "holds more than 32767 characters"),
    "deep nesting": (deep_nesting, "nests elements more than 64 deep",
                     "nests elements more than 64 deep"),
    "rows far down": (rows_far_down, "more than 1000 rows in sheet 'Ark1'; a deck has 56",
                      "more than 100000 rows in sheet 'Ark1'"),
    "cells bomb": (cells_bomb, "more than 100000 cells in sheet 'Ark1'",
                   "more than 500000 cells in sheet 'Ark1'"),
    "many parts": (many_parts, "in 10008 parts (a workbook is read only up to",
                   "in 10008 parts (a workbook is read only up to"),
    "not a zip": (not_a_zip, "not an XLSX workbook (not a ZIP archive, or cut short)",
                  "not an XLSX workbook (not a ZIP archive, or cut short)"),
    "Excel 97-2003": (legacy_excel, "an Excel 97-2003 (.xls) or password-protected workbook",
                      "an Excel 97-2003 (.xls) or password-protected workbook"),
}  # fmt: skip


@pytest.fixture(scope="module")
def attacks(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Each attack once, as deck.xlsx in its own folder beside a valid deck.json."""
    root = tmp_path_factory.mktemp("attacks")
    files = {}
    for index, (name, (make, _, _)) in enumerate(ATTACKS.items()):
        folder = root / f"a{index:02d}"
        write_deck(synthetic_deck(), folder)  # the deck.json a deck.xlsx takes its details from
        files[name] = make(folder / "deck.xlsx")
        assert files[name].stat().st_size < 2 * MB, name  # small, whatever it unpacks to
    return files


@pytest.mark.parametrize("command", ["validate", "repair", "render"])
@pytest.mark.parametrize("attack", list(ATTACKS))
def test_a_workbook_attack_on_the_deck_commands_is_one_line(
    attacks: dict[str, Path], attack: str, command: str, tmp_path: Path
):
    path = attacks[attack]
    before = sorted(p.name for p in path.parent.iterdir())
    args = [command, str(path)] + ([] if command == "validate" else ["--out", str(tmp_path)])
    line = one_error_line(runner.invoke(app, args), 2, str(path), ATTACKS[attack][1])
    assert len(line) < 400
    assert sorted(p.name for p in path.parent.iterdir()) == before
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("attack", list(ATTACKS))
def test_a_workbook_attack_on_ingest_is_one_line(
    attacks: dict[str, Path], attack: str, tmp_path: Path
):
    source = tmp_path / "plants.xlsx"
    shutil.copyfile(attacks[attack], source)
    result = runner.invoke(app, ["ingest", str(source), "--out", str(tmp_path / "s.csv")])
    one_error_line(result, 2, str(source), ATTACKS[attack][2])
    assert not (tmp_path / "s.csv").exists()


# --- peak memory, measured by the kernel --------------------------------------------------

ADDRESS_SPACE = 1024 * MB  # a safety net; the figure that counts is the peak RSS below
PEAK_RSS_LIMIT = 500 * MB
CPU_SECONDS = 120  # only a guard against a hang, far above what any case takes
#: The child sets its own limits and, when it ends, writes its peak resident memory as the
#: kernel counts it for its own address space (VmHWM); the rusage of a child also counts
#: the pages of the parent it was forked from, which here is the whole test run.
_MEASURED = """
import atexit, resource, sys
resource.setrlimit(resource.RLIMIT_AS, ({space}, {space}))
resource.setrlimit(resource.RLIMIT_CPU, ({cpu}, {cpu}))
def _peak():
    with open("/proc/self/status") as status, open({out!r}, "w") as out:
        out.write(next(line for line in status if line.startswith("VmHWM:")))
atexit.register(_peak)
from kraftstokk.cli import main
main()
"""


def run_measured(args: list[str], cwd: Path) -> tuple[int, str, int]:
    """Exit code, stderr and peak resident memory in bytes of ``kraftstokk ARGS``."""
    env = {**os.environ, "KRAFTSTOKK_PURE_PYTHON": "1"}
    peak_file = cwd / "peak.txt"
    peak_file.unlink(missing_ok=True)
    code = _MEASURED.format(space=ADDRESS_SPACE, cpu=CPU_SECONDS, out=str(peak_file))
    result = subprocess.run(
        [sys.executable, "-c", code, *args], cwd=cwd, env=env, capture_output=True,
        text=True, errors="replace", timeout=4 * CPU_SECONDS,
    )  # fmt: skip
    assert peak_file.exists(), f"the command ended without exiting: {result.stderr[-2000:]}"
    kilobytes = int(peak_file.read_text().split()[1])  # "VmHWM:   61234 kB"
    return result.returncode, result.stderr, kilobytes * 1024


HEAVIEST = ["shared strings count", "styles bomb", "200 MB cell", "cells bomb", "deep nesting"]


@pytest.mark.parametrize("attack", HEAVIEST)
@pytest.mark.parametrize("command", ["validate", "ingest"])
def test_the_heaviest_attacks_stay_far_below_500_mb(
    attacks: dict[str, Path], attack: str, command: str, tmp_path: Path
):
    source = tmp_path / ("deck.xlsx" if command == "validate" else "plants.xlsx")
    shutil.copyfile(attacks[attack], source)
    args = [command, str(source)] + (
        ["--out", str(tmp_path / "s.csv")] if command == "ingest" else []
    )
    code, stderr, peak = run_measured(args, tmp_path)
    assert code == 2, stderr
    assert "Traceback" not in stderr and "workbook" in stderr, stderr
    assert peak < PEAK_RSS_LIMIT, f"{attack}: {peak / MB:.0f} MB"
