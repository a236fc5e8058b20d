"""Shared by the web app's tests: a client on the synthetic deck and whole games by API."""

from __future__ import annotations

import json
import random
from typing import Any

from starlette.testclient import TestClient

from kraftstokk.models import Deck
from kraftstokk.web.app import create_app


def client_for(deck: Deck, **options: Any) -> TestClient:
    return TestClient(create_app(deck, **options), raise_server_exceptions=True)


def new_game(client: TestClient, game: str, opponents: int, seed: int, **extra: Any) -> Any:
    body = {"game": game, "opponents": opponents, "bots": "greedy", "seed": seed, **extra}
    response = client.post("/api/games", json=body)
    assert response.status_code == 201, response.text
    return response.json()


def next_request(
    snapshot: dict[str, Any], cards: dict[str, Any], rng: random.Random
) -> dict[str, Any]:
    """A random legal request for the person: a listed move or a claim (true or a lie)."""
    moves = snapshot["moves"]
    claim = moves["claim"]
    body: dict[str, Any] = {"turn": snapshot["turn"]}
    if claim and (not moves["list"] or rng.random() < 0.75):
        card = claim["fixed_card"] or rng.choice(claim["cards"])
        category = rng.choice(claim["categories"])
        choice = claim_body({"card": card, "category": category}, snapshot, cards, rng)
        if choice is not None:
            return {**body, "claim": choice}
    return {**body, "move": rng.choice(moves["list"])["i"]}


def claim_body(
    claim: dict[str, Any], snapshot: dict[str, Any], cards: dict[str, Any], rng: random.Random
) -> dict[str, Any] | None:
    """A claim request: the card's own plant, or (a lie) another plant that beats the floor."""
    card = claim["card"]
    category = claim["category"]
    floor = snapshot["moves"]["claim"]["floor"]
    options = [
        c
        for c in cards.values()
        if not c["joker"] and (floor is None or c["values"][category] >= floor)
    ]
    own = cards[card]
    if rng.random() < 0.5 and (floor is None or own["values"][category] >= floor):
        plant = own
    elif options:
        plant = rng.choice(options)
    else:
        return None
    return {"card": card, "category": category, "plant_id": plant["plant_id"]}


def response_text_without_save(data: dict[str, Any]) -> str:
    """The response as JSON text, minus the save header (which holds the public deck)."""
    return json.dumps({k: v for k, v in data.items() if k != "save"}, ensure_ascii=False)
