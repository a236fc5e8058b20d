from tests.conftest import synthetic_deck


def test_synthetic_deck_has_permutation_ranks_and_war_partners():
    deck = synthetic_deck()
    plants = deck.plant_cards
    assert len(deck.cards) == 55 and len(plants) == 52
    for category in ("mw", "gwh", "head_m"):
        assert sorted(card.nr.get(category) for card in plants) == list(range(1, 53))
    assert any(card.flags.war_partners for card in plants)
    assert len({card.id for card in deck.cards}) == 55
