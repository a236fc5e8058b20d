"""Card faces for screens: the renderer's own drawing, rasterised small, made before play.

The faces come from :func:`kraftstokk.render.preview.faces_pdf` (the code that draws the
print files), rendered by pdfium at :data:`WIDTH` pixels wide — twice the size a card is
shown on a desktop table, so it stays sharp on high-density screens — and encoded as
WebP. All 56 images (55 faces and the back) take well under a megabyte.

Making them takes seconds, so it is done once per deck and drawing code: the images are
kept in the user's cache folder as one ZIP named by a digest of the deck, the renderer's
sources and the imaging libraries' versions (any change makes new images), and in memory
for the process. ``serve`` prepares them before it listens, on a worker thread, so no
request waits for them and the event loop never draws.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import threading
import zipfile
from importlib import metadata
from pathlib import Path

import pypdfium2 as pdfium

from kraftstokk.atomic import write_bytes
from kraftstokk.errors import OutputError
from kraftstokk.models import Deck

WIDTH = 240  # pixels
QUALITY = 84
BACK = "back"
RENDER_SOURCES = Path(__file__).resolve().parent.parent / "render"
_LIBRARIES = ("reportlab", "pypdfium2", "pillow")

_made: dict[str, dict[str, bytes]] = {}  # by digest: images made in this process
_making = threading.Lock()


class CardImages:
    """Encoded card images by card id (and ``back``), prepared once."""

    def __init__(self, deck: Deck, cache: Path | None = None) -> None:
        self._deck = deck
        self._cache = cache
        self.digest = images_digest(deck)
        self.etag = self.digest[:16]
        self._names = {card.id for card in deck.cards} | {BACK}

    @property
    def ready(self) -> bool:
        return self.digest in _made

    @property
    def on_disk(self) -> bool:
        path = self._cache_file()
        return path is not None and path.is_file()

    def prepare(self) -> bool:
        """Make the images (from the cache folder, else by drawing); True when drawn now."""
        with _making:
            if self.digest in _made:
                return False
            images = self._read_cache()
            drawn = images is None
            if images is None:
                images = render_images(self._deck)
                self._write_cache(images)
            _made[self.digest] = images
            return drawn

    def image(self, name: str) -> bytes | None:
        """The WebP of card ``name`` (a card id or ``back``); None for an unknown name."""
        if name not in self._names:
            return None
        if not self.ready:
            self.prepare()
        return _made[self.digest].get(name)

    def _cache_file(self) -> Path | None:
        return None if self._cache is None else self._cache / "cards" / f"{self.digest}.zip"

    def _read_cache(self) -> dict[str, bytes] | None:
        path = self._cache_file()
        if path is None:
            return None
        try:
            with zipfile.ZipFile(path) as archive:
                images = {
                    info.filename.removesuffix(".webp"): archive.read(info)
                    for info in archive.infolist()
                    if info.file_size < 1_000_000
                }
        except (OSError, zipfile.BadZipFile, KeyError):
            return None
        return images if set(images) == self._names else None  # else draw them again

    def _write_cache(self, images: dict[str, bytes]) -> None:
        path = self._cache_file()
        if path is None:
            return
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w", zipfile.ZIP_STORED) as archive:
            for name in sorted(images):
                archive.writestr(zipfile.ZipInfo(f"{name}.webp"), images[name])
        with contextlib.suppress(OutputError):  # a cache not written is only slower next time
            write_bytes(path, buffer.getvalue())


def images_digest(deck: Deck) -> str:
    """Names the images of ``deck``: its content, the drawing code, the libraries, the size."""
    digest = hashlib.sha256(deck.model_dump_json().encode())
    digest.update(f"{WIDTH}/{QUALITY}".encode())
    for library in _LIBRARIES:
        digest.update(f"{library}={metadata.version(library)}".encode())
    for path in sorted(RENDER_SOURCES.rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts:
            digest.update(path.relative_to(RENDER_SOURCES).as_posix().encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:32]


def render_images(deck: Deck) -> dict[str, bytes]:
    names = [card.id for card in deck.cards] + [BACK]
    from kraftstokk.render.preview import faces_pdf

    document = pdfium.PdfDocument(faces_pdf(deck))
    images: dict[str, bytes] = {}
    try:
        for index, name in enumerate(names):
            page = document[index]
            picture = page.render(scale=WIDTH / page.get_width()).to_pil().convert("RGB")
            out = io.BytesIO()
            picture.save(out, format="WEBP", quality=QUALITY, method=4)
            images[name] = out.getvalue()
            page.close()
    finally:
        document.close()
    return images
