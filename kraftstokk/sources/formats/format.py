"""What a source format is: its name, origin, how ``--format auto`` recognises it, how it
is read (:class:`SourceFormat`). Each format module of this package makes one."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from kraftstokk.sources.formats.origins import Origin

if TYPE_CHECKING:
    from kraftstokk.sources.normalize import RawRecord

#: ``sniff(path, data, text)``: does this file look like the format? ``text()`` decodes
#: the bytes (once, on the first call); a binary format looks only at ``data``.
Sniff = Callable[[Path, bytes, Callable[[], str]], bool]
#: ``read(path, data)``: the file's rows as raw records, or an InputFileError.
Read = Callable[[Path, bytes], "list[RawRecord]"]


@dataclass(frozen=True)
class SourceFormat:
    name: str
    origin: Origin
    #: What the format is, for the help: "NVE CSV export (Norwegian headers)".
    description: str
    #: How ``auto`` knows it, for the help: "by its VannKraftverkID/Navn/... header".
    recognised_by: str
    sniff: Sniff
    read: Read
