"""The start page's strengths: weakest first, the expert the hardest, each with its words."""

from __future__ import annotations

from typing import Any

import pytest

from kraftstokk.games.idiot.bots import EXPERT
from kraftstokk.games.search import DEFAULT_MS, ExpertBot, playouts_for
from kraftstokk.models import Deck
from kraftstokk.web.catalogue import BOT_ORDER, languages
from tests.web_helpers import client_for, new_game


@pytest.fixture
def client(deck: Deck) -> Any:
    with client_for(deck) as test_client:
        yield test_client


@pytest.mark.inventory
def test_the_hardest_level_is_the_expert_and_every_level_says_what_it_does(client: Any):
    data = client.get("/api/setup").json()
    for game in data["games"]:  # weakest first: a game's strengths in the page's order
        known = [kind for kind in BOT_ORDER if kind in game["bots"]]
        assert game["bots"][: len(known)] == known, game["name"]
        if "expert" in game["bots"]:
            assert game["bots"][-1] == "expert", game["name"]
    assert any(game["bots"][-1] == "expert" for game in data["games"])
    levels = {kind for game in data["games"] for kind in game["bots"]}
    for language in languages():
        words = data["texts"][language]
        for level in levels:
            assert words["bots"][level].strip(), (language, level)
            assert len(words["bot_help"][level]) > 40, (language, level)
        assert "50 ms" in words["bot_help"]["expert"]


def test_a_game_against_the_expert_uses_its_default_budget(client: Any):
    snapshot = new_game(client, "idiot", 1, seed=3, bots="expert")
    assert snapshot["moves"]["list"]  # the person is asked: the expert has moved or waits
    store = client.app.state.store
    session = next(iter(store._sessions.values()))
    bot = session.bots[1]
    assert isinstance(bot, ExpertBot)
    assert bot.playouts == playouts_for({}, EXPERT) == int(DEFAULT_MS * EXPERT.playouts_per_ms)
