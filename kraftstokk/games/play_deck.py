"""A deck file read for play: validated once, remembered by its bytes.

Reading and validating a deck (``kraftstokk.deck.io.load_valid_deck``) loads pydantic,
the deck model, the card layout and reportlab's font metrics: more than half of what a
short ``simulate`` costs before its first game. Playing needs only the engine's table
(:class:`~kraftstokk.games.core.DeckTable`), the title and the edition. So a ``deck.json``
that passed validation is remembered in a small cache: under a key made of the file's
bytes and the code's version, the validated deck as plain JSON, from which
:meth:`DeckTable.from_json` makes the same table :meth:`DeckTable.from_deck` makes of
the model (``tests/test_play_deck.py`` checks both). The next run of the same bytes with
the same code reads that instead of validating again.

Correctness first:

- The key is the SHA-256 of the deck file's bytes and of the code's version: the path,
  size and modification time of every file of the installed ``kraftstokk`` package (its
  layouts, presets and locales included), of the top modules of pydantic, pydantic-core
  and reportlab (whose parsing and font metrics validation uses) and Python's version.
  Any change of the deck or of that code is a miss: the deck is read and validated in
  full.
- Only a deck that passed, and read without a note, is remembered: a deck that fails is
  refused each time with the same message and exit code, as before; a ``deck.json``
  changed by hand after ``build`` wrote it (whose note depends on the files beside it)
  is read in full each time. CSV and workbook decks are read in full each time (their
  deck is two files). The deck remembered is the one the key's bytes give: a file
  replaced while it was validated (and put back since) is not remembered.
- An entry that cannot be read (removed, cut short, not of this format, no regular file,
  larger than an input file may be) is a miss, found without waiting on a pipe; a
  cache that cannot be written is no cache. Entries are written atomically; the folder
  keeps the :data:`KEEP` newest. The folder is the user's own, as their decks are: an
  entry edited by hand is taken as written (``KRAFTSTOKK_CACHE_DIR=`` reads every deck
  in full).

Where: ``$KRAFTSTOKK_CACHE_DIR`` (empty: no cache), else ``$XDG_CACHE_HOME/kraftstokk``,
else ``~/.cache/kraftstokk``; entries in its ``valid-decks`` folder.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import warnings
from dataclasses import dataclass, field
from functools import cache
from importlib.util import find_spec
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kraftstokk.errors import InputFileError, OutputError
from kraftstokk.games.core import DeckTable
from kraftstokk.textfile import read_input_bytes

if TYPE_CHECKING:
    from kraftstokk.models import Deck

#: How many validated decks the cache keeps (each a few tens of kB).
KEEP = 64
#: The most bytes of a deck file this reads itself (a larger one goes the full way,
#: whose reader has its own limit and message).
MAX_DECK_BYTES = 8 * 1024 * 1024
#: The libraries whose code validation runs besides kraftstokk's own.
LIBRARIES = ("pydantic", "pydantic_core", "reportlab")
PACKAGE_DIR = Path(__file__).resolve().parent.parent
ENTRY_FORMAT = 2


@dataclass
class PlayDeck:
    """A validated deck as play needs it: the engine's table, title and edition, and
    the whole deck as plain JSON (what a replay log holds)."""

    path: Path
    table: DeckTable
    title: str
    edition: str
    #: The deck model, when it was read in full (None: from the cache).
    model: Deck | None = field(default=None, repr=False)
    _data: dict[str, Any] | None = field(default=None, repr=False)

    def data(self) -> dict[str, Any]:
        """The validated deck as plain JSON (the model's ``model_dump(mode="json")``)."""
        if self._data is None:
            if self.model is None:
                raise AssertionError("a deck read for play has its model or its data")
            self._data = self.model.model_dump(mode="json")
        return self._data


def load_play_deck(path: Path) -> PlayDeck:
    """The deck at ``path``, refused as ``load_valid_deck`` refuses it (exit 1 listing
    every error, or 2 for a file that cannot be read)."""
    folder = cache_folder()
    data = _small_file(path) if folder is not None and path.suffix.lower() == ".json" else None
    key = _key(data) if data is not None else None
    if folder is not None and key is not None:
        found = _read_entry(folder / f"{key}.json", key, path)
        if found is not None:
            return found
    return _read_in_full(path, folder, key, data)


def remembered_play_deck(path: Path) -> PlayDeck | None:
    """The deck at ``path`` when the cache remembers it as valid, else None (nothing is
    read in full, validated or said)."""
    folder = cache_folder()
    if folder is None or path.suffix.lower() != ".json":
        return None
    data = _small_file(path)
    if data is None:
        return None
    key = _key(data)
    return _read_entry(folder / f"{key}.json", key, path)


def _read_in_full(path: Path, folder: Path | None, key: str | None, data: bytes | None) -> PlayDeck:
    """The deck read and validated in full, and remembered when it may be."""
    with warnings.catch_warnings(record=True) as noted:
        warnings.simplefilter("always")
        deck = _load_valid(path)
    for note in noted:  # said as they would have been
        warnings.warn_explicit(note.message, note.category, note.filename, note.lineno)
    play = PlayDeck(path, DeckTable.from_deck(deck), deck.title, deck.edition, deck)
    if folder is not None and key is not None and not noted and data is not None:
        _remember(folder, key, data, deck)
    return play


def _load_valid(path: Path) -> Deck:
    from kraftstokk.deck.io import load_valid_deck

    return load_valid_deck(path)


def cache_folder() -> Path | None:
    """Where validated decks are remembered (None: nowhere)."""
    chosen = os.environ.get("KRAFTSTOKK_CACHE_DIR")
    if chosen is not None:
        return Path(chosen) / "valid-decks" if chosen else None
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    if not os.path.isabs(base):
        return None
    return Path(base) / "kraftstokk" / "valid-decks"


def _small_file(path: Path) -> bytes | None:
    """The file's bytes; None for what the full reader is to read alone (a missing,
    unreadable or large file, or no regular file: a pipe is read only once)."""
    try:
        return read_input_bytes(path, "deck file", MAX_DECK_BYTES)
    except InputFileError:
        return None  # the full reader says why


def _key(data: bytes) -> str:
    digest = hashlib.sha256(code_version().encode("utf-8"))
    digest.update(b"\0")
    digest.update(data)
    return digest.hexdigest()


@cache
def code_version() -> str:
    """What validation's code is, as text: every file of the kraftstokk package (path,
    size, modification time), the libraries' top modules, and Python's version."""
    parts = [f"{ENTRY_FORMAT} {sys.version}"]
    for root, folders, files in os.walk(PACKAGE_DIR):
        folders[:] = sorted(name for name in folders if name != "__pycache__")
        for name in sorted(files):
            parts.append(_stamp(os.path.join(root, name)))
    for library in LIBRARIES:
        try:
            spec = find_spec(library)
        except (ImportError, ValueError):
            spec = None
        parts.append(_stamp(spec.origin) if spec is not None and spec.origin else library)
    return "\n".join(parts)


def _stamp(file: str) -> str:
    try:
        found = os.stat(file)
    except OSError:
        return f"{file} -"
    return f"{file} {found.st_size} {found.st_mtime_ns}"


def _read_entry(file: Path, key: str, path: Path) -> PlayDeck | None:
    try:  # read as an input is: a pipe or a device there is no wait and no endless read
        entry = json.loads(read_input_bytes(file, "cache entry"))
        if entry["key"] != key:
            return None
        data = entry["deck"]
        table = DeckTable.from_json(data)
        return PlayDeck(path, table, str(data["title"]), str(data["edition"]), None, data)
    except Exception:  # anything wrong with an entry: read the deck in full
        return None


def _remember(folder: Path, key: str, data: bytes, deck: Deck) -> None:
    """Remember ``deck`` under the key of ``data`` when it is the deck of ``data`` (the
    file may have been replaced between the two reads, and put back since: what was
    validated is then another deck), unless ``data`` was changed by hand after ``build``
    wrote it (its note depends on the files beside it)."""
    from kraftstokk.atomic import write_text
    from kraftstokk.deck.io import changed_since_written
    from kraftstokk.models import Deck

    try:
        raw = json.loads(data)
        if changed_since_written(raw) or Deck.model_validate(raw) != deck:
            return
        entry = {"key": key, "deck": deck.model_dump(mode="json")}
        folder.mkdir(parents=True, exist_ok=True)
        write_text(folder / f"{key}.json", json.dumps(entry, ensure_ascii=False) + "\n")
        entries = sorted(folder.glob("*.json"), key=lambda file: file.stat().st_mtime_ns)
        for old in entries[:-KEEP]:
            old.unlink(missing_ok=True)
    except (OSError, ValueError, OutputError):  # no cache then; the deck is fine
        return
