"""Strømkrig's chapter of the rules booklet (SK-1 .. SK-14), with this deck's own cards.

The sentences are ``[stromkrig]`` of ``locales/<code>/booklet.toml`` (:class:`Text`); the
rules the seed is silent on, as the engine plays them (``RULES.md``, "the digest's
choices"), are ``[stromkrig.rules]``, each under its rule id (:data:`RULES`). The
worked examples are chosen from the deck with the engine's own predicates (``rules.py``):
what beats what, which cards start a war, which are special. Each example function
returns plain data (which cards, which category, who wins), or None when this deck has no
cards that fit it (a deck without two productions in the same ten, say); the chapter then
says so instead.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from kraftstokk.design.blocks import (
    Block,
    Bullets,
    CardRow,
    ChapterWords,
    Example,
    Heading,
    Para,
    QuickReference,
    Words,
    burn_cards,
    by_production,
    caption,
    escape,
    figure,
    game_opening,
    invisible_cards,
    number,
    plant,
    plant_with,
    quick_reference,
    ranked,
    reset_cards,
    tens,
    war_groups,
)
from kraftstokk.games.stromkrig import rules as sk
from kraftstokk.models import CATEGORIES, Card, Category, Deck

Paras = tuple[str, ...]
Keyed = Mapping[str, str]

#: The rules the seed is silent on, as the engine plays them, by rule id and a name: each
#: is a text of ``[stromkrig.rules]`` in every language. SK-1: play goes clockwise, as in
#: the other games; SK-5: a run's first card can start a war; SK-6: a card on one's own
#: card, or one's last card, starts no war; SK-7: a war fought again keeps its category;
#: SK-11: a 2 starts no war with the card laid on it; SK-12: cards beside the pile go
#: with the pile; SK-14: burning with one's last card on an empty stock puts one out.
RULES: tuple[str, ...] = (
    "SK-1_direction",
    "SK-5_run_war",
    "SK-6_own_card",
    "SK-6_last_card",
    "SK-7_same_category",
    "SK-11_no_war",
    "SK-12_with_pile",
    "SK-14_burn_out",
)


@dataclass(frozen=True)
class Text:
    """Every sentence of the chapter, in the order it uses them."""

    intro: str
    players: Paras
    deal: Paras
    turn: str
    beat_title: str
    beat_captions: Paras
    beat: str
    moves: Paras
    runs: str
    run_title: str
    run: str
    war_heading: str
    war_when_intro: str
    war_when: Paras
    no_war_intro: str
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
    special_heading: str
    special: Paras
    reset_title: str
    reset: str
    invisible_title: str
    invisible_reason: str
    invisible: str
    burn_out_title: str
    burn_out: str
    end: str
    rules: Keyed
    # The game on one page: each special card as a pair (label, effect)
    quick_need: str
    quick_deal: str
    quick_turn: Paras
    quick_burn: Paras
    quick_reset: Paras
    quick_invisible: Paras
    quick_end: str
    summary_cards: str
    summary_deal: str


_RUN_FIELDS = (
    "top first first_nr first_name first_figure second second_nr second_name second_figure"
)

#: The placeholders each text may use (a text not named here takes none).
FIELDS: dict[str, frozenset[str]] = {
    name: frozenset(names.split())
    for name, names in {
        "beat": "top higher lower",
        "run": _RUN_FIELDS,
        "reset": "top special top_name follow",
        "invisible_reason": "nr category",
        "invisible": "top card reasons top_name follow",
        "burn_out": "card card_name top",
        "war_title": "kind",
        "war_tens_start": "under laid ten",
        "war_clubs_start": "under laid",
        "war_named": "category challenger defender",
        "war_result": "loser winner category",
    }.items()
}
#: The names of each table of texts.
KEYS: dict[str, tuple[str, ...]] = {"rules": RULES}
#: Lists of a fixed length: a quick reference's row is a label and an effect; the war's
#: rules are three paragraphs, with SK-7's rule between the second and the third.
LENGTHS: dict[str, int] = {
    "quick_burn": 2,
    "quick_reset": 2,
    "quick_invisible": 2,
    "war_rules": 3,
}


def chapter(deck: Deck, w: Words, t: Text, shared: ChapterWords) -> list[Block]:
    rules = t.rules
    special = t.special
    return [
        *game_opening(t.intro, t.players, t.deal, shared),
        Para(rules["SK-1_direction"]),
        Heading(shared.turn_heading, 2),
        Para(t.turn),
        *_beat_example(deck, w, t),
        Bullets(t.moves),
        Para(t.runs),
        Para(rules["SK-5_run_war"]),
        *_run_example(deck, w, t),
        Heading(t.war_heading, 2),
        Para(t.war_when_intro),
        Bullets(t.war_when),
        Para(t.no_war_intro),
        Bullets((rules["SK-6_own_card"], rules["SK-6_last_card"], rules["SK-11_no_war"])),
        Para(t.war_rules[0]),
        Para(t.war_rules[1]),
        Para(rules["SK-7_same_category"]),
        Para(t.war_rules[2]),
        _war_example(tens_war(deck), True, w, t, shared),
        _war_example(club_war(deck), False, w, t, shared),
        Heading(t.special_heading, 2),
        Bullets(
            (
                special[0],
                rules["SK-14_burn_out"],
                *special[1:3],
                rules["SK-12_with_pile"],
                *special[3:],
            )
        ),
        *_special_examples(deck, w, t, shared),
        Heading(shared.end_heading, 2),
        Para(t.end),
    ]


def quick(deck: Deck, w: Words, t: Text, shared: ChapterWords, title: str) -> QuickReference:
    """Strømkrig on one page, with this edition's burn cards, 2s and invisible cards."""
    invisible: dict[str, list[str]] = {}
    for category in CATEGORIES:
        for card in invisible_cards(deck, category):
            invisible.setdefault(card.name or "", []).append(caption(card, category, w))
    rows = [
        (
            f"<b>{t.quick_burn[0]}</b>: " + _names(burn_cards(deck)),
            t.quick_burn[1],
        ),
        (f"<b>{t.quick_reset[0]}</b>: " + _names(reset_cards(deck)), t.quick_reset[1]),
        (
            f"<b>{t.quick_invisible[0]}</b>: "
            + ", ".join(
                f"<b>{escape(name)}</b> ({', '.join(ranks)})" for name, ranks in invisible.items()
            ),
            t.quick_invisible[1],
        ),
    ]
    return quick_reference(title, shared, t, rows)


def _names(cards: list[Card]) -> str:
    return ", ".join(f"<b>{_name(card)}</b>" for card in cards)


def _name(card: Card) -> str:
    return escape(card.name or "")


def _nr(card: Card) -> int:
    return card.nr.gwh if card.nr else 0


def _beat_example(deck: Deck, w: Words, t: Text) -> list[Block]:
    beat = beat_example(deck)
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


def _run_example(deck: Deck, w: Words, t: Text) -> list[Block]:
    run = run_example(deck)
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


def _special_examples(deck: Deck, w: Words, t: Text, shared: ChapterWords) -> list[Block]:
    out: list[Block] = []
    reset = reset_example(deck)
    if reset is not None:
        text = t.reset.format(
            top=plant_with(reset.top, "gwh", w),
            special=plant(reset.special, w),
            top_name=_name(reset.top),
            follow=plant_with(reset.follow, "gwh", w),
        )
        out.append(Example(t.reset_title, (Para(text),)))
    invisible = invisible_example(deck)
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
            reasons=shared.and_.join(reasons),
            top_name=_name(invisible.top),
            follow=plant_with(invisible.follow, "gwh", w),
        )
        out.append(Example(t.invisible_title, (Para(text),)))
    burn_out = burn_out_example(deck)
    if burn_out is not None:
        card, top = burn_out
        text = t.burn_out.format(
            card=plant(card, w), card_name=_name(card), top=plant_with(top, "gwh", w)
        )
        out.append(Example(t.burn_out_title, (Para(text),)))
    return out


def _war_example(
    war: WarExample | None, by_tens: bool, w: Words, t: Text, shared: ChapterWords
) -> Example:
    """A war over the same ten (``by_tens``) or over club on club."""
    title = t.war_title.format(kind=t.war_kind_tens if by_tens else t.war_kind_clubs)
    if war is None:
        return Example(title, (Para(shared.missing),))
    cat = war.category
    under = plant_with(war.under, "gwh", w)
    laid = plant_with(war.laid, "gwh", w)
    if by_tens:
        lower = war.laid.figure("gwh") < war.under.figure("gwh")
        start = t.war_tens_start.format(under=under, laid=laid, ten=number(tens(war.laid), w)) + (
            t.war_tens_lower if lower else t.war_tens_not_higher
        )
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


# --- the examples, chosen from the deck ---------------------------------------------------


def is_plain(card: Card) -> bool:
    """A card with no special power in Strømkrig (no burn, reset or invisibility)."""
    return not card.joker and not sk.special(sk.CardFace.of(card))


def is_plain_except_invisible(card: Card) -> bool:
    """An invisible card with no other power (no burn, no reset)."""
    face = sk.CardFace.of(card)
    return not sk.burns(face) and not sk.resets(face)


def starts_war(under: Card, laid: Card) -> bool:
    """Whether laying ``laid`` on ``under`` starts a war (SK-6), ignoring legality."""
    return bool(sk.war_reasons(sk.CardFace.of(laid), sk.CardFace.of(under)))


@dataclass(frozen=True)
class BeatExample:
    """``top`` lies on the pile; ``higher`` may be laid on it, ``lower`` may not."""

    top: Card
    higher: Card
    lower: Card


@dataclass(frozen=True)
class RunExample:
    """``top`` lies on the pile; ``first`` and ``second`` (consecutive nr.) go on it."""

    top: Card
    first: Card
    second: Card


@dataclass(frozen=True)
class WarExample:
    """``laid`` on ``under`` starts a war; the war is fought in ``category``.

    ``challenger_card`` and ``defender_card`` are the war cards; the owner of the one
    with the lower figure (``loser_is_challenger``) takes the pile.
    """

    under: Card
    laid: Card
    category: Category
    challenger_card: Card
    defender_card: Card
    loser_is_challenger: bool


@dataclass(frozen=True)
class SpecialExample:
    """``top`` lies on the pile and ``special`` is laid on it; ``follow`` comes next."""

    top: Card
    special: Card
    follow: Card


def beat_example(deck: Deck) -> BeatExample | None:
    plain = [c for c in by_production(deck) if is_plain(c)]
    middle = len(plain) // 2
    for i in range(middle, len(plain)):
        top = plain[i]
        higher = next(
            (c for c in reversed(plain[:i]) if not starts_war(top, c) and c.gwh != top.gwh),
            None,
        )
        lower = next(
            (c for c in plain[i + 1 :] if not starts_war(top, c) and (c.gwh or 0) < (top.gwh or 0)),
            None,
        )
        if higher and lower:
            return BeatExample(top=top, higher=higher, lower=lower)
    return None


def run_example(deck: Deck) -> RunExample | None:
    cards = by_production(deck)  # consecutive in the list = consecutive nr.
    for i in range(len(cards) // 3, len(cards) - 1):
        second, first = cards[i], cards[i + 1]
        if not (is_plain(first) and is_plain(second)):
            continue
        if starts_war(first, second):
            continue
        for top in cards[i + 2 :]:
            if is_plain(top) and (top.gwh or 0) < (first.gwh or 0) and not starts_war(top, first):
                return RunExample(top=top, first=first, second=second)
    return None


def _war_cards(deck: Deck, used: set[str], category: Category) -> tuple[Card, Card] | None:
    """Two plain cards, not already used, with different figures in ``category``.

    Returns (lower, higher): by preference the cards a quarter from each end of the
    ranking; when those two have the same figure (or are the same card, in a small deck),
    the nearest pair that differs. None if every plain card has the same figure.
    """
    plain = [c for c in ranked(deck, category) if is_plain(c) and c.id not in used]
    if len(plain) < 2:
        return None
    quarter = len(plain) // 4
    high = plain[quarter]
    low = plain[min(quarter * 3, len(plain) - 1)]
    if low.figure(category) < high.figure(category):
        return low, high
    lower = [c for c in plain if c.figure(category) < high.figure(category)]
    if lower:
        return lower[0], high
    higher = [c for c in plain if c.figure(category) > low.figure(category)]
    if higher:
        return low, higher[-1]
    return None


def tens_war(deck: Deck) -> WarExample | None:
    """A war started by two cards in the same production ten, the lower laid last."""
    pairs: list[tuple[Card, Card]] = []
    for group in war_groups(deck):
        for i, higher in enumerate(group):
            for lower in group[i + 1 :]:
                pairs.append((higher, lower))
    # Best: two plain cards, the one laid strictly lower (the case SK-6b exists for).
    # A pair whose printed figures read as two tens would puzzle the reader.
    pairs.sort(
        key=lambda pair: (
            not (is_plain(pair[0]) and is_plain(pair[1])),
            pair[1].figure("gwh") >= pair[0].figure("gwh"),
        )
    )
    if not pairs:
        return None
    under, laid = pairs[0]
    category: Category = "head_m"
    war = _war_cards(deck, {under.id, laid.id}, category)
    if war is None:
        return None
    challenger_card, defender_card = war
    return WarExample(
        under=under,
        laid=laid,
        category=category,
        challenger_card=challenger_card,
        defender_card=defender_card,
        loser_is_challenger=challenger_card.figure(category) < defender_card.figure(category),
    )


def club_war(deck: Deck) -> WarExample | None:
    """A war started by a club laid on a club with lower production."""
    clubs = [c for c in by_production(deck) if sk.war_club(sk.CardFace.of(c)) and is_plain(c)]
    for i in range(len(clubs) - 1, 0, -1):
        under = clubs[i]
        laid = next(
            (c for c in reversed(clubs[:i]) if tens(c) != tens(under) and c.gwh != under.gwh),
            None,
        )
        if laid is None:
            continue
        category: Category = "mw"
        war = _war_cards(deck, {under.id, laid.id}, category)
        if war is None:
            return None
        challenger_card, defender_card = war
        # The tens-war example has the challenger lose; here the defender loses.
        challenger_card, defender_card = defender_card, challenger_card
        return WarExample(
            under=under,
            laid=laid,
            category=category,
            challenger_card=challenger_card,
            defender_card=defender_card,
            loser_is_challenger=challenger_card.figure(category) < defender_card.figure(category),
        )
    return None


def reset_example(deck: Deck) -> SpecialExample | None:
    """A 2 laid on a high card; the next player lays the lowest plain card."""
    twos = [c for c in reset_cards(deck) if not sk.burns(sk.CardFace.of(c))]
    plain = [c for c in by_production(deck) if is_plain(c)]
    if not twos or len(plain) < 2:
        return None
    return SpecialExample(top=plain[0], special=twos[0], follow=plain[-1])


def burn_out_example(deck: Deck) -> tuple[Card, Card] | None:
    """SK-14: a burn card (the lowest club, a plant) laid as the last card on an empty
    stock, on the plain card of the highest production (a burn card goes on anything)."""
    burns = [c for c in burn_cards(deck) if not c.joker]
    plain = [c for c in by_production(deck) if is_plain(c)]
    if not burns or not plain:
        return None
    return burns[0], plain[0]


def invisible_example(deck: Deck) -> SpecialExample | None:
    """An invisible card laid beside the pile; the next card must beat the one under it.

    Prefers an invisible card with no other power (under the production-ladder policy
    the production nr. 49-52 are also the 2s).
    """
    invisible = [c for category in CATEGORIES for c in invisible_cards(deck, category)]
    invisible.sort(key=lambda card: not is_plain_except_invisible(card))
    plain = [c for c in by_production(deck) if is_plain(c)]
    if not invisible or len(plain) < 3:
        return None
    top = plain[len(plain) * 2 // 3]
    follow = next(
        (c for c in reversed(plain[: plain.index(top)]) if not starts_war(top, c)),
        None,
    )
    if follow is None:
        return None
    return SpecialExample(top=top, special=invisible[0], follow=follow)
