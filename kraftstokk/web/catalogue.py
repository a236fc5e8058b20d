"""What the start page and the table need once: games, bots, variants, cards, texts.

Game facts (player range, variants and what each does, bots) come from each game's
``GameSpec``; the other words a person reads (the buttons, the blurbs, the questions
and answers) come from the locale files ``web/locales/{nb,en}.toml``, which translators
edit without touching code.
"""

from __future__ import annotations

import functools
import tomllib
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kraftstokk.games import registry
from kraftstokk.games.registry import bot_kinds
from kraftstokk.models import CATEGORIES
from kraftstokk.web.saves import GAMES

if TYPE_CHECKING:
    from kraftstokk.web.sessions import GameStore

LOCALES = Path(__file__).resolve().parent / "locales"
LANGUAGES = ("nb", "en")
#: The strengths on the start page, weakest first: the last is the hardest level.
BOT_ORDER = ("random", "greedy", "heuristic", "expert")


@functools.lru_cache(maxsize=4)
def texts(language: str) -> dict[str, Any]:
    with (LOCALES / f"{language}.toml").open("rb") as handle:
        return tomllib.load(handle)


def games() -> list[dict[str, Any]]:
    """Each game as its spec declares it: players, variants (with their lines), bots."""
    listed = []
    for name in GAMES:
        kinds = bot_kinds(name)
        entry = _declared(name)
        entry["bots"] = [kind for kind in BOT_ORDER if kind in kinds] + sorted(
            set(kinds) - set(BOT_ORDER)
        )
        listed.append(entry)
    return listed


def _declared(name: str) -> dict[str, Any]:
    """The game's spec (second edition), or its Game class (first edition)."""
    get_spec = getattr(registry, "get_spec", None)
    if get_spec is None:
        cls = registry.game_class(name)
        return {
            "name": name,
            "opponents": [cls.min_players - 1, cls.max_players - 1],
            "variants": sorted(cls.allowed_variants),
            "variant_texts": {},
        }
    spec = get_spec(name)
    return {
        "name": name,
        "title": {"nb": spec.title_nb, "en": spec.title_en},
        "opponents": [spec.min_players - 1, spec.max_players - 1],
        "variants": [v.name for v in spec.variants],
        "variant_texts": {v.name: {"nb": v.nb, "en": v.en} for v in spec.variants},
    }


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
            entry["top3"] = {key: card.nr.get(key) <= 3 for key in CATEGORIES}
            entry["invisible"] = {key: card.nr.get(key) >= 50 for key in CATEGORIES}
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
        "texts": {language: texts(language) for language in LANGUAGES},
    }
