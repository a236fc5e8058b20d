"""The NVE export as an Excel workbook (.xlsx): read through the same code as the CSV."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from kraftstokk.sources.formats.format import SourceFormat
from kraftstokk.sources.formats.origins import NVE

if TYPE_CHECKING:
    from kraftstokk.sources.normalize import RawRecord


def sniff(path: Path, data: bytes, text: Callable[[], str]) -> bool:
    from kraftstokk.sources.xlsx import looks_like_xlsx

    return looks_like_xlsx(path, data)


def read(path: Path, data: bytes) -> list[RawRecord]:
    from kraftstokk.sources.readers import read_nve_xlsx

    return read_nve_xlsx(path, data)


FORMAT = SourceFormat(
    name="nve-xlsx",
    origin=NVE,
    description="the NVE export as an Excel workbook (.xlsx)",
    recognised_by="by its .xlsx name or ZIP signature",
    sniff=sniff,
    read=read,
)
