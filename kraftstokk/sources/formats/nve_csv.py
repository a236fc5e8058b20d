"""An NVE CSV export with Norwegian headers (VannKraftverkID, Navn, MaksYtelse, ...)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from kraftstokk.sources.formats.format import SourceFormat
from kraftstokk.sources.formats.origins import NVE

if TYPE_CHECKING:
    from kraftstokk.sources.normalize import RawRecord


def sniff(path: Path, data: bytes, text: Callable[[], str]) -> bool:
    from kraftstokk.sources.readers import header_keys, nve_key_names

    return bool(header_keys(path, text()) & nve_key_names())


def read(path: Path, data: bytes) -> list[RawRecord]:
    from kraftstokk.sources.readers import decode_text, read_nve_csv

    return read_nve_csv(path, decode_text(path, data))


FORMAT = SourceFormat(
    name="nve-csv",
    origin=NVE,
    description="NVE CSV export (Norwegian headers; , ; or tab; . or , decimals)",
    recognised_by="by a VannKraftverkID, Navn or MaksYtelse column",
    sniff=sniff,
    read=read,
)
