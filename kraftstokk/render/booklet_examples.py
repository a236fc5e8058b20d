"""Worked examples for the rules booklet, chosen from the deck's own cards.

Each function returns plain data (which cards, which category, who wins); the language
modules turn it into sentences. Choices are deterministic: the same deck gives the same
examples. When a deck has no cards that fit an example (a deck without two productions
in the same ten, say), the function returns None and the booklet says so instead.
"""

from __future__ import annotations

from dataclasses import dataclass

from kraftstokk.games.kraftidioten.rules import is_top3
from kraftstokk.games.stromkrig import rules as sk
from kraftstokk.models import CATEGORIES, Card, Category, Deck


def by_production(deck: Deck) -> list[Card]:
    """The plant cards from the highest production to the lowest (nr. 1 first)."""
    return sorted(deck.plant_cards, key=lambda card: (card.nr.gwh if card.nr else 0, card.id))


# The rules themselves are the engine's (games/stromkrig/rules.py); these read a Card.


def is_plain_stromkrig(card: Card) -> bool:
    """A card with no special power in Strømkrig (no burn, reset or invisibility)."""
    return not card.joker and not sk.special(sk.CardFace.of(card))


def is_plain_except_invisible(card: Card) -> bool:
    """An invisible card with no other power (no burn, no reset)."""
    face = sk.CardFace.of(card)
    return not sk.burns(face) and not sk.resets(face)


def tens(card: Card) -> int:
    """Production rounded down to the nearest ten GWh (SK-6b)."""
    return sk.production_tens(card.figure("gwh"))


def starts_war(under: Card, laid: Card) -> bool:
    """Whether laying ``laid`` on ``under`` starts a war (SK-6), ignoring legality."""
    return bool(sk.war_reasons(sk.CardFace.of(laid), sk.CardFace.of(under)))


def ranked(deck: Deck, category: Category) -> list[Card]:
    """Plant cards by nr. in ``category``, nr. 1 first."""
    return sorted(deck.plant_cards, key=lambda card: card.nr.get(category) if card.nr else 0)


def invisible_cards(deck: Deck, category: Category) -> list[Card]:
    """The cards with nr. 50-52 in ``category`` (D-4), nr. 50 first."""
    return [c for c in ranked(deck, category) if c.nr and sk.invisible_nr(c.nr.get(category))]


def top_cards(deck: Deck, category: Category) -> list[Card]:
    """The cards with nr. 1-3 in ``category`` (KI-8, the engine's rule), nr. 1 first."""
    return [c for c in ranked(deck, category) if c.nr and is_top3(c.nr.get(category))]


def burn_cards(deck: Deck) -> list[Card]:
    """Strømkrig's burn cards: the clubs with value 1-4 (SK-10), jokers excluded."""
    clubs = [c for c in deck.plant_cards if sk.burns(sk.CardFace.of(c))]
    return sorted(clubs, key=lambda card: card.value or 0)


def reset_cards(deck: Deck) -> list[Card]:
    """The four 2s (SK-11), in suit order."""
    order = {"spar": 0, "hjerter": 1, "kløver": 2, "ruter": 3}
    twos = [c for c in deck.plant_cards if sk.resets(sk.CardFace.of(c))]
    return sorted(twos, key=lambda card: order.get(card.suit or "", 9))


def war_groups(deck: Deck) -> list[list[Card]]:
    """Groups of two or more cards with the same production ten, highest ten first."""
    groups: dict[int, list[Card]] = {}
    for card in by_production(deck):
        groups.setdefault(tens(card), []).append(card)
    return [group for _, group in sorted(groups.items(), reverse=True) if len(group) > 1]


# --- Strømkrig ---------------------------------------------------------------------------


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


def stromkrig_beat(deck: Deck) -> BeatExample | None:
    plain = [c for c in by_production(deck) if is_plain_stromkrig(c)]
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


def stromkrig_run(deck: Deck) -> RunExample | None:
    cards = by_production(deck)  # consecutive in the list = consecutive nr.
    for i in range(len(cards) // 3, len(cards) - 1):
        second, first = cards[i], cards[i + 1]
        if not (is_plain_stromkrig(first) and is_plain_stromkrig(second)):
            continue
        if starts_war(first, second):
            continue
        for top in cards[i + 2 :]:
            if (
                is_plain_stromkrig(top)
                and (top.gwh or 0) < (first.gwh or 0)
                and not starts_war(top, first)
            ):
                return RunExample(top=top, first=first, second=second)
    return None


def _war_cards(deck: Deck, used: set[str], category: Category) -> tuple[Card, Card] | None:
    """Two plain cards, not already used, with different figures in ``category``.

    Returns (lower, higher): by preference the cards a quarter from each end of the
    ranking; when those two have the same figure (or are the same card, in a small deck),
    the nearest pair that differs. None if every plain card has the same figure.
    """
    plain = [c for c in ranked(deck, category) if is_plain_stromkrig(c) and c.id not in used]
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


def stromkrig_tens_war(deck: Deck) -> WarExample | None:
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
            not (is_plain_stromkrig(pair[0]) and is_plain_stromkrig(pair[1])),
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


def stromkrig_club_war(deck: Deck) -> WarExample | None:
    """A war started by a club laid on a club with lower production."""
    clubs = [
        c for c in by_production(deck) if sk.war_club(sk.CardFace.of(c)) and is_plain_stromkrig(c)
    ]
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


def stromkrig_reset(deck: Deck) -> SpecialExample | None:
    """A 2 laid on a high card; the next player lays the lowest plain card."""
    twos = [c for c in reset_cards(deck) if not sk.burns(sk.CardFace.of(c))]
    plain = [c for c in by_production(deck) if is_plain_stromkrig(c)]
    if not twos or len(plain) < 2:
        return None
    return SpecialExample(top=plain[0], special=twos[0], follow=plain[-1])


def stromkrig_invisible(deck: Deck) -> SpecialExample | None:
    """An invisible card laid beside the pile; the next card must beat the one under it.

    Prefers an invisible card with no other power (under the production-ladder policy
    the production nr. 49-52 are also the 2s).
    """
    invisible = [c for category in CATEGORIES for c in invisible_cards(deck, category)]
    invisible.sort(key=lambda card: not is_plain_except_invisible(card))
    plain = [c for c in by_production(deck) if is_plain_stromkrig(c)]
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


# --- Kraftidioten ------------------------------------------------------------------------


@dataclass(frozen=True)
class ClaimExample:
    """Three claims in ``category``; the third is a lie and is challenged.

    First player lays ``first`` truthfully, the second lays ``second`` truthfully, the
    third lays ``hidden`` face down but names ``claimed``; the first player challenges.
    """

    category: Category
    first: Card
    second: Card
    hidden: Card
    claimed: Card


@dataclass(frozen=True)
class TopClaimExample:
    """A truthful claim of a nr. 1-3 card (``top``) in ``category`` on ``under``."""

    category: Category
    under: Card
    top: Card


def kraftidioten_claims(deck: Deck) -> ClaimExample | None:
    category: Category = "gwh"
    cards = [c for c in ranked(deck, category) if not c.flags.top3.get(category)]
    if len(cards) < 6:
        return None
    n = len(cards)
    first = cards[n * 3 // 4]
    second = cards[n // 2]
    claimed = cards[n // 4]
    hidden = cards[-1]
    return ClaimExample(category, first=first, second=second, hidden=hidden, claimed=claimed)


def kraftidioten_top(deck: Deck) -> TopClaimExample | None:
    category: Category = "mw"
    top = top_cards(deck, category)
    rest = [c for c in ranked(deck, category) if not c.flags.top3.get(category)]
    if not top or not rest:
        return None
    return TopClaimExample(category=category, under=rest[len(rest) // 3], top=top[-1])


# --- Idiot -------------------------------------------------------------------------------


@dataclass(frozen=True)
class IdiotExample:
    """A queen on the pile: which of this deck's cards may follow and which may not."""

    top: Card
    allowed: tuple[Card, ...]
    special: tuple[Card, ...]
    refused: tuple[Card, ...]


def _first_with_value(deck: Deck, value: int, exclude: set[str]) -> Card | None:
    for card in sorted(deck.plant_cards, key=lambda c: c.id):
        if card.value == value and card.id not in exclude:
            return card
    return None


def idiot_queen(deck: Deck) -> IdiotExample | None:
    """What may go on a queen (ID-5, ID-6, ID-7), sorted by the engine's own predicates."""
    from kraftstokk.games.idiot.rules import may_lay, need_after, rank_of, reach

    top = _first_with_value(deck, 12, set())
    if top is None:
        return None
    need = need_after(rank_of(12))
    used = {top.id}
    picked: list[Card] = []
    for value in (12, 13, 1, 2, 10, 9, 5):
        card = _first_with_value(deck, value, used)
        if card is None or card.value is None:
            return None
        used.add(card.id)
        picked.append(card)
    ranks = {card.id: rank_of(card.value or 0) for card in picked}
    on_anything = {card.id for card in picked if reach(ranks[card.id]) > rank_of(1)}
    return IdiotExample(
        top=top,
        allowed=tuple(c for c in picked if may_lay(ranks[c.id], need) and c.id not in on_anything),
        special=tuple(c for c in picked if c.id in on_anything),
        refused=tuple(c for c in picked if not may_lay(ranks[c.id], need)),
    )
