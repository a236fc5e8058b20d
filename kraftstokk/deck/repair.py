"""Repair a hand-edited deck: recompute every nr., flag and war partner from the figures.

A deck maker edits a figure, a name, a suit or a value in deck.csv (or deck.json); the nr.
and flags that follow from it are then wrong on many cards. :func:`repair_deck` keeps
what a person decides (plants, names, figures, suits and values) and recomputes what
follows from it with the code ``build`` uses (:mod:`kraftstokk.deck.rank`,
:mod:`kraftstokk.deck.flags`). What it cannot decide (a figure missing, two cards with
the same suit and value) is refused with a line saying what to fix.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from kraftstokk.deck.build import card_order
from kraftstokk.deck.diff import DeckDiff, diff_decks
from kraftstokk.deck.flags import joker_flags, plant_flags, war_partners
from kraftstokk.deck.rank import DEFAULT_TIE_BREAK, TIE_BREAK_RULES, RankItem, rank_all
from kraftstokk.deck.validate import ValidationReport, validate_deck
from kraftstokk.errors import ValidationFailed
from kraftstokk.models import (
    CATEGORIES,
    CATEGORY_LABELS,
    DECK_SIZE,
    JOKERS,
    SUITS,
    Card,
    Deck,
    Ranks,
    Suit,
    card_id,
)


@dataclass
class RepairResult:
    deck: Deck
    changes: DeckDiff
    report: ValidationReport
    #: What was wrong with the jokers (diff compares plant cards only).
    jokers: str = ""

    def lines(self) -> list[str]:
        lines = self.changes.lines()
        if self.jokers:
            lines.insert(-1, f"jokers: {self.jokers}; now joker-1, joker-2 and joker-3, bare")
        return lines


def _suit_value(card: Card) -> tuple[Suit, int] | None:
    """The card's suit and value as a person set them: the fields, else the id."""
    if card.suit in SUITS and card.value is not None and 1 <= card.value <= 13:
        return card.suit, card.value
    suit, _, value = card.id.rpartition("-")
    for known in SUITS:
        if known == suit and value.isdigit() and 1 <= int(value) <= 13:
            return known, int(value)
    return None


def _unrepairable(deck: Deck, source: str) -> list[str]:
    """What a person has to decide before the nr. and flags can be recomputed."""
    problems: list[str] = []
    plants = deck.plant_cards
    if len(plants) != DECK_SIZE:
        problems.append(f"the deck has {len(plants)} plant cards; a deck needs {DECK_SIZE}")
    holders: dict[tuple[Suit, int], list[Card]] = {}
    seen_plants: dict[str, Card] = {}
    for card in plants:
        where = f"{card.id} ({card.name or card.plant_id or 'no name'})"
        key = _suit_value(card)
        if key is None:
            problems.append(f"{where}: no suit and value 1-13; give the card one")
        else:
            holders.setdefault(key, []).append(card)
        for category in CATEGORIES:
            value = getattr(card, category)
            if value is None or not math.isfinite(value) or value <= 0:
                problems.append(
                    f"{where}: {CATEGORY_LABELS[category]} ({category}) is missing or not "
                    "positive; enter the plant's figure"
                )
        if not card.plant_id:
            problems.append(f"{where}: no plant_id; enter the plant's id")
        elif card.plant_id in seen_plants:
            problems.append(
                f"{where}: plant {card.plant_id} is also on {seen_plants[card.plant_id].id}"
            )
        else:
            seen_plants[card.plant_id] = card
        if not (card.name or "").strip():
            problems.append(f"{where}: no name; enter the name the card shows")
    free = [card_id(s, v) for s in SUITS for v in range(1, 14) if (s, v) not in holders]
    for (suit, value), cards in holders.items():
        if len(cards) > 1:
            names = ", ".join(c.name or c.id for c in cards)
            problems.append(
                f"{suit} {value} is on {len(cards)} cards ({names}); give all but one another "
                f"card (free: {', '.join(free) or 'none'})"
            )
    return problems


def repair_deck(deck: Deck, source: str = "deck") -> RepairResult:
    """The deck with every nr., flag, war partner, card id and joker recomputed.

    Raises :class:`ValidationFailed` (exit 1) listing what a person must fix first.
    """
    problems = _unrepairable(deck, source)
    if problems:
        raise ValidationFailed(source, problems)
    rule = deck.spec.get("tie_break", DEFAULT_TIE_BREAK)
    tie_break = rule if rule in TIE_BREAK_RULES else DEFAULT_TIE_BREAK
    plants = sorted(
        deck.plant_cards,
        key=lambda card: card_order(*(_suit_value(card) or ("spar", 0))),
    )
    items = [
        RankItem(key=str(index), plant_id=card.plant_id or "",
                 figures={c: card.figure(c) for c in CATEGORIES})
        for index, card in enumerate(plants)
    ]  # fmt: skip
    ranking = rank_all(items, tie_break)
    cards: list[Card] = []
    for index, card in enumerate(plants):
        key = _suit_value(card)
        assert key is not None  # checked by _unrepairable
        ranks = ranking.ranks_of(str(index))
        cards.append(
            card.model_copy(
                update={
                    "id": card_id(*key),
                    "suit": key[0],
                    "value": key[1],
                    "name": (card.name or "").strip(),
                    "nr": Ranks(**ranks),
                    "flags": plant_flags(key[0], key[1], ranks, card.figure("gwh")),
                }
            )
        )
    partners = war_partners([(card.id, card.flags.gwh_tens or 0) for card in cards])
    for card in cards:
        card.flags.war_partners = partners[card.id]
    cards.extend(
        Card(id=f"joker-{n}", joker=True, flags=joker_flags()) for n in range(1, JOKERS + 1)
    )
    repaired = deck.model_copy(update={"cards": cards})
    old_jokers = [card.model_dump(mode="json") for card in deck.jokers]
    new_jokers = [card.model_dump(mode="json") for card in repaired.jokers]
    jokers = ""
    if len(old_jokers) != JOKERS:
        jokers = f"{len(old_jokers)} in the deck, a deck has {JOKERS}"
    elif old_jokers != new_jokers:
        jokers = "ids, flags or plant fields of the jokers were changed"
    return RepairResult(
        deck=repaired,
        changes=diff_decks(deck, repaired, source, "repaired"),
        report=validate_deck(repaired, source),
        jokers=jokers,
    )
