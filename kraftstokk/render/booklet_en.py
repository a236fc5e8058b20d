"""The rules booklet in English: the deck, Idiot, Kraftidioten and Strømkrig.

Written in this project's own words from RULES.md and the user's seeds. The game names
and the cards' Norwegian labels are kept, since they are what the players see on the
table. This module is only the text; :mod:`booklet_rules` builds the booklet from it, and
a ``{field}`` in a sentence is filled there with the cards of the deck being printed.
"""

from __future__ import annotations

from kraftstokk.render.booklet_rules import RulesText

TEXT = RulesText(
    subtitle="Rules of play",
    edition="Edition {edition}",
    contents="Contents",
    # --- The deck ---------------------------------------------------------------------
    deck_heading="The deck",
    deck_intro=(
        "{title} has 55 cards: 52 plant cards and 3 jokers. Every plant "
        "card is a Norwegian hydropower plant and, at the same time, an ordinary playing "
        "card with a suit and a value from ace to king. So the deck plays every card game "
        "you already know, and two more in which the plants' figures decide: "
        "Kraftidioten and Strømkrig.",
        "The cards are printed in Norwegian. The suits are <b>spar</b> (spades), "
        "<b>hjerter</b> (hearts), <b>kløver</b> (clubs) and <b>ruter</b> (diamonds).",
    ),
    card_heading="What is on a card?",
    card_corners=(
        "The corners show suit and value: A is the ace (value 1, but the highest card "
        "in Idiot), J the jack (11), Q the queen (12) and K the king (13). In the middle "
        "are the plant's name and three figures, always with their unit:"
    ),
    card_figures=(
        "<b>Effekt (MW)</b>, capacity: how much power the plant can deliver at once, "
        "in megawatts. It is the size of its turbines and generators.",
        "<b>Produksjon (GWh)</b>, production: how much electricity the plant makes in "
        "an average year, in gigawatt hours. It depends on how much water flows "
        "through it.",
        "<b>Fallhøyde (m)</b>, head: how many metres the water drops from the intake "
        "to the turbine. A high head gives a lot of power from little water.",
    ),
    card_marks_intro="The marks on a card show at a glance what it is good for:",
    card_marks=(
        "The bar under each figure: the longer it is, the higher the figure compared "
        "with the rest of the deck.",
        "A gold bar and <b>TOPP 3</b> (top 3): the card is nr. 1, 2 or 3 in that "
        "category (Kraftidioten).",
        "A struck-out eye and <b>USYNLIG</b> (invisible): the card is nr. 50, 51 or 52 "
        "in that category (Strømkrig).",
        "At the bottom, a short reminder when the card has a power in Strømkrig, and "
        "where the figures come from.",
    ),
    nr_heading="What does nr. mean?",
    nr_meaning=(
        "Next to each figure is <b>nr.</b>, the plant's place among the deck's 52 in that "
        "category. Nr. 1 has the highest figure, nr. 52 the lowest. Each category has its "
        "own order, so one card can be big in one category and small in another. No two "
        "cards share a nr. in the same category: when two plants have exactly the same "
        "figure, a fixed rule decides which one gets the lower number."
    ),
    nr_example=(
        "For example, {plant} is nr. {nr} in production with "
        "{figure}: {more} plants of the deck produce more and "
        "{less} produce less. The same card is nr. "
        "{mw_nr} in capacity and nr. "
        "{head_nr} in head."
    ),
    special_heading="The special cards of this deck",
    special_intro=(
        "Some cards have powers in one of the games. Here they are, as they look in this "
        "edition of the deck. Each game's rules explain what they do."
    ),
    special_invisible=(
        "<b>Invisible cards</b> (Strømkrig): the cards with nr. 50, 51 or 52 in any of "
        "the three categories. They may be laid beside the pile at any time on your turn."
    ),
    special_top=(
        "<b>Top 3</b> (Kraftidioten): the cards with nr. 1, 2 or 3 in a category. Claim "
        "one of them in the category being played and the pile may burn."
    ),
    special_jokers=(
        "<b>The {count} jokers</b> are alike and have no plant and no figures. In "
        "Kraftidioten and Strømkrig they burn the pile, and in Strømkrig so do <b>the "
        "ace, 2, 3 and 4 of clubs</b>. In Idiot the jokers are taken out before play."
    ),
    joker_caption="joker (\u00d7{count})",
    special_twos=(
        "<b>The 2s</b>: in Strømkrig a 2 sets the card under it to zero, so the next "
        "player may lay anything. In Idiot a 2 may be laid on anything."
    ),
    war_partners=(
        "<b>War partners</b> (Strømkrig): cards whose production is the same when rounded "
        "<i>down</i> to the nearest ten (879 GWh and 871 GWh both become 870). Lay one on "
        "the other and there is a war."
    ),
    war_partners_some=" In this deck these groups share a ten:",
    war_partners_none=" In this deck no two cards share a ten.",
    words_heading="Words we use",
    words=(
        "<b>Stock</b>: the cards left face down after the deal. You draw from the top.",
        "<b>Pile</b>: the cards played face up (or face down, in Kraftidioten) in the "
        "middle of the table. The top card is the one the next card is measured "
        "against.",
        "<b>Take the pile</b>: pick up the whole pile into your hand.",
        "<b>Burn the pile</b>: the whole pile is set aside and is out of the game for "
        "the rest of the round.",
        "<b>Draw up</b>: draw from the stock until you hold three cards, as long as "
        "the stock lasts.",
    ),
    # --- Idiot (ID-1 .. ID-13) --------------------------------------------------------
    idiot_intro=(
        "Idiot is a classic Norwegian card game. Only the values of the cards count; the "
        "plants' figures play no part. The aim is to get rid of your cards quickly and, "
        "above all, not to be the last one holding any."
    ),
    players_heading="Players, cards and goal",
    idiot_players=(
        "2 to 5 players.",
        "Take out the three jokers; the game uses 52 cards.",
        "From low to high: 2, 3, 4, 5, 6, 7, 8, 9, 10, jack, queen, king, ace. The ace "
        "is the highest card (it counts as 14).",
        "The first player to get rid of all their cards wins. The last one left with "
        "cards is the Idiot.",
    ),
    deal_heading="The deal",
    idiot_deal=(
        "Each player gets three cards face down in a row on the table in front of them. "
        "On each of these goes one card face up, for everyone to see. Then each player "
        "gets three cards in hand. The rest of the cards form the stock.",
        "Before play starts, each player may swap cards between their hand and their "
        "three face-up table cards, as many as they like. It pays to keep high cards and "
        "special cards face up on the table for later.",
    ),
    idiot_start_heading="Who starts?",
    idiot_start=(
        "The player with the lowest ordinary card in hand starts. The 3 is the lowest; "
        "2s and 10s do not count. If several players hold equally low cards, the one "
        "whose next card is lower starts. If that is still a tie, the player nearest the "
        "dealer's left starts."
    ),
    turn_heading="A turn",
    idiot_turn=(
        "Lay one or more cards of the same value on the pile. The value must be at least "
        "as high as the top card of the pile; equal is allowed. On an empty pile you may "
        "lay anything. Then draw up to three cards in hand from the stock, as long as it "
        "lasts. Play passes to the left (clockwise)."
    ),
    idiot_special_heading="Special cards in Idiot",
    idiot_special=(
        "<b>2</b> may be laid on anything. The next player may then lay any card.",
        "<b>10</b> may be laid on anything and burns the pile. You, who laid the 10, "
        "at once lay another card (anything you like) to start a new pile.",
        "<b>Four of a kind</b>: when four cards of the same value lie on top of the "
        "pile one after another, the pile burns, whether they came from one player or "
        "from several. Whoever laid the fourth card starts again.",
    ),
    idiot_stuck_heading="When you cannot play",
    idiot_stuck=(
        "If you cannot lay anything, choose: either take the whole pile into your hand, "
        "or take a <b>chance</b>. Turn over the top card of the stock. If it fits, it must "
        "be laid on the pile. If it does not, you take both that card and the whole pile "
        "into your hand. You may also take the pile when you could have played. Once the "
        "pile is taken, play moves on and the next player starts on an empty pile."
    ),
    missing="<i>This deck has no cards that fit this example.</i>",
    and_=" and ",
    idiot_example_missing_title="Example",
    idiot_example_title="Example: a queen on top",
    idiot_example_captions=("on top", "yes: equal", "yes: higher", "yes: highest"),
    idiot_example=(
        "The top card of the pile is {top}. You may lay "
        "{allowed}: a queen is equal, a king and an ace are higher. You may also "
        "lay {special}. The 10 burns the pile and you lay again.",
        "You may not lay {refused}: they are lower than the queen. If those are "
        "all you have, take the pile or take a chance.",
        "The plants on the cards mean nothing here: a queen is a queen, however "
        "much power it makes.",
    ),
    idiot_table_heading="The table cards",
    idiot_table=(
        "When the stock is empty and your hand is too, you play from the table. First "
        "the face-up cards; several of the same value may go together. When they are "
        "gone, play the face-down cards one at a time, without looking first: turn one "
        "over onto the pile. If it does not fit, you take that card and the whole pile "
        "into your hand, and must play out your hand before going on with the table "
        "cards."
    ),
    end_heading="The end",
    idiot_end=(
        "When you have no cards in hand and none face up or face down on the table, you "
        "are out. The first player out wins. The others play on until only one has cards "
        "left: the Idiot. If someone goes out by burning the pile, the next player starts "
        "the new pile."
    ),
    house_heading="House rules",
    house_intro=(
        "Idiot is played a little differently from place to place. Agree before you "
        "start whether to use any of these variants:"
    ),
    house_rules=(
        "<b>The 2 plays again</b>: whoever laid the 2 lays another card, any card.",
        "<b>No finishing on a 2</b>: the last card you play may not be a 2.",
        "<b>No swapping</b>: nobody swaps cards between hand and table before play.",
        "<b>Runs</b>: you may lay a run of rising values in one turn, such as 3, 4, 5. "
        "2s and 10s cannot be part of a run; the run steps over the 10, so a 9 is "
        "followed by a jack. With only face-down cards left you may turn one: if it "
        "continues the run it is laid in it, otherwise you take the pile.",
        "<b>Sneaky 3</b>: a 3 may be slipped under the pile instead of laid on top.",
    ),
    # --- Kraftidioten (KI-1 .. KI-9) --------------------------------------------------
    ki_intro=(
        "A bluffing game for those who know their power plants (or pretend to). You lay "
        "your cards face down and say which plant each one is: you \u201capply for a "
        "licence\u201d. What you say need not be true, but getting caught costs you."
    ),
    ki_players=(
        "2 to 10 players. All 55 cards are used.",
        "The goal is to get a licence for all your plants, that is, to get rid of all "
        "the cards in your hand. The first to do so wins. The last one left with "
        "cards is the kraftidiot (the power idiot).",
        "The game is played in the three categories capacity (MW), production (GWh) and head (m).",
    ),
    ki_deal=(
        "Set the three jokers aside and shuffle the 52 plant cards. Deal three cards to "
        "each player. Then shuffle the jokers into the rest and put those cards face down "
        "as the stock.",
    ),
    ki_turn_heading="A turn: apply for a licence",
    ki_turn=(
        "The player on the dealer's left begins, and play goes clockwise. "
        "Whoever starts a new pile first picks the category. Then they lay one card face "
        "down in the middle of the table and say the plant's name and its figure in the "
        "category, with the unit, for example \u201c{name}, "
        "{figure}\u201d. Finally they draw from the stock until they "
        "hold at least three cards.",
        "The next player must apply for a plant with a figure at least as high in the "
        "same category: lay the card face down on the pile, say name and figure with "
        "unit, and draw up. And so on around the table. Always say the unit out loud, so "
        "that everyone remembers which category is being played.",
    ),
    ki_stuck_heading="When you cannot (or will not)",
    ki_stuck_intro="If you have no card high enough, you have three options:",
    ki_stuck=(
        "<b>Take the pile.</b> You may do so at any time on your turn, also as a tactic.",
        "<b>Draw a chance.</b> Take the top card of the stock and apply for it "
        "honestly, with its true name and figure. If the figure is lower than the "
        "previous claim, you take the pile together with that card. If you draw a "
        "joker, it is laid as a joker (see below).",
        "<b>Lie.</b> Lay any card face down and name any plant of the deck, the card's "
        "own too, with a high enough figure. A wrong name and a wrong figure are both "
        "lies. Knowing the plants well pays off.",
    ),
    ki_after_take=(
        "Once someone has taken the pile, the next player starts a new pile and picks the "
        "category again."
    ),
    challenge_heading="Challenge",
    challenge=(
        "If you think someone is lying, you may <b>challenge</b> the last claim before the "
        "next card is laid. The card is turned over. The claim is a lie if the card is "
        "not the plant named, or if the figure is not that plant's figure."
    ),
    challenge_outcomes=(
        "<b>A lie</b>: the player who laid the card takes the pile. You, the "
        "challenger, start the new pile.",
        "<b>The truth</b>: you, the challenger, take the pile. The player after the "
        "one who laid the card starts the new pile.",
        "If several players want to challenge at once, the first in seating order "
        "after the player who laid the card does it.",
    ),
    claims_missing_title="Example: a challenge",
    claims_title="Example: a lie is exposed",
    claims_story=(
        "Kari, Ola and Per are playing. Kari starts and picks {category}. She "
        "lays {first} face down and says \u201c"
        "{first_name}, {first_figure}"
        "\u201d. That is true. Ola lays {second} and says "
        "\u201c{second_name}, "
        "{second_figure}\u201d, also true, and higher.",
        "Per has nothing high enough. He lays {hidden} face "
        "down but says \u201c{claimed_name}, "
        "{claimed_figure}\u201d. Ola challenges. The card is "
        "turned: it is {hidden_name} with "
        "{hidden_figure}, not "
        "{claimed_name}.",
    ),
    claims_captions=("Kari", "Ola", "Per (turned)"),
    claims_outcome=(
        "The challenge succeeds: Per takes all three cards, and Ola, the "
        "challenger, starts a new pile and picks the category. Had the card "
        "been what Per said, Ola would have taken the pile, and Kari, who sits "
        "after Per, would have started the new one."
    ),
    joker_heading="The joker",
    joker=(
        "A joker is shown to everyone when it is laid, and the pile burns. The player who "
        "laid it at once lays a new card and picks the category. But you may not lay a "
        "joker while you hold two cards or fewer. If you do it anyway, the pile still "
        "burns, but as a penalty you draw three random cards from all the burned cards, "
        "jokers included (all of them if there are fewer than three)."
    ),
    top_heading="Top 3 burns the pile",
    top=(
        "If you claim a card with nr. 1, 2 or 3 in the category being played, the pile "
        "burns unless someone challenges. You need not show the card, but wait a moment "
        "(count to three) so the others have time to challenge."
    ),
    top_outcomes=(
        "Nobody challenges: the pile burns, and you lay a new card and pick the category.",
        "Someone challenges and the claim was true: the challenger takes the pile "
        "that was about to burn. You lay a new card and pick the category.",
        "Someone challenges and the claim was a lie: you take the pile, and the "
        "challenger starts the new one.",
    ),
    top_example_title="Example: top 3",
    top_example=(
        "The category is {category}, and the last claim was "
        "{under}. Ola lays {top} and "
        "says \u201c{name}, {figure}, "
        "nr.\u00a0{nr}\u201d. He waits a moment."
    ),
    top_example_under="under",
    top_example_outcome=(
        "Nobody challenges, so the pile burns, and Ola lays a new card and "
        "picks the category. Had Per challenged, the card would have been "
        "turned and shown to be true: Per would have taken the pile, and Ola "
        "would have laid again."
    ),
    ki_end=(
        "When the stock is empty and you have no cards in hand, you are out, as long as "
        "nobody successfully challenges your last card. If it turns out to be a lie, you "
        "get the pile back and are in the game again. The first player out wins. Play "
        "goes on until only one player has cards: the kraftidiot."
    ),
    # --- Strømkrig (SK-1 .. SK-14) ----------------------------------------------------
    sk_intro=(
        "\u201cPower war\u201d: a fast game for everyone, in which production rules: each "
        "card must make more electricity than the one before. Equal figures and club on "
        "club mean war."
    ),
    sk_players=(
        "2 to 6 players. All 55 cards are used, jokers included.",
        "The goal is to get rid of all your cards. The last player left with cards "
        "loses the power war and deals the next round.",
    ),
    sk_deal=(
        "Shuffle all the cards and deal three to each player. The rest is the stock. It "
        "helps to sort your hand by production (GWh). The dealer starts.",
    ),
    sk_turn=(
        "Lay a card with <b>higher</b> production than the top card of the pile; equal is "
        "not enough. On an empty pile you may lay anything. Then draw up to three from the "
        "stock, as long as there are cards in it. The game goes faster if you say the "
        "production out loud as you lay."
    ),
    beat_title="Example: which card beats which?",
    beat_captions=("on top", "may be laid", "may not"),
    beat=(
        "On top lies {top}. You may lay "
        "{higher}, which produces more. You may "
        "not lay {lower}, which produces less."
    ),
    sk_moves=(
        "<b>Chance</b>: instead of playing from your hand, you may turn the top card "
        "of the stock straight onto the pile. The card keeps its powers: a 2 may reset, "
        "a joker or the ace to 4 of clubs burns, an invisible card goes beside the pile, "
        "and a card in the same ten starts a war. Only a card that can be used in no way "
        "goes into your hand, together with the pile.",
        "<b>Take the pile</b>: if you cannot or will not lay, take the whole pile. The "
        "next player starts a new one.",
        "<b>Runs</b>: two or more cards whose production nr. follow each other (say "
        "nr. 15 and nr. 14) may be laid in one turn. Lay the one with the lowest "
        "production first; it must beat the top card. The highest card of the run "
        "becomes the new top card. If the first card starts a war with the top card, "
        "the war is fought as usual.",
    ),
    run_title="Example: a run",
    run=(
        "On top lies {top}. You hold "
        "{first}, nr.\u00a0{first_nr} in production, and "
        "{second}, nr.\u00a0{second_nr}. The numbers follow "
        "each other, so you lay both: first {first_name} "
        "({first_figure}), which beats the top card, then "
        "{second_name} ({second_figure}). "
        "The next player must beat {second_figure}."
    ),
    war_heading="Power war!",
    war_when_intro="There is a war when one of these happens:",
    war_when=(
        "Someone lays a <b>club on a club</b>. The card must still have higher "
        "production. The ace, 2, 3 and 4 of clubs do not start a war (they burn the "
        "pile).",
        "Someone lays a card with the <b>same production rounded down to the nearest "
        "ten</b> as the card under it (879 and 871 GWh are both 870). In this case the "
        "card laid may well be lower than the one under it.",
    ),
    war_rules=(
        "The player who laid the card is the challenger. The player who laid the card "
        "under it is in the war too. Everybody else may join by shouting \u201cwar!\u201d "
        "before the category is named. Then the challenger names the category "
        "(production, capacity or head) and lays the first war card. The others in the war "
        "lay one card each in the usual order, drawing up from the stock while it lasts. "
        "A card laid on your own card starts no war, nor does your last card when the "
        "stock is empty (you are out).",
        "Whoever laid the <b>lowest</b> figure in the named category loses the war and "
        "takes the whole pile with the war cards. If several tie for lowest, the war is "
        "fought again between them. A joker counts as the lowest in a war, and special "
        "cards have no powers in a war. If you have no card to lay in a war, you take the "
        "whole pile. The loser starts the new pile.",
    ),
    war_title="Example: war ({kind})",
    war_kind_tens="same ten",
    war_tens_start=(
        "Kari, Ola and Per are playing. Kari has laid {under}. "
        "Ola lays {laid}. Both round down to "
        "{ten}\u00a0GWh, so it is war, even though Ola's card is "
    ),
    war_tens_lower="lower.",
    war_tens_not_higher="not higher.",
    war_kind_clubs="club on club",
    war_clubs_start=(
        "Kari, Ola and Per are playing. Kari has laid {under}. "
        "Ola lays {laid} on it. It is higher, and it is "
        "club on club: war!"
    ),
    war_captions=("Kari", "Ola", "Ola at war", "Kari at war"),
    war_named=(
        "Per stays out. Ola is the challenger, so he names {category} and "
        "lays {challenger}. Kari answers with "
        "{defender}."
    ),
    war_result=(
        "{loser} has the lower {category}, loses the war and takes the "
        "whole pile, all four cards. {loser} then starts a new pile. If the stock is "
        "empty, {winner} is rid of two cards; while it lasts, {winner} has drawn back "
        "up to three."
    ),
    sk_special_heading="Special cards in Strømkrig",
    sk_special=(
        "<b>Jokers and the ace, 2, 3 and 4 of clubs</b>: may be laid whatever the top "
        "card is, and the pile burns. You draw up and start a new pile yourself (if you "
        "then have no cards, you are out and the next player starts).",
        "<b>The 2s</b>: may be laid whatever the top card is. The production of the "
        "card under the 2 then counts as zero, so the next player may lay any card.",
        "<b>Invisible cards</b> (nr. 50, 51 or 52 in production, capacity or head): "
        "may be laid on your turn whatever the top card is. The card goes beside the "
        "pile, and the next player must beat the card that was on top before it. "
        "<i>House rule</i>, if you like: only nr. 50, 51 and 52 in production are "
        "invisible.",
        "If a card has several powers (the 2 of clubs both burns and resets), you "
        "choose which one to use.",
    ),
    reset_title="Example: the 2",
    reset=(
        "On top lies {top}, one of the biggest "
        "plants. Ola lays {special}. Now "
        "{top_name} counts as zero, and Per may lay "
        "{follow}, small as it is."
    ),
    invisible_title="Example: an invisible card",
    invisible_reason="nr.\u00a0{nr} in {category}",
    invisible=(
        "On top lies {top}. Kari has nothing "
        "higher, but she holds {card}, which is "
        "{reasons}. It is invisible: she lays it beside the "
        "pile and is rid of it. The next player must still beat "
        "{top_name}, for example with "
        "{follow}."
    ),
    sk_end=(
        "When the stock is empty and so is your hand, you are out. The first out wins; "
        "the last one with cards loses the power war and deals next time."
    ),
    # --- Appendix ---------------------------------------------------------------------
    cards_heading="All the cards",
    cards_intro=(
        "All 55 cards, sorted by production from highest to lowest. The nr. columns give "
        "the place in each category (1 = highest)."
    ),
    cards_headings=("Card", "Plant", "MW", "nr.", "GWh", "nr.", "m", "nr."),
    figures_heading="About the figures",
    figures_intro=(
        "The figures on the cards come from public data on Norwegian hydropower plants. "
        "They hold for this snapshot; newer figures may differ. Production is the "
        "expected production in an average year."
    ),
    source_line="Source: {attribution}.",
    licence_line="Licence: {licence}.",
    snapshot_line="Data snapshot: {date}, read from {source} ({path}).",
    not_given="not given",
    date_unknown="date unknown",
)

__all__ = ["TEXT"]
