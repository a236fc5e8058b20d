"""Property-based fuzzing of every file reader (issue 24, item 6), through the commands.

Each reader gets its file in many forms — changed byte by byte, and changed value by
value from a good file (numbers at and past every bound, NaN, wrong types, markup,
template fields, long texts) — and each run must behave (tests/fuzzing.py): end within
the time limit, under 500 MB, exit 0, 1 or 2, one error line on exit 2, never a
traceback, and leave an earlier output as it was when it fails. The issue's own cases
are pinned as examples. ``make test`` runs the short profile (a few derandomized
examples per reader); ``make fuzz`` the long one and prints each reader's times and
memory.

The readers: deck.json, deck.csv and deck.xlsx (``validate``), the deck spec
(``build``), a card layout (``render --layout``), a printer preset (``preflight`` and
``render --preset``), a locale (``booklet``), a sweep file (``sweep``), a replay log
(``play --load``) and a PDF (``preflight``).
"""

from __future__ import annotations

import copy
import io
import json
import math
import shutil
import tempfile
import tomllib
import zipfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from kraftstokk.deck.io import deck_csv_text, deck_json_text, write_deck
from tests import pdf_files
from tests.conftest import synthetic_deck
from tests.fuzzing import assert_well_behaved, examples, run_command, snapshot_of
from tests.test_hostile_property import _mutated
from tests.test_preflight import make_pdf
from tests.toml_text import toml_text

ROOT = Path(__file__).resolve().parent.parent
DESIGN = ROOT / "kraftstokk" / "design"

# --- values a designer, translator or attacker might write --------------------------------

BOUNDARY_NUMBERS = st.sampled_from(
    (
        0,
        -1,
        1,
        0.0001,
        0.05,
        6,
        12,
        30,
        72,
        73,
        300,
        301,
        1000,
        2**31,
        2**63,
        10**30,
        1e308,
        -1e308,
        1e-300,
        math.inf,
        -math.inf,
        math.nan,
    )
)
MARKUP = st.sampled_from(
    [
        "<b>unclosed",
        "<b>ok</b>",
        "</i>",
        '<img src="/etc/passwd"/>',
        "<font size=1000000>x</font>",
        "<font size=9>x</font>",
        "&bogus;",
        "&#0;",
        "{title}",
        "{count:>999999999}",
        "{edition!r}",
        "{edition.__class__}",
        "{",
        "}",
        "a < b & c",
        "<br/>",
        "<!--",
        "\x00",
        "\u202e",
    ]
)
SCALARS = st.one_of(
    BOUNDARY_NUMBERS,
    st.integers(-(10**20), 10**20),
    st.floats(allow_nan=True, allow_infinity=True),
    st.booleans(),
    st.text(max_size=30),
    MARKUP,
    st.lists(MARKUP | st.text(max_size=10), max_size=3).map("".join),
    st.just("x" * 5000),
)
VALUES = st.recursive(
    SCALARS,
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=3)
    ),
    max_leaves=8,
)


def _paths(data: dict[str, Any], prefix: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    paths: list[tuple[str, ...]] = []
    for key, value in data.items():
        paths.append((*prefix, key))
        if isinstance(value, dict):
            paths.extend(_paths(value, (*prefix, key)))
    return paths


NUMBERS = st.one_of(
    st.floats(0, 20), st.floats(0, 80), st.integers(0, 100), BOUNDARY_NUMBERS, st.floats(-1e4, 1e4)
)
TEXTS = st.one_of(
    st.text(max_size=40), MARKUP, st.lists(MARKUP | st.text(max_size=8)).map(" ".join)
)


def _like(value: Any) -> st.SearchStrategy[Any]:
    """Mostly a value of the same kind as ``value`` (in range and past it), else anything:
    a file changed this way is often still valid, and exercises what reads it next."""
    if isinstance(value, bool):
        same: st.SearchStrategy[Any] = st.booleans()
    elif isinstance(value, int | float):
        same = NUMBERS
    elif isinstance(value, str):
        same = TEXTS | st.just(value + value)
    elif isinstance(value, list) and value:
        same = st.lists(_like(value[0]), max_size=6)
    else:
        return VALUES
    return st.one_of(same, same, same, VALUES)


def toml_changes(base: dict[str, Any]) -> st.SearchStrategy[dict[str, Any]]:
    """``base`` with a few keys set to other values, removed, or unknown keys added."""
    paths = _paths(base)

    def value_for(path: tuple[str, ...]) -> st.SearchStrategy[Any]:
        current: Any = base
        for key in path:
            current = current[key]
        return _like(current)

    change = st.sampled_from(paths).flatmap(
        lambda path: st.tuples(
            st.just(path), st.sampled_from(["set"] * 6 + ["drop", "add"]), value_for(path)
        )
    )

    def apply(changes: list[tuple[tuple[str, ...], str, Any]]) -> dict[str, Any]:
        data = copy.deepcopy(base)
        for path, kind, value in changes:
            table = data
            for key in path[:-1]:
                inner = table.get(key)
                if not isinstance(inner, dict):
                    break
                table = inner
            else:
                if kind == "set":
                    table[path[-1]] = value
                elif kind == "drop":
                    table.pop(path[-1], None)
                else:
                    table[f"{path[-1]}_extra"] = value
        return data

    return st.lists(change, min_size=1, max_size=3).map(apply)


def toml_bytes(data: dict[str, Any]) -> bytes:
    """TOML text of ``data``; a lone surrogate stays in the bytes (a file that is no UTF-8)."""
    return toml_text(data).encode("utf-8", errors="surrogatepass")


def toml_files(base_text: bytes) -> st.SearchStrategy[bytes]:
    base = tomllib.loads(base_text.decode("utf-8"))
    return st.one_of(toml_changes(base).map(toml_bytes), _mutated(base_text))


def data_folder(source: Path, target: Path) -> Path:
    """A fresh copy of a folder of data files (each example starts from the shipped ones)."""
    shutil.rmtree(target, ignore_errors=True)
    target.mkdir(parents=True)
    for path in source.glob("*.toml"):
        (target / path.name).write_bytes(path.read_bytes())
    return target


def _json_bytes(data: dict[str, Any]) -> bytes:
    return json.dumps(data, allow_nan=True).encode("utf-8", errors="surrogatepass")


def reading_from(folder: Path, module: str) -> str:
    """Python for the child process: the module ``kraftstokk.<module>`` reads its data
    files from ``folder`` (the layouts, presets or locales of one example)."""
    shown = repr(str(folder))
    return (
        f"import kraftstokk.{module} as data\nfrom pathlib import Path\n"
        f"data._folder = lambda folder=None: folder or Path({shown})"
    )


def expect_kept(place: Path, before: dict[str, bytes], run_code: int) -> None:
    if run_code != 0:
        assert snapshot_of(place / "out") == before, "a failed run changed its outputs"


# --- the places the commands run in -------------------------------------------------------


@pytest.fixture(scope="module")
def place(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A deck (json, csv, xlsx), the default spec and snapshot, a good PDF and an out/
    folder holding an earlier output, made once."""
    root = tmp_path_factory.mktemp("fuzz")
    deck = synthetic_deck()
    write_deck(deck, root)
    for name in ("deck.toml", "jrc-2024-01.csv", "jrc-2024-01.provenance.json"):
        (root / name).write_bytes((ROOT / "sources" / name).read_bytes())
    (root / "out").mkdir()
    (root / "out" / "kraftstokk-a4.pdf").write_bytes(b"%PDF- an earlier render")
    (root / "out" / "regler.pdf").write_bytes(b"%PDF- an earlier booklet")
    make_pdf(root / "good.pdf")
    return root


# --- deck.json, deck.csv, deck.xlsx -------------------------------------------------------

DECK_JSON = deck_json_text(synthetic_deck()).encode("utf-8")
DECK_CSV = deck_csv_text(synthetic_deck()).encode("utf-8")


def _csv_changes() -> st.SearchStrategy[bytes]:
    rows = DECK_CSV.decode("utf-8").splitlines()
    edit = st.tuples(
        st.integers(0, len(rows) - 1),
        st.integers(0, 25),
        st.sampled_from(['"', '""', "\ud800", "name", "1e308", "nan", "-4", "3,960", "", "x" * 300])
        | st.text(max_size=12),
    )

    def apply(edits: list[tuple[int, int, str]]) -> bytes:
        table = [row.split(",") for row in rows]
        for line, column, text in edits:
            cells = table[line]
            cells[column % len(cells)] = text
        return "\n".join(",".join(cells) for cells in table).encode("utf-8", "surrogatepass")

    return st.lists(edit, min_size=1, max_size=5).map(apply)


@examples(5)
@given(data=st.one_of(_mutated(DECK_JSON), toml_changes(json.loads(DECK_JSON)).map(_json_bytes)))
def test_deck_json_survives(place: Path, data: bytes):
    (place / "fuzz.json").write_bytes(data)
    assert_well_behaved(run_command(["validate", "fuzz.json"], place, reader="deck.json"))


@examples(5)
@example(data=DECK_CSV.replace(b"id,", b"name,", 1))  # a duplicated name column
@example(data=DECK_CSV.replace(b"\n", b'\n"', 1))  # an unbalanced quote on line 2
@example(data=DECK_CSV.replace(b"\n", b"\n\xed\xa0\x80", 1))  # a lone surrogate on line 2
@given(data=st.one_of(_csv_changes(), _mutated(DECK_CSV)))
def test_deck_csv_survives(place: Path, data: bytes):
    (place / "fuzz.csv").write_bytes(data)
    assert_well_behaved(run_command(["validate", "fuzz.csv"], place, reader="deck.csv"))


def _workbook(cells: list[tuple[int, int, Any]]) -> bytes:
    from openpyxl import Workbook

    workbook = Workbook()
    sheet = workbook.active
    assert sheet is not None
    for row in DECK_CSV.decode("utf-8").splitlines():
        sheet.append(row.split(","))
    for row, column, value in cells:
        sheet.cell(row=row, column=column, value=value)
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()


GOOD_XLSX = _workbook([])
XLSX_VALUES = (
    st.text(alphabet=st.characters(codec="utf-8", exclude_categories=["Cs", "Cc"]), max_size=40)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.integers(-(10**15), 10**15)
    | st.booleans()
    | st.just('=HYPERLINK("http://x")')
)


def _sheet_xml_mutated() -> st.SearchStrategy[bytes]:
    """The workbook with bytes of its sheet's XML changed: XML that breaks, half-cut."""
    with zipfile.ZipFile(io.BytesIO(GOOD_XLSX)) as archive:
        parts = {name: archive.read(name) for name in archive.namelist()}
    sheet = "xl/worksheets/sheet1.xml"

    def rezip(xml: bytes) -> bytes:
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
            for name, data in parts.items():
                archive.writestr(name, xml if name == sheet else data)
        return buffer.getvalue()

    return _mutated(parts[sheet]).map(rezip)


XLSX_FILES = st.one_of(
    st.lists(
        st.tuples(st.integers(1, 60), st.integers(1, 30), XLSX_VALUES), min_size=1, max_size=6
    ).map(_workbook),
    _mutated(GOOD_XLSX),
    _sheet_xml_mutated(),
)


@examples(4)
@given(data=XLSX_FILES)
def test_deck_xlsx_survives(place: Path, data: bytes):
    (place / "fuzz.xlsx").write_bytes(data)
    assert_well_behaved(run_command(["validate", "fuzz.xlsx"], place, reader="deck.xlsx"))


# --- the deck spec --------------------------------------------------------------------------

SPEC = (ROOT / "sources" / "deck.toml").read_bytes()


@examples(4)
@given(data=toml_files(SPEC))
def test_deck_spec_survives(place: Path, data: bytes):
    (place / "fuzz-spec.toml").write_bytes(data)
    before = snapshot_of(place / "out")
    run = run_command(["build", "--spec", "fuzz-spec.toml", "--out", "out"], place, reader="spec")
    assert_well_behaved(run)
    expect_kept(place, before, run.returncode)
    if run.returncode == 0:  # a good spec made a deck: put the earlier outputs back
        for name in ("deck.json", "deck.csv"):
            (place / "out" / name).unlink()


# --- a card layout ----------------------------------------------------------------------------

POKER = (DESIGN / "layouts" / "poker.toml").read_bytes()
BRIDGE = (DESIGN / "layouts" / "bridge.toml").read_bytes()
CHAIN = b"chain of thirteen"


@examples(3)
@example(data=POKER.replace(b"figure_gap = 1.8", b"figure_gap = 1e308"))
@example(data=POKER.replace(b"frame_radius = 3.0", b"frame_radius = 1e308"))
@example(data=CHAIN)
@given(data=st.one_of(toml_files(POKER), toml_files(BRIDGE)))
def test_layout_survives(place: Path, tmp_path: Path, data: bytes):
    folder = data_folder(DESIGN / "layouts", tmp_path / "layouts")
    if data == CHAIN:  # fuzz extends c13 extends ... extends c1 extends poker
        parent = "poker"
        for level in range(1, 14):
            (folder / f"c{level}.toml").write_text(f'extends = "{parent}"\ndescription = "c"\n')
            parent = f"c{level}"
        data = b'extends = "c13"\ndescription = "fuzz"\n'
    (folder / "fuzz.toml").write_bytes(data)
    before = snapshot_of(place / "out")
    args = ["render", "deck.json", "--layout", "fuzz", "--only", "sheets", "--out", "out"]
    run = run_command(args, place, reader="layout", setup=reading_from(folder, "design.layout"))
    assert_well_behaved(run)
    expect_kept(place, before, run.returncode)
    listing = run_command(
        ["render", "--list-layouts"],
        place,
        reader="layout",
        setup=reading_from(folder, "design.layout"),
    )
    assert_well_behaved(listing)
    assert "poker " in listing.stdout  # the good files are listed whatever fuzz.toml holds
    if data == b'extends = "c13"\ndescription = "fuzz"\n':
        assert "extends chains more than 8 layouts" in run.stderr


# --- a printer preset -------------------------------------------------------------------------

OFFSET = (DESIGN / "presets" / "offset.toml").read_bytes()
HOME = (DESIGN / "presets" / "home-a4.toml").read_bytes()


@examples(3)
@example(data=OFFSET.replace(b"bleed_mm = 3.0", b"bleed_mm = 1e308"))
@given(data=st.one_of(toml_files(OFFSET), toml_files(HOME)))
def test_preset_survives(place: Path, tmp_path: Path, data: bytes):
    folder = data_folder(DESIGN / "presets", tmp_path / "presets")
    (folder / "fuzz.toml").write_bytes(data)
    setup = reading_from(folder, "design.presets")
    checked = run_command(["preflight", "good.pdf", "--preset", "fuzz"], place, "", "preset", setup)
    assert_well_behaved(checked)
    if "is outside" in checked.stderr:
        assert "fuzz.toml: " in checked.stderr and "http" not in checked.stderr
    before = snapshot_of(place / "out")
    args = ["render", "deck.json", "--preset", "fuzz", "--only", "sheets", "--out", "out"]
    rendered = run_command(args, place, reader="preset", setup=setup)
    assert_well_behaved(rendered)
    expect_kept(place, before, rendered.returncode)


# --- a locale ---------------------------------------------------------------------------------

LOCALES = ROOT / "kraftstokk" / "locales"
NB = (LOCALES / "nb" / "booklet.toml").read_bytes()


@examples(2)
@example(data=NB.replace(b'subtitle = "Spilleregler"', b'subtitle = "<b>Spilleregler"'))
@example(
    data=NB.replace(b'subtitle = "Spilleregler"', b'subtitle = "<img src=\\"/etc/passwd\\"/>"')
)
@example(data=NB.replace(b'subtitle = "Spilleregler"', b'subtitle = "<font size=1000000>x</font>"'))
@example(
    data=NB.replace(
        b"[grammar.plurals]\n",
        b'[grammar.plurals.">999999999"]\none = "{count}"\nother = "{count}"\n',
    ).replace(b'edition = "Utgave {edition}"', b'edition = "Utgave {edition:>999999999}"')
)
@given(data=toml_files(NB))
def test_locale_survives(place: Path, tmp_path: Path, data: bytes):
    folder = tmp_path / "locales"
    data_folder(LOCALES / "nb", folder / "nb")  # bokmål alone: the language the booklet reads
    (folder / "nb" / "booklet.toml").write_bytes(data)
    before = snapshot_of(place / "out")
    run = run_command(
        ["booklet", "deck.json", "--out", "out"],
        place,
        reader="locale",
        setup=reading_from(folder, "locales.loader"),
    )
    assert_well_behaved(run)
    expect_kept(place, before, run.returncode)
    if run.returncode == 0:
        (place / "out" / "regler.pdf").write_bytes(before["regler.pdf"])


# --- a sweep file -----------------------------------------------------------------------------

SWEEP = {
    "title": "fuzz",
    "games": 4,
    "seed": 1,
    "chunk": 2,
    "action_cap": 2000,
    "grid": {"decks": ["deck.json"], "games": ["idiot"], "players": [3], "bots": ["greedy"]},
}
SWEEP_BYTES = toml_bytes(SWEEP)


def _small(data: bytes) -> bytes:
    """A sweep that asks for many games is right to play them: keep the fuzz's small."""
    try:
        parsed = tomllib.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError):
        return data
    games = parsed.get("games")
    if isinstance(games, int) and not isinstance(games, bool) and 20 < games <= 10_000_000:
        parsed["games"] = 20
        return toml_bytes(parsed)
    return data


@examples(3)
@example(data=SWEEP_BYTES.replace(b'"action_cap" = 2000', b'"action_cap" = 2147483648'))
@example(data=SWEEP_BYTES.replace(b'"action_cap" = 2000', b'"action_cap" = 9223372036854775808'))
@given(data=st.one_of(toml_files(SWEEP_BYTES), _mutated(SWEEP_BYTES)).map(_small))
def test_sweep_file_survives(place: Path, tmp_path: Path, data: bytes):
    (place / "fuzz-sweep.toml").write_bytes(data)
    out = tmp_path / "sweep"
    args = ["sweep", "fuzz-sweep.toml", "--out", str(out), "--workers", "1", "--no-report"]
    run = run_command(args, place, reader="sweep")
    assert_well_behaved(run)
    if b"2147483648" in data or b"9223372036854775808" in data:
        assert run.returncode == 1 and "action_cap: " in run.stderr and "1 000 000" in run.stderr


# --- a replay log -----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def save(place: Path) -> bytes:
    args = ["play", "--game", "idiot", "--players", "2", "--deck", "deck.json", "--seed", "5"]
    run = run_command(
        [*args, "--bots", "greedy", "--seat", "1", "--save", "good-save.json"], place, "2\n"
    )
    assert run.returncode == 0, run.stderr
    return (place / "good-save.json").read_bytes()


@examples(4)
@given(edits=st.data())
def test_replay_log_survives(place: Path, save: bytes, edits: st.DataObject):
    data = edits.draw(st.one_of(_mutated(save), toml_changes(json.loads(save)).map(_json_bytes)))
    (place / "fuzz-save.json").write_bytes(data)
    (place / "out.json").write_text("an earlier save", encoding="utf-8")
    args = ["play", "--load", "fuzz-save.json", "--save", "out.json"]
    run = run_command(args, place, reader="replay log")
    assert_well_behaved(run)
    if run.returncode != 0:
        assert (place / "out.json").read_text(encoding="utf-8") == "an earlier save"


# --- a PDF for preflight ----------------------------------------------------------------------

OPERATORS = st.sampled_from(
    (
        "q",
        "Q",
        "cm",
        "w",
        "m",
        "l",
        "c",
        "v",
        "y",
        "re",
        "h",
        "f",
        "f*",
        "S",
        "s",
        "B",
        "b",
        "n",
        "W",
        "W*",
        "BT",
        "ET",
        "Tf",
        "Tj",
        "TJ",
        "'",
        '"',
        "Td",
        "TD",
        "Tm",
        "T*",
        "Tr",
        "TL",
        "Ts",
        "g",
        "G",
        "rg",
        "RG",
        "k",
        "K",
        "cs",
        "CS",
        "sc",
        "scn",
        "gs",
        "Do",
        "sh",
        "BI",
        "ID",
        "EI",
        "d0",
        "BDC",
        "EMC",
    )
)
OPERANDS = st.one_of(
    BOUNDARY_NUMBERS.map(lambda n: repr(n) if n == n and abs(n) != float("inf") else "1"),
    st.integers(-(10**6), 10**6).map(str),
    st.sampled_from(
        [
            "/F",
            "/F1",
            "/X",
            "/Im",
            "(text)",
            "(Fallh\\370yde)",
            "<41>",
            "[1 2]",
            "<<>>",
            "[",
            "(",
            "<",
        ]
    ),
)
CONTENT = st.lists(st.tuples(st.lists(OPERANDS, max_size=6), OPERATORS), max_size=60).map(
    lambda ops: " ".join(" ".join([*operands, op]) for operands, op in ops).encode("latin-1")
)


def _good_pdf() -> bytes:
    """A card page that passes the offset preset (tests/test_preflight.py makes it)."""
    with tempfile.TemporaryDirectory() as folder:
        return make_pdf(Path(folder) / "good.pdf").read_bytes()


PDF_FILES = st.one_of(
    CONTENT.map(pdf_files.one_page),
    st.tuples(st.integers(1, 14), st.integers(1, 12)).map(lambda t: pdf_files.nested_forms(*t)),
    st.sampled_from(list(pdf_files.ENCRYPTIONS.values())).map(pdf_files.encrypted),
    _mutated(pdf_files.nested_forms(3)),
    st.builds(_good_pdf).flatmap(_mutated),
)


@examples(6)
@example(data=pdf_files.nested_forms(11))
@example(data=pdf_files.encrypted(pdf_files.ENCRYPTIONS["AES"]))
@given(data=PDF_FILES)
def test_pdf_survives_preflight(place: Path, data: bytes):
    (place / "fuzz.pdf").write_bytes(data)
    run = run_command(["preflight", "fuzz.pdf", "--json"], place, reader="pdf")
    assert_well_behaved(run)
    if run.returncode in (0, 1):
        assert json.loads(run.stdout)["file"] == "fuzz.pdf"
