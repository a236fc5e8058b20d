"""Idiot in the web app: a seat's table and its moves as JSON (``games/view.py``).

Cards are told by suit and rank (the plants' figures play no part); the person's own
face-up row and face-down slots are rows of their table, and a swap is a move of two
cards (the hand card, then the face-up card it changes place with).
"""

from __future__ import annotations

from kraftstokk.games.core import Action, DeckTable, State
from kraftstokk.games.idiot.actions import (
    CHANCE,
    END_RUN,
    FACE_DOWN,
    PASS,
    PHASE_OVER,
    PHASE_PLAY,
    PHASE_SWAP,
    PLAY,
    READY,
    SNEAK,
    SWAP,
    TAKE,
)
from kraftstokk.games.idiot.observation import IdiotObservation
from kraftstokk.games.idiot.rules import TWO, rank_name
from kraftstokk.games.view import Json, card_ids, count, players

_PHASES = {PHASE_SWAP: "swap", PHASE_PLAY: "play", PHASE_OVER: "over"}
_KINDS = {READY: "ready", TAKE: "take", CHANCE: "chance", END_RUN: "end_run", PASS: "pass"}


def table_view(state: State, seat: int, plant_ids: object) -> Json:
    obs: IdiotObservation = state.observation(seat)
    table = state.game.table
    pile = obs.pile
    notes: list[Json] = []
    if pile and obs.ranks[pile[-1]] == TWO:
        notes.append({"text": "reset_on"})
    elif pile and obs.top_count > 1:
        notes.append({"text": "stacked", "fill": {"n": obs.top_count}})
    return {
        "phase": _PHASES[int(obs.phase)],
        "current": obs.current_player,
        "players": players(
            obs.hand_counts,
            [s in obs.out for s in range(obs.num_players)],
            [card_ids(table, row) for row in obs.face_up_rows],
            obs.face_down_counts,
        ),
        "hand": card_ids(table, obs.hand),
        "cards": "rank",
        "category": None,
        "pile": {"count": len(pile), "cards": card_ids(table, pile[-3:]), "face_down": False},
        "counts": [count("stock", obs.stock_count), count("burned", obs.burned_count)],
        "notes": notes,
        "rows": [
            {"label": "face_up", "cards": card_ids(table, obs.face_up)},
            {"label": "face_down", "slots": list(obs.face_down_slots)},
        ],
        "panels": [],
        "question": None,
    }


def moves(state: State, seat: int) -> Json:
    obs: IdiotObservation = state.observation(seat)
    table = state.game.table
    listed = [
        {"i": i, **_move(table, obs, action)} for i, action in enumerate(state.legal_actions())
    ]
    return {"list": listed, "claim": None}


def _move(table: DeckTable, obs: IdiotObservation, action: Action) -> Json:
    kind = action[0]
    if kind in (PLAY, SNEAK):
        cards = action[1:]
        move: Json = {
            "kind": "play" if kind == PLAY else "sneak",
            "cards": card_ids(table, cards),
            "from": "hand" if cards[0] in obs.hand else "face_up",
        }
        if kind == PLAY and len(cards) > 1:
            move["label"] = "play_many"
            move["fill"] = {"n": len(cards), "rank": rank_name(obs.ranks[cards[0]])}
        return move
    if kind == SWAP:
        return {"kind": "swap", "cards": card_ids(table, action[1:]), "pair": True}
    if kind == FACE_DOWN:
        return {"kind": "face_down", "cards": [], "slot": action[1], "fill": {"n": action[1] + 1}}
    return {"kind": _KINDS[kind], "cards": []}
