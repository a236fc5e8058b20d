"""The booklet's content in one language: its blocks, and each game's chapter on its own.

:func:`booklet_blocks` is what ``render/booklet.py`` lays out; :func:`game_chapters` is each
game's chapter by the game's name, which the web app's rules panel shows (the same text
and the same cards as on paper).
"""

from __future__ import annotations

from kraftstokk.design.blocks import Block, Language
from kraftstokk.models import Deck
from kraftstokk.render.booklet_rules import Chapter, rules_blocks
from kraftstokk.render.locale import Locale, load_locale


def _chapters(deck: Deck, locale: Locale) -> dict[str, Chapter]:
    words = locale.words.for_deck(deck)
    return {
        game.game: Chapter(
            game.title, tuple(game.module.chapter(deck, words, game.text, locale.chapter))
        )
        for game in locale.games
    }


def booklet_blocks(deck: Deck, language: Language) -> list[Block]:
    """The whole booklet's content in ``language`` (a locale folder's code)."""
    locale = load_locale(language)
    chapters = list(_chapters(deck, locale).values())
    return rules_blocks(deck, locale.words.for_deck(deck), locale.text, chapters)


def game_chapters(deck: Deck, language: Language) -> dict[str, Chapter]:
    """Each game's chapter in ``language``, by the game's name, in the registry's order."""
    return _chapters(deck, load_locale(language))


__all__ = ["booklet_blocks", "game_chapters"]
