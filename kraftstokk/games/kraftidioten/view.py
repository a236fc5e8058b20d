"""Kraftidioten in the web app: a seat's table, its moves and its claims (``games/view.py``).

The pile lies face down; what the table knows of it is the claims, which name plants by
``plant_id`` (a claim is public speech, not a card). A claim is not one move per plant
but a form (``moves()["claim"]``): the card, the category, a plant typed by name and any
whole figure, which :func:`claim_actions` turns into the engine's actions (a truthful lay,
or a lie and its claim). A bot's face-down card is never in a view.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import compress
from operator import itemgetter, not_

from kraftstokk.errors import GameError, RequestRefused
from kraftstokk.games.core import Action, DeckTable, State
from kraftstokk.games.kraftidioten.actions import (
    CHALLENGE,
    DRAW,
    JOKER,
    LAY,
    LIE,
    PASS,
    PHASE_CHALLENGE,
    PHASE_CLAIM,
    PHASE_TURN,
    TAKE,
)
from kraftstokk.games.kraftidioten.observation import KraftidiotenObservation
from kraftstokk.games.kraftidioten.rules import NO_CATEGORY
from kraftstokk.games.narration import Narrator
from kraftstokk.games.view import (
    CATEGORY_KEYS,
    ClaimChoice,
    Json,
    MoveRefused,
    card_ids,
    category_count,
    category_key,
    count,
    in_figure_order,
    players,
    refusal,
)

_PHASES = {PHASE_TURN: "turn", PHASE_CHALLENGE: "challenge", PHASE_CLAIM: "claim"}
_KINDS = {TAKE: "take", DRAW: "draw", CHALLENGE: "challenge", PASS: "let_stand"}
#: Claims and shown cards a view lists (the latest).
CLAIMS_SHOWN = 8
#: The actions a hidden one (choosing to lie, KI-4c) comes right before: the claim. The
#: save keeps room for a hidden action before each of these (``web/record.py``).
HIDDEN_BEFORE = frozenset({LAY})


def _stated(table: DeckTable, category: int, plant: int, figure: float | None) -> tuple[str, bool]:
    """A claim's figure as said, and whether it is the plant's printed one."""
    printed = table.figure_text(category, plant)
    if figure is None or figure == table.printed[category][plant]:
        return printed, True
    return Narrator(table).amount(category, figure), False


def table_view(state: State, seat: int, plant_ids: Sequence[str]) -> Json:
    obs: KraftidiotenObservation = state.observation(seat)
    table = state.game.table
    view = _public_view(state, obs, plant_ids)
    view["hand"] = card_ids(table, in_figure_order(table, obs.category, obs.hand))
    return view


def step_view(state: State, seat: int, plant_ids: Sequence[str]) -> Json:
    """The view but the hand: what the page shows of a computer's move (``web/views.py``)."""
    return _public_view(state, state.observation(seat), plant_ids)


def _public_view(state: State, obs: KraftidiotenObservation, plant_ids: Sequence[str]) -> Json:
    table = state.game.table
    category = obs.category
    claims = []
    for claim in obs.claims[-CLAIMS_SHOWN:]:
        said, printed = _stated(table, category, claim.plant, claim.figure)
        claims.append(
            {
                "seat": claim.seat,
                "plant_id": plant_ids[claim.plant],
                "name": table.names[claim.plant],
                "figure": said,
                "nr": table.nr[category][claim.plant] if printed else None,
                "from_stock": claim.from_stock,
            }
        )
    challenge = int(obs.phase) == PHASE_CHALLENGE
    panels: list[Json] = []
    if claims:
        panels.append({"type": "claims", "claims": claims})
    if challenge and obs.claim_is_top3:
        panels.append({"type": "note", "text": "top3_warning", "style": "warn"})
    if obs.shown:
        last, _ = obs.shown[-1]
        panels.append(
            {
                "type": "cards",
                "label": "shown",
                "cards": [table.ids[last]],
                "figure": category_key(category),
            }
        )
    question = None
    if challenge and obs.claims:
        claimed = obs.claims[-1]
        said = _stated(table, category, claimed.plant, claimed.figure)[0]
        question = {
            "text": "challenge_q",
            "fill": {"n": claimed.seat + 1, "name": table.names[claimed.plant], "figure": said},
        }
    return {
        "phase": _PHASES.get(int(obs.phase), "turn"),
        "current": obs.to_act,
        "players": players(obs.hand_counts, [not active for active in obs.active]),
        "hand": [],  # the seat's own (table_view), in figure order
        "cards": "figure",
        "category": category_key(category),
        "pile": {"count": obs.pile_count, "cards": [], "face_down": True},
        "counts": [
            count("stock", obs.stock_count),
            count("burned", obs.burned_count),
            category_count(category),
        ],
        "notes": [],
        "rows": [],
        "panels": panels,
        "question": question,
    }


def moves(state: State, seat: int) -> Json:
    """The listed moves (take, draw, challenge, let stand, a joker) and the claim form."""
    legal = state.legal_actions()
    table = state.game.table
    # A hand of 50 cards has some 300 legal lays and lies, and a claim after a lie one
    # per plant it may name: each action is looked at by C code (map, compress) only.
    laid = list(map(_LAYS.__contains__, map(_KIND, legal)))
    listed: list[Json] = []
    for i in compress(range(len(legal)), map(not_, laid)):
        action = legal[i]
        if action[0] == JOKER:
            listed.append({"i": i, "kind": "joker", "cards": card_ids(table, action[1:2])})
        else:
            listed.append({"i": i, "kind": _KINDS[action[0]], "cards": []})
    claim: Json | None = None
    lays = list(compress(legal, laid))
    if lays:
        obs: KraftidiotenObservation = state.observation(seat)
        hand = in_figure_order(table, obs.category, set(map(_CARD, lays)))
        claim = {
            "cards": card_ids(table, hand),
            "categories": [CATEGORY_KEYS[c] for c in sorted(set(map(_CATEGORY, lays)))],
            "floor": obs.floor,
            "fixed_card": table.ids[obs.lie_card] if obs.phase == PHASE_CLAIM else None,
            "any_figure": True,  # KI-4c: a claim may state any whole figure
        }
    return {"list": listed, "claim": claim}


_LAYS = frozenset({LAY, LIE})  # the actions the claim form makes (claim_actions)
_KIND, _CARD, _CATEGORY = itemgetter(0), itemgetter(1), itemgetter(2)


def _refusal(reason: str, **values: object) -> RequestRefused:
    """Why a claim is refused, in every language (``[games.kraftidioten.refusals]``)."""
    return refusal(f"games.kraftidioten.refusals.{reason}", MoveRefused, **values)


def claim_actions(
    state: State, seat: int, choice: ClaimChoice, plant_ids: Sequence[str]
) -> list[Action]:
    """The engine actions that make ``choice``: a truthful lay, or a lie and its claim.

    A refusal says why, in every language (``web.toml``'s ``refusals``).
    """
    table = state.game.table

    try:
        card = table.index_of(choice.card)
    except ValueError:
        raise _refusal("no_card", card=choice.card) from None
    if choice.category not in CATEGORY_KEYS:
        raise _refusal("no_category", category=choice.category)
    category = CATEGORY_KEYS.index(choice.category)
    plant = _plants(table, plant_ids).get(choice.plant_id)
    if plant is None:
        raise _refusal("no_plant", plant=choice.plant_id)
    stated: int | None = None
    if choice.figure is not None and choice.figure != table.printed[category][plant]:
        if choice.figure != int(choice.figure) or choice.figure < 0:
            raise _refusal(
                "whole_figure", printed=table.figure_text(category, plant), figure=choice.figure
            )
        stated = int(choice.figure)
    obs: KraftidiotenObservation = state.observation(seat)
    lay: Action = (LAY, card, category, plant)
    if stated is not None:
        lay = (*lay, stated)
    if int(obs.phase) == PHASE_CLAIM or (plant == card and stated is None):
        steps: list[Action] = [lay]
    else:
        steps = [(LIE, card, category), lay]
    if len(steps) == 1:  # one action: the state itself says whether it is legal
        if not state.is_legal(lay):
            raise _claim_refusal(state, obs, card, category, plant, stated)
        return steps
    probe = state.clone()  # a lie and its claim: the claim is legal only after the lie
    for step in steps:
        if not probe.is_legal(step):
            raise _claim_refusal(state, obs, card, category, plant, stated)
        try:
            probe.apply(step)
        except GameError as exc:
            raise MoveRefused(f"claim: {exc.message}") from None
    return steps


def _plants(table: DeckTable, plant_ids: Sequence[str]) -> dict[str, int]:
    """Each plant id's first card that is no joker, made once per table and ids."""
    made: tuple[Sequence[str], dict[str, int]] | None = table.__dict__.get("_plants")
    if made is None or made[0] is not plant_ids:
        index: dict[str, int] = {}
        for card, plant_id in enumerate(plant_ids):
            if not table.joker[card]:
                index.setdefault(plant_id, card)
        made = (plant_ids, index)
        object.__setattr__(table, "_plants", made)  # a cache, not a field
    return made[1]


def _claim_refusal(
    state: State,
    obs: KraftidiotenObservation,
    card: int,
    category: int,
    plant: int,
    stated: int | None,
) -> RequestRefused:
    table = state.game.table

    if card not in obs.hand and obs.lie_card != card:
        return _refusal("not_held", card=table.ids[card])
    if obs.category not in (NO_CATEGORY, category):
        played = obs.category
        return _refusal(
            "other_category", category=lambda code: Narrator(table, code).category(played)
        )
    floor = obs.floor
    figure = table.printed[category][plant] if stated is None else stated
    if floor is not None and figure < floor:
        return _refusal("below", figure=_stated(table, category, plant, figure)[0])
    return _refusal("not_legal")
