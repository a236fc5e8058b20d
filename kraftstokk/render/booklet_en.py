"""The rules booklet in English: the deck, Idiot, Kraftidioten and Strømkrig.

Written in this project's own words from RULES.md and the user's seeds; rule ids in
comments point back to RULES.md. The game names and the cards' Norwegian labels are
kept, since they are what the players see on the table.
"""

from __future__ import annotations

from kraftstokk.models import CATEGORIES, Card, Deck
from kraftstokk.render import booklet_examples as ex
from kraftstokk.render.booklet_text import (
    Block,
    Bullets,
    CardRow,
    CardTable,
    Contents,
    Example,
    Heading,
    Para,
    TitlePage,
    Words,
    caption,
    card_name,
    escape,
    figure,
    gallery,
    number,
    plant,
    plant_with,
    war_partner_line,
)

CATEGORY_NAMES = {"mw": "capacity", "gwh": "production", "head_m": "head"}
MISSING = "<i>This deck has no cards that fit this example.</i>"


def blocks(deck: Deck, w: Words) -> list[Block]:
    return [
        *_front(deck, w),
        *_deck_chapter(deck, w),
        *_idiot(deck, w),
        *_kraftidioten(deck, w),
        *_stromkrig(deck, w),
        *_appendix(deck, w),
    ]


def _front(deck: Deck, w: Words) -> list[Block]:
    faces = ex.by_production(deck)
    shown = tuple(faces[:1] + faces[len(faces) // 2 : len(faces) // 2 + 1] + deck.jokers[:1])
    return [
        TitlePage(
            title=escape(deck.title),
            subtitle="Rules of play",
            lines=(
                "Idiot · Kraftidioten · Strømkrig",
                f"Edition {escape(deck.edition)}",
            ),
            cards=shown,
        ),
        Contents("Contents"),
    ]


def _deck_chapter(deck: Deck, w: Words) -> list[Block]:
    cards = ex.by_production(deck)
    sample = cards[len(cards) // 3]
    nr = sample.nr.gwh if sample.nr else 0
    return [
        Heading("The deck"),
        Para(
            f"{escape(deck.title)} has 55 cards: 52 plant cards and 3 jokers. Every plant "
            "card is a Norwegian hydropower plant and, at the same time, an ordinary playing "
            "card with a suit and a value from ace to king. So the deck plays every card game "
            "you already know, and two more in which the plants' figures decide: "
            "Kraftidioten and Strømkrig."
        ),
        Para(
            "The cards are printed in Norwegian. The suits are <b>spar</b> (spades), "
            "<b>hjerter</b> (hearts), <b>kløver</b> (clubs) and <b>ruter</b> (diamonds)."
        ),
        Heading("What is on a card?", 2),
        CardRow((sample,), ()),
        Para(
            "The corners show suit and value: A is the ace (value 1, but the highest card "
            "in Idiot), J the jack (11), Q the queen (12) and K the king (13). In the middle "
            "are the plant's name and three figures, always with their unit:"
        ),
        Bullets(
            (
                "<b>Effekt (MW)</b>, capacity: how much power the plant can deliver at once, "
                "in megawatts. It is the size of its turbines and generators.",
                "<b>Produksjon (GWh)</b>, production: how much electricity the plant makes in "
                "an average year, in gigawatt hours. It depends on how much water flows "
                "through it.",
                "<b>Fallhøyde (m)</b>, head: how many metres the water drops from the intake "
                "to the turbine. A high head gives a lot of power from little water.",
            )
        ),
        Para("The marks on a card show at a glance what it is good for:"),
        Bullets(
            (
                "The bar under each figure: the longer it is, the higher the figure compared "
                "with the rest of the deck.",
                "A gold bar and <b>TOPP 3</b> (top 3): the card is nr. 1, 2 or 3 in that "
                "category (Kraftidioten).",
                "A struck-out eye and <b>USYNLIG</b> (invisible): the card is nr. 50, 51 or 52 "
                "in that category (Strømkrig).",
                "At the bottom, a short reminder when the card has a power in Strømkrig, and "
                "where the figures come from.",
            )
        ),
        Heading("What does nr. mean?", 2),
        Para(
            "Next to each figure is <b>nr.</b>, the plant's place among the deck's 52 in that "
            "category. Nr. 1 has the highest figure, nr. 52 the lowest. Each category has its "
            "own order, so one card can be big in one category and small in another. No two "
            "cards share a nr. in the same category: when two plants have exactly the same "
            "figure, a fixed rule decides which one gets the lower number."
        ),
        Para(
            f"For example, {plant(sample, w)} is nr. {nr} in production with "
            f"{figure(sample, 'gwh', w)}: {nr - 1} plants of the deck produce more and "
            f"{52 - nr} produce less. The same card is nr. "
            f"{sample.nr.mw if sample.nr else 0} in capacity and nr. "
            f"{sample.nr.head_m if sample.nr else 0} in head."
        ),
        *_special_cards(deck, w),
        Heading("Words we use", 2),
        Bullets(
            (
                "<b>Stock</b>: the cards left face down after the deal. You draw from the top.",
                "<b>Pile</b>: the cards played face up (or face down, in Kraftidioten) in the "
                "middle of the table. The top card is the one the next card is measured "
                "against.",
                "<b>Take the pile</b>: pick up the whole pile into your hand.",
                "<b>Burn the pile</b>: the whole pile is set aside and is out of the game for "
                "the rest of the round.",
                "<b>Draw up</b>: draw from the stock until you hold three cards, as long as "
                "the stock lasts.",
            )
        ),
    ]


def _special_cards(deck: Deck, w: Words) -> list[Block]:
    out: list[Block] = [
        Heading("The special cards of this deck", 2),
        Para(
            "Some cards have powers in one of the games. Here they are, as they look in this "
            "edition of the deck. Each game's rules explain what they do."
        ),
        Para(
            "<b>Invisible cards</b> (Strømkrig): the cards with nr. 50, 51 or 52 in any of "
            "the three categories. They may be laid beside the pile at any time on your turn."
        ),
    ]
    out += gallery([(category, ex.invisible_cards(deck, category)) for category in CATEGORIES], w)
    out.append(
        Para(
            "<b>Top 3</b> (Kraftidioten): the cards with nr. 1, 2 or 3 in a category. Claim "
            "one of them in the category being played and the pile may burn."
        )
    )
    out += gallery([(category, ex.top_cards(deck, category)) for category in CATEGORIES], w)
    jokers = deck.jokers
    burns = ex.burn_cards(deck)
    twos = ex.reset_cards(deck)
    out += [
        Para(
            f"<b>The {len(jokers)} jokers</b> are alike and have no plant and no figures. In "
            "Kraftidioten and Strømkrig they burn the pile, and in Strømkrig so do <b>the "
            "ace, 2, 3 and 4 of clubs</b>. In Idiot the jokers are taken out before play."
        ),
        CardRow(
            (*jokers[:1], *burns),
            (f"joker (\u00d7{len(jokers)})", *(card_name(c, w) for c in burns)),
        ),
        Para(
            "<b>The 2s</b>: in Strømkrig a 2 sets the card under it to zero, so the next "
            "player may lay anything. In Idiot a 2 may be laid on anything."
        ),
        CardRow(tuple(twos), tuple(card_name(c, w) for c in twos)),
    ]
    groups = ex.war_groups(deck)
    out.append(
        Para(
            "<b>War partners</b> (Strømkrig): cards whose production is the same when rounded "
            "<i>down</i> to the nearest ten (879 GWh and 871 GWh both become 870). Lay one on "
            "the other and there is a war."
            + (
                " In this deck these groups share a ten:"
                if groups
                else " In this deck no two cards share a ten."
            )
        )
    )
    if groups:
        out.append(Bullets(tuple(war_partner_line(group, w) for group in groups)))
        first = groups[0]
        out.append(CardRow(tuple(first), tuple(caption(c, "gwh", w) for c in first)))
    return out


# --- Idiot (ID-1 .. ID-13) ---------------------------------------------------------------


def _idiot(deck: Deck, w: Words) -> list[Block]:
    return [
        Heading("Idiot"),
        Para(
            "Idiot is a classic Norwegian card game. Only the values of the cards count; the "
            "plants' figures play no part. The aim is to get rid of your cards quickly and, "
            "above all, not to be the last one holding any."
        ),
        Heading("Players, cards and goal", 2),
        Bullets(
            (
                "2 to 5 players.",
                "Take out the three jokers; the game uses 52 cards.",
                "From low to high: 2, 3, 4, 5, 6, 7, 8, 9, 10, jack, queen, king, ace. The ace "
                "is the highest card (it counts as 14).",
                "The first player to get rid of all their cards wins. The last one left with "
                "cards is the Idiot.",
            )
        ),
        Heading("The deal", 2),
        Para(
            "Each player gets three cards face down in a row on the table in front of them. "
            "On each of these goes one card face up, for everyone to see. Then each player "
            "gets three cards in hand. The rest of the cards form the stock."
        ),
        Para(
            "Before play starts, each player may swap cards between their hand and their "
            "three face-up table cards, as many as they like. It pays to keep high cards and "
            "special cards face up on the table for later."
        ),
        Heading("Who starts?", 2),
        Para(
            "The player with the lowest ordinary card in hand starts. The 3 is the lowest; "
            "2s and 10s do not count. If several players hold equally low cards, the one "
            "whose next card is lower starts. If that is still a tie, the player nearest the "
            "dealer's left starts."
        ),
        Heading("A turn", 2),
        Para(
            "Lay one or more cards of the same value on the pile. The value must be at least "
            "as high as the top card of the pile; equal is allowed. On an empty pile you may "
            "lay anything. Then draw up to three cards in hand from the stock, as long as it "
            "lasts. Play passes to the left (clockwise)."
        ),
        Heading("Special cards in Idiot", 2),
        Bullets(
            (
                "<b>2</b> may be laid on anything. The next player may then lay any card.",
                "<b>10</b> may be laid on anything and burns the pile. You, who laid the 10, "
                "at once lay another card (anything you like) to start a new pile.",
                "<b>Four of a kind</b>: when four cards of the same value lie on top of the "
                "pile one after another, the pile burns, whether they came from one player or "
                "from several. Whoever laid the fourth card starts again.",
            )
        ),
        Heading("When you cannot play", 2),
        Para(
            "If you cannot lay anything, choose: either take the whole pile into your hand, "
            "or take a <b>chance</b>. Turn over the top card of the stock. If it fits, it must "
            "be laid on the pile. If it does not, you take both that card and the whole pile "
            "into your hand. You may also take the pile when you could have played. Once the "
            "pile is taken, play moves on and the next player starts on an empty pile."
        ),
        *_idiot_example(deck, w),
        Heading("The table cards", 2),
        Para(
            "When the stock is empty and your hand is too, you play from the table. First "
            "the face-up cards; several of the same value may go together. When they are "
            "gone, play the face-down cards one at a time, without looking first: turn one "
            "over onto the pile. If it does not fit, you take that card and the whole pile "
            "into your hand, and must play out your hand before going on with the table "
            "cards."
        ),
        Heading("The end", 2),
        Para(
            "When you have no cards in hand and none face up or face down on the table, you "
            "are out. The first player out wins. The others play on until only one has cards "
            "left: the Idiot. If someone goes out by burning the pile, the next player starts "
            "the new pile."
        ),
        Heading("House rules", 2),
        Para(
            "Idiot is played a little differently from place to place. Agree before you "
            "start whether to use any of these variants:"
        ),
        Bullets(
            (
                "<b>The 2 plays again</b>: whoever laid the 2 lays another card, any card.",
                "<b>No finishing on a 2</b>: the last card you play may not be a 2.",
                "<b>No swapping</b>: nobody swaps cards between hand and table before play.",
                "<b>Runs</b>: you may lay a run of rising values in one turn, such as 3, 4, 5. "
                "2s and 10s cannot be part of a run.",
                "<b>Sneaky 3</b>: a 3 may be slipped under the pile instead of laid on top.",
            )
        ),
    ]


def _idiot_example(deck: Deck, w: Words) -> list[Block]:
    example = ex.idiot_queen(deck)
    if example is None:
        return [Example("Example", (Para(MISSING),))]
    allowed = ", ".join(plant(c, w) for c in example.allowed)
    special = " and ".join(plant(c, w) for c in example.special)
    refused = " and ".join(plant(c, w) for c in example.refused)
    return [
        Example(
            "Example: a queen on top",
            (
                CardRow(
                    (example.top, *example.allowed),
                    ("on top", "yes: equal", "yes: higher", "yes: highest"),
                ),
                Para(
                    f"The top card of the pile is {plant(example.top, w)}. You may lay "
                    f"{allowed}: a queen is equal, a king and an ace are higher. You may also "
                    f"lay {special}. The 10 burns the pile and you lay again."
                ),
                Para(
                    f"You may not lay {refused}: they are lower than the queen. If those are "
                    "all you have, take the pile or take a chance."
                ),
                Para(
                    "The plants on the cards mean nothing here: a queen is a queen, however "
                    "much power it makes."
                ),
            ),
        )
    ]


# --- Kraftidioten (KI-1 .. KI-9) ---------------------------------------------------------


def _kraftidioten(deck: Deck, w: Words) -> list[Block]:
    cards = ex.by_production(deck)
    sample = cards[len(cards) // 5]
    return [
        Heading("Kraftidioten"),
        Para(
            "A bluffing game for those who know their power plants (or pretend to). You lay "
            "your cards face down and say which plant each one is: you \u201capply for a "
            "licence\u201d. What you say need not be true, but getting caught costs you."
        ),
        Heading("Players, cards and goal", 2),
        Bullets(
            (
                "2 to 10 players. All 55 cards are used.",
                "The goal is to get a licence for all your plants, that is, to get rid of all "
                "the cards in your hand. The first to do so wins. The last one left with "
                "cards is the kraftidiot (the power idiot).",
                "The game is played in the three categories capacity (MW), production (GWh) "
                "and head (m).",
            )
        ),
        Heading("The deal", 2),
        Para(
            "Set the three jokers aside and shuffle the 52 plant cards. Deal three cards to "
            "each player. Then shuffle the jokers into the rest and put those cards face down "
            "as the stock."
        ),
        Heading("A turn: apply for a licence", 2),
        Para(
            "The player on the dealer's left begins, and play goes clockwise. "
            "Whoever starts a new pile first picks the category. Then they lay one card face "
            "down in the middle of the table and say the plant's name and its figure in the "
            f"category, with the unit, for example \u201c{escape(sample.name or '')}, "
            f"{figure(sample, 'gwh', w)}\u201d. Finally they draw from the stock until they "
            "hold at least three cards."
        ),
        Para(
            "The next player must apply for a plant with a figure at least as high in the "
            "same category: lay the card face down on the pile, say name and figure with "
            "unit, and draw up. And so on around the table. Always say the unit out loud, so "
            "that everyone remembers which category is being played."
        ),
        Heading("When you cannot (or will not)", 2),
        Para("If you have no card high enough, you have three options:"),
        Bullets(
            (
                "<b>Take the pile.</b> You may do so at any time on your turn, also as a tactic.",
                "<b>Draw a chance.</b> Take the top card of the stock and apply for it "
                "honestly, with its true name and figure. If the figure is lower than the "
                "previous claim, you take the pile together with that card. If you draw a "
                "joker, it is laid as a joker (see below).",
                "<b>Lie.</b> Lay any card face down and name any plant of the deck with a "
                "high enough figure. A wrong name and a wrong figure are both lies. Knowing "
                "the plants well pays off.",
            )
        ),
        Para(
            "Once someone has taken the pile, the next player starts a new pile and picks the "
            "category again."
        ),
        Heading("Challenge", 2),
        Para(
            "If you think someone is lying, you may <b>challenge</b> the last claim before the "
            "next card is laid. The card is turned over. The claim is a lie if the card is "
            "not the plant named, or if the figure is not that plant's figure."
        ),
        Bullets(
            (
                "<b>A lie</b>: the player who laid the card takes the pile. You, the "
                "challenger, start the new pile.",
                "<b>The truth</b>: you, the challenger, take the pile. The player after the "
                "one who laid the card starts the new pile.",
                "If several players want to challenge at once, the first in seating order "
                "after the player who laid the card does it.",
            )
        ),
        *_claims_example(deck, w),
        Heading("The joker", 2),
        Para(
            "A joker is shown to everyone when it is laid, and the pile burns. The player who "
            "laid it at once lays a new card and picks the category. But you may not lay a "
            "joker while you hold two cards or fewer. If you do it anyway, the pile still "
            "burns, but as a penalty you draw three random cards from the burned cards (fewer "
            "if there are not that many)."
        ),
        Heading("Top 3 burns the pile", 2),
        Para(
            "If you claim a card with nr. 1, 2 or 3 in the category being played, the pile "
            "burns unless someone challenges. You need not show the card, but wait a moment "
            "(count to three) so the others have time to challenge."
        ),
        Bullets(
            (
                "Nobody challenges: the pile burns, and you lay a new card and pick the category.",
                "Someone challenges and the claim was true: the challenger takes the pile "
                "that was about to burn. You lay a new card and pick the category.",
                "Someone challenges and the claim was a lie: you take the pile, and the "
                "challenger starts the new one.",
            )
        ),
        *_top_example(deck, w),
        Heading("The end", 2),
        Para(
            "When the stock is empty and you have no cards in hand, you are out, as long as "
            "nobody successfully challenges your last card. If it turns out to be a lie, you "
            "get the pile back and are in the game again. The first player out wins. Play "
            "goes on until only one player has cards: the kraftidiot."
        ),
    ]


def _claims_example(deck: Deck, w: Words) -> list[Block]:
    out: list[Block] = []
    claims = ex.kraftidioten_claims(deck)
    if claims is None:
        out.append(Example("Example: a challenge", (Para(MISSING),)))
    else:
        cat = claims.category
        name = CATEGORY_NAMES[cat]
        out.append(
            Example(
                "Example: a lie is exposed",
                (
                    Para(
                        f"Kari, Ola and Per are playing. Kari starts and picks {name}. She "
                        f"lays {plant(claims.first, w)} face down and says \u201c"
                        f"{escape(claims.first.name or '')}, {figure(claims.first, cat, w)}"
                        f"\u201d. That is true. Ola lays {plant(claims.second, w)} and says "
                        f"\u201c{escape(claims.second.name or '')}, "
                        f"{figure(claims.second, cat, w)}\u201d, also true, and higher."
                    ),
                    Para(
                        f"Per has nothing high enough. He lays {plant(claims.hidden, w)} face "
                        f"down but says \u201c{escape(claims.claimed.name or '')}, "
                        f"{figure(claims.claimed, cat, w)}\u201d. Ola challenges. The card is "
                        f"turned: it is {escape(claims.hidden.name or '')} with "
                        f"{figure(claims.hidden, cat, w)}, not "
                        f"{escape(claims.claimed.name or '')}."
                    ),
                    CardRow(
                        (claims.first, claims.second, claims.hidden),
                        ("Kari", "Ola", "Per (turned)"),
                    ),
                    Para(
                        "The challenge succeeds: Per takes all three cards, and Ola, the "
                        "challenger, starts a new pile and picks the category. Had the card "
                        "been what Per said, Ola would have taken the pile, and Kari, who sits "
                        "after Per, would have started the new one."
                    ),
                ),
            )
        )
    return out


def _top_example(deck: Deck, w: Words) -> list[Block]:
    out: list[Block] = []
    top = ex.kraftidioten_top(deck)
    if top is not None:
        cat = top.category
        nr = top.top.nr.get(cat) if top.top.nr else 0
        out.append(
            Example(
                "Example: top 3",
                (
                    Para(
                        f"The category is {CATEGORY_NAMES[cat]}, and the last claim was "
                        f"{plant_with(top.under, cat, w)}. Ola lays {plant(top.top, w)} and "
                        f"says \u201c{escape(top.top.name or '')}, {figure(top.top, cat, w)}, "
                        f"nr.\u00a0{nr}\u201d. He waits a moment."
                    ),
                    CardRow((top.under, top.top), ("under", f"nr.\u00a0{nr}")),
                    Para(
                        "Nobody challenges, so the pile burns, and Ola lays a new card and "
                        "picks the category. Had Per challenged, the card would have been "
                        "turned and shown to be true: Per would have taken the pile, and Ola "
                        "would have laid again."
                    ),
                ),
            )
        )
    return out


# --- Strømkrig (SK-1 .. SK-14) -----------------------------------------------------------


def _stromkrig(deck: Deck, w: Words) -> list[Block]:
    return [
        Heading("Strømkrig"),
        Para(
            "\u201cPower war\u201d: a fast game for everyone, in which production rules: each "
            "card must make more electricity than the one before. Equal figures and club on "
            "club mean war."
        ),
        Heading("Players, cards and goal", 2),
        Bullets(
            (
                "2 to 6 players. All 55 cards are used, jokers included.",
                "The goal is to get rid of all your cards. The last player left with cards "
                "loses the power war and deals the next round.",
            )
        ),
        Heading("The deal", 2),
        Para(
            "Shuffle all the cards and deal three to each player. The rest is the stock. It "
            "helps to sort your hand by production (GWh). The dealer starts."
        ),
        Heading("A turn", 2),
        Para(
            "Lay a card with <b>higher</b> production than the top card of the pile; equal is "
            "not enough. On an empty pile you may lay anything. Then draw up to three from the "
            "stock, as long as there are cards in it. The game goes faster if you say the "
            "production out loud as you lay."
        ),
        *_beat_example(deck, w),
        Bullets(
            (
                "<b>Chance</b>: instead of playing from your hand, you may turn the top card "
                "of the stock straight onto the pile. If it is not high enough, you take the "
                "pile with that card.",
                "<b>Take the pile</b>: if you cannot or will not lay, take the whole pile. The "
                "next player starts a new one.",
                "<b>Runs</b>: two or more cards whose production nr. follow each other (say "
                "nr. 15 and nr. 14) may be laid in one turn. Lay the one with the lowest "
                "production first; it must beat the top card. The highest card of the run "
                "becomes the new top card.",
            )
        ),
        *_run_example(deck, w),
        Heading("Power war!", 2),
        Para("There is a war when one of these happens:"),
        Bullets(
            (
                "Someone lays a <b>club on a club</b>. The card must still have higher "
                "production. The ace, 2, 3 and 4 of clubs do not start a war (they burn the "
                "pile).",
                "Someone lays a card with the <b>same production rounded down to the nearest "
                "ten</b> as the card under it (879 and 871 GWh are both 870). In this case the "
                "card laid may well be lower than the one under it.",
            )
        ),
        Para(
            "The player who laid the card is the challenger. The player who laid the card "
            "under it is in the war too. Everybody else may join by shouting \u201cwar!\u201d "
            "before the category is named. Then the challenger names the category "
            "(production, capacity or head) and lays the first war card. The others in the war "
            "lay one card each in the usual order, drawing up from the stock while it lasts."
        ),
        Para(
            "Whoever laid the <b>lowest</b> figure in the named category loses the war and "
            "takes the whole pile with the war cards. If several tie for lowest, the war is "
            "fought again between them. A joker counts as the lowest in a war, and special "
            "cards have no powers in a war. If you have no card to lay in a war, you take the "
            "whole pile. The loser starts the new pile."
        ),
        *_war_examples(deck, w),
        Heading("Special cards in Strømkrig", 2),
        Bullets(
            (
                "<b>Jokers and the ace, 2, 3 and 4 of clubs</b>: may be laid whatever the top "
                "card is, and the pile burns. You draw up and start a new pile yourself.",
                "<b>The 2s</b>: may be laid whatever the top card is. The production of the "
                "card under the 2 then counts as zero, so the next player may lay any card.",
                "<b>Invisible cards</b> (nr. 50, 51 or 52 in production, capacity or head): "
                "may be laid on your turn whatever the top card is. The card goes beside the "
                "pile, and the next player must beat the card that was on top before it. "
                "<i>House rule</i>, if you like: only nr. 50, 51 and 52 in production are "
                "invisible.",
                "If a card has several powers (the 2 of clubs both burns and resets), you "
                "choose which one to use.",
            )
        ),
        *_special_examples(deck, w),
        Heading("The end", 2),
        Para(
            "When the stock is empty and so is your hand, you are out. The first out wins; "
            "the last one with cards loses the power war and deals next time."
        ),
    ]


def _beat_example(deck: Deck, w: Words) -> list[Block]:
    out: list[Block] = []
    beat = ex.stromkrig_beat(deck)
    if beat is not None:
        out.append(
            Example(
                "Example: which card beats which?",
                (
                    CardRow(
                        (beat.top, beat.higher, beat.lower),
                        ("on top", "may be laid", "may not"),
                    ),
                    Para(
                        f"On top lies {plant_with(beat.top, 'gwh', w)}. You may lay "
                        f"{plant_with(beat.higher, 'gwh', w)}, which produces more. You may "
                        f"not lay {plant_with(beat.lower, 'gwh', w)}, which produces less."
                    ),
                ),
            )
        )
    return out


def _run_example(deck: Deck, w: Words) -> list[Block]:
    out: list[Block] = []
    run = ex.stromkrig_run(deck)
    if run is not None:
        out.append(
            Example(
                "Example: a run",
                (
                    Para(
                        f"On top lies {plant_with(run.top, 'gwh', w)}. You hold "
                        f"{plant(run.first, w)}, nr.\u00a0{_nr(run.first)} in production, and "
                        f"{plant(run.second, w)}, nr.\u00a0{_nr(run.second)}. The numbers follow "
                        f"each other, so you lay both: first {escape(run.first.name or '')} "
                        f"({figure(run.first, 'gwh', w)}), which beats the top card, then "
                        f"{escape(run.second.name or '')} ({figure(run.second, 'gwh', w)}). "
                        f"The next player must beat {figure(run.second, 'gwh', w)}."
                    ),
                ),
            )
        )
    return out


def _war_examples(deck: Deck, w: Words) -> list[Block]:
    return [
        _war_example(ex.stromkrig_tens_war(deck), "same ten", w),
        _war_example(ex.stromkrig_club_war(deck), "club on club", w),
    ]


def _special_examples(deck: Deck, w: Words) -> list[Block]:
    out: list[Block] = []
    reset = ex.stromkrig_reset(deck)
    if reset is not None:
        out.append(
            Example(
                "Example: the 2",
                (
                    Para(
                        f"On top lies {plant_with(reset.top, 'gwh', w)}, one of the biggest "
                        f"plants. Ola lays {plant(reset.special, w)}. Now "
                        f"{escape(reset.top.name or '')} counts as zero, and Per may lay "
                        f"{plant_with(reset.follow, 'gwh', w)}, small as it is."
                    ),
                ),
            )
        )
    invisible = ex.stromkrig_invisible(deck)
    if invisible is not None:
        card = invisible.special
        reasons = [
            f"nr.\u00a0{card.nr.get(c)} in {CATEGORY_NAMES[c]}"
            for c in CATEGORIES
            if card.nr and card.flags.invisible.get(c)
        ]
        out.append(
            Example(
                "Example: an invisible card",
                (
                    Para(
                        f"On top lies {plant_with(invisible.top, 'gwh', w)}. Kari has nothing "
                        f"higher, but she holds {plant(card, w)}, which is "
                        f"{' and '.join(reasons)}. It is invisible: she lays it beside the "
                        f"pile and is rid of it. The next player must still beat "
                        f"{escape(invisible.top.name or '')}, for example with "
                        f"{plant_with(invisible.follow, 'gwh', w)}."
                    ),
                ),
            )
        )
    return out


def _nr(card: Card) -> int:
    return card.nr.gwh if card.nr else 0


def _war_example(war: ex.WarExample | None, kind: str, w: Words) -> Example:
    title = f"Example: war ({kind})"
    if war is None:
        return Example(title, (Para(MISSING),))
    cat = war.category
    if kind == "same ten":
        lower = war.laid.figure("gwh") < war.under.figure("gwh")
        start = (
            f"Kari, Ola and Per are playing. Kari has laid {plant_with(war.under, 'gwh', w)}. "
            f"Ola lays {plant_with(war.laid, 'gwh', w)}. Both round down to "
            f"{number(ex.tens(war.laid), w)}\u00a0GWh, so it is war, even though Ola's card is "
            + ("lower." if lower else "not higher.")
        )
    else:
        start = (
            f"Kari, Ola and Per are playing. Kari has laid {plant_with(war.under, 'gwh', w)}. "
            f"Ola lays {plant_with(war.laid, 'gwh', w)} on it. It is higher, and it is "
            "club on club: war!"
        )
    loser, winner = ("Ola", "Kari") if war.loser_is_challenger else ("Kari", "Ola")
    return Example(
        title,
        (
            Para(start),
            CardRow(
                (war.under, war.laid, war.challenger_card, war.defender_card),
                ("Kari", "Ola", "Ola at war", "Kari at war"),
            ),
            Para(
                f"Per stays out. Ola is the challenger, so he names {CATEGORY_NAMES[cat]} and "
                f"lays {plant_with(war.challenger_card, cat, w)}. Kari answers with "
                f"{plant_with(war.defender_card, cat, w)}."
            ),
            Para(
                f"{loser} has the lower {CATEGORY_NAMES[cat]}, loses the war and takes the "
                f"whole pile, all four cards. {loser} then starts a new pile. {winner} is two "
                "cards lighter."
            ),
        ),
    )


# --- Appendix ----------------------------------------------------------------------------


def _appendix(deck: Deck, w: Words) -> list[Block]:
    snap = deck.snapshot
    source = escape(snap.source or "not given")
    facts = [
        f"Source: {escape(snap.attribution.rstrip('. '))}." if snap.attribution else "",
        f"Licence: {escape(snap.licence or 'not given')}.",
        f"Data snapshot: {escape(snap.date or 'date unknown')}, read from {source} "
        f"({escape(snap.path)}).",
    ]
    facts = [fact for fact in facts if fact]
    return [
        Heading("All the cards"),
        Para(
            "All 55 cards, sorted by production from highest to lowest. The nr. columns give "
            "the place in each category (1 = highest)."
        ),
        CardTable(
            headings=("Card", "Plant", "MW", "nr.", "GWh", "nr.", "m", "nr."),
            joker_label="joker",
        ),
        Heading("About the figures", 2),
        Para(
            "The figures on the cards come from public data on Norwegian hydropower plants. "
            "They hold for this snapshot; newer figures may differ. Production is the "
            "expected production in an average year."
        ),
        Bullets(tuple(facts)),
    ]


__all__ = ["blocks"]
