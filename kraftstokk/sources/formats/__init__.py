"""The source formats ``ingest`` reads, listed once: each is one module of this package.

A format says what it is called (``--format`` NAME), which origin its figures come from
(and so their licence and attribution), how ``--format auto`` recognises it, and how it
is read into raw records. ``ingest --format``, auto-detection, the command's help and the
snapshot's licence text all read :data:`FORMATS`; a new format is a new module listed
here. Modules import their reading code only when they read, so listing them is cheap.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from kraftstokk.errors import InputFileError
from kraftstokk.sources.formats.format import SourceFormat
from kraftstokk.textfile import read_input_bytes

if TYPE_CHECKING:
    from kraftstokk.sources.readers import SourceRows


def _formats() -> tuple[SourceFormat, ...]:
    from kraftstokk.sources.formats import jrc_csv, nve_csv, nve_json, nve_xlsx

    # Detection order: a workbook by its bytes first, then JSON, then the CSV headers.
    return (nve_xlsx.FORMAT, nve_json.FORMAT, jrc_csv.FORMAT, nve_csv.FORMAT)


FORMATS: tuple[SourceFormat, ...] = _formats()
#: The names in the order the help lists them.
NAMES: tuple[str, ...] = ("nve-json", "nve-csv", "nve-xlsx", "jrc-csv")
CHOICES: tuple[str, ...] = ("auto", *NAMES)
assert sorted(NAMES) == sorted(f.name for f in FORMATS)


def find(name: str, path: object = "--format") -> SourceFormat:
    """The format called ``name``; any other name is an InputFileError listing the choices."""
    for source_format in FORMATS:
        if source_format.name == name:
            return source_format
    raise InputFileError(path, f"unknown format {name!r} (use {', '.join(CHOICES)})")


def detect(path: Path, data: bytes) -> SourceFormat:
    """The first format whose sniff accepts the file, or an InputFileError saying why none."""
    from kraftstokk.sources.readers import decode_text, explain_unknown

    decoded: list[str] = []

    def text() -> str:
        if not decoded:
            decoded.append(decode_text(path, data))
        return decoded[0]

    for source_format in FORMATS:
        if source_format.sniff(path, data, text):
            return source_format
    raise explain_unknown(path, text())


def detect_format(path: Path, text: str) -> str:
    """The name of the format ``--format auto`` takes a text file for."""
    return detect(path, text.encode("utf-8")).name


def read_source(path: str | Path, fmt: str = "auto") -> SourceRows:
    """Read one plant file in ``fmt`` (``auto`` detects it) into raw records."""
    from kraftstokk.sources.readers import SourceRows

    path = Path(path)
    chosen = find(fmt, path) if fmt != "auto" else None
    data = read_input_bytes(path, "data file")
    if chosen is None:
        chosen = detect(path, data)
    records = chosen.read(path, data)
    return SourceRows(path=path, format=chosen.name, records=records)  # type: ignore[arg-type]


def help_text() -> str:
    """The ``--format`` help: every name, and how ``auto`` tells each apart."""
    by_name = {f.name: f for f in FORMATS}
    listed = "; ".join(f"{name}: {by_name[name].description}" for name in NAMES)
    auto = ", ".join(f"{by_name[name].name} {by_name[name].recognised_by}" for name in NAMES)
    return f"auto (default), or {listed}. auto knows {auto}."


def attribution_nb(formats: list[SourceFormat]) -> str:
    """The attribution of :func:`licence_and_attribution` in bokmål, for the cards."""
    origins = sorted({f.origin for f in formats}, key=lambda origin: origin.name)
    return " ".join(o.attribution_nb for o in origins)


def licence_and_attribution(formats: list[SourceFormat]) -> tuple[str, str]:
    """Licence and attribution text for the origins of ``formats`` (each origin once)."""
    origins = sorted({f.origin for f in formats}, key=lambda origin: origin.name)
    return "; ".join(o.licence for o in origins), " ".join(o.attribution for o in origins)
