"""The booklet's content in one language: its blocks, and each game's chapter on its own.

:func:`booklet_blocks` is what ``render/booklet.py`` lays out; :func:`game_chapters` is each
game's chapter by the game's name, which the web app's rules panel shows (the same text
and the same cards as on paper).
"""

from __future__ import annotations

import random

from kraftstokk.design.blocks import Block, Bullets, ChapterWords, Heading, Language, Para
from kraftstokk.games import registry
from kraftstokk.games.core import DeckTable
from kraftstokk.models import Deck
from kraftstokk.render.booklet_rules import Chapter, rules_blocks
from kraftstokk.render.locale import GameChapter, Locale, load_locale


def _house_rules(game: GameChapter, shared: ChapterWords) -> list[Block]:
    """The game's variants, each told under its name's text, as house rules."""
    if not game.house_rules:
        return []
    return [
        Heading(shared.house_heading, 2),
        Para(shared.house_intro),
        Bullets(tuple(text for _, text in game.house_rules)),
    ]


def _stock_after_deal(game: GameChapter, table: DeckTable) -> tuple[tuple[int, int | None], ...]:
    """The cards the game's own deal leaves in the stock, for each number of players it
    takes (None where its observation counts no stock): the engine deals, so the booklet
    and the game never disagree. Which cards are dealt does not change how many."""
    spec = game.spec
    counts = []
    for players in range(spec.min_players, spec.max_players + 1):
        state = registry.make_game(spec.name, table, players).new_initial_state(random.Random(0))
        left = getattr(state.observation(0), "stock_count", None)
        counts.append((players, left if isinstance(left, int) else None))
    return tuple(counts)


def _chapter(deck: Deck, table: DeckTable, locale: Locale, game: GameChapter) -> Chapter:
    """A game's chapter: its rules, its house rules, then its page for the table."""
    words = locale.words.for_deck(deck)
    blocks = [
        *game.module.chapter(deck, words, game.text, locale.chapter),
        *_house_rules(game, locale.chapter),
        game.module.quick(deck, words, game.text, locale.chapter, game.title),
    ]
    players = (game.spec.min_players, game.spec.max_players)
    return Chapter(game.title, tuple(blocks), players, _stock_after_deal(game, table))


def _chapters(deck: Deck, locale: Locale) -> dict[str, Chapter]:
    table = DeckTable.from_deck(deck)
    return {game.game: _chapter(deck, table, locale, game) for game in locale.games}


def booklet_blocks(deck: Deck, language: Language) -> list[Block]:
    """The whole booklet's content in ``language`` (a locale folder's code)."""
    locale = load_locale(language)
    chapters = list(_chapters(deck, locale).values())
    words = locale.words.for_deck(deck)
    return rules_blocks(deck, words, locale.text, chapters, locale.credit)


def game_chapters(deck: Deck, language: Language) -> dict[str, Chapter]:
    """Each game's chapter in ``language``, by the game's name, in the registry's order."""
    return _chapters(deck, load_locale(language))


__all__ = ["booklet_blocks", "game_chapters"]
