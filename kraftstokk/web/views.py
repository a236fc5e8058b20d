"""The one place the web app reads the engine: a seat's view, its moves, the log lines.

Each game's package brings its own view (``games/<game>/view.py``, the building blocks in
``games/view.py``); this module finds it through the game's spec and adds what every game
shares: each seat's place once out, the log (the engine's events as the game's narration
tells them to the person's seat, in the language the page speaks) and the result. A
game without a view module is not offered by the web app.

Only what the seat's observation holds (and the public deck) goes out; a face-down card,
another hand or the stock's order never does, and neither do the engine's actions (a
bot's lie is an action naming the card it lays face down). The rest of the web app
(sessions, routes, templates) never imports a game module.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from types import ModuleType
from typing import Any

from kraftstokk import locales
from kraftstokk.games.core import Action, Game, State
from kraftstokk.games.events import Event
from kraftstokk.games.narration import Narrator
from kraftstokk.games.registry import get_spec, specs
from kraftstokk.games.view import ClaimChoice, MoveRefused, refusal
from kraftstokk.web.record import has_hidden_actions

Json = dict[str, Any]
VIEW_MODULE = "view"

__all__ = [
    "ClaimChoice",
    "MoveRefused",
    "claim_actions",
    "games",
    "hidden_room",
    "log_line",
    "moves",
    "narrator",
    "result_view",
    "step_view",
    "table_view",
]

#: What of a seat's view changes with one move of another seat (the page's animation).
STEP_KEYS = ("current", "pile", "counts", "notes", "panels", "players")


def games() -> list[str]:
    """The games the web app offers: every game whose package has a view, by name."""
    return [name for name, spec in specs().items() if spec.module(VIEW_MODULE) is not None]


@functools.lru_cache(maxsize=32)
def _view(game: str, generation: int) -> ModuleType:
    module = get_spec(game).module(VIEW_MODULE)
    if module is None:
        raise MoveRefused(f"{game} cannot be played in the browser (its package has no view)")
    return module


def view_module(game: str) -> ModuleType:
    """The game package's ``view.py``."""
    return _view(game, locales.generation())


def hidden_room(state: State) -> frozenset[int] | None:
    """The kinds of action a hidden one may come right before (the game's view says, in
    ``HIDDEN_BEFORE``; empty: every kind), or None for a game without hidden actions: where
    a save keeps room for one (``record.py``)."""
    if not has_hidden_actions(state):
        return None
    room: frozenset[int] = getattr(view_module(state.game.name), "HIDDEN_BEFORE", frozenset())
    return room


def table_view(state: State, seat: int, plant_ids: Sequence[str]) -> Json:
    """What ``seat`` sees of the table now; ``plant_ids`` by card index name the claims."""
    view: Json = view_module(state.game.name).table_view(state, seat, plant_ids)
    _place(state, view)
    if state.is_terminal():
        view["phase"] = "over"
    return view


def step_view(state: State, seat: int, plant_ids: Sequence[str]) -> Json:
    """The part of ``seat``'s view that one move changes: shown while the page replays the
    computer's moves one at a time (the same view, so it holds nothing the seat cannot see).
    A game's view module may make it alone (``step_view``: Kraftidioten's leaves out the
    hand, which a long game's person holds dozens of cards of); else it is cut from the
    whole view."""
    module = view_module(state.game.name)
    made = getattr(module, "step_view", None)
    view: Json = made(state, seat, plant_ids) if made else module.table_view(state, seat, plant_ids)
    _place(state, view)
    return {key: view[key] for key in STEP_KEYS}


def _place(state: State, view: Json) -> None:
    """Each seat's place once out (who went out, in order, is public at the table)."""
    order = state.result().order
    for player in view["players"]:
        player["place"] = order.index(player["seat"]) + 1 if player["seat"] in order else None


def moves(state: State, seat: int) -> Json:
    """The seat's legal moves: ``list`` (``i`` = position in ``legal_actions``) and forms.

    A move is ``{"i", "kind", "cards", ...}``; the browser labels it from ``kind`` (or its
    ``label``). A claim is a form (``claim``) rather than one move per plant.
    """
    if state.is_terminal() or state.current_player() != seat:
        return {"list": [], "claim": None}
    found: Json = view_module(state.game.name).moves(state, seat)
    return found


def claim_actions(
    state: State, seat: int, choice: ClaimChoice, plant_ids: Sequence[str]
) -> list[Action]:
    """The engine actions that make a claim, for a game that has claims."""
    game = state.game
    module = view_module(game.name)
    if not hasattr(module, "claim_actions"):
        raise refusal("refusals.no_claims", game=lambda code: get_spec(game.name).title(code))
    if state.is_terminal() or state.current_player() != seat:
        raise refusal("refusals.not_your_claim")
    steps: list[Action] = module.claim_actions(state, seat, choice, plant_ids)
    return steps


def narrator(game: Game, person: int, lang: str) -> Narrator:
    """The engine's narrator for the person's seat in ``lang``.

    The seats are named as the page names them (``web.toml``'s ``ui.player``: "Player 2"),
    the person's own seat as "you". One narrator serves every table of the same rules,
    seat and language (it keeps the names of the cards it has told).
    """
    return _narrator(game, person, lang, locales.generation())


@functools.lru_cache(maxsize=256)
def _narrator(game: Game, person: int, lang: str, generation: int) -> Narrator:
    words = locales.load(lang).part("web")["ui"]["player"]
    return Narrator(
        game.table,
        lang,
        viewer=person,
        seat_names=tuple(words.format(n=s + 1) for s in range(game.num_players)),
        game=game.name,
    )


def log_line(n: int, event: Event, lang: str, text: str) -> Json:
    """A log line: ``{"n", "seat", "kind", "text": {language: sentence}}``: its number,
    the event's seat, its kind (the event's class name, public like the event itself) and
    its sentence as the person's seat hears it (nothing of what is unseen), in the one
    language the page asked for."""
    return {"n": n, "seat": event.seat, "kind": type(event).__name__, "text": {lang: text}}


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
