"""The rules booklet's structure: its chapters, sections and worked examples.

One structure serves every language; the words come from a :class:`RulesText` (the
locale files ``render/locales/*.toml``, read by :mod:`locale`). A text with ``{field}`` in it is a
template that :meth:`str.format` fills with the deck's own cards and figures, so each
language orders the filled-in parts as its grammar wants. Rule ids in comments point back
to RULES.md; the examples come from :mod:`booklet_examples`.
"""

from __future__ import annotations

from dataclasses import dataclass

from kraftstokk.games.stromkrig import rules as sk
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

Paras = tuple[str, ...]

#: The game names are the same in every edition: they are what the players call the games.
GAMES_LINE = "Idiot · Kraftidioten · Strømkrig"


@dataclass(frozen=True)
class RulesText:
    """Every sentence of the booklet in one language, in the order the booklet uses them.

    A ``str`` is one paragraph or title, a ``tuple`` a list of bullets or of paragraphs.
    Braces mark the fields of a template (see the module docstring), so a text never holds
    a literal brace.
    """

    # Front matter
    subtitle: str
    edition: str
    contents: str
    # The deck and its special cards
    deck_heading: str
    deck_intro: Paras
    card_heading: str
    card_corners: str
    card_figures: Paras
    card_marks_intro: str
    card_marks: Paras
    nr_heading: str
    nr_meaning: str
    nr_example: str
    special_heading: str
    special_intro: str
    special_invisible: str
    special_top: str
    special_jokers: str
    joker_caption: str
    special_twos: str
    war_partners: str
    war_partners_some: str
    war_partners_none: str
    words_heading: str
    words: Paras
    # Idiot; players_heading, deal_heading, turn_heading and end_heading
    # serve every game, missing and and_ every example
    idiot_intro: str
    players_heading: str
    idiot_players: Paras
    deal_heading: str
    idiot_deal: Paras
    idiot_start_heading: str
    idiot_start: str
    turn_heading: str
    idiot_turn: str
    idiot_special_heading: str
    idiot_special: Paras
    idiot_stuck_heading: str
    idiot_stuck: str
    missing: str
    and_: str
    idiot_example_missing_title: str
    idiot_example_title: str
    idiot_example_captions: Paras
    idiot_example: Paras
    idiot_table_heading: str
    idiot_table: str
    end_heading: str
    idiot_end: str
    house_heading: str
    house_intro: str
    house_rules: Paras
    # Kraftidioten
    ki_intro: str
    ki_players: Paras
    ki_deal: Paras
    ki_turn_heading: str
    ki_turn: Paras
    ki_stuck_heading: str
    ki_stuck_intro: str
    ki_stuck: Paras
    ki_after_take: str
    challenge_heading: str
    challenge: str
    challenge_outcomes: Paras
    claims_missing_title: str
    claims_title: str
    claims_story: Paras
    claims_captions: Paras
    claims_outcome: str
    joker_heading: str
    joker: str
    top_heading: str
    top: str
    top_outcomes: Paras
    top_example_title: str
    top_example: str
    top_example_under: str
    top_example_outcome: str
    ki_end: str
    # Strømkrig
    sk_intro: str
    sk_players: Paras
    sk_deal: Paras
    sk_turn: str
    beat_title: str
    beat_captions: Paras
    beat: str
    sk_moves: Paras
    run_title: str
    run: str
    war_heading: str
    war_when_intro: str
    war_when: Paras
    war_rules: Paras
    war_title: str
    war_kind_tens: str
    war_tens_start: str
    war_tens_lower: str
    war_tens_not_higher: str
    war_kind_clubs: str
    war_clubs_start: str
    war_captions: Paras
    war_named: str
    war_result: str
    sk_special_heading: str
    sk_special: Paras
    reset_title: str
    reset: str
    invisible_title: str
    invisible_reason: str
    invisible: str
    sk_end: str
    # Appendix
    cards_heading: str
    cards_intro: str
    cards_headings: Paras
    figures_heading: str
    figures_intro: str
    source_line: str
    licence_line: str
    snapshot_line: str
    not_given: str
    date_unknown: str


_CLAIM_FIELDS = (
    "category first first_name first_figure second second_name second_figure "
    "hidden hidden_name hidden_figure claimed_name claimed_figure"
)
_RUN_FIELDS = (
    "top first first_nr first_name first_figure second second_nr second_name second_figure"
)

#: The fields the booklet fills in each template of a :class:`RulesText`; a text not named
#: here is used as it is. A locale file is checked against this when it is loaded.
TEMPLATE_FIELDS: dict[str, frozenset[str]] = {
    name: frozenset(names.split())
    for name, names in {
        "edition": "edition",
        "deck_intro": "title",
        "nr_example": "plant nr figure more less mw_nr head_nr",
        "special_jokers": "count",
        "joker_caption": "count",
        "idiot_example": "top allowed special refused",
        "ki_turn": "name figure",
        "claims_story": _CLAIM_FIELDS,
        "top_example": "category under top name figure nr",
        "beat": "top higher lower",
        "run": _RUN_FIELDS,
        "reset": "top special top_name follow",
        "invisible_reason": "nr category",
        "invisible": "top card reasons top_name follow",
        "war_title": "kind",
        "war_tens_start": "under laid ten",
        "war_clubs_start": "under laid",
        "war_named": "category challenger defender",
        "war_result": "loser winner category",
        "source_line": "attribution",
        "licence_line": "licence",
        "snapshot_line": "date source path",
    }.items()
}

#: The fields filled with a count (:meth:`Words.count`): only these may name a plural,
#: ``{more:plants_produce}``.
COUNT_FIELDS: dict[str, frozenset[str]] = {
    "nr_example": frozenset({"more", "less"}),
    "special_jokers": frozenset({"count"}),
    "joker_caption": frozenset({"count"}),
}


def rules_blocks(deck: Deck, w: Words, t: RulesText) -> list[Block]:
    """The whole booklet for ``deck`` with the words ``w`` and the sentences ``t``."""
    return [
        *_front(deck, t),
        *_deck_chapter(deck, w, t),
        *_idiot(deck, w, t),
        *_kraftidioten(deck, w, t),
        *_stromkrig(deck, w, t),
        *_appendix(deck, w, t),
    ]


def _paras(texts: Paras) -> list[Block]:
    return [Para(text) for text in texts]


def _name(card: Card) -> str:
    return escape(card.name or "")


def _front(deck: Deck, t: RulesText) -> list[Block]:
    faces = ex.by_production(deck)
    shown = tuple(faces[:1] + faces[len(faces) // 2 : len(faces) // 2 + 1] + deck.jokers[:1])
    return [
        TitlePage(
            title=escape(deck.title),
            subtitle=t.subtitle,
            lines=(GAMES_LINE, t.edition.format(edition=escape(deck.edition))),
            cards=shown,
        ),
        Contents(t.contents),
    ]


def _deck_chapter(deck: Deck, w: Words, t: RulesText) -> list[Block]:
    cards = ex.by_production(deck)
    sample = cards[len(cards) // 3]
    nr = sample.nr.gwh if sample.nr else 0
    return [
        Heading(t.deck_heading),
        *_paras(tuple(text.format(title=escape(deck.title)) for text in t.deck_intro)),
        Heading(t.card_heading, 2),
        CardRow((sample,), ()),
        Para(t.card_corners),
        Bullets(t.card_figures),
        Para(t.card_marks_intro),
        Bullets(t.card_marks),
        Heading(t.nr_heading, 2),
        Para(t.nr_meaning),
        Para(
            t.nr_example.format(
                plant=plant(sample, w),
                nr=nr,
                figure=figure(sample, "gwh", w),
                more=w.count(nr - 1),
                less=w.count(52 - nr),
                mw_nr=sample.nr.mw if sample.nr else 0,
                head_nr=sample.nr.head_m if sample.nr else 0,
            )
        ),
        *_special_cards(deck, w, t),
        Heading(t.words_heading, 2),
        Bullets(t.words),
    ]


def _special_cards(deck: Deck, w: Words, t: RulesText) -> list[Block]:
    out: list[Block] = [
        Heading(t.special_heading, 2),
        Para(t.special_intro),
        Para(t.special_invisible),
    ]
    out += gallery([(category, ex.invisible_cards(deck, category)) for category in CATEGORIES], w)
    out.append(Para(t.special_top))
    out += gallery([(category, ex.top_cards(deck, category)) for category in CATEGORIES], w)
    jokers = deck.jokers
    burns = ex.burn_cards(deck)
    twos = ex.reset_cards(deck)
    out += [
        Para(t.special_jokers.format(count=w.count(len(jokers)))),
        CardRow(
            (*jokers[:1], *burns),
            (t.joker_caption.format(count=w.count(len(jokers))), *(card_name(c, w) for c in burns)),
        ),
        Para(t.special_twos),
        CardRow(tuple(twos), tuple(card_name(c, w) for c in twos)),
    ]
    groups = ex.war_groups(deck)
    out.append(Para(t.war_partners + (t.war_partners_some if groups else t.war_partners_none)))
    if groups:
        out.append(Bullets(tuple(war_partner_line(group, w) for group in groups)))
        first = groups[0]
        out.append(CardRow(tuple(first), tuple(caption(c, "gwh", w) for c in first)))
    return out


def _game_opening(game: str, intro: str, players: Paras, deal: Paras, t: RulesText) -> list[Block]:
    """Every game's chapter opens alike: what it is, who plays with what, the deal."""
    return [
        Heading(game),
        Para(intro),
        Heading(t.players_heading, 2),
        Bullets(players),
        Heading(t.deal_heading, 2),
        *_paras(deal),
    ]


# --- Idiot (ID-1 .. ID-13) ---------------------------------------------------------------


def _idiot(deck: Deck, w: Words, t: RulesText) -> list[Block]:
    return [
        *_game_opening("Idiot", t.idiot_intro, t.idiot_players, t.idiot_deal, t),
        Heading(t.idiot_start_heading, 2),
        Para(t.idiot_start),
        Heading(t.turn_heading, 2),
        Para(t.idiot_turn),
        Heading(t.idiot_special_heading, 2),
        Bullets(t.idiot_special),
        Heading(t.idiot_stuck_heading, 2),
        Para(t.idiot_stuck),
        *_idiot_example(deck, w, t),
        Heading(t.idiot_table_heading, 2),
        Para(t.idiot_table),
        Heading(t.end_heading, 2),
        Para(t.idiot_end),
        Heading(t.house_heading, 2),
        Para(t.house_intro),
        Bullets(t.house_rules),
    ]


def _idiot_example(deck: Deck, w: Words, t: RulesText) -> list[Block]:
    example = ex.idiot_queen(deck)
    if example is None:
        return [Example(t.idiot_example_missing_title, (Para(t.missing),))]
    fill = {
        "top": plant(example.top, w),
        "allowed": ", ".join(plant(c, w) for c in example.allowed),
        "special": t.and_.join(plant(c, w) for c in example.special),
        "refused": t.and_.join(plant(c, w) for c in example.refused),
    }
    return [
        Example(
            t.idiot_example_title,
            (
                CardRow((example.top, *example.allowed), t.idiot_example_captions),
                *(Para(text.format(**fill)) for text in t.idiot_example),
            ),
        )
    ]


# --- Kraftidioten (KI-1 .. KI-9) ---------------------------------------------------------


def _kraftidioten(deck: Deck, w: Words, t: RulesText) -> list[Block]:
    cards = ex.by_production(deck)
    sample = cards[len(cards) // 5]
    fill = {"name": _name(sample), "figure": figure(sample, "gwh", w)}
    return [
        *_game_opening("Kraftidioten", t.ki_intro, t.ki_players, t.ki_deal, t),
        Heading(t.ki_turn_heading, 2),
        *_paras(tuple(text.format(**fill) for text in t.ki_turn)),
        Heading(t.ki_stuck_heading, 2),
        Para(t.ki_stuck_intro),
        Bullets(t.ki_stuck),
        Para(t.ki_after_take),
        Heading(t.challenge_heading, 2),
        Para(t.challenge),
        Bullets(t.challenge_outcomes),
        *_claims_example(deck, w, t),
        Heading(t.joker_heading, 2),
        Para(t.joker),
        Heading(t.top_heading, 2),
        Para(t.top),
        Bullets(t.top_outcomes),
        *_top_example(deck, w, t),
        Heading(t.end_heading, 2),
        Para(t.ki_end),
    ]


def _claims_example(deck: Deck, w: Words, t: RulesText) -> list[Block]:
    claims = ex.kraftidioten_claims(deck)
    if claims is None:
        return [Example(t.claims_missing_title, (Para(t.missing),))]
    cat = claims.category
    fill = {
        "category": w.categories[cat],
        "first": plant(claims.first, w),
        "first_name": _name(claims.first),
        "first_figure": figure(claims.first, cat, w),
        "second": plant(claims.second, w),
        "second_name": _name(claims.second),
        "second_figure": figure(claims.second, cat, w),
        "hidden": plant(claims.hidden, w),
        "hidden_name": _name(claims.hidden),
        "hidden_figure": figure(claims.hidden, cat, w),
        "claimed_name": _name(claims.claimed),
        "claimed_figure": figure(claims.claimed, cat, w),
    }
    return [
        Example(
            t.claims_title,
            (
                *(Para(text.format(**fill)) for text in t.claims_story),
                CardRow((claims.first, claims.second, claims.hidden), t.claims_captions),
                Para(t.claims_outcome),
            ),
        )
    ]


def _top_example(deck: Deck, w: Words, t: RulesText) -> list[Block]:
    top = ex.kraftidioten_top(deck)
    if top is None:
        return []
    cat = top.category
    nr = top.top.nr.get(cat) if top.top.nr else 0
    return [
        Example(
            t.top_example_title,
            (
                Para(
                    t.top_example.format(
                        category=w.categories[cat],
                        under=plant_with(top.under, cat, w),
                        top=plant(top.top, w),
                        name=_name(top.top),
                        figure=figure(top.top, cat, w),
                        nr=nr,
                    )
                ),
                CardRow((top.under, top.top), (t.top_example_under, f"nr.\u00a0{nr}")),
                Para(t.top_example_outcome),
            ),
        )
    ]


# --- Strømkrig (SK-1 .. SK-14) -----------------------------------------------------------


def _stromkrig(deck: Deck, w: Words, t: RulesText) -> list[Block]:
    return [
        *_game_opening("Strømkrig", t.sk_intro, t.sk_players, t.sk_deal, t),
        Heading(t.turn_heading, 2),
        Para(t.sk_turn),
        *_beat_example(deck, w, t),
        Bullets(t.sk_moves),
        *_run_example(deck, w, t),
        Heading(t.war_heading, 2),
        Para(t.war_when_intro),
        Bullets(t.war_when),
        *_paras(t.war_rules),
        _war_example(ex.stromkrig_tens_war(deck), True, w, t),
        _war_example(ex.stromkrig_club_war(deck), False, w, t),
        Heading(t.sk_special_heading, 2),
        Bullets(t.sk_special),
        *_special_examples(deck, w, t),
        Heading(t.end_heading, 2),
        Para(t.sk_end),
    ]


def _beat_example(deck: Deck, w: Words, t: RulesText) -> list[Block]:
    beat = ex.stromkrig_beat(deck)
    if beat is None:
        return []
    text = t.beat.format(
        top=plant_with(beat.top, "gwh", w),
        higher=plant_with(beat.higher, "gwh", w),
        lower=plant_with(beat.lower, "gwh", w),
    )
    return [
        Example(
            t.beat_title,
            (CardRow((beat.top, beat.higher, beat.lower), t.beat_captions), Para(text)),
        )
    ]


def _run_example(deck: Deck, w: Words, t: RulesText) -> list[Block]:
    run = ex.stromkrig_run(deck)
    if run is None:
        return []
    text = t.run.format(
        top=plant_with(run.top, "gwh", w),
        first=plant(run.first, w),
        first_nr=_nr(run.first),
        first_name=_name(run.first),
        first_figure=figure(run.first, "gwh", w),
        second=plant(run.second, w),
        second_nr=_nr(run.second),
        second_name=_name(run.second),
        second_figure=figure(run.second, "gwh", w),
    )
    return [Example(t.run_title, (Para(text),))]


def _special_examples(deck: Deck, w: Words, t: RulesText) -> list[Block]:
    out: list[Block] = []
    reset = ex.stromkrig_reset(deck)
    if reset is not None:
        text = t.reset.format(
            top=plant_with(reset.top, "gwh", w),
            special=plant(reset.special, w),
            top_name=_name(reset.top),
            follow=plant_with(reset.follow, "gwh", w),
        )
        out.append(Example(t.reset_title, (Para(text),)))
    invisible = ex.stromkrig_invisible(deck)
    if invisible is not None:
        card = invisible.special
        face = sk.CardFace.of(card)
        reasons = [
            t.invisible_reason.format(nr=face.rank(c), category=w.categories[c])
            for c in sk.invisible_in(face)
        ]
        text = t.invisible.format(
            top=plant_with(invisible.top, "gwh", w),
            card=plant(card, w),
            reasons=t.and_.join(reasons),
            top_name=_name(invisible.top),
            follow=plant_with(invisible.follow, "gwh", w),
        )
        out.append(Example(t.invisible_title, (Para(text),)))
    return out


def _nr(card: Card) -> int:
    return card.nr.gwh if card.nr else 0


def _war_example(war: ex.WarExample | None, tens: bool, w: Words, t: RulesText) -> Example:
    """A war over the same ten (``tens``) or over club on club."""
    title = t.war_title.format(kind=t.war_kind_tens if tens else t.war_kind_clubs)
    if war is None:
        return Example(title, (Para(t.missing),))
    cat = war.category
    under = plant_with(war.under, "gwh", w)
    laid = plant_with(war.laid, "gwh", w)
    if tens:
        lower = war.laid.figure("gwh") < war.under.figure("gwh")
        start = t.war_tens_start.format(
            under=under, laid=laid, ten=number(ex.tens(war.laid), w)
        ) + (t.war_tens_lower if lower else t.war_tens_not_higher)
    else:
        start = t.war_clubs_start.format(under=under, laid=laid)
    loser, winner = ("Ola", "Kari") if war.loser_is_challenger else ("Kari", "Ola")
    return Example(
        title,
        (
            Para(start),
            CardRow((war.under, war.laid, war.challenger_card, war.defender_card), t.war_captions),
            Para(
                t.war_named.format(
                    category=w.categories[cat],
                    challenger=plant_with(war.challenger_card, cat, w),
                    defender=plant_with(war.defender_card, cat, w),
                )
            ),
            Para(t.war_result.format(loser=loser, winner=winner, category=w.categories[cat])),
        ),
    )


# --- Appendix ----------------------------------------------------------------------------


def _appendix(deck: Deck, w: Words, t: RulesText) -> list[Block]:
    snap = deck.snapshot
    facts = [
        t.source_line.format(attribution=escape(snap.attribution.rstrip(". ")))
        if snap.attribution
        else "",
        t.licence_line.format(licence=escape(snap.licence or t.not_given)),
        t.snapshot_line.format(
            date=escape(snap.date or t.date_unknown),
            source=escape(snap.source or t.not_given),
            path=escape(snap.path),
        ),
    ]
    return [
        Heading(t.cards_heading),
        Para(t.cards_intro),
        CardTable(headings=t.cards_headings, joker_label=w.joker),
        Heading(t.figures_heading, 2),
        Para(t.figures_intro),
        Bullets(tuple(fact for fact in facts if fact)),
    ]


__all__ = ["COUNT_FIELDS", "GAMES_LINE", "TEMPLATE_FIELDS", "RulesText", "rules_blocks"]
