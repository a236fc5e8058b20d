"""Strømkrig in the web app: a seat's table and its moves as JSON (``games/view.py``).

Cards are told by their production (or the war's category); the pile shows its top cards
face up, with the card to beat, the invisible cards beside it, a turned chance card and
the war in progress as panels.
"""

from __future__ import annotations

from collections.abc import Sequence

from kraftstokk.games.core import GWH, Action, DeckTable, State
from kraftstokk.games.stromkrig.actions import (
    ASK,
    BURN,
    CHANCE,
    CHOOSE,
    INVISIBLE,
    JOIN,
    LAY,
    NAME,
    NAMING,
    OVER,
    PLAY,
    RESET,
    RUN,
    STAY_OUT,
    TAKE,
    WAR,
    WAR_LAY,
)
from kraftstokk.games.stromkrig.observation import StromkrigObservation
from kraftstokk.games.view import (
    CATEGORY_KEYS,
    Json,
    card_ids,
    category_count,
    category_key,
    count,
    in_figure_order,
    players,
)

_PHASES = {PLAY: "play", CHOOSE: "chance", ASK: "join", NAMING: "name", WAR: "war", OVER: "over"}
_KINDS = {
    LAY: "lay",
    RUN: "run",
    BURN: "burn",
    RESET: "reset",
    INVISIBLE: "invisible",
    TAKE: "take",
    CHANCE: "chance",
    JOIN: "join",
    STAY_OUT: "stay_out",
    NAME: "name",
    WAR_LAY: "war_lay",
}
_PRODUCTION = CATEGORY_KEYS[GWH]


def table_view(state: State, seat: int, plant_ids: Sequence[str]) -> Json:
    obs: StromkrigObservation = state.observation(seat)
    table = state.game.table
    war = obs.war
    category = war.category if war is not None else GWH
    shown = category if category >= 0 else GWH
    pile = obs.pile
    panels: list[Json] = []
    if obs.top >= 0 and (not pile or pile[-1] != obs.top):
        panels.append(_cards("to_beat", table, [obs.top]))
    if obs.beside:
        panels.append(_cards("beside", table, obs.beside))
    if obs.chance_card >= 0:
        panels.append(_cards("chance_card", table, [obs.chance_card]))
    if war is not None:
        panels.append(
            {
                "type": "war",
                "players": list(war.players),
                "category": category_key(war.category),
                "laid": [{"seat": s, "card": table.ids[c]} for s, c in war.laid],
            }
        )
    return {
        "phase": _PHASES.get(int(obs.phase), "play"),
        "current": obs.current_player,
        "players": players(obs.hand_counts, obs.out),
        "hand": card_ids(table, in_figure_order(table, shown, obs.hand)),
        "cards": "figure",
        "category": category_key(category),
        "pile": {
            "count": len(pile),
            "cards": card_ids(table, pile[-3:]),
            "face_down": False,
            "figure": _PRODUCTION,
        },
        "counts": [
            count("stock", obs.stock_count),
            count("burned", len(obs.burned)),
            category_count(category),
        ],
        "notes": [],
        "rows": [],
        "panels": panels,
        "question": None,
    }


def _cards(label: str, table: DeckTable, cards: Sequence[int]) -> Json:
    return {"type": "cards", "label": label, "cards": card_ids(table, cards), "figure": _PRODUCTION}


def moves(state: State, seat: int) -> Json:
    table = state.game.table
    return {
        "list": [
            {"i": i, **_move(table, action)} for i, action in enumerate(state.legal_actions())
        ],
        "claim": None,
    }


def _move(table: DeckTable, action: Action) -> Json:
    kind = action[0]
    if kind == NAME:
        return {"kind": "name", "cards": [], "category": CATEGORY_KEYS[action[1]]}
    return {"kind": _KINDS[kind], "cards": card_ids(table, action[1:])}
