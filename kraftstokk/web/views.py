"""The one place the web app reads the engine: a seat's view, its moves, the log lines.

Everything here turns engine objects into plain JSON-ready dicts for one seat, and a
browser's move back into engine actions. Cards travel as their deck ids (``spar-7``), so
a test can search any response for a card that seat may not see. Only what the seat's
observation holds (and the public deck) goes out; a face-down card, another hand or the
stock's order never does. Claims name plants by ``plant_id``, not by card id: a claim is
public speech, not a card.

The rest of the web app (sessions, routes, templates) never imports a game module.

It reads both editions of the engine, game by game, while the second edition lands: a
game package (``games/idiot/actions.py``: typed frozen observations, events, lies by
figure) or a first-edition module (``games/idiot.py``). :func:`_edition` tells which; the
few places where the two differ say so. Drop the first-edition branches once every game
is a package.
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from kraftstokk.errors import GameError, RequestRefused
from kraftstokk.games.core import CATEGORY_NAMES, GWH, Action, DeckTable, State


def _edition(game: str) -> tuple[ModuleType, bool]:
    """The module with a game's action kinds and phases, and whether it is a package."""
    try:
        return importlib.import_module(f"kraftstokk.games.{game}.actions"), True
    except ImportError:
        return importlib.import_module(f"kraftstokk.games.{game}"), False


idiot_rules, IDIOT_PACKAGE = _edition("idiot")
ki_rules, KI_PACKAGE = _edition("kraftidioten")
sk_rules, SK_PACKAGE = _edition("stromkrig")
TWO = 2  # ID-6: the rank that resets the pile
NO_CATEGORY = -1  # KI-2: a new pile, the next card chooses the category

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
        "phase": obs.phase if isinstance(obs.phase, str) else _IDIOT_PHASES[int(obs.phase)],
        "current": obs.current_player,
        "players": players,
        "hand": card_ids(table, obs.hand),
        "face_up": card_ids(table, obs.face_up),
        "face_down_slots": list(obs.face_down_slots),
        "pile": {
            "count": len(pile),
            "top": card_ids(table, pile[-4:]),
            "stacked": _stacked(obs),
            "reset": bool(pile) and ranks[pile[-1]] == TWO,
        },
        "need": obs.need,
        "run_rank": obs.run_rank,
        "stock": obs.stock_count,
        "burned": obs.burned_count,
        "category": None,
    }


def _stacked(obs: Any) -> int:
    """How many cards of the top card's rank lie on top of the pile."""
    counted = getattr(obs, "top_count", None)  # the second edition counts them itself
    if counted is not None:
        return int(counted)
    pile, ranks = obs.pile, obs.ranks
    stacked = 0
    for card in reversed(pile):
        if ranks[card] != ranks[pile[-1]]:
            break
        stacked += 1
    return stacked


_IDIOT_PHASES = {
    idiot_rules.PHASE_SWAP: "swap",
    idiot_rules.PHASE_PLAY: "play",
    idiot_rules.PHASE_OVER: "over",
}
_KI_PHASES = {
    ki_rules.PHASE_TURN: "turn",
    ki_rules.PHASE_CHALLENGE: "challenge",
    ki_rules.PHASE_CLAIM: "claim",
}
_SK_PHASES = {
    sk_rules.PLAY: "play",
    sk_rules.CHOOSE: "chance",
    sk_rules.ASK: "join",
    sk_rules.NAMING: "name",
    sk_rules.WAR: "war",
    sk_rules.OVER: "over",
}


def _stated(table: DeckTable, category: int, plant: int, figure: float | None) -> tuple[str, bool]:
    """A claim's figure as said, and whether it is the plant's printed one."""
    printed = table.figure_text(category, plant)
    if figure is None or figure == table.printed[category][plant]:
        return printed, True
    from kraftstokk.games.events import Narrator  # only the second edition states figures

    return Narrator(table).amount(category, figure), False


def _ki_view(state: State, seat: int, plant_ids: Sequence[str]) -> Json:
    obs = state.observation(seat)
    table = state.game.table
    category = obs.category
    claims = []
    for claim in obs.claims[-8:]:
        plant = claim.plant
        said, printed = _stated(table, category, plant, getattr(claim, "figure", None))
        claims.append(
            {
                "seat": claim.seat,
                "plant_id": plant_ids[plant],
                "name": table.names[plant],
                "figure": said,
                "nr": table.nr[category][plant] if printed else None,
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
    phase = _KI_PHASES.get(int(obs.phase), "turn")
    hand = sorted(obs.hand, key=lambda c: _figure_order(table, category, c))
    return {
        "phase": phase,
        "current": obs.to_act,
        "players": players,
        "hand": card_ids(table, hand),
        "pile": {"count": obs.pile_count, "claims": claims, "top3": obs.claim_is_top3},
        "layer": obs.layer if obs.layer >= 0 else None,
        "challenge": int(obs.phase) == ki_rules.PHASE_CHALLENGE,
        "stock": obs.stock_count,
        "burned": obs.burned_count,
        "shown": shown,
        "category": category_key(category),
    }


def _sk_view(state: State, seat: int) -> Json:
    obs = state.observation(seat)
    table = state.game.table
    phase = _SK_PHASES.get(int(obs.phase), "play")
    war_view = _war(obs)
    category = war_view.category if war_view is not None else GWH
    order = category if category >= 0 else GWH
    hand = sorted(obs.hand, key=lambda c: _figure_order(table, order, c))
    out = obs.out
    players = [
        {"seat": s, "hand": obs.hand_counts[s], "face_up": [], "face_down": 0, "out": out[s]}
        for s in range(len(out))
    ]
    pile = obs.pile
    war = None
    if war_view is not None:
        war = {
            "challenger": war_view.challenger,
            "players": list(war_view.players),
            "category": category_key(war_view.category),
            "laid": [{"seat": s, "card": table.ids[c]} for s, c in war_view.laid],
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


@dataclass(frozen=True)
class _War:
    """A war in progress, as the first edition's observation tells it."""

    challenger: int
    players: tuple[int, ...]
    category: int
    laid: tuple[tuple[int, int], ...]


def _war(obs: Any) -> Any:
    if hasattr(obs, "war"):  # the second edition: a WarView or None
        return obs.war
    if obs.phase not in (sk_rules.ASK, sk_rules.NAMING, sk_rules.WAR):
        return None
    return _War(obs.war_challenger, obs.war_players, obs.war_category, obs.war_laid)


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
                "any_figure": KI_PACKAGE,  # KI-4c (second edition): any whole figure
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
    stated: int | None = None
    if choice.figure is not None and choice.figure != table.printed[category][plant]:
        if choice.figure != int(choice.figure) or choice.figure < 0:
            raise MoveRefused(
                f"claim: a figure other than the plant's printed one "
                f"({table.figure_text(category, plant)}) is a whole number, not {choice.figure}"
            )
        stated = int(choice.figure)
        if not KI_PACKAGE:
            raise MoveRefused(
                "claim: this version of the rules states the plant's own figure "
                f"({table.figure_text(category, plant)}); a lie names another plant"
            )
    obs = state.observation(seat)
    lay: Action = (ki_rules.LAY, card, category, plant)
    if stated is not None:
        lay = (*lay, stated)
    if int(obs.phase) == ki_rules.PHASE_CLAIM or (plant == card and stated is None):
        steps: list[Action] = [lay]
    else:
        steps = [(ki_rules.LIE, card, category), lay]
    probe = state.clone()
    for step in steps:
        is_legal = getattr(probe, "is_legal", None)  # the second edition's, for any figure
        legal = is_legal(step) if is_legal is not None else step in probe.legal_actions()
        if not legal:
            raise MoveRefused(_claim_refusal(state, obs, card, category, plant, stated))
        try:
            probe.apply(step)
        except GameError as exc:
            raise MoveRefused(f"claim: {exc.message}") from None
    return steps


def _claim_refusal(
    state: State, obs: Any, card: int, category: int, plant: int, stated: int | None
) -> str:
    table = state.game.table
    if card not in obs.hand and getattr(obs, "lie_card", -1) != card:
        return f"claim: you do not hold {table.ids[card]}"
    if obs.category not in (NO_CATEGORY, category):
        return f"claim: this pile is played in {CATEGORY_NAMES[obs.category]}"
    floor = obs.floor
    figure = table.printed[category][plant] if stated is None else stated
    if floor is not None and figure < floor:
        return f"claim: {_stated(table, category, plant, figure)[0]} is below the last claim"
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
