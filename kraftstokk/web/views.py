"""The one place the web app reads the engine: a seat's view, its moves, the log lines.

Everything here turns engine objects into plain JSON-ready dicts for one seat, and a
browser's move back into engine actions. Cards travel as their deck ids (``spar-7``), so
a test can search any response for a card that seat may not see. Only what the seat's
observation holds (and the public deck) goes out; a face-down card, another hand or the
stock's order never does. Claims name plants by ``plant_id``, not by card id: a claim is
public speech, not a card.

The rest of the web app (sessions, routes, templates) never imports a game module.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from kraftstokk.errors import GameError, RequestRefused
from kraftstokk.games import idiot as idiot_rules
from kraftstokk.games import kraftidioten as ki_rules
from kraftstokk.games import stromkrig as sk_rules
from kraftstokk.games.core import CATEGORY_NAMES, GWH, Action, DeckTable, State

Json = dict[str, Any]

#: Engine category index -> the key the browser uses (deck.json's figure names).
CATEGORY_KEYS: tuple[str, ...] = ("mw", "gwh", "head_m")


class MoveRefused(RequestRefused):
    """A move a browser sent that is not legal now."""

    status = 422


def card_ids(table: DeckTable, cards: Sequence[int]) -> list[str]:
    return [table.ids[c] for c in cards if c >= 0]


def category_key(category: int) -> str | None:
    return CATEGORY_KEYS[category] if 0 <= category < 3 else None


# --------------------------------------------------------------------------- views


def table_view(state: State, seat: int, plant_ids: Sequence[str]) -> Json:
    """What ``seat`` sees of the table now; ``plant_ids`` by card index name the claims."""
    name = state.game.name
    if name == "idiot":
        view = _idiot_view(state, seat)
    elif name == "kraftidioten":
        view = _ki_view(state, seat, plant_ids)
    elif name == "stromkrig":
        view = _sk_view(state, seat)
    else:
        raise GameError(f"the web app cannot show {name}")
    order = state.result().order  # who went out, in order: public at the table
    for player in view["players"]:
        player["place"] = order.index(player["seat"]) + 1 if player["seat"] in order else None
    if state.is_terminal():
        view["phase"] = "over"
    return view


def _idiot_view(state: State, seat: int) -> Json:
    obs = state.observation(seat)
    table = state.game.table
    ranks = obs.ranks
    pile = obs.pile
    stacked = 0
    if pile:
        top_rank = ranks[pile[-1]]
        for card in reversed(pile):
            if ranks[card] != top_rank:
                break
            stacked += 1
    out = set(obs.out)
    players = [
        {
            "seat": s,
            "hand": obs.hand_counts[s],
            "face_up": card_ids(table, obs.face_up_rows[s]),
            "face_down": obs.face_down_counts[s],
            "out": s in out,
        }
        for s in range(obs.num_players)
    ]
    return {
        "phase": obs.phase,
        "current": obs.current_player,
        "players": players,
        "hand": card_ids(table, obs.hand),
        "face_up": card_ids(table, obs.face_up),
        "face_down_slots": list(obs.face_down_slots),
        "pile": {
            "count": len(pile),
            "top": card_ids(table, pile[-4:]),
            "stacked": stacked,
            "reset": bool(pile) and ranks[pile[-1]] == idiot_rules.TWO,
        },
        "need": obs.need,
        "run_rank": obs.run_rank,
        "stock": obs.stock_count,
        "burned": obs.burned_count,
        "category": None,
    }


def _ki_view(state: State, seat: int, plant_ids: Sequence[str]) -> Json:
    obs = state.observation(seat)
    table = state.game.table
    category = obs.category
    claims = []
    for claim in obs.claims[-8:]:
        plant = claim.plant
        claims.append(
            {
                "seat": claim.seat,
                "plant_id": plant_ids[plant],
                "name": table.names[plant],
                "figure": table.figure_text(category, plant),
                "nr": table.nr[category][plant],
                "from_stock": claim.from_stock,
            }
        )
    active = obs.active
    players = [
        {"seat": s, "hand": obs.hand_counts[s], "face_up": [], "face_down": 0, "out": not active[s]}
        for s in range(obs.num_players)
    ]
    shown = [
        {"card": table.ids[card], "to": to if to >= 0 else None} for card, to in obs.shown[-6:]
    ]
    phase = {ki_rules.PHASE_TURN: "turn", ki_rules.PHASE_CHALLENGE: "challenge"}.get(
        obs.phase, "claim"
    )
    hand = sorted(obs.hand, key=lambda c: _figure_order(table, category, c))
    return {
        "phase": phase,
        "current": obs.to_act,
        "players": players,
        "hand": card_ids(table, hand),
        "pile": {"count": obs.pile_count, "claims": claims, "top3": obs.claim_is_top3},
        "layer": obs.layer if obs.layer >= 0 else None,
        "challenge": obs.challenge_pending,
        "stock": obs.stock_count,
        "burned": obs.burned_count,
        "shown": shown,
        "category": category_key(category),
    }


def _sk_view(state: State, seat: int) -> Json:
    obs = state.observation(seat)
    table = state.game.table
    phase = sk_rules.PHASE_NAMES[obs.phase]
    at_war = obs.phase in (sk_rules.ASK, sk_rules.NAMING, sk_rules.WAR)
    category = obs.war_category if at_war else GWH
    hand = sorted(obs.hand, key=lambda c: _figure_order(table, max(category, 0), c))
    out = obs.out
    players = [
        {"seat": s, "hand": obs.hand_counts[s], "face_up": [], "face_down": 0, "out": out[s]}
        for s in range(len(out))
    ]
    pile = obs.pile
    war = None
    if at_war:
        war = {
            "challenger": obs.war_challenger,
            "players": list(obs.war_players),
            "category": category_key(obs.war_category),
            "laid": [{"seat": s, "card": table.ids[c]} for s, c in obs.war_laid],
        }
    return {
        "phase": phase,
        "current": obs.current_player,
        "players": players,
        "hand": card_ids(table, hand),
        "pile": {
            "count": len(pile),
            "top": card_ids(table, pile[-4:]),
            "to_beat": table.ids[obs.top] if obs.top >= 0 else None,
            "beside": card_ids(table, obs.beside),
        },
        "chance_card": table.ids[obs.chance_card] if obs.chance_card >= 0 else None,
        "war": war,
        "stock": obs.stock_count,
        "burned": len(obs.burned),
        "category": category_key(category),
    }


def _figure_order(table: DeckTable, category: int, card: int) -> tuple[int, float, int]:
    """Hand order in the power-plant games: jokers first, then by the category's figure."""
    if table.joker[card] or category < 0:
        return (0 if table.joker[card] else 1, 0.0, card)
    return (1, table.figures[category][card], card)


# --------------------------------------------------------------------------- moves


def moves(state: State, seat: int) -> Json:
    """The seat's legal moves: ``list`` (index = position in ``legal_actions``) and forms.

    A move is ``{"i", "kind", "cards", ...}``; the browser labels it from ``kind``. A
    Kraftidioten claim is a form (``claim``) rather than one move per plant.
    """
    if state.is_terminal() or state.current_player() != seat:
        return {"list": [], "claim": None}
    legal = list(state.legal_actions())
    table = state.game.table
    name = state.game.name
    listed: list[Json] = []
    claim: Json | None = None
    if name == "idiot":
        for i, action in enumerate(legal):
            listed.append({"i": i, **_idiot_move(table, state, seat, action)})
    elif name == "kraftidioten":
        lay_cards: dict[int, set[int]] = {}
        for i, action in enumerate(legal):
            kind = action[0]
            if kind in (ki_rules.LAY, ki_rules.LIE):
                lay_cards.setdefault(action[1], set()).add(action[2])
            else:
                listed.append({"i": i, **_ki_move(table, action)})
        if lay_cards:
            obs = state.observation(seat)
            categories = sorted({c for cats in lay_cards.values() for c in cats})
            hand = sorted(lay_cards, key=lambda c: _figure_order(table, obs.category, c))
            floor = obs.floor
            claim = {
                "cards": card_ids(table, hand),
                "categories": [CATEGORY_KEYS[c] for c in categories],
                "floor": floor,
                "fixed_card": table.ids[obs.lie_card]
                if obs.phase == ki_rules.PHASE_CLAIM
                else None,
                "any_figure": False,
            }
    elif name == "stromkrig":
        for i, action in enumerate(legal):
            listed.append({"i": i, **_sk_move(table, action)})
    return {"list": listed, "claim": claim}


def _idiot_move(table: DeckTable, state: State, seat: int, action: Action) -> Json:
    kind = action[0]
    obs = state.observation(seat)
    if kind in (idiot_rules.PLAY, idiot_rules.SNEAK):
        source = "hand" if action[1] in obs.hand else "face_up"
        return {
            "kind": "play" if kind == idiot_rules.PLAY else "sneak",
            "cards": card_ids(table, action[1:]),
            "from": source,
        }
    if kind == idiot_rules.SWAP:
        return {"kind": "swap", "cards": card_ids(table, action[1:])}
    if kind == idiot_rules.FACE_DOWN:
        return {"kind": "face_down", "cards": [], "slot": action[1]}
    names = {
        idiot_rules.READY: "ready",
        idiot_rules.TAKE: "take",
        idiot_rules.CHANCE: "chance",
        idiot_rules.END_RUN: "end_run",
        idiot_rules.PASS: "pass",
    }
    return {"kind": names[kind], "cards": []}


def _ki_move(table: DeckTable, action: Action) -> Json:
    kind = action[0]
    if kind == ki_rules.JOKER:
        return {"kind": "joker", "cards": card_ids(table, action[1:2])}
    names = {
        ki_rules.TAKE: "take",
        ki_rules.DRAW: "draw",
        ki_rules.CHALLENGE: "challenge",
        ki_rules.PASS: "let_stand",
    }
    return {"kind": names[kind], "cards": []}


_SK_KINDS = {
    sk_rules.LAY: "lay",
    sk_rules.RUN: "run",
    sk_rules.BURN: "burn",
    sk_rules.RESET: "reset",
    sk_rules.INVISIBLE: "invisible",
    sk_rules.TAKE: "take",
    sk_rules.CHANCE: "chance",
    sk_rules.JOIN: "join",
    sk_rules.STAY_OUT: "stay_out",
    sk_rules.NAME: "name",
    sk_rules.WAR_LAY: "war_lay",
}


def _sk_move(table: DeckTable, action: Action) -> Json:
    kind = action[0]
    if kind == sk_rules.NAME:
        return {"kind": "name", "cards": [], "category": CATEGORY_KEYS[action[1]]}
    return {"kind": _SK_KINDS[kind], "cards": card_ids(table, action[1:])}


@dataclass(frozen=True)
class ClaimChoice:
    """A Kraftidioten claim as a person makes it: the card, the category, plant, figure."""

    card: str
    category: str
    plant_id: str
    figure: float | None = None  # None: the named plant's own figure


def claim_actions(
    state: State, seat: int, choice: ClaimChoice, plant_ids: Sequence[str]
) -> list[Action]:
    """The engine actions that make ``choice``: a truthful lay, or a lie and its claim."""
    if state.game.name != "kraftidioten":
        raise MoveRefused(f"{state.game.name} has no claims")
    if state.is_terminal() or state.current_player() != seat:
        raise MoveRefused("it is not your turn to claim")
    table = state.game.table
    try:
        card = table.index_of(choice.card)
    except ValueError:
        raise MoveRefused(f"claim: no card {choice.card!r} in this deck") from None
    if choice.category not in CATEGORY_KEYS:
        raise MoveRefused(f"claim: no category {choice.category!r} (mw, gwh or head_m)")
    category = CATEGORY_KEYS.index(choice.category)
    plants = [i for i, pid in enumerate(plant_ids) if pid == choice.plant_id and not table.joker[i]]
    if not plants:
        raise MoveRefused(f"claim: no plant {choice.plant_id!r} in this deck")
    plant = plants[0]
    if choice.figure is not None and choice.figure != table.figures[category][plant]:
        true = table.figure_text(category, plant)
        raise MoveRefused(
            f"claim: this version of the rules states the plant's own figure ({true}); "
            "a lie names another plant"
        )
    legal = set(state.legal_actions())
    obs = state.observation(seat)
    if obs.phase == ki_rules.PHASE_CLAIM:
        steps: list[Action] = [(ki_rules.LAY, card, category, plant)]
    elif plant == card:
        steps = [(ki_rules.LAY, card, category, plant)]
    else:
        steps = [(ki_rules.LIE, card, category), (ki_rules.LAY, card, category, plant)]
    if steps[0] not in legal:
        raise MoveRefused(_claim_refusal(state, obs, card, category, plant))
    probe = state.clone()
    for step in steps:
        if step not in probe.legal_actions():
            raise MoveRefused(_claim_refusal(state, obs, card, category, plant))
        probe.apply(step)
    return steps


def _claim_refusal(state: State, obs: Any, card: int, category: int, plant: int) -> str:
    table = state.game.table
    if card not in obs.hand:
        return f"claim: you do not hold {table.ids[card]}"
    if obs.category not in (ki_rules.NO_CATEGORY, category):
        return f"claim: this pile is played in {CATEGORY_NAMES[obs.category]}"
    floor = obs.floor
    if floor is not None and table.figures[category][plant] < floor:
        return f"claim: {table.figure_text(category, plant)} is below the last claim"
    return "claim: not a legal claim here"


# --------------------------------------------------------------------------- log


_IDIOT_LAYS = (idiot_rules.PLAY, idiot_rules.SNEAK)
_SK_LAYS = (
    sk_rules.LAY,
    sk_rules.RUN,
    sk_rules.BURN,
    sk_rules.RESET,
    sk_rules.INVISIBLE,
    sk_rules.WAR_LAY,
)


@dataclass(frozen=True)
class PendingLine:
    """What is known of a move before it is applied (the words depend on the position)."""

    seat: int
    words: str
    cards: tuple[str, ...]
    events_before: int = 0


#: Seat names in the log: "Spiller 2"; the listener's own seat is "du"/"you".
SEAT_WORDS = {"nb": "Spiller {n}", "en": "Player {n}"}


def narrators(state: State, person: int) -> dict[str, Any] | None:
    """The engine's narrators for the person's seat in nb and en (None: no events)."""
    try:
        from kraftstokk.games.events import Narrator
    except ImportError:
        return None
    players = state.game.num_players
    return {
        lang: Narrator(
            state.game.table,
            lang,
            viewer=person,
            seat_names=tuple(words.format(n=s + 1) for s in range(players)),
        )
        for lang, words in SEAT_WORDS.items()
    }


def before_move(state: State, action: Action, person: int) -> PendingLine:
    """The move in words as ``person`` may know it (a bot's face-down card stays hidden)."""
    seat = state.current_player()
    own = seat == person
    words = state.action_to_string(action) if own else state.public_action_string(action)
    table = state.game.table
    cards: tuple[str, ...] = ()
    kind = action[0]
    name = state.game.name
    face_up = (name == "idiot" and kind in _IDIOT_LAYS) or (
        name == "stromkrig" and kind in _SK_LAYS
    )
    if face_up:
        cards = tuple(card_ids(table, action[1:]))
    elif name == "kraftidioten" and (kind == ki_rules.JOKER or (own and kind == ki_rules.LAY)):
        cards = tuple(card_ids(table, action[1:2]))
    events = getattr(state, "events", None)
    return PendingLine(seat, words, cards, len(events) if events is not None else 0)


def after_move(
    state: State, pending: PendingLine, tellers: dict[str, Any] | None = None
) -> list[Json]:
    """The log lines of a move once applied: the engine's events as the person hears them.

    An engine without events gives one line from the move's public words instead.
    """
    events = getattr(state, "events", None)
    if events is not None and tellers is not None:
        lines = []
        for event in events[pending.events_before :]:
            text = {lang: event.text(teller) for lang, teller in tellers.items()}
            if not any(text.values()):
                continue
            lines.append(
                {
                    "seat": event.seat,
                    "kind": type(event).__name__,
                    "cards": [],
                    "text": text,
                    "sentence": True,
                }
            )
        return lines
    line = _interim_line(state, pending)
    return [line] if line is not None else []


def _interim_line(state: State, pending: PendingLine) -> Json | None:
    outcome = getattr(state, "outcome_text", None)
    revealed = outcome() if callable(outcome) else None
    if not pending.words and not revealed:
        return None
    text = pending.words
    if revealed:
        text = f"{text} → {revealed}" if text else revealed
    return {
        "seat": pending.seat,
        "kind": "move",
        "cards": list(pending.cards),
        "text": {"en": text, "nb": text},
        "sentence": False,
    }


def result_view(state: State) -> Json | None:
    if not state.is_terminal():
        return None
    result = state.result()
    return {
        "finished": result.finished,
        "order": list(result.order),
        "loser": result.loser,
        "actions": result.actions,
    }
