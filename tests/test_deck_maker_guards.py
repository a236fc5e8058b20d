"""No silent wrong answer for the deck maker (issue 33): hand edits, mixed files, two
spellings of one plant, absurd figures, a Norwegian spreadsheet's decimal commas, a
reprint in another size. Each case goes through the CLI: exit code, message, and the
files before and after by digest.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kraftstokk.cli import app
from kraftstokk.deck.io import load_deck, load_deck_json_file
from tests.test_deck_repair import edit_csv
from tests.test_folder_lock import digests

SOURCES = Path(__file__).resolve().parents[1] / "sources"
runner = CliRunner()


def invoke(*args: str):
    return runner.invoke(app, [str(arg) for arg in args])


def one_line(result, code: int, *parts: str) -> str:
    """The command failed with ``code`` and one error line holding every part."""
    assert result.exit_code == code, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    for part in parts:
        assert part in lines[0], lines[0]
    return lines[0]


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Last year's print folder: the embedded JRC deck (edition 2024-01)."""
    folder = tmp_path_factory.mktemp("print") / "print-2025"
    result = invoke("build", "--spec", SOURCES / "deck.toml", "--out", folder)
    assert result.exit_code == 0, result.output
    return folder


@pytest.fixture
def printed(built: Path, tmp_path: Path) -> Path:
    folder = tmp_path / "print-2025"
    shutil.copytree(built, folder)
    return folder


def spec_with(tmp_path: Path, name: str, text: str, **replace: str) -> Path:
    """The shipped spec (its files beside it) with ``text`` added and lines replaced."""
    for file in ("jrc-2024-01.csv", "jrc-2024-01.provenance.json", "plant-places.csv",
                 "plant-places.provenance.json"):  # fmt: skip
        if not (tmp_path / file).exists():
            shutil.copy(SOURCES / file, tmp_path / file)
    spec = (SOURCES / "deck.toml").read_text(encoding="utf-8")
    for old, new in replace.items():
        assert old in spec
        spec = spec.replace(old, new)
    path = tmp_path / name
    path.write_text(spec + text, encoding="utf-8")
    return path


# Item 2: repair trusts whatever deck.json lies beside the edited file -------------------


def test_repair_refuses_last_years_deck_json_beside_this_years_deck_csv(
    printed: Path, tmp_path: Path
):
    spec = spec_with(
        tmp_path, "2026.toml", "", **{'edition = "2024-01"': 'edition = "2026-11"',
                                      "excluded = []": 'excluded = ["N302"]'}
    )  # fmt: skip
    this_year = tmp_path / "print-2026"
    assert invoke("build", "--spec", spec, "--out", this_year).exit_code == 0
    shutil.copy(printed / "deck.json", this_year / "deck.json")  # last year's, by mistake
    before = digests(this_year)
    result = invoke("repair", this_year / "deck.csv")
    old = load_deck_json_file(this_year / "deck.json")
    line = one_line(
        result,
        2,
        f"{this_year / 'deck.csv'}: deck.csv (build ",
        f"and {this_year / 'deck.json'} (build {old.build}, edition 2024-01) are not one deck",
        "only in deck.json: Nedre Vinstra (N302)",
        "put the deck.json written with deck.csv beside it",
    )
    assert "only in deck.csv: " in line
    assert digests(this_year) == before


def build_keeping(kept: Path, out: Path):
    """``build --keep-from kept`` of the shipped spec into ``out``, which succeeds."""
    result = invoke("build", "--spec", SOURCES / "deck.toml", "--keep-from", kept, "-o", out)
    assert result.exit_code == 0, result.output
    return result


def unrepaired(kept: Path, against: str) -> str:
    """The build's warning that ``kept`` holds one figure edited by hand, not repaired."""
    return (
        f"warning: {kept.as_posix()} holds 1 figure(s) edited by hand and not repaired (they "
        f"differ from {against})"
    )


def edit_json(path: Path, plant_id: str, **figures: float) -> None:
    """Change figures in deck.json by hand, as a text editor would."""
    raw = json.loads(path.read_text(encoding="utf-8"))
    for card in raw["cards"]:
        if card.get("plant_id") == plant_id:
            card.update(figures)
    path.write_text(json.dumps(raw, indent=2, ensure_ascii=False), encoding="utf-8")


def test_a_deck_json_changed_by_hand_measures_no_edits_and_its_own_are_kept(
    printed: Path, tmp_path: Path
):
    """Items 1, 2 and 4 the other way round: a figure changed in deck.json itself would
    make repair of the untouched deck.csv record a correction nobody made (the table's
    figure put back), and build --keep-from deck.json put the source's figure back."""
    edit_json(printed / "deck.json", "N448", head_m=450.0)
    before = digests(printed)
    build = load_deck_json_file(printed / "deck.json").build
    said = (
        f"note: {printed / 'deck.json'}: changed after kraftstokk wrote it (its content is "
        f"not that of build {build}): the deck.csv and "
        "deck.xlsx written with it no longer say the same; kraftstokk repair "
    )
    assert said in invoke("validate", printed / "deck.json").stdout
    assert said in invoke("diff", printed / "deck.json", printed / "deck.json").stderr
    one_line(
        invoke("repair", printed / "deck.csv"),
        2,
        f"{printed / 'deck.csv'}: {printed / 'deck.json'} was changed after kraftstokk wrote "
        f"it (its content is not that of build {build}), so "
        "it cannot tell what was edited in deck.csv: run kraftstokk repair "
        f"{printed / 'deck.json'} to keep its edits as hand corrections first",
    )
    assert digests(printed) == before
    out = tmp_path / "print-2026"
    kept = build_keeping(printed / "deck.json", out)
    assert unrepaired(printed / "deck.json", "the deck.csv written with it") in kept.stdout
    assert load_deck(out / "deck.json").card("spar-1").head_m == 450  # not 442 put back
    repaired = invoke("repair", printed / "deck.json")
    assert repaired.exit_code == 0, repaired.output
    assert "edited by hand in deck.json (was 442 m)" in repaired.stdout
    deck = load_deck(printed / "deck.csv")  # one deck again, the edit recorded
    assert deck.spec["figures"]["N448"]["head_m"] == 450


def test_a_deck_json_saved_again_unchanged_is_no_change(printed: Path):
    """The check is on the content: a deck.json an editor saved again in its own layout
    (no indentation, keys as they were) is still the deck the table was written with."""
    raw = json.loads((printed / "deck.json").read_text(encoding="utf-8"))
    (printed / "deck.json").write_text(json.dumps(raw, separators=(",", ":")), encoding="utf-8")
    result = invoke("repair", printed / "deck.csv")
    assert result.exit_code == 0, result.output
    assert "changed after" not in result.output
    assert "no card must be reprinted" in result.stdout


def test_a_deck_json_changed_by_hand_alone_is_not_kept_from_silently(printed: Path, tmp_path: Path):
    edit_json(printed / "deck.json", "N448", head_m=450.0)
    for table in ("deck.csv", "deck.xlsx"):
        (printed / table).unlink()
    out = tmp_path / "print-2026"
    for args in (
        ("build", "--spec", SOURCES / "deck.toml", "--keep-from", printed / "deck.json", "-o", out),
        ("repair", printed / "deck.json"),
    ):
        one_line(
            invoke(*args),
            2,
            f"{printed / 'deck.json'}: changed after kraftstokk wrote it",
            "no deck.csv or deck.xlsx of that build lies beside it to tell which figures were "
            "edited",
        )
    assert not out.exists()


def test_a_table_read_while_a_build_replaces_its_deck_json_is_read_again_not_refused(
    printed: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    """Item 1's readers: a build replaces deck.csv, deck.xlsx, deck.json one after the
    other; a reader between two of them saw this year's table beside last year's
    deck.json and refused them as two decks. It reads both again once instead."""
    from kraftstokk.deck import io as deck_io

    spec = spec_with(tmp_path, "2026.toml", "", **{'edition = "2024-01"': 'edition = "2026-11"'})
    assert invoke("build", "--spec", spec, "--out", tmp_path / "new").exit_code == 0
    shutil.copy(tmp_path / "new" / "deck.csv", printed / "deck.csv")  # the build's first step
    real = deck_io.read_deck_json
    replaced: list[Path] = []

    def the_build_goes_on(path: Path):
        read = real(path)
        if not replaced:  # the build replaces deck.json just after the reader read it
            replaced.append(path)
            os.replace(shutil.copy(tmp_path / "new" / "deck.json", tmp_path / "n.json"), path)
        return read

    monkeypatch.setattr(deck_io, "read_deck_json", the_build_goes_on)
    deck = deck_io.load_deck(printed / "deck.csv")
    assert replaced and deck.edition == "2026-11"
    assert deck.build == load_deck_json_file(tmp_path / "new" / "deck.json").build


# Item 3: a deck.xlsx with a second sheet -------------------------------------------------


def test_repair_reads_the_sheet_named_deck_not_a_backup_copy_before_it(printed: Path):
    from openpyxl import load_workbook

    path = printed / "deck.xlsx"
    book = load_workbook(path)
    deck_sheet = book["deck"]
    backup = book.copy_worksheet(deck_sheet)
    backup.title = "backup"
    book.move_sheet(backup, offset=-1)  # the backup is the first sheet
    head = next(i for i, cell in enumerate(deck_sheet[1], 1) if cell.value == "head_m")
    row = next(r for r in range(2, 57) if deck_sheet.cell(r, 6).value == "Tonstad")
    deck_sheet.cell(row, head).value = 442.5
    book.save(path)
    result = invoke("repair", path)
    assert result.exit_code == 0, result.output
    assert "spar-1 Tonstad (N448) head_m 442 -> 442.5 m" in result.stdout
    assert load_deck(printed / "deck.json").card("spar-1").head_m == 442.5


def test_a_workbook_of_several_sheets_none_named_deck_is_refused_listing_them(printed: Path):
    from openpyxl import load_workbook

    path = printed / "deck.xlsx"
    book = load_workbook(path)
    book["deck"].title = "Ark1"
    book.create_sheet("Ark2")
    book.save(path)
    before = digests(printed)
    for command in ("repair", "validate"):
        one_line(
            invoke(command, path),
            2,
            "no sheet named 'deck' among its 2 sheets ('Ark1', 'Ark2'): name the sheet with "
            "the cards 'deck'",
        )
    book["Ark1"].title = "deck"  # one named so, the other nearly: which holds the edits?
    book["Ark2"].title = "deck "
    book.save(path)
    before = digests(printed)
    one_line(
        invoke("repair", path),
        2,
        "2 of its sheets are named 'deck' ('deck', 'deck '): keep that name on the sheet with "
        "the cards only",
    )
    assert digests(printed) == before


# Item 4: build --keep-from a deck.csv with an edit not yet repaired ----------------------


def test_keeping_from_an_unrepaired_deck_csv_reads_its_edits_as_hand_corrections(
    printed: Path, tmp_path: Path
):
    edit_csv(printed / "deck.csv", "N448", head_m="442.5")
    out = tmp_path / "print-2026"
    result = build_keeping(printed / "deck.csv", out)
    assert (
        unrepaired(printed / "deck.csv", "the deck.json beside it") + "; read as hand corrections"
    ) in result.stdout
    assert "  spar-1 Tonstad (N448) head_m 442 -> 442.5 m" in result.stdout
    deck = load_deck(out / "deck.json")
    assert deck.card("spar-1").head_m == 442.5  # not the source's 442 put back
    assert deck.spec["figures"]["N448"]["head_m"] == 442.5


# Item 5: corrections or names under both spellings of one plant --------------------------


@pytest.mark.parametrize(
    ("added", "replace", "says"),
    [
        (
            '\n[figures.448]\nhead_m = 442.5\nreason = "a"\n'
            '[figures.N448]\nhead_m = 443\nreason = "b"\n',
            {},
            'figures: "448" and "N448" name one plant (key 448); keep one entry',
        ),
        (
            "",
            {'N1422 = "Sønnå Høy"': 'N1422 = "Sønnå Høy"\n1422 = "Sonna"'},
            'names: "N1422" and "1422" name one plant (key 1422); keep one entry',
        ),
        (
            "",
            {'kind = "production-ladder"': 'kind = "table"\n'
             'table = { "spar-1" = "448", "spar-2" = "N448" }'},
            'policy.table: "spar-1" = "448" and "spar-2" = "N448" name one plant (key 448)',
        ),
    ],
)  # fmt: skip
def test_two_spellings_of_one_plant_in_the_spec_are_refused(
    tmp_path: Path, added: str, replace: dict[str, str], says: str
):
    spec = spec_with(tmp_path, "twice.toml", added, **replace)
    one_line(invoke("build", "--spec", spec, "--out", tmp_path / "out"), 2, says)
    assert not (tmp_path / "out").exists()


# Item 8: figures no plant has --------------------------------------------------------------


@pytest.mark.parametrize("figure", ["1e27", "1e28", "1e300"])
def test_an_absurd_figure_is_one_line_in_repair_diff_and_render_only_changed(
    printed: Path, tmp_path: Path, figure: str
):
    edited = tmp_path / "edited"
    shutil.copytree(printed, edited)
    edit_csv(edited / "deck.csv", "N448", head_m=figure)
    before = digests(tmp_path)
    says = f"spar-1 (Tonstad) head_m {float(figure):g} m is outside what any plant has"
    one_line(invoke("repair", edited / "deck.csv"), 2, says, "fix the figure")
    one_line(invoke("diff", printed / "deck.json", edited / "deck.csv"), 2, says)
    old_is_absurd = invoke(
        "render", printed / "deck.json", "--only-changed", edited / "deck.csv", "-o", tmp_path / "r"
    )
    one_line(old_is_absurd, 2, f"{edited / 'deck.csv'}: {says}")
    assert digests(tmp_path) == before


# Item 13: the English-style deck.csv in a Norwegian spreadsheet ---------------------------


def test_a_decimal_comma_typed_into_an_english_deck_csv_is_read_and_said(printed: Path):
    edit_csv(printed / "deck.csv", "N448", head_m="442,5")  # saved quoted: "442,5"
    assert '"442,5"' in (printed / "deck.csv").read_text(encoding="utf-8")
    result = invoke("repair", printed / "deck.csv")
    assert result.exit_code == 0, result.output
    assert (
        "1 number(s) written with a decimal comma in a file of decimal points (as a "
        "spreadsheet set to another language saves what is typed into it), read as such: "
        "line 2 head_m of spar-1 (Tonstad) 442,5 -> 442.5"
    ) in result.stdout
    assert load_deck(printed / "deck.json").card("spar-1").head_m == 442.5


def test_every_reader_of_a_deck_csv_says_the_decimal_comma_it_read(printed: Path):
    edit_csv(printed / "deck.csv", "N448", head_m="442,5")
    note = (
        f"note: {printed / 'deck.csv'}: 1 number(s) written with a decimal comma in a file of "
        "decimal points"
    )
    for args in (
        ("diff", printed / "deck.json", printed / "deck.csv"),
        ("render", printed / "deck.csv", "-o", printed / "r", "--only", "printshop"),
    ):
        result = invoke(*args)
        assert note in result.stderr, (args, result.stderr)
        assert note not in invoke(*args, "--quiet").stderr


def test_the_date_hints_figure_is_read(printed: Path):
    """The hint for a figure turned into a date says "type 20,5": typed so, it is read."""
    edit_csv(printed / "deck.csv", "N448", head_m="20.05.2026")
    result = invoke("validate", printed / "deck.csv")
    one_line(result, 2, "format the column as Number and type 20,5 if that is the figure")
    edit_csv(printed / "deck.csv", "N448", head_m="20,5")
    result = invoke("repair", printed / "deck.csv")
    assert result.exit_code == 0, result.output
    assert load_deck(printed / "deck.json").card("spar-1").head_m == 20.5


def test_a_file_mixing_decimal_commas_and_points_says_so_and_what_to_do(printed: Path):
    edit_csv(printed / "deck.csv", "N448", head_m="442,5", mw="3,960")
    before = digests(printed)
    one_line(
        invoke("repair", printed / "deck.csv"),
        2,
        'line 2: mw of spar-1 (Tonstad) reads "3,960": a thousands mark or a decimal mark? '
        'This file mixes decimal points and decimal commas ("442,5"), as a spreadsheet set '
        "to Norwegian saves an English-style deck.csv: edit deck.xlsx instead",
        "or write deck.csv with --csv-style nb",
    )
    assert digests(printed) == before


# Items 6 and 11: render --only-changed in another size; a stale reprint ------------------


def test_a_reprint_in_another_card_size_is_refused(printed: Path, tmp_path: Path):
    assert (
        invoke("render", printed / "deck.json", "-o", printed, "--only", "printshop").exit_code == 0
    )
    edited = tmp_path / "new"
    shutil.copytree(printed, edited)
    edit_csv(edited / "deck.csv", "N302", name="Nedre Vinstra kraftverk")
    assert invoke("repair", edited / "deck.csv").exit_code == 0
    before = digests(tmp_path)
    args = ("render", edited / "deck.json", "-o", edited, "--only-changed", printed / "deck.json")
    one_line(
        invoke(*args, "--layout", "bridge"),
        2,
        f"--only-changed {printed / 'deck.json'}: its cards were printed in the poker layout, "
        "63.5 x 88.9 mm (kraftstokk-printshop.pdf, ",
        "this render draws bridge, 57.2 x 88.9 mm: a reprint must be the size of the cards it "
        "replaces. Give --layout poker",
    )
    one_line(
        invoke(*args, "--preset", "drivethrucards"),
        2,
        "this render draws poker-dtc, the same size, another design: a reprint must look like "
        "the cards it replaces",
    )
    one_line(
        invoke(*args, "--preset", "offset-x4"),
        2,
        "its cards were printed for the offset preset (kraftstokk-printshop.pdf, ",
        "this render makes the offset-x4 print-shop file",
        "Give --preset offset",
    )
    (printed / "kraftstokk-render.json").unlink()  # rendered before records: its own layout
    one_line(
        invoke(*args, "--layout", "bridge"),
        2,
        "its cards are in the poker layout (",
        "'s own (no kraftstokk-render.json beside it)",
    )
    del before["print-2025/kraftstokk-render.json"]
    assert digests(tmp_path) == before


def test_a_deck_table_with_edits_not_repaired_is_no_old_deck_of_a_reprint_or_proof(
    printed: Path, tmp_path: Path
):
    """OLD is the deck that was printed: its deck.csv with an edit made since (not
    repaired) would give a verdict against cards nobody printed."""
    unedited = invoke("proof", printed / "deck.csv", printed / "deck.json", "-o", tmp_path / "p")
    assert unedited.exit_code == 0, unedited.output  # the table of the deck printed is fine
    edit_csv(printed / "deck.csv", "N302", name="Nedre Vinstra kraftverk")
    before = digests(tmp_path)
    for args in (
        ("render", printed / "deck.json", "--only-changed", printed / "deck.csv", "-o",
         tmp_path / "r"),
        ("proof", printed / "deck.csv", printed / "deck.json", "-o", tmp_path / "p"),
    ):  # fmt: skip
        one_line(
            invoke(*args),
            2,
            f"{printed / 'deck.csv'}: holds edits not repaired (1 card(s) differ from "
            f"{printed / 'deck.json'}: hjerter-10), so it is not the deck that was printed: "
            f"give {printed / 'deck.json'} (the deck printed), or run kraftstokk repair",
        )
    assert digests(tmp_path) == before


def test_a_reprint_of_nothing_removes_the_earlier_reprints_files(printed: Path, tmp_path: Path):
    edited = tmp_path / "new"
    shutil.copytree(printed, edited)
    edit_csv(edited / "deck.csv", "N302", name="Nedre Vinstra kraftverk")
    assert invoke("repair", edited / "deck.csv").exit_code == 0
    out = tmp_path / "out"
    first = invoke(
        "render", edited / "deck.json", "-o", out, "--only-changed", printed / "deck.json",
        "--only", "printshop",
    )  # fmt: skip
    assert first.exit_code == 0, first.output
    assert {p.name for p in out.iterdir()} == {"kraftstokk-printshop-reprint.pdf", "reprint.txt"}
    second = invoke(
        "render", printed / "deck.json", "-o", out, "--only-changed", printed / "deck.json"
    )
    assert second.exit_code == 0, second.output
    assert "nothing written: every face and the back print as in " in second.stdout
    assert "removed the earlier reprint's " in second.stdout
    assert not out.exists() or not any(out.iterdir())


def test_a_render_of_one_output_names_the_print_files_of_another_deck_beside_it(printed: Path):
    """Item 11 for a whole render: a print-shop file of last week's deck beside this
    week's sheets is said, not left to be sent to print unnoticed."""
    assert (
        invoke("render", printed / "deck.json", "-o", printed, "--only", "printshop").exit_code == 0
    )
    old_build = load_deck(printed / "deck.json").build
    edit_csv(printed / "deck.csv", "N302", name="Nedre Vinstra kraftverk")
    assert invoke("repair", printed / "deck.csv").exit_code == 0
    sheets = invoke("render", printed / "deck.json", "-o", printed, "--only", "sheets")
    assert sheets.exit_code == 0, sheets.output
    assert (
        f"warning: {printed / 'kraftstokk-printshop.pdf'} was rendered from another deck "
        f"(build {old_build}), not from {printed / 'deck.json'}: render again without --only"
    ) in sheets.stdout
    record = json.loads((printed / "kraftstokk-render.json").read_text(encoding="utf-8"))
    assert set(record["outputs"]) == {"kraftstokk-a4.pdf"}
    again = invoke("render", printed / "deck.json", "-o", printed, "--only", "printshop")
    assert again.exit_code == 0, again.output
    assert "warning" not in again.stdout


def test_repairing_another_deck_file_never_replaces_the_deck_json_of_its_folder(
    printed: Path, tmp_path: Path
):
    """A deck kept beside the printed one under another name (ties.json) would be repaired
    over that folder's deck.json, deck.csv and deck.xlsx: refused, nothing written."""
    other = printed / "ties.json"
    shutil.copy(printed / "deck.json", other)
    before = digests(printed)
    one_line(
        invoke("repair", other),
        2,
        f"{printed / 'deck.json'}: repairing {other} would replace this deck.json",
        "give --out a folder of its own",
    )
    assert digests(printed) == before
    own = tmp_path / "ties"
    repaired = invoke("repair", other, "--out", own)
    assert repaired.exit_code == 0, repaired.output
    assert (own / "deck.json").is_file() and digests(printed) == before
