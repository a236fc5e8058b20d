"""What a folder's print files were rendered from and with: ``kraftstokk-render.json``.

``render`` writes it beside the files, with them: the deck's build id and edition, and
for each output (the sheets PDF, the print-shop PDF, ``png/``) the card layout, the card
size, the printer preset and the file's SHA-256. A reprint (``render --only-changed
OLD``) reads the record beside OLD, so that its faces are made in the size and for the
printer of the cards they replace, and its verdict (``diff`` alike) is drawn in the
layout the cards were printed in.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import TYPE_CHECKING

from pydantic import BaseModel, ConfigDict, ValidationError

from kraftstokk.errors import InputFileError
from kraftstokk.models import Deck
from kraftstokk.plain import first_problem
from kraftstokk.textfile import parse_json_text, read_utf8_text

if TYPE_CHECKING:  # the drawing code loads only when a verdict is made
    from kraftstokk.design.layout import CardLayout

RECORD_NAME = "kraftstokk-render.json"
#: A record is a few hundred bytes.
MAX_RECORD_BYTES = 256 * 1024


class RenderedOutput(BaseModel):
    """One output as it was rendered."""

    model_config = ConfigDict(extra="forbid")

    layout: str
    #: The card's trimmed size, width and height in mm.
    card_mm: tuple[float, float]
    preset: str
    bleed_mm: float
    #: SHA-256 of the file (of the folder's files in name order, for png/).
    sha256: str


class RenderRecord(BaseModel):
    """``kraftstokk-render.json``: the deck's build id, and each output by file name."""

    model_config = ConfigDict(extra="forbid")

    build: str | None
    edition: str
    outputs: dict[str, RenderedOutput]

    def printed(self) -> tuple[str, RenderedOutput] | None:
        """The output the cards were printed from: the print-shop file, else the sheets,
        else the PNGs (name and entry)."""
        ranked = sorted(self.outputs.items(), key=lambda item: _rank(item[0]))
        return ranked[0] if ranked else None


def _rank(name: str) -> int:
    if name.endswith(".pdf") and not name.startswith(("kraftstokk-a4", "kraftstokk-letter")):
        return 0
    return 1 if name.endswith(".pdf") else 2


def digest_of(path: Path) -> str:
    """SHA-256 of a file, or of a folder's files (names and bytes, in name order)."""
    digest = hashlib.sha256()
    if path.is_dir():
        for entry in sorted(path.iterdir()):
            if entry.is_file():
                digest.update(entry.name.encode("utf-8") + b"\0")
                digest.update(hashlib.sha256(entry.read_bytes()).digest())
        return digest.hexdigest()
    return hashlib.sha256(path.read_bytes()).hexdigest()


def output_entry(
    layout: CardLayout, preset: str, bleed_mm: float, data: bytes | None = None
) -> RenderedOutput:
    """The record of one output (``sha256`` of ``data``; fill in a folder's later)."""
    return RenderedOutput(
        layout=layout.name,
        card_mm=(layout.width, layout.height),
        preset=preset,
        bleed_mm=bleed_mm,
        sha256=hashlib.sha256(data).hexdigest() if data is not None else "",
    )


def read_record(folder: Path) -> RenderRecord | None:
    """The record in ``folder``, None when there is none; a damaged one is refused."""
    path = folder / RECORD_NAME
    if not path.is_file():
        return None
    raw = parse_json_text(path, read_utf8_text(path, "render record", MAX_RECORD_BYTES), "record")
    try:
        return RenderRecord.model_validate(raw)
    except ValidationError as exc:
        raise InputFileError(path, f"not a render record: {first_problem(exc)}") from None


def merged(folder: Path, deck: Deck, written: dict[str, RenderedOutput]) -> bytes:
    """The record after a render of ``deck`` wrote ``written``: the entries of outputs
    it did not write are kept when they were rendered from the same deck."""
    try:
        before = read_record(folder)
    except InputFileError:
        before = None
    kept = {} if before is None or before.build != deck.build else dict(before.outputs)
    kept.update(written)
    record = RenderRecord(
        build=deck.build, edition=deck.edition, outputs=dict(sorted(kept.items()))
    )
    return (
        json.dumps(record.model_dump(mode="json"), indent=2, ensure_ascii=False) + "\n"
    ).encode()


def stale_outputs(folder: Path, deck: Deck, written: set[str]) -> tuple[RenderRecord, list[str]]:
    """The outputs in ``folder`` its record says were rendered from another build than
    ``deck``'s and that a render writing ``written`` leaves as they are: print files of
    an older deck beside the new ones (the record, and their names)."""
    try:
        before = read_record(folder)
    except InputFileError:
        before = None
    if before is None or deck.build is None or before.build in (None, deck.build):
        return RenderRecord(build=None, edition="", outputs={}), []
    left = [name for name in before.outputs if name not in written and (folder / name).exists()]
    return before, left


def printed_with(deck_path: Path, deck: Deck) -> tuple[Path, str, RenderedOutput] | None:
    """How the cards of the deck at ``deck_path`` were printed, from the record beside it
    (the record's path, the output's name and its entry); None without a record.

    A record of another build is refused: the print files beside the deck were not
    rendered from it, so it cannot say what was printed.
    """
    record = read_record(deck_path.parent)
    if record is None:
        return None
    path = deck_path.parent / RECORD_NAME
    if deck.build is not None and record.build is not None and record.build != deck.build:
        raise InputFileError(
            path,
            f"the print files here were rendered from build {record.build} (edition "
            f"{record.edition}), not from {deck_path} (build {deck.build}, edition "
            f"{deck.edition}): give --only-changed the deck they were printed from",
        )
    found = record.printed()
    return None if found is None else (path, *found)
