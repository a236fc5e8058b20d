"""The JRC Hydro-power database CSV; only its Norwegian rows (country_code NO) are used."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from kraftstokk.sources.formats.format import SourceFormat
from kraftstokk.sources.formats.origins import JRC

if TYPE_CHECKING:
    from kraftstokk.sources.normalize import RawRecord


def sniff(path: Path, data: bytes, text: Callable[[], str]) -> bool:
    from kraftstokk.sources.readers import header_keys

    return {"countrycode", "installedcapacitymw"} <= header_keys(path, text())


def read(path: Path, data: bytes) -> list[RawRecord]:
    from kraftstokk.sources.readers import decode_text, read_jrc_csv

    return read_jrc_csv(path, decode_text(path, data))


FORMAT = SourceFormat(
    name="jrc-csv",
    origin=JRC,
    description="the JRC Hydro-power database CSV (Norwegian rows only)",
    recognised_by="by its country_code and installed_capacity_MW columns",
    sniff=sniff,
    read=read,
)
