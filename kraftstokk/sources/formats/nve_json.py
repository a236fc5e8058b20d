"""NVE's API JSON as ``fetch`` saves it (``*.raw.json``) or a browser downloads it."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from kraftstokk.sources.formats.format import SourceFormat
from kraftstokk.sources.formats.origins import NVE

if TYPE_CHECKING:
    from kraftstokk.sources.normalize import RawRecord


def sniff(path: Path, data: bytes, text: Callable[[], str]) -> bool:
    return text().lstrip()[:1] in ("[", "{")


def read(path: Path, data: bytes) -> list[RawRecord]:
    from kraftstokk.sources.readers import decode_text, read_nve_json

    return read_nve_json(path, decode_text(path, data))


FORMAT = SourceFormat(
    name="nve-json",
    origin=NVE,
    description="NVE API JSON (a list of plants)",
    recognised_by="by its first character ([ or {)",
    sniff=sniff,
    read=read,
)
