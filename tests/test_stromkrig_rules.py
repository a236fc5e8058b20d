"""Strømkrig's card predicates, and that the deck flags, the booklet and the engine share them."""

from __future__ import annotations

import pytest

from kraftstokk.deck import flags
from kraftstokk.design import blocks
from kraftstokk.games.core import DeckTable
from kraftstokk.games.stromkrig import chapter as sk_chapter
from kraftstokk.games.stromkrig.rules import (
    CardFace,
    WarReason,
    beats,
    burns,
    continues_run,
    invisible,
    invisible_in,
    may_lay,
    production_tens,
    resets,
    special,
    war_club,
    war_figure,
    war_losers,
    war_reasons,
)
from kraftstokk.games.stromkrig.state import StromkrigGame
from kraftstokk.models import CATEGORIES, Deck

JOKER = CardFace(joker=True)


def plant(
    suit: str = "spar", value: int = 7, gwh: float = 500.0, nr: tuple[int, int, int] = (20, 20, 20)
) -> CardFace:
    return CardFace(joker=False, suit=suit, value=value, figures=(100.0, gwh, 300.0), nr=nr)


@pytest.mark.parametrize(
    ("gwh", "tens"), [(879.0, 870), (871.0, 870), (870.0, 870), (869.9, 860), (9.5, 0)]
)
def test_sk6b_production_rounded_down_to_tens(gwh, tens):
    assert production_tens(gwh) == tens


def test_sk2_strictly_higher_production_beats_and_a_joker_beats_nothing():
    assert beats(plant(gwh=501), plant(gwh=500))
    assert not beats(plant(gwh=500), plant(gwh=500))
    assert not beats(plant(gwh=499), plant(gwh=500))
    assert not beats(JOKER, plant(gwh=1))


def test_sk10_sk11_burn_and_reset_cards():
    assert burns(JOKER)
    assert all(burns(plant("kløver", value)) for value in (1, 2, 3, 4))
    assert not burns(plant("kløver", 5)) and not burns(plant("spar", 2))
    assert all(resets(plant(suit, 2)) for suit in ("spar", "hjerter", "kløver", "ruter"))
    assert not resets(JOKER) and not resets(plant("spar", 3))
    assert burns(plant("kløver", 2)) and resets(plant("kløver", 2))  # SK-13: both


def test_sk12_invisible_by_any_category_or_only_production():
    by_head = plant(nr=(10, 20, 51))
    assert invisible_in(by_head) == ("head_m",)
    assert invisible(by_head) and not invisible(by_head, ("gwh",))
    assert invisible(plant(nr=(10, 50, 10)), ("gwh",))
    assert not invisible(plant(nr=(49, 49, 49))) and not invisible(JOKER)
    assert special(by_head) and not special(plant())


def test_sk6_war_reasons_club_on_club_and_same_tens():
    club_low, club_high = plant("kløver", 7, gwh=420), plant("kløver", 9, gwh=655)
    assert war_reasons(club_high, club_low) == (WarReason.CLUB_ON_CLUB,)
    assert war_reasons(plant(gwh=871), plant(gwh=879)) == (WarReason.SAME_TENS,)
    both = war_reasons(plant("kløver", 8, gwh=424), club_low)
    assert both == (WarReason.CLUB_ON_CLUB, WarReason.SAME_TENS)
    assert war_reasons(plant("kløver", 3, gwh=900), club_low) == ()  # SK-10 card
    assert not war_club(plant("kløver", 4)) and war_club(plant("kløver", 5))
    assert war_reasons(JOKER, club_low) == () and war_reasons(plant(gwh=500), plant(gwh=900)) == ()


def test_sk6b_a_lower_card_may_be_laid_only_where_it_starts_a_war():
    assert may_lay(plant(gwh=871), plant(gwh=879))
    assert not may_lay(plant(gwh=871), plant(gwh=879), war_possible=False)
    assert not may_lay(plant(gwh=869), plant(gwh=879))
    # Club on club still needs higher production (SK-6a).
    assert not may_lay(plant("kløver", 7, gwh=420), plant("kløver", 9, gwh=655))


def test_sk5_a_run_steps_up_one_production_nr():
    assert continues_run(plant(nr=(1, 14, 1)), plant(nr=(1, 15, 1)))
    assert not continues_run(plant(nr=(1, 15, 1)), plant(nr=(1, 14, 1)))
    assert not continues_run(plant(nr=(1, 13, 1)), plant(nr=(1, 15, 1)))
    assert not continues_run(JOKER, plant())


def test_sk7_lowest_figure_loses_jokers_lowest_ties_fight_again():
    assert war_figure(JOKER, "mw") < war_figure(plant(), "mw")
    assert war_losers([(0, plant(gwh=5)), (1, plant(gwh=3)), (2, plant(gwh=9))], "gwh") == [1]
    assert war_losers([(0, JOKER), (1, plant(gwh=1))], "gwh") == [0]
    assert war_losers([(0, JOKER), (1, JOKER), (2, plant())], "gwh") == [0, 1]


def test_deck_flags_booklet_and_engine_agree_card_by_card(deck: Deck):
    """One rule, three readers: the deck's flags, the booklet's examples and the engine."""
    table = DeckTable.from_deck(deck)
    game = StromkrigGame(table, 2)
    cards = deck.cards
    for index, card in enumerate(cards):
        assert card.flags.burn == game.burner[index], card.id
        assert card.flags.reset == game.resetter[index], card.id
        if not card.joker:
            invisible_flags = any(card.flags.invisible.get(c) for c in CATEGORIES)
            assert invisible_flags == game.invisible[index], card.id
            assert card.flags.gwh_tens == flags.gwh_tens(card.figure("gwh")) == blocks.tens(card)
            assert sk_chapter.is_plain(card) == (
                not game.burner[index] and not game.resetter[index] and not game.invisible[index]
            )
    for under_index, under in enumerate(cards):
        for laid_index, laid in enumerate(cards):
            reasons = game.war_reasons[under_index][laid_index]
            assert sk_chapter.starts_war(under, laid) == bool(reasons), (under.id, laid.id)
            if WarReason.SAME_TENS in reasons and laid_index != under_index:
                assert laid.id in under.flags.war_partners
    burn_ids = {cards[i].id for i in range(len(cards)) if game.burner[i] and not table.joker[i]}
    assert {c.id for c in blocks.burn_cards(deck)} == burn_ids
    reset_ids = {cards[i].id for i in range(len(cards)) if game.resetter[i]}
    assert {c.id for c in blocks.reset_cards(deck)} == reset_ids
