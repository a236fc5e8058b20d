"""The source formats are one registry: --format, auto-detection, the help and the licence."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from kraftstokk.cli import app
from kraftstokk.errors import InputFileError, KraftstokkError
from kraftstokk.sources import formats
from kraftstokk.sources.formats import read_source
from kraftstokk.sources.ingest import ingest_files, licence_for
from tests.test_sources_xlsx import SEMICOLON_AS_CELLS, nve_workbook

FIXTURES = Path(__file__).parent / "fixtures" / "sources"


def test_every_format_is_one_module_with_name_origin_sniff_and_read():
    assert formats.CHOICES == ("auto", "nve-json", "nve-csv", "nve-xlsx", "jrc-csv")
    for source_format in formats.FORMATS:
        module = __import__(
            f"kraftstokk.sources.formats.{source_format.name.replace('-', '_')}",
            fromlist=["FORMAT"],
        )
        assert module.FORMAT is source_format
        assert source_format.origin.licence and source_format.origin.attribution
        assert callable(source_format.sniff) and callable(source_format.read)


@pytest.mark.parametrize(
    ("make", "name"),
    [
        (lambda tmp: FIXTURES / "nve-plants.json", "nve-json"),
        (lambda tmp: FIXTURES / "nve-export-semicolon.csv", "nve-csv"),
        (lambda tmp: FIXTURES / "jrc-sample.csv", "jrc-csv"),
        (lambda tmp: nve_workbook(tmp / "nve.xlsx", SEMICOLON_AS_CELLS), "nve-xlsx"),
    ],
)
def test_auto_detection_picks_the_format_that_reads_the_file(tmp_path: Path, make, name: str):
    path = make(tmp_path)
    data = path.read_bytes()
    assert formats.detect(path, data).name == name
    assert read_source(path).format == name
    assert read_source(path, name).records == read_source(path).records


def test_the_licence_comes_from_the_format_origin():
    snapshot = ingest_files([FIXTURES / "jrc-sample.csv", FIXTURES / "nve-plants.json"])
    nve, jrc = formats.find("nve-json").origin, formats.find("jrc-csv").origin
    assert snapshot.provenance.licence == f"{jrc.licence}; {nve.licence}"
    assert snapshot.provenance.attribution == f"{jrc.attribution} {nve.attribution}"


def test_an_unknown_origin_is_an_error_not_a_key_error():
    with pytest.raises(KraftstokkError, match="unknown data origin 'xyz'") as info:
        licence_for(["nve", "xyz"])
    assert not isinstance(info.value, KeyError)


def test_an_unknown_format_name_lists_the_registry():
    with pytest.raises(InputFileError, match=r"unknown format 'csv' \(use auto, nve-json"):
        formats.find("csv", "plants.csv")


def test_the_help_lists_every_format_and_how_auto_knows_it():
    text = " ".join(CliRunner().invoke(app, ["ingest", "--help"]).stdout.split())
    for source_format in formats.FORMATS:
        assert f"{source_format.name}: {' '.join(source_format.description.split())}" in text
        assert f"{source_format.name} {source_format.recognised_by}" in text
