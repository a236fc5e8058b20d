"""Card faces for screens: the renderer's own drawing, rasterised small and kept in memory.

The faces come from :func:`kraftstokk.render.preview.faces_pdf` (the code that draws the
print files), rendered by pdfium at :data:`WIDTH` pixels wide — twice the size a card is
shown on a desktop table, so it stays sharp on high-density screens — and encoded once as
WebP. All 56 images (55 faces and the back) take well under a megabyte.
"""

from __future__ import annotations

import hashlib
import io
import threading

import pypdfium2 as pdfium

from kraftstokk.models import Deck
from kraftstokk.render.preview import faces_pdf

WIDTH = 240  # pixels
QUALITY = 84
BACK = "back"


class CardImages:
    """Encoded card images by card id (and ``back``), made on first use."""

    def __init__(self, deck: Deck) -> None:
        self._deck = deck
        self._images: dict[str, bytes] = {}
        self._lock = threading.Lock()
        self.etag = hashlib.sha256(deck.model_dump_json().encode()).hexdigest()[:16]

    def image(self, name: str) -> bytes | None:
        """The WebP of card ``name`` (a card id or ``back``); None for an unknown name."""
        if not self._images:
            with self._lock:
                if not self._images:
                    self._images = self._render()
        return self._images.get(name)

    def _render(self) -> dict[str, bytes]:
        names = [card.id for card in self._deck.cards] + [BACK]
        document = pdfium.PdfDocument(faces_pdf(self._deck))
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
