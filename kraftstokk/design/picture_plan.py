"""What a card's picture box shows, and where: the plant's own picture with its map panel,
or the common landscape. The picture (``render/picture.py``) draws it; the reprint
verdict (``design/printed.py``) reads the same plan.
"""

from __future__ import annotations

from kraftstokk.design.geometry import Box, mm
from kraftstokk.design.map_frame import BoxPt
from kraftstokk.models import Card

MAP_WIDTH = 21.0  # mm: the map panel at the picture's right end
MAP_PADDING = 0.8  # mm around the outline


def has_plant_picture(card: Card) -> bool:
    """Whether the deck knows the plant's place or type; without either, the card keeps the
    landscape every card had before decks carried them (so an old deck prints as it did).
    """
    return card.type is not None or (card.lat is not None and card.lon is not None)


def map_panel(box: Box) -> BoxPt:
    """The map panel at the right end of the picture ``box`` (points)."""
    x, y, w, h = box.pt()
    return (x + w - mm(MAP_WIDTH), y, mm(MAP_WIDTH), h)


def map_box(box: Box) -> BoxPt:
    """Where the map of Norway is drawn in the picture ``box`` (points)."""
    px, py, pw, ph = map_panel(box)
    pad = mm(MAP_PADDING)
    return (px + pad, py + pad, pw - 2 * pad, ph - 2 * pad)
