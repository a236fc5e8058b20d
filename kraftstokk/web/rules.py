"""The rules panel: each game's chapter of the printed booklet, as blocks for the page.

The text is the booklet's own (each game's chapter from its package,
:func:`kraftstokk.render.booklet_content.game_chapters`), filled with this deck's cards,
so the screen and the paper never disagree: every block of a chapter has its form here
(the quick reference with its numbered steps and table of special cards too), and a card
the booklet draws face down is sent as ``None``, to be drawn as the deck's back. Paragraphs
carry the booklet's ``<b>``/``<i>`` markup; everything else in them is already escaped
there, and :func:`_safe` lets only those two tags through.
"""

from __future__ import annotations

import functools
import re
from typing import Any

from kraftstokk import locales
from kraftstokk.design.blocks import (
    Block,
    Bullets,
    CardRow,
    Example,
    Grid,
    Heading,
    Numbered,
    Para,
    QuickReference,
)
from kraftstokk.errors import KraftstokkError
from kraftstokk.models import Deck
from kraftstokk.web import views

_TAG = re.compile(r"<(/?)([a-zA-Z]+)[^>]*>")


def _safe(text: str) -> str:
    def keep(match: re.Match[str]) -> str:
        tag = match.group(2).lower()
        return f"<{match.group(1)}{tag}>" if tag in ("b", "i") else ""

    return _TAG.sub(keep, text)


def _block(block: Block) -> dict[str, Any]:
    if isinstance(block, Heading):
        return {"type": "heading", "level": block.level, "text": _safe(block.text)}
    if isinstance(block, Para):
        return {"type": "para", "text": _safe(block.text)}
    if isinstance(block, Bullets):
        return {"type": "bullets", "items": [_safe(item) for item in block.items]}
    if isinstance(block, Numbered):
        return {"type": "steps", "items": [_safe(item) for item in block.items]}
    if isinstance(block, Grid):
        return {
            "type": "table",
            "headings": [_safe(heading) for heading in block.headings],
            "rows": [[_safe(cell) for cell in row] for row in block.rows],
        }
    if isinstance(block, CardRow):
        return {
            "type": "cards",
            "cards": [
                None if i in block.face_down else card.id for i, card in enumerate(block.cards)
            ],
            "captions": [_safe(caption) for caption in block.captions],
        }
    if isinstance(block, Example):
        return {
            "type": "example",
            "title": _safe(block.title),
            "body": [_block(part) for part in block.body],
        }
    if isinstance(block, QuickReference):
        return {
            "type": "quick",
            "title": _safe(block.title),
            "sections": [
                {"heading": _safe(section.heading), "body": _block(section.body)}
                for section in block.sections
            ],
        }
    # A game's chapter holds only the blocks above (contents, title pages and the card
    # table are the booklet's own): a new kind must get its form here, not vanish.
    raise KraftstokkError(f"the rules panel has no form for a {type(block).__name__} block")


@functools.lru_cache(maxsize=8)
def _chapters(deck_json: str, language: str, generation: int) -> dict[str, list[dict[str, Any]]]:
    from kraftstokk.render.booklet_content import game_chapters

    deck = Deck.model_validate_json(deck_json)
    offered = set(views.games())
    return {
        game: [_block(block) for block in chapter.blocks]
        for game, chapter in game_chapters(deck, language).items()
        if game in offered
    }


def rules_panel(deck: Deck, language: str) -> dict[str, list[dict[str, Any]]]:
    """Per game the page offers, the booklet chapter in ``language`` as a list of blocks."""
    return _chapters(deck.model_dump_json(), language, locales.generation())
