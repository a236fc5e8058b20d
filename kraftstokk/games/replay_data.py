"""A replay log as plain JSON data: what ``kraftstokk play --save``, ``serve``'s download
and the static edition's page write of a game (``games/replay.py`` reads one, checked
by its pydantic model; this module writes one without pydantic, so the engine in the
browser can too).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, Final

from kraftstokk.games.core import Action, Game, Redeal, Result

FORMAT: Final = "kraftstokk-replay"
#: Version 2 numbers action kinds so that no two games share one (``games/README.md``);
#: a version-1 log is read with its game's ``v1_action_kinds`` or refused.
VERSION: Final = 2


def replay_data(
    deck: dict[str, Any],
    game: Game,
    bots: Sequence[str],
    seed: int,
    actions: Sequence[Action],
    result: Result | None = None,
    redeals: Sequence[Redeal] = (),
) -> dict[str, Any]:
    """The log of a game played (or begun) with ``game`` on ``deck`` (``deck.json``'s content);
    ``redeals``: where its unseen cards were dealt again (a key only when there are any)."""
    rules = game.rules()
    log = {
        "format": FORMAT,
        "version": VERSION,
        "deck": deck,
        "rules": {
            "game": rules["game"],
            "players": rules["players"],
            "variants": list(rules["variants"]),
            "action_cap": rules["action_cap"],
        },
        "bots": list(bots),
        "seed": seed,
        "actions": [list(action) for action in actions],
        "result": None if result is None else result_data(result),
    }
    if redeals:
        log["redeals"] = [list(redeal) for redeal in redeals]
    return log


def result_data(result: Result) -> dict[str, Any]:
    return {
        "finished": result.finished,
        "order": list(result.order),
        "loser": result.loser,
        "actions": result.actions,
        "rounds": result.rounds,
    }


def replay_text(log: dict[str, Any]) -> str:
    """A log as its file holds it: one action per line keeps long games readable."""
    data = dict(log)
    actions = data.pop("actions")
    text = json.dumps(data, ensure_ascii=False, indent=1)
    body = f'"actions": [\n{action_lines(actions)}\n ]' if actions else '"actions": []'
    return text[: text.rindex("}")].rstrip() + f",\n {body}\n}}\n"


def action_lines(actions: Sequence[Sequence[Any]]) -> str:
    """The actions one a line, each as ``json.dumps(action)`` writes it. A game at the
    action cap has thousands (``simulate`` writes one): json's C encoder writes them all
    at once, and its text is cut where one action ends and the next begins (5,000
    actions: 1.2 ms, where one call each took 3.5)."""
    text = json.dumps(actions)
    if text.count("[") == len(actions) + 1:  # each "[" opens an action: "], [" is between two
        return "  " + text[1:-1].replace("], [", "],\n  [")
    return ",\n".join("  " + json.dumps(action) for action in actions)
