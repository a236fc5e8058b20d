"""Sealing the browser's saves: authenticated encryption with a key on this machine.

A save of an unfinished game holds its seed, and the seed with the deck recomputes the
whole deal. The browser keeps the save, so the save is sealed: encrypted and
authenticated (AES-GCM-SIV, 256-bit key) with a key that never leaves the user's data
folder (``folders.data_dir()/serve-save.key``, made on first use, readable by the user
only). Whoever reads the browser's storage learns nothing of the deal; a save changed
by one bit, or sealed with another key, is refused.

AES-GCM-SIV keeps its secrecy when a nonce repeats, so every save is sealed with the
same one: the same save gives the same bytes (outputs stay reproducible), and two saves
that differ give unrelated bytes.

A save only grows as its game goes on, and the server sends it with every answer: a save
longer than :data:`PIECE` bytes is sealed in pieces of that size, each sealed once
(:class:`Sealer`), and only the last, short piece anew. Each piece is bound to all before
it (its associated data holds a digest of the previous piece's sealed bytes) and the last
is marked as the last, so a piece changed, moved, left out or taken from another save, or
a save cut short, is refused like a changed bit. A save of less than one piece is sealed
as one, as before; the pieces are joined by ``.``, which base64 text does not hold. The
sealed text's length follows from the save's length alone.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import os
import secrets
from pathlib import Path

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCMSIV

from kraftstokk.errors import KraftstokkError, RequestRefused
from kraftstokk.games.view import refusal

KEY_FILE = "serve-save.key"
KEY_BYTES = 32
NONCE = bytes(12)
#: Binds a sealed text to its use: no other sealed thing opens as a save.
CONTEXT = b"kraftstokk web save 1"
PIECE = 1024  # bytes of a save sealed as one piece of a longer save
SEPARATOR = "."


class SealBroken(RequestRefused):
    """A sealed save that this server's key does not open (changed, or another key's)."""


class SaveKey:
    """Seals and opens saves with one key."""

    def __init__(self, key: bytes) -> None:
        if len(key) != KEY_BYTES:
            raise ValueError(f"a save key is {KEY_BYTES} bytes, not {len(key)}")
        self._cipher = AESGCMSIV(key)

    @classmethod
    def generate(cls) -> SaveKey:
        return cls(secrets.token_bytes(KEY_BYTES))

    @classmethod
    def in_folder(cls, folder: Path) -> SaveKey:
        """The key kept in ``folder``; made (readable by this user only) when missing."""
        path = folder / KEY_FILE
        try:
            key = path.read_bytes()
        except FileNotFoundError:
            key = _create(path)
        except OSError as exc:
            raise KraftstokkError(f"{path}: cannot read the save key: {exc.strerror}") from None
        if len(key) != KEY_BYTES:
            raise KraftstokkError(
                f"{path}: not a save key ({len(key)} bytes, not {KEY_BYTES}); remove it to "
                "make a new one (unfinished games saved with it cannot be continued then)"
            )
        return cls(key)

    def seal(self, data: bytes) -> str:
        """``data`` encrypted and authenticated, as URL-safe base64 text (in pieces when
        longer than :data:`PIECE`)."""
        return Sealer(self).seal(data)

    def open(self, text: str) -> bytes:
        """The data sealed in ``text``; SealBroken when it was changed or is another key's."""
        pieces = text.split(SEPARATOR)
        if len(pieces) == 1:
            return self._open(pieces[0], CONTEXT)
        opened = []
        link = b""
        for piece in pieces[:-1]:
            opened.append(self._open(piece, _piece_context(link)))
            if len(opened[-1]) != PIECE:
                raise refusal("refusals.sealed", SealBroken)
            link = _link(piece)
        opened.append(self._open(pieces[-1], _last_context(link)))
        return b"".join(opened)

    def _seal(self, data: bytes, context: bytes) -> str:
        sealed = self._cipher.encrypt(NONCE, data, context)
        return base64.urlsafe_b64encode(sealed).rstrip(b"=").decode("ascii")

    def _open(self, text: str, context: bytes) -> bytes:
        try:
            raw = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
        except (binascii.Error, ValueError):
            raise SealBroken("save: sealed: not base64 text") from None
        try:
            return self._cipher.decrypt(NONCE, raw, context)
        except InvalidTag:
            raise refusal("refusals.sealed", SealBroken) from None


class Sealer:
    """Seals one save as it grows: each whole piece once, the last piece every time.

    :meth:`seal` gives what ``SaveKey.seal`` gives for the same data; given data that
    does not begin with what it sealed before (a redeal rewrote the save's fields), it
    starts again."""

    def __init__(self, key: SaveKey) -> None:
        self.key = key
        self._covered = b""  # the data the whole pieces hold
        self._pieces: list[str] = []  # those pieces sealed, as text
        self._link = b""  # the digest of the last whole piece's sealed bytes

    def seal(self, data: bytes) -> str:
        if not data.startswith(self._covered):
            self._covered, self._pieces, self._link = b"", [], b""
        key, at = self.key, len(self._covered)
        while len(data) - at >= PIECE:
            piece = key._seal(data[at : at + PIECE], _piece_context(self._link))
            self._pieces.append(piece)
            self._link = _link(piece)
            at += PIECE
        self._covered = data[:at]
        if not self._pieces:
            return key._seal(data, CONTEXT)
        last = key._seal(data[at:], _last_context(self._link))
        return SEPARATOR.join((*self._pieces, last))


def _piece_context(link: bytes) -> bytes:
    return CONTEXT + b" piece " + link


def _last_context(link: bytes) -> bytes:
    return CONTEXT + b" last " + link


def _link(piece: str) -> bytes:
    """What binds the next piece to this one: a digest of this one's sealed text."""
    return hashlib.sha256(piece.encode("ascii")).digest()


def _create(path: Path) -> bytes:
    """Write a new key to ``path`` unless another process just did; return the one kept."""
    key = secrets.token_bytes(KEY_BYTES)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        temp = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}.new")
        fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        try:
            os.write(fd, key)
            os.fsync(fd)
        finally:
            os.close(fd)
        try:
            os.link(temp, path)  # fails if another process made the key first: keep theirs
        except FileExistsError:
            pass
        except OSError:  # a file system without hard links
            if not path.exists():
                os.replace(temp, path)
        finally:
            temp.unlink(missing_ok=True)
        return path.read_bytes()
    except OSError as exc:
        raise KraftstokkError(f"{path}: cannot make the save key: {exc.strerror}") from None
