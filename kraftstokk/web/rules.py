"""The rules panel: each game's chapter of the printed booklet, as blocks for the page.

The text is the booklet's own (:func:`kraftstokk.render.booklet_text.booklet_blocks`),
filled with this deck's cards, so the screen and the paper never disagree. Paragraphs
carry the booklet's ``<b>``/``<i>`` markup; everything else in them is already escaped
there, and :func:`_safe` lets only those two tags through.
"""

from __future__ import annotations

import functools
import re
from typing import Any

from kraftstokk.models import Deck
from kraftstokk.render.booklet_text import Bullets, CardRow, Example, Heading, Para

#: The chapter heading of each game in the booklet (the games' names in every language).
CHAPTERS: dict[str, str] = {
    "idiot": "Idiot",
    "kraftidioten": "Kraftidioten",
    "stromkrig": "Strømkrig",
}

_TAG = re.compile(r"<(/?)([a-zA-Z]+)[^>]*>")


def _safe(text: str) -> str:
    def keep(match: re.Match[str]) -> str:
        tag = match.group(2).lower()
        return f"<{match.group(1)}{tag}>" if tag in ("b", "i") else ""

    return _TAG.sub(keep, text)


def _block(block: Any) -> dict[str, Any] | None:
    if isinstance(block, Heading):
        return {"type": "heading", "level": block.level, "text": _safe(block.text)}
    if isinstance(block, Para):
        return {"type": "para", "text": _safe(block.text)}
    if isinstance(block, Bullets):
        return {"type": "bullets", "items": [_safe(item) for item in block.items]}
    if isinstance(block, CardRow):
        return {
            "type": "cards",
            "cards": [card.id for card in block.cards],
            "captions": [_safe(caption) for caption in block.captions],
        }
    if isinstance(block, Example):
        body = [b for b in (_block(part) for part in block.body) if b is not None]
        return {"type": "example", "title": _safe(block.title), "body": body}
    return None


@functools.lru_cache(maxsize=8)
def _chapters(deck_json: str, language: str) -> dict[str, list[dict[str, Any]]]:
    from kraftstokk.render.booklet_text import booklet_blocks

    deck = Deck.model_validate_json(deck_json)
    blocks = booklet_blocks(deck, "nb" if language == "nb" else "en")
    titles = {title: game for game, title in CHAPTERS.items()}
    chapters: dict[str, list[dict[str, Any]]] = {}
    current: str | None = None
    for block in blocks:
        if isinstance(block, Heading) and block.level == 1:
            current = titles.get(block.text)
            if current is not None:
                chapters[current] = []
            continue
        if current is not None:
            converted = _block(block)
            if converted is not None:
                chapters[current].append(converted)
    return chapters


def rules_panel(deck: Deck, language: str) -> dict[str, list[dict[str, Any]]]:
    """Per game, the booklet chapter in ``language`` (nb or en) as a list of blocks."""
    return _chapters(deck.model_dump_json(), language)
