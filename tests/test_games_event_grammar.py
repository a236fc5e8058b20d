"""Every game's events told to the seat they are about: 'You lay', never 'You lays'."""

from __future__ import annotations

import re

import pytest

from kraftstokk.games import registry
from kraftstokk.games.core import DeckTable
from kraftstokk.games.narration import Narrator
from kraftstokk.games.runner import play_game
from tests.conftest import synthetic_deck

TABLE = DeckTable.from_deck(synthetic_deck())
# "You lays", "You turns", "and joins" after "You ...": a third-person verb told to "you".
THIRD_PERSON = re.compile(r"\bYou (\w+[^s\W]s)\b|\bYou \w+ .*\band (\w+[^s\W]s)\b")


@pytest.mark.inventory
@pytest.mark.parametrize("name", registry.package_names())
def test_events_told_to_their_own_seat_use_the_second_person(name):
    game = registry.make_game(name, TABLE, 3)
    bots = registry.get_spec(name).default_bot
    told = 0
    for seed in range(25):
        record = play_game(game, registry.make_bots(game, bots), seed)
        for event in record.events:
            if event.seat < 0:
                continue
            english = Narrator(TABLE, "en", viewer=event.seat, game=name).tell(event)
            norwegian = Narrator(TABLE, "nb", viewer=event.seat, game=name).tell(event)
            assert not THIRD_PERSON.search(english), english
            assert " of you" not in english and " til du" not in norwegian, (english, norwegian)
            told += 1
    assert told > 100
