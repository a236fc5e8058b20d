"""The words a face prints besides the plant's name and figures: the small print at its
foot and a Strømkrig card's special use. The face (``render/card.py``) draws them; the
reprint verdict (``design/printed.py``) compares them.
"""

from __future__ import annotations

import re

from kraftstokk.design.fit import wrap
from kraftstokk.design.fonts import text_width
from kraftstokk.design.geometry import mm
from kraftstokk.design.layout import CardLayout
from kraftstokk.models import Card, Deck

DATA_LINES = 2  # the small print's data attribution, at most


def small_print_lines(deck: Deck, layout: CardLayout) -> list[str]:
    """Title and edition, then the data attribution in at most two lines.

    A long attribution loses its parenthesised parts first; whatever still does not fit
    ends in an ellipsis (the booklet carries it in full).
    """
    style = layout.styles.small_print
    font, size = style.face, style.size
    width = mm(layout.boxes.footer.w)
    lines = [f"{deck.title} · {deck.edition}"]
    snap = deck.snapshot
    data = snap.attribution_nb or snap.attribution or snap.source
    if not data:
        return lines
    for candidate in (data, re.sub(r"\s*\([^)]*\)", "", data)):
        wrapped = wrap(f"Data: {candidate}", font, size, width)
        if len(wrapped) <= DATA_LINES:
            return lines + wrapped
    kept = wrapped[:DATA_LINES]
    last = kept[-1]
    while last and text_width(last + " …", font, size) > width:
        last = last.rsplit(" ", 1)[0] if " " in last else last[:-1]
    return [*lines, *kept[:-1], f"{last} …"]


def special_text(card: Card) -> str | None:
    """The Strømkrig line a burn or reset card prints in its footer."""
    if card.joker:
        return None
    if card.flags.burn and card.flags.reset:
        return "Strømkrig: brenner eller nullstiller"
    if card.flags.burn:
        return "Strømkrig: brenner bunken"
    if card.flags.reset:
        return "Strømkrig: nullstiller"
    return None
