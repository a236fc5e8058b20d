"""What the start page and the table need once: games, bots, variants, cards, texts.

Game facts (player range, variants, bots) come from each game's ``GameSpec``; every word
a person reads comes from the locale files: the page's own (``locales/<code>/web.toml``)
and the words every part shares (``words.toml``: suits, values, categories, the games'
titles and what each variant changes), for every language there is.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any

from kraftstokk import locales
from kraftstokk.games.registry import bot_kinds, get_spec
from kraftstokk.models import CATEGORIES
from kraftstokk.web import views

if TYPE_CHECKING:
    from kraftstokk.web.sessions import GameStore

#: The strengths on the start page, weakest first: the last is the hardest level.
BOT_ORDER = ("random", "greedy", "heuristic", "expert")


def languages() -> tuple[str, ...]:
    """The page's languages: every language there is."""
    return locales.languages()


def texts(language: str) -> dict[str, Any]:
    """The page's words in ``language``: ``web.toml`` with the shared words merged in."""
    return _texts(language, locales.generation())


@functools.lru_cache(maxsize=8)
def _texts(language: str, generation: int) -> dict[str, Any]:
    locale = locales.load(language)
    page: dict[str, Any] = _copy(locale.part("web"))
    shared = locale.part("words")
    words = shared["words"]
    page["language"] = shared["language"]
    page["categories"] = dict(words["categories"])
    page["suits"] = dict(words["suits"])
    page["values"] = dict(words["values"])
    for name, game in shared.get("games", {}).items():
        page.setdefault("games", {}).setdefault(name, {}).update(_copy(game))
    return page


def _copy(table: dict[str, Any]) -> dict[str, Any]:
    return {k: _copy(v) if isinstance(v, dict) else v for k, v in table.items()}


def games() -> list[dict[str, Any]]:
    """Each game the page offers as its spec declares it: players, variants, bots."""
    listed = []
    for name in views.games():
        spec = get_spec(name)
        kinds = bot_kinds(name)
        listed.append(
            {
                "name": name,
                "opponents": [spec.min_players - 1, spec.max_players - 1],
                "variants": [v.name for v in spec.variants],
                "bots": [kind for kind in BOT_ORDER if kind in kinds]
                + sorted(set(kinds) - set(BOT_ORDER)),
                "default_bot": spec.default_bot,
            }
        )
    return listed


def cards(store: GameStore) -> list[dict[str, Any]]:
    table = store.table
    listed = []
    for index, card in enumerate(store.deck.cards):
        entry: dict[str, Any] = {
            "id": card.id,
            "joker": card.joker,
            "suit": card.suit,
            "value": card.value,
            "name": card.name or "Joker",
            "plant_id": store.plant_ids[index],
        }
        if not card.joker and card.nr is not None:
            entry["figures"] = {
                key: table.figure_text(c, index) for c, key in enumerate(CATEGORIES)
            }
            # As printed (claims are judged in printed figures): 690,9 MW is 690.9.
            entry["values"] = {key: table.printed[c][index] for c, key in enumerate(CATEGORIES)}
            entry["nr"] = {key: card.nr.get(key) for key in CATEGORIES}
            entry["top3"] = {key: card.flags.top3.get(key) for key in CATEGORIES}
            entry["invisible"] = {key: card.flags.invisible.get(key) for key in CATEGORIES}
            entry["burn"] = card.flags.burn
            entry["reset"] = card.flags.reset
        listed.append(entry)
    return listed


def setup_payload(store: GameStore) -> dict[str, Any]:
    deck = store.deck
    return {
        "deck": {"title": deck.title, "edition": deck.edition, "digest": store.digest},
        "games": games(),
        "cards": cards(store),
        "languages": list(languages()),
        "texts": {language: texts(language) for language in languages()},
    }
