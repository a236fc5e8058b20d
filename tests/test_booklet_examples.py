"""The booklet's worked examples obey the rules (RULES.md), and both languages match."""

from __future__ import annotations

import pytest

from kraftstokk.design import blocks
from kraftstokk.design.blocks import (
    CardRow,
    Example,
    Heading,
    Para,
    card_name,
    figure,
    gallery,
    number,
    war_partner_line,
)
from kraftstokk.games.core import DeckTable
from kraftstokk.games.idiot import chapter as idiot_chapter
from kraftstokk.games.kraftidioten import chapter as ki_chapter
from kraftstokk.games.kraftidioten import rules as ki_rules
from kraftstokk.games.stromkrig import chapter as sk_chapter
from kraftstokk.models import CATEGORIES
from kraftstokk.render.booklet_content import booklet_blocks
from kraftstokk.render.locale import load_locale
from tests.conftest import synthetic_deck

NB = load_locale("nb").words
EN = load_locale("en").words

SEEDS = [1, 7, 23, 99]


@pytest.fixture(params=SEEDS)
def any_deck(request):
    return synthetic_deck(request.param)


def test_beat_example_follows_sk2(any_deck):
    beat = sk_chapter.beat_example(any_deck)
    assert beat is not None
    assert beat.higher.figure("gwh") > beat.top.figure("gwh") > beat.lower.figure("gwh")
    for card in (beat.top, beat.higher, beat.lower):
        assert sk_chapter.is_plain(card)
    assert not sk_chapter.starts_war(beat.top, beat.higher)
    assert not sk_chapter.starts_war(beat.top, beat.lower)


def test_run_example_follows_sk5(any_deck):
    run = sk_chapter.run_example(any_deck)
    assert run is not None
    assert run.first.nr and run.second.nr
    assert run.first.nr.gwh == run.second.nr.gwh + 1  # consecutive, lowest production first
    assert run.first.figure("gwh") > run.top.figure("gwh")
    assert not sk_chapter.starts_war(run.top, run.first)


def test_tens_war_example_follows_sk6b_and_sk7(any_deck):
    war = sk_chapter.tens_war(any_deck)
    assert war is not None
    assert war.under.figure("gwh") // 10 == war.laid.figure("gwh") // 10
    assert war.laid.id in war.under.flags.war_partners
    cards = {war.under.id, war.laid.id, war.challenger_card.id, war.defender_card.id}
    assert len(cards) == 4
    challenger = war.challenger_card.figure(war.category)
    defender = war.defender_card.figure(war.category)
    assert challenger != defender
    assert war.loser_is_challenger == (challenger < defender)


def test_club_war_example_follows_sk6a(any_deck):
    war = sk_chapter.club_war(any_deck)
    assert war is not None
    assert war.under.suit == war.laid.suit == "kløver"
    assert not war.under.flags.burn and not war.laid.flags.burn  # clubs 1-4 excepted
    assert war.laid.figure("gwh") > war.under.figure("gwh")  # SK-2 still applies
    challenger = war.challenger_card.figure(war.category)
    defender = war.defender_card.figure(war.category)
    assert war.loser_is_challenger == (challenger < defender)


def test_special_examples(any_deck):
    reset = sk_chapter.reset_example(any_deck)
    assert reset is not None and reset.special.value == 2
    assert reset.follow.figure("gwh") < reset.top.figure("gwh")
    invisible = sk_chapter.invisible_example(any_deck)
    assert invisible is not None
    assert any(invisible.special.flags.invisible.get(c) for c in CATEGORIES)
    assert invisible.follow.figure("gwh") > invisible.top.figure("gwh")
    assert not sk_chapter.starts_war(invisible.top, invisible.follow)


def test_kraftidioten_claim_example_follows_ki3_and_ki6(any_deck):
    claims = ki_chapter.claims_example(any_deck)
    assert claims is not None
    cat = claims.category
    table = DeckTable.from_deck(any_deck)
    printed = table.printed[CATEGORIES.index(cat)]
    first, second, hidden, claimed = (
        table.index_of(card.id)
        for card in (claims.first, claims.second, claims.hidden, claims.claimed)
    )
    # judged by the engine's own rules (games/kraftidioten/rules.py)
    assert ki_rules.reaches(printed[second], printed[first])  # KI-3
    assert ki_rules.reaches(printed[claimed], printed[second])  # the lie claims enough
    assert ki_rules.is_lie(hidden, claimed, printed[claimed], printed)  # KI-6: a lie
    assert not ki_rules.is_lie(first, first, printed[first], printed)
    for card in (claims.first, claims.second, claims.claimed):
        assert not ki_rules.is_top3(card.nr.get(cat))  # no burn in the middle of the story


def test_kraftidioten_top_example_is_top3(any_deck):
    top = ki_chapter.top_example(any_deck)
    assert top is not None
    assert ki_rules.is_top3(top.top.nr.get(top.category)) and top.top.flags.top3.get(top.category)
    assert top.top.figure(top.category) >= top.under.figure(top.category)


def test_idiot_example_values(any_deck):
    idiot = idiot_chapter.queen_example(any_deck)
    assert idiot is not None
    assert idiot.top.value == 12
    assert [c.value for c in idiot.allowed] == [12, 13, 1]
    assert [c.value for c in idiot.special] == [2, 10]
    assert all(c.value is not None and 2 < c.value < 12 for c in idiot.refused)
    assert not any(c.joker for c in (idiot.top, *idiot.allowed, *idiot.refused))


def test_special_card_lists(any_deck):
    for category in CATEGORIES:
        invisible = blocks.invisible_cards(any_deck, category)
        assert [c.nr.get(category) for c in invisible if c.nr] == [50, 51, 52]
        top = blocks.top_cards(any_deck, category)
        assert [c.nr.get(category) for c in top if c.nr] == [1, 2, 3]
    assert [(c.suit, c.value) for c in blocks.burn_cards(any_deck)] == [
        ("kløver", v) for v in (1, 2, 3, 4)
    ]
    assert sorted(c.suit or "" for c in blocks.reset_cards(any_deck)) == sorted(
        ["spar", "hjerter", "kløver", "ruter"]
    )
    for group in blocks.war_groups(any_deck):
        assert len({blocks.tens(c) for c in group}) == 1 and len(group) > 1


def test_a_deck_without_war_partners_says_so():
    deck = synthetic_deck()
    for card in deck.plant_cards:
        # One production per ten, in the cards' own production order (nr. kept true).
        assert card.nr is not None
        card.gwh = 10.0 * (60 - card.nr.gwh) + 5
        card.flags.gwh_tens = int(card.gwh) // 10 * 10
        card.flags.war_partners = []
    assert blocks.war_groups(deck) == []
    assert sk_chapter.tens_war(deck) is None
    texts = [
        part.text
        for block in booklet_blocks(deck, "nb")
        if isinstance(block, Example) and "samme tier" in block.title
        for part in block.body
        if hasattr(part, "text")
    ]
    assert texts and "ingen kort som passer" in texts[0]


def test_both_languages_have_the_same_structure():
    deck = synthetic_deck()
    nb = booklet_blocks(deck, "nb")
    en = booklet_blocks(deck, "en")
    # English has one paragraph more (the Norwegian suit names); all else lines up.
    assert [type(b).__name__ for b in nb if not isinstance(b, Para)] == [
        type(b).__name__ for b in en if not isinstance(b, Para)
    ]
    assert [b.level for b in nb if isinstance(b, Heading)] == [
        b.level for b in en if isinstance(b, Heading)
    ]
    rows_nb = [b.cards for b in nb if isinstance(b, CardRow)]
    rows_en = [b.cards for b in en if isinstance(b, CardRow)]
    assert rows_nb == rows_en


def test_number_formats():
    assert number(4357.2, NB) == "4\u00a0357"
    assert number(1240.45, NB, 1) == "1\u00a0240,5"
    assert number(1240.45, EN, 1) == "1,240.5"
    deck = synthetic_deck()
    card = deck.plant_cards[0]
    assert figure(card, "gwh", NB.for_deck(deck)).endswith("\u00a0GWh")
    assert card_name(card, NB) == "spar ess"
    assert card_name(card, EN) == "ace of spades"


def test_war_cards_differ_when_the_chosen_ranks_share_a_figure():
    # Regression: the war cards a quarter from each end of the ranking were taken as they
    # were, so equal figures gave a war with no loser.
    deck = synthetic_deck()
    plain = [c for c in blocks.ranked(deck, "head_m") if sk_chapter.is_plain(c)]
    for card in plain[1:]:
        card.head_m = 500.0
    plain[0].head_m = 900.0
    for war in (sk_chapter.tens_war(deck), sk_chapter.club_war(deck)):
        assert war is not None
        assert war.challenger_card.id != war.defender_card.id
        challenger = war.challenger_card.figure(war.category)
        defender = war.defender_card.figure(war.category)
        assert challenger != defender
        assert war.loser_is_challenger == (challenger < defender)


def test_no_war_example_when_every_war_card_has_the_same_figure():
    deck = synthetic_deck()
    for card in deck.plant_cards:
        card.head_m = 500.0
    assert sk_chapter.tens_war(deck) is None


def test_tens_war_prefers_a_laid_card_that_is_really_lower():
    # The booklet says "even though Ola's card is lower": pick a pair where it is.
    deck = synthetic_deck()
    groups = [g for g in blocks.war_groups(deck) if all(sk_chapter.is_plain(c) for c in g)]
    assert len(groups) >= 2
    first = groups[0]
    for card in first[1:]:
        card.gwh = first[0].gwh
    war = sk_chapter.tens_war(deck)
    assert war is not None
    assert war.laid.figure("gwh") < war.under.figure("gwh")
    assert blocks.tens(war.laid) == blocks.tens(war.under)


def test_gallery_shows_each_card_once_with_all_its_ranks():
    deck = synthetic_deck()
    groups = [(category, blocks.top_cards(deck, category)) for category in CATEGORIES]
    rows = gallery(groups, NB, per_row=4)
    shown = [card.id for row in rows for card in row.cards]
    assert len(shown) == len(set(shown))
    assert set(shown) == {card.id for _, cards in groups for card in cards}
    assert all(len(row.cards) <= 4 for row in rows)
    for row in rows:
        for card, text in zip(row.cards, row.captions, strict=True):
            ranks = [c for c in CATEGORIES if card.flags.top3.get(c)]
            assert text.count("nr.") == len(ranks)
            for category in ranks:
                assert f"nr.\u00a0{card.nr.get(category)} {NB.categories[category]}" in text


def test_war_partner_line_names_the_ten_and_every_plant():
    deck = synthetic_deck()
    group = blocks.war_groups(deck)[0]
    line = war_partner_line(group, NB.for_deck(deck))
    assert line.startswith(f"{number(blocks.tens(group[0]), NB)}\u00a0GWh: ")
    for card in group:
        assert card.name in line
        assert figure(card, "gwh", NB.for_deck(deck)) in line


def test_the_idiot_example_agrees_with_the_engine(any_deck):
    from kraftstokk.games.idiot.rules import may_lay, need_after, rank_of

    idiot = idiot_chapter.queen_example(any_deck)
    assert idiot is not None
    need = need_after(rank_of(12))
    for card in (*idiot.allowed, *idiot.special):
        assert may_lay(rank_of(card.value or 0), need)
    for card in idiot.refused:
        assert not may_lay(rank_of(card.value or 0), need)
    # The 2 and the 10 go even on an ace, the others of the example not.
    assert all(may_lay(rank_of(c.value or 0), rank_of(1)) for c in idiot.special)
    assert not all(may_lay(rank_of(c.value or 0), rank_of(1)) for c in idiot.allowed)


def test_the_burn_out_example_agrees_with_the_engine(any_deck):
    """SK-14 as the example tells it: Kari (seat 0) burns with her last card on an empty
    stock, is out and does not lay again; Ola (seat 1) starts the new pile."""
    from kraftstokk.games import registry

    example = sk_chapter.burn_out_example(any_deck)
    assert example is not None
    card, top = example
    table = DeckTable.from_deck(any_deck)
    index = {card_id: i for i, card_id in enumerate(table.ids)}
    others = [i for i in range(table.size) if i not in (index[card.id], index[top.id])]
    game = registry.make_game("stromkrig", table, 3)
    state = registry.from_position(
        game,
        hands=[[index[card.id]], others[:3], others[3:6]],
        pile=[index[top.id]],
        top_owner=2,
    )
    lay = next(a for a in state.legal_actions() if a[1:] == (index[card.id],))
    state.apply(lay)
    assert state.out[0] and state.current == 1 and not state.pile
