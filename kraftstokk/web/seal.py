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
"""

from __future__ import annotations

import base64
import binascii
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
        """``data`` encrypted and authenticated, as URL-safe base64 text."""
        sealed = self._cipher.encrypt(NONCE, data, CONTEXT)
        return base64.urlsafe_b64encode(sealed).rstrip(b"=").decode("ascii")

    def open(self, text: str) -> bytes:
        """The data sealed in ``text``; SealBroken when it was changed or is another key's."""
        try:
            raw = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
        except (binascii.Error, ValueError):
            raise SealBroken("save: sealed: not base64 text") from None
        try:
            return self._cipher.decrypt(NONCE, raw, CONTEXT)
        except InvalidTag:
            raise refusal("refusals.sealed", SealBroken) from None


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
