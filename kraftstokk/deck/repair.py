"""Repair a hand-edited deck: recompute every nr., flag and war partner from the figures.

A deck maker edits a figure, a name, a suit or a value in deck.csv (or deck.json); the nr.
and flags that follow from it are then wrong on many cards. :func:`repair_deck` keeps
what a person decides (plants, names, figures, suits and values) and recomputes what
follows from it with the code ``build`` uses (:mod:`kraftstokk.deck.derive`). What it
cannot decide (a figure missing, two cards with the same suit and value, one plant on two
cards under two spellings of its id) is refused with a line saying what to fix. Figures
edited by hand against the deck they were edited from are recorded as hand corrections
in the deck's spec, so that a later ``build --keep-from`` keeps them, and says so.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from kraftstokk.deck.corrections import record_hand_edits
from kraftstokk.deck.derive import derived_cards, tie_break_of
from kraftstokk.deck.diff import DeckDiff, diff_decks
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
    Suit,
    card_id,
)
from kraftstokk.sources.plant_keys import plant_key


@dataclass
class RepairResult:
    deck: Deck
    changes: DeckDiff
    report: ValidationReport
    #: What was wrong with the jokers (diff compares plant cards only).
    jokers: str = ""
    #: Figures edited by hand, recorded as hand corrections ("spar-7 Tonstad head_m ...").
    recorded: list[str] = field(default_factory=list)

    def lines(self) -> list[str]:
        *lines, summary = self.changes.lines()
        if self.jokers:
            lines.append(f"jokers: {self.jokers}; now joker-1, joker-2 and joker-3, bare")
        if self.recorded:
            lines.append(
                f"hand corrections recorded in the deck ({len(self.recorded)}; build "
                "--keep-from keeps them; copy them into the spec's [figures] with a reason):"
            )
            lines.extend(f"  {line}" for line in self.recorded)
        return [*lines, summary]


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
        place = _suit_value(card)
        if place is None:
            problems.append(f"{where}: no suit and value 1-13; give the card one")
        else:
            holders.setdefault(place, []).append(card)
        for category in CATEGORIES:
            value = getattr(card, category)
            if value is None or not math.isfinite(value) or value <= 0:
                problems.append(
                    f"{where}: {CATEGORY_LABELS[category]} ({category}) is missing or not "
                    "positive; enter the plant's figure"
                )
        key = plant_key(card.plant_id) if card.plant_id else None
        if key is None:
            problems.append(f"{where}: no plant_id; enter the plant's id")
        elif key in seen_plants:
            other = seen_plants[key]
            problems.append(
                f"{where}: plant {card.plant_id} is also on {other.id}"
                + ("" if other.plant_id == card.plant_id else f" (as {other.plant_id})")
            )
        else:
            seen_plants[key] = card
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


def repair_deck(
    deck: Deck, source: str = "deck", original: Deck | None = None, original_name: str = ""
) -> RepairResult:
    """The deck with every nr., flag, war partner, card id and joker recomputed.

    ``original`` is the deck the edited one was made from (the deck.json beside a
    deck.csv, named ``original_name``): figures that differ from it are recorded in the
    deck's spec as hand corrections, and the changes and the reprint verdict are against
    it. Raises :class:`ValidationFailed` (exit 1) listing what a person must fix first.
    """
    problems = _unrepairable(deck, source)
    if problems:
        raise ValidationFailed(source, problems)
    placed: list[tuple[Suit, int, Card]] = []
    for card in deck.plant_cards:
        place = _suit_value(card)
        assert place is not None  # checked by _unrepairable
        placed.append((*place, card.model_copy(update={"name": (card.name or "").strip()})))
    cards = derived_cards(placed, tie_break_of(deck))
    spec, recorded = record_hand_edits(deck, original, source)
    repaired = deck.model_copy(update={"cards": cards, "spec": spec})
    old_jokers = [card.model_dump(mode="json") for card in deck.jokers]
    new_jokers = [card.model_dump(mode="json") for card in repaired.jokers]
    jokers = ""
    if len(old_jokers) != JOKERS:
        jokers = f"{len(old_jokers)} in the deck, a deck has {JOKERS}"
    elif old_jokers != new_jokers:
        jokers = "ids, flags or plant fields of the jokers were changed"
    return RepairResult(
        deck=repaired,
        # The verdict is against the deck the repaired one replaces (the one printed), as
        # diff gives it: against the edited file it would miss the edit itself.
        changes=diff_decks(original or deck, repaired, original_name or source, "repaired"),
        report=validate_deck(repaired, source),
        jokers=jokers,
        recorded=recorded,
    )
